"""A seat can be a player's first game: chosen by the host at setup or by the player when joining, kept by the
journal through a restart, and while anyone learns, the computer seats play no stronger than the easy level."""
import threading

import pytest

from firmware_py.credentials import digest
from firmware_py.journal import Journal
from firmware_py.session import (AI_LEVELS, LEARNING_LEVEL, CommandRejected, Join, Seat, Session, Setup)
from tests.patience import patient


class RecordingThinker:
    """Stands in for the computer: remembers the level each computer turn was asked at (``asked`` is set at the
    first: a running session asks from its own thread)."""

    def __init__(self):
        self.levels = []
        self.asked = threading.Event()

    def think(self, key, game, level, answer):
        self.levels.append(level)
        self.asked.set()

    def cancel_all(self):
        pass


def setup_with(level, learning):
    """A Summer Pavilion whose first decision is the computer seat 0's."""
    seats = (Seat("ai", "Cy", level=level), Seat("phone", "Ana", learning=learning), Seat("ai", "Bo", level="normal"))
    seed = next(seed for seed in range(100) if Setup(game="pavilion", seats=seats, seed=seed).new_game().current_player == 0)
    return Setup(game="pavilion", seats=seats, seed=seed)


@pytest.mark.parametrize("level", AI_LEVELS)
@pytest.mark.parametrize("learning", [False, True])
def test_the_computer_plays_no_stronger_than_easy_while_someone_learns(level, learning):
    thinker = RecordingThinker()
    session = Session(setup_with(level, learning), thinker=thinker).start()
    assert thinker.asked.wait(patient(10)) and session.snapshot.current_player == 0  # the computer seat starts
    expected = min(level, LEARNING_LEVEL, key=AI_LEVELS.index) if learning else level
    assert thinker.levels[-1] == expected
    assert [session.computer_level(seat) for seat in (0, 2)] == \
        [expected, "easy" if learning else "normal"]
    session.stop()


def test_learning_is_true_or_false():
    with pytest.raises(ValueError):
        Seat("phone", "Ana", learning="yes")


def test_a_player_who_joins_for_a_first_game_keeps_it_through_a_restart(tmp_path):
    setup = Setup(game="duel", seats=(Seat("phone", "Ana"), Seat("ai", "Cy", level="hard")), seed=3)
    session = Session(setup, journal=Journal(tmp_path), thinker=RecordingThinker())
    session.apply(Join(0, session.snapshot.credentials.join_code, digest("ana's phone"), learning=True))
    assert session.snapshot.setup.seats[0].learning and session.computer_level(1) == "easy"
    journal = Journal(tmp_path)
    resumed = journal.resume()
    assert resumed.setup.seats[0].learning and not resumed.setup.seats[1].learning
    again = Session(resumed.setup, game=resumed.game, journal=journal, thinker=RecordingThinker())
    assert again.computer_level(1) == "easy"
    assert journal.last_setup().seats[0].learning


def test_joining_without_saying_keeps_the_hosts_choice_and_a_refused_join_changes_nothing(tmp_path):
    setup = Setup(game="duel", seats=(Seat("phone", "Ana", learning=True), Seat("phone", "Bo")), seed=3)
    session = Session(setup, journal=Journal(tmp_path))
    code = session.snapshot.credentials.join_code
    session.apply(Join(0, code, digest("ana's phone")))
    assert session.snapshot.setup.seats[0].learning
    with pytest.raises(CommandRejected):
        session.apply(Join(0, code, digest("someone else"), learning=False))  # the seat is taken
    assert session.snapshot.setup.seats[0].learning
    session.apply(Join(1, code, digest("bo's phone"), learning=False))
    assert not session.snapshot.setup.seats[1].learning
