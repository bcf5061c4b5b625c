"""Drawing primitives for the layouts: tiles, glyphs, bars and text on the rig's frame buffer."""
import dataclasses

from firmware_py import font, palette


def _at_least(rgb, lowest):
    """``rgb``, brightened in proportion where its brightest channel is below ``lowest``."""
    top = max(rgb)
    return rgb if top >= lowest else tuple(min(255, -(-c * lowest // top)) for c in rgb)


class Painter:
    """Draws on one frame buffer in one game's palette; off-panel pixels are ignored.

    ``colours`` are the palette's, a dark one brightened at low brightness settings so that
    every tile drives at least :data:`palette.TILE_LEVEL`, well above the faint shades.

    Layouts describe *where* (their TOML data) and call these to say *what*.
    """

    def __init__(self, leds, game: str, palette_name: str = "standard"):
        self.leds = leds
        self._sizes = {panel.name: (panel.width, panel.height) for panel in leds.layout.rig.panels}
        self._lowest = leds.lowest_value(palette.FAINT_LEVEL)
        self._faint = {}
        self._lowest_tile = leds.lowest_value(palette.TILE_LEVEL)
        self.colours = tuple(dataclasses.replace(c, rgb=self.lit(c.rgb)) for c in palette.tile_colours(game, palette_name))
        self.neutral = self.lit(palette.WILD_SPACE)  # a lit grey: counters, the stack
        self.frame = self.faint(palette.FRAME)  # the outline of an empty area

    def lit(self, rgb):
        """``rgb``, brightened in proportion where the LEDs would drive it below :data:`palette.TILE_LEVEL`:
        how a dark colour of something present (a tile, a face-down chip) stays clearly on."""
        return _at_least(rgb, self._lowest_tile)

    def faint(self, rgb):
        """The faintest shade of ``rgb`` that the LEDs still show: its brightest channel driven at
        :data:`palette.FAINT_LEVEL` after gamma and the brightness cap, the others in proportion.
        Chosen per colour, since a fixed share of a dark colour (a deep red) vanishes under gamma."""
        shade = self._faint.get(rgb)
        if shade is None:
            top = max(rgb) or 1
            shade = self._faint[rgb] = tuple(min(255, -(-c * self._lowest // top)) for c in rgb)
        return shade

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

    def tile(self, panel, x, y, colour: int, size: int = 1):
        """A tile of colour index ``colour``: one LED, or a 2x2 glyph (the second cue besides hue)
        whose unlit quarters glow faintly in the tile's colour."""
        tile = self.colours[colour]
        if size == 1:
            self.pixel(panel, x, y, tile.rgb)
            return
        for dy, row in enumerate(tile.glyph):
            for dx, lit in enumerate(row):
                self.pixel(panel, x + dx, y + dy, tile.rgb if lit else self.faint(tile.rgb))

    def text(self, panel, x, y, text, rgb):
        for dx, dy in font.text_pixels(text):
            self.pixel(panel, x + dx, y + dy, rgb)

    def number(self, panel, x, y, value: int, rgb, width: int = 3):
        """``value`` right-aligned in a field of ``width`` digits."""
        digits = str(value)[-width:]
        offset = font.text_width("0" * width) - font.text_width(digits)
        self.text(panel, x + offset, y, digits, rgb)

    def bar(self, panel, x, y, length: int, filled: int, rgb, *, vertical: bool = False, empty=None):
        """``filled`` of ``length`` LEDs lit in a row (or column), the rest ``empty`` (default: the outline)."""
        empty = self.frame if empty is None else empty
        for i in range(length):
            colour = rgb if i < filled else empty
            self.pixel(panel, x + (0 if vertical else i), y + (i if vertical else 0), colour)
