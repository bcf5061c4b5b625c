"""Summer Pavilion properties over many seeded random games for 2, 3 and 4 players:
132 tiles conserved in every zone at every step, scores never below 1, the game
ends after round 6 with no score above 304, JSON round-trips, copies are
independent, and push accepts exactly the legal options. Recorded games replay
to their recorded scores."""
import json
import pathlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core_ext import pavilion as pv
from random_walk import assert_push_accepts_exactly_the_legal, play_checked

NCODES = pv.Move.parse("K-").code + 1
MAX_SCORE = 304
RECORDED = pathlib.Path(__file__).parent / "data" / "pavilion_games.jsonl"


def tile_counts(state):
    """Tiles per colour over every zone: bag, tower, supply, factories, centre, hands, corners, boards."""
    zones = [state["bag"], state["tower"], state["supply"], state["centre"], *state["factories"]]
    for seat in state["seats"]:
        zones += [seat["hand"], seat["corners"], [sum(row.count(c) for row in seat["board"]) for c in pv.COLOURS]]
    return [sum(zone[c] for zone in zones) for c in range(6)]


def assert_consistent(state):
    assert tile_counts(state) == [22] * 6
    assert all(seat["score"] >= 1 for seat in state["seats"])
    assert all(sum(f) <= 4 for f in state["factories"]) and sum(state["supply"]) <= 10
    assert all(sum(seat["corners"]) <= 4 for seat in state["seats"])
    if state["pending"] in ("draft", "over"):  # passing is for one round's Phase 2 only
        assert not any(seat["passed"] for seat in state["seats"])


def assert_finished(game):
    state = game.to_dict()
    assert game.is_over() and game.round == 6 and game.legal_moves() == [] and game.pending == "over"
    assert_consistent(state)
    assert all(1 <= score <= MAX_SCORE for score in game.scores())
    assert all(sum(seat["hand"]) + sum(seat["corners"]) == 0 for seat in state["seats"])
    best = max(game.scores())
    assert game.winners() == tuple(p for p, s in enumerate(game.scores()) if s == best)
    for seat, parts in zip(state["seats"], game.final_breakdown()):
        assert sum(part["points"] for part in parts) == seat["score"]
        assert parts[0] == {"label": "Rounds 1-6", "points": seat["score_before_final"]}


@given(seed=st.integers(0, 2**64 - 1), players=st.sampled_from([2, 3, 4]), side=st.sampled_from(pv.SIDES))
def test_every_step_of_a_random_game(seed, players, side):
    game = pv.Game(players=players, seed=seed, side=side)
    # a single option is never left pending: it is taken automatically
    play_checked(game, random.Random(seed), check_state=assert_consistent,
                 illegal_codes=lambda chooser: chooser.sample(range(NCODES), 6), min_options=2)
    assert_finished(game)


@settings(max_examples=settings().max_examples * 10)
@given(seed=st.integers(0, 2**64 - 1), players=st.sampled_from([2, 3, 4]), side=st.sampled_from(pv.SIDES))
def test_thousands_of_games_conserve_tiles_and_scores_at_every_step(seed, players, side):
    game = pv.Game(players=players, seed=seed, side=side)
    chooser = random.Random(seed)
    while not game.is_over():
        assert_consistent(game.to_dict())
        game.push_code(chooser.choice(game.legal_codes()))
    assert_finished(game)


@given(seed=st.integers(0, 2**64 - 1), players=st.sampled_from([2, 3, 4]))
def test_push_accepts_exactly_the_legal_options(seed, players):
    game = pv.Game(players=players, seed=seed)
    chooser = random.Random(seed)
    for _ in range(chooser.randrange(0, 250)):
        if game.is_over():
            break
        game.push_code(chooser.choice(game.legal_codes()))
    assert_push_accepts_exactly_the_legal(game, range(-1, NCODES + 1))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_thousands_of_random_games_played_in_c(players):
    for seed in range(1500):
        game = pv.Game(players=players, seed=seed, side=pv.SIDES[seed % 2])
        scores = game.random_playout(seed)
        assert scores == game.scores()
        assert_finished(game)


def test_random_games_have_a_stable_signature():
    """Average decisions and score of uniformly random play: a cheap regression check of the rules."""
    plies = pv.random_games(400, 1)
    assert 110 < plies / 400 < 160
    for players in (3, 4):
        assert pv.random_games(100, 1, players) > 100 * 110
    totals = [sum(pv.Game(seed=s).random_playout(s)) for s in range(400)]
    assert 20 < sum(totals) / 400 < 80


def test_redetermine_keeps_the_whole_position_and_reseeds_the_draws():
    differs = 0
    for seed in range(40):
        game = pv.Game(players=2 + seed % 3, seed=seed)
        chooser = random.Random(seed)
        for _ in range(chooser.randrange(0, 120)):
            game.push_code(chooser.choice(game.legal_codes()))
        before = game.to_dict()
        other = game.redetermine(seed + 1000, game.current_player)
        after = other.to_dict()
        assert game.to_dict() == before
        assert {k: v for k, v in after.items() if k != "rng"} == {k: v for k, v in before.items() if k != "rng"}
        assert after["rng"] != before["rng"]
        differs += game.copy().random_playout(5) != other.copy().random_playout(5)
    assert differs > 20


def recorded_games():
    return [json.loads(line) for line in RECORDED.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("record", recorded_games(), ids=lambda r: f"seed{r['seed']}-{r['options']}")
def test_recorded_games_replay_to_their_scores(record):
    game = pv.Game(seed=record["seed"], **record["options"])
    for text in record["moves"].split():
        game.push(text)
    assert game.is_over()
    assert list(game.scores()) == record["scores"] and list(game.winners()) == record["winners"]
    assert [[[p["label"], p["points"]] for p in parts] for parts in game.final_breakdown()] == record["breakdown"]
