"""Computer players and hints for both games: information-set Monte Carlo tree search.

The search works on any game with the rules cores' common API (``core_ext.duel``
and ``core_ext.pavilion``). It never reads hidden state: every iteration starts
from ``game.redetermine(seed, seat)``. Its strength is set by thinking time
(:data:`LEVELS`) or by a number of iterations; with ``seed`` and ``iterations``
(and no time limit) the answer is reproducible.

>>> from core_ext import ai, duel
>>> game = duel.Game(seed=7)
>>> move = ai.choose(game, iterations=200, seed=1)
>>> move in game.legal_moves()
True
"""
import math
import numbers
import time

from core_ext.ai._search import Search

LEVELS = {"easy": 0.1, "normal": 0.5, "hard": 2.0}
"""Level name -> thinking time in seconds per decision."""

DEFAULT_LEVEL = "normal"

__all__ = ["LEVELS", "DEFAULT_LEVEL", "Search", "choose", "hint", "think_time_of"]


def think_time_of(level):
    """The thinking time of a level name, with a clear error for an unknown one."""
    try:
        return LEVELS[level]
    except (KeyError, TypeError):
        raise ValueError(f"AI level must be one of {', '.join(LEVELS)}, not {level!r}") from None


def _budget(level, think_time, iterations):
    """(iteration cap, seconds or None) from the keyword options, validated."""
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
    elif level is not None or iterations is None:
        think_time = think_time_of(DEFAULT_LEVEL if level is None else level)
    cap = iterations if iterations is not None else 2**62
    return cap, think_time


def choose(game, *, level=None, think_time=None, iterations=None, seed=None, cancel=None):
    """The option the computer picks for the seat that owns ``game``'s pending decision.

    The budget is ``level`` (a name in :data:`LEVELS`) or ``think_time`` (seconds),
    optionally capped by ``iterations``; with ``iterations`` alone there is no time
    limit and the answer is deterministic given ``seed``. Without any budget the
    ``normal`` level applies. ``cancel`` (anything with ``is_set()``, such as a
    ``threading.Event``) ends the search early; the best option found so far is
    returned. ``game`` is not changed. A decision with one option is answered at once.

    :raises ValueError: for a finished game or an invalid budget.
    """
    cap, seconds = _budget(level, think_time, iterations)
    legal = game.legal_moves()
    if not legal:
        raise ValueError("the game is over: there is no pending decision to choose for")
    if len(legal) == 1:
        return legal[0]
    search = Search(game, seed)
    deadline = 0.0 if seconds is None else time.perf_counter() + seconds
    search.run(cap, deadline, cancel)
    best = search.best_code([move.code for move in legal])
    return next(move for move in legal if move.code == best)


def hint(game, *, seat=None, level=None, think_time=None, iterations=None, seed=None, cancel=None):
    """The option suggested to a human seat at its pending decision: the same search as :func:`choose`.

    ``seat``, when given, must be the seat that owns the pending decision, so a
    hint is never computed for someone else's turn.

    :raises ValueError: when ``seat`` is not deciding now, or as :func:`choose`.
    """
    if seat is not None and not game.is_over() and seat != game.current_player:
        raise ValueError(f"seat {seat} has no pending decision: seat {game.current_player} is deciding")
    return choose(game, level=level, think_time=think_time, iterations=iterations, seed=seed, cancel=cancel)
