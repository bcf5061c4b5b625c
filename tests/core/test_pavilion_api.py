"""Summer Pavilion API: construction, moves and notation, errors, saved games, copies."""
import json
import pathlib
import pickle
import re

import pytest

import core_ext
from core_ext import envelope
from core_ext import pavilion as pv
from core_ext.errors import IllegalMoveError, InvalidMoveError, InvalidStateError

NCODES = pv.Move.parse("K-").code + 1
NOTATION_DOC = pathlib.Path(__file__).parents[2] / "docs" / "notation.md"


def test_the_compiled_engine_is_loaded():
    assert core_ext.COMPILED is True
    assert pv.__file__.endswith(".so")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seed_makes_the_whole_game_reproducible(players):
    a, b = pv.Game(players=players, seed=42), pv.Game(players=players, seed=42)
    assert a.to_json() == b.to_json()
    assert a.random_playout(9) == b.random_playout(9) and a.to_json() == b.to_json()
    assert pv.Game(players=players, seed=43).to_json() != pv.Game(players=players, seed=42).to_json()


@pytest.mark.parametrize("players, factories", [(2, 5), (3, 7), (4, 9)])
def test_setup(players, factories):
    game = pv.Game(players=players, seed=3)
    state = game.to_dict()
    assert game.players == players and game.round == 1 and game.wild == "P" and game.pending == "draft"
    assert len(state["factories"]) == factories and all(sum(f) == 4 for f in state["factories"])
    assert sum(state["supply"]) == 10 and sum(state["bag"]) == 132 - 10 - 4 * factories
    assert game.scores() == (5,) * players and game.side == "coloured" and state["token_holder"] == -1
    assert game.current_player == state["start_player"]


def test_constructor_options_are_applied_and_stored():
    game = pv.Game(players=3, seed=1, starting_player=2, side="monochrome")
    state = game.to_dict()
    assert game.current_player == 2 and state["start_player"] == 2 and state["side"] == "monochrome"
    assert {pv.Game(players=4, seed=s).current_player for s in range(40)} == {0, 1, 2, 3}
    assert pv.Game().players == 2


@pytest.mark.parametrize("options, message", [
    ({"players": 1}, "players"),
    ({"players": 5}, "players"),
    ({"players": True}, "players"),
    ({"side": "colored"}, "side"),
    ({"starting_player": 2}, "starting_player"),
    ({"players": 3, "starting_player": -1}, "starting_player"),
    ({"seed": "x"}, "seed"),
])
def test_bad_constructor_options_say_what_is_wrong(options, message):
    with pytest.raises((ValueError, TypeError), match=message):
        pv.Game(**options)


def test_every_move_code_round_trips_through_its_notation():
    for code in range(NCODES):
        move = pv.Move.from_code(code)
        text = str(move)
        assert pv.Move.parse(text) is move, text
        assert pv.Move.parse(text.lower()) is move
        assert repr(move) == f"Move.parse({text!r})"
        assert pickle.loads(pickle.dumps(move)) is move


def test_move_fields():
    take = pv.Move.parse("F3Y")
    assert (take.kind, take.factory, take.colour, take.star, take.space, take.wilds) == ("take", 3, 3, None, None, None)
    centre = pv.Move.parse("CB")
    assert (centre.kind, centre.factory, centre.colour) == ("take", 0, 4)
    placement = pv.Move.parse("Y@C3")
    assert (placement.kind, placement.star, placement.space, placement.colour, placement.factory) == ("place", 0, 3, 3, None)
    assert pv.Move.parse("R@R6").star == pv.STARS.index("R")
    assert pv.Move.parse("pass").kind == "pass" and pv.Move.parse("PASS").colour is None
    pay = pv.Move.parse("W2")
    assert (pay.kind, pay.wilds, pay.colour) == ("pay", 2, None)
    assert (pv.Move.parse("+G").kind, pv.Move.parse("+G").colour) == ("bonus", 1)
    assert (pv.Move.parse("KO").kind, pv.Move.parse("KO").colour) == ("keep", 2)
    assert pv.Move.parse("K-").kind == "discard" and pv.Move.parse(" k- ").code == NCODES - 1
    assert pv.Move.parse("F1G") == pv.Move.from_code(pv.Move.parse("F1G").code)
    assert hash(take) == hash(pv.Move.parse("f3y")) and take != pv.Move.parse("F3B")


@pytest.mark.parametrize("text, message", [
    ("F0Y", "not valid"), ("F3X", "colour"), ("Y@Q3", "star"), ("Y@C7", "not valid"), ("W6", "not valid"),
    ("+", "not valid"), ("K", "not valid"), ("", "not valid"), ("take", "not valid"), (3, "string"),
])
def test_bad_notation_is_an_invalid_move_error(text, message):
    with pytest.raises(InvalidMoveError, match=message):
        pv.Move.parse(text)


def test_bad_codes_are_invalid():
    for code in (-1, NCODES):
        with pytest.raises(InvalidMoveError):
            pv.Move.from_code(code)


def test_illegal_moves_leave_the_game_unchanged_and_say_why():
    game = pv.Game(seed=5)
    text = game.to_json()
    with pytest.raises(IllegalMoveError, match=r"pass is not legal now: player \d has a 'draft' decision pending"):
        game.push("pass")
    with pytest.raises(IllegalMoveError):
        game.push_code(NCODES + 7)
    with pytest.raises(InvalidMoveError):
        game.push("nonsense")
    with pytest.raises(InvalidMoveError, match="expected a Summer Pavilion Move"):
        game.push(12)
    assert game.to_json() == text
    assert all(isinstance(e, ValueError) for e in (IllegalMoveError(), InvalidMoveError(), InvalidStateError()))


def test_a_finished_game_has_no_moves_and_refuses_more():
    game = pv.Game(seed=8)
    assert game.winners() == () and game.winner() is None
    with pytest.raises(ValueError, match="not over"):
        game.final_breakdown()
    game.random_playout(1)
    assert game.is_over() and game.legal_moves() == [] and game.legal_codes() == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.push("pass")
    assert game.winners() and (game.winner() is None) == (len(game.winners()) > 1)


def test_copies_are_independent():
    game = pv.Game(players=4, seed=11)
    twin = game.copy()
    game.push(game.legal_moves()[0])
    assert twin.to_json() != game.to_json()
    assert twin.to_json() == pv.Game(players=4, seed=11).to_json()
    import copy
    assert copy.copy(game).to_json() == game.to_json()


def test_legal_moves_are_interned_and_ordered_by_code():
    game = pv.Game(seed=2)
    moves = game.legal_moves()
    assert [m.code for m in moves] == sorted(m.code for m in moves)
    assert all(a is b for a, b in zip(moves, game.legal_moves()))


def test_json_envelope_and_round_trip():
    game = pv.Game(players=3, seed=21)
    game.random_playout(4)
    doc = json.loads(game.to_json())
    assert (doc["format"], doc["game"], doc["version"]) == ("azul-table", "pavilion", 1)
    assert doc["state"] == game.to_dict()
    assert pv.Game.from_json(game.to_json()).to_json() == game.to_json()
    assert pv.Game.from_json(game.to_json().encode()).to_json() == game.to_json()


def mutated(change):
    state = pv.Game(players=2, seed=9).to_dict()
    change(state)
    return envelope.dump("pavilion", 1, state)


@pytest.mark.parametrize("change, message", [
    (lambda s: s.update(players=5), "players"),
    (lambda s: s.update(round=7), "round"),
    (lambda s: s.update(wild="G"), "wild"),
    (lambda s: s.update(side="both"), "side"),
    (lambda s: s.update(pending="dance"), "pending"),
    (lambda s: s.update(rng="xyz"), "rng"),
    (lambda s: s.update(extra=1), "unknown keys"),
    (lambda s: s["bag"].__setitem__(0, s["bag"][0] - 1), "add up"),
    (lambda s: s["factories"].pop(), "factories"),
    (lambda s: s["factories"][0].__setitem__(0, 5), "factories"),
    (lambda s: s["seats"][0]["board"].__setitem__(1, "G....."), "cannot hold"),
    (lambda s: s["seats"][0]["board"].__setitem__(0, "GG...."), "cannot hold"),
    (lambda s: s["seats"][0]["board"].__setitem__(0, "xx"), "board"),
    (lambda s: s["seats"][0].update(score=0), "score"),
    (lambda s: s["seats"][1].pop("hand"), "missing"),
    (lambda s: s.update(placing="G@G1"), "placing"),
    (lambda s: s.update(bonus_owed=2), "bonus_owed"),
    (lambda s: s.update(current_player=2), "current_player"),
    (lambda s: s.update(pending="over"), "score_before_final"),
    (lambda s: s["seats"][0].update(score_before_final=7), "score_before_final"),
])
def test_bad_saved_games_are_rejected_with_the_field_named(change, message):
    with pytest.raises(InvalidStateError, match=message):
        pv.Game.from_json(mutated(change))


def test_saved_games_of_another_game_or_version_are_rejected():
    text = pv.Game(seed=1).to_json()
    with pytest.raises(InvalidStateError, match="duel"):
        pv.Game.from_json(text.replace('"pavilion"', '"duel"'))
    with pytest.raises(InvalidStateError, match="version"):
        pv.Game.from_json(text.replace('"version":1', '"version":2'))
    with pytest.raises(InvalidStateError, match="JSON"):
        pv.Game.from_json("{")


def test_a_saved_payment_decision_round_trips():
    game = pv.Game(seed=3)
    while game.pending != "pay":
        game.push(game.legal_moves()[0] if game.pending != "place" else next(
            m for m in game.legal_moves() if m.kind != "pass" or len(game.legal_moves()) == 1))
        if game.is_over():
            pytest.fail("no payment decision came up")
    state = game.to_dict()
    assert pv.Move.parse(state["placing"]).kind == "place"
    assert pv.Game.from_json(game.to_json()).legal_codes() == game.legal_codes()


def test_random_games_counts_decisions():
    assert pv.random_games(0, 1) == 0
    assert pv.random_games(5, 1) == pv.random_games(5, 1) > 5 * 100
    with pytest.raises(ValueError, match="players"):
        pv.random_games(1, 1, 5)


def test_redetermine_checks_the_seat():
    with pytest.raises(ValueError, match="player"):
        pv.Game(players=3, seed=1).redetermine(1, 3)


def test_every_state_field_is_documented():
    doc = NOTATION_DOC.read_text()
    section = doc[doc.index("## Azul: Summer Pavilion"):]
    state = pv.Game(seed=1).to_dict()
    for key in list(state) + list(state["seats"][0]):
        assert re.search(rf"`{key}`", section), key
    for kind in pv.PENDING:
        assert f"`{kind}`" in section, kind
