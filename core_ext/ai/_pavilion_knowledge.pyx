"""Azul: Summer Pavilion knowledge for the search, in C: what a position is worth and which option looks best.

:func:`value` estimates each seat's final score: its score, plus its tiles
(in hand, on the corners, bonus tiles owed) at what they should still buy,
plus a share of the star and number bonuses it is working towards; a passed
seat's hand counts at what keeping and discarding it will give. Option scores
(:func:`option_scores`) are each option's change of that estimate for the
deciding seat, worked out on a copy, with the payment that follows a
placement chosen at its best. The guided playout runs without the GIL.
"""
from libc.stdint cimport uint64_t

from core_ext._shared cimport rng_below
from core_ext.pavilion cimport (
    CENTRE_STAR_BONUS, COLOUR_STAR_BONUS, CORNERS, COST, FINAL_ROUND, MAX_OPTIONS, NCOL, NSTAR,
    NUMBER_BONUS, P_BONUS, P_KEEP, P_OVER, P_PAY, STAR_COLOUR, Game, Player, State, apply_move,
    gen_moves, settle,
)

from core_ext._shared import seed_state

cdef double TILE_WORTH = 0.6
"""Points a tile in hand is worth while it can still be placed (the first few of a colour)."""

cdef double SURPLUS_WORTH = 0.25
"""Points each further tile of a colour is worth beyond SURPLUS_FROM."""

cdef int SURPLUS_FROM = 6

cdef double FINAL_TILE = 0.35

cdef double WILD_EXTRA = 0.4
"""Points a tile of the round's wild colour is worth on top of another tile."""

cdef double BONUS_SHARE = 0.6
"""Share of a star or number bonus credited at full progress squared (k tiles of 6: share * (k/6)**2)."""


cdef double tiles_value(State* s, signed char* counts, int wild) noexcept nogil:
    """What a set of tiles (per colour) should still buy; this round's wild colour (``wild``,
    -1 for none) counts extra, as it stands in for any colour; in the last round tiles count less."""
    cdef int c, n
    cdef double v = 0.0, worth = TILE_WORTH, surplus = SURPLUS_WORTH
    if s.round == FINAL_ROUND:
        worth = FINAL_TILE
        surplus = 0.0
    for c in range(NCOL):
        n = counts[c]
        if c == wild:
            v += WILD_EXTRA * n
        if n > SURPLUS_FROM:
            v += worth * SURPLUS_FROM + surplus * (n - SURPLUS_FROM)
        else:
            v += worth * n
    return v


cdef double progress_value(State* s, Player* pl) noexcept nogil:
    """A share of the star-completion and number bonuses, growing with the square of progress."""
    cdef int star, pos, filled, number, covered, spaces, first
    cdef bint single
    cdef double v = 0.0, bonus
    for star in range(NSTAR):
        filled = 0
        single = True
        first = -1
        for pos in range(6):
            if pl.board[star][pos] >= 0:
                filled += 1
                if first < 0:
                    first = pl.board[star][pos]
                elif pl.board[star][pos] != first:
                    single = False
        if filled == 0:
            continue
        bonus = CENTRE_STAR_BONUS
        if STAR_COLOUR[star] >= 0 and not s.mono:
            bonus = COLOUR_STAR_BONUS[STAR_COLOUR[star]]
        elif s.mono and single and first >= 0:
            bonus = COLOUR_STAR_BONUS[first]
        v += bonus if filled == 6 else BONUS_SHARE * bonus * filled * filled / 36.0
    for number in range(1, 5):
        covered = 0
        spaces = 0
        for star in range(NSTAR):
            for pos in range(6):
                if COST[s.mono][star][pos] == number:
                    spaces += 1
                    covered += pl.board[star][pos] >= 0
        if covered == spaces:
            v += NUMBER_BONUS[number]
        else:
            v += BONUS_SHARE * NUMBER_BONUS[number] * covered * covered / (<double>spaces * spaces)
    return v


cdef double seat_value(State* s, int p) noexcept nogil:
    """Seat ``p``'s estimated final score (see the module docstring)."""
    cdef Player* pl = &s.pl[p]
    cdef double v = pl.score
    cdef int room = CORNERS, held = 0, kept, c
    if s.pending == P_OVER:
        return v
    v += progress_value(s, pl)
    if s.round == FINAL_ROUND and pl.passed:
        for c in range(NCOL):
            v -= pl.hand[c] + pl.corner[c]  # every tile left is lost at the final scoring
        return v
    v += tiles_value(s, pl.corner, -1)
    if pl.passed and s.current == p and s.pending == P_KEEP:
        for c in range(NCOL):
            held += pl.hand[c]
            room -= pl.corner[c]
        # keeping fills the corners at a tile's worth each; the rest is discarded at 1 point each
        kept = held if held < room else room
        return v + TILE_WORTH * kept - (held - kept)
    v += tiles_value(s, pl.hand, s.round - 1)
    if s.pending == P_BONUS and s.current == p:
        v += TILE_WORTH * s.bonus_owed
    return v


cdef double best_after(State* s, int me) noexcept nogil:
    """The deciding seat's estimate after ``s``, paying at its best when a payment is pending."""
    cdef int options[MAX_OPTIONS]
    cdef int n, i
    cdef double best, v
    cdef State after
    if s.current != me or s.pending != P_PAY:
        return seat_value(s, me)
    n = gen_moves(s, options)
    best = -1e9
    for i in range(n):
        after = s[0]
        apply_move(&after, options[i])
        settle(&after)
        v = seat_value(&after, me)
        if v > best:
            best = v
    return best


cdef double option_score(State* s, int code) noexcept nogil:
    """How much ``code`` improves the deciding seat's estimate (points; higher is better)."""
    cdef int me = s.current
    cdef State after = s[0]
    cdef double before = seat_value(s, me)
    apply_move(&after, code)
    settle(&after)
    return best_after(&after, me) - before


cdef int best_option(State* s, int* options, int n, uint64_t* rng) noexcept nogil:
    """The index of the best-scoring option, ties broken at random."""
    cdef int i, best = 0, ties = 1
    cdef double top = -1e9, v
    for i in range(n):
        v = option_score(s, options[i])
        if v > top + 1e-9:
            top = v
            best = i
            ties = 1
        elif v > top - 1e-9:
            ties += 1
            if rng_below(rng, ties) == 0:
                best = i
    return best


cdef void guided(State* s, uint64_t* rng, int epsilon_percent, int round_ends) noexcept nogil:
    """Play on with the heuristic (a random option ``epsilon_percent`` of the time) until the
    game ends or ``round_ends`` rounds have ended (0: to the end)."""
    cdef int options[MAX_OPTIONS]
    cdef int n, pick, start_round = s.round
    while True:
        if round_ends > 0 and s.round - start_round >= round_ends:
            return
        n = gen_moves(s, options)
        if n == 0:
            return
        if n == 1:
            pick = 0
        elif rng_below(rng, 100) < epsilon_percent:
            pick = rng_below(rng, n)
        else:
            pick = best_option(s, options, n, rng)
        apply_move(s, options[pick])
        settle(s)


def value(Game game):
    """Per seat, the estimated final score of ``game``'s position (exact once it is over)."""
    return tuple([seat_value(&game.s, p) for p in range(game.s.nplayers)])


def option_scores(Game game, codes):
    """The heuristic score of each option in ``codes`` (legal now) for the deciding seat (without the GIL)."""
    cdef int options[MAX_OPTIONS]
    cdef double scores[MAX_OPTIONS]
    cdef int n = len(codes), i
    if n > MAX_OPTIONS:
        raise ValueError(f"at most {MAX_OPTIONS} options, not {n}")
    for i in range(n):
        options[i] = codes[i]
    with nogil:
        for i in range(n):
            scores[i] = option_score(&game.s, options[i])
    return [scores[i] for i in range(n)]


def heuristic_code(Game game, seed):
    """The heuristic player's option: the best score, ties broken by ``seed``."""
    cdef int options[MAX_OPTIONS]
    cdef int n = gen_moves(&game.s, options)
    cdef uint64_t rng = seed_state(seed)
    if n == 0:
        raise ValueError("the game is over: there is no pending decision")
    return options[best_option(&game.s, options, n, &rng)]


def playout(Game game, seed, int epsilon_percent=10, int round_ends=0):
    """Play ``game`` on in place with the heuristic (see :func:`guided`), without the GIL."""
    cdef uint64_t rng = seed_state(seed)
    with nogil:
        guided(&game.s, &rng, epsilon_percent, round_ends)
