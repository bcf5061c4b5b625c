"""Buttons through gpiozero MockFactory pins: debounce, long press and plain event values, on a manual clock."""
import queue
import time

import pytest

from hardware import HOLD, PRESS, ButtonEvent, ManualClock, simulate
from tests.patience import patient


def drain(events):
    found = []
    while True:
        try:
            found.append(events.get_nowait())
        except queue.Empty:
            return found


def test_a_bouncing_contact_gives_one_press(sim):
    pin = sim.pin(0, "NEXT")
    for _ in range(6):  # 6 bounces, 2 ms apart, well inside the 30 ms debounce time
        pin.drive_low()
        sim.wait(0.002)
        pin.drive_high()
        sim.wait(0.002)
    pin.drive_low()
    sim.wait(0.002)
    assert drain(sim.events) == [ButtonEvent(0, "NEXT", PRESS, 0.0)]  # at the first closing edge
    sim.wait(0.03)
    assert drain(sim.events) == []
    pin.drive_high()  # a bouncy release gives nothing more
    sim.wait(0.001)
    pin.drive_low()
    sim.wait(0.001)
    pin.drive_high()
    sim.wait(0.05)
    assert drain(sim.events) == []


def test_the_presses_go_through_gpiozero(sim):
    sim.press(1, "NEXT")
    assert sim.buttons.device(1, "NEXT").is_pressed
    sim.release(1, "NEXT")
    assert not sim.buttons.device(1, "NEXT").is_pressed


def test_a_release_shorter_than_the_debounce_time_is_a_bounce_not_a_second_press(sim):
    sim.press(2, "PREV")
    sim.wait(0.04)
    sim.release(2, "PREV")
    sim.wait(0.01)  # released for only 10 ms: the contact may still be bouncing
    sim.press(2, "PREV")
    assert drain(sim.events) == [ButtonEvent(2, "PREV", PRESS, 0.0)]
    sim.wait(0.029)
    sim.release(2, "PREV")  # never stable long enough to count
    sim.wait(0.1)
    assert drain(sim.events) == []
    sim.press(2, "PREV")
    assert drain(sim.events) == [ButtonEvent(2, "PREV", PRESS, pytest.approx(0.179))]


def test_a_release_and_a_new_press_count_though_no_tick_came_between_them(sim):
    """The ticking thread can come late on a busy machine: a release stable for the debounce time, then a new
    press, are still two presses (a long-press button's first reported as it was released), and a hold that
    came due before the release is still a hold."""
    for button in ("NEXT", "OK"):
        pin, start = sim.pin(0, button), sim.clock.now()
        pin.drive_low()
        sim.clock.sleep(0.06)
        pin.drive_high()
        sim.clock.sleep(0.06)  # released for twice the debounce time, and no tick ran
        pin.drive_low()
        sim.clock.sleep(0.06)
        pin.drive_high()
        presses = [start, start + 0.12] if button == "NEXT" else [start]
        assert drain(sim.events) == [ButtonEvent(0, button, PRESS, pytest.approx(at)) for at in presses], button
        sim.wait(0.1)
        drain(sim.events)
    back = sim.pin(1, "BACK")
    pressed = sim.clock.now()
    back.drive_low()
    sim.clock.sleep(sim.rig.hold_s + 0.1)
    back.drive_high()
    sim.wait(0.1)
    assert drain(sim.events) == [ButtonEvent(1, "BACK", HOLD, pytest.approx(pressed + sim.rig.hold_s))]


class LateClock(ManualClock):
    """The buttons' clock of a busy machine: a thread that sleeps wakes up a second and a half late."""

    def sleep(self, seconds):
        self.advance(seconds + 1.5)


def test_a_simulated_tap_stays_a_tap_however_late_its_thread_wakes_up():
    """The simulator's tap (its page, /simulator/press) is a short press whatever the machine is doing: on a
    long-press button too it is a press, not a hold (for OK, a hint asked for instead of the move played)."""
    with simulate(clock=LateClock()) as sim:
        for seat, button in ((0, "OK"), (1, "BACK"), (2, "NEXT")):
            start = sim.clock.now()
            sim.tap(seat, button)
            assert drain(sim.events) == [ButtonEvent(seat, button, PRESS, pytest.approx(start))], button
        sim.hold(3, "OK")
        assert [(event.button, event.kind) for event in drain(sim.events)] == [("OK", HOLD)]


def test_plain_buttons_report_a_press_at_once(sim):
    sim.press(3, "NEXT")
    assert drain(sim.events) == [ButtonEvent(3, "NEXT", PRESS, 0.0)]
    sim.wait(5)  # held long: plain buttons have no hold
    sim.release(3, "NEXT")
    sim.wait(0.1)
    assert drain(sim.events) == []


def test_holding_back_asks_for_a_hold_once(sim):
    sim.press(0, "BACK")
    sim.wait(0.999)
    assert drain(sim.events) == []
    sim.wait(0.001)
    assert drain(sim.events) == [ButtonEvent(0, "BACK", HOLD, 1.0)]
    sim.wait(3)
    sim.release(0, "BACK")
    sim.wait(0.1)
    assert drain(sim.events) == []


def test_a_short_back_press_is_reported_on_release(sim):
    sim.press(1, "BACK")
    sim.wait(0.3)
    assert drain(sim.events) == []
    sim.release(1, "BACK")
    sim.wait(0.03)
    assert drain(sim.events) == [ButtonEvent(1, "BACK", PRESS, 0.0)]


def test_host_events_have_no_seat(sim):
    sim.tap(None, "HOST")
    sim.hold(None, "HOST")
    assert [(e.seat, e.button, e.kind) for e in drain(sim.events)] == [(None, "HOST", PRESS), (None, "HOST", HOLD)]


def test_a_hold_needs_the_contact_still_closed(sim):
    sim.press(0, "BACK")
    sim.wait(0.98)
    sim.release(0, "BACK")  # let go just before the hold time; the release is still being debounced
    sim.wait(0.025)
    assert drain(sim.events) == []
    sim.wait(0.01)
    assert drain(sim.events) == [ButtonEvent(0, "BACK", PRESS, 0.0)]


def test_every_button_of_every_seat_is_wired(sim):
    for seat in range(4):
        for name in ("PREV", "NEXT", "OK", "BACK"):
            sim.tap(seat, name)
    events = drain(sim.events)
    assert [(e.seat, e.button) for e in events] == [(s, n) for s in range(4) for n in ("PREV", "NEXT", "OK", "BACK")]
    assert {e.kind for e in events} == {PRESS}


def test_events_are_plain_values():
    event = ButtonEvent(2, "OK", PRESS, 1.5)
    assert event == ButtonEvent(2, "OK", PRESS, 1.5)
    assert hash(event) == hash(ButtonEvent(2, "OK", PRESS, 1.5))
    with pytest.raises(AttributeError):
        event.seat = 3


def test_unknown_buttons_are_refused(sim):
    with pytest.raises(ValueError, match="no button 'START' at seat 0"):
        sim.press(0, "START")
    with pytest.raises(ValueError, match="no button 'OK' at seat 4"):
        sim.tap(4, "OK")


def test_events_can_go_to_a_given_queue():
    from hardware import ManualClock

    shared = queue.Queue()
    with simulate(clock=ManualClock(), events=shared) as hw:
        hw.tap(0, "OK")
    assert shared.get_nowait().button == "OK"


def test_real_time_ticking_thread_delivers_events():
    with simulate() as hw:
        hw.tap(2, "NEXT")
        event = hw.events.get(timeout=2)
    assert (event.seat, event.button, event.kind) == (2, "NEXT", PRESS)


def test_real_time_ticking_thread_reports_a_hold_with_no_edge_after_the_press():
    with simulate() as hw:
        hw.pin(None, "HOST").drive_low()
        event = hw.events.get(timeout=hw.rig.hold_s + 2)
        hw.pin(None, "HOST").drive_high()
    assert (event.seat, event.button, event.kind) == (None, "HOST", HOLD)


def test_idle_buttons_are_not_polled_and_a_release_is_confirmed_without_a_later_edge():
    """The ticking thread wakes for an edge and while a level or a hold waits for its time, not otherwise:
    an idle table spends nothing on its buttons."""
    with simulate() as hw:
        ticks = []
        real_tick = hw.buttons.tick
        hw.buttons.tick = lambda: (ticks.append(hw.clock.now()), real_tick())
        hw.pin(0, "NEXT").drive_low()  # wakes the thread once: nothing left to wait for after it
        assert hw.events.get(timeout=2).kind == PRESS
        time.sleep(0.1)
        before_rest = len(ticks)
        time.sleep(0.3)
        assert len(ticks) == before_rest, f"{len(ticks) - before_rest} ticks while nothing waited"
        hw.pin(0, "NEXT").drive_high()  # counts once stable for the debounce time, with no edge after it
        time.sleep(patient(10 * hw.rig.debounce_s))
        hw.pin(0, "NEXT").drive_low()  # a new press is one only once that release was confirmed
        assert hw.events.get(timeout=2).kind == PRESS


def test_closing_releases_the_pins():
    from hardware import ManualClock

    first = simulate(clock=ManualClock())
    device = first.buttons.device(0, "OK")
    first.close()
    assert device.closed
    first.close()  # twice is fine
