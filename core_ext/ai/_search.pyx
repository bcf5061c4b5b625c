"""Information-set Monte Carlo tree search over a rules core's thin int API.

One tree per decision, keyed by move codes only (single-observer ISMCTS):
every iteration starts from ``game.redetermine(seed, seat)``, so the search
sees only what the deciding seat can see, and chance outcomes (bag draws,
plate reveals) are re-sampled each time. A child is a candidate only when its
code is legal in the current determinization; its *availability* counts how
often that was so and takes the place of the parent's visit count.

Two ways to grow the tree (``Search(..., knowledge=...)``):

- with a game's knowledge module (``core_ext.ai._duel_knowledge`` or
  ``_pavilion_knowledge``): options get priors from the heuristic's option
  scores (PUCT), leaves are valued by a heuristic-guided playout that stops
  after ``playout_rounds`` round ends and is scored by the knowledge's
  evaluation, and the reward keeps growing with the score margin;
- without (``knowledge=None``): UCB1, one new option at random per
  iteration, a uniformly random playout to the end, and a margin reward that
  stops growing at 30 points. That is the project's first search, kept as the
  easy level and as a yardstick.

Playouts run in C without the GIL, so searches on worker threads leave the
rest of the program responsive and run on several cores at once.
"""
from libc.math cimport exp, log, sqrt
from libc.stdint cimport uint64_t

from core_ext._shared cimport rng_below, rng_next

import time

from core_ext._shared import seed_state

cdef enum:
    MAX_SEATS = 8

EXPLORATION = 0.7
"""UCB1 exploration constant (without knowledge), for rewards in [0, 1]."""

PUCT = 1.5
"""Weight of the prior in PUCT selection (with knowledge)."""

PRIOR_TEMPERATURE = 1.5
"""Points of option score per factor e of prior probability."""

WIN_SHARE = 0.5
"""Share of the reward (with knowledge) that comes from winning; the rest grows linearly with the margin."""

MARGIN_RANGE = 100.0
"""Score margin (with knowledge) that moves the margin part of the reward from 0.5 to 1 (not capped)."""

WIN_LOGISTIC_SCALE = 6.0
"""Points of estimated margin per factor e of win odds, for a playout cut off before the end."""

PLAIN_MARGIN_WEIGHT = 0.3
"""Share of the reward (without knowledge) that comes from the score margin rather than the win."""

PLAIN_MARGIN_SCALE = 30.0
"""Score margin (without knowledge) that earns the whole margin share."""

STOP_CHECK_INTERVAL = 32
"""Iterations between checks of the clock, the cancel flag and the early stop."""


cdef class _Node:
    """A move code in the tree, with the statistics of the seat that chose it."""
    cdef int code
    cdef int mover
    cdef int visits
    cdef int available
    cdef double reward
    cdef double prior
    cdef dict children

    def __cinit__(self, int code, int mover, double prior=0.0):
        self.code = code
        self.mover = mover
        self.available = 1
        self.prior = prior
        self.children = {}


cdef class Search:
    """A search tree for the pending decision of ``game``, from its deciding seat's view.

    ``Search(game, seed=None, knowledge=None, playout_rounds=1, epsilon_percent=10, uniform_priors=False)``:
    ``playout_rounds`` 0 plays guided playouts to the end; ``uniform_priors``
    gives every option the same prior (to measure what the heuristic's priors add).
    :meth:`run` grows the tree; :meth:`best_code` reads the answer. With a seed,
    the same number of iterations on positions that look the same to the
    deciding seat gives the same tree.
    """
    cdef object game
    cdef object knowledge
    cdef int seat
    cdef int seats
    cdef int playout_rounds
    cdef int epsilon_percent
    cdef bint uniform_priors
    cdef _Node root
    cdef uint64_t rng
    cdef readonly long iterations

    def __init__(self, game, seed=None, knowledge=None, int playout_rounds=1, int epsilon_percent=10,
                 bint uniform_priors=False):
        if game.is_over():
            raise ValueError("the game is over: there is no pending decision to search")
        self.seats = game.players
        if not 1 <= self.seats <= MAX_SEATS:
            raise ValueError(f"a game has 1 to {MAX_SEATS} seats, not {self.seats}")
        if playout_rounds < 0 or not 0 <= epsilon_percent <= 100:
            raise ValueError("playout_rounds must be >= 0 and epsilon_percent within 0-100")
        self.game = game
        self.knowledge = knowledge
        self.playout_rounds = playout_rounds
        self.epsilon_percent = epsilon_percent
        self.uniform_priors = uniform_priors
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
        if cancel is not None and cancel.is_set():
            return 0
        while done < max_iterations:
            if self.knowledge is None:
                self._iterate_plain()
            else:
                self._iterate_guided()
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

    cdef void _iterate_plain(self) except *:
        cdef _Node node = self.root, child, chosen
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
        self._plain_rewards(game, rewards)
        for child in path:
            child.visits += 1
            child.reward += rewards[child.mover]

    cdef void _iterate_guided(self) except *:
        cdef _Node node = self.root, child, chosen
        cdef list path = []
        cdef int mover, code
        cdef double value, best_value, q, sqrt_available
        cdef double rewards[MAX_SEATS]
        cdef bint leaf
        knowledge = self.knowledge
        game = self.game.redetermine(rng_next(&self.rng), self.seat)
        while not game.is_over():
            mover = game.current_player
            children = node.children
            codes = game.legal_codes()
            leaf = False
            for code in codes:
                if code not in children:
                    self._add_children(node, game, codes, mover)
                    leaf = True
                    break
            chosen = None
            best_value = -1e300
            for code in codes:
                child = children[code]
                child.available += 1
                sqrt_available = sqrt(child.available)
                if child.visits:
                    q = child.reward / child.visits
                else:
                    q = 0.5  # first-play value: an even prospect until tried
                value = q + PUCT * child.prior * sqrt_available / (1 + child.visits)
                if value > best_value:
                    best_value = value
                    chosen = child
            if chosen.visits == 0:
                leaf = True
            game.push_code(chosen.code)
            path.append(chosen)
            node = chosen
            if leaf:
                break
        if not game.is_over():
            knowledge.playout(game, rng_next(&self.rng), self.epsilon_percent, self.playout_rounds)
        self._guided_rewards(game, knowledge.value(game), rewards)
        for child in path:
            child.visits += 1
            child.reward += rewards[child.mover]

    cdef void _add_children(self, _Node node, game, list codes, int mover) except *:
        """Children for every option of ``codes`` not in the tree yet, with priors from the heuristic."""
        cdef list scores = [0.0] * len(codes) if self.uniform_priors else self.knowledge.option_scores(game, codes)
        cdef double top = max(scores), total = 0.0
        cdef list weights = [exp((score - top) / PRIOR_TEMPERATURE) for score in scores]
        cdef int i
        for weight in weights:
            total += weight
        for i in range(len(codes)):
            if codes[i] not in node.children:
                node.children[codes[i]] = _Node(codes[i], mover, weights[i] / total)

    cdef void _guided_rewards(self, game, values, double* rewards) except *:
        """Per seat: a share of the (estimated) win blended with a margin term that is not capped."""
        cdef int p, q
        cdef double best_other, margin, win
        cdef bint over = game.is_over()
        winners = game.winners() if over else ()
        for p in range(self.seats):
            best_other = -1e9
            for q in range(self.seats):
                if q != p and values[q] > best_other:
                    best_other = values[q]
            margin = values[p] - best_other
            if over:
                win = 1.0 / len(winners) if p in winners else 0.0
            else:
                win = 1.0 / (1.0 + exp(-margin / WIN_LOGISTIC_SCALE))
            rewards[p] = WIN_SHARE * win + (1.0 - WIN_SHARE) * (0.5 + 0.5 * margin / MARGIN_RANGE)

    cdef void _plain_rewards(self, game, double* rewards) except *:
        """Per seat: a share of the win (split between the seats of a shared victory) blended with the score margin."""
        scores = game.scores()
        winners = game.winners()
        cdef int p, q
        cdef double best_other, margin
        for p in range(self.seats):
            best_other = -1e9
            for q in range(self.seats):
                if q != p and scores[q] > best_other:
                    best_other = scores[q]
            margin = (scores[p] - best_other) / PLAIN_MARGIN_SCALE
            margin = max(-1.0, min(1.0, margin))
            rewards[p] = PLAIN_MARGIN_WEIGHT * (0.5 + 0.5 * margin)
            if p in winners:
                rewards[p] += (1.0 - PLAIN_MARGIN_WEIGHT) / len(winners)

    def best_code(self, legal_codes):
        """The most visited root option among ``legal_codes`` (then the best mean, then the first listed)."""
        cdef _Node child
        best = None
        best_key = None
        for code in legal_codes:
            child = self.root.children.get(code)
            if child is None or child.visits == 0:
                continue
            key = (child.visits, child.reward / child.visits)
            if best_key is None or key > best_key:
                best, best_key = code, key
        return legal_codes[0] if best is None else best

    def statistics(self):
        """``{code: (visits, mean reward)}`` for the root options searched so far."""
        cdef _Node child
        return {code: (child.visits, child.reward / child.visits)
                for code, child in self.root.children.items() if child.visits}
