"""Drawing primitives for the layouts: tiles, glyphs, bars and text on the rig's frame buffer."""
from firmware_py import font, palette


class Painter:
    """Draws on one frame buffer in one game's palette; off-panel pixels are ignored.

    Layouts describe *where* (their TOML data) and call these to say *what*.
    """

    def __init__(self, leds, game: str, palette_name: str = "standard"):
        self.leds = leds
        self.colours = palette.tile_colours(game, palette_name)
        self._sizes = {panel.name: (panel.width, panel.height) for panel in leds.layout.rig.panels}

    def has_panel(self, panel: str) -> bool:
        return panel in self._sizes

    def panel_size(self, panel: str) -> tuple:
        """(width, height) of ``panel``, or (0, 0) when the rig has no such panel."""
        return self._sizes.get(panel, (0, 0))

    def pixel(self, panel, x, y, rgb):
        size = self._sizes.get(panel)
        if size is not None and 0 <= x < size[0] and 0 <= y < size[1]:
            self.leds.set(panel, x, y, rgb)

    def rect(self, panel, x, y, width, height, rgb):
        for dy in range(height):
            for dx in range(width):
                self.pixel(panel, x + dx, y + dy, rgb)

    def tile(self, panel, x, y, colour: int, size: int = 1, level: float = 1.0):
        """A tile of colour index ``colour``: one LED, or a 2x2 glyph (the second cue besides hue)."""
        tile = self.colours[colour]
        rgb = palette.dim(tile.rgb, level) if level != 1.0 else tile.rgb
        if size == 1:
            self.pixel(panel, x, y, rgb)
            return
        for dy, row in enumerate(tile.glyph):
            for dx, lit in enumerate(row):
                self.pixel(panel, x + dx, y + dy, rgb if lit else palette.dim(rgb, 0.15))

    def text(self, panel, x, y, text, rgb):
        for dx, dy in font.text_pixels(text):
            self.pixel(panel, x + dx, y + dy, rgb)

    def number(self, panel, x, y, value: int, rgb, width: int = 3):
        """``value`` right-aligned in a field of ``width`` digits."""
        digits = str(value)[-width:]
        offset = font.text_width("0" * width) - font.text_width(digits)
        self.text(panel, x + offset, y, digits, rgb)

    def bar(self, panel, x, y, length: int, filled: int, rgb, *, vertical: bool = False, empty=palette.FRAME):
        """``filled`` of ``length`` LEDs lit in a row (or column)."""
        for i in range(length):
            colour = rgb if i < filled else empty
            self.pixel(panel, x + (0 if vertical else i), y + (i if vertical else 0), colour)
