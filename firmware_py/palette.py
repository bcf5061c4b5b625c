"""Colours for the LED panels, per game, in a standard and a colour-blind palette.

Both palettes of each game keep every pair of tile colours clearly apart
under simulated protanopia and deuteranopia, by lightness as well as hue (the
tests hold them to a minimum colour difference). Each colour also has a 2x2
glyph, drawn wherever a tile is shown 2x2, so colours can be told apart by
shape too. Azul Duel's black tiles are a mid grey, never "LED off". Values are
sRGB as sent to the frame buffer, before its gamma and brightness cap; faint
shades are made from them per colour for the LEDs' gamma and cap
(:meth:`firmware_py.painter.Painter.faint`).
"""
from dataclasses import dataclass

RGB = tuple  # (r, g, b), each 0-255


@dataclass(frozen=True)
class TileColour:
    letter: str  # the notation letter
    name: str
    rgb: RGB
    glyph: tuple  # 2x2 mask, rows top to bottom: which pixels of a 2x2 tile are lit


# The glyphs are all different and each lights at least two pixels, so a tile never reads as empty.
_SOLID = ((1, 1), (1, 1))
_DIAGONAL = ((1, 0), (0, 1))
_ANTI_DIAGONAL = ((0, 1), (1, 0))
_TOP = ((1, 1), (0, 0))
_LEFT = ((1, 0), (1, 0))
_THREE = ((1, 1), (1, 0))

PALETTES = {
    "duel": {
        "standard": (
            TileColour("B", "dark blue", (20, 60, 255), _SOLID),
            TileColour("T", "turquoise", (0, 210, 190), _DIAGONAL),
            TileColour("R", "red", (255, 40, 0), _ANTI_DIAGONAL),
            TileColour("Y", "yellow", (255, 200, 0), _TOP),
            TileColour("K", "black", (110, 110, 110), _LEFT),
        ),
        "colour-blind": (
            TileColour("B", "dark blue", (0, 40, 200), _SOLID),
            TileColour("T", "turquoise", (60, 220, 255), _DIAGONAL),
            TileColour("R", "red", (230, 20, 0), _ANTI_DIAGONAL),
            TileColour("Y", "yellow", (255, 230, 40), _TOP),
            TileColour("K", "black", (100, 100, 100), _LEFT),
        ),
    },
    "pavilion": {
        "standard": (
            TileColour("P", "purple", (195, 118, 220), _SOLID),
            TileColour("G", "green", (0, 152, 116), _DIAGONAL),
            TileColour("O", "orange", (247, 112, 34), _ANTI_DIAGONAL),
            TileColour("Y", "yellow", (255, 255, 0), _TOP),
            TileColour("B", "blue", (0, 80, 255), _LEFT),
            TileColour("R", "red", (154, 0, 6), _THREE),
        ),
        # Okabe-Ito's colour-universal-design set, the one colour-blind players know from print.
        "colour-blind": (
            TileColour("P", "purple", (204, 121, 167), _SOLID),
            TileColour("G", "green", (0, 158, 115), _DIAGONAL),
            TileColour("O", "orange", (230, 159, 0), _ANTI_DIAGONAL),
            TileColour("Y", "yellow", (240, 228, 66), _TOP),
            TileColour("B", "blue", (0, 114, 178), _LEFT),
            TileColour("R", "red", (213, 94, 0), _THREE),
        ),
    },
}

PALETTE_NAMES = ("standard", "colour-blind")

# Faint LEDs (empty spaces in the colour they take, outlines of empty areas, a glyph's unlit
# quarter) drive their brightest channel at this level of 255 after gamma and the brightness cap,
# whatever the brightness: low enough to stay well below every tile, high enough to be seen.
FAINT_LEVEL = 4
TILE_LEVEL = 3 * FAINT_LEVEL  # and every tile at least this, so that no tile is mistaken for a faint space

# Colours of the board itself, shared by both games.
OFF = (0, 0, 0)
FRAME = (255, 200, 140)  # the warm white of the outlines of empty areas, always drawn faint
SPECIAL = (200, 150, 90)  # Duel's special tiles: light brown
WILD_SPACE = (60, 60, 60)
CURSOR = (255, 255, 255)
ERROR = (255, 0, 0)
SEAT_COLOURS = ((255, 255, 255), (255, 160, 40), (60, 200, 255), (200, 80, 255))


def tile_colours(game: str, palette: str = "standard") -> tuple:
    """The tile colours of ``game`` in notation order, in the chosen palette."""
    try:
        return PALETTES[game][palette]
    except KeyError:
        raise ValueError(f"no palette {palette!r} for game {game!r} (palettes: {', '.join(PALETTE_NAMES)})") from None


def dim(rgb: RGB, factor: float) -> RGB:
    """``rgb`` scaled by ``factor`` (0-1)."""
    return tuple(int(round(c * factor)) for c in rgb)
