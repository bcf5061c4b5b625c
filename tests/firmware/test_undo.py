"""Undo needs the consent of whoever made the decision it takes back, at the rig as on a phone."""
import threading
import time

import pytest

from firmware_py import font
from firmware_py.journal import Journal
from firmware_py.players import Thinker
from firmware_py.session import (
    UNDO_REQUEST_S, AnswerUndo, ChangeSettings, CommandRejected, Play, Press, RequestUndo, Seat, Session, Setup,
)


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def play_until_undoable(session, seat=None):
    """Play first options until the last decision revealed nothing and, if given, was ``seat``'s
    while another seat decides now."""
    for _ in range(300):
        snapshot = session.snapshot
        last = session._decisions[-1] if session._decisions else None
        if last is not None and not last.revealed and (seat is None or seat == last.seat != snapshot.current_player):
            return last.seat
        session.apply(Play(snapshot.current_player, snapshot.options[0]))
    raise AssertionError("no undoable decision reached")


def three_seats(kinds=("rig", "rig", "rig"), clock=None):
    setup = Setup(game="pavilion", seats=tuple(Seat(kind=k) for k in kinds), seed=5)
    return Session(setup, **({"clock": clock} if clock else {}))


def test_a_players_own_decision_is_taken_back_at_their_request():
    session = three_seats()
    seat = play_until_undoable(session)
    history = session.snapshot.history
    session.apply(RequestUndo(seat))
    assert session.snapshot.history == history[:-1] and session.snapshot.undo_request is None


def test_another_players_decision_waits_for_that_player_and_no_one_else():
    """Issue 11, finding 9: seat 0 asks to undo seat 1's move; seat 2's consent must not take it back."""
    session = three_seats()
    play_until_undoable(session, seat=1)
    history = session.snapshot.history
    session.apply(RequestUndo(0))
    request = session.snapshot.undo_request
    assert (request.seat, request.decision, request.waiting) == (0, history[-1], (1,))
    with pytest.raises(CommandRejected, match="waits for Player 2, not Player 3$"):
        session.apply(AnswerUndo(2, True))
    with pytest.raises(CommandRejected, match="waits for Player 2, not Player 1"):
        session.apply(AnswerUndo(0, True))
    assert session.snapshot.history == history and session.snapshot.undo_request == request
    session.apply(AnswerUndo(1, True))
    assert session.snapshot.history == history[:-1]


def test_a_refusal_keeps_the_decision():
    session = three_seats()
    play_until_undoable(session, seat=1)
    history = session.snapshot.history
    session.apply(RequestUndo(2))
    session.apply(AnswerUndo(1, False))
    assert session.snapshot.history == history and session.snapshot.undo_request is None


def test_the_computers_decision_needs_one_other_human():
    session = three_seats(("rig", "ai", "phone"))
    play_until_undoable(session, seat=1)
    history = session.snapshot.history
    session.apply(RequestUndo(0))
    request = session.snapshot.undo_request
    assert request.waiting == (2,) and request.any_one
    session.apply(AnswerUndo(2, True))
    undone = session.snapshot.history
    assert session.snapshot.current_player == 0, "seat 0 is back at its own decision"
    assert undone == history[:len(undone)] and [seat for seat, _ in history[len(undone):]] == [0, 1]


# -- against the computer -------------------------------------------------------------


class CountingThinker(Thinker):
    """The computer playing each decision's first option at once, counting the searches it was asked for."""

    def __init__(self):
        self.searches = []
        super().__init__(self._first_option)

    def _first_option(self, game, level, seed=None, cancel=None):
        self.searches.append(str(game.pending))
        return game.legal_moves()[0]


def settle(session, timeout=10.0):
    """Wait until the computer has made every decision it is to make now."""
    snapshot = session.snapshot
    deadline = time.monotonic() + timeout
    while not snapshot.over and session.setup.seats[snapshot.current_player].kind == "ai":
        assert time.monotonic() < deadline, "the computer did not play"
        snapshot = session.wait_for_change(snapshot.version, 0.2)
    return snapshot


def play_against_the_computer(session, asker):
    """Play the humans' first options until ``asker``'s undo would take back the computer's decisions
    together with ``asker``'s own last one."""
    for _ in range(600):
        snapshot = settle(session)
        plan = snapshot.undo_plans[asker]
        if plan.possible and len(plan.decisions) > 1 and plan.decisions[0][0] == asker:
            return snapshot
        session.call(Play(snapshot.current_player, snapshot.options[0]))
    raise AssertionError("no undo back over the computer's decisions reached")


def position_before(session, snapshot, count):
    """The position ``count`` decisions before ``snapshot``, replayed on the bare game."""
    game = session.setup.new_game()
    for _, notation in snapshot.history[:-count]:
        game.push(notation)
    return game


AGAINST_THE_COMPUTER = {
    "duel": Setup(game="duel", seats=(Seat(), Seat(kind="ai")), seed=3),
    "pavilion": Setup(game="pavilion", seats=(Seat(kind="ai"), Seat(), Seat(kind="ai")), seed=8),
}


@pytest.mark.parametrize("game", sorted(AGAINST_THE_COMPUTER))
def test_undo_against_the_computer_alone_goes_back_to_the_askers_own_decision(game):
    """The computer's replies and the player's own last decision go back in one request, and the
    computer does not reply again until the player has chosen again."""
    setup = AGAINST_THE_COMPUTER[game]
    asker = next(i for i, seat in enumerate(setup.seats) if seat.kind != "ai")
    thinker = CountingThinker()
    session = Session(setup, thinker=thinker).start()
    try:
        before = play_against_the_computer(session, asker)
        plan = before.undo_plans[asker]
        assert {seat for seat, _ in plan.decisions[1:]} <= {i for i, s in enumerate(setup.seats) if s.kind == "ai"}
        searches = len(thinker.searches)
        session.call(RequestUndo(asker))
        after = session.snapshot
        expected = position_before(session, before, len(plan.decisions))
        assert after.history == before.history[:-len(plan.decisions)] and after.undo_request is None
        assert after.current_player == asker and after.state == expected.to_dict()
        assert after.options == tuple(str(move) for move in expected.legal_moves())
        time.sleep(0.3)
        assert session.snapshot.history == after.history, "the computer moved before the player chose again"
        assert len(thinker.searches) == searches, "the computer searched the player's own decision"
        session.call(Play(asker, after.options[-1]))
        assert len(settle(session).history) > len(after.history)
    finally:
        session.stop()


def test_undo_against_the_computer_with_another_human_waits_for_that_human():
    """Seat 0 asks at seat 2's turn, right after the computer's reply: seat 2 must agree, and then
    seat 0 is back at its own decision with the computer's reply gone."""
    setup = Setup(game="pavilion", seats=(Seat(), Seat(kind="ai"), Seat(kind="phone")), seed=5)
    thinker = CountingThinker()
    session = Session(setup, thinker=thinker).start()
    try:
        for _ in range(600):
            before = settle(session)
            plan = before.undo_plans[0]
            if (plan.possible and len(plan.decisions) > 1 and plan.decisions[0][0] == 0
                    and before.current_player == 2 and {s for s, _ in plan.decisions[1:]} == {1}):
                break
            session.call(Play(before.current_player, before.options[0]))
        session.call(RequestUndo(0))
        assert session.snapshot.undo_request.waiting == (2,) and session.snapshot.history == before.history
        session.call(AnswerUndo(2, True))
        after = session.snapshot
        assert after.history == before.history[:-len(plan.decisions)] and after.current_player == 0
        assert after.state == position_before(session, before, len(plan.decisions)).to_dict()
        searches = len(thinker.searches)
        time.sleep(0.3)
        assert session.snapshot.history == after.history and len(thinker.searches) == searches
    finally:
        session.stop()


def test_another_humans_decision_in_between_needs_that_human():
    """Seat 2 asks at the computer's turn: seat 0's decision lies between, so seat 0 must agree."""
    session = three_seats(("rig", "ai", "rig"))
    for _ in range(300):
        plan = session.snapshot.undo_plans[2]
        if plan.possible and {seat for seat, _ in plan.decisions} == {0, 1, 2}:
            break
        session.apply(Play(session.snapshot.current_player, session.snapshot.options[0]))
    history = session.snapshot.history
    session.apply(RequestUndo(2))
    request = session.snapshot.undo_request
    assert request.waiting == (0,) and not request.any_one
    session.apply(AnswerUndo(0, True))
    assert session.snapshot.history == history[:-len(plan.decisions)] and session.snapshot.current_player == 2


def test_a_search_started_before_the_undo_never_lands():
    """The player takes back their own decision while the computer is still thinking about its reply."""
    release = threading.Event()

    def slow_first_option(game, level, seed=None, cancel=None):
        release.wait(10)
        return game.legal_moves()[0]

    session = Session(Setup(game="duel", seats=(Seat(), Seat(kind="ai")), seed=3),
                      thinker=Thinker(slow_first_option)).start()
    try:
        for _ in range(100):
            snapshot = session.snapshot
            if snapshot.current_player == 0:
                session.call(Play(0, snapshot.options[0]))
                snapshot = session.snapshot
                if snapshot.current_player == 1 and snapshot.undo_plans[0].possible:
                    break
            release.set()
            settle(session)
            release.clear()
        history = session.snapshot.history
        session.call(RequestUndo(0))
        release.set()
        time.sleep(0.3)
        assert session.snapshot.history == history[:-1] and session.snapshot.current_player == 0
    finally:
        release.set()
        session.stop()


def test_an_undo_behind_a_reveal_is_refused_and_says_why():
    session = Session(Setup(game="duel", seats=(Seat(), Seat(kind="ai")), seed=3))
    for _ in range(300):
        plan = session.snapshot.undo_plans[0]
        if not plan.possible and "lies behind" in plan.refusal:
            break
        session.apply(Play(session.snapshot.current_player, session.snapshot.options[0]))
    else:
        raise AssertionError("no undo behind a reveal reached")
    history = session.snapshot.history
    with pytest.raises(CommandRejected, match="behind one that revealed"):
        session.apply(RequestUndo(0))
    assert session.snapshot.history == history


def test_the_undo_plans_leave_out_the_computers_seats_and_say_when_nothing_can_be_undone():
    session = Session(Setup(game="duel", seats=(Seat(), Seat(kind="ai")), seed=3))
    plans = session.snapshot.undo_plans
    assert plans[1] is None and not plans[0].possible and "nothing to undo" in plans[0].refusal


def test_a_resumed_game_after_an_undo_over_the_computers_decisions_is_the_position_after_the_undo(tmp_path):
    journal = Journal(tmp_path)
    session = Session(Setup(game="duel", seats=(Seat(), Seat(kind="ai")), seed=3), journal=journal)
    for _ in range(300):
        plan = session.snapshot.undo_plans[0]
        if plan.possible and len(plan.decisions) >= 3:
            break
        session.apply(Play(session.snapshot.current_player, session.snapshot.options[0]))
    session.apply(RequestUndo(0))
    undone = session.snapshot
    journal.close()
    again = Journal(tmp_path)
    resumed = again.resume()
    restarted = Session(resumed.setup, game=resumed.game, journal=again)
    assert restarted.snapshot.history == undone.history and restarted.snapshot.state == undone.state
    assert [row[2] for row in again.undos(resumed.game_id)] == [n for _, n in plan.decisions]
    restarted.apply(Play(0, restarted.snapshot.options[0]))  # the journal's line goes on from the undo
    assert again.games()[0].decisions == len(undone.history) + 1
    again.close()


def test_an_unanswered_request_lapses():
    clock = Clock()
    session = three_seats(clock=clock)
    play_until_undoable(session, seat=1)
    session.apply(RequestUndo(0))
    clock.now += UNDO_REQUEST_S - 1
    session.apply(ChangeSettings())
    assert session.snapshot.undo_request is not None
    clock.now += 1
    with pytest.raises(CommandRejected, match="nobody asked"):
        session.apply(AnswerUndo(1, True))


def test_only_a_long_press_answers_at_the_rig():
    session = three_seats()
    play_until_undoable(session, seat=1)
    history = session.snapshot.history
    session.apply(RequestUndo(0))
    with pytest.raises(CommandRejected, match="decision, not Player 2"):
        session.apply(Press(1, "OK"))  # a short OK never answers
    assert session.snapshot.undo_request is not None
    session.apply(Press(2, "OK", "hold"))  # seat 2 is not asked: its long OK asks for a hint instead
    assert session.snapshot.undo_request is not None
    session.apply(Press(1, "BACK", "hold"))  # a long BACK refuses
    assert session.snapshot.undo_request is None and session.snapshot.history == history


# -- on the LEDs ------------------------------------------------------------------------


def read_text(driver, panel, x, y, length):
    """Text in the 3x5 font at (x, y) on ``panel``, read back from the last frame."""
    rows = driver.panel_rows(panel)
    text = ""
    for index in range(length):
        lit = frozenset((dx, dy) for dy in range(5) for dx in range(3)
                        if sum(rows[y + dy][x + 4 * index + dx]) > 60)
        try:
            text += font.read_glyph(lit)
        except ValueError:
            text += "~"
    return text


def test_an_undo_request_shows_on_the_consenting_seat_and_only_its_long_ok_answers(table_driver):
    """Issue 13: the request is on the LEDs of the seat that must agree; a plain OK there does not answer it."""
    driver = table_driver(Setup(game="pavilion", seats=(Seat(), Seat(), Seat()), seed=5))
    for _ in range(300):
        snapshot = driver.snapshot
        last = driver.session._decisions[-1] if snapshot.history else None
        if last is not None and last.seat == 1 and not last.revealed and snapshot.current_player != 1:
            break
        driver.choose(0)
    history = driver.snapshot.history
    driver.tap(0, "BACK", hold=True)
    assert read_text(driver, "seat1", 0, 0, 4) == "UNDO" and read_text(driver, "seat1", 0, 6, 3) == "P1?"
    for seat in (0, 2):
        assert read_text(driver, f"seat{seat}", 0, 0, 4) != "UNDO"
    driver.tap(1, "OK")  # not seat 1's turn: refused, and the request stays open
    driver.tap(2, "OK", hold=True)  # seat 2 is not asked
    assert driver.snapshot.history == history and driver.snapshot.undo_request is not None
    assert read_text(driver, "seat1", 0, 0, 4) == "UNDO"
    driver.tap(1, "OK", hold=True)
    assert driver.snapshot.history == history[:-1] and driver.snapshot.undo_request is None
    assert read_text(driver, "seat1", 0, 0, 4) != "UNDO"


def test_the_computer_waits_while_an_undo_request_is_open_and_plays_once_it_lapses():
    """Seat 0 asks at the computer's turn, over seat 1's decision: the computer's answer does not land while
    the request waits for seat 1; once it lapses, the computer plays on."""
    clock = Clock()
    release = threading.Event()

    def first_option_when_released(game, level, seed=None, cancel=None):
        release.wait(10)
        return game.legal_moves()[0]

    setup = Setup(game="pavilion", seats=(Seat(), Seat(), Seat(kind="ai")), seed=5)
    session = Session(setup, thinker=Thinker(first_option_when_released), clock=clock).start()
    try:
        for _ in range(600):
            snapshot = session.snapshot
            if snapshot.current_player == 2:
                if snapshot.history and snapshot.history[-1][0] == 1 and snapshot.undo_plans[0].waiting == (1,):
                    break
                release.set()
                settle(session)
                release.clear()
                continue
            session.call(Play(snapshot.current_player, snapshot.options[0]))
        session.call(RequestUndo(0))
        asked = session.snapshot
        assert asked.undo_request is not None and asked.undo_request.waiting == (1,)
        release.set()  # the search started before the request answers now
        time.sleep(0.3)
        assert session.snapshot.history == asked.history, "the computer played over an open undo request"
        clock.now += UNDO_REQUEST_S
        assert len(settle(session).history) > len(asked.history) and session.snapshot.undo_request is None
    finally:
        release.set()
        session.stop()
