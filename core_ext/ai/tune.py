"""Fit Summer Pavilion's evaluation weights to the results of self-play, reproducibly from a seed.

``python -m core_ext.ai.tune --games 2000 --seed 1``

Self-play games (2 to 4 seats, each seat the heuristic or the planner of
``core_ext.ai.baselines``, with some random moves so that positions vary) are
recorded at the start of every round's drafting: per seat, the features of
``_pavilion_knowledge.features`` and the points the seat went on to make.
Least squares then gives the weight of each feature (with one constant per
round for the tiles still to come, which every seat shares and so never
decides anything). The script prints the fitted weights beside today's; the
match script (``--ai`` against ``--opponent`` with ``set_weights`` applied)
decides which to keep.
"""
import argparse
import random
import sys

from core_ext import pavilion
from core_ext.ai import _pavilion_knowledge as knowledge
from core_ext.ai.baselines import heuristic_move, planner_move, random_move

RANDOM_MOVES = 0.1
"""Share of self-play moves made at random, so the records cover more than one line of play."""

ROUNDS = 6


def self_play_records(games, seed):
    """``[(round, fixed, features, final score)]`` per seat per round start, over ``games`` games."""
    rng = random.Random(seed)
    records = []
    for _ in range(games):
        seats = rng.randint(2, 4)
        players = [rng.choice((heuristic_move, planner_move)) for _ in range(seats)]
        game = pavilion.Game(players=seats, seed=rng.getrandbits(64))
        starts = []
        seen_round = 0
        while not game.is_over():
            if game.pending == "draft" and game.round != seen_round:
                seen_round = game.round
                starts.append((game.round, knowledge.features(game)))
            player = random_move if rng.random() < RANDOM_MOVES else players[game.current_player]
            game.push(player(game, rng))
        finals = game.scores()
        for round_number, per_seat in starts:
            for seat, (fixed, counts) in enumerate(per_seat):
                records.append((round_number, fixed, counts, finals[seat]))
    return records


def least_squares(rows, targets):
    """The coefficients minimising the squared error of ``rows`` (lists) against ``targets``
    (normal equations by Gaussian elimination, with a small ridge so a feature that never
    varies stays at 0)."""
    width = len(rows[0])
    normal = [[sum(r[i] * r[j] for r in rows) + (1e-6 if i == j else 0.0) for j in range(width)]
              for i in range(width)]
    right = [sum(r[i] * y for r, y in zip(rows, targets)) for i in range(width)]
    for column in range(width):
        pivot = max(range(column, width), key=lambda row: abs(normal[row][column]))
        normal[column], normal[pivot] = normal[pivot], normal[column]
        right[column], right[pivot] = right[pivot], right[column]
        for row in range(width):
            if row != column and normal[row][column]:
                factor = normal[row][column] / normal[column][column]
                normal[row] = [a - factor * b for a, b in zip(normal[row], normal[column])]
                right[row] -= factor * right[column]
    return [right[i] / normal[i][i] for i in range(width)]


def fit(records):
    """``({feature: weight}, {round: constant})`` fitted to ``records``, and the root mean squared error."""
    rows, targets = [], []
    for round_number, fixed, counts, final in records:
        constants = [1.0 if round_number == r else 0.0 for r in range(1, ROUNDS + 1)]
        rows.append(list(counts) + constants)
        targets.append(final - fixed)
    solution = least_squares(rows, targets)
    weights = dict(zip(knowledge.FEATURES, solution))
    constants = dict(zip(range(1, ROUNDS + 1), solution[len(knowledge.FEATURES):]))
    error = (sum((sum(a * b for a, b in zip(row, solution)) - y) ** 2 for row, y in zip(rows, targets))
             / len(rows)) ** 0.5
    return weights, constants, error


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m core_ext.ai.tune", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"games must be at least 1, not {args.games}")
    records = self_play_records(args.games, args.seed)
    weights, constants, error = fit(records)
    today = knowledge.weights()
    print(f"{len(records)} positions from {args.games} games (seed {args.seed}); "
          f"root mean squared error {error:.2f} points")
    for name, weight in weights.items():
        print(f"{name}: {weight:.3f} (today {today[name]:.3f})")
    print("round constants: " + ", ".join(f"{r}: {c:.1f}" for r, c in constants.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
