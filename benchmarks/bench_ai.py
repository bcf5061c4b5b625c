"""Search speed: guided ISMCTS iterations per second from the opening decisions with four trees on
1, 2 and 4 worker threads (root parallelism), and what the hard and expert levels take per decision:
wall-clock seconds here, the CPU seconds they use, and from those an estimate for a Raspberry Pi 4."""
import importlib
import time

from core_ext import ai

POSITIONS = 3
SECONDS_PER_POSITION = 1.0
WORKERS = (1, 2, 4)
TREES = 4
PI4_CORE_SPEED = 0.3
"""A Raspberry Pi 4 core against one of the measurement machine's (sysbench, shared/design/performance_and_style.md)."""
PI4_CORES = 4


def _openings(module, **options):
    """Fresh games (several seeds) advanced to their first decision with a real choice."""
    games = []
    for seed in range(1, POSITIONS + 1):
        game = module.Game(seed=seed, **options)
        while len(game.legal_codes()) == 1:
            game.push_code(game.legal_codes()[0])
        games.append(game)
    return games


def iterations_per_second(games, workers=1):
    """Mean rate of the guided search over ``games``, each searched for SECONDS_PER_POSITION
    with TREES trees on ``workers`` threads."""
    done = 0
    elapsed = 0.0
    for index, game in enumerate(games):
        started = time.perf_counter()
        statistics = ai.search_statistics(game, think_time=SECONDS_PER_POSITION, trees=TREES, seed=index,
                                          workers=workers)
        elapsed += time.perf_counter() - started
        done += sum(visits for visits, _ in statistics.values())
    return done / elapsed


def level_cost(games, level):
    """Mean iterations, wall-clock seconds and CPU seconds of one decision at ``level`` over ``games``
    (its trees on one thread per core), and the slowest decision's CPU seconds."""
    done = 0
    elapsed = cpu = slowest = 0.0
    for index, game in enumerate(games):
        started, cpu_started = time.perf_counter(), time.process_time()
        statistics = ai.search_statistics(game, level=level, seed=index)
        elapsed += time.perf_counter() - started
        used = time.process_time() - cpu_started
        cpu += used
        slowest = max(slowest, used)
        done += sum(visits for visits, _ in statistics.values())
    return done / len(games), elapsed / len(games), cpu / len(games), slowest


def _engines():
    yield "duel", {}
    try:
        importlib.import_module("core_ext.pavilion")
    except ImportError:
        return
    yield "pavilion", {"players": 2}
    yield "pavilion4", {"players": 4}


def run():
    for name, options in _engines():
        games = _openings(importlib.import_module(f"core_ext.{name.rstrip('4')}"), **options)
        rates = {}
        for workers in WORKERS:
            rates[workers] = iterations_per_second(games, workers)
            yield f"ai.{name}.iterations_per_s_{workers}_workers", rates[workers], "iterations/s"
        # how much of a second thread root parallelism turns into search here
        efficiency = min(1.0, rates[2] / (2 * rates[1]))
        yield f"ai.{name}.two_worker_efficiency", efficiency, "of 2 cores"
        for level in ("hard", "expert"):
            iterations, seconds, cpu, slowest = level_cost(games, level)
            yield f"ai.{name}.{level}_iterations_per_decision", iterations, "iterations"
            yield f"ai.{name}.{level}_seconds_per_decision", seconds, "s"
            yield f"ai.{name}.{level}_cpu_seconds_per_decision", cpu, "s"
            # the slowest decision's CPU work at a Pi 4 core's speed, over its cores at this machine's efficiency
            yield (f"ai.{name}.{level}_pi4_seconds_slowest_estimate",
                   slowest / PI4_CORE_SPEED / (PI4_CORES * efficiency), "s")
