"""Search speed: guided ISMCTS iterations per second from the opening decisions, on one core and
on all of them, and what the hard level reaches per decision."""
import importlib
import os
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


def iterations_per_second(games, trees=1):
    """Mean rate of the guided search over ``games``, each searched for SECONDS_PER_POSITION
    with ``trees`` trees on as many threads."""
    done = 0
    elapsed = 0.0
    for index, game in enumerate(games):
        started = time.perf_counter()
        statistics = ai.search_statistics(game, think_time=SECONDS_PER_POSITION, trees=trees, seed=index,
                                          workers=trees)
        elapsed += time.perf_counter() - started
        done += sum(visits for visits, _ in statistics.values())
    return done / elapsed


def hard_level(games):
    """Mean iterations and seconds of one hard-level decision over ``games``."""
    done = 0
    elapsed = 0.0
    for index, game in enumerate(games):
        started = time.perf_counter()
        statistics = ai.search_statistics(game, level="hard", seed=index)
        elapsed += time.perf_counter() - started
        done += sum(visits for visits, _ in statistics.values())
    return done / len(games), elapsed / len(games)


def _engines():
    yield "duel", {}
    try:
        importlib.import_module("core_ext.pavilion")
    except ImportError:
        return
    yield "pavilion", {"players": 2}


def run():
    cores = os.cpu_count() or 1
    for name, options in _engines():
        games = _openings(importlib.import_module(f"core_ext.{name}"), **options)
        yield f"ai.{name}.iterations_per_s", iterations_per_second(games), "iterations/s"
        yield f"ai.{name}.iterations_per_s_all_cores", iterations_per_second(games, trees=cores), "iterations/s"
        iterations, seconds = hard_level(games)
        yield f"ai.{name}.hard_iterations_per_decision", iterations, "iterations"
        yield f"ai.{name}.hard_seconds_per_decision", seconds, "s"
