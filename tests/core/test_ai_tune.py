"""Fitting Summer Pavilion's evaluation to self-play: the features, the least squares, the script."""
import random

import pytest

from core_ext import pavilion
from core_ext.ai import _pavilion_knowledge as knowledge
from core_ext.ai import tune
from core_ext.ai.baselines import heuristic_move, planner_move


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_evaluation_is_its_fixed_points_plus_each_weight_times_its_feature(seats):
    weights = knowledge.weights()
    rng = random.Random(seats)
    game, checked = pavilion.Game(players=seats, seed=seats), 0
    while not game.is_over():
        if game.pending == "draft":
            linear = [fixed + sum(weights[name] * count for name, count in zip(knowledge.FEATURES, counts))
                      for fixed, counts in knowledge.features(game)]
            assert linear == pytest.approx(knowledge.value(game), abs=1e-9)
            checked += 1
        game.push((heuristic_move if game.current_player % 2 else planner_move)(game, rng))
    assert checked >= 6 * seats  # every turn of six rounds' drafting
    with pytest.raises(ValueError, match="drafting positions only"):
        knowledge.features(game)


def test_least_squares_recovers_the_weights_of_exact_data():
    rng = random.Random(3)
    rows = [[rng.uniform(-5, 5) for _ in range(4)] for _ in range(50)]
    targets = [2.0 * a - 0.5 * b + 0.25 * c + 7.0 * d for a, b, c, d in rows]
    assert tune.least_squares(rows, targets) == pytest.approx([2.0, -0.5, 0.25, 7.0], abs=1e-6)


def test_the_fit_is_reproducible_from_its_seed_and_its_weights_are_plausible():
    first = tune.fit(tune.self_play_records(200, seed=5))
    assert first == tune.fit(tune.self_play_records(200, seed=5))
    weights, constants, error = first
    assert set(weights) == set(knowledge.FEATURES)
    assert 0.3 < weights["TILE_WORTH"] < 3.0  # a tile kept into the next round is worth points, not dozens
    assert constants[1] > constants[6]  # more of the game to come, more points to come
    assert 0 < error < 30


def test_the_script_prints_every_fitted_weight_beside_today_s(capsys):
    assert tune.main(["--games", "6", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "positions from 6 games (seed 2)" in out
    for name in knowledge.FEATURES:
        assert f"{name}: " in out and "(today " in out
    with pytest.raises(SystemExit):
        tune.main(["--games", "0"])
