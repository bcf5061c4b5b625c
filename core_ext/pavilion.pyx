"""Azul: Summer Pavilion: the complete rules (``shared rules/summer_pavilion.md``)
for 2-4 players on a flat C state.

The whole position is one C struct (:c:type:`State`, sized for 4 players), so
``Game.copy()`` is a struct copy. Every option of the pending decision is an
``int`` code; move generation and ``push`` run in ``noexcept nogil`` C
functions and the Python classes only translate codes, notation and JSON.
Notation and the saved-game schema are documented in ``docs/notation.md``
(section "Azul: Summer Pavilion").

A turn that needs several choices is a sequence of decisions: drafting takes
one move; a Phase 2 placement is the space (with the colour placed) and then
the number of wild tiles paid; each bonus tile is its own choice; a pass is
followed by keeping tiles one at a time until "discard the rest". Every
decision that has exactly one option is taken automatically, without a move:
the forced pass of a player who cannot place, a payment with one possible
split, a bonus when the supply shows one colour (or holds no more tiles than
are owed: all are taken, S12), keeping when the hand is empty or 4 tiles are
already kept, and a draft with a single option.
"""
import re

from libc.stdint cimport uint64_t
from libc.string cimport memset

from core_ext._events cimport EventLog, record
from core_ext._game cimport MOST_OPTIONS, Game as _GameBase
from core_ext._move cimport Move as _MoveBase
from core_ext._shared cimport bag_draw, rng_below, rng_next

from core_ext import envelope, notation, pavilion_reasons
from core_ext._shared import seed_state
from core_ext.errors import InvalidMoveError, InvalidStateError

# ---------------------------------------------------------------------------
# Component data: the one table to correct against the physical game (S9).
# ---------------------------------------------------------------------------

COLOURS = "PGOYBR"
"""Tile colours by index, in the order they are wild (round r: colour r - 1)."""

COLOUR_NAMES = ("purple", "green", "orange", "yellow", "blue", "red")

STARS = "CORBYGP"
"""Star letters by index: the centre star, then the outer stars clockwise from the
upper left, each named by its colour on the coloured side (on the monochrome side
the letters name the same positions)."""

BOARD = {
    # Per star: letter, colour on the coloured side (None: the multicoloured centre),
    # completion bonus, angle of its centre from the board's centre (degrees
    # counter-clockwise from the right; None: the centre), and the direction its
    # rhombus i + 1 points to. Ring position i + 1 is printed number i + 1 on
    # the coloured side (rules 9.1, 9.2).
    "stars": (
        ("C", None, 12, None, ("N", "NE", "SE", "S", "SW", "NW")),
        ("O", "O", 17, 120, ("NE", "SE", "S", "SW", "NW", "N")),
        ("R", "R", 14, 60, ("SE", "S", "SW", "NW", "N", "NE")),
        ("B", "B", 15, 0, ("S", "SW", "NW", "N", "NE", "SE")),
        ("Y", "Y", 16, 300, ("SW", "NW", "N", "NE", "SE", "S")),
        ("G", "G", 18, 240, ("NW", "N", "NE", "SE", "S", "SW")),
        ("P", "P", 20, 180, ("N", "NE", "SE", "S", "SW", "NW")),
    ),
    # The 18 structures (rules 9.3): name, kind, and the spaces around it
    # (star letter + ring position); filling the last of them earns the kind's bonus.
    "structures": (
        ("P-Orange", "pillar", ("O2", "O3", "C6", "C1")),
        ("P-Red", "pillar", ("R2", "R3", "C1", "C2")),
        ("P-Blue", "pillar", ("B2", "B3", "C2", "C3")),
        ("P-Yellow", "pillar", ("Y2", "Y3", "C3", "C4")),
        ("P-Green", "pillar", ("G2", "G3", "C4", "C5")),
        ("P-Purple", "pillar", ("P2", "P3", "C5", "C6")),
        ("S-Orange/Red", "statue", ("O1", "O2", "R3", "R4")),
        ("S-Red/Blue", "statue", ("R1", "R2", "B3", "B4")),
        ("S-Blue/Yellow", "statue", ("B1", "B2", "Y3", "Y4")),
        ("S-Yellow/Green", "statue", ("Y1", "Y2", "G3", "G4")),
        ("S-Green/Purple", "statue", ("G1", "G2", "P3", "P4")),
        ("S-Purple/Orange", "statue", ("P1", "P2", "O3", "O4")),
        ("W-Orange", "window", ("O5", "O6")),
        ("W-Red", "window", ("R5", "R6")),
        ("W-Blue", "window", ("B5", "B6")),
        ("W-Yellow", "window", ("Y5", "Y6")),
        ("W-Green", "window", ("G5", "G6")),
        ("W-Purple", "window", ("P5", "P6")),
    ),
    "structure_bonus": {"pillar": 1, "statue": 2, "window": 3},
    # Printed numbers (the cost) by ring position 1-6 on the monochrome side (S13).
    "monochrome_numbers": {"centre": (3, 3, 3, 3, 3, 3), "outer": (3, 2, 1, 4, 5, 6)},
    # Final bonus for covering every space printed with 1, 2, 3 or 4 (rules 7).
    "number_bonus": {1: 4, 2: 8, 3: 12, 4: 16},
}

SIDES = ("coloured", "monochrome")
"""Values of the ``side`` rules flag (S7, S13)."""

PENDING = ("draft", "place", "pay", "bonus", "keep", "over")
"""Names of the decision kinds, as ``Game.pending`` reports them."""

ROUNDS = FINAL_ROUND
"""The number of rounds a game lasts."""

REASONS = pavilion_reasons.REASONS
"""Every code of the reasons ``Game.why_not`` gives (docs/notation.md, "Why a move is not legal")."""

FORMAT_VERSION = 1

# What a push did (docs/notation.md, "What a push did"): kinds recorded by the C
# code below, and the names of their fields a, b, c (points is its own field).
cdef enum:
    E_TILES_TAKEN, E_WILD_TAKEN, E_REST_TO_CENTRE, E_START_TOKEN_TAKEN, E_SPACE_CHOSEN, E_TILE_PLACED,
    E_STRUCTURE_COMPLETED, E_BONUS_OWED, E_SUPPLY_EMPTIED, E_BONUS_TAKEN, E_PASSED, E_TILE_KEPT,
    E_TILES_DISCARDED, E_SUPPLY_REFILLED, E_ROUND_ENDED, E_FACTORIES_REFILLED, E_CORNERS_RETURNED,
    E_STAR_SCORED, E_NUMBER_SCORED, E_LEFTOVER, E_GAME_OVER

EVENTS = (
    ("tiles_taken", ("factory", "colour", "count")),
    ("wild_taken", ("colour",)),
    ("rest_to_centre", ("factory", "count")),
    ("start_token_taken", ()),
    ("space_chosen", ("space", "colour")),
    ("tile_placed", ("space", "colour", "wilds")),
    ("structure_completed", ("structure",)),
    ("bonus_owed", ("count",)),
    ("supply_emptied", ("count",)),
    ("bonus_taken", ("colour",)),
    ("passed", ()),
    ("tile_kept", ("colour",)),
    ("tiles_discarded", ("count",)),
    ("supply_refilled", ("count",)),
    ("round_ended", ("round",)),
    ("factories_refilled", ("round",)),
    ("corners_returned", ("count",)),
    ("star_scored", ("star",)),
    ("number_scored", ("number",)),
    ("leftover", ("count",)),
    ("game_over", ()),
)
"""Per event kind: its name and the names of the fields it carries."""
SCORING_EVENTS = frozenset(("start_token_taken", "tile_placed", "tiles_discarded", "star_scored", "number_scored",
                            "leftover"))
"""The kinds that carry ``points``: the change they made to the player's score."""



def _space_index(text):
    """A space named like ``"O2"`` (star letter, ring position) as star * 6 + position - 1."""
    return STARS.index(text[0]) * 6 + int(text[1]) - 1


def _load_board_tables():
    """Fill the C lookup tables from :data:`BOARD`."""
    global CENTRE_STAR_BONUS
    cdef int i, k, space
    mono = BOARD["monochrome_numbers"]
    for i, (letter, colour, bonus, angle, directions) in enumerate(BOARD["stars"]):
        STAR_COLOUR[i] = -1 if colour is None else COLOURS.index(colour)
        if colour is None:
            CENTRE_STAR_BONUS = bonus
        else:
            COLOUR_STAR_BONUS[STAR_COLOUR[i]] = bonus
        for k in range(6):
            COST[0][i][k] = k + 1
            COST[1][i][k] = mono["centre" if colour is None else "outer"][k]
    for space in range(NSPACE):
        SPACE_NSTRUCTS[space] = 0
    for i, (name, kind, spaces) in enumerate(BOARD["structures"]):
        STRUCT_NSPACES[i] = len(spaces)
        STRUCT_BONUS[i] = BOARD["structure_bonus"][kind]
        for k, text in enumerate(spaces):
            space = _space_index(text)
            STRUCT_SPACE[i][k] = space
            SPACE_STRUCT[space][SPACE_NSTRUCTS[space]] = i
            SPACE_NSTRUCTS[space] += 1
    NUMBER_BONUS[0] = 0
    for number, points in BOARD["number_bonus"].items():
        NUMBER_BONUS[number] = points


_load_board_tables()

# ---------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------


cdef inline int wild_colour(State* s) noexcept nogil:
    return s.round - 1


cdef inline void lose_points(Player* pl, int n) noexcept nogil:
    """Every deduction stops at 1 (S1)."""
    pl.score -= n
    if pl.score < 1:
        pl.score = 1


cdef inline int total6(signed char* counts) noexcept nogil:
    return counts[0] + counts[1] + counts[2] + counts[3] + counts[4] + counts[5]


cdef inline int popcount6(int mask) noexcept nogil:
    cdef int n = 0
    while mask:
        n += mask & 1
        mask >>= 1
    return n


cdef inline int star_mask(signed char* star, int* count) noexcept nogil:
    """The colours on a star as a bit mask; ``count`` receives its number of tiles."""
    cdef int i, mask = 0, n = 0
    for i in range(6):
        if star[i] >= 0:
            mask |= 1 << star[i]
            n += 1
    count[0] = n
    return mask


cdef int allowed_colours(State* s, Player* pl, int star) noexcept nogil:
    """The colours the star can still take, as a bit mask: its own colour on the
    coloured side; all different on the centre star; on the monochrome side a
    star's first two tiles fix its kind (S13)."""
    cdef int n, mask
    if not s.mono and star > 0:
        return 1 << STAR_COLOUR[star]
    mask = star_mask(pl.board[star], &n)
    if not s.mono:
        return 63 & ~mask
    if n <= 1:
        return 63
    if popcount6(mask) == 1:
        return mask
    return 63 & ~mask


cdef void affordable_colours(signed char* hand, int wild, int* by_cost) noexcept nogil:
    """``by_cost[k]``: the colours a hand can pay a cost of k (1-6) for, as a bit mask: at
    least one natural tile and the rest in wild tiles, or k wild tiles for the wild colour (rules 5.2)."""
    cdef int c, k, most
    for k in range(7):
        by_cost[k] = 0
    for c in range(NCOL):
        if c == wild:
            most = hand[wild]
        elif hand[c] > 0:
            most = hand[c] + hand[wild]
        else:
            continue
        if most > 6:
            most = 6
        for k in range(1, most + 1):
            by_cost[k] |= 1 << c


cdef int ring_run(signed char* star, int pos) noexcept nogil:
    """Points for a tile just placed at ``pos``: the unbroken run round the ring that holds it."""
    cdef int n = 1, i = 1
    while i < 6 and star[(pos + i) % 6] >= 0:
        n += 1
        i += 1
    if n == 6:
        return 6
    i = 1
    while star[(pos - i + 6) % 6] >= 0:
        n += 1
        i += 1
    return n


cdef inline bint structure_full(Player* pl, int st) noexcept nogil:
    """Whether every space around structure ``st`` is covered."""
    cdef int k, space
    for k in range(STRUCT_NSPACES[st]):
        space = STRUCT_SPACE[st][k]
        if pl.board[space // 6][space % 6] < 0:
            return False
    return True


cdef int completed_bonus(Player* pl, int space) noexcept nogil:
    """Bonus tiles owed for the structures whose last space is ``space`` (S4)."""
    cdef int owed = 0, j, st
    for j in range(SPACE_NSTRUCTS[space]):
        st = SPACE_STRUCT[space][j]
        if structure_full(pl, st):
            owed += STRUCT_BONUS[st]
    return owed


cdef void record_completed(State* s, Player* pl, int space) noexcept nogil:
    """Record each structure that the tile just laid on ``space`` completes (for the events only)."""
    cdef int j
    for j in range(SPACE_NSTRUCTS[space]):
        if structure_full(pl, SPACE_STRUCT[space][j]):
            record(s.log, E_STRUCTURE_COMPLETED, s.current, SPACE_STRUCT[space][j], 0, 0, 0)


cdef int star_bonus(signed char* star) noexcept nogil:
    """A completed star scores its colour's value when single-coloured, else 12; 0 if not complete."""
    cdef int i
    for i in range(6):
        if star[i] < 0:
            return 0
    for i in range(1, 6):
        if star[i] != star[0]:
            return CENTRE_STAR_BONUS
    return COLOUR_STAR_BONUS[star[0]]


cdef int number_bonus(State* s, Player* pl, int number) noexcept nogil:
    """The final bonus for covering every space printed with ``number`` (1-4)."""
    cdef int star, pos
    for star in range(NSTAR):
        for pos in range(6):
            if COST[s.mono][star][pos] == number and pl.board[star][pos] < 0:
                return 0
    return NUMBER_BONUS[number]


# ---------------------------------------------------------------------------
# Setup and refills
# ---------------------------------------------------------------------------


cdef void fill_supply(State* s) noexcept nogil:
    """Fill the supply's empty spaces from the bag, then the tower (S5)."""
    cdef int total = total6(s.supply), c, before = total6(s.supply)
    while total < SUPPLY_SPACES:
        c = bag_draw(s.bag, s.tower, NCOL, &s.rng)
        if c < 0:
            break
        s.supply[c] += 1
        total += 1
    if total > before:
        record(s.log, E_SUPPLY_REFILLED, -1, total - before, 0, 0, 0)


cdef void fill_factories(State* s) noexcept nogil:
    """4 tiles per factory in numbered order; later factories stay short when tiles run out (S10)."""
    cdef int f, i, c
    for f in range(s.nfactories):
        for i in range(FACTORY_TILES):
            c = bag_draw(s.bag, s.tower, NCOL, &s.rng)
            if c < 0:
                return
            s.factory[f][c] += 1


cdef void new_game(State* s, uint64_t rng, int nplayers, int starting, int mono) noexcept nogil:
    """A fresh game at its first draft; RNG order: starting player, supply, factories."""
    cdef int p, c
    memset(s, 0, sizeof(State))
    s.rng = rng
    s.nplayers = nplayers
    s.nfactories = 2 * nplayers + 1
    s.mono = mono
    if starting < 0:
        starting = rng_below(&s.rng, nplayers)
    for c in range(NCOL):
        s.bag[c] = TILES_PER_COLOUR
    for p in range(nplayers):
        s.pl[p].score = START_SCORE
        s.pl[p].score_before_final = -1
        memset(s.pl[p].board, -1, sizeof(s.pl[p].board))
    fill_supply(s)
    fill_factories(s)
    s.round = 1
    s.start_player = starting
    s.token_holder = -1
    s.place_star = -1
    begin_drafting(s)


# ---------------------------------------------------------------------------
# Turn flow
# ---------------------------------------------------------------------------


cdef bint drafting_left(State* s) noexcept nogil:
    cdef int f
    for f in range(s.nfactories):
        if total6(s.factory[f]) > 0:
            return True
    return total6(s.centre) > 0


cdef void begin_drafting(State* s) noexcept nogil:
    """Phase 1 from the round's start player; with nothing to draft it is over at once."""
    s.current = s.start_player
    s.pending = P_DRAFT
    if not drafting_left(s):
        begin_placing(s)


cdef void begin_placing(State* s) noexcept nogil:
    """Phase 2 starts with the token's holder, or the Phase 1 starter when nobody took it (S11)."""
    start_turn(s, s.token_holder if s.token_holder >= 0 else s.start_player)


cdef void start_turn(State* s, int p) noexcept nogil:
    fill_supply(s)
    s.current = p
    s.pending = P_PLACE


cdef void end_turn(State* s) noexcept nogil:
    """The next player who has not passed acts; when all have passed the round ends."""
    cdef int i, q
    for i in range(1, s.nplayers + 1):
        q = (s.current + i) % s.nplayers
        if not s.pl[q].passed:
            start_turn(s, q)
            return
    end_round(s)


cdef void take(State* s, int source, int colour) noexcept nogil:
    """Phase 1: all tiles of a non-wild colour plus one wild tile, or a single wild
    tile where only wild tiles are left; a factory's rest goes to the centre."""
    cdef Player* pl = &s.pl[s.current]
    cdef signed char* pool = &s.centre[0]
    cdef int w = wild_colour(s), n = 1, c, before
    if source != CENTRE_SOURCE:
        pool = &s.factory[source][0]
    record(s.log, E_TILES_TAKEN, s.current, source, colour, 1 if colour == w else pool[colour], 0)
    if colour != w:
        n = pool[colour]
        pl.hand[colour] += n
        pool[colour] = 0
    if pool[w] > 0:
        pool[w] -= 1
        pl.hand[w] += 1
        n += colour != w
        if colour != w:
            record(s.log, E_WILD_TAKEN, s.current, w, 0, 0, 0)
    if source != CENTRE_SOURCE:
        if total6(pool) > 0:
            record(s.log, E_REST_TO_CENTRE, s.current, source, total6(pool), 0, 0)
        for c in range(NCOL):
            s.centre[c] += pool[c]
            pool[c] = 0
    elif s.token_holder < 0:
        s.token_holder = s.current
        before = pl.score
        lose_points(pl, n)  # every tile taken this turn, the wild one included
        record(s.log, E_START_TOKEN_TAKEN, s.current, 0, 0, 0, pl.score - before)
    if drafting_left(s):
        s.current = (s.current + 1) % s.nplayers
    else:
        begin_placing(s)


cdef void pay(State* s, int wilds) noexcept nogil:
    """Pay for the chosen space with ``wilds`` wild tiles standing in, lay one
    natural tile, score its ring run and collect the bonus it completes."""
    cdef Player* pl = &s.pl[s.current]
    cdef int star = s.place_star, pos = s.place_pos, colour = s.place_colour
    cdef int w = wild_colour(s), cost = COST[s.mono][star][pos], natural = cost - wilds, owed, c
    pl.hand[colour] -= natural
    s.tower[colour] += natural - 1
    pl.hand[w] -= wilds
    s.tower[w] += wilds
    pl.board[star][pos] = colour
    pl.score += ring_run(pl.board[star], pos)
    record(s.log, E_TILE_PLACED, s.current, star * 6 + pos, colour, wilds, ring_run(pl.board[star], pos))
    record_completed(s, pl, star * 6 + pos)
    s.place_star = -1
    owed = completed_bonus(pl, star * 6 + pos)
    if owed > 0:
        record(s.log, E_BONUS_OWED, s.current, owed, 0, 0, 0)
    if owed == 0:
        end_turn(s)
    elif total6(s.supply) <= owed:  # the supply cannot cover it: all of it, the rest is lost (S3, S12)
        record(s.log, E_SUPPLY_EMPTIED, s.current, total6(s.supply), 0, 0, 0)
        for c in range(NCOL):
            pl.hand[c] += s.supply[c]
            s.supply[c] = 0
        end_turn(s)
    else:
        s.bonus_owed = owed
        s.pending = P_BONUS


cdef void take_bonus(State* s, int colour) noexcept nogil:
    record(s.log, E_BONUS_TAKEN, s.current, colour, 0, 0, 0)
    s.supply[colour] -= 1
    s.pl[s.current].hand[colour] += 1
    s.bonus_owed -= 1
    if s.bonus_owed == 0:
        end_turn(s)


cdef void discard_rest(State* s) noexcept nogil:
    """The end of a pass: every tile not kept goes to the tower at 1 point each (floor 1)."""
    cdef Player* pl = &s.pl[s.current]
    cdef int c, n = 0, before = pl.score
    for c in range(NCOL):
        s.tower[c] += pl.hand[c]
        n += pl.hand[c]
        pl.hand[c] = 0
    lose_points(pl, n)
    record(s.log, E_TILES_DISCARDED, s.current, n, 0, 0, pl.score - before)
    end_turn(s)


cdef void end_round(State* s) noexcept nogil:
    """Phase 3, or after round 6 the final scoring (S6). Passing was for this round only."""
    cdef int p, c
    cdef Player* pl
    for p in range(s.nplayers):
        s.pl[p].passed = 0
    record(s.log, E_ROUND_ENDED, -1, s.round, 0, 0, 0)
    if s.round == FINAL_ROUND:
        final_scoring(s)
        return
    s.round += 1
    fill_factories(s)
    record(s.log, E_FACTORIES_REFILLED, -1, s.round, 0, 0, 0)
    fill_supply(s)
    if s.token_holder >= 0:
        s.start_player = s.token_holder
    s.token_holder = -1
    for p in range(s.nplayers):
        pl = &s.pl[p]
        if total6(pl.corner) > 0:
            record(s.log, E_CORNERS_RETURNED, p, total6(pl.corner), 0, 0, 0)
        for c in range(NCOL):
            pl.hand[c] += pl.corner[c]
            pl.corner[c] = 0
    begin_drafting(s)


cdef int final_bonus(State* s, Player* pl) noexcept nogil:
    cdef int star, number, total = 0
    for star in range(NSTAR):
        total += star_bonus(pl.board[star])
    for number in range(1, 5):
        total += number_bonus(s, pl, number)
    return total


cdef void final_scoring(State* s) noexcept nogil:
    """Stars and numbers first, then -1 per leftover tile, floor 1 (S6)."""
    cdef int p, c, n, star, number, before
    cdef Player* pl
    for p in range(s.nplayers):
        pl = &s.pl[p]
        pl.score_before_final = pl.score
        for star in range(NSTAR):
            if star_bonus(pl.board[star]):
                record(s.log, E_STAR_SCORED, p, star, 0, 0, star_bonus(pl.board[star]))
        for number in range(1, 5):
            if number_bonus(s, pl, number):
                record(s.log, E_NUMBER_SCORED, p, number, 0, 0, number_bonus(s, pl, number))
        pl.score += final_bonus(s, pl)
        n = 0
        for c in range(NCOL):
            n += pl.hand[c] + pl.corner[c]
            s.tower[c] += pl.hand[c] + pl.corner[c]
            pl.hand[c] = 0
            pl.corner[c] = 0
        pl.leftover = n
        before = pl.score
        lose_points(pl, n)
        if n:
            record(s.log, E_LEFTOVER, p, n, 0, 0, pl.score - before)
    s.pending = P_OVER
    record(s.log, E_GAME_OVER, -1, 0, 0, 0, 0)


# ---------------------------------------------------------------------------
# Move generation and application
# ---------------------------------------------------------------------------


cdef int gen_draft(State* s, int source, signed char* pool, int w, int* out) noexcept nogil:
    """Takes from one source: each non-wild colour present, else one wild tile."""
    cdef int c, n = 0
    for c in range(NCOL):
        if c != w and pool[c] > 0:
            out[n] = C_TAKE + source * 6 + c
            n += 1
    if n == 0 and pool[w] > 0:
        out[0] = C_TAKE + source * 6 + w
        n = 1
    return n


cdef int gen_moves(State* s, int* out) noexcept nogil:
    """The options of the pending decision, in the documented order."""
    cdef Player* pl = &s.pl[s.current]
    cdef int n = 0, w = wild_colour(s), f, c, star, pos, allowed, fits, cost, lo, hi
    cdef int by_cost[7]
    if s.pending == P_DRAFT:
        for f in range(s.nfactories):
            n += gen_draft(s, f, s.factory[f], w, out + n)
        n += gen_draft(s, CENTRE_SOURCE, s.centre, w, out + n)
    elif s.pending == P_PLACE:
        affordable_colours(pl.hand, w, by_cost)
        if by_cost[1]:
            for star in range(NSTAR):
                allowed = allowed_colours(s, pl, star) & by_cost[1]
                if allowed == 0:
                    continue
                for pos in range(6):
                    if pl.board[star][pos] >= 0:
                        continue
                    fits = allowed & by_cost[COST[s.mono][star][pos]]
                    c = 0
                    while fits:
                        if fits & 1:
                            out[n] = C_PLACE + (star * 6 + pos) * 6 + c
                            n += 1
                        fits >>= 1
                        c += 1
        out[n] = C_PASS
        n += 1
    elif s.pending == P_PAY:
        cost = COST[s.mono][s.place_star][s.place_pos]
        if s.place_colour == w:
            out[0] = C_PAY
            return 1
        lo = cost - pl.hand[s.place_colour]
        if lo < 0:
            lo = 0
        hi = pl.hand[w]
        if hi > cost - 1:
            hi = cost - 1
        for c in range(lo, hi + 1):
            out[n] = C_PAY + c
            n += 1
    elif s.pending == P_BONUS:
        for c in range(NCOL):
            if s.supply[c] > 0:
                out[n] = C_BONUS + c
                n += 1
    elif s.pending == P_KEEP:
        if total6(pl.corner) < CORNERS:
            for c in range(NCOL):
                if pl.hand[c] > 0:
                    out[n] = C_KEEP + c
                    n += 1
        out[n] = C_DISCARD
        n += 1
    return n


cdef void apply_move(State* s, int code) noexcept nogil:
    """Play one option of the pending decision; ``code`` must be legal."""
    cdef Player* pl = &s.pl[s.current]
    cdef int k
    if code < C_PLACE:
        take(s, (code - C_TAKE) // 6, (code - C_TAKE) % 6)
    elif code < C_PASS:
        k = code - C_PLACE
        s.place_star = k // 36
        s.place_pos = (k // 6) % 6
        s.place_colour = k % 6
        s.pending = P_PAY
        record(s.log, E_SPACE_CHOSEN, s.current, k // 6, k % 6, 0, 0)
    elif code == C_PASS:
        record(s.log, E_PASSED, s.current, 0, 0, 0, 0)
        pl.passed = 1
        s.pending = P_KEEP
    elif code < C_BONUS:
        pay(s, code - C_PAY)
    elif code < C_KEEP:
        take_bonus(s, code - C_BONUS)
    elif code < C_DISCARD:
        record(s.log, E_TILE_KEPT, s.current, code - C_KEEP, 0, 0, 0)
        pl.hand[code - C_KEEP] -= 1
        pl.corner[code - C_KEEP] += 1
    else:
        discard_rest(s)


cdef void settle(State* s) noexcept nogil:
    """Take every pending decision that has exactly one option."""
    cdef int options[MAX_OPTIONS]
    while gen_moves(s, options) == 1:
        apply_move(s, options[0])


cdef bint is_legal(State* s, int code) noexcept nogil:
    cdef int options[MAX_OPTIONS]
    cdef int n = gen_moves(s, options), i
    for i in range(n):
        if options[i] == code:
            return True
    return False


cdef int play_out(State* s, uint64_t* chooser) noexcept nogil:
    """Uniformly random options until the game ends; returns the decisions made
    (single-option decisions are taken without counting)."""
    cdef int options[MAX_OPTIONS]
    cdef int n, plies = 0
    while True:
        n = gen_moves(s, options)
        if n == 0:
            return plies
        if n == 1:
            apply_move(s, options[0])
        else:
            apply_move(s, options[rng_below(chooser, n)])
            plies += 1


# ---------------------------------------------------------------------------
# Moves: codes <-> notation
# ---------------------------------------------------------------------------

_EVENT_FIELDS = {
    "factory": lambda source: 0 if source == CENTRE_SOURCE else source + 1,
    "colour": COLOURS.__getitem__,
    "space": lambda space: f"{STARS[space // 6]}{space % 6 + 1}",
    "structure": lambda st: BOARD["structures"][st][0],
    "star": STARS.__getitem__,
}
"""How an event field's integer reads in the event dicts (docs/notation.md)."""

cdef list _INTERNED = [None] * NCODES

_MOVE_RE = re.compile(
    r"F(?P<factory>[1-9])(?P<factory_colour>[A-Z])|C(?P<centre_colour>[A-Z])"
    r"|(?P<place_colour>[A-Z])@(?P<star>[A-Z])(?P<space>[1-6])|(?P<pass>PASS)|W(?P<wilds>[0-5])"
    r"|\+(?P<bonus>[A-Z])|K(?P<keep>[A-Z])|(?P<discard>K-)",
    re.IGNORECASE,
)

_KINDS = ((C_PLACE, "take"), (C_PASS, "place"), (C_PAY, "pass"), (C_BONUS, "pay"), (C_KEEP, "bonus"),
          (C_DISCARD, "keep"), (NCODES, "discard"))


def _colour(letter):
    return notation.letters_to_indices(letter, COLOURS, "colour")[0]


cdef class Move(_MoveBase):
    """One option of a pending Summer Pavilion decision (immutable, hashable, interned per code).

    ``str(move)`` is its notation (docs/notation.md); ``Move.parse`` reads it
    back. Named fields are None where the kind has no such field.
    """

    def __init__(self, int code):
        if not 0 <= code < NCODES:
            raise InvalidMoveError(f"{code} is not a Summer Pavilion move code (0-{NCODES - 1})")
        self.code = code

    @staticmethod
    def from_code(int code):
        """The interned move for ``code``."""
        if not 0 <= code < NCODES:
            raise InvalidMoveError(f"{code} is not a Summer Pavilion move code (0-{NCODES - 1})")
        return interned(code)

    @classmethod
    def parse(cls, text):
        """Read a move from its notation; raises :class:`InvalidMoveError`."""
        g = notation.match(_MOVE_RE, text, "Summer Pavilion move").groupdict()
        if g["factory"]:
            return interned(C_TAKE + (int(g["factory"]) - 1) * 6 + _colour(g["factory_colour"]))
        if g["centre_colour"]:
            return interned(C_TAKE + CENTRE_SOURCE * 6 + _colour(g["centre_colour"]))
        if g["place_colour"]:
            star, = notation.letters_to_indices(g["star"], STARS, "star")
            return interned(C_PLACE + (star * 6 + int(g["space"]) - 1) * 6 + _colour(g["place_colour"]))
        if g["pass"]:
            return interned(C_PASS)
        if g["wilds"]:
            return interned(C_PAY + int(g["wilds"]))
        if g["bonus"]:
            return interned(C_BONUS + _colour(g["bonus"]))
        if g["keep"]:
            return interned(C_KEEP + _colour(g["keep"]))
        return interned(C_DISCARD)

    def __str__(self):
        cdef int code = self.code
        if code < C_PLACE:
            if self.factory == 0:
                return f"C{COLOURS[self.colour]}"
            return f"F{self.factory}{COLOURS[self.colour]}"
        if code < C_PASS:
            return f"{COLOURS[self.colour]}@{STARS[self.star]}{self.space}"
        if code == C_PASS:
            return "pass"
        if code < C_BONUS:
            return f"W{self.wilds}"
        if code < C_KEEP:
            return f"+{COLOURS[self.colour]}"
        if code < C_DISCARD:
            return f"K{COLOURS[self.colour]}"
        return "K-"

    @property
    def kind(self):
        """One of take, place, pass, pay, bonus, keep, discard."""
        for bound, name in _KINDS:
            if self.code < bound:
                return name

    @property
    def factory(self):
        """Source of a take: factory 1-9, or 0 for the centre of the table."""
        if self.code >= C_PLACE:
            return None
        source = (self.code - C_TAKE) // 6
        return 0 if source == CENTRE_SOURCE else source + 1

    @property
    def colour(self):
        """Colour index (into ``COLOURS``) taken, placed, taken as a bonus or kept."""
        if self.code < C_PLACE:
            return (self.code - C_TAKE) % 6
        if self.code < C_PASS:
            return (self.code - C_PLACE) % 6
        if C_BONUS <= self.code < C_DISCARD:
            return (self.code - C_BONUS) % 6
        return None

    @property
    def star(self):
        """Star index (into ``STARS``, 0 = centre) of a placement."""
        return (self.code - C_PLACE) // 36 if C_PLACE <= self.code < C_PASS else None

    @property
    def space(self):
        """Ring position 1-6 of a placement (the printed number on the coloured side)."""
        return (self.code - C_PLACE) // 6 % 6 + 1 if C_PLACE <= self.code < C_PASS else None

    @property
    def wilds(self):
        """Wild tiles paid in place of the placed colour."""
        return self.code - C_PAY if C_PAY <= self.code < C_BONUS else None


cdef inline Move interned(int code):
    """One shared Move instance per code, so move lists allocate nothing per move."""
    cdef Move move = _INTERNED[code]
    if move is None:
        move = Move(code)
        _INTERNED[code] = move
    return move


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------


def _check_seat_count(players):
    if isinstance(players, bool) or players not in (2, 3, 4):
        raise ValueError(f"players must be 2, 3 or 4, not {players!r}")


if <int>MAX_OPTIONS > <int>MOST_OPTIONS:
    raise ImportError(f"a decision has up to {MAX_OPTIONS} options, more than core_ext._game's MOST_OPTIONS")


cdef class Game(_GameBase):
    """An Azul: Summer Pavilion game: 2-4 players, 6 rounds, every decision a :class:`Move`.

    ``Game(players=2, seed=None, starting_player=None, side="coloured")``: the
    seed makes the whole game reproducible; the RNG decides the starting player
    when it is not given, and always the deal. ``side="monochrome"`` plays the
    printed variant board (S13).
    """

    _move_type = Move
    _title = "a Summer Pavilion"
    _reasons = pavilion_reasons
    _kind = "pavilion"
    _format_version = FORMAT_VERSION
    _pending_names = PENDING
    _event_kinds = EVENTS
    _scoring_events = SCORING_EVENTS
    _event_fields = _EVENT_FIELDS

    def __init__(self, players=2, seed=None, starting_player=None, side="coloured"):
        _check_seat_count(players)
        if side not in SIDES:
            raise ValueError(f"side must be one of {', '.join(SIDES)}, not {side!r}")
        start = -1
        if starting_player is not None:
            if isinstance(starting_player, bool) or starting_player not in range(players):
                raise ValueError(f"starting_player must be a seat from 0 to {players - 1}, not {starting_player!r}")
            start = starting_player
        new_game(&self.s, seed_state(seed), players, start, side == "monochrome")
        settle(&self.s)

    cpdef Game copy(self):
        """An independent copy (a struct copy)."""
        cdef Game other = Game.__new__(Game)
        other.s = self.s
        return other

    cdef int _options(self, int* out) noexcept:
        return gen_moves(&self.s, out)

    cdef bint _is_legal(self, int code) noexcept:
        return is_legal(&self.s, code)

    cdef object _move(self, int code):
        return interned(code)

    cdef void _apply(self, int code, EventLog* log) noexcept:
        self.s.log = log
        apply_move(&self.s, code)
        settle(&self.s)
        self.s.log = NULL

    cdef int _pending_index(self) noexcept:
        return self.s.pending

    cdef void _play_out(self, uint64_t* chooser) noexcept nogil:
        play_out(&self.s, chooser)

    cdef void _read(self, reader) except *:
        _read_state(&self.s, reader)
        settle(&self.s)

    # -- status -------------------------------------------------------------

    @property
    def players(self):
        """The number of seats."""
        return self.s.nplayers

    @property
    def current_player(self):
        """The seat owning the pending decision (after the game: the last seat that acted)."""
        return self.s.current

    @property
    def round(self):
        return self.s.round

    @property
    def wild(self):
        """The letter (in ``COLOURS``) of this round's wild colour."""
        return COLOURS[wild_colour(&self.s)]

    @property
    def side(self):
        return SIDES[self.s.mono]

    def scores(self):
        return tuple([self.s.pl[p].score for p in range(self.s.nplayers)])

    def winners(self):
        """The winning seats: () while running, several on a shared victory (S8)."""
        if self.s.pending != P_OVER:
            return ()
        scores = self.scores()
        best = max(scores)
        return tuple([p for p in range(self.s.nplayers) if scores[p] == best])

    def final_breakdown(self):
        """Per seat, once the game is over: the score after the round-6 passes, each
        completed star, each number bonus, the leftover tiles and the floor at 1."""
        if self.s.pending != P_OVER:
            raise ValueError("the game is not over yet")
        cdef Player* pl
        result = []
        for p in range(self.s.nplayers):
            pl = &self.s.pl[p]
            parts = [{"label": "Rounds 1-6", "points": pl.score_before_final}]
            for star in range(NSTAR):
                points = star_bonus(pl.board[star])
                if points:
                    parts.append({"label": f"Star {STARS[star]} complete", "points": points})
            for number in range(1, 5):
                points = number_bonus(&self.s, pl, number)
                if points:
                    parts.append({"label": f"All {number}s covered", "points": points})
            parts.append({"label": "Leftover tiles", "points": -pl.leftover})
            total = sum(part["points"] for part in parts)
            if total < pl.score:
                parts.append({"label": "Score floor at 1", "points": pl.score - total})
            result.append(parts)
        return result

    # -- hidden information ---------------------------------------------------

    def redetermine(self, seed, int player):
        """A copy with the RNG reseeded from ``seed``.

        Summer Pavilion hides nothing but the order of the bag: the bag's
        contents follow from the public tiles, hands and corners lie open, and
        every draw is taken at random from the bag when it happens. So the
        copy keeps the whole position and only its future draws differ.
        """
        if not 0 <= player < self.s.nplayers:
            raise ValueError(f"player must be a seat from 0 to {self.s.nplayers - 1}, not {player!r}")
        cdef Game other = self.copy()
        other.s.rng = seed_state(seed)
        return other

    def __repr__(self):
        return (f"<pavilion.Game {self.s.nplayers} players, round {self.s.round}, {self.pending} "
                f"for player {self.s.current}, scores {self.scores()}>")

    # -- saved games ----------------------------------------------------------

    def to_dict(self):
        """The ``state`` object of :meth:`to_json` as a plain dict."""
        cdef State* s = &self.s
        cdef Player* pl
        players = []
        for p in range(s.nplayers):
            pl = &s.pl[p]
            players.append({
                "score": pl.score,
                "score_before_final": pl.score_before_final,
                "leftover": pl.leftover,
                "hand": [pl.hand[c] for c in range(NCOL)],
                "corners": [pl.corner[c] for c in range(NCOL)],
                "board": ["".join([_tile_letter(pl.board[star][i]) for i in range(6)]) for star in range(NSTAR)],
                "passed": bool(pl.passed),
                "structures": _claimed(pl),
            })
        return {
            "players": s.nplayers,
            "side": SIDES[s.mono],
            "round": s.round,
            "wild": COLOURS[wild_colour(s)],
            "start_player": s.start_player,
            "token_holder": s.token_holder,
            "current_player": s.current,
            "pending": PENDING[s.pending],
            "rng": envelope.hex64(s.rng),
            "bag": [s.bag[c] for c in range(NCOL)],
            "tower": [s.tower[c] for c in range(NCOL)],
            "supply": [s.supply[c] for c in range(NCOL)],
            "factories": [[s.factory[f][c] for c in range(NCOL)] for f in range(s.nfactories)],
            "centre": [s.centre[c] for c in range(NCOL)],
            "placing": str(interned(C_PLACE + (s.place_star * 6 + s.place_pos) * 6 + s.place_colour))
                       if s.pending == P_PAY else "",
            "bonus_owed": s.bonus_owed,
            "seats": players,
        }


def space_cost(int star, int position, side="coloured"):
    """The printed number of a space (star index, ring position 1-6): what a tile placed there costs."""
    if not (0 <= star < NSTAR and 1 <= position <= 6) or side not in SIDES:
        raise ValueError(f"no space at star {star}, position {position} on side {side!r}")
    return COST[SIDES.index(side)][star][position - 1]


def _tile_letter(int tile):
    return "." if tile < 0 else COLOURS[tile]


cdef list _claimed(Player* pl):
    """Names of the structures (pillars, statues, windows) whose spaces are all covered, in board order."""
    return [BOARD["structures"][st][0] for st in range(NSTRUCT) if structure_full(pl, st)]


# ---------------------------------------------------------------------------
# Reading saved games
# ---------------------------------------------------------------------------


def _counts(reader, key, hi, tiles):
    """Per-colour counts read from ``key``, each at most ``hi``, added to the running ``tiles`` tally."""
    values = reader.ints(key, NCOL, 0, hi)
    for c in range(NCOL):
        tiles[c] += values[c]
    return values


cdef void _read_state(State* s, reader) except *:
    cdef Player* pl
    cdef int options[MAX_OPTIONS]
    memset(s, 0, sizeof(State))
    nplayers = reader.int("players", 2, 4)
    s.nplayers = nplayers
    s.nfactories = 2 * nplayers + 1
    s.mono = reader.str("side", SIDES) == "monochrome"
    s.round = reader.int("round", 1, FINAL_ROUND)
    if reader.str("wild") != COLOURS[s.round - 1]:
        raise InvalidStateError(f"state.wild must be {COLOURS[s.round - 1]} in round {s.round}")
    s.start_player = reader.int("start_player", 0, nplayers - 1)
    s.token_holder = reader.int("token_holder", -1, nplayers - 1)
    s.current = reader.int("current_player", 0, nplayers - 1)
    s.pending = PENDING.index(reader.str("pending", PENDING))
    s.rng = reader.hex64("rng")
    tiles = [0] * NCOL
    for c, n in enumerate(_counts(reader, "bag", TILES_PER_COLOUR, tiles)):
        s.bag[c] = n
    for c, n in enumerate(_counts(reader, "tower", TILES_PER_COLOUR, tiles)):
        s.tower[c] = n
    for c, n in enumerate(_counts(reader, "supply", SUPPLY_SPACES, tiles)):
        s.supply[c] = n
    if total6(s.supply) > SUPPLY_SPACES:
        raise InvalidStateError(f"state.supply holds more than {SUPPLY_SPACES} tiles")
    factories = reader.list("factories", s.nfactories)
    for f, factory in enumerate(factories):
        if (not isinstance(factory, list) or len(factory) != NCOL or sum(factory) > FACTORY_TILES
                or any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in factory)):
            raise InvalidStateError(f"state.factories[{f}] must be {NCOL} counts adding up to at most {FACTORY_TILES}")
        for c, n in enumerate(factory):
            s.factory[f][c] = n
            tiles[c] += n
    for c, n in enumerate(_counts(reader, "centre", TILES_PER_COLOUR, tiles)):
        s.centre[c] = n
    placing = reader.str("placing")
    s.bonus_owed = reader.int("bonus_owed", 0, 6)
    for p, seat in enumerate(reader.objects("seats", nplayers)):
        pl = &s.pl[p]
        pl.score = seat.int("score", 1, 10_000)
        pl.score_before_final = seat.int("score_before_final", -1, 10_000)
        pl.leftover = seat.int("leftover", 0, NCOL * TILES_PER_COLOUR)
        for c, n in enumerate(_counts(seat, "hand", TILES_PER_COLOUR, tiles)):
            pl.hand[c] = n
        for c, n in enumerate(_counts(seat, "corners", CORNERS, tiles)):
            pl.corner[c] = n
        if total6(pl.corner) > CORNERS:
            raise InvalidStateError(f"state.seats[{p}].corners holds more than {CORNERS} tiles")
        board = seat.list("board", NSTAR)
        for star, text in enumerate(board):
            if not isinstance(text, str) or len(text) != 6 or any(ch not in "." + COLOURS for ch in text):
                raise InvalidStateError(f"state.seats[{p}].board[{star}] must be 6 letters of .{COLOURS}, not {text!r}")
            for i in range(6):
                pl.board[star][i] = -1
            for i, ch in enumerate(text):
                if ch != ".":
                    c = COLOURS.index(ch)
                    if not allowed_colours(s, pl, star) & (1 << c):
                        raise InvalidStateError(f"state.seats[{p}].board[{star}] cannot hold {text!r} on the {SIDES[s.mono]} side")
                    pl.board[star][i] = c
                    tiles[c] += 1
        # Passing belongs to Phase 2; drafting positions saved before it was cleared at a round's end
        # still carry last round's flags, which mean nothing there.
        pl.passed = seat.bool("passed") and s.pending != P_DRAFT
        if seat.has("structures") and seat.list("structures") != _claimed(pl):  # derived; older files lack it
            raise InvalidStateError(f"state.seats[{p}].structures must be {_claimed(pl)} for its board")
        seat.done()
    reader.done()
    if tiles != [TILES_PER_COLOUR] * NCOL:
        raise InvalidStateError(f"tiles do not add up to {TILES_PER_COLOUR} per colour ({COLOURS}): {tiles}")
    _check_pending(s, placing)
    if s.pending != P_OVER and gen_moves(s, options) == 0:
        raise InvalidStateError(f"the pending {PENDING[s.pending]!r} decision has no option")


cdef void _check_pending(State* s, str placing) except *:
    """The fields that belong to the pending decision are set exactly when it needs them."""
    cdef Player* pl = &s.pl[s.current]
    cdef int code, w = wild_colour(s)
    if (s.pending == P_PAY) != bool(placing):
        raise InvalidStateError("state.placing names a placement exactly while a payment is pending")
    if (s.pending == P_BONUS) != (s.bonus_owed > 0):
        raise InvalidStateError("state.bonus_owed is positive exactly while bonus tiles are pending")
    if s.pending == P_BONUS and total6(s.supply) <= s.bonus_owed:
        raise InvalidStateError("state.bonus_owed must be below the tiles in the supply (else all are taken)")
    if s.pending == P_DRAFT and not drafting_left(s):
        raise InvalidStateError("state.pending is 'draft' but the factories and the centre are empty")
    if s.pending in (P_PLACE, P_PAY, P_BONUS) and pl.passed:
        raise InvalidStateError(f"state.current_player {s.current} has passed and cannot place")
    if s.pending == P_KEEP and not pl.passed:
        raise InvalidStateError(f"state.current_player {s.current} keeps tiles without having passed")
    final = [s.pl[p].score_before_final >= 0 for p in range(s.nplayers)]
    if (all(final) if s.pending == P_OVER else any(final)) != (s.pending == P_OVER):
        raise InvalidStateError("state.seats[].score_before_final is set exactly once the game is over")
    if s.pending == P_OVER and s.round != FINAL_ROUND:
        raise InvalidStateError(f"the game can only be over in round {FINAL_ROUND}")
    if s.pending == P_DRAFT and any(s.pl[p].corner[c] for p in range(s.nplayers) for c in range(NCOL)):
        raise InvalidStateError("corner tiles return to the hands before drafting")
    if s.pending == P_PAY:
        try:
            code = Move.parse(placing).code
        except InvalidMoveError as exc:
            raise InvalidStateError(f"state.placing: {exc}") from None
        if not C_PLACE <= code < C_PASS:
            raise InvalidStateError(f"state.placing must be a placement, not {placing!r}")
        s.pending = P_PLACE
        legal = is_legal(s, code)
        s.pending = P_PAY
        if not legal:
            raise InvalidStateError(f"state.placing {placing!r} is not a placement the current player can make")
        code -= C_PLACE
        s.place_star = code // 36
        s.place_pos = (code // 6) % 6
        s.place_colour = code % 6
    else:
        s.place_star = -1


# ---------------------------------------------------------------------------
# Benchmark entry point
# ---------------------------------------------------------------------------


def random_games(int n, seed=None, int players=2):
    """Play ``n`` whole random games from fresh setups in C; returns the decisions made."""
    _check_seat_count(players)
    cdef uint64_t master = seed_state(seed), chooser
    cdef State s
    cdef long total = 0
    cdef int i
    with nogil:
        for i in range(n):
            new_game(&s, rng_next(&master), players, -1, 0)
            chooser = rng_next(&master)
            total += play_out(&s, &chooser)
    return total
