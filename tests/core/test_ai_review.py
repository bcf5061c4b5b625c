"""The review of one decision: the preferred option and the points the played one lost, on a worked position."""
import pytest

from core_ext import duel
from core_ext.ai.review import assess

BUDGET = {"iterations": 200, "samples": 16, "seed": 5}

# Azul Duel, seed 0: plates placed, then Ada takes the three turquoise sun tiles of factory 2.
# Her pattern lines are all empty and her dome has plates, so she places the three tiles: line 3
# takes them exactly (a complete line, tiled at the round's end), the floor breaks all three.
THREE_TURQUOISE = ("P3", "@8r0", "P3", "@8r0", "P2", "@6r0", "P1", "@7r3", "P3", "@4r2", "S2T")


@pytest.fixture
def turquoise_in_hand():
    game = duel.Game(seed=0)
    for notation in THREE_TURQUOISE:
        game.push(notation)
    assert game.pending == "line" and game.to_dict()["hand"] == "TTT"
    assert game.to_dict()["players"][game.current_player]["lines"] == [""] * 6
    return game


def test_breaking_three_tiles_that_a_line_takes_exactly_costs_points(turquoise_in_hand):
    dump = assess(turquoise_in_hand, "LF", **BUDGET)
    complete = assess(turquoise_in_hand, "L3", **BUDGET)
    assert dump.preferred != "LF"
    assert dump.loss > 3.0  # three broken tiles, and a line that scores nothing
    assert complete.loss < dump.loss


def test_the_preferred_option_costs_nothing_and_the_game_is_untouched(turquoise_in_hand):
    before = turquoise_in_hand.to_json()
    preferred = assess(turquoise_in_hand, "LF", **BUDGET).preferred
    again = assess(turquoise_in_hand, preferred, **BUDGET)
    assert again.preferred == preferred and again.loss == 0.0
    assert turquoise_in_hand.to_json() == before


def test_the_same_seed_gives_the_same_review(turquoise_in_hand):
    assert assess(turquoise_in_hand, "L1", **BUDGET) == assess(turquoise_in_hand, "L1", **BUDGET)


def test_a_decision_with_one_option_costs_nothing():
    game = duel.Game(seed=3)
    while len(game.legal_moves()) != 1:  # the first comes 65 decisions into this line of play
        game.push(game.legal_moves()[0])
    only = str(game.legal_moves()[0])
    assert assess(game, only, **BUDGET).loss == 0.0 and assess(game, only, **BUDGET).preferred == only


@pytest.mark.parametrize("bad, message", [("L7", "not an option"), ("P1", "not an option")])
def test_an_option_that_is_not_legal_is_refused(turquoise_in_hand, bad, message):
    with pytest.raises(ValueError, match=message):
        assess(turquoise_in_hand, bad, **BUDGET)


def test_bad_budgets_and_finished_games_are_refused(turquoise_in_hand):
    with pytest.raises(ValueError, match="samples"):
        assess(turquoise_in_hand, "L3", iterations=10, samples=0)
    with pytest.raises(ValueError, match="iterations"):
        assess(turquoise_in_hand, "L3", iterations=0)
    finished = duel.Game(seed=1)
    while not finished.is_over():
        finished.push(finished.legal_moves()[-1])
    with pytest.raises(ValueError, match="over"):
        assess(finished, "L3")
