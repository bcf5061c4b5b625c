"""The machinery both games share: compiled build, seeded generator, bag and tower, JSON envelope."""
import json

import pytest

import core_ext
from core_ext import _shared, envelope, notation
from core_ext.errors import IllegalMoveError, InvalidMoveError, InvalidStateError, RulesError


def test_the_compiled_core_is_loaded():
    assert core_ext.COMPILED is True


def test_seeded_generator_is_reproducible_and_spread():
    state = _shared.seed_state(42)
    first, after = _shared.random_sequence(state, 6000, 6)
    again, after_again = _shared.random_sequence(state, 6000, 6)
    assert first == again and after == after_again
    counts = [first.count(v) for v in range(6)]
    assert all(900 < c < 1100 for c in counts), counts
    assert _shared.seed_state(1) != _shared.seed_state(2)
    assert _shared.seed_state(2**70 + 5) != _shared.seed_state(5)


def test_seed_must_be_an_integer():
    with pytest.raises(TypeError):
        _shared.seed_state("12")


def test_bag_refills_from_tower_and_conserves_tiles():
    drawn, bag, tower, _ = _shared.drain_bag([2, 0, 1], [0, 3, 0], _shared.seed_state(7), 7)
    assert sorted(drawn[:3]) == [0, 0, 2]  # the bag first
    assert sorted(drawn[3:6]) == [1, 1, 1]  # then the tower, poured back in
    assert drawn[6] == -1  # both empty
    assert bag == [0, 0, 0] and tower == [0, 0, 0]


def test_every_rules_error_is_a_value_error():
    for error in (InvalidMoveError, IllegalMoveError, InvalidStateError):
        assert issubclass(error, RulesError) and issubclass(error, ValueError)


def test_envelope_round_trip_and_clear_errors():
    text = envelope.dump("duel", 1, {"round": 3, "rng": envelope.hex64(2**64 - 1)})
    reader = envelope.load(text, "duel", 1)
    assert reader.int("round", 1, 5) == 3
    assert reader.hex64("rng") == 2**64 - 1
    reader.done()
    with pytest.raises(InvalidStateError, match="not valid JSON"):
        envelope.load("{", "duel", 1)
    with pytest.raises(InvalidStateError, match="for 'pavilion'"):
        envelope.load(envelope.dump("pavilion", 1, {}), "duel", 1)
    with pytest.raises(InvalidStateError, match="version 2"):
        envelope.load(envelope.dump("duel", 2, {}), "duel", 1)
    with pytest.raises(InvalidStateError, match="between 1 and 5"):
        envelope.load(envelope.dump("duel", 1, {"round": 9}), "duel", 1).int("round", 1, 5)
    with pytest.raises(InvalidStateError, match="unknown keys: typo"):
        reader = envelope.load(json.dumps({"format": "azul-table", "game": "duel", "version": 1, "state": {"typo": 1}}), "duel", 1)
        reader.done()


def test_notation_helpers_name_the_problem():
    import re

    found = notation.match(re.compile(r"(\d)([A-Z])"), " 3B ", "test")
    assert found.groups() == ("3", "B")
    with pytest.raises(InvalidMoveError, match="not valid test notation"):
        notation.match(re.compile(r"\d"), "x", "test")
    assert notation.letters_to_indices("bk", "BTRYK", "colour") == (0, 4)
    with pytest.raises(InvalidMoveError, match="'Q' is not a colour"):
        notation.letters_to_indices("Q", "BTRYK", "colour")


def test_move_base_is_an_immutable_value():
    from core_ext._move import Move

    class Example(Move):
        @classmethod
        def parse(cls, text):
            return cls(int(text))

        def __str__(self):
            return str(self.code)

    a, b = Example(3), Example(3)
    assert a == b and hash(a) == hash(b) and a != Example(4)
    assert a != Move(3)  # another game's move with the same code is not equal
    assert repr(a) == "Example.parse('3')"
    with pytest.raises(AttributeError):
        a.code = 5
