"""The LED palettes: every tile colour stays distinguishable with red-green colour blindness."""
import pytest

from firmware_py import palette
from colour_vision import closest_pair, lab

MIN_DELTA_E = 15  # CIE76; about 2.3 is a just-noticeable difference, 15 reads at a glance


@pytest.mark.parametrize("game", sorted(palette.PALETTES))
@pytest.mark.parametrize("name", palette.PALETTE_NAMES)
@pytest.mark.parametrize("vision", ["normal", "protanopia", "deuteranopia"])
def test_tile_colours_stay_apart(game, name, vision):
    distance, first, second = closest_pair(palette.tile_colours(game, name), vision)
    assert distance >= MIN_DELTA_E, f"{first} and {second} are only {distance:.1f} apart with {vision}"


@pytest.mark.parametrize("game", sorted(palette.PALETTES))
def test_each_colour_has_its_own_glyph_and_letter(game):
    for name in palette.PALETTE_NAMES:
        colours = palette.tile_colours(game, name)
        assert len({c.glyph for c in colours}) == len(colours)
        assert len({c.letter for c in colours}) == len(colours)
        assert all(sum(map(sum, c.glyph)) >= 2 for c in colours)


def test_black_tiles_are_lit():
    black = next(c for c in palette.tile_colours("duel") if c.letter == "K")
    assert lab(black.rgb)[0] > 30  # clearly brighter than an unlit LED


def test_unknown_palette_is_a_clear_error():
    with pytest.raises(ValueError, match="no palette 'neon'"):
        palette.tile_colours("duel", "neon")
