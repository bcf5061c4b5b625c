"""Summer Pavilion engine speed: whole random games in C (2-4 players), and
decisions driven from Python through Move objects and through the int API."""
import itertools
import random

from benchmarks.timing import rate
from core_ext import pavilion


def _python_game(play):
    """One random 2-player game where ``play(game, choose)`` makes one decision; returns the decisions."""
    game = pavilion.Game(seed=random.getrandbits(64))
    choose = random.choice
    plies = 0
    while not game.is_over():
        play(game, choose)
        plies += 1
    return plies


def _by_moves(game, choose):
    game.push(choose(game.legal_moves()))


def _by_codes(game, choose):
    game.push_code(choose(game.legal_codes()))


def run():
    batch = 500
    seeds = itertools.count()
    yield "pavilion.random_games_per_s", rate(lambda: pavilion.random_games(batch, next(seeds)) and batch), "games/s"
    for players in (3, 4):
        yield f"pavilion.random_games_per_s_{players}p", rate(
            lambda: pavilion.random_games(batch, next(seeds), players) and batch, 1.0), "games/s"
    yield "pavilion.random_plies_per_s", rate(lambda: pavilion.random_games(batch, next(seeds))), "decisions/s"
    yield "pavilion.python_plies_per_s", rate(lambda: _python_game(_by_moves)), "decisions/s"
    yield "pavilion.python_code_plies_per_s", rate(lambda: _python_game(_by_codes)), "decisions/s"
    game = pavilion.Game(players=4, seed=1)
    yield "pavilion.copy_per_s", rate(lambda: sum(1 for _ in map(lambda _: game.copy(), range(10_000)))), "copies/s"
