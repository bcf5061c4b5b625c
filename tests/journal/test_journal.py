"""The journal: resume exactly, record undos, keep settings, and fail loudly without losing moves."""
import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_py import journal as journal_module
from firmware_py.journal import DATABASE_NAME, Journal, JournalError, data_dir
from firmware_py.session import (
    AnswerUndo, ChangeSettings, CommandRejected, NewGame, Play, RequestUndo, Session, Setup,
)
from journal_games import each_game, random_line, random_setup
from tests.patience import patient

AZUL_TABLE = Path(sys.executable).with_name("azul-table")


def play(session, notations):
    for notation in notations:
        session.apply(Play(session.snapshot.current_player, notation))


def resumed_session(directory):
    """What the table does on start: open the journal and continue its unfinished game."""
    journal = Journal(directory)
    resumed = journal.resume()
    assert resumed is not None
    return journal, Session(resumed.setup, game=resumed.game, journal=journal, **journal.settings())


@each_game
def test_a_resumed_game_has_the_same_position_history_and_future_draws(tmp_path, game):
    setup = random_setup(game, 31)
    moves, positions = random_line(setup, 5)
    half = len(moves) // 2
    first = Session(setup, journal=Journal(tmp_path))
    play(first, moves[:half])
    # No close: the first table "loses power" with its connection open.
    journal, second = resumed_session(tmp_path)
    assert second.snapshot.state == positions[half].to_dict()
    assert second.snapshot.history == first.snapshot.history
    play(second, moves[half:])
    assert second.snapshot.over and second.snapshot.state == positions[-1].to_dict()
    assert journal.resume() is None, "a finished game is not resumed"
    [summary] = journal.games()
    assert summary.status == "finished" and summary.scores == tuple(positions[-1].scores())
    assert summary.decisions == len(moves)


def take_back_one(session):
    """Play until the last decision can be undone, then undo it at the other seat's request with its consent."""
    while True:
        snapshot = session.snapshot
        session.apply(Play(snapshot.current_player, snapshot.options[0]))
        seat = session.snapshot.history[-1][0]
        try:
            session.apply(RequestUndo(1 - seat))
        except CommandRejected:
            continue
        undone = session.snapshot.history[-1]
        session.apply(AnswerUndo(seat, True))
        return undone, len(snapshot.history) + 1


def test_undos_are_recorded_and_a_resumed_game_can_still_be_undone(tmp_path):
    journal = Journal(tmp_path)
    session = Session(Setup(game="duel", seed=4), journal=journal)
    (seat, notation), ply = take_back_one(session)
    [(undone_ply, undone_seat, undone_notation, reason, _)] = journal.undos(journal.games()[0].id)
    assert (undone_ply, undone_seat, undone_notation, reason) == (ply, seat, notation, "undo")
    expected = session.snapshot
    journal2, restored = resumed_session(tmp_path)
    assert restored.snapshot.history == expected.history and restored.snapshot.state == expected.state
    take_back_one(restored)
    assert journal2.games()[0].undone == 2
    journal3, again = resumed_session(tmp_path)
    assert again.snapshot.history == restored.snapshot.history


def test_a_new_game_leaves_the_unfinished_one_stopped_in_the_journal(tmp_path):
    journal = Journal(tmp_path)
    session = Session(Setup(game="duel", seed=4), journal=journal)
    play(session, session.snapshot.options[:1])
    session.apply(NewGame(Setup(game="duel", seed=9)))
    old, new = sorted(journal.games(), key=lambda g: g.id)
    assert (old.status, old.decisions) == ("stopped", 1) and new.status == "running"
    resumed = Journal(tmp_path).resume()
    assert resumed.game_id == new.id and resumed.setup.seed == 9 and resumed.decisions == 0


def test_settings_survive_a_restart(tmp_path):
    journal = Journal(tmp_path)
    session = Session(Setup(), journal=journal)
    session.subscribe(journal.keep_settings)
    session.apply(ChangeSettings(brightness=0.4, palette="colour-blind", hints=False))
    kept = Journal(tmp_path).settings()
    assert kept == {"brightness": 0.4, "palette": "colour-blind", "hints": False}
    assert Session(Setup(), **kept).snapshot.settings == (("brightness", 0.4), ("hints", False), ("palette", "colour-blind"))


def test_the_journal_and_its_write_ahead_files_are_readable_by_the_table_alone(tmp_path):
    directory = tmp_path / "data"
    session = Session(Setup(seed=4), journal=Journal(directory))
    play(session, session.snapshot.options[:1])
    session.stop()
    assert directory.stat().st_mode & 0o777 == 0o700
    files = [path for path in directory.iterdir() if path.name.startswith(DATABASE_NAME)]
    assert {path.name for path in files} >= {DATABASE_NAME, DATABASE_NAME + "-wal"}
    assert all(path.stat().st_mode & 0o777 == 0o600 for path in files)


def test_a_journal_left_readable_by_an_earlier_version_is_made_private(tmp_path):
    Journal(tmp_path).close()
    (tmp_path / DATABASE_NAME).chmod(0o644)
    Journal(tmp_path).close()
    assert (tmp_path / DATABASE_NAME).stat().st_mode & 0o777 == 0o600


def test_the_data_directory_comes_from_the_option_then_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(journal_module.DATA_VARIABLE, str(tmp_path / "env"))
    assert data_dir(str(tmp_path / "opt")) == tmp_path / "opt"
    assert data_dir() == tmp_path / "env"
    monkeypatch.delenv(journal_module.DATA_VARIABLE)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_dir() == tmp_path / "xdg" / "azul-table"


# Damaged, full and read-only storage ---------------------------------------------------------------


def moved_aside(directory):
    """The unreadable journals moved aside in ``directory`` (not their WAL companions)."""
    return [path for path in directory.glob(f"{DATABASE_NAME}.unreadable-*")
            if not path.name.endswith(("-wal", "-shm"))]


def test_a_file_that_is_not_a_database_is_moved_aside_not_overwritten(tmp_path):
    damaged = tmp_path / DATABASE_NAME
    damaged.write_bytes(b"these bytes were never an SQLite database" * 100)
    journal = Journal(tmp_path)
    assert "could not be read" in journal.notice and "moved to" in journal.notice
    [kept] = moved_aside(tmp_path)
    assert kept.read_bytes() == b"these bytes were never an SQLite database" * 100
    assert str(kept) in journal.notice
    Session(Setup(seed=3), journal=journal)
    assert len(journal.games()) == 1


def test_a_database_with_damaged_pages_is_moved_aside(tmp_path):
    journal = Journal(tmp_path)
    play(Session(Setup(seed=3), journal=journal), ["P1"])
    journal.close()
    path = tmp_path / DATABASE_NAME
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    data[page_size:] = bytes(0xA5 for _ in range(len(data) - page_size))
    path.write_bytes(bytes(data))
    fresh = Journal(tmp_path)
    assert fresh.notice and "moved to" in fresh.notice
    assert fresh.resume() is None and fresh.games() == []
    assert len(moved_aside(tmp_path)) == 1


def test_a_journal_from_a_newer_program_is_refused_and_left_alone(tmp_path):
    Journal(tmp_path).close()
    with contextlib.closing(sqlite3.connect(tmp_path / DATABASE_NAME)) as db, db:
        db.execute("PRAGMA user_version = 99")
    before = (tmp_path / DATABASE_NAME).read_bytes()
    with pytest.raises(JournalError, match="schema version 99, newer"):
        Journal(tmp_path)
    assert (tmp_path / DATABASE_NAME).read_bytes() == before


def test_a_full_disk_refuses_the_move_and_loses_no_accepted_one(tmp_path):
    journal = Journal(tmp_path)
    session = Session(Setup(seed=8), journal=journal)
    pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
    journal._db.execute(f"PRAGMA max_page_count = {pages + 2}")  # the storage fills up after a few moves
    refusal = None
    while refusal is None:
        before = session.snapshot
        move = before.options[0]
        try:
            session.apply(Play(before.current_player, move))
        except CommandRejected as error:
            refusal = error
    assert isinstance(refusal, JournalError)
    assert "full" in str(refusal) and f"save the move {move}" in str(refusal) and "not played" in str(refusal)
    after = session.snapshot
    assert after.state == before.state and after.history == before.history and after.flash is not None
    journal._db.execute("PRAGMA max_page_count = 1000000")  # space freed: the same move now goes through
    session.apply(Play(after.current_player, move))
    _, restored = resumed_session(tmp_path)
    assert restored.snapshot.history == session.snapshot.history
    assert restored.snapshot.state == session.snapshot.state


@contextlib.contextmanager
def read_only(paths):
    """Make ``paths`` unwritable for this user; root writes through permissions, so it gets immutable files."""
    if os.geteuid() == 0:
        if shutil.which("chattr") is None:
            pytest.skip("running as root without chattr: cannot make a directory read-only")
        switch = [["chattr", "+i", str(p)] for p in paths], [["chattr", "-i", str(p)] for p in paths]
    else:
        switch = ([["chmod", "a-w", str(p)] for p in paths], [["chmod", "u+w", str(p)] for p in paths])
    try:
        for command in switch[0]:
            if subprocess.run(command, capture_output=True).returncode != 0:
                pytest.skip(f"cannot make {command[-1]} read-only here")
        yield
    finally:
        for command in switch[1]:
            subprocess.run(command, capture_output=True)


def run_table(directory, *args, stdin="show\n"):
    command = [str(AZUL_TABLE), "--console", "--no-terminal", "--no-web", "--data", str(directory), *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=patient(60))


def test_a_read_only_data_directory_stops_the_table_with_a_clear_error(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    played = tmp_path / "played"
    journal = Journal(played)
    play(Session(Setup(seed=2), journal=journal), ["P1"])
    journal.close()
    kept = {path.name: path.read_bytes() for path in played.iterdir()}
    with read_only([empty, played, *played.iterdir()]):
        for directory in (empty, played):
            result = run_table(directory)
            assert result.returncode == 2, result.stderr
            assert "cannot write the journal" in result.stderr and "--data" in result.stderr
            assert "ready" not in result.stdout
    assert {path.name: path.read_bytes() for path in played.iterdir()} == kept


def test_the_program_resumes_and_reports_a_moved_aside_journal(tmp_path):
    (tmp_path / DATABASE_NAME).write_text("not a database")
    first = run_table(tmp_path, "--seed", "6", stdin="P2\n")
    assert "could not be read" in first.stderr and "moved to" in first.stderr
    assert first.stdout.splitlines() == ["ready 0", "ok 1 P2"]
    second = run_table(tmp_path)
    assert "resuming game 1 after 1 decisions" in second.stderr
    assert second.stdout.splitlines()[0] == "ready 1"
    assert json.loads(Journal(tmp_path).export(1).to_json())["moves"] == ["P2"]


@contextlib.contextmanager
def small_file_system(path, size):
    """A tmpfs of ``size`` at ``path``, for a real "no space left" (skipped where mounting is not allowed)."""
    path.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small file system here: {mounted.stderr.decode().strip()}")
    try:
        yield lambda new_size: subprocess.run(["mount", "-o", f"remount,size={new_size}", str(path)], check=True)
    finally:
        subprocess.run(["umount", str(path)], check=True)


def test_a_full_file_system_refuses_moves_and_keeps_every_acknowledged_one(tmp_path):
    setup = Setup(seed=17)
    moves, positions = random_line(setup, 3)
    with small_file_system(tmp_path / "small", "224k") as resize:
        data = tmp_path / "small" / "table"
        answers = run_table(data, "--seed", "17", stdin="".join(f"{m}\n" for m in moves)).stdout.splitlines()
        accepted = [line for line in answers if line.startswith("ok ")]
        refused = [line for line in answers if line.startswith("refused ")]
        assert accepted and refused, answers[-3:]
        assert "full" in refused[0] and "was not played" in refused[0]
        assert accepted == [f"ok {ply} {move}" for ply, move in enumerate(moves[:len(accepted)], 1)]
        resize("8m")  # space freed: the table resumes after the last acknowledged move
        journal = Journal(data)
        resumed = journal.resume()
        assert resumed.decisions == len(accepted)
        assert resumed.game.to_dict() == positions[len(accepted)].to_dict()
        journal.close()
        again = run_table(data, stdin=f"{moves[len(accepted)]}\n").stdout.splitlines()
        assert again == [f"ready {len(accepted)}", f"ok {len(accepted) + 1} {moves[len(accepted)]}"]


def test_the_results_version_moves_with_what_can_change_results_and_not_with_a_move_of_a_game_in_play(tmp_path):
    journal = Journal(tmp_path)
    session = Session(Setup(game="duel", seed=4), journal=journal)
    before = journal.results_version
    for _ in range(3):
        session.apply(Play(session.snapshot.current_player, session.snapshot.options[0]))
    assert journal.results_version == before and journal.version > before
    while not session.snapshot.over:
        session.apply(Play(session.snapshot.current_player, session.snapshot.options[0]))
    ended = journal.results_version
    assert ended == before + 1  # the move that ends the game finishes it and rates it
    journal.players.create("Ana")
    assert journal.results_version == ended + 1
    journal.close()
