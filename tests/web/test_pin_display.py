"""The join code on the centre panel: drawn over the table's picture while it is shown, then gone."""
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
    """The lit pixels of the centre panel's top seven rows, as (x, y) offsets from the text's top."""
    frame = memory.panels()
    return {(x, y - 1) for y in range(7) for x in range(width) if frame.pixel("centre", x, y) != (0, 0, 0)}


def test_the_code_is_shown_on_the_centre_panel_until_its_time_is_up():
    # Azul Duel's first decision takes a plate from the display at the panel's foot: the code goes on top
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
