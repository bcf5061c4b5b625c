"""Search speed: ISMCTS iterations per second from the opening decisions (whole-game playouts)."""
import importlib
import time

from core_ext import ai

POSITIONS = 3
SECONDS_PER_POSITION = 1.0


def _openings(module, **options):
    """Fresh games (several seeds) advanced to their first decision with a real choice."""
    games = []
    for seed in range(1, POSITIONS + 1):
        game = module.Game(seed=seed, **options)
        while len(game.legal_codes()) == 1:
            game.push_code(game.legal_codes()[0])
        games.append(game)
    return games


def iterations_per_second(games):
    """Mean search rate over ``games``, each searched for SECONDS_PER_POSITION."""
    done = 0
    elapsed = 0.0
    for index, game in enumerate(games):
        search = ai.Search(game, seed=index)
        started = time.perf_counter()
        while time.perf_counter() - started < SECONDS_PER_POSITION:
            done += search.run(1000)
        elapsed += time.perf_counter() - started
    return done / elapsed


def _engines():
    yield "duel", {}
    try:
        importlib.import_module("core_ext.pavilion")
    except ImportError:
        return
    yield "pavilion", {"players": 2}


def run():
    for name, options in _engines():
        games = _openings(importlib.import_module(f"core_ext.{name}"), **options)
        yield f"ai.{name}.iterations_per_s", iterations_per_second(games), "iterations/s"
