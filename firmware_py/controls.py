"""What the buttons mean: a highlight per seat over the pending options, and the HOST menu."""


class SeatControls:
    """The blinking highlight of one seat: an index into the pending decision's options."""

    __slots__ = ("index", "count")

    def __init__(self):
        self.index = 0
        self.count = 0

    def reset(self, count: int):
        """New options (``count`` of them, 0 when the decision is not this seat's): back to the first."""
        self.index = 0
        self.count = count

    def step(self, delta: int):
        """PREV/NEXT: move the highlight, wrapping around the ends."""
        if self.count:
            self.index = (self.index + delta) % self.count


class HostMenu:
    """The table menu on the centre panel, opened by holding HOST.

    While it is open, any seat's PREV/NEXT (or a short HOST press) moves
    through the items, OK chooses, BACK (or holding HOST again) closes it.
    "host code" shows a new host code (for the phone's host page), "address"
    where phones join (scrolling) with the join code, "legend" each tile
    colour's glyph and letter, each until the next button press.
    """

    ITEMS = ("new game", "host code", "address", "legend", "brightness", "palette")
    BRIGHTNESS_STEPS = (0.25, 0.5, 0.75, 1.0)
    PALETTES = ("standard", "colour-blind")

    def __init__(self):
        self.is_open = False
        self.index = 0

    def toggle(self):
        self.is_open = not self.is_open
        self.index = 0

    def close(self):
        self.is_open = False

    def press(self, button: str):
        """Apply a button; returns the chosen item on OK, else None."""
        if button in ("NEXT", "HOST"):
            self.index = (self.index + 1) % len(self.ITEMS)
        elif button == "PREV":
            self.index = (self.index - 1) % len(self.ITEMS)
        elif button == "BACK":
            self.close()
        elif button == "OK":
            return self.ITEMS[self.index]
        return None

    def view(self):
        """(items, highlighted index) while open, for the renderer; None when closed."""
        return (self.ITEMS, self.index) if self.is_open else None

    @classmethod
    def next_brightness(cls, current: float) -> float:
        larger = [b for b in cls.BRIGHTNESS_STEPS if b > current + 1e-9]
        return larger[0] if larger else cls.BRIGHTNESS_STEPS[0]

    @classmethod
    def next_palette(cls, current: str) -> str:
        return cls.PALETTES[(cls.PALETTES.index(current) + 1) % len(cls.PALETTES)] if current in cls.PALETTES else cls.PALETTES[0]
