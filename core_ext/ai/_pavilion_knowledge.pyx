"""Azul: Summer Pavilion knowledge for the search, in C: what a position is worth and which option looks best.

:func:`value` estimates each seat's final score: its score, plus its tiles
(in hand, on the corners, bonus tiles owed) at what they should still buy,
plus a share of the star and number bonuses it is working towards; a passed
seat's hand counts at what keeping and discarding it will give. Option scores
(:func:`option_scores`) are each option's change of that estimate for the
deciding seat, worked out on a copy, with the payment that follows a
placement chosen at its best; while drafting, the change of the value the
placement planner gives the hand. The guided playout runs without the GIL.
"""
from libc.stdint cimport uint64_t

from core_ext._shared cimport best_index, rng_below
from core_ext.pavilion cimport (
    CENTRE_STAR_BONUS, COLOUR_STAR_BONUS, CORNERS, COST, FINAL_ROUND, MAX_OPTIONS, NCOL, NSTAR,
    NSPACE, NUMBER_BONUS, C_PLACE, P_BONUS, P_DRAFT, P_KEEP, P_OVER, P_PAY, STAR_COLOUR, Game, Player, State, allowed_colours,
    apply_move, completed_bonus, gen_moves, ring_run, settle, star_bonus,
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

cdef double STAR_SHARE = 0.6
"""Share of a star's bonus credited at full progress squared (k tiles of 6: share * (k/6)**2)."""

cdef double NUMBER_SHARE = 0.6
"""Share of a number bonus credited at full progress squared (k of its n spaces: share * (k/n)**2)."""


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


cdef inline int star_progress(State* s, signed char* star, int index, double* bonus) noexcept nogil:
    """How many of a star's six spaces are covered; ``bonus`` receives what completing it scores
    (its colour's value, or the centre star's; on the monochrome side a star of one colour so far
    counts as single-coloured)."""
    cdef int pos, filled = 0, first = -1
    cdef bint single = True
    for pos in range(6):
        if star[pos] >= 0:
            filled += 1
            if first < 0:
                first = star[pos]
            elif star[pos] != first:
                single = False
    bonus[0] = CENTRE_STAR_BONUS
    if STAR_COLOUR[index] >= 0 and not s.mono:
        bonus[0] = COLOUR_STAR_BONUS[STAR_COLOUR[index]]
    elif s.mono and single and first >= 0:
        bonus[0] = COLOUR_STAR_BONUS[first]
    return filled


cdef inline void number_progress(State* s, Player* pl, int* covered, int* spaces) noexcept nogil:
    """Per printed number 1-6 (index 0 unused): the spaces of the board side and those covered."""
    cdef int star, pos, cost
    for cost in range(7):
        covered[cost] = 0
        spaces[cost] = 0
    for star in range(NSTAR):
        for pos in range(6):
            cost = COST[s.mono][star][pos]
            spaces[cost] += 1
            covered[cost] += pl.board[star][pos] >= 0


cdef inline double progress_share(double bonus, int done, int total, double share) noexcept nogil:
    """A bonus once complete, else ``share`` of it times the square of the progress."""
    if done == total:
        return bonus
    return share * bonus * done * done / (<double>total * total)


cdef double progress_value(State* s, Player* pl, double stars_weight, double numbers_weight) noexcept nogil:
    """A share of the star-completion and number bonuses, growing with the square of progress."""
    cdef int star, number, filled
    cdef int covered[7]
    cdef int spaces[7]
    cdef double v = 0.0, bonus
    for star in range(NSTAR):
        filled = star_progress(s, pl.board[star], star, &bonus)
        v += progress_share(bonus, filled, 6, stars_weight)
    number_progress(s, pl, covered, spaces)
    for number in range(1, 5):
        v += progress_share(NUMBER_BONUS[number], covered[number], spaces[number], numbers_weight)
    return v


cdef double seat_value(State* s, int p) noexcept nogil:
    """Seat ``p``'s estimated final score (see the module docstring)."""
    cdef Player* pl = &s.pl[p]
    cdef double v = pl.score
    cdef int room = CORNERS, held = 0, kept, c
    if s.pending == P_OVER:
        return v
    v += progress_value(s, pl, STAR_SHARE, NUMBER_SHARE)
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


cdef inline double estimate(State* s, int p, bint planned) noexcept nogil:
    """Seat ``p``'s estimated final score: :func:`planned_value` or :func:`seat_value`."""
    return planned_value(s, p) if planned else seat_value(s, p)


cdef double best_after(State* s, int me, bint planned) noexcept nogil:
    """The deciding seat's estimate after ``s`` (see :func:`estimate`), paying at its best when
    a payment is pending."""
    cdef int options[MAX_OPTIONS]
    cdef int n, i
    cdef double best, v
    cdef State after
    if s.current != me or s.pending != P_PAY:
        return estimate(s, me, planned)
    n = gen_moves(s, options)
    best = -1e9
    for i in range(n):
        after = s[0]
        apply_move(&after, options[i])
        settle(&after)
        v = estimate(&after, me, planned)
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
    return best_after(&after, me, False) - before


cdef int best_option(State* s, int* options, int n, uint64_t* rng) noexcept nogil:
    """The index of the best-scoring option, ties broken at random."""
    cdef double scores[MAX_OPTIONS]
    cdef int i
    for i in range(n):
        scores[i] = option_score(s, options[i])
    return best_index(scores, n, rng)


cdef void planned_after(State* s, int* options, int n, double* scores) noexcept nogil:
    """The deciding seat's planned value (:func:`planned_value`) after each option."""
    cdef int i, me = s.current
    cdef State after
    for i in range(n):
        after = s[0]
        apply_move(&after, options[i])
        settle(&after)
        scores[i] = best_after(&after, me, True)


cdef int planned_option(State* s, int* options, int n, uint64_t* rng) noexcept nogil:
    """The index of the option after which the deciding seat's planned value is highest,
    ties broken at random."""
    cdef double scores[MAX_OPTIONS]
    planned_after(s, options, n, scores)
    return best_index(scores, n, rng)


cdef void guided(State* s, uint64_t* rng, int epsilon_percent, int round_ends) noexcept nogil:
    """Play on with the heuristic (a random option ``epsilon_percent`` of the time) until the
    game ends or ``round_ends`` rounds have ended (0: to the end). Every seat drafts by the
    placement planner's value of its hand (:func:`planned_option`), which drafts better than
    the plain estimate at the cost of planning each option's hand."""
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
        elif s.pending == P_DRAFT:
            pick = planned_option(s, options, n, rng)
        else:
            pick = best_option(s, options, n, rng)
        apply_move(s, options[pick])
        settle(s)


cdef double KEEP_WORTH = 0.5
"""Points a tile left in hand at the end of a placement phase is worth, up to the four corners
(it returns for the next round); in the last round a leftover tile costs 1."""

cdef double BONUS_TILE_WORTH = 1.0
"""Points a bonus tile from a completed structure is worth to the planner."""

cdef double PLAN_SHARE = 0.6
"""The planner's share of a star or number bonus at full progress squared (as STAR_SHARE)."""


cdef inline double star_share(State* s, signed char* star, int index) noexcept nogil:
    """One star's part of the planner's progress value."""
    cdef double bonus
    cdef int filled = star_progress(s, star, index, &bonus)
    return progress_share(bonus, filled, 6, PLAN_SHARE)


cdef inline double number_share(int number, int covered, int spaces) noexcept nogil:
    """One number's part of the planner's progress value with ``covered`` of its ``spaces`` covered."""
    if number > 4:
        return 0.0
    return progress_share(NUMBER_BONUS[number], covered, spaces, PLAN_SHARE)


cdef inline double leftover_value(State* s, signed char* hand, int held) noexcept nogil:
    """What the ``held`` tiles of ``hand`` that the plan leaves are worth: while drafting, what
    more tiles may still make of them (:func:`tiles_value`); after it, what keeping them gives
    (see KEEP_WORTH)."""
    if s.pending == P_DRAFT:
        return tiles_value(s, hand, s.round - 1)
    if s.round == FINAL_ROUND:
        return -held
    if held <= CORNERS:
        return KEEP_WORTH * held
    return KEEP_WORTH * CORNERS - (held - CORNERS)


cdef double plan_hand(State* s, Player* seat, int* first_code, int* first_wilds) noexcept nogil:
    """The points ``seat``'s hand should still make on its board this round, by a greedy plan.

    Step by step the plan lays the tile that gains most: its ring run, the change of the star
    and number shares, the bonus tiles of the structures it completes and the change of what
    the tiles left over are worth; it stops when no placement gains. Natural tiles are spent
    before wild ones. ``first_code``/``first_wilds`` receive the plan's first placement and its
    payment (-1 when the plan places nothing). Boards are private, so this is the seat's own
    placement phase as it would play it, apart from what the bonus tiles bring.
    """
    cdef Player pl = seat[0]
    cdef int covered[7]
    cdef int spaces[7]
    cdef int wild = s.round - 1, star, pos, c, cost, natural, wilds, held = 0
    cdef int allowed, bonus, run, best_star, best_pos, best_colour = -1, best_natural = 0, best_wilds = 0, step
    cdef double total, gain, best_gain, share_before, left_before
    number_progress(s, &pl, covered, spaces)
    for c in range(NCOL):
        held += pl.hand[c]
    total = leftover_value(s, pl.hand, held)
    first_code[0] = -1
    first_wilds[0] = 0
    for step in range(NSPACE):
        best_gain = 1e-9
        best_colour = -1
        left_before = leftover_value(s, pl.hand, held)
        for star in range(NSTAR):
            allowed = allowed_colours(s, &pl, star)
            if allowed == 0:
                continue
            share_before = star_share(s, pl.board[star], star)
            for pos in range(6):
                if pl.board[star][pos] >= 0:
                    continue
                cost = COST[s.mono][star][pos]
                if cost > held:
                    continue
                for c in range(NCOL):
                    if not (allowed >> c) & 1:
                        continue
                    if c == wild:
                        natural = cost
                        wilds = 0
                        if pl.hand[wild] < cost:
                            continue
                    else:
                        if pl.hand[c] == 0:
                            continue
                        natural = pl.hand[c] if pl.hand[c] < cost else cost
                        wilds = cost - natural
                        if wilds > pl.hand[wild]:
                            continue
                    pl.board[star][pos] = c
                    run = ring_run(pl.board[star], pos)
                    gain = run + star_share(s, pl.board[star], star) - share_before
                    bonus = completed_bonus(&pl, star * 6 + pos)
                    pl.board[star][pos] = -1
                    gain += (number_share(cost, covered[cost] + 1, spaces[cost])
                             - number_share(cost, covered[cost], spaces[cost]))
                    pl.hand[c] -= natural
                    pl.hand[wild] -= wilds
                    gain += BONUS_TILE_WORTH * bonus + leftover_value(s, pl.hand, held - cost) - left_before
                    pl.hand[c] += natural
                    pl.hand[wild] += wilds
                    if gain > best_gain:
                        best_gain = gain
                        best_star = star
                        best_pos = pos
                        best_colour = c
                        best_natural = natural
                        best_wilds = wilds
        if best_colour < 0:
            break
        pl.board[best_star][best_pos] = best_colour
        pl.hand[best_colour] -= best_natural
        pl.hand[wild] -= best_wilds
        held -= best_natural + best_wilds
        covered[COST[s.mono][best_star][best_pos]] += 1
        total += best_gain
        if first_code[0] < 0:
            first_code[0] = C_PLACE + (best_star * 6 + best_pos) * 6 + best_colour
            first_wilds[0] = best_wilds
    return total


cdef double planned_value(State* s, int p) noexcept nogil:
    """Seat ``p``'s estimated final score with its hand valued by :func:`plan_hand`."""
    cdef Player* pl = &s.pl[p]
    cdef double v = pl.score
    cdef int c, star, held = 0, room = CORNERS, kept, first_code, first_wilds
    if s.pending == P_OVER:
        return v
    if s.round == FINAL_ROUND and pl.passed:
        for star in range(NSTAR):
            v += star_bonus(pl.board[star])
        for c in range(1, 5):
            if _number_complete(s, pl, c):
                v += NUMBER_BONUS[c]
        for c in range(NCOL):
            v -= pl.hand[c] + pl.corner[c]
        return v
    v += progress_value(s, pl, PLAN_SHARE, PLAN_SHARE)
    if pl.passed:
        for c in range(NCOL):
            held += pl.hand[c]
            room -= pl.corner[c]
        kept = held if held < room else room
        if s.current == p and s.pending == P_KEEP:
            return v + KEEP_WORTH * (CORNERS - room + kept) - (held - kept)
        return v + KEEP_WORTH * (CORNERS - room)
    v += plan_hand(s, pl, &first_code, &first_wilds)
    if s.pending == P_BONUS and s.current == p:
        v += BONUS_TILE_WORTH * s.bonus_owed
    return v


cdef bint _number_complete(State* s, Player* pl, int number) noexcept nogil:
    cdef int star, pos
    for star in range(NSTAR):
        for pos in range(6):
            if COST[s.mono][star][pos] == number and pl.board[star][pos] < 0:
                return False
    return True


WEIGHTS = ("TILE_WORTH", "SURPLUS_WORTH", "FINAL_TILE", "WILD_EXTRA", "STAR_SHARE", "NUMBER_SHARE",
           "KEEP_WORTH", "BONUS_TILE_WORTH", "PLAN_SHARE")
"""The evaluation's and the planner's weights, by name (see :func:`weights`)."""


def weights():
    """The evaluation's and the planner's weights: ``{name: points}``."""
    return {"TILE_WORTH": TILE_WORTH, "SURPLUS_WORTH": SURPLUS_WORTH, "FINAL_TILE": FINAL_TILE,
            "WILD_EXTRA": WILD_EXTRA, "STAR_SHARE": STAR_SHARE, "NUMBER_SHARE": NUMBER_SHARE,
            "KEEP_WORTH": KEEP_WORTH, "BONUS_TILE_WORTH": BONUS_TILE_WORTH, "PLAN_SHARE": PLAN_SHARE}


def set_weights(**changes):
    """Change some weights (for tuning: every search of the process sees them)."""
    global TILE_WORTH, SURPLUS_WORTH, FINAL_TILE, WILD_EXTRA, STAR_SHARE, NUMBER_SHARE, KEEP_WORTH
    global BONUS_TILE_WORTH, PLAN_SHARE
    unknown = set(changes) - set(WEIGHTS)
    if unknown:
        raise ValueError(f"unknown weights {sorted(unknown)}; the weights are {', '.join(WEIGHTS)}")
    new = {**weights(), **{name: float(value) for name, value in changes.items()}}
    TILE_WORTH, SURPLUS_WORTH, FINAL_TILE = new["TILE_WORTH"], new["SURPLUS_WORTH"], new["FINAL_TILE"]
    WILD_EXTRA, STAR_SHARE, NUMBER_SHARE = new["WILD_EXTRA"], new["STAR_SHARE"], new["NUMBER_SHARE"]
    KEEP_WORTH, BONUS_TILE_WORTH, PLAN_SHARE = new["KEEP_WORTH"], new["BONUS_TILE_WORTH"], new["PLAN_SHARE"]


FEATURES = ("STAR_SHARE", "NUMBER_SHARE", "TILE_WORTH", "SURPLUS_WORTH", "FINAL_TILE", "WILD_EXTRA")
"""The weights of :func:`value` that :func:`features` measures, in its order."""


def features(Game game):
    """Per seat, at a drafting position: ``(fixed, counts)`` with :func:`value` equal to
    ``fixed + sum(weight * count)`` over :data:`FEATURES` (for fitting the weights to results).

    ``fixed`` is the score and the bonuses already complete; the counts are each incomplete
    star's and number's bonus times its progress squared, the tiles in hand (at most six of a
    colour counted before the last round, beyond six apart, in the last round apart) and the
    tiles of the round's wild colour.
    """
    cdef State* s = &game.s
    cdef Player* pl
    cdef int p, star, filled, number, c, n, wild = s.round - 1
    cdef int covered[7]
    cdef int spaces[7]
    cdef double fixed, stars, numbers, bonus, tiles, surplus, final_tiles
    if s.pending != P_DRAFT:
        raise ValueError("features are measured at drafting positions only")
    result = []
    for p in range(s.nplayers):
        pl = &s.pl[p]
        fixed = pl.score
        stars = numbers = tiles = surplus = final_tiles = 0.0
        for star in range(NSTAR):
            filled = star_progress(s, pl.board[star], star, &bonus)
            if filled == 6:
                fixed += bonus
            else:
                stars += bonus * filled * filled / 36.0
        number_progress(s, pl, covered, spaces)
        for number in range(1, 5):
            if covered[number] == spaces[number]:
                fixed += NUMBER_BONUS[number]
            else:
                numbers += NUMBER_BONUS[number] * covered[number] * covered[number] / (
                    <double>spaces[number] * spaces[number])
        for c in range(NCOL):
            n = pl.hand[c] + pl.corner[c]
            if s.round == FINAL_ROUND:
                final_tiles += n if n < SURPLUS_FROM else SURPLUS_FROM
            else:
                tiles += n if n < SURPLUS_FROM else SURPLUS_FROM
                surplus += n - SURPLUS_FROM if n > SURPLUS_FROM else 0
        result.append((fixed, (stars, numbers, tiles, surplus, final_tiles, <double>pl.hand[wild])))
    return result


def planned_values(Game game):
    """Per seat, the estimated final score with each hand valued by the placement planner."""
    return tuple([planned_value(&game.s, p) for p in range(game.s.nplayers)])


def planner_code(Game game, seed):
    """The planner's option: the one after which the seat's planned value is highest (ties by ``seed``)."""
    cdef int options[MAX_OPTIONS]
    cdef int n = gen_moves(&game.s, options), best
    cdef uint64_t rng = seed_state(seed)
    if n == 0:
        raise ValueError("the game is over: there is no pending decision")
    with nogil:
        best = planned_option(&game.s, options, n, &rng)
    return options[best]


def value(Game game):
    """Per seat, the estimated final score of ``game``'s position (exact once it is over)."""
    return tuple([seat_value(&game.s, p) for p in range(game.s.nplayers)])


def option_scores(Game game, codes):
    """The score of each option in ``codes`` (legal now) for the deciding seat (without the GIL): a
    draft by its change of the seat's planned value (the search's priors then draft as its playouts
    do), any other option by its change of the estimate."""
    cdef int options[MAX_OPTIONS]
    cdef double scores[MAX_OPTIONS]
    cdef int n = len(codes), i
    if n > MAX_OPTIONS:
        raise ValueError(f"at most {MAX_OPTIONS} options, not {n}")
    for i in range(n):
        options[i] = codes[i]
    cdef double before
    with nogil:
        if game.s.pending == P_DRAFT:
            planned_after(&game.s, options, n, scores)
            before = planned_value(&game.s, game.s.current)
            for i in range(n):
                scores[i] -= before
        else:
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
