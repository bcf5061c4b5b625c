"""AI seats and hints at the table: the computer thinks off the session thread and plays only legal moves."""
import functools
import itertools
import random

from core_ext import ai, pavilion
from firmware_py.players import Thinker, check_levels
import pytest

from firmware_py.session import ChangeSettings, CommandRejected, Press, RequestHint, Seat, Session, Setup
from firmware_py.table import Table

import hardware

# the real search, held to a few iterations per decision so whole games stay quick
QUICK = functools.partial(ai.choose, iterations=30)


def test_three_ai_seats_and_one_human_at_the_buttons_finish_a_pavilion_game():
    seats = (Seat(kind="rig"), Seat(kind="ai", level="easy"), Seat(kind="ai", level="normal"), Seat(kind="ai", level="hard"))
    setup = Setup(game="pavilion", seats=seats, seed=12)
    hw = hardware.simulate(clock=hardware.ManualClock())
    session = Session(setup, thinker=Thinker(QUICK))
    choices = random.Random(3)
    with Table(hw, session):
        snapshot = session.snapshot
        for _ in range(2000):
            snapshot = session.wait_for_change(snapshot.version - 1, 0)
            if snapshot.over:
                break
            if snapshot.current_player != 0:
                snapshot = session.wait_for_change(snapshot.version, 10.0)
                continue
            index = choices.randrange(len(snapshot.options))
            for _ in range(index):
                hw.tap(0, "NEXT")
            hw.tap(0, "OK")
            snapshot = session.wait_for_change(snapshot.version, 10.0)
        assert snapshot.over, "the game did not finish"
    replay = pavilion.Game(players=4, seed=12)
    for _, notation in snapshot.history:
        replay.push(notation)  # every decision, the computer's included, was legal
    assert replay.is_over() and replay.scores() == snapshot.scores
    assert {seat for seat, _ in snapshot.history} == {0, 1, 2, 3}


def test_a_hint_moves_the_highlight_to_the_computers_choice():
    session = Session(Setup(game="duel", seed=2), thinker=Thinker(QUICK)).start()
    try:
        seat = session.snapshot.current_player
        version = session.call(RequestHint(seat))
        snapshot = session.wait_for_change(version, 10.0)
        assert snapshot.hint is not None and snapshot.hint[0] == seat
        assert snapshot.options[snapshot.cursors[seat]] == snapshot.hint[1]
    finally:
        session.stop()


def test_hints_can_be_turned_off_for_a_competitive_game():
    session = Session(Setup(game="duel", seed=2), thinker=Thinker(QUICK)).start()
    try:
        session.call(ChangeSettings(hints=False))
        with pytest.raises(CommandRejected, match="hints are turned off"):
            session.call(RequestHint(session.snapshot.current_player))
        assert session.snapshot.hint is None
    finally:
        session.stop()


def test_holding_ok_at_the_rig_asks_for_a_hint_and_moves_the_highlight():
    hw = hardware.simulate(clock=hardware.ManualClock())
    session = Session(Setup(game="pavilion", seed=5), thinker=Thinker(QUICK))
    with Table(hw, session):
        snapshot = session.snapshot
        seat = snapshot.current_player
        assert snapshot.hint is None and snapshot.cursors[seat] == 0
        hw.hold(seat, "OK")
        snapshot = session.wait_for_change(snapshot.version, 10.0)
        while snapshot.hint is None:
            snapshot = session.wait_for_change(snapshot.version, 10.0)
        assert snapshot.hint[0] == seat
        assert snapshot.options[snapshot.cursors[seat]] == snapshot.hint[1]
        assert not snapshot.history  # a hint plays nothing
        suggested = snapshot.hint[1]
        hw.tap(seat, "OK")
        snapshot = session.wait_for_change(snapshot.version, 10.0)
        assert snapshot.history[-1] == (seat, suggested)


def test_holding_ok_is_refused_while_hints_are_off():
    session = Session(Setup(game="duel", seed=2), thinker=Thinker(QUICK)).start()
    try:
        session.call(ChangeSettings(hints=False))
        with pytest.raises(CommandRejected, match="hints are turned off"):
            session.call(Press(session.snapshot.current_player, "OK", "hold"))
        assert session.snapshot.hint is None and not session.snapshot.history
    finally:
        session.stop()


def steady_clock(step):
    """A clock that moves ``step`` seconds at every reading, so every timed search takes exactly ``step``."""
    readings = itertools.count()
    return lambda: next(readings) * step


def test_the_doctor_times_the_hard_level_against_its_cap():
    hard = ai.level_of("hard")
    within = check_levels(clock=steady_clock(hard.seconds / 2), levels=("hard",))
    assert within.ok and within.subject == "computer players"
    assert (f"the hard level took at most {hard.seconds / 2:.1f} s in Azul Duel (2,400 iterations at 2 seats) and "
            f"{hard.seconds / 2:.1f} s in Azul: Summer Pavilion (2,400 iterations at 4 seats), "
            f"within its {hard.seconds:g} s cap") in within.text
    over = check_levels(clock=steady_clock(hard.seconds * 1.5), levels=("hard",))
    assert not over.ok and f"over its {hard.seconds:g} s cap" in over.text
    assert "the hard level plays weaker here than docs/ai.md measures" in over.text
    assert str(over).startswith("FIX computer players: the hard level took")


def test_the_doctor_names_each_level_that_its_cap_would_cut_and_offers_the_next_one_down(monkeypatch):
    """Every timed search takes 7 s: within the hard level's 8 s cap, over the expert level's 6 s."""
    monkeypatch.setattr(ai, "choose", lambda game, **budget: game.legal_moves()[0])
    assert ai.level_of("expert").seconds < 7 < ai.level_of("hard").seconds
    finding = check_levels(clock=steady_clock(7.0))
    assert not finding.ok
    assert "the hard level took at most 7.0 s in Azul Duel (2,400 iterations at 2 seats)" in finding.text
    assert ("the expert level took at most 7.0 s in Azul Duel (12,000 iterations at 2 seats) and 7.0 s in "
            "Azul: Summer Pavilion (6,000 iterations at 4 seats)") in finding.text
    assert "the expert level plays weaker here" in finding.text and "offer the hard level" in finding.text
    assert check_levels(clock=steady_clock(1.0)).ok
