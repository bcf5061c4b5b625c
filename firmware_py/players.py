"""The computer at the table: AI seats and hints, thinking off the session thread.

The session asks for a move (or a hint) with the game copied at one version;
the search runs on a worker thread and its answer comes back as an ordinary
command carrying that version, so an answer that arrives after the game moved
on, or was replaced, is refused like any stale input. A new game cancels
every search in progress.
"""
import dataclasses
import math
import os
import random
import threading
import time

from firmware_py.games import GAMES
from hardware.doctor import Finding

HINT_LEVEL = "normal"
TIMED_LEVELS = ("hard", "expert")
"""The levels the doctor times: the guided ones whose search could outlast its cap on a slow machine."""
TIMED_DECISIONS = (0, 40, 80, 120)
"""The decisions of a heuristic game at which the doctor times each level's search."""


class Thinker:
    """Runs AI searches on worker threads; each can be cancelled."""

    def __init__(self, choose=None):
        self._choose = choose
        self._lock = threading.Lock()
        self._running = {}  # key -> cancel event

    def _search(self):
        if self._choose is None:
            from core_ext import ai

            self._choose = ai.choose
        return self._choose

    def think(self, key, game, level: str, deliver, seed=None):
        """Search ``game`` at ``level`` and call ``deliver(move)`` unless cancelled; one search per ``key``."""
        with self._lock:
            if key in self._running:
                return
            cancel = threading.Event()
            self._running[key] = cancel
        choose = self._search()

        def work():
            try:
                move = choose(game, level=level, seed=seed, cancel=cancel)
            finally:
                with self._lock:
                    self._running.pop(key, None)
            if not cancel.is_set():
                deliver(move)

        threading.Thread(target=work, name=f"ai-{key}", daemon=True).start()

    def cancel_all(self):
        with self._lock:
            for cancel in self._running.values():
                cancel.set()
            self._running.clear()


def check_levels(clock=time.perf_counter, levels=TIMED_LEVELS) -> Finding:
    """The doctor's line on the computer players: each timed level's whole search timed on this machine.

    A level is a number of iterations with a time cap; where the cap would cut
    the search short, the level plays below its measured strength, so the rig
    builder is told before a game night rather than by a weak opponent. The
    slowest of a few positions of each game counts: the search stops early
    where one option clearly leads, so one position would say little.
    """
    from core_ext import ai
    from core_ext.ai.baselines import heuristic_move

    def positions(spec):
        """``(decision, game)`` at each of TIMED_DECISIONS of a game the heuristic plays at a full
        table (the most seats: the slowest searches)."""
        game, rng = spec.new(spec.max_players, 0, {}), random.Random(0)
        for decision in range(TIMED_DECISIONS[-1] + 1):
            if decision in TIMED_DECISIONS:
                yield decision, game.copy()
            game.push(heuristic_move(game, rng))

    sampled = [(spec, list(positions(spec))) for spec in GAMES.values()]
    lines, slow = [], []
    for name in levels:
        level = ai.level_of(name)

        def seconds(game, seed):
            started = clock()
            ai.choose(game, level=dataclasses.replace(level, seconds=math.inf), seed=seed)
            return clock() - started

        slowest = [(spec, max(seconds(game, decision) for decision, game in games)) for spec, games in sampled]
        timings = " and ".join(f"{taken:.1f} s in {spec.title} ({level.iterations_at(spec.max_players):,} iterations "
                               f"at {spec.max_players} seats)" for spec, taken in slowest)
        over = max(taken for _, taken in slowest) > level.seconds
        lines.append(f"the {name} level took at most {timings}, "
                     f"{'over' if over else 'within'} its {level.seconds:g} s cap")
        if over:
            slow.append(name)
    search = f"{'; '.join(lines)} (on {os.cpu_count() or 1} cores)"
    if slow:
        weaker = " and ".join(slow)
        fallback = next((name for name in reversed(ai.LEVELS) if name not in slow), "easy")
        return Finding("computer players", False, (
            f"{search}: the {weaker} level plays weaker here than docs/ai.md measures; "
            f"stop other work on this machine, or offer the {fallback} level"))
    return Finding("computer players", True, f"{search}: full strength")
