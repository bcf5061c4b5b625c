"""A refused press at the rig flashes its seat's panel and shows a short code there, which the help page's
legend explains: each reason the table refuses a press has its code, read back off the simulated LEDs."""
import pytest

import hardware
from firmware_py import font, layouts, palette
from firmware_py.display import CODE_S, FLASH_S, OTHER_REFUSAL, REFUSAL_CODES, TableDisplay, refusal_code
from firmware_py.session import CommandRejected, Press, Seat, Session, Setup
from web_remote.messages import MESSAGES


@pytest.fixture
def hw():
    simulated = hardware.simulate(clock=hardware.ManualClock())
    yield simulated
    simulated.close()


def lit_code(hw, panel):
    """The code drawn in the middle of ``panel``, read back from the LEDs' drive levels."""
    shown = hw.memory.panels()
    width, height = shown.widths[panel], len(shown.levels[panel]) // (3 * shown.widths[panel])
    for code in {code for _, code in REFUSAL_CODES} | {OTHER_REFUSAL}:
        left, top = (width - font.text_width(code)) // 2, (height - font.GLYPH_HEIGHT) // 2
        lit = {(x, y) for x in range(font.text_width(code)) for y in range(font.GLYPH_HEIGHT)
               if max(shown.pixel(panel, left + x, top + y)) > 0}
        if lit == set(font.text_pixels(code)):
            return code
    return None


@pytest.mark.parametrize("reason, code", [
    ("it is Ana's decision, not Bo's", "TRN"), ("the game is over", "END"), ("there is only one option", "ONE"),
    ("hold HOST to open the menu", "HLD"), ("nothing to step back to", "BCK"),
    ("there is nothing to undo", "UND"), ("nobody asked for an undo", "UND"), ("something new", OTHER_REFUSAL),
])
def test_each_reason_has_its_code(reason, code):
    assert refusal_code(reason) == code


def test_the_legend_explains_every_code():
    for code in {code for _, code in REFUSAL_CODES} | {OTHER_REFUSAL}:
        assert f"help.refusal.{code}" in MESSAGES


def test_a_press_out_of_turn_shows_its_code_on_the_seat_then_clears(hw):
    setup = Setup(game="duel", seats=(Seat("rig", "Ana"), Seat("rig", "Bo")), seed=2)
    session = Session(setup)
    waiting = 1 - session.snapshot.current_player
    with pytest.raises(CommandRejected):
        session.apply(Press(waiting, "OK"))
    now = [10.0]
    display = TableDisplay(hw.leds, clock=lambda: now[0])
    display.update(session.snapshot)
    panel = layouts.seat_panel(waiting)
    display.draw(session.snapshot)
    assert lit_code(hw, panel) == "TRN"
    assert max(hw.memory.panels().pixel(panel, 0, 0)) > 0  # the red frame's corner
    now[0] += FLASH_S + 0.1  # the frame is gone, the code stays to be read
    display.draw(session.snapshot)
    assert lit_code(hw, panel) == "TRN"
    now[0] += CODE_S
    display.draw(session.snapshot)
    assert lit_code(hw, panel) is None
    assert lit_code(hw, layouts.seat_panel(1 - waiting)) is None
