"""Azul Duel properties over many seeded random games: every game ends after
round 5, components are conserved, scores stay >= 0, JSON round-trips at every
step, copies are independent, and push accepts exactly the legal options."""
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core_ext import duel
from random_walk import assert_push_accepts_exactly_the_legal, play_checked

SPECIAL_PLATES = {i for i, layout in enumerate(duel.PLATE_LAYOUTS) if "S" in layout}
PAY_BASE = duel.Move.parse("$B").code - 1  # codes below this one are every other kind


def assert_conserved(state):
    """65 coloured tiles (13 a colour), 9 special tiles, 18 plates and 20 chips, across every zone."""
    tiles = dict.fromkeys(duel.COLOURS, 0)
    for c, letter in enumerate(duel.COLOURS):
        tiles[letter] += state["bag"][c] + state["tower"][c]
        tiles[letter] += state["large_factory"]["sun"][c] + state["large_factory"]["moon"][c]
        tiles[letter] += sum(f["sun"][c] for f in state["small_factories"])
    letters = state["hand"] + "".join(f["moon"] for f in state["small_factories"])
    specials = state["special_supply"]
    plates = list(state["display"]) + state["stack"] + state["drawn"] + [state["kept"]]
    chips = [f["chip"] for f in state["small_factories"] if f["chip"]]
    chips += [face for face, n in zip(duel.CHIP_TYPES, state["chip_supply"]) for _ in range(n)]
    for player in state["players"]:
        letters += "".join(player["lines"]) + player["broken"] + "".join(player["dome"])
        specials += sum(row.count("S") for row in player["dome"])
        plates += player["plates"]
        chips += player["chips"] + player["spent_chips"]
        assert player["score"] >= 0
    for letter in letters:
        if letter in tiles:
            tiles[letter] += 1
    assert tiles == dict.fromkeys(duel.COLOURS, 13)
    assert specials == 9
    assert sorted(p for p in plates if p >= 0) == list(range(18))
    assert sorted(chips) == sorted(duel.CHIP_TYPES * 2)


def assert_finished(game):
    state = game.to_dict()
    assert game.is_over() and game.round == 5 and game.legal_moves() == []
    assert min(game.scores()) >= 0 and game.winners()
    assert all(-1 not in player["plates"] for player in state["players"])
    for player, parts in zip(state["players"], game.final_breakdown()):
        assert sum(part["points"] for part in parts) == player["score"]
    assert_conserved(state)


@pytest.mark.long
@given(seed=st.integers(0, 2**64 - 1), reveal=st.sampled_from(duel.STACK_REVEAL))
def test_every_step_of_a_random_game(seed, reveal):
    game = duel.Game(seed=seed, stack_reveal=reveal)
    play_checked(game, random.Random(seed), check_state=assert_conserved,
                 illegal_codes=lambda chooser: chooser.sample(range(PAY_BASE, 59354), 3) + chooser.sample(range(PAY_BASE), 8))
    assert_finished(game)


@given(seed=st.integers(0, 2**64 - 1))
def test_push_accepts_exactly_the_legal_options(seed):
    game = duel.Game(seed=seed)
    chooser = random.Random(seed)
    for _ in range(chooser.randrange(0, 200)):
        if game.is_over():
            break
        game.push_code(chooser.choice(game.legal_codes()))
    assert_push_accepts_exactly_the_legal(game, list(range(PAY_BASE)) + chooser.sample(range(PAY_BASE, 59354), 50))


def test_thousands_of_random_games_played_in_c():
    for seed in range(2000):
        game = duel.Game(seed=seed, stack_reveal=duel.STACK_REVEAL[seed % 2])
        scores = game.random_playout(seed)
        assert scores == game.scores()
        assert_finished(game)


def test_random_games_have_a_stable_signature():
    """Average plies and score of uniformly random play: a cheap regression check of the rules."""
    plies = duel.random_games(400, 1)
    assert 180 < plies / 400 < 280
    totals = [sum(duel.Game(seed=s).random_playout(s)) for s in range(400)]
    assert 0 < sum(totals) / 400 < 40


def test_redetermine_keeps_public_information_and_redraws_the_hidden():
    differs = 0
    for seed in range(60):
        game = duel.Game(seed=seed)
        chooser = random.Random(seed)
        for _ in range(chooser.randrange(0, 150)):
            game.push_code(chooser.choice(game.legal_codes()))
            if game.pending == "draw" and chooser.random() < 0.5:
                break
        before = game.to_dict()
        other = game.redetermine(seed + 1, game.current_player)
        after = other.to_dict()
        assert_conserved(after)
        assert game.to_dict() == before  # the original is untouched
        assert other.legal_codes() == game.legal_codes()
        public = ("players", "display", "bag", "tower", "large_factory", "round", "pending", "current_player",
                  "stack_seen", "hand", "kept", "special_supply", "objectives")
        assert {k: after[k] for k in public} == {k: before[k] for k in public}
        for mine, theirs in zip(before["small_factories"], after["small_factories"]):
            assert (mine["sun"], mine["moon"], mine["chip_revealed"]) == (theirs["sun"], theirs["moon"], theirs["chip_revealed"])
            if mine["chip_revealed"]:
                assert mine["chip"] == theirs["chip"]
        for stack, seen in ((before["stack"], before["stack_seen"]), (after["stack"], after["stack_seen"])):
            assert len(stack) == len(before["stack"])
        seen = before["stack_seen"]
        assert [p for p, s in zip(before["stack"], seen) if s] == [p for p, s in zip(after["stack"], seen) if s]
        if before["stack"] and not seen[0]:
            assert (before["stack"][0] in SPECIAL_PLATES) == (after["stack"][0] in SPECIAL_PLATES)
        if before["drawn_revealed"]:
            assert before["drawn"] == after["drawn"]
        else:
            assert [p in SPECIAL_PLATES for p in before["drawn"]] == [p in SPECIAL_PLATES for p in after["drawn"]]
        differs += before["stack"] != after["stack"] or before["small_factories"] != after["small_factories"]
    assert differs > 50
