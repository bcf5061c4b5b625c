"""Player profiles and ratings in the journal: unique names, renames and merges that keep every game,
seats linked as games start and phones join, and ratings that equal the library's own over a history."""
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest
from hypothesis import given, settings, strategies as st
from openskill.models import PlackettLuce

from firmware_py.journal import Journal
from firmware_py.profiles import MAX_NAME, ProfileError
from firmware_py.ratings import Rating
from firmware_py.records import Record, RecordError
from firmware_py.session import CommandRejected, Join, NewGame, Play, RequestUndo, Seat, Session, Setup


def everything(journal) -> tuple:
    """Every row the players' tables hold, to show that a refusal changed nothing."""
    with journal.reading() as db:
        return tuple(tuple(db.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall())
                     for table in ("players", "seat_players", "ratings"))


def play_out(session, seed=0):
    """Play the game on the table to its end with random options."""
    choices = random.Random(seed)
    while not session.game.is_over():
        session.apply(Play(session.snapshot.current_player, choices.choice(session.snapshot.options)))


@pytest.fixture
def journal(tmp_path):
    kept = Journal(tmp_path)
    yield kept
    kept.close()


# -- profiles -----------------------------------------------------------------------


def test_a_new_journal_has_one_computer_player_per_level_and_no_people(journal):
    computers = journal.players.all(kind="computer")
    assert sorted(p.level for p in computers) == ["easy", "expert", "hard", "normal"]
    assert journal.players.all(kind="person") == []


def test_names_are_unique_without_regard_to_case_width_or_spacing(journal):
    ana = journal.players.create("  Ana   Lima ", colour="blue", symbol="star", languages=["pt", "en"])
    assert (ana.name, ana.colour, ana.symbol, ana.languages) == ("Ana Lima", "blue", "star", ("pt", "en"))
    before = everything(journal)
    for taken in ("ana lima", "ANA LIMA", "Ａｎａ Ｌｉｍａ", "Ana  Lima"):
        with pytest.raises(ProfileError) as refused:
            journal.players.create(taken)
        assert refused.value.key == "players.name_taken" and refused.value.fields == {"name": "Ana Lima"}
    assert everything(journal) == before


@pytest.mark.parametrize("name, key", [
    ("", "players.empty_name"), ("   ", "players.empty_name"), ("x" * (MAX_NAME + 1), "players.long_name"),
    ("x" * 10_000, "players.long_name"), ("Bo\x00b", "players.bad_character"), ("Bo\u202eb", "players.bad_character"),
    (42, "players.bad_name"),
])
def test_bad_names_are_refused_and_change_nothing(journal, name, key):
    before = everything(journal)
    with pytest.raises(ProfileError) as refused:
        journal.players.create(name)
    assert refused.value.key == key and refused.value.status == 400
    assert everything(journal) == before


def test_unknown_ids_and_bad_choices_are_refused(journal):
    ana = journal.players.create("Ana")
    before = everything(journal)
    for bad in (9999, 0, -1, 2 ** 70, "1", True, None):
        with pytest.raises(ProfileError) as refused:
            journal.players.update(bad, name="Bea")
        assert refused.value.status == 404
    with pytest.raises(ProfileError):
        journal.players.update(ana.id, colour="chartreuse")
    with pytest.raises(ProfileError):
        journal.players.update(ana.id, languages=["english"] * 2)
    with pytest.raises(ProfileError):
        journal.players.update(journal.players.computer("hard").id, name="Deep Blue")
    assert everything(journal) == before


def start(journal, *seats, game="duel", seed=1):
    """A session over ``journal`` whose game has ``seats``."""
    return Session(Setup(game=game, seats=tuple(seats), seed=seed), journal=journal)


def test_seats_are_linked_as_a_game_starts_and_a_rename_shows_in_every_game(journal):
    ana = journal.players.create("Ana")
    session = start(journal, Seat(kind="rig", name="Ana", player=ana.id), Seat(kind="ai", level="hard"))
    game_id = journal.current_game
    assert journal.players.of_game(game_id) == {0: ana.id, 1: journal.players.computer("hard").id}
    journal.players.update(ana.id, name="Ana Maria")
    assert journal.games()[0].players == ("Ana Maria", "")
    assert journal.games()[0].profiles == (ana.id, journal.players.computer("hard").id)
    assert journal.export(game_id).setup.seats[0].name == "Ana Maria"
    assert session.setup.seats[0].player == ana.id


def test_a_phone_joins_as_a_known_player_or_as_someone_new(journal):
    ana = journal.players.create("Ana")
    session = start(journal, Seat(kind="phone"), Seat(kind="phone"), Seat(kind="phone"), game="pavilion")
    code = session.snapshot.credentials.join_code
    session.apply(Join(0, code, "digest-0", player=ana.id))
    session.apply(Join(1, code, "digest-1", new_player={"name": "Bea", "symbol": "moon", "languages": ["sv"]}))
    bea = next(p for p in journal.players.all(kind="person") if p.name == "Bea")
    assert (bea.symbol, bea.languages) == ("moon", ("sv",))
    assert [seat.name for seat in session.snapshot.setup.seats] == ["Ana", "Bea", ""]
    assert journal.players.of_game(journal.current_game) == {0: ana.id, 1: bea.id}
    before, taken = everything(journal), session.snapshot.credentials.taken
    for join in (Join(2, code, "digest-2", player=ana.id), Join(2, code, "digest-2", new_player={"name": "ana"}),
                 Join(2, code, "digest-2", player=12345)):
        with pytest.raises(CommandRejected):
            session.apply(join)
    assert everything(journal) == before and session.snapshot.credentials.taken == taken
    assert session.snapshot.setup.seats[2].player is None


def test_a_resumed_game_keeps_its_players(tmp_path):
    journal = Journal(tmp_path)
    ana = journal.players.create("Ana")
    session = start(journal, Seat(kind="phone"), Seat(kind="rig", player=ana.id, name="Ana"))
    session.apply(Join(0, session.snapshot.credentials.join_code, "digest", new_player={"name": "Bea"}))
    journal.close()
    again = Journal(tmp_path)
    resumed = again.resume()
    assert [(s.name, s.player is not None) for s in resumed.setup.seats] == [("Bea", True), ("Ana", True)]
    again.close()


def test_a_merge_moves_every_game_and_refuses_what_cannot_be_one_person(journal):
    ana, anna, bea = (journal.players.create(name) for name in ("Ana", "Anna", "Bea"))
    start(journal, Seat(player=ana.id, name="Ana"), Seat(player=bea.id, name="Bea"), seed=1)
    start(journal, Seat(player=anna.id, name="Anna"), Seat(player=bea.id, name="Bea"), seed=2)
    start(journal, Seat(player=ana.id, name="Ana"), Seat(player=anna.id, name="Anna"), seed=3)
    before = everything(journal)
    with pytest.raises(ProfileError) as refused:
        journal.players.merge(ana.id, anna.id)
    assert refused.value.key == "players.played_each_other" and refused.value.fields["n"] == journal.current_game
    with pytest.raises(ProfileError) as refused:
        journal.players.merge(ana.id, ana.id)
    assert refused.value.key == "players.merge_self"
    with pytest.raises(ProfileError):
        journal.players.merge(ana.id, journal.players.computer("easy").id)
    assert everything(journal) == before


def test_merging_two_profiles_of_one_person_keeps_all_their_games(journal):
    ana, ana2, bea = (journal.players.create(name) for name in ("Ana", "Ana L.", "Bea"))
    start(journal, Seat(player=ana.id, name="Ana"), Seat(player=bea.id, name="Bea"), seed=1)
    start(journal, Seat(player=bea.id, name="Bea"), Seat(player=ana2.id, name="Ana L."), seed=2)
    journal.players.merge(ana.id, ana2.id)
    assert [g.players for g in sorted(journal.games(), key=lambda g: g.id)] == [("Ana", "Bea"), ("Bea", "Ana")]
    assert {p.name for p in journal.players.all(kind="person")} == {"Ana", "Bea"}
    with pytest.raises(ProfileError):
        journal.players.get(ana2.id)


def test_old_games_keep_their_names_and_the_host_attaches_them_to_profiles(tmp_path):
    journal = Journal(tmp_path)
    start(journal, Seat(name="Ana"), Seat(name="Bea"), seed=1)
    start(journal, Seat(name="Bea"), Seat(kind="ai"), seed=2)
    journal.close()
    db = sqlite3.connect(tmp_path / "journal.sqlite3")  # as the journal of the version before profiles
    db.executescript("DELETE FROM seat_players; DROP TABLE ratings; DROP TABLE seat_players; DROP TABLE players;"
                     " ALTER TABLE games DROP COLUMN rated; PRAGMA user_version = 3;")
    db.close()
    journal = Journal(tmp_path)
    assert [g.players for g in journal.games()] == [("Bea", ""), ("Ana", "Bea")]
    assert journal.players.unlinked_names() == [("Bea", 2), ("Ana", 1)]
    bea = journal.players.create("Beatriz")
    assert journal.players.attach("Bea", bea.id) == 2
    assert [g.players for g in journal.games()] == [("Beatriz", ""), ("Ana", "Beatriz")]
    assert journal.players.unlinked_names() == [("Ana", 1)]
    with pytest.raises(ProfileError) as refused:
        journal.players.attach("Bea", bea.id)
    assert refused.value.key == "players.nothing_to_attach"
    journal.close()


def test_a_journal_from_before_the_expert_level_gains_its_computer_player_and_keeps_the_others(tmp_path):
    journal = Journal(tmp_path)
    hard = journal.players.computer("hard")
    start(journal, Seat(name="Ana"), Seat(kind="ai", level="hard"), seed=1)
    journal.close()
    db = sqlite3.connect(tmp_path / "journal.sqlite3")  # as the journal of the version before the expert level
    db.executescript("DELETE FROM players WHERE kind = 'computer' AND level = 'expert'; PRAGMA user_version = 4;")
    db.close()
    journal = Journal(tmp_path)
    assert journal.players.computer("hard").id == hard.id
    expert = journal.players.computer("expert")
    assert expert.kind == "computer" and expert.level == "expert"
    assert sorted(p.level for p in journal.players.all(kind="computer")) == ["easy", "expert", "hard", "normal"]
    journal.close()


# -- ratings -------------------------------------------------------------------------


def library_ratings(history):
    """The library's own ratings of ``history`` [(players, scores, winners)], computed here from scratch."""
    model, current = PlackettLuce(), {}
    for players, scores, winners in history:
        teams = [[current.get(p, model.rating())] for p in players]
        others = [s for seat, s in enumerate(scores) if seat not in winners]
        ranks = [0 if seat in winners else 1 + sum(o > s for o in others) for seat, s in enumerate(scores)]
        for player, team in zip(players, model.rate(teams, ranks=ranks)):
            current[player] = team[0]
    return {player: (rating.mu, rating.sigma) for player, rating in current.items()}


def generated_history(journal, count: int, seed: int):
    """``count`` finished Summer Pavilion games of 2-4 of eight players, written as the table writes them."""
    people = [journal.players.create(f"Player {n}").id for n in range(8)]
    rng, history = random.Random(seed), []
    with journal.writing("write a generated history") as db:
        for number in range(count):
            seated = rng.sample(people, rng.randint(2, 4))
            scores = [rng.randint(1, 40) for _ in seated]
            best = max(scores)
            winners = [seat for seat, score in enumerate(scores) if score == best]
            if len(winners) > 1 and rng.random() < 0.5:
                winners = winners[:1]  # a tie broken by the rules
            game_id = db.execute(
                "INSERT INTO games(game, seats, flags, start_state, status, origin, started_at, finished_at, scores,"
                " winners) VALUES ('pavilion', ?, '{}', '{}', 'finished', 'table', ?, ?, ?, ?)",
                (json.dumps([{"kind": "rig", "name": "", "level": "normal"}] * len(seated)), f"2026-01-01T{number:05d}",
                 f"2026-01-01T{number:05d}", json.dumps(scores), json.dumps(winners))).lastrowid
            db.executemany("INSERT INTO seat_players VALUES (?, ?, ?)",
                           [(game_id, seat, player) for seat, player in enumerate(seated)])
            history.append((seated, scores, winners))
        journal.ratings.recompute_in(db)
    return history


def test_a_generated_history_gives_the_libraries_own_ratings(journal):
    history = generated_history(journal, 300, seed=5)
    expected = library_ratings(history)
    for player, (mu, sigma) in expected.items():
        rating, played = journal.ratings.current(player, "pavilion")
        assert rating.mu == pytest.approx(mu, abs=1e-9) and rating.sigma == pytest.approx(sigma, abs=1e-9)
        assert played == sum(player in players for players, _, _ in history)
    assert journal.ratings.stored() == journal.ratings.worked_out()
    standings = journal.ratings.standings("pavilion")
    assert [row[0] for row in standings] == sorted(expected, key=lambda p: -(expected[p][0] - 3 * expected[p][1]))
    assert journal.ratings.standings("duel") == []


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(5, 40))
def test_any_history_gives_the_libraries_own_ratings(tmp_path_factory, seed, count):
    journal = Journal(tmp_path_factory.mktemp("ratings"))
    history = generated_history(journal, count, seed)
    assert journal.ratings.stored() == journal.ratings.worked_out()
    for player, (mu, sigma) in library_ratings(history).items():
        assert journal.ratings.current(player, "pavilion")[0].mu == pytest.approx(mu, abs=1e-9)
    journal.close()


def test_a_game_that_ends_at_the_table_is_rated_with_its_ratings_before_and_after(journal):
    ana, bea = journal.players.create("Ana"), journal.players.create("Bea")
    last = {ana.id: Rating(), bea.id: Rating()}
    for seed in range(3):
        session = start(journal, Seat(player=ana.id, name="Ana"), Seat(player=bea.id, name="Bea"), seed=seed)
        play_out(session, seed)
        rows = journal.ratings.of_game(journal.current_game)
        assert [row.player_id for row in rows] == [ana.id, bea.id]
        assert [row.before for row in rows] == [last[ana.id], last[bea.id]]
        winners = session.game.winners()
        if len(winners) == 1:
            assert rows[winners[0]].after.mu > rows[winners[0]].before.mu
            assert rows[1 - winners[0]].after.mu < rows[1 - winners[0]].before.mu
        last = {row.player_id: row.after for row in rows}
    assert journal.ratings.stored() == journal.ratings.worked_out()
    assert journal.ratings.current(ana.id, "duel") == (last[ana.id], 3)


def test_a_stopped_or_imported_game_changes_nothing_unless_the_host_says_so(journal, tmp_path_factory):
    ana, bea = journal.players.create("Ana"), journal.players.create("Bea")
    session = start(journal, Seat(player=ana.id, name="Ana"), Seat(player=bea.id, name="Bea"), seed=3)
    for _ in range(30):
        session.apply(Play(session.snapshot.current_player, session.snapshot.options[0]))
    stopped = journal.current_game
    session.apply(NewGame(Setup(game="duel", seed=4)))
    elsewhere = Journal(tmp_path_factory.mktemp("elsewhere"))
    play_out(Session(Setup(game="duel", seats=(Seat(name="Ana"), Seat(name="Bea")), seed=8), journal=elsewhere), 1)
    imported = journal.import_record(elsewhere.export(elsewhere.current_game))
    assert journal.players.attach("Ana", ana.id) == 1 and journal.players.attach("Bea", bea.id) == 1
    assert journal.ratings.stored() == []
    journal.ratings.set_counted(stopped, "yes")
    rows = journal.ratings.of_game(stopped)
    standing = journal.export(stopped)
    assert [row.player_id for row in rows] == [ana.id, bea.id] and len(standing.moves) == 30
    journal.ratings.set_counted(imported, "yes")
    assert [row.before for row in journal.ratings.of_game(imported)] == [row.after for row in rows]
    journal.ratings.set_counted(stopped, "no")
    journal.ratings.set_counted(imported, "auto")
    assert journal.ratings.stored() == []
    with pytest.raises(KeyError):
        journal.ratings.set_counted(9999, "yes")


def test_an_undo_at_game_over_takes_the_rating_back_until_the_game_ends_again(journal):
    ana, bea = journal.players.create("Ana"), journal.players.create("Bea")
    for seed in range(20):
        session = start(journal, Seat(player=ana.id, name="Ana"), Seat(player=bea.id, name="Bea"), seed=seed)
        play_out(session, seed)
        last_seat = journal.review_rows(journal.current_game)[-1][2]
        try:
            session.apply(RequestUndo(last_seat))  # two seats at the rig: taken back at once
        except CommandRejected:
            continue  # the last decision revealed hidden plates: no undo
        assert not session.game.is_over()
        assert journal.ratings.of_game(journal.current_game) == []
        assert journal.ratings.stored() == journal.ratings.worked_out()
        play_out(session, seed + 1)
        assert len(journal.ratings.of_game(journal.current_game)) == 2
        assert journal.ratings.stored() == journal.ratings.worked_out()
        return
    pytest.fail("no game of 20 ended with a decision that could be undone")


KILLED_TABLE = textwrap.dedent("""
    import random, sys
    from firmware_py.journal import Journal
    from firmware_py.session import Play, Seat, Session, Setup
    journal = Journal(sys.argv[1])
    people = [p.id for p in journal.players.all(kind="person")] or [
        journal.players.create(name).id for name in ("Ana", "Bea", "Cai", "Dan")]
    rng = random.Random(int(sys.argv[2]))
    print("ready", flush=True)
    while True:
        seated = rng.sample(people, rng.randint(2, 4))
        setup = Setup(game="pavilion", seats=tuple(Seat(player=p, name=str(p)) for p in seated), seed=rng.randrange(9999))
        session = Session(setup, journal=journal)
        while not session.game.is_over():
            session.apply(Play(session.snapshot.current_player, rng.choice(session.snapshot.options)))
""")


def test_a_journal_restored_after_a_kill_gives_the_same_ratings(tmp_path):
    for round_ in range(3):
        table = subprocess.Popen([sys.executable, "-c", KILLED_TABLE, str(tmp_path), str(round_)],
                                 stdout=subprocess.PIPE, text=True, cwd=os.getcwd())
        assert table.stdout.readline().strip() == "ready"
        time.sleep(4 + round_)
        table.send_signal(signal.SIGKILL)
        table.wait()
        table.stdout.close()
        journal = Journal(tmp_path)
        assert journal.ratings.stored(), "no game finished before the kill"
        assert journal.ratings.stored() == journal.ratings.worked_out()
        journal.close()


def test_the_record_of_a_rated_game_says_its_ratings_and_a_table_reading_it_keeps_none(journal, tmp_path_factory):
    ana, bea = journal.players.create("Ana"), journal.players.create("Bea")
    play_out(start(journal, Seat(player=ana.id, name="Ana"), Seat(player=bea.id, name="Bea"), seed=2), 2)
    text = journal.export(journal.current_game).to_json()
    rows = journal.ratings.of_game(journal.current_game)
    assert json.loads(text)["ratings"] == [{"seat": row.seat, "before": row.before.to_dict(),
                                            "after": row.after.to_dict()} for row in rows]
    elsewhere = Journal(tmp_path_factory.mktemp("elsewhere"))
    imported = elsewhere.import_record(Record.from_json(text))
    assert "ratings" not in json.loads(elsewhere.export(imported).to_json()) and elsewhere.ratings.stored() == []
    crafted = json.loads(text)
    crafted["ratings"] = [{"seat": 0}] * 3
    with pytest.raises(RecordError):
        Record.from_json(json.dumps(crafted))
    elsewhere.close()


def test_a_table_keeps_a_bounded_number_of_players(journal, monkeypatch):
    monkeypatch.setattr("firmware_py.profiles.MAX_PEOPLE", 3)
    for name in ("Ana", "Bea", "Cai"):
        journal.players.create(name)
    before = everything(journal)
    with pytest.raises(ProfileError) as refused:
        journal.players.create("Dan")
    assert refused.value.key == "players.too_many" and everything(journal) == before
