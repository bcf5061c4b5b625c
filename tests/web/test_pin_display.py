"""The host PIN on the centre panel: drawn over the table's picture while it is shown, then gone."""
import hardware
from firmware_py import font
from firmware_py.display import TableDisplay
from firmware_py.session import Session, Setup


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def lit_band(memory, width, height):
    """The lit pixels of the centre panel's bottom seven rows, as (x, y) offsets from the band's top."""
    frame = memory.panels()
    return {(x, y - (height - 6)) for y in range(height - 7, height) for x in range(width)
            if frame.pixel("centre", x, y) != (0, 0, 0)}


def test_the_pin_is_shown_at_the_foot_of_the_centre_panel_until_its_time_is_up():
    hw = hardware.simulate(clock=hardware.ManualClock())
    clock = Clock()
    display = TableDisplay(hw.leds, clock=clock)
    snapshot = Session(Setup(game="duel", seed=2)).snapshot
    width, height = hw.rig.panel("centre").width, hw.rig.panel("centre").height
    try:
        display.show_pin("406813", seconds=30)
        display.draw(snapshot)
        left = (width - 4 * 6) // 2
        assert lit_band(hw.memory, width, height) == {(left + x, y) for x, y in font.text_pixels("406813")}
        clock.now += 31
        display.draw(snapshot)
        assert lit_band(hw.memory, width, height) != {(left + x, y) for x, y in font.text_pixels("406813")}
    finally:
        hw.close()
