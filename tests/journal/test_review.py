"""The game review in the journal: every human decision of a finished game, in the background, across restarts."""
import os
import sqlite3
import threading

import pytest

from core_ext.ai.review import Assessment
from firmware_py.journal import Journal
from firmware_py.players import Thinker
from firmware_py.reviewer import Reviewer
from firmware_py.session import Play, RequestUndo, Seat, Session, Setup
from tests.patience import patient

ADA_AND_THE_COMPUTER = Setup(game="duel", seats=(Seat(name="Ada"), Seat(kind="ai", name="Bo")), seed=3)
TINY = {"iterations": 8, "samples": 2}  # the real review at a budget the suite can afford


def last_option(game, **_):
    return game.legal_moves()[-1]


def play_out(session):
    """Ada plays her last option every time; the computer seat answers through the session's thinker."""
    while not session.snapshot.over:
        snapshot = session.snapshot
        if snapshot.current_player == 0:
            session.call(Play(0, snapshot.options[-1]))
        else:
            session.wait_for_change(snapshot.version, timeout=patient(5))


@pytest.fixture
def finished(tmp_path):
    """(journal, game id) of a Duel Ada played to its end against the computer (which plays its last option)."""
    journal = Journal(tmp_path)
    session = Session(ADA_AND_THE_COMPUTER, journal=journal, thinker=Thinker(choose=last_option)).start()
    play_out(session)
    session.stop()
    yield journal, journal.current_game
    journal.close()


def humans(journal, game_id):
    return [row for row in journal.review_rows(game_id) if row[2] == 0]


def reviewed(journal, game_id):
    return [row for row in journal.review_rows(game_id) if row[4] is not None]


# The review thread runs at nice 19: on a machine busy with other tests it gets almost no CPU, so
# a test that waits for a whole review to finish runs with the machine to itself.
ALONE = pytest.mark.serial


def wait_for(reviewer):
    assert reviewer.idle.wait(patient(60)), "the review did not finish in time"


@ALONE
def test_every_human_decision_of_a_finished_game_is_reviewed_and_the_computers_are_not(finished):
    journal, game_id = finished
    assert journal.games_to_review() == [game_id]
    reviewer = Reviewer(journal, **TINY).start()
    try:
        wait_for(reviewer)
    finally:
        reviewer.close()
    record = journal.export(game_id)
    from firmware_py.records import replay

    positions = replay(record)
    rows = journal.review_rows(game_id)
    assert journal.review_complete(game_id) and journal.games_to_review() == []
    assert {row[2] for row in reviewed(journal, game_id)} == {0}
    assert len(reviewed(journal, game_id)) == len(humans(journal, game_id)) > 20
    for _, ply, seat, notation, preferred, loss in rows:
        if seat == 0:
            assert preferred in {str(move) for move in positions[ply - 1].legal_moves()} and loss >= 0
            assert loss == 0 or preferred != notation


class Counting:
    """A stand-in for the search that counts its calls and closes the reviewer at call ``stop_at``."""

    def __init__(self, stop_at=None):
        self.calls = []
        self.stop_at = stop_at
        self.reviewer = None

    def __call__(self, game, notation, *, seed, cancel):
        self.calls.append(seed)
        if len(self.calls) == self.stop_at:
            threading.Thread(target=self.reviewer.close).start()
            cancel.wait(patient(5))
        return Assessment(str(game.legal_moves()[0]), float(seed % 5))


@ALONE
def test_an_interrupted_review_resumes_after_a_restart_and_keeps_what_was_done(finished, tmp_path):
    journal, game_id = finished
    first = Counting(stop_at=6)
    first.reviewer = reviewer = Reviewer(journal, assess=first)
    reviewer.start()
    reviewer._thread.join(patient(10))
    done_before = reviewed(journal, game_id)
    assert len(done_before) == 5 and not journal.review_complete(game_id)  # the sixth was dropped
    journal.close()

    reopened = Journal(tmp_path)
    assert reopened.games_to_review() == [game_id] and reviewed(reopened, game_id) == done_before
    second = Counting()
    reviewer = Reviewer(reopened, assess=second).start()
    try:
        wait_for(reviewer)
    finally:
        reviewer.close()
    assert len(second.calls) == len(humans(reopened, game_id)) - 5
    assert not set(second.calls) & {row[0] for row in done_before}
    assert reopened.review_complete(game_id)
    reopened.close()

    again = Journal(tmp_path)  # and the finished review is kept across the next restart too
    assert again.review_complete(game_id) and again.games_to_review() == []
    assert [(row[0], row[4], row[5]) for row in reviewed(again, game_id)] == [
        (row[0], str(row[4]), float(row[0] % 5)) for row in reviewed(again, game_id)]
    again.close()


def test_a_game_taken_back_after_its_end_is_reviewed_again_once_it_ends_again(tmp_path):
    journal = Journal(tmp_path)
    session = Session(Setup(game="duel", seats=(Seat(name="Ada"), Seat(name="Bo")), seed=3), journal=journal)
    while not session.snapshot.over:
        session.apply(Play(session.snapshot.current_player, session.snapshot.options[-1]))
    game_id = journal.current_game
    Reviewer(journal, assess=Counting()).review_game(game_id)
    assert journal.review_complete(game_id)
    last = session.snapshot.history[-1]
    session.apply(RequestUndo(last[0]))  # her own decision: taken back at once
    assert not journal.review_complete(game_id) and journal.games_to_review() == []
    session.apply(Play(last[0], last[1]))
    assert journal.games_to_review() == [game_id]
    counting = Counting()
    Reviewer(journal, assess=counting).review_game(game_id)
    assert len(counting.calls) == 1 and journal.review_complete(game_id)  # only the decision played again
    journal.close()


def test_a_journal_of_the_previous_schema_gains_the_review_table_and_keeps_its_games(tmp_path, finished):
    journal, game_id = finished
    journal.close()
    db = sqlite3.connect(tmp_path / "journal.sqlite3")
    db.executescript("DROP TABLE ratings; DROP TABLE seat_players; DROP TABLE players; ALTER TABLE games DROP COLUMN"
                     " rated; DROP TABLE reviews; ALTER TABLE games DROP COLUMN reviewed_at; PRAGMA user_version = 2;")
    db.close()
    reopened = Journal(tmp_path)
    assert reopened.games_to_review() == [game_id] and len(reopened.review_rows(game_id)) > 40
    reopened.close()


@ALONE
def test_the_review_thread_runs_at_the_lowest_priority(finished):
    journal, _ = finished
    seen = []
    ours = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    def assess(game, notation, *, seed, cancel):
        seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        return Assessment(notation, 0.0)

    reviewer = Reviewer(journal, assess=assess).start()
    try:
        wait_for(reviewer)
    finally:
        reviewer.close()
    assert seen and set(seen) == {19}
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == ours  # the other threads keep theirs
