"""Game review: at one decision, the option the search prefers and what the option played cost, in points.

The loss is measured in points of the seat's estimated final margin over its
best opponent, the unit a player at the table thinks in ("that dump cost me
about 6 points"). Win chance would say little in a game decided early and
too much in a close one. The estimate compares the preferred and the played
option on the same random determinizations of what the seat could not see:
each option is played on the same copy, every seat then plays the heuristic
to the end of the round (guided playout), and the knowledge's evaluation
prices the rest. Using the same copies for both makes the difference far
less noisy than two separate estimates would be. A played option the
estimate finds no worse than the preferred one costs 0.

Everything heavy runs in C without the GIL, like the search: a review on a
low-priority thread leaves the table responsive.
"""
import dataclasses
import random

from core_ext import ai

ITERATIONS = ai.LEVELS["hard"].iterations
TREES = ai.LEVELS["hard"].trees
"""The preferred option is the hard level's choice: its iterations over its trees, without its time cap
(searched one tree after another on the calling thread, so a review never takes more than one core)."""

SAMPLES = 32
"""Determinizations on which the preferred and the played option are compared."""


@dataclasses.dataclass(frozen=True)
class Assessment:
    """One reviewed decision: the option the search prefers and the points the played option lost (>= 0)."""

    preferred: str  # notation
    loss: float


def assess(game, played, *, iterations=ITERATIONS, samples=SAMPLES, seed=None, cancel=None) -> Assessment:
    """Review the pending decision of ``game`` at which ``played`` (a Move or its notation) was chosen.

    ``game`` is not changed. A decision with one option, or at which the
    played option is the preferred one, costs nothing. With ``seed`` the
    answer is the same on every machine. ``cancel`` (with ``is_set()``)
    stops the search early, as for :func:`core_ext.ai.choose`.

    :raises ValueError: for a finished game, an option that is not legal here, or a bad budget.
    """
    legal = game.legal_moves()
    if not legal:
        raise ValueError("the game is over: there is no decision to review")
    chosen = next((move for move in legal if str(move) == str(played)), None)
    if chosen is None:
        raise ValueError(f"{played} is not an option at this decision")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ValueError(f"samples must be a positive int, not {samples!r}")
    preferred = ai.choose(game, iterations=iterations, seed=seed, trees=TREES, workers=1, cancel=cancel)
    if preferred.code == chosen.code:
        return Assessment(str(chosen), 0.0)
    rng = random.Random(seed)
    difference = 0.0
    for _ in range(samples):
        view_seed, playout_seed = rng.getrandbits(64), rng.getrandbits(64)
        difference += (_margin(game, preferred.code, view_seed, playout_seed)
                       - _margin(game, chosen.code, view_seed, playout_seed))
    return Assessment(str(preferred), max(0.0, difference / samples))


def _margin(game, code, view_seed, playout_seed) -> float:
    """The deciding seat's estimated final margin over its best opponent after ``code``, on one determinization."""
    knowledge = ai.knowledge_of(game)
    seat = game.current_player
    view = game.redetermine(view_seed, seat)
    view.push_code(code)
    if not view.is_over():
        knowledge.playout(view, playout_seed, 0, 1)
    values = knowledge.value(view)
    return values[seat] - max(value for other, value in enumerate(values) if other != seat)
