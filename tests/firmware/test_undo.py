"""Undo needs the consent of whoever made the decision it takes back, at the rig as on a phone."""
import pytest

from firmware_py import font
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
    assert session.snapshot.undo_request.waiting == (2,) and session.snapshot.undo_request.any_one
    session.apply(AnswerUndo(2, True))
    assert session.snapshot.history == history[:-1]


def test_against_the_computer_alone_the_asking_player_is_enough():
    session = Session(Setup(game="duel", seats=(Seat(), Seat(kind="ai")), seed=3))
    play_until_undoable(session, seat=1)
    history = session.snapshot.history
    session.apply(RequestUndo(0))
    assert session.snapshot.history == history[:-1]


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
