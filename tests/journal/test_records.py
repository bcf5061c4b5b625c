"""Game records: export then import reproduces every game; damaged records are refused with a reason."""
import dataclasses
import json

import pytest
from hypothesis import settings

from firmware_py.journal import Journal
from firmware_py.records import Record, RecordError, position_snapshot, replay
from firmware_py.session import Play, Session, Setup
from journal_games import AVAILABLE, each_game, random_line, random_setup

GAMES_PER_TYPE = settings().max_examples * 2  # 200 with the default hypothesis profile


@each_game
def test_export_then_import_reproduces_the_final_scores_of_random_games(tmp_path, game):
    table, archive = Journal(tmp_path / "table"), Journal(tmp_path / "archive")
    for seed in range(GAMES_PER_TYPE):
        setup = random_setup(game, seed)
        moves, positions = random_line(setup, policy_seed=seed + 1000)
        final = positions[-1]
        record = Record(setup, positions[0].to_json(), tuple(moves), tuple(final.scores()), tuple(final.winners()))
        exported = table.export(table.import_record(record)).to_json()
        loaded = Record.from_json(exported)
        again = archive.export(archive.import_record(loaded))
        assert again.final_scores == tuple(final.scores()), f"seed {seed}"
        assert again.winners == tuple(final.winners()) and again.moves == tuple(moves) and again.setup == setup
        assert replay(again)[-1].to_dict() == final.to_dict()
    assert [g.status for g in archive.games()] == ["finished"] * GAMES_PER_TYPE
    assert archive.resume() is None, "imported games are never resumed"


def test_a_running_game_exports_and_its_replay_reaches_the_same_position(tmp_path):
    journal = Journal(tmp_path)
    session = Session(Setup(game="duel", seed=12), journal=journal)
    for _ in range(25):
        session.apply(Play(session.snapshot.current_player, session.snapshot.options[-1]))
    record = Record.from_json(journal.export(journal.games()[0].id).to_json())
    assert record.final_scores is None
    snapshot = position_snapshot(record, 25, palette="colour-blind")
    assert snapshot.state == session.snapshot.state and snapshot.history == session.snapshot.history
    assert snapshot.setting("palette") == "colour-blind"
    assert position_snapshot(record, 0).history == ()
    with pytest.raises(RecordError, match="moves 0-25, not 26"):
        position_snapshot(record, 26)


def test_a_record_with_only_a_seed_deals_the_same_game():
    setup = random_setup("duel", 3)
    moves, positions = random_line(setup, 4)
    text = json.dumps({"format": "azul-table-record", "version": 1, "game": "duel", "seed": 3,
                       "players": [{"name": "Ada"}, {"name": "Bo"}], "moves": moves,
                       "final_scores": list(positions[-1].scores())})
    record = Record.from_json(text)
    assert record.setup.seats[0].name == "Ada"
    assert replay(record)[-1].to_dict() == positions[-1].to_dict()


def good_record():
    setup = random_setup("duel", 5)
    moves, positions = random_line(setup, 6)
    return json.loads(Record(setup, positions[0].to_json(), tuple(moves), tuple(positions[-1].scores())).to_json())


def edited(change):
    doc = good_record()
    change(doc)
    return json.dumps(doc)


@pytest.mark.parametrize("text, message", [
    ("{not json", "not valid JSON"),
    ('{"format": "azul-table", "game": "duel"}', "not a game record"),
    (edited(lambda d: d.update(version=7)), "record version 7 is not supported"),
    (edited(lambda d: d.update(colour="red")), "unknown record fields: colour"),
    (edited(lambda d: d.update(game="chess")), "unknown game 'chess'"),
    (edited(lambda d: d["players"].append({"name": "C"})), "for 2-2 players, not 3"),
    (edited(lambda d: d.update(seed="x", start=None)), '"seed" must be an integer'),
    (edited(lambda d: d.update(start=None, seed=None)), 'needs a "start" position or a "seed"'),
    (edited(lambda d: d["start"]["state"].update(round=99)), "start position cannot be loaded"),
    (edited(lambda d: d["moves"].__setitem__(3, "ZZ9")), "move 4 \\(ZZ9\\) cannot be played"),
    (edited(lambda d: d["moves"].append(d["moves"][-1])), "comes after the end of the game"),
    (edited(lambda d: d["moves"].pop()), "do not finish the game"),
    (edited(lambda d: d.update(final_scores=[s + 1 for s in d["final_scores"]])), "not the recorded final scores"),
    (edited(lambda d: d.update(final_scores=[1])), '"final_scores" must be a list of 2 integers'),
    (edited(lambda d: d.update(moves="P1 P2")), '"moves" must be a list'),
])
def test_a_damaged_record_is_refused_with_the_reason(tmp_path, text, message):
    journal = Journal(tmp_path)
    with pytest.raises(RecordError, match=message):
        journal.import_record(Record.from_json(text))
    assert journal.games() == []


def test_an_unfinished_record_claiming_no_scores_cannot_pass_for_finished(tmp_path):
    doc = good_record()
    doc["final_scores"] = None
    with pytest.raises(RecordError, match="gives no final scores"):
        Journal(tmp_path).import_record(Record.from_json(json.dumps(doc)))


def crafted_record():
    """A good record padded where reading once kept what it did not know: extra keys in the start
    position's envelope (a deep list of 1.7 MB) and in a player's object."""
    doc = good_record()
    doc["start"]["padding"] = [[[[[[[[[[[[[0] * 420] * 2] * 2] * 2] * 2] * 2] * 2] * 2] * 2] * 2] * 2] * 2]
    doc["players"][0]["colour"] = "red"
    return json.dumps(doc, separators=(",", ":"))


def test_a_record_keeps_only_the_fields_it_knows(tmp_path):
    text = crafted_record()
    assert len(text) > 1_500_000
    record = Record.from_json(text)
    assert json.loads(record.start).keys() == {"format", "game", "version", "state"}
    assert "padding" not in record.to_json() and "colour" not in record.to_json()
    journal = Journal(tmp_path)
    game_id = journal.import_record(record)
    assert journal.export(game_id).start == record.start
    assert len(journal.export(game_id).to_json()) < 20_000


def test_the_journal_stores_a_start_position_as_the_rules_core_reads_it(tmp_path):
    doc = json.loads(crafted_record())
    record = Record.from_json(json.dumps(doc))
    padded = Record(record.setup, json.dumps(doc["start"]), record.moves, record.final_scores, record.winners)
    journal = Journal(tmp_path)
    assert journal.export(journal.import_record(padded)).start == record.start


def test_a_start_position_stored_with_more_is_handed_out_as_the_rules_core_reads_it(tmp_path):
    journal = Journal(tmp_path)
    record = Record.from_json(json.dumps(good_record()))
    game_id = journal.import_record(record)
    padded = json.loads(crafted_record())["start"]
    with journal._db:  # as a journal of an earlier version, which kept the start's whole envelope, holds it
        journal._db.execute("UPDATE games SET start_state = ? WHERE id = ?", (json.dumps(padded), game_id))
    assert journal.export(game_id).start == record.start


def test_a_record_file_is_compact_json():
    text = Record.from_json(json.dumps(good_record())).to_json()
    assert text == json.dumps(json.loads(text), separators=(",", ":"))


@pytest.mark.parametrize("game", AVAILABLE)
def test_a_position_snapshot_is_the_one_a_session_reaches_playing_every_move(game):
    setup = random_setup(game, 8)
    moves, positions = random_line(setup, 9)
    record = Record(setup, positions[0].to_json(), tuple(moves))
    played = Session(setup, game=positions[0].copy())
    for ply in range(len(moves) + 1):
        if ply:
            played.apply(Play(played.snapshot.current_player, moves[ply - 1]))
        expected = dataclasses.replace(played.snapshot, version=0, run="", credentials=None)
        built = position_snapshot(record, ply)
        assert dataclasses.replace(built, version=0, run="", credentials=None) == expected, f"ply {ply}"
