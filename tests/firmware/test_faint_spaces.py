"""Empty spaces glow faintly in the colour they take, and every one of them is lit on the LEDs:
checked on the drive levels the LEDs get (after gamma and the brightness cap), at every
brightness the HOST menu offers, in both palettes."""
import pytest

import hardware
from core_ext import pavilion
from firmware_py import palette
from firmware_py.controls import HostMenu
from firmware_py.display import TableDisplay
from firmware_py.layouts import pavilion as pavilion_layout
from firmware_py.painter import Painter
from firmware_py.session import Seat, Session, Setup

BRIGHTNESSES = HostMenu.BRIGHTNESS_STEPS


@pytest.fixture
def hw():
    simulated = hardware.simulate(clock=hardware.ManualClock())
    yield simulated
    simulated.close()


def drive_level(leds, rgb):
    """The brightest channel's drive level (of 255) of ``rgb`` on ``leds`` now."""
    table = hardware.frame.level_table(leds.rig.gamma, leds.rig.max_brightness * leds.brightness)
    return max(table[c] for c in rgb)


@pytest.mark.parametrize("game", sorted(palette.PALETTES))
@pytest.mark.parametrize("name", palette.PALETTE_NAMES)
@pytest.mark.parametrize("brightness", BRIGHTNESSES)
def test_each_colours_faint_shade_is_lit_and_below_its_tile(hw, game, name, brightness):
    hw.leds.brightness = brightness
    painter = Painter(hw.leds, game, name)
    for tile in painter.colours:
        assert drive_level(hw.leds, tile.rgb) >= palette.TILE_LEVEL, tile
        assert palette.FAINT_LEVEL <= drive_level(hw.leds, painter.faint(tile.rgb)) < palette.TILE_LEVEL, tile
    for tint in (palette.FRAME, pavilion_layout.CENTRE_STAR):  # shades of empty spaces that take any colour
        assert palette.FAINT_LEVEL <= drive_level(hw.leds, painter.faint(tint)) < palette.TILE_LEVEL


@pytest.mark.parametrize("side", pavilion.SIDES)
@pytest.mark.parametrize("name", palette.PALETTE_NAMES)
@pytest.mark.parametrize("brightness", BRIGHTNESSES)
def test_every_empty_star_space_of_a_new_pavilion_game_is_lit(hw, side, name, brightness):
    session = Session(Setup(game="pavilion", seats=(Seat(),) * 4, seed=1, flags=(("side", side),)),
                      brightness=brightness, palette=name)
    TableDisplay(hw.leds, clock=lambda: 0.0).draw(session.snapshot)
    shown = hw.memory.panels()  # the drive levels the LEDs got
    for seat in range(4):
        for star in pavilion.STARS:
            for space in range(1, 7):
                level = max(shown.pixel(f"seat{seat}", *pavilion_layout.space_xy(star, space)))
                assert level >= palette.FAINT_LEVEL, (seat, star, space, level)
