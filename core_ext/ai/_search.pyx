"""Information-set Monte Carlo tree search over a rules core's thin int API.

One tree per decision, keyed by move codes only (single-observer ISMCTS):
every iteration starts from ``game.redetermine(seed, seat)``, so the search
sees only what the deciding seat can see, and chance outcomes (bag draws,
plate reveals) are re-sampled each time. A child is a candidate only when its
code is legal in the current determinization; its *availability* counts how
often that was so and takes the place of the parent's visit count in UCB1.
Leaves are valued by one uniformly random playout in C
(``game.random_playout``), which releases the GIL, so a search on a worker
thread leaves the rest of the program responsive.
"""
from libc.math cimport log, sqrt
from libc.stdint cimport uint64_t

from core_ext._shared cimport rng_below, rng_next

import time

from core_ext._shared import seed_state

cdef enum:
    MAX_SEATS = 8

EXPLORATION = 0.7
"""UCB1 exploration constant, for rewards in [0, 1]."""

MARGIN_WEIGHT = 0.3
"""Share of a playout's reward that comes from the score margin rather than the win."""

MARGIN_SCALE = 30.0
"""Score margin (points over the best opponent) that earns the whole margin share."""

STOP_CHECK_INTERVAL = 32
"""Iterations between checks of the clock, the cancel flag and the early stop."""


cdef class _Node:
    """A move code in the tree, with the statistics of the seat that chose it."""
    cdef int code
    cdef int mover
    cdef int visits
    cdef int available
    cdef double reward
    cdef dict children

    def __cinit__(self, int code, int mover):
        self.code = code
        self.mover = mover
        self.available = 1
        self.children = {}


cdef class Search:
    """A search tree for the pending decision of ``game``, from its deciding seat's view.

    ``Search(game, seed=None)``. :meth:`run` grows the tree; :meth:`best_code`
    reads the answer. With a seed, the same number of iterations on positions
    that look the same to the deciding seat gives the same tree.
    """
    cdef object game
    cdef int seat
    cdef int seats
    cdef _Node root
    cdef uint64_t rng
    cdef readonly long iterations

    def __init__(self, game, seed=None):
        if game.is_over():
            raise ValueError("the game is over: there is no pending decision to search")
        self.seats = game.players
        if not 1 <= self.seats <= MAX_SEATS:
            raise ValueError(f"a game has 1 to {MAX_SEATS} seats, not {self.seats}")
        self.game = game
        self.seat = game.current_player
        self.root = _Node(-1, -1)
        self.rng = seed_state(seed)
        self.iterations = 0

    def run(self, long max_iterations, double deadline=0.0, cancel=None):
        """Run up to ``max_iterations`` more iterations; returns how many ran.

        Stops early at ``deadline`` (a ``time.perf_counter()`` value; 0 for
        none), when ``cancel.is_set()``, or when the most visited root option
        can no longer be overtaken within the remaining budget.
        """
        cdef long done = 0
        cdef double started = time.perf_counter(), now, remaining
        while done < max_iterations:
            self._iterate()
            done += 1
            if done % STOP_CHECK_INTERVAL:
                continue
            if cancel is not None and cancel.is_set():
                break
            remaining = max_iterations - done
            if deadline > 0.0:
                now = time.perf_counter()
                if now >= deadline:
                    break
                remaining = min(remaining, (deadline - now) * done / (now - started))
            if self._lead() > remaining:
                break
        self.iterations += done
        return done

    cdef int _lead(self):
        """Visits by which the most visited root option leads the runner-up."""
        cdef int first = 0, second = 0
        cdef _Node child
        for child in self.root.children.values():
            if child.visits > first:
                second = first
                first = child.visits
            elif child.visits > second:
                second = child.visits
        return first - second

    cdef void _iterate(self) except *:
        cdef _Node node = self.root, child, chosen, expand_parent = None
        cdef list path = []
        cdef int mover, untried, expand_code = -1, code
        cdef double value, best_value
        cdef double rewards[MAX_SEATS]
        game = self.game.redetermine(rng_next(&self.rng), self.seat)
        while not game.is_over():
            mover = game.current_player
            children = node.children
            untried = 0
            chosen = None
            best_value = -1.0
            for code in game.legal_codes():
                child = children.get(code)
                if child is None:
                    untried += 1
                    if rng_below(&self.rng, untried) == 0:
                        expand_code = code
                    continue
                child.available += 1
                if untried:
                    continue
                value = child.reward / child.visits + EXPLORATION * sqrt(log(child.available) / child.visits)
                if value > best_value:
                    best_value = value
                    chosen = child
            if untried:
                child = _Node(expand_code, mover)
                children[expand_code] = child
                game.push_code(expand_code)
                path.append(child)
                break
            game.push_code(chosen.code)
            path.append(chosen)
            node = chosen
        if not game.is_over():
            game.random_playout(rng_next(&self.rng))
        self._rewards(game, rewards)
        for child in path:
            child.visits += 1
            child.reward += rewards[child.mover]

    cdef void _rewards(self, game, double* rewards) except *:
        """Per seat: a share of the win (split on a shared victory) blended with the score margin."""
        scores = game.scores()
        winners = game.winners()
        cdef int p, q
        cdef double best_other, margin
        for p in range(self.seats):
            best_other = -1e9
            for q in range(self.seats):
                if q != p and scores[q] > best_other:
                    best_other = scores[q]
            margin = (scores[p] - best_other) / MARGIN_SCALE
            margin = max(-1.0, min(1.0, margin))
            rewards[p] = MARGIN_WEIGHT * (0.5 + 0.5 * margin)
            if p in winners:
                rewards[p] += (1.0 - MARGIN_WEIGHT) / len(winners)

    def best_code(self, legal_codes):
        """The most visited root option among ``legal_codes`` (then the best mean, then the first listed)."""
        cdef _Node child
        best = None
        best_key = None
        for code in legal_codes:
            child = self.root.children.get(code)
            if child is None:
                continue
            key = (child.visits, child.reward / child.visits)
            if best_key is None or key > best_key:
                best, best_key = code, key
        return legal_codes[0] if best is None else best

    def statistics(self):
        """``{code: (visits, mean reward)}`` for the root options searched so far."""
        cdef _Node child
        return {code: (child.visits, child.reward / child.visits) for code, child in self.root.children.items()}
