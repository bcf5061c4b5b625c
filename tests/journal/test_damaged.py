"""A damaged journal never loses the game or the history (issue 11, finding 11), and phones' seats survive restarts."""
import argparse
import contextlib
import sqlite3

import pytest

from firmware_py import main as table_program
from firmware_py.credentials import digest
from firmware_py.journal import DATABASE_NAME, Journal
from firmware_py.session import Join, NotAllowed, Play, Seat, Session, Setup
from web_remote import create_app
from web_remote.service import RemoteService

SETUP = Setup(game="duel", seats=(Seat(kind="phone", name="Ada"), Seat(kind="phone", name="Bo")), seed=8)


def played(directory, decisions=8):
    """A journal in ``directory`` with an unfinished game of ``decisions`` decisions; the session's history."""
    session = Session(SETUP, journal=Journal(directory))
    for _ in range(decisions):
        session.apply(Play(session.snapshot.current_player, session.snapshot.options[0]))
    return session.snapshot.history


def damage(directory, sql, *args):
    with contextlib.closing(sqlite3.connect(directory / DATABASE_NAME)) as db, db:
        db.execute(sql, args)


def resume(directory):
    journal = Journal(directory)
    resumed = journal.resume()
    return journal, resumed


@pytest.mark.parametrize("ply", [8, 5])
def test_an_unreadable_decision_resumes_after_the_last_one_that_reads_back(tmp_path, ply):
    history = played(tmp_path)
    damage(tmp_path, "UPDATE decisions SET state = '{\"format\": 1, \"gar' WHERE ply = ?", ply)
    journal, resumed = resume(tmp_path)
    assert resumed is not None and resumed.decisions == ply - 1
    dropped = ", ".join(f"{n} ({history[n - 1][1]})" for n in range(ply, len(history) + 1))
    assert f"decision {ply} ({history[ply - 1][1]}) cannot be read back" in journal.notice
    assert f"the decisions {dropped} were dropped" in journal.notice
    session = Session(resumed.setup, game=resumed.game, journal=journal)
    assert session.snapshot.history == history[: ply - 1]
    session.apply(Play(session.snapshot.current_player, session.snapshot.options[0]))  # and play goes on
    again = Journal(tmp_path).resume()
    assert again.decisions == ply
    [summary] = Journal(tmp_path).games()
    assert summary.decisions == ply and summary.undone == 0


@pytest.mark.parametrize("column, value", [("flags", "[]"), ("flags", "{not json"), ("seats", "[{\"kind\": 3}]")])
def test_a_damaged_setup_stops_that_game_with_a_message_and_start_up_goes_on(tmp_path, capsys, column, value):
    played(tmp_path, 3)
    damage(tmp_path, f"UPDATE games SET {column} = ?", value)
    journal = Journal(tmp_path)
    args = argparse.Namespace(new=False)
    session = table_program.open_session(args, Setup(game="duel", seed=1), journal)
    assert "cannot be resumed" in capsys.readouterr().err and session.snapshot.history == ()
    summaries = journal.games()
    assert [s.status for s in summaries] == ["running", "stopped"]


@pytest.mark.parametrize("sql", [
    "UPDATE games SET seats = '{broken', flags = '[]' WHERE id = 1",
    "UPDATE decisions SET notation = 'ZZZ' WHERE game_id = 1 AND ply = 2",
    "UPDATE games SET start_state = '{x' WHERE id = 1",
])
def test_damaged_old_games_are_listed_and_answered_as_damaged_never_a_500(tmp_path, sql):
    played(tmp_path, 3)
    journal = Journal(tmp_path)
    Session(Setup(game="duel", seed=1), journal=journal)  # a new game; the old one is stopped
    damage(tmp_path, sql)
    client = create_app(RemoteService(Session(Setup(game="duel", seed=2), journal=journal)),
                        {"TESTING": True}).test_client()
    listing = client.get("/history/")
    assert listing.status_code == 200
    if "seats" in sql:
        assert "damaged" in listing.get_data(as_text=True)
    for path in ("/history/1", "/history/1.json", "/history/1/table.png"):
        answer = client.get(path)
        assert answer.status_code == 409 and answer.json["error"] == "history.damaged_game", path


def test_a_damaged_setting_falls_back_to_its_default(tmp_path):
    Journal(tmp_path)
    damage(tmp_path, "INSERT INTO settings(name, value) VALUES ('brightness', 'x')")
    assert Journal(tmp_path).settings() == {}


def test_phones_keep_their_seats_after_a_restart(tmp_path):
    """Issue 13: the join code and the seats' tokens belong to the game, kept (hashed) in the journal."""
    session = Session(SETUP, journal=Journal(tmp_path))
    code = session.snapshot.credentials.join_code
    session.apply(Join(0, code, digest("ada's phone")))
    session.apply(Join(1, code, digest("bo's phone")))
    with contextlib.closing(sqlite3.connect(tmp_path / DATABASE_NAME)) as db, db:
        [kept] = db.execute("SELECT credentials FROM games").fetchone()
    assert "ada's phone" not in kept and digest("ada's phone") in kept
    journal, resumed = resume(tmp_path)
    restarted = Session(resumed.setup, game=resumed.game, journal=journal)
    assert restarted.snapshot.credentials == session.snapshot.credentials and restarted.snapshot.resumed
    seat = restarted.snapshot.current_player
    restarted.apply(Play(seat, restarted.snapshot.options[0], None, digest(("ada's phone", "bo's phone")[seat])))
    with pytest.raises(NotAllowed):
        restarted.apply(Play(1 - seat, restarted.snapshot.options[0], None, digest("someone else")))
