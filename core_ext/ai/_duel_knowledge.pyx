"""Azul Duel knowledge for the search, in C: what a position is worth and which option looks best.

:func:`value` estimates each seat's final score from a position: its score,
plus what its pattern lines, chips and plates should still earn, minus the
broken tiles and the starting tile it will pay for, plus the objectives it
already holds. Option scores (:func:`option_scores`) are each option's change
of that estimate for the deciding seat, worked out on a copy, so a take is
judged by the best pattern line for the tiles it brings. Both are plain C on
the rules core's state (``core_ext.duel``'s C level); the guided playout that
the search uses runs without the GIL.
"""
from libc.stdint cimport uint64_t

from core_ext._shared cimport best_index, rng_below, rng_next
from core_ext.duel cimport (
    C_CHIP, C_DISPLAY, C_KEEP, C_LINE, C_NOPAY, C_ORDER, C_PAY, C_PLACE, C_STACK, C_STOP, C_TILE, C_UNDER,
    FINAL_ROUND, MAX_OPTIONS, NCHIP, P_ACTION, P_DRAW, P_KEEP, P_LINE, P_ORDER, P_OVER, P_PAY, P_PLACE,
    P_RETURN, P_SETUP, P_TILE, SPECIAL, WILD, Game, Player, State, apply_move, fitting_cells, gen_moves,
    objective_points, run_score, special_field_unlocked,
)

from core_ext._shared import seed_state

cdef double CHIP_WORTH = 0.7
"""Points a bonus chip is worth while unspent (2 or 3 of them buy a missing tile)."""

cdef double FINAL_CHIP_WORTH = 0.3
"""Points an unspent chip is worth in the last round until its holder's final tiling is over
(after it, nothing): it can still buy a line's missing tile, and keeping it earns nothing."""

cdef double PLATE_WORTH = 2.0
"""Points a plate on the dome is worth before the last round: it opens spaces to tile."""

cdef double SPECULATIVE_LINE = 0.4
"""Per tile, a line whose row has no fitting space yet but may get a plate."""


cdef inline int broken_cost(int nbroken, int extra) noexcept nogil:
    """Penalty points for ``extra`` more broken tiles on top of ``nbroken`` (-1..-4 per space, D6)."""
    cdef int after = nbroken + extra
    if after > 4:
        after = 4
    return (after * (after + 1) - nbroken * (nbroken + 1)) // 2


cdef inline bint row_has_free_slot(Player* pl, int line) noexcept nogil:
    cdef int base = (line // 2) * 3, i
    for i in range(3):
        if pl.slot_plate[base + i] < 0:
            return True
    return False


cdef int SPECIAL_OBJECTIVE = 7
"""The objective that costs 3 points per special field left empty (D2)."""

cdef double SPECIAL_FIELD_RISK = 1.5
"""Points a special field on a newly laid plate counts against it where the objective counts empty
ones (-3 each unless all three regular spaces of its plate get tiles): set by hand at half of them,
as the evaluation already charges the 3 points once the plate is laid."""


cdef inline bint scores_special_fields(State* s) noexcept nogil:
    cdef int i
    for i in range(s.nobjectives):
        if s.objectives[i] == SPECIAL_OBJECTIVE:
            return True
    return False


cdef int special_unlocked(State* s, Player* pl, int cell) noexcept nogil:
    """Points a regular tile laid on ``cell`` earns by completing its plate's regular spaces: the
    special tile (its grid row, D7) and, where the objective counts empty special fields, the 3
    points the field no longer costs. 0 if the plate has no empty special field or stays open."""
    cdef int special = special_field_unlocked(pl, cell)
    if special < 0:
        return 0
    return special // 6 + 1 + (3 if scores_special_fields(s) else 0)


cdef double best_tile_points(State* s, Player* pl, int line, int colour) noexcept nogil:
    """Points of the best fitting space of grid row ``line`` for ``colour`` (0 if none), with
    what it unlocks (:func:`special_unlocked`)."""
    cdef int cells[6]
    cdef int n = fitting_cells(pl, line, colour, cells), i, points, best = 0
    for i in range(n):
        pl.tile[cells[i]] = colour
        points = run_score(pl, cells[i])
        pl.tile[cells[i]] = -1
        points += special_unlocked(s, pl, cells[i])
        if points > best:
            best = points
    return best


cdef inline bint final_tiling_passed(State* s, Player* pl, int line) noexcept nogil:
    """Whether the last round's tiling is past ``pl``'s pattern line ``line`` (the starting
    player's lines are tiled first): what is left there then earns nothing."""
    if s.round != FINAL_ROUND or (s.pending != P_TILE and s.pending != P_PAY):
        return False
    if pl == &s.pl[s.current]:
        return line < s.tiling_line
    return pl == &s.pl[s.starting_player] and s.current != s.starting_player


cdef double line_value(State* s, Player* pl, int line) noexcept nogil:
    """What the tiles on pattern line ``line`` should still earn (negative if they will break)."""
    cdef int count = pl.line_count[line], colour = pl.line_colour[line], size = line + 1
    cdef double points, fill
    if count == 0 or final_tiling_passed(s, pl, line):
        return 0.0
    points = best_tile_points(s, pl, line, colour)
    if points == 0.0:
        if row_has_free_slot(pl, line) and s.round < FINAL_ROUND:
            return SPECULATIVE_LINE * count
        return -0.8 * count
    if count == size:
        return points + 0.5
    fill = <double>count / size
    # an unfinished line waits for more tiles; the more complete, the surer the points
    return fill * fill * (points + 0.5) * (1.0 if s.round < FINAL_ROUND else 0.6)


cdef double seat_value(State* s, int p) noexcept nogil:
    """Seat ``p``'s estimated final score (see the module docstring)."""
    cdef Player* pl = &s.pl[p]
    cdef double v = pl.score
    cdef int line, t, i, plates = 0
    if s.pending == P_OVER:
        return v
    for line in range(6):
        v += line_value(s, pl, line)
    for t in range(NCHIP):
        if s.round < FINAL_ROUND:
            v += CHIP_WORTH * pl.chips[t]
        elif not final_tiling_passed(s, pl, 6):
            v += FINAL_CHIP_WORTH * pl.chips[t]
    if s.round < FINAL_ROUND:
        for i in range(9):
            plates += pl.slot_plate[i] >= 0
        v += PLATE_WORTH * plates
    v -= broken_cost(0, pl.nbroken)
    if s.sp_holder == p:
        v -= 1.0  # 2 points at the round's end, but the next round starts with this seat
    for i in range(s.nobjectives):
        v += objective_points(pl, s.objectives[i])
    if s.current == p and s.hand_count > 0:
        v += hand_value(s, pl)
    return v


cdef double hand_value(State* s, Player* pl) noexcept nogil:
    """The best use of the tiles in hand: the pattern line (or the broken tiles) that gains most."""
    cdef int colour = s.hand_colour, n = s.hand_count, line, put, old_count, old_colour
    cdef double best = -broken_cost(pl.nbroken, n), before, gain
    for line in range(6):
        old_count = pl.line_count[line]
        if old_count > line or (old_count > 0 and pl.line_colour[line] != colour):
            continue
        old_colour = pl.line_colour[line]
        before = line_value(s, pl, line)
        put = line + 1 - old_count
        if put > n:
            put = n
        pl.line_count[line] = old_count + put
        pl.line_colour[line] = colour
        gain = line_value(s, pl, line) - before - broken_cost(pl.nbroken, n - put)
        pl.line_count[line] = old_count
        pl.line_colour[line] = old_colour
        if gain > best:
            best = gain
    return best


cdef double plate_spaces_value(State* s, Player* pl, int slot) noexcept nogil:
    """How well the plate just laid on ``slot`` serves the pattern lines and neighbours."""
    cdef int q, cell, row, col, space, colour
    cdef double v = 0.0, special_risk = SPECIAL_FIELD_RISK if scores_special_fields(s) else 0.0
    for q in range(4):
        row = (slot // 3) * 2 + q // 2
        col = (slot % 3) * 2 + q % 2
        cell = row * 6 + col
        space = pl.space[cell]
        colour = pl.line_colour[row]
        if space == SPECIAL:
            v += 0.15 * (row + 1) - special_risk
        elif pl.line_count[row] > 0 and (space == colour or space == WILD):
            v += 1.0 + 2.0 * pl.line_count[row] / (row + 1)
        else:
            v += 0.3
        if col > 0 and pl.tile[cell - 1] >= 0:
            v += 0.2
        if col < 5 and pl.tile[cell + 1] >= 0:
            v += 0.2
        if row > 0 and pl.tile[cell - 6] >= 0:
            v += 0.2
        if row < 5 and pl.tile[cell + 6] >= 0:
            v += 0.2
    return v


cdef double kept_plate_value(State* s) noexcept nogil:
    """With a plate about to be placed (pending place), the value of its best placement."""
    cdef int options[MAX_OPTIONS]
    cdef int n = gen_moves(s, options), i
    cdef double best = 0.0, v
    cdef State after
    for i in range(n):
        after = s[0]
        apply_move(&after, options[i])
        v = plate_spaces_value(&after, &after.pl[s.current], (options[i] - C_PLACE) // 4)
        if v > best:
            best = v
    return best


cdef double option_score(State* s, int code) noexcept nogil:
    """How much ``code`` improves the deciding seat's estimate (points; higher is better)."""
    cdef int me = s.current
    cdef State after = s[0]
    cdef double before
    if s.pending == P_PLACE:
        apply_move(&after, code)
        return plate_spaces_value(&after, &after.pl[me], (code - C_PLACE) // 4)
    if s.pending == P_ORDER or s.pending == P_RETURN:
        return 0.0
    if s.pending == P_DRAW:
        return 0.0 if code == C_STOP else -1.0
    if code < C_STACK or (code >= C_KEEP and code < C_UNDER):
        apply_move(&after, code)  # the plate now waits to be placed
        return 1.0 + kept_plate_value(&after)
    if code == C_STACK:
        return 0.5 if s.pl[me].score > 0 else 1.5
    if code >= C_CHIP and code < C_KEEP:
        return CHIP_WORTH + 0.1
    before = seat_value(s, me)
    apply_move(&after, code)
    return seat_value(&after, me) - before


cdef int best_option(State* s, int* options, int n, uint64_t* rng) noexcept nogil:
    """The index of the best-scoring option, ties broken at random."""
    cdef double scores[MAX_OPTIONS]
    cdef int i
    for i in range(n):
        scores[i] = option_score(s, options[i])
    return best_index(scores, n, rng)


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


cdef int FINAL_TILING_NODES = 20000
"""Positions the exact last tiling may visit (far more than the payments and tiles of a real game need)."""


cdef int best_final_score(State* s, int me, int* nodes, int* choice) noexcept nogil:
    """The highest final score seat ``me`` can still reach, playing its own decisions of the last
    round's tiling; -1 when more than ``nodes`` positions would have to be visited. ``choice``, if
    not NULL, gets the first of ``s``'s options that reaches it.

    Once the last tiling has begun, the seats' remaining decisions (payments, where each tile goes)
    touch only their own boards, and nothing is left to chance: the other seat's choices cannot
    change ``me``'s score, so they are played as their first option."""
    cdef int options[MAX_OPTIONS]
    cdef int n, i, points, best = -1
    cdef State after
    nodes[0] -= 1
    if nodes[0] < 0:
        return -1
    if s.pending == P_OVER:
        return s.pl[me].score
    n = gen_moves(s, options)
    for i in range(n if s.current == me else 1):
        after = s[0]
        apply_move(&after, options[i])
        points = best_final_score(&after, me, nodes, NULL)
        if points < 0:
            return -1
        if points > best:
            best = points
            if choice != NULL:
                choice[0] = options[i]
    return best


def final_tiling_code(Game game):
    """At the deciding seat's payments and tile placements in the last round's tiling: the option
    that leaves it the highest final score (the first such in option order), found by trying them
    all; None at any other decision, or if that would take more than :data:`FINAL_TILING_NODES`
    positions.

    The search weighs options by how often it visits them, and a payment offers one option per way
    of paying, so many equal ways to pay can each draw fewer visits than declining; worked out
    exactly, a payment that earns points is never declined for that."""
    cdef int nodes = FINAL_TILING_NODES + 1, choice = -1, best  # the decision itself, then the positions after it
    if game.s.round != FINAL_ROUND or (game.s.pending != P_PAY and game.s.pending != P_TILE):
        return None
    with nogil:
        best = best_final_score(&game.s, game.s.current, &nodes, &choice)
    return None if best < 0 else choice


def value(Game game):
    """Per seat, the estimated final score of ``game``'s position (exact once it is over)."""
    return (seat_value(&game.s, 0), seat_value(&game.s, 1))


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


def unspent_at_the_end(Game game):
    """Per seat: (bonus chips never spent, special fields on its dome left without their tile)."""
    cdef Player* pl
    cdef int p, t, cell, chips, empty
    result = []
    for p in range(2):
        pl = &game.s.pl[p]
        chips = 0
        empty = 0
        for t in range(NCHIP):
            chips += pl.chips[t]
        for cell in range(36):
            empty += pl.space[cell] == SPECIAL and pl.tile[cell] < 0
        result.append((chips, empty))
    return tuple(result)
