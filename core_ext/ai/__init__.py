"""Computer players and hints for both games: information-set Monte Carlo tree search.

The search works on any game with the rules cores' common API (``core_ext.duel``
and ``core_ext.pavilion``). It never reads hidden state: every iteration starts
from ``game.redetermine(seed, seat)``. Its strength is set by a level
(:data:`LEVELS`: iterations with a time cap), by a thinking time or by a number
of iterations; with ``seed`` and ``iterations`` (and no time limit) the answer
is reproducible, on any machine and with any number of cores.

>>> from core_ext import ai, duel
>>> game = duel.Game(seed=7)
>>> move = ai.choose(game, iterations=200, seed=1)
>>> move in game.legal_moves()
True
"""
import concurrent.futures
import math
import numbers
import os
import threading
import time
from dataclasses import dataclass

from core_ext.ai import _duel_knowledge, _pavilion_knowledge
from core_ext.ai._search import Search

__all__ = ["LEVELS", "DEFAULT_LEVEL", "Level", "Search", "choose", "hint", "knowledge_of", "level_of"]


@dataclass(frozen=True)
class Level:
    """A level: a fixed amount of search that a Raspberry Pi 4 finishes within ``seconds``.

    ``iterations`` are shared out over ``trees`` independent trees (root
    parallelism), which run on as many cores as the machine has; the answer
    does not depend on the core count. ``guided`` picks the search with the
    heuristic knowledge; without it the search plays random playouts.

    ``close_extra`` spends time where it matters: when, after ``iterations``,
    the runner-up option has at least :data:`CLOSE` of the leader's visits,
    the search goes on by up to that share of ``iterations`` more, in
    :data:`EXTRA_STEPS` steps, while the decision stays that close. A
    near-forced decision ends sooner: a tree stops once its leader cannot be
    overtaken within its budget.

    ``seat_iterations`` holds ``(seats, iterations)`` pairs for tables whose
    budget differs from ``iterations``: a Summer Pavilion playout costs about
    twice as much with three or four seats as with two, so a level bound to a
    Raspberry Pi 4's seconds searches less there.
    """

    iterations: int
    seconds: float
    guided: bool = True
    trees: int = 4
    close_extra: float = 0.0
    seat_iterations: tuple = ()

    def iterations_at(self, seats):
        """The iterations of one decision at a table of ``seats`` seats."""
        return dict(self.seat_iterations).get(seats, self.iterations)


CLOSE = 0.5
"""Runner-up's share of the leader's root visits from which a decision counts as close."""

EXTRA_STEPS = 2
"""Steps in which a close decision's extra iterations are spent, checking closeness before each."""

LEVELS = {
    "easy": Level(iterations=200, seconds=1.0, guided=False, trees=1),
    "normal": Level(iterations=400, seconds=3.0, close_extra=0.5),
    "hard": Level(iterations=2400, seconds=8.0, close_extra=0.5),
    "expert": Level(iterations=12000, seconds=6.0, close_extra=0.5, seat_iterations=((3, 9000), (4, 6000))),
}
"""Level name -> :class:`Level` (measured strength in ``docs/ai.md``)."""

DEFAULT_LEVEL = "normal"

_KNOWLEDGE = {"core_ext.duel": _duel_knowledge, "core_ext.pavilion": _pavilion_knowledge}

_POOL = None
_POOL_LOCK = threading.Lock()


def knowledge_of(game):
    """The heuristic knowledge module (evaluation, option scores, guided playout) of ``game``'s rules."""
    try:
        return _KNOWLEDGE[type(game).__module__]
    except KeyError:
        raise ValueError(f"no knowledge for games of {type(game).__module__}") from None


def level_of(name):
    """The :class:`Level` of a level name (or the :class:`Level` given), with a clear error for an unknown one."""
    if isinstance(name, Level):
        return name
    try:
        return LEVELS[name]
    except (KeyError, TypeError):
        raise ValueError(f"AI level must be one of {', '.join(LEVELS)}, not {name!r}") from None


def _pool():
    """One thread per core for the trees of a search, created on first use."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1,
                                                          thread_name_prefix="ai-tree")
        return _POOL


def _check_budget(level, think_time, iterations, trees):
    if level is not None and think_time is not None:
        raise ValueError("give either level or think_time, not both")
    if iterations is not None:
        if isinstance(iterations, bool) or not isinstance(iterations, numbers.Integral) or iterations < 1:
            raise ValueError(f"iterations must be a positive int, not {iterations!r}")
    if think_time is not None:
        if isinstance(think_time, bool) or not isinstance(think_time, numbers.Real) or not (
            0 < think_time < math.inf
        ):
            raise ValueError(f"think_time must be a positive number of seconds, not {think_time!r}")
    if trees is not None and (isinstance(trees, bool) or not isinstance(trees, numbers.Integral) or trees < 1):
        raise ValueError(f"trees must be a positive int, not {trees!r}")


def search_statistics(game, *, level=None, think_time=None, iterations=None, seed=None, cancel=None,
                      guided=None, trees=None, workers=None):
    """``{code: (visits, mean reward)}`` of the root options after a search of ``game`` (summed over trees).

    The budget is as for :func:`choose`. ``workers`` caps the threads (default:
    one per core); the result does not depend on it unless time runs out.
    """
    _check_budget(level, think_time, iterations, trees)
    if think_time is None and iterations is None:
        level = DEFAULT_LEVEL if level is None else level
    spec = level_of(level) if level is not None else None
    extra = 0
    if spec is not None:
        budget = spec.iterations_at(game.players)
        cap = budget if iterations is None else min(iterations, budget)
        extra = round(spec.close_extra * cap)
        seconds = spec.seconds
        trees = spec.trees if trees is None else trees
    else:
        cap = iterations if iterations is not None else 2**62
        seconds = think_time
        trees = 1 if trees is None else trees
    knowledge = knowledge_of(game) if _is_guided(level, think_time, iterations, guided) else None
    deadline = 0.0 if seconds is None else time.perf_counter() + seconds
    # tree i's seed: the given seed in the high words, so tree 0 searches exactly as a single tree would
    searches = [Search(game, None if seed is None else seed + (index << 64), knowledge) for index in range(trees)]
    workers = min(trees, workers or os.cpu_count() or 1)

    def grow(total):
        """``total`` more iterations shared out over the trees."""
        share = [total // trees + (1 if index < total % trees else 0) for index in range(trees)]
        if workers == 1:
            for search, budget in zip(searches, share):
                if budget:
                    search.run(budget, deadline, cancel)
        else:
            jobs = [_pool().submit(search.run, budget, deadline, cancel)
                    for search, budget in zip(searches, share) if budget]
            for job in jobs:
                job.result()

    grow(cap)
    merged = _merged(searches)
    for _ in range(EXTRA_STEPS if extra >= EXTRA_STEPS * trees else 0):
        out_of_time = cancel is not None and cancel.is_set() or deadline > 0.0 and time.perf_counter() >= deadline
        if out_of_time or not _is_close(merged):
            break
        grow(extra // EXTRA_STEPS)
        merged = _merged(searches)
    return merged


def _is_guided(level, think_time, iterations, guided):
    """Whether a budget (as for :func:`choose`) searches with the heuristic knowledge."""
    if guided is not None:
        return guided
    if level is None and (think_time is not None or iterations is not None):
        return True
    return level_of(DEFAULT_LEVEL if level is None else level).guided


def _merged(searches):
    """``{code: (visits, mean reward)}`` over the root options of all ``searches``."""
    totals = {}
    for search in searches:
        for code, (visits, mean) in search.statistics().items():
            total_visits, total_reward = totals.get(code, (0, 0.0))
            totals[code] = (total_visits + visits, total_reward + visits * mean)
    return {code: (visits, reward / visits) for code, (visits, reward) in totals.items()}


def _is_close(statistics):
    """Whether the runner-up root option has at least :data:`CLOSE` of the leader's visits."""
    visits = sorted((visits for visits, _ in statistics.values()), reverse=True)
    return len(visits) > 1 and visits[1] >= CLOSE * visits[0]


def choose(game, *, level=None, think_time=None, iterations=None, seed=None, cancel=None,
           guided=None, trees=None, workers=None):
    """The option the computer picks for the seat that owns ``game``'s pending decision.

    The budget is ``level`` (a name in :data:`LEVELS` or a :class:`Level`: its
    iterations, more on a close decision, capped by its time) or ``think_time`` (seconds), optionally capped by
    ``iterations``; with ``iterations`` alone there is no time limit and the
    answer is deterministic given ``seed``. Without any budget the ``normal``
    level applies. ``guided`` (default: the level's, else True) chooses the
    search with heuristic knowledge; ``trees`` splits the iterations over
    independent trees searched in parallel. ``cancel`` (anything with
    ``is_set()``, such as a ``threading.Event``) ends the search early; the
    best option found so far is returned. ``game`` is not changed. A decision
    with one option is answered at once, and so is, with the knowledge, an
    Azul Duel seat's payment or tile in the last round's tiling: worked out
    exactly (``final_tiling_code``), since only its own score depends on it.

    :raises ValueError: for a finished game or an invalid budget.
    """
    _check_budget(level, think_time, iterations, trees)
    if level is not None:
        level_of(level)
    legal = game.legal_moves()
    if not legal:
        raise ValueError("the game is over: there is no pending decision to choose for")
    if len(legal) == 1:
        return legal[0]
    if _is_guided(level, think_time, iterations, guided):
        solved = getattr(knowledge_of(game), "final_tiling_code", None)
        code = solved(game) if solved is not None else None
        if code is not None:
            return next(move for move in legal if move.code == code)
    statistics = search_statistics(game, level=level, think_time=think_time, iterations=iterations, seed=seed,
                                   cancel=cancel, guided=guided, trees=trees, workers=workers)
    best, best_key = legal[0], None
    for move in legal:
        if move.code in statistics:
            key = statistics[move.code]
            if best_key is None or key > best_key:
                best, best_key = move, key
    return best


def hint(game, *, seat=None, **budget):
    """The option suggested to a human seat at its pending decision: the same search as :func:`choose`.

    ``seat``, when given, must be the seat that owns the pending decision, so a
    hint is never computed for someone else's turn.

    :raises ValueError: when ``seat`` is not deciding now, or as :func:`choose`.
    """
    if seat is not None and not game.is_over() and seat != game.current_player:
        raise ValueError(f"seat {seat} has no pending decision: seat {game.current_player} is deciding")
    return choose(game, **budget)
