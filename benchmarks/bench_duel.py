"""Azul Duel engine speed: whole random games in C, and plies driven from Python."""
import random

from benchmarks.timing import rate
from core_ext import duel


def _python_plies():
    """One random game through legal_moves() (Move objects) and push(Move)."""
    game = duel.Game(seed=random.getrandbits(64))
    choice = random.choice
    plies = 0
    while not game.is_over():
        game.push(choice(game.legal_moves()))
        plies += 1
    return plies


def run():
    batch = 200
    seeds = iter(range(10**9))
    yield "duel.random_games_per_s", rate(lambda: duel.random_games(batch, next(seeds)) and batch), "games/s"
    yield "duel.random_plies_per_s", rate(lambda: duel.random_games(batch, next(seeds))), "plies/s"
    yield "duel.python_plies_per_s", rate(_python_plies), "plies/s"
    game = duel.Game(seed=1)
    yield "duel.copy_per_s", rate(lambda: sum(1 for _ in map(lambda _: game.copy(), range(10_000)))), "copies/s"
