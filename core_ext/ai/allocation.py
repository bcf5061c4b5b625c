"""Does a level's close-decision extra beat a fixed budget of the same mean cost?

``python -m core_ext.ai.allocation --game pavilion --level hard --fixed 3130 --deep 24000``

Along heuristic games (every third decision with a choice) it searches each
position three ways: at the level as it is (with its close-decision extra),
at the level with ``--fixed`` iterations and no extra, and deeply (``--deep``
iterations over four trees, other seeds). It prints each budget's mean
iterations, how often it picks the deep search's choice and its mean regret
(the deep search's mean reward of its best option minus that of the option
picked). Choose ``--fixed`` so the two mean iteration counts match.
"""
import argparse
import dataclasses
import math
import random
import statistics
import sys

from core_ext import ai
from core_ext.ai.baselines import heuristic_move
from core_ext.ai.match import GAMES, new_game

EVERY = 3
"""One decision with a choice in this many is compared."""


def positions(game_name, seats, games):
    """Copies of the positions compared along ``games`` heuristic games (seeds 1, 2, ...)."""
    for seed in range(1, games + 1):
        game, rng, decision = new_game(game_name, seats, seed), random.Random(seed), 0
        while not game.is_over():
            if len(game.legal_codes()) > 1 and decision % EVERY == 0:
                yield decision, game.copy()
            decision += 1
            game.push(heuristic_move(game, rng))


def compare(game_name, level, fixed, deep, *, seats=2, games=3):
    """``{label: (mean iterations, choices as the deep search's, mean regret)}`` and the number of positions."""
    adaptive = dataclasses.replace(ai.level_of(level), seconds=math.inf)
    budgets = {f"{level}, with the extra": adaptive,
               f"{fixed} fixed, no extra": dataclasses.replace(adaptive, iterations=fixed, close_extra=0.0)}
    rows = {label: [] for label in budgets}
    for decision, game in positions(game_name, seats, games):
        truth = ai.search_statistics(game, iterations=deep, trees=4, seed=10**6 + decision)
        best = max(truth, key=truth.get)
        for label, budget in budgets.items():
            found = ai.search_statistics(game, level=budget, seed=decision)
            picked = max(found, key=found.get)
            regret = truth[best][1] - truth[picked][1] if picked in truth else 1.0
            rows[label].append((sum(visits for visits, _ in found.values()), picked == best, regret))
    summary = {label: (statistics.mean(r[0] for r in found), sum(r[1] for r in found),
                       statistics.mean(r[2] for r in found)) for label, found in rows.items()}
    return summary, len(next(iter(rows.values())))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m core_ext.ai.allocation", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=sorted(GAMES), default="duel")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--level", default="hard", choices=[name for name, spec in ai.LEVELS.items() if spec.guided])
    parser.add_argument("--fixed", type=int, required=True, help="iterations of the fixed budget compared")
    parser.add_argument("--deep", type=int, default=24000, help="iterations of the deep search that judges")
    parser.add_argument("--games", type=int, default=3, help="heuristic games the positions come from")
    args = parser.parse_args(argv)
    if min(args.fixed, args.deep, args.games) < 1:
        parser.error("--fixed, --deep and --games must be positive")
    try:
        summary, compared = compare(args.game, args.level, args.fixed, args.deep, seats=args.players,
                                    games=args.games)
    except ValueError as error:
        parser.error(str(error))
    print(f"{args.game}, {args.players} players: {compared} decisions, judged by {args.deep:,} iterations")
    for label, (iterations, agreed, regret) in summary.items():
        print(f"{label}: {iterations:.0f} iterations a decision, the deep search's choice {agreed} of "
              f"{compared}, mean regret {regret:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
