"""Azul Duel API: construction, moves and notation, errors, saved games, copies."""
import json
import random

import pytest

import core_ext
from core_ext import duel, envelope
from core_ext.errors import IllegalMoveError, InvalidMoveError, InvalidStateError


def test_the_compiled_engine_is_loaded():
    assert core_ext.COMPILED is True
    assert duel.__file__.endswith(".so")


def test_a_seed_makes_the_whole_game_reproducible():
    a, b = duel.Game(seed=42), duel.Game(seed=42)
    assert a.to_json() == b.to_json()
    assert a.random_playout(9) == b.random_playout(9) and a.to_json() == b.to_json()
    assert duel.Game(seed=43).to_json() != duel.Game(seed=42).to_json()


def test_constructor_options_are_applied_and_stored():
    game = duel.Game(seed=1, starting_player=1, objectives=["colourful", "outer", "wild"], stack_reveal="each")
    state = game.to_dict()
    assert game.objectives == ("colourful", "outer", "wild") and state["objectives"] == list(game.objectives)
    assert state["starting_player"] == 1 and game.current_player == 0  # the other player picks a plate first
    assert game.stack_reveal == "each" and state["stack_reveal"] == "each"
    assert game.players == 2 and game.round == 1 and game.pending == "setup"
    assert len(duel.Game(seed=1, objective_count=4).objectives) == 4
    drawn = {duel.Game(seed=s).objectives for s in range(50)}
    assert len(drawn) > 10 and all(len({duel.OBJECTIVES.index(o) // 2 for o in obj}) == 3 for obj in drawn)


@pytest.mark.parametrize("options, message", [
    ({"stack_reveal": "never"}, "stack_reveal"),
    ({"starting_player": 2}, "starting_player"),
    ({"objectives": ["horizontal", "colourful", "vertical"]}, "distinct tablets"),
    ({"objectives": ["horizontal", "vertical"]}, "3 or 4"),
    ({"objectives": ["nonsense", "vertical", "diagonals"]}, "not an objective"),
    ({"objective_count": 2}, "objective_count"),
])
def test_bad_constructor_options_say_what_is_wrong(options, message):
    with pytest.raises(ValueError, match=message):
        duel.Game(seed=1, **options)


def test_every_move_code_round_trips_through_its_notation():
    for code in range(59354):
        if code == duel.Move.parse("$-").code + 1:
            continue  # the empty payment is no move
        move = duel.Move.from_code(code)
        text = str(move)
        assert duel.Move.parse(text) is move, text
        assert duel.Move.parse(text.lower()) is move
        assert repr(move) == f"Move.parse({text!r})"


def test_move_fields():
    sun = duel.Move.parse("S3R")
    assert (sun.kind, sun.factory, sun.colour, sun.line) == ("sun", 3, 2, None)
    assert duel.Move.parse("MK").colour == 4 and duel.Move.parse("MK").kind == "moon"
    assert duel.Move.parse("C4").factory == 4
    assert duel.Move.parse("P2").display == 2 and duel.Move.parse("P+").kind == "draw"
    assert duel.Move.parse("P=").kind == "stop"
    assert duel.Move.parse("K17").plate == 17 and duel.Move.parse("U0").kind == "under"
    place = duel.Move.parse("@9r3")
    assert (place.kind, place.slot, place.rotation) == ("place", 9, 3)
    assert duel.Move.parse("L6").line == 6 and duel.Move.parse("LF").line == 0
    assert duel.Move.parse("T25").cell == (2, 5)
    assert duel.Move.parse("OKYB").order == (4, 3, 0)
    assert duel.Move.parse("$R+RT").chips == ("R", "RT") and duel.Move.parse("$-").chips == ()
    assert duel.Move.parse("$RT+R") is duel.Move.parse("$R+RT")


def test_moves_are_immutable_hashable_and_interned():
    game = duel.Game(seed=5)
    first, again = game.legal_moves(), game.legal_moves()
    assert all(a is b for a, b in zip(first, again))
    assert len({*first, *again}) == len(first)
    with pytest.raises(AttributeError):
        first[0].code = 7
    assert duel.Move(first[0].code) == first[0]


@pytest.mark.parametrize("text, message", [
    ("S5R", "not valid"),
    ("S1Q", "'Q' is not a colour"),
    ("K18", "no plate 18"),
    ("$R+R+R", "only 2 chips"),
    ("$RB", "not a bonus chip"),
    ("", "not valid"),
    ("@0r1", "not valid"),
])
def test_malformed_notation_says_what_is_wrong(text, message):
    with pytest.raises(InvalidMoveError, match=message):
        duel.Move.parse(text)


def test_illegal_moves_raise_and_change_nothing():
    game = duel.Game(seed=8)
    text = game.to_json()
    with pytest.raises(IllegalMoveError, match="'setup' decision pending, with options P1, P2, P3"):
        game.push("S0R")
    with pytest.raises(InvalidMoveError):
        game.push("nonsense")
    with pytest.raises(InvalidMoveError):
        game.push(3)
    with pytest.raises(IllegalMoveError):
        game.push_code(10**6)
    assert game.to_json() == text
    game.random_playout(1)
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.push("P1")


def test_copy_is_independent():
    game = duel.Game(seed=12)
    twin = game.copy()
    game.push("P1")
    assert twin.pending == "setup" and game.pending == "place"
    twin.random_playout(3)
    assert not game.is_over()


def test_results_while_running_and_after():
    game = duel.Game(seed=2)
    assert game.winners() == () and game.winner() is None
    with pytest.raises(ValueError):
        game.final_breakdown()
    game.random_playout(2)
    assert game.winners() and game.winner() in (0, 1, None)
    for parts, score in zip(game.final_breakdown(), game.scores()):
        assert parts[0]["label"] == "Rounds 1-5" and sum(p["points"] for p in parts) == score
        assert [p["label"] for p in parts[1:4]] == [duel.OBJECTIVE_LABELS[duel.OBJECTIVES.index(o)] for o in game.objectives]


def mid_game(seed=4, plies=60):
    game = duel.Game(seed=seed)
    chooser = random.Random(seed)
    for _ in range(plies):
        game.push_code(chooser.choice(game.legal_codes()))
    return game


def test_json_round_trips_and_continues_identically():
    game = mid_game()
    loaded = duel.Game.from_json(game.to_json())
    assert loaded.to_json() == game.to_json() and loaded.to_dict() == game.to_dict()
    assert loaded.random_playout(7) == game.random_playout(7)
    doc = json.loads(game.to_json())
    assert (doc["format"], doc["game"], doc["version"]) == ("azul-table", "duel", 1)


def corrupt(game, change):
    doc = json.loads(game.to_json())
    change(doc["state"])
    return json.dumps(doc)


@pytest.mark.parametrize("change, message", [
    (lambda s: s.update(round=6), "round must be between 1 and 5"),
    (lambda s: s.update(extra=1), "unknown keys: extra"),
    (lambda s: s.pop("bag"), "state.bag is missing"),
    (lambda s: s["bag"].__setitem__(0, s["bag"][0] + 1), "coloured tiles do not add up"),
    (lambda s: s["players"][0]["lines"].__setitem__(0, "RR"), r"lines\[0\] must be up to 1 tiles"),
    (lambda s: s["players"][0].update(chips=["Q"]), "not a chip"),
    (lambda s: s.update(display=[s["stack"][0]] + s["display"][1:]), "every plate must be in exactly one place"),
    (lambda s: s.update(pending="dance"), "pending must be one of"),
    (lambda s: s.update(rng="xyz"), "64-bit hex"),
    (lambda s: s.update(objectives=["horizontal", "colourful", "vertical"]), "distinct tablets"),
    (lambda s: s["players"][1]["dome"].__setitem__(0, "RRRRRR"), "does not take it|dome"),
    (lambda s: s.update(special_supply=8), "special tiles do not add up"),
])
def test_bad_saved_games_are_rejected_with_the_reason(change, message):
    game = mid_game()
    with pytest.raises(InvalidStateError, match=message):
        duel.Game.from_json(corrupt(game, change))


def test_envelope_errors_for_other_games_and_versions():
    text = duel.Game(seed=1).to_json()
    doc = json.loads(text)
    with pytest.raises(InvalidStateError, match="not 'duel'"):
        duel.Game.from_json(envelope.dump("pavilion", 1, doc["state"]))
    with pytest.raises(InvalidStateError, match="version 2"):
        duel.Game.from_json(envelope.dump("duel", 2, doc["state"]))
    with pytest.raises(InvalidStateError, match="not valid JSON"):
        duel.Game.from_json("{")


def test_plate_spaces_turns_clockwise():
    assert duel.plate_spaces(0, 0) == "YKTS"
    assert duel.plate_spaces(0, 1) == "TYSK"
    with pytest.raises(ValueError):
        duel.plate_spaces(18, 0)


def test_random_games_counts_plies():
    assert duel.random_games(3, 1) == duel.random_games(3, 1) > 3 * 100
