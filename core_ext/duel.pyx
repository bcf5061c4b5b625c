"""Azul Duel: the complete rules (``shared rules/azul_duel.md``) on a flat C state.

The whole position is one C struct (:c:type:`State`), so ``Game.copy()`` is a
struct copy. Every option of the pending decision is an ``int`` code; move
generation and ``push`` run in ``noexcept nogil`` C functions and the Python
classes only translate codes, notation and JSON. Notation and the saved-game
schema are documented in ``docs/notation.md`` (section "Azul Duel").

Multi-step turns are sequences of decisions. A decision is resolved
automatically, without a move, only when it has exactly one option and that
option shows the players nothing new: a stacking order with one distinct
arrangement, a line choice where only the broken-tiles area is possible, keeping
the only drawn plate, returning the last unkept plate, stopping when the stack
is empty, placing a line's tile on its only fitting space, and the forced pass
of a player without a legal action (D24).
"""
import re

from libc.stdint cimport uint64_t
from libc.string cimport memset

from core_ext._events cimport EventLog, record
from core_ext._game cimport MOST_OPTIONS, Game as _GameBase
from core_ext._shared cimport bag_draw, rng_below, rng_next

from core_ext import duel_reasons, envelope, notation
from core_ext._shared import seed_state
from core_ext.errors import InvalidMoveError, InvalidStateError

# ---------------------------------------------------------------------------
# Component data (D15): the one table to correct against the physical game.
# ---------------------------------------------------------------------------

COLOURS = "BTRYK"
"""Tile colours by index: dark blue, turquoise, red, yellow, black."""

PLATE_LAYOUTS = (
    # spaces [top-left, top-right, bottom-left, bottom-right]; W wild, S special
    "YKTS", "WBTK", "TRBW", "KYRW", "KSTR", "TYWK", "SKRB", "YBKS", "TRBS",
    "YRWB", "YSKR", "TKRW", "BKST", "RTYW", "TBWY", "STYB", "RWBK", "SYBR",
)
"""The 18 dome plates, by plate id (rules table 1.1)."""

CHIP_TYPES = ("B", "T", "R", "Y", "K", "TY", "BR", "RT", "KB", "YK")
"""The 10 bonus-chip faces; the game has 2 chips of each (rules table 1.2)."""

OBJECTIVES = ("horizontal", "colourful", "vertical", "outer", "diagonals", "corners", "wild", "special")
"""The 8 objectives by id; ids 2t and 2t+1 are the two sides of tablet t (A-D)."""

OBJECTIVE_LABELS = (
    "Horizontal rows", "Colourful rows", "Vertical rows", "Outer fields",
    "Diagonals", "Corner plates", "Wild fields", "Special fields",
)

STACK_REVEAL = ("end", "each")
"""Values of the ``stack_reveal`` rules flag (D5, D21)."""

PENDING = ("setup", "action", "draw", "keep", "return", "place", "order", "line", "pay", "tile", "over")
"""Names of the decision kinds, as ``Game.pending`` reports them."""

ROUNDS = FINAL_ROUND
"""The number of rounds a game lasts."""

REASONS = duel_reasons.REASONS
"""Every code of the reasons ``Game.why_not`` gives (docs/notation.md, "Why a move is not legal")."""

FORMAT_VERSION = 1

# What a push did (docs/notation.md, "What a push did"): kinds recorded by the C
# code below, and the names of their fields a, b, c (points is its own field).
cdef enum:
    E_PLATE_TAKEN, E_PLATE_DRAWN, E_DRAWING_STOPPED, E_PLATE_KEPT, E_PLATE_RETURNED, E_PLATE_PLACED,
    E_DISPLAY_REFILLED, E_SUN_TAKEN, E_LARGE_SUN_TO_MOON, E_START_TILE_TAKEN, E_MOON_TAKEN, E_MOON_STACKED,
    E_CHIP_REVEALED, E_CHIP_TAKEN, E_LINE_FILLED, E_TILES_BROKEN, E_PLAYER_SKIPPED, E_TILE_LAID,
    E_SPECIAL_LAID, E_LINE_BROKEN, E_CHIPS_PAID, E_CHIPS_NOT_PAID, E_PENALTY, E_ROUND_ENDED,
    E_FACTORIES_REFILLED, E_OBJECTIVE_SCORED, E_SCORE_FLOOR, E_GAME_OVER

EVENTS = (
    ("plate_taken", ("position", "plate")),
    ("plate_drawn", ()),
    ("drawing_stopped", ()),
    ("plate_kept", ("plate",)),
    ("plate_returned", ("plate",)),
    ("plate_placed", ("slot", "plate", "rotation")),
    ("display_refilled", ("position", "plate")),
    ("sun_taken", ("factory", "colour", "count")),
    ("large_sun_to_moon", ("count",)),
    ("start_tile_taken", ()),
    ("moon_taken", ("colour", "count")),
    ("moon_stacked", ("factory", "order")),
    ("chip_revealed", ("factory", "chip")),
    ("chip_taken", ("factory", "chip")),
    ("line_filled", ("line", "colour", "count")),
    ("tiles_broken", ("colour", "count", "to_tower")),
    ("player_skipped", ()),
    ("tile_laid", ("cell", "colour", "to_tower")),
    ("special_laid", ("cell",)),
    ("line_broken", ("line", "colour", "count")),
    ("chips_paid", ("line", "chips")),
    ("chips_not_paid", ("line",)),
    ("penalty", ("broken", "start_tile")),
    ("round_ended", ("round",)),
    ("factories_refilled", ("round",)),
    ("objective_scored", ("objective",)),
    ("score_floor", ()),
    ("game_over", ()),
)
"""Per event kind: its name and the names of the fields it carries."""
SCORING_EVENTS = frozenset(("plate_drawn", "tile_laid", "special_laid", "penalty", "objective_scored", "score_floor"))
"""The kinds that carry ``points``: the change they made to the player's score."""

cdef signed char PLATE_SPACE[NPLATES][4]
cdef signed char PLATE_SPECIAL[NPLATES]
cdef signed char CHIP_MATCH[NCHIP][NCOL]
cdef int BROKEN_SUM[5]
cdef int POW3[NCHIP + 1]
# clockwise cycle of a plate's spaces TL, TR, BR, BL, and each space's place in it
cdef int CYCLE[4]
cdef int CYCLE_POS[4]
cdef int CORNER_SLOTS[4]
cdef int CORNER_POINTS[4]


def _load_component_tables():
    """Fill the C lookup tables from the Python component data above."""
    cdef int i, q, t
    letters = COLOURS + "WS"
    for i, layout in enumerate(PLATE_LAYOUTS):
        PLATE_SPECIAL[i] = 0
        for q in range(4):
            PLATE_SPACE[i][q] = letters.index(layout[q])
            if PLATE_SPACE[i][q] == SPECIAL:
                PLATE_SPECIAL[i] = 1
    for t, face in enumerate(CHIP_TYPES):
        for i in range(NCOL):
            CHIP_MATCH[t][i] = COLOURS[i] in face
    for i, value in enumerate((0, 1, 3, 6, 10)):
        BROKEN_SUM[i] = value
    POW3[0] = 1
    for t in range(NCHIP):
        POW3[t + 1] = POW3[t] * 3
    for i, value in enumerate((0, 1, 3, 2)):
        CYCLE[i] = value
        CYCLE_POS[value] = i
    for i, (slot, points) in enumerate(((0, 3), (2, 3), (6, 8), (8, 8))):
        CORNER_SLOTS[i] = slot
        CORNER_POINTS[i] = points


_load_component_tables()

# ---------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------


cdef inline int imax(int a, int b) noexcept nogil:
    return a if a > b else b


cdef inline void add_score(Player* pl, int delta) noexcept nogil:
    """Scores never drop below 0 (D10)."""
    pl.score = imax(0, pl.score + delta)


cdef inline int sun_total(State* s, int f) noexcept nogil:
    cdef int c, n = 0
    for c in range(NCOL):
        n += s.sun[f][c]
    return n


cdef inline int sun_colours(State* s, int f) noexcept nogil:
    cdef int c, n = 0
    for c in range(NCOL):
        if s.sun[f][c] > 0:
            n += 1
    return n


cdef inline bint lmoon_empty(State* s) noexcept nogil:
    cdef int c
    for c in range(NCOL):
        if s.lmoon[c] > 0:
            return False
    return True


cdef inline void reveal_if_empty(State* s, int f) noexcept nogil:
    """A small factory's chip is revealed once its sun and moon are both empty."""
    if s.fchip[f] >= 0 and s.moon_n[f] == 0 and sun_total(s, f) == 0:
        if not s.fchip_up[f]:
            record(s.log, E_CHIP_REVEALED, s.current, f, s.fchip[f], 0, 0)
        s.fchip_up[f] = 1


cdef void floor_add(State* s, int p, int colour, int n) noexcept nogil:
    """Broken tiles fill 4 spaces; any further tile goes to the tower (D6)."""
    cdef Player* pl = &s.pl[p]
    if n > 0:
        record(s.log, E_TILES_BROKEN, p, colour, n, imax(0, n - (4 - pl.nbroken)), 0)
    while n > 0:
        if pl.nbroken < 4:
            pl.broken[pl.nbroken] = colour
            pl.nbroken += 1
        else:
            s.tower[colour] += 1
        n -= 1


cdef inline bint line_accepts(Player* pl, int line, int colour) noexcept nogil:
    return pl.line_count[line] <= line and (pl.line_count[line] == 0 or pl.line_colour[line] == colour)


cdef inline bint space_accepts(Player* pl, int cell, int colour) noexcept nogil:
    return pl.tile[cell] < 0 and (pl.space[cell] == colour or pl.space[cell] == WILD)


cdef int fitting_cells(Player* pl, int line, int colour, int* out) noexcept nogil:
    """Free spaces of grid row ``line`` that accept ``colour``, left to right."""
    cdef int col, cell, n = 0
    for col in range(6):
        cell = line * 6 + col
        if space_accepts(pl, cell, colour):
            if out != NULL:
                out[n] = cell
            n += 1
    return n


cdef inline bint slot_row_full(Player* pl, int line) noexcept nogil:
    cdef int base = (line // 2) * 3
    return pl.slot_plate[base] >= 0 and pl.slot_plate[base + 1] >= 0 and pl.slot_plate[base + 2] >= 0


cdef void set_plate(Player* pl, int slot, int plate, int rotation) noexcept nogil:
    """Lay ``plate`` on ``slot`` turned ``rotation`` quarter turns clockwise."""
    cdef int q
    pl.slot_plate[slot] = plate
    pl.slot_rot[slot] = rotation
    for q in range(4):
        pl.space[cell_of(slot, q)] = PLATE_SPACE[plate][CYCLE[(CYCLE_POS[q] - rotation + 4) % 4]]


cdef inline int run_from(Player* pl, int r, int c, int dr, int dc) noexcept nogil:
    """Filled cells beyond (r, c) in direction (dr, dc), up to the first gap."""
    cdef int n = 0
    r += dr
    c += dc
    while 0 <= r < 6 and 0 <= c < 6 and pl.tile[r * 6 + c] >= 0:
        n += 1
        r += dr
        c += dc
    return n


cdef int run_score(Player* pl, int cell) noexcept nogil:
    """Points for a tile just laid on ``cell`` (5.1): its horizontal and vertical runs."""
    cdef int r = cell // 6, c = cell % 6
    cdef int h = 1 + run_from(pl, r, c, 0, -1) + run_from(pl, r, c, 0, 1)
    cdef int v = 1 + run_from(pl, r, c, -1, 0) + run_from(pl, r, c, 1, 0)
    if h == 1 and v == 1:
        return 1
    return (h if h > 1 else 0) + (v if v > 1 else 0)


cdef void lay_tile(State* s, int p, int cell, int colour, int to_tower) noexcept nogil:
    """Lay a regular tile, score it, then unlock its plate's special field if due (D7);
    ``to_tower``: the line's other tiles, gone to the tower (for the event only)."""
    cdef Player* pl = &s.pl[p]
    cdef int special_cell, points
    pl.tile[cell] = colour
    points = run_score(pl, cell)
    add_score(pl, points)
    record(s.log, E_TILE_LAID, p, cell, colour, to_tower, points)
    special_cell = special_field_unlocked(pl, cell)
    if special_cell >= 0 and s.special_supply > 0:
        pl.tile[special_cell] = SPECIAL_TILE
        s.special_supply -= 1
        add_score(pl, special_cell // 6 + 1)
        record(s.log, E_SPECIAL_LAID, p, special_cell, 0, 0, special_cell // 6 + 1)


cdef int shift_stack(State* s) noexcept nogil:
    """Take the top plate off the stack."""
    cdef int plate = s.stack[0], i
    for i in range(1, s.nstack):
        s.stack[i - 1] = s.stack[i]
        s.stack_seen[i - 1] = s.stack_seen[i]
    s.nstack -= 1
    return plate


cdef void refill_display(State* s) noexcept nogil:
    """Empty display positions take the stack's top plates, in position order (D13)."""
    cdef int i
    for i in range(3):
        if s.display[i] < 0 and s.nstack > 0:
            s.display[i] = shift_stack(s)
            record(s.log, E_DISPLAY_REFILLED, -1, i, s.display[i], 0, 0)


# ---------------------------------------------------------------------------
# Setup and refills
# ---------------------------------------------------------------------------


cdef int colours_present(int* counts) noexcept nogil:
    cdef int c, n = 0
    for c in range(NCOL):
        if counts[c] > 0:
            n += 1
    return n


cdef void fill_large_factory(State* s) noexcept nogil:
    """5 tiles with the monochrome check (3.6, 7): a single-colour fill is drawn
    again while bag and tower hold another colour; when the bag alone holds one
    colour, the tower is poured into it first so a redraw can differ."""
    cdef int i, c, n, only
    while True:
        n = 0
        for i in range(5):
            c = bag_draw(s.bag, s.tower, NCOL, &s.rng)
            if c < 0:
                break
            s.sun[0][c] += 1
            n += 1
        if n == 0:
            s.sp_on_factory = 0  # no tiles left at all: the tile leaves the game (7)
            return
        if sun_colours(s, 0) >= 2:
            return
        only = 0
        while s.sun[0][only] == 0:
            only += 1
        for c in range(NCOL):
            if c != only and s.bag[c] + s.tower[c] > 0:
                break
        else:
            return
        s.bag[only] += n
        s.sun[0][only] = 0
        if colours_present(s.bag) < 2:
            for c in range(NCOL):
                s.bag[c] += s.tower[c]
                s.tower[c] = 0


cdef void refill_factories(State* s) noexcept nogil:
    """Large factory first, then small factories 1 to 4 (D18); then one chip each."""
    cdef int f, i, c
    cdef int no_tower[NCHIP]
    memset(no_tower, 0, sizeof(no_tower))
    s.sp_on_factory = 1
    fill_large_factory(s)
    for f in range(1, 5):
        s.moon_n[f] = 0
        for i in range(4):
            c = bag_draw(s.bag, s.tower, NCOL, &s.rng)
            if c < 0:
                break
            s.sun[f][c] += 1
    for f in range(1, 5):
        if s.fchip[f] >= 0:  # only a hand-made position can leave a chip nobody may take
            s.chip_supply[s.fchip[f]] += 1
        s.fchip[f] = bag_draw(s.chip_supply, no_tower, NCHIP, &s.rng)
        s.fchip_up[f] = 0
        reveal_if_empty(s, f)


cdef void new_game(State* s, uint64_t rng, int starting, int* objectives, int nobjectives,
                   int objective_count, int reveal_each) noexcept nogil:
    """A fresh game up to the first starting-plate decision; RNG order: starting
    player, objectives, plate shuffle, factory fill, chips."""
    cdef int i, j, t, p, skip
    memset(s, 0, sizeof(State))
    s.rng = rng
    s.reveal_each = reveal_each
    if starting < 0:
        starting = rng_below(&s.rng, 2)
    s.starting_player = starting
    if nobjectives > 0:
        for i in range(nobjectives):
            s.objectives[i] = objectives[i]
        s.nobjectives = nobjectives
    else:
        skip = rng_below(&s.rng, 4) if objective_count == 3 else -1
        for t in range(4):
            if t != skip:
                s.objectives[s.nobjectives] = 2 * t + rng_below(&s.rng, 2)
                s.nobjectives += 1
    for i in range(NPLATES):
        s.stack[i] = i
    for i in range(NPLATES - 1, 0, -1):
        j = rng_below(&s.rng, i + 1)
        s.stack[i], s.stack[j] = s.stack[j], s.stack[i]
    s.nstack = NPLATES
    for i in range(3):
        s.display[i] = -1
    refill_display(s)
    for i in range(NCOL):
        s.bag[i] = TILES_PER_COLOUR
    for i in range(NCHIP):
        s.chip_supply[i] = 2
    s.special_supply = NSPECIAL
    s.sp_holder = -1
    for p in range(2):
        s.pl[p].score = 5
        s.pl[p].score_before_final = -1
        for i in range(6):
            s.pl[p].line_colour[i] = -1
        for i in range(9):
            s.pl[p].slot_plate[i] = -1
        for i in range(36):
            s.pl[p].space[i] = -1
            s.pl[p].tile[i] = -1
    for i in range(5):
        s.fchip[i] = -1
    refill_factories(s)
    s.round = 1
    s.hand_colour = -1
    s.kept = -1
    s.current = 1 - starting  # the non-starting player picks a starting plate first
    s.pending = P_SETUP


# ---------------------------------------------------------------------------
# Turn flow
# ---------------------------------------------------------------------------


cdef bint has_action(State* s, int p) noexcept nogil:
    cdef Player* pl = &s.pl[p]
    cdef int f
    if s.round < FINAL_ROUND and pl.plates_taken < 2:
        if s.nstack > 0 or s.display[0] >= 0 or s.display[1] >= 0 or s.display[2] >= 0:
            return True
    for f in range(5):
        if sun_total(s, f) > 0:
            return True
    for f in range(1, 5):
        if s.moon_n[f] > 0:
            return True
        if pl.chips_taken < 2 and s.fchip[f] >= 0 and s.fchip_up[f]:
            return True
    return not lmoon_empty(s)


cdef void next_turn(State* s, int first) noexcept nogil:
    """``first`` acts if it can, else the other player (D24); with nobody able, Phase 1 ends."""
    if has_action(s, first):
        s.current = first
        s.pending = P_ACTION
    elif has_action(s, 1 - first):
        record(s.log, E_PLAYER_SKIPPED, first, 0, 0, 0, 0)
        s.current = 1 - first
        s.pending = P_ACTION
    else:
        begin_tiling(s)


cdef inline void end_action(State* s) noexcept nogil:
    next_turn(s, 1 - s.current)


cdef void to_line_decision(State* s) noexcept nogil:
    """The taken tiles go to a pattern line; with no line open they break at once."""
    cdef Player* pl = &s.pl[s.current]
    cdef int line
    for line in range(6):
        if line_accepts(pl, line, s.hand_colour):
            s.pending = P_LINE
            return
    record(s.log, E_LINE_FILLED, s.current, 6, s.hand_colour, 0, 0)
    floor_add(s, s.current, s.hand_colour, s.hand_count)
    s.hand_colour = -1
    s.hand_count = 0
    end_action(s)


cdef void stack_leftovers(State* s, int f, int* order, int n) noexcept nogil:
    """Leftovers of a small sun go on its moon in ``order`` (bottom first)."""
    cdef int i, packed = 1
    for i in range(n):
        packed = packed * 5 + order[i]
    record(s.log, E_MOON_STACKED, s.current, f, packed, 0, 0)
    for i in range(n):
        s.moon[f][s.moon_n[f]] = order[i]
        s.moon_n[f] += 1
    for i in range(NCOL):
        s.sun[f][i] = 0
    reveal_if_empty(s, f)
    s.order_factory = 0
    to_line_decision(s)


cdef void take_sun(State* s, int f, int colour) noexcept nogil:
    cdef int c, n = 0
    cdef int order[3]
    record(s.log, E_SUN_TAKEN, s.current, f, colour, s.sun[f][colour], 0)
    s.hand_colour = colour
    s.hand_count = s.sun[f][colour]
    s.sun[f][colour] = 0
    if f == 0:
        if sun_total(s, 0) > 0:
            record(s.log, E_LARGE_SUN_TO_MOON, s.current, sun_total(s, 0), 0, 0, 0)
        for c in range(NCOL):
            s.lmoon[c] += s.sun[0][c]
            s.sun[0][c] = 0
        if s.sp_on_factory and lmoon_empty(s):  # D20
            s.sp_on_factory = 0
            s.sp_holder = s.current
            record(s.log, E_START_TILE_TAKEN, s.current, 0, 0, 0, 0)
        to_line_decision(s)
    elif sun_colours(s, f) <= 1:
        for c in range(NCOL):
            for _ in range(s.sun[f][c]):
                order[n] = c
                n += 1
        stack_leftovers(s, f, order, n)
    else:
        s.order_factory = f
        s.pending = P_ORDER


cdef int moon_tiles(State* s, int colour) noexcept nogil:
    """How many tiles a moon take of ``colour`` gets: the tops of the small moons and the large moon's."""
    cdef int f, n = s.lmoon[colour]
    for f in range(1, 5):
        if s.moon_n[f] > 0 and s.moon[f][s.moon_n[f] - 1] == colour:
            n += 1
    return n


cdef void take_moon(State* s, int colour) noexcept nogil:
    cdef int f, n = 0
    cdef bint start_tile = False
    record(s.log, E_MOON_TAKEN, s.current, colour, moon_tiles(s, colour), 0, 0)
    for f in range(1, 5):
        if s.moon_n[f] > 0 and s.moon[f][s.moon_n[f] - 1] == colour:
            s.moon_n[f] -= 1
            n += 1
            reveal_if_empty(s, f)
    if s.lmoon[colour] > 0:
        n += s.lmoon[colour]
        s.lmoon[colour] = 0
        if s.sp_on_factory:
            s.sp_on_factory = 0
            s.sp_holder = s.current
            start_tile = True
    if start_tile:
        record(s.log, E_START_TILE_TAKEN, s.current, 0, 0, 0, 0)
    s.hand_colour = colour
    s.hand_count = n
    to_line_decision(s)


cdef void return_plate(State* s, int plate) noexcept nogil:
    """Put a drawn plate under the stack; the last one follows by itself."""
    cdef int i, j = 0
    record(s.log, E_PLATE_RETURNED, s.current, plate, 0, 0, 0)
    s.stack[s.nstack] = plate
    s.stack_seen[s.nstack] = 1
    s.nstack += 1
    for i in range(s.ndrawn):
        if s.drawn[i] != plate:
            s.drawn[j] = s.drawn[i]
            j += 1
    s.ndrawn = j
    if s.ndrawn == 1:
        return_plate(s, s.drawn[0])
    elif s.ndrawn == 0:
        s.drawn_revealed = 0
        s.pending = P_PLACE


cdef void keep_plate(State* s, int plate) noexcept nogil:
    cdef int i, j = 0
    record(s.log, E_PLATE_KEPT, s.current, plate, 0, 0, 0)
    s.kept = plate
    for i in range(s.ndrawn):
        if s.drawn[i] != plate:
            s.drawn[j] = s.drawn[i]
            j += 1
    s.ndrawn = j
    if s.ndrawn == 0:
        s.drawn_revealed = 0
        s.pending = P_PLACE
    elif s.ndrawn == 1:
        return_plate(s, s.drawn[0])
    else:
        s.pending = P_RETURN


cdef void stop_drawing(State* s) noexcept nogil:
    record(s.log, E_DRAWING_STOPPED, s.current, 0, 0, 0, 0)
    s.drawn_revealed = 1
    if s.ndrawn == 1:
        keep_plate(s, s.drawn[0])
    else:
        s.pending = P_KEEP


cdef void draw_plate(State* s) noexcept nogil:
    """One paid draw from the stack (1 point, free at 0: D10, D21)."""
    cdef int before = s.pl[s.current].score
    add_score(&s.pl[s.current], -1)
    record(s.log, E_PLATE_DRAWN, s.current, 0, 0, 0, s.pl[s.current].score - before)
    s.drawn[s.ndrawn] = shift_stack(s)
    s.ndrawn += 1
    if s.reveal_each:
        s.drawn_revealed = 1
    if s.nstack == 0:
        stop_drawing(s)
    else:
        s.pending = P_DRAW


cdef void place_plate(State* s, int slot, int rotation) noexcept nogil:
    record(s.log, E_PLATE_PLACED, s.current, slot, s.kept, rotation, 0)
    set_plate(&s.pl[s.current], slot, s.kept, rotation)
    s.kept = -1
    if s.setup_stage < 2:
        refill_display(s)
        s.setup_stage += 1
        if s.setup_stage == 1:
            s.current = s.starting_player
            s.pending = P_SETUP
        else:
            next_turn(s, s.starting_player)
    else:
        end_action(s)


cdef void place_hand(State* s, int line) noexcept nogil:
    cdef Player* pl = &s.pl[s.current]
    cdef int put = 0
    if line < 6:
        put = line + 1 - pl.line_count[line]
        if put > s.hand_count:
            put = s.hand_count
        pl.line_count[line] += put
        pl.line_colour[line] = s.hand_colour
    record(s.log, E_LINE_FILLED, s.current, line, s.hand_colour, put, 0)
    floor_add(s, s.current, s.hand_colour, s.hand_count - put)
    s.hand_colour = -1
    s.hand_count = 0
    end_action(s)


# ---------------------------------------------------------------------------
# Phase 2 (tiling), penalties, Phase 3, final scoring
# ---------------------------------------------------------------------------


cdef int chips_needed(Player* pl, int line) noexcept nogil:
    return line + 1 - pl.line_count[line]


cdef inline bint payment_valid(int n, int matching, int missing) noexcept nogil:
    """n chips (``matching`` of the line's colour) buy ``missing`` spaces at 2 matching or 3 any (D22)."""
    return 2 * missing <= n and n <= 3 * missing and 6 * missing - 2 * n <= matching


cdef int payment_options(Player* pl, int line, int* out) noexcept nogil:
    """Codes of the chip sets that complete ``line`` and spend no chip they do not need."""
    cdef int colour = pl.line_colour[line], missing = chips_needed(pl, line)
    cdef int total = 1, index, rest, t, n, m, code, count = 0
    cdef int x[NCHIP]
    cdef bint minimal
    for t in range(NCHIP):
        total *= pl.chips[t] + 1
    for index in range(1, total):
        rest = index
        n = 0
        m = 0
        code = 0
        for t in range(NCHIP):
            x[t] = rest % (pl.chips[t] + 1)
            rest //= pl.chips[t] + 1
            n += x[t]
            m += x[t] * CHIP_MATCH[t][colour]
            code += x[t] * POW3[t]
        if not payment_valid(n, m, missing):
            continue
        minimal = True
        for t in range(NCHIP):
            if x[t] > 0 and payment_valid(n - 1, m - CHIP_MATCH[t][colour], missing):
                minimal = False
                break
        if minimal:
            if out != NULL:
                out[count] = C_PAY + code
            count += 1
    return count


cdef void break_line(State* s, int p, int line) noexcept nogil:
    cdef Player* pl = &s.pl[p]
    floor_add(s, p, pl.line_colour[line], pl.line_count[line])
    pl.line_count[line] = 0
    pl.line_colour[line] = -1


cdef void tile_line(State* s, int cell) noexcept nogil:
    """The pending line's rightmost tile goes to ``cell``; its other tiles to the tower."""
    cdef Player* pl = &s.pl[s.current]
    cdef int line = s.tiling_line, colour = pl.line_colour[line]
    cdef int to_tower = pl.line_count[line] - 1
    s.tower[colour] += to_tower
    pl.line_count[line] = 0
    pl.line_colour[line] = -1
    lay_tile(s, s.current, cell, colour, to_tower)
    s.tiling_line += 1


cdef void begin_tiling(State* s) noexcept nogil:
    s.current = s.starting_player
    s.tiling_line = 0
    continue_tiling(s)


cdef void continue_tiling(State* s) noexcept nogil:
    """Process pattern lines top to bottom (4.2), first the round's starting
    player, then the other; stops at the first decision with a real choice."""
    cdef Player* pl
    cdef int line, count, nfit
    cdef int cells[6]
    while True:
        if s.tiling_line == 6:
            if s.current != s.starting_player:
                break
            s.current = 1 - s.starting_player
            s.tiling_line = 0
            continue
        pl = &s.pl[s.current]
        line = s.tiling_line
        count = pl.line_count[line]
        if count == 0:
            s.tiling_line += 1
            continue
        nfit = fitting_cells(pl, line, pl.line_colour[line], cells)
        if count == line + 1 and nfit > 0:
            if nfit == 1:
                tile_line(s, cells[0])
                continue
            s.pending = P_TILE
            return
        if count < line + 1 and nfit > 0 and payment_options(pl, line, NULL) > 0:
            s.pending = P_PAY
            return
        if nfit == 0 and slot_row_full(pl, line):  # unplaceable (4.2 2b, D11)
            record(s.log, E_LINE_BROKEN, s.current, line, pl.line_colour[line], count, 0)
            break_line(s, s.current, line)
        s.tiling_line += 1
    end_round(s)


cdef void pay_chips(State* s, int code) noexcept nogil:
    cdef Player* pl = &s.pl[s.current]
    cdef int t, x, nfit
    cdef int cells[6]
    record(s.log, E_CHIPS_PAID, s.current, s.tiling_line, code - C_PAY, 0, 0)
    code -= C_PAY
    for t in range(NCHIP):
        x = code % 3
        code //= 3
        pl.chips[t] -= x
        pl.spent[t] += x
    nfit = fitting_cells(pl, s.tiling_line, pl.line_colour[s.tiling_line], cells)
    if nfit == 1:
        tile_line(s, cells[0])
        continue_tiling(s)
    else:
        s.pending = P_TILE


cdef int objective_points(Player* pl, int objective) noexcept nogil:
    cdef int points = 0, r, c, k, n, seen, filled
    if objective == 0 or objective == 2:  # complete rows / columns
        for r in range(6):
            n = 0
            for c in range(6):
                k = r * 6 + c if objective == 0 else c * 6 + r
                n += pl.tile[k] >= 0
            if n == 6:
                points += 3 if objective == 0 else 7
    elif objective == 1:  # rows with 5 different colours (D25)
        for r in range(6):
            seen = 0
            for c in range(6):
                if 0 <= pl.tile[r * 6 + c] < NCOL:
                    seen |= 1 << pl.tile[r * 6 + c]
            if seen == 31:
                points += 4
    elif objective == 3:  # outer ring
        for k in range(36):
            r = k // 6
            c = k % 6
            if (r == 0 or r == 5 or c == 0 or c == 5) and pl.tile[k] >= 0:
                points += 1
    elif objective == 4:  # both main diagonals
        n = 0
        seen = 0
        for r in range(6):
            n += pl.tile[r * 7] >= 0
            seen += pl.tile[r * 6 + 5 - r] >= 0
        points = 10 * (n == 6) + 10 * (seen == 6)
    elif objective == 5:  # corner plates
        for c in range(4):
            n = 0
            for k in range(4):
                n += pl.tile[cell_of(CORNER_SLOTS[c], k)] >= 0
            if n == 4:
                points += CORNER_POINTS[c]
    elif objective == 6:  # wild fields, only if all filled
        n = 0
        filled = 0
        for k in range(36):
            if pl.space[k] == WILD:
                n += 1
                filled += pl.tile[k] >= 0
        points = 2 * n if filled == n else 0
    else:  # empty special fields
        for k in range(36):
            if pl.space[k] == SPECIAL and pl.tile[k] < 0:
                points -= 3
    return points


cdef void end_round(State* s) noexcept nogil:
    """Penalties (4.3), then Phase 3 or, after round 5, the final scoring (D17)."""
    cdef int p, i, total, before, points
    cdef Player* pl
    for p in range(2):
        pl = &s.pl[p]
        before = pl.score
        add_score(pl, -(BROKEN_SUM[pl.nbroken] + (2 if s.sp_holder == p else 0)))
        if pl.score != before or pl.nbroken or s.sp_holder == p:
            record(s.log, E_PENALTY, p, pl.nbroken, s.sp_holder == p, 0, pl.score - before)
        for i in range(pl.nbroken):
            s.tower[pl.broken[i]] += 1
        pl.nbroken = 0
    s.tiling_line = 0
    if s.round == FINAL_ROUND:
        for p in range(2):
            pl = &s.pl[p]
            pl.score_before_final = pl.score
            total = 0
            for i in range(s.nobjectives):
                points = objective_points(pl, s.objectives[i])
                record(s.log, E_OBJECTIVE_SCORED, p, s.objectives[i], 0, 0, points)
                total += points
            add_score(pl, total)
            if pl.score != pl.score_before_final + total:
                record(s.log, E_SCORE_FLOOR, p, 0, 0, 0, pl.score - pl.score_before_final - total)
        s.current = s.starting_player if s.sp_holder < 0 else s.sp_holder
        s.pending = P_OVER
        record(s.log, E_ROUND_ENDED, -1, s.round, 0, 0, 0)
        record(s.log, E_GAME_OVER, -1, 0, 0, 0, 0)
        return
    record(s.log, E_ROUND_ENDED, -1, s.round, 0, 0, 0)
    for p in range(2):
        s.pl[p].plates_taken = 0
        s.pl[p].chips_taken = 0
    refill_display(s)
    if s.sp_holder >= 0:
        s.starting_player = s.sp_holder
    s.sp_holder = -1
    refill_factories(s)
    s.round += 1
    record(s.log, E_FACTORIES_REFILLED, -1, s.round, 0, 0, 0)
    next_turn(s, s.starting_player)


# ---------------------------------------------------------------------------
# Move generation and application
# ---------------------------------------------------------------------------


cdef int gen_moves(State* s, int* out) noexcept nogil:
    """The options of the pending decision, in the documented order."""
    cdef Player* pl = &s.pl[s.current]
    cdef int n = 0, i, f, c, a, b, line
    cdef int left[NCOL]
    cdef bint top
    if s.pending == P_SETUP or s.pending == P_ACTION:
        if s.pending == P_SETUP or (s.round < FINAL_ROUND and pl.plates_taken < 2):
            for i in range(3):
                if s.display[i] >= 0:
                    out[n] = C_DISPLAY + i
                    n += 1
            if s.pending == P_SETUP:
                return n
            if s.nstack > 0:
                out[n] = C_STACK
                n += 1
        for f in range(5):
            for c in range(NCOL):
                if s.sun[f][c] > 0:
                    out[n] = C_SUN + f * 5 + c
                    n += 1
        for c in range(NCOL):
            top = s.lmoon[c] > 0
            for f in range(1, 5):
                if s.moon_n[f] > 0 and s.moon[f][s.moon_n[f] - 1] == c:
                    top = True
            if top:
                out[n] = C_MOON + c
                n += 1
        if pl.chips_taken < 2:
            for f in range(1, 5):
                if s.fchip[f] >= 0 and s.fchip_up[f]:
                    out[n] = C_CHIP + f - 1
                    n += 1
    elif s.pending == P_DRAW:
        out[0] = C_STACK
        out[1] = C_STOP
        n = 2
    elif s.pending == P_KEEP:
        for i in range(s.ndrawn):
            out[n] = C_KEEP + s.drawn[i]
            n += 1
    elif s.pending == P_RETURN:
        for i in range(s.ndrawn):
            out[n] = C_UNDER + s.drawn[i]
            n += 1
    elif s.pending == P_PLACE:
        for i in range(9):
            if pl.slot_plate[i] < 0:
                for c in range(4):
                    out[n] = C_PLACE + i * 4 + c
                    n += 1
    elif s.pending == P_ORDER:
        f = s.order_factory
        for c in range(NCOL):
            left[c] = s.sun[f][c]
        if sun_total(s, f) == 2:
            for a in range(NCOL):
                if left[a] > 0:
                    left[a] -= 1
                    for b in range(NCOL):
                        if left[b] > 0:
                            out[n] = C_ORDER + a * 5 + b
                            n += 1
                    left[a] += 1
        else:
            for a in range(NCOL):
                if left[a] > 0:
                    left[a] -= 1
                    for b in range(NCOL):
                        if left[b] > 0:
                            left[b] -= 1
                            for c in range(NCOL):
                                if left[c] > 0:
                                    out[n] = C_ORDER + 25 + a * 25 + b * 5 + c
                                    n += 1
                            left[b] += 1
                    left[a] += 1
    elif s.pending == P_LINE:
        for line in range(6):
            if line_accepts(pl, line, s.hand_colour):
                out[n] = C_LINE + line
                n += 1
        out[n] = C_LINE + 6
        n += 1
    elif s.pending == P_PAY:
        out[0] = C_NOPAY
        n = 1 + payment_options(pl, s.tiling_line, out + 1)
    elif s.pending == P_TILE:
        n = fitting_cells(pl, s.tiling_line, pl.line_colour[s.tiling_line], out)
        for i in range(n):
            out[i] += C_TILE
    return n


cdef void apply_move(State* s, int code) noexcept nogil:
    """Play one option of the pending decision; ``code`` must be legal."""
    cdef Player* pl = &s.pl[s.current]
    cdef int order[3]
    cdef int k
    if code < C_STACK:
        record(s.log, E_PLATE_TAKEN, s.current, code - C_DISPLAY, s.display[code - C_DISPLAY], 0, 0)
        s.kept = s.display[code - C_DISPLAY]
        s.display[code - C_DISPLAY] = -1
        if s.pending == P_ACTION:
            pl.plates_taken += 1
        s.pending = P_PLACE
    elif code == C_STACK:
        if s.pending == P_ACTION:
            pl.plates_taken += 1
        draw_plate(s)
    elif code == C_STOP:
        stop_drawing(s)
    elif code < C_MOON:
        take_sun(s, (code - C_SUN) // 5, (code - C_SUN) % 5)
    elif code < C_CHIP:
        take_moon(s, code - C_MOON)
    elif code < C_KEEP:
        k = code - C_CHIP + 1
        record(s.log, E_CHIP_TAKEN, s.current, k, s.fchip[k], 0, 0)
        pl.chips[s.fchip[k]] += 1
        pl.chips_taken += 1
        s.fchip[k] = -1
        s.fchip_up[k] = 0
        end_action(s)
    elif code < C_UNDER:
        keep_plate(s, code - C_KEEP)
    elif code < C_PLACE:
        return_plate(s, code - C_UNDER)
    elif code < C_LINE:
        place_plate(s, (code - C_PLACE) // 4, (code - C_PLACE) % 4)
    elif code < C_TILE:
        place_hand(s, code - C_LINE)
    elif code < C_ORDER:
        tile_line(s, code - C_TILE)
        continue_tiling(s)
    elif code < C_NOPAY:
        k = code - C_ORDER
        if k < 25:
            order[0] = k // 5
            order[1] = k % 5
            stack_leftovers(s, s.order_factory, order, 2)
        else:
            k -= 25
            order[0] = k // 25
            order[1] = (k // 5) % 5
            order[2] = k % 5
            stack_leftovers(s, s.order_factory, order, 3)
    elif code == C_NOPAY:
        record(s.log, E_CHIPS_NOT_PAID, s.current, s.tiling_line, 0, 0, 0)
        s.tiling_line += 1
        continue_tiling(s)
    else:
        pay_chips(s, code)


cdef bint is_legal(State* s, int code) noexcept nogil:
    cdef int options[MAX_OPTIONS]
    cdef int n = gen_moves(s, options), i
    for i in range(n):
        if options[i] == code:
            return True
    return False


cdef int play_out(State* s, uint64_t* chooser) noexcept nogil:
    """Uniformly random legal options until the game ends; returns the plies played."""
    cdef int options[MAX_OPTIONS]
    cdef int n, plies = 0
    while True:
        n = gen_moves(s, options)
        if n == 0:
            return plies
        apply_move(s, options[rng_below(chooser, n)])
        plies += 1


cdef void redetermine_state(State* s) noexcept nogil:
    """Re-draw, with ``s.rng``, what no player has seen: the order of unseen stack
    plates (the top plate's back stays), the fronts of plates drawn but not yet
    revealed (their backs stay), and the face-down chips on the factories."""
    cdef int pool[NPLATES]
    cdef int npool = 0, i, j, k, need, tmp
    cdef int no_tower[NCHIP]
    cdef bint top_hidden = s.nstack > 0 and not s.stack_seen[0]
    cdef bint drawn_hidden = s.ndrawn > 0 and not s.drawn_revealed
    for i in range(s.nstack):
        if not s.stack_seen[i]:
            pool[npool] = s.stack[i]
            npool += 1
    if drawn_hidden:
        for i in range(s.ndrawn):
            pool[npool] = s.drawn[i]
            npool += 1
    # the pool in plate-id order, so the result cannot depend on the hidden order it was gathered in
    for i in range(1, npool):
        tmp = pool[i]
        j = i - 1
        while j >= 0 and pool[j] > tmp:
            pool[j + 1] = pool[j]
            j -= 1
        pool[j + 1] = tmp
    # constrained places first: each takes a random pooled plate of its back's type
    if drawn_hidden:
        for i in range(s.ndrawn):
            need = PLATE_SPECIAL[s.drawn[i]]
            s.drawn[i] = take_plate_of_type(pool, &npool, need, &s.rng)
    if top_hidden:
        need = PLATE_SPECIAL[s.stack[0]]
        s.stack[0] = take_plate_of_type(pool, &npool, need, &s.rng)
    for i in range(npool - 1, 0, -1):
        j = rng_below(&s.rng, i + 1)
        tmp = pool[i]
        pool[i] = pool[j]
        pool[j] = tmp
    k = 0
    for i in range(1 if top_hidden else 0, s.nstack):
        if not s.stack_seen[i]:
            s.stack[i] = pool[k]
            k += 1
    memset(no_tower, 0, sizeof(no_tower))
    for i in range(1, 5):
        if s.fchip[i] >= 0 and not s.fchip_up[i]:
            s.chip_supply[s.fchip[i]] += 1
    for i in range(1, 5):
        if s.fchip[i] >= 0 and not s.fchip_up[i]:
            s.fchip[i] = bag_draw(s.chip_supply, no_tower, NCHIP, &s.rng)


cdef int take_plate_of_type(int* pool, int* npool, int special, uint64_t* rng) noexcept nogil:
    """Remove and return a uniformly chosen pooled plate whose back shows ``special``."""
    cdef int i, n = 0, pick, plate
    for i in range(npool[0]):
        n += PLATE_SPECIAL[pool[i]] == special
    pick = rng_below(rng, n)
    for i in range(npool[0]):
        if PLATE_SPECIAL[pool[i]] == special:
            if pick == 0:
                plate = pool[i]
                pool[i] = pool[npool[0] - 1]
                npool[0] -= 1
                return plate
            pick -= 1
    return -1


# ---------------------------------------------------------------------------
# Moves: codes <-> notation
# ---------------------------------------------------------------------------

cdef list _INTERNED = [None] * NCODES

_MOVE_RE = re.compile(
    r"P(?P<display>[1-3])|P(?P<draw>[+=])|S(?P<sun>[0-4])(?P<sun_colour>[A-Z])|M(?P<moon>[A-Z])"
    r"|C(?P<chip>[1-4])|K(?P<keep>\d{1,2})|U(?P<under>\d{1,2})|@(?P<slot>[1-9])r(?P<rotation>[0-3])"
    r"|O(?P<order>[A-Z]{2,3})|L(?P<line>[1-6F])|T(?P<row>[1-6])(?P<column>[1-6])"
    r"|\$(?P<nopay>-)|\$(?P<pay>[A-Z]{1,2}(?:\+[A-Z]{1,2})*)",
    re.IGNORECASE,
)


def _chip_counts(int code):
    """Per chip type, how many chips a payment code spends."""
    code -= C_PAY
    counts = []
    for _ in range(NCHIP):
        counts.append(code % 3)
        code //= 3
    return counts


cdef _check_code(int code):
    """Every code in range is a move except the payment of no chips (that is ``$-``)."""
    if not 0 <= code < NCODES or code == C_PAY:
        raise InvalidMoveError(f"{code} is not an Azul Duel move code (0-{NCODES - 1}, except {C_PAY})")


cdef class Move(_MoveBase):
    """One option of a pending Azul Duel decision (immutable, hashable, interned per code).

    ``str(move)`` is its notation (docs/notation.md); ``Move.parse`` reads it
    back. Named fields are None where the kind has no such field.
    """

    def __init__(self, int code):
        _check_code(code)
        self.code = code

    @staticmethod
    def from_code(int code):
        """The interned move for ``code``."""
        _check_code(code)
        return interned(code)

    @classmethod
    def parse(cls, text):
        """Read a move from its notation; raises :class:`InvalidMoveError`."""
        found = notation.match(_MOVE_RE, text, "Azul Duel move")
        g = found.groupdict()
        if g["display"]:
            return interned(C_DISPLAY + int(g["display"]) - 1)
        if g["draw"]:
            return interned(C_STACK if g["draw"] == "+" else C_STOP)
        if g["sun"]:
            colour, = notation.letters_to_indices(g["sun_colour"], COLOURS, "colour")
            return interned(C_SUN + int(g["sun"]) * 5 + colour)
        if g["moon"]:
            colour, = notation.letters_to_indices(g["moon"], COLOURS, "colour")
            return interned(C_MOON + colour)
        if g["chip"]:
            return interned(C_CHIP + int(g["chip"]) - 1)
        if g["keep"] or g["under"]:
            plate = int(g["keep"] or g["under"])
            if plate >= NPLATES:
                raise InvalidMoveError(f"{text!r}: there is no plate {plate} (plates are 0-{NPLATES - 1})")
            return interned((C_KEEP if g["keep"] else C_UNDER) + plate)
        if g["slot"]:
            return interned(C_PLACE + (int(g["slot"]) - 1) * 4 + int(g["rotation"]))
        if g["order"]:
            tiles = notation.letters_to_indices(g["order"], COLOURS, "colour")
            if len(tiles) == 2:
                return interned(C_ORDER + tiles[0] * 5 + tiles[1])
            return interned(C_ORDER + 25 + tiles[0] * 25 + tiles[1] * 5 + tiles[2])
        if g["line"]:
            line = g["line"].upper()
            return interned(C_LINE + (6 if line == "F" else int(line) - 1))
        if g["row"]:
            return interned(C_TILE + (int(g["row"]) - 1) * 6 + int(g["column"]) - 1)
        if g["nopay"]:
            return interned(C_NOPAY)
        counts = [0] * NCHIP
        for face in g["pay"].upper().split("+"):
            if face not in CHIP_TYPES:
                raise InvalidMoveError(f"{text!r}: {face!r} is not a bonus chip (chips are {', '.join(CHIP_TYPES)})")
            counts[CHIP_TYPES.index(face)] += 1
        if max(counts) > 2:
            raise InvalidMoveError(f"{text!r}: the game has only 2 chips of each kind")
        return interned(C_PAY + sum(n * 3 ** t for t, n in enumerate(counts)))

    def __str__(self):
        cdef int code = self.code, k
        if code < C_STACK:
            return f"P{code - C_DISPLAY + 1}"
        if code == C_STACK:
            return "P+"
        if code == C_STOP:
            return "P="
        if code < C_MOON:
            return f"S{(code - C_SUN) // 5}{COLOURS[(code - C_SUN) % 5]}"
        if code < C_CHIP:
            return f"M{COLOURS[code - C_MOON]}"
        if code < C_KEEP:
            return f"C{code - C_CHIP + 1}"
        if code < C_UNDER:
            return f"K{code - C_KEEP}"
        if code < C_PLACE:
            return f"U{code - C_UNDER}"
        if code < C_LINE:
            return f"@{(code - C_PLACE) // 4 + 1}r{(code - C_PLACE) % 4}"
        if code < C_TILE:
            k = code - C_LINE
            return "LF" if k == 6 else f"L{k + 1}"
        if code < C_ORDER:
            return f"T{(code - C_TILE) // 6 + 1}{(code - C_TILE) % 6 + 1}"
        if code < C_NOPAY:
            return "O" + "".join([COLOURS[c] for c in self.order])
        if code == C_NOPAY:
            return "$-"
        return "$" + "+".join(self.chips)

    @property
    def kind(self):
        """One of display, draw, stop, sun, moon, chip, keep, under, place, line, tile, order, nopay, pay."""
        cdef int code = self.code
        for bound, name in ((C_STACK, "display"), (C_STOP, "draw"), (C_SUN, "stop"), (C_MOON, "sun"),
                            (C_CHIP, "moon"), (C_KEEP, "chip"), (C_UNDER, "keep"), (C_PLACE, "under"),
                            (C_LINE, "place"), (C_TILE, "line"), (C_ORDER, "tile"), (C_NOPAY, "order"),
                            (C_PAY, "nopay")):
            if code < bound:
                return name
        return "pay"

    @property
    def display(self):
        """Display position 1-3 of a plate taken from the display."""
        return self.code - C_DISPLAY + 1 if self.code < C_STACK else None

    @property
    def factory(self):
        """Factory of a sun take (0 = large, 1-4 small) or of a chip take (1-4)."""
        if C_SUN <= self.code < C_MOON:
            return (self.code - C_SUN) // 5
        if C_CHIP <= self.code < C_KEEP:
            return self.code - C_CHIP + 1
        return None

    @property
    def colour(self):
        """Colour index (into ``COLOURS``) of a sun or moon take."""
        if C_SUN <= self.code < C_MOON:
            return (self.code - C_SUN) % 5
        if C_MOON <= self.code < C_CHIP:
            return self.code - C_MOON
        return None

    @property
    def plate(self):
        """Plate id of a keep or under move."""
        if C_KEEP <= self.code < C_PLACE:
            return (self.code - C_KEEP) % NPLATES
        return None

    @property
    def slot(self):
        """Dome slot 1-9 (row by row) of a plate placement."""
        return (self.code - C_PLACE) // 4 + 1 if C_PLACE <= self.code < C_LINE else None

    @property
    def rotation(self):
        """Quarter turns clockwise (0-3) of a plate placement."""
        return (self.code - C_PLACE) % 4 if C_PLACE <= self.code < C_LINE else None

    @property
    def line(self):
        """Pattern line 1-6 of a line choice; 0 is the broken-tiles area."""
        if C_LINE <= self.code < C_TILE:
            return (self.code - C_LINE + 1) % 7
        return None

    @property
    def cell(self):
        """(row, column), each 1-6, of a tile laid on the dome."""
        if C_TILE <= self.code < C_ORDER:
            return ((self.code - C_TILE) // 6 + 1, (self.code - C_TILE) % 6 + 1)
        return None

    @property
    def order(self):
        """Colour indices of a stacking order, bottom tile first."""
        cdef int k = self.code - C_ORDER
        if not C_ORDER <= self.code < C_NOPAY:
            return None
        if k < 25:
            return (k // 5, k % 5)
        k -= 25
        return (k // 25, (k // 5) % 5, k % 5)

    @property
    def chips(self):
        """Chip faces (from ``CHIP_TYPES``) a payment spends; () for no payment."""
        if self.code == C_NOPAY:
            return ()
        if self.code < C_PAY:
            return None
        return tuple(face for face, n in zip(CHIP_TYPES, _chip_counts(self.code)) for _ in range(n))


def _moon_order(int packed):
    """The colours of a ``moon_stacked`` event, bottom first (packed base 5 under a leading 1)."""
    letters = []
    while packed > 1:
        letters.append(COLOURS[packed % 5])
        packed //= 5
    return "".join(reversed(letters))


_EVENT_FIELDS = {
    "position": lambda i: i + 1,
    "slot": lambda i: i + 1,
    "colour": COLOURS.__getitem__,
    "order": _moon_order,
    "chip": CHIP_TYPES.__getitem__,
    "line": lambda i: 0 if i == 6 else i + 1,
    "cell": lambda cell: (cell // 6 + 1, cell % 6 + 1),
    "chips": lambda code: list(Move.from_code(C_PAY + code).chips),
    "objective": OBJECTIVES.__getitem__,
    "start_tile": bool,
}
"""How an event field's integer reads in the event dicts (docs/notation.md)."""


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


def _objective_ids(objectives):
    ids = []
    for item in objectives:
        if isinstance(item, str) and item in OBJECTIVES:
            ids.append(OBJECTIVES.index(item))
        elif isinstance(item, int) and not isinstance(item, bool) and 0 <= item < 8:
            ids.append(item)
        else:
            raise ValueError(f"{item!r} is not an objective (one of {', '.join(OBJECTIVES)}, or 0-7)")
    if len(ids) not in (3, 4):
        raise ValueError(f"a game uses 3 or 4 objectives, not {len(ids)}")
    if len({i // 2 for i in ids}) != len(ids):
        raise ValueError("named objectives must be one side each of distinct tablets (D23)")
    return ids


if <int>MAX_OPTIONS > <int>MOST_OPTIONS:
    raise ImportError(f"a decision has up to {MAX_OPTIONS} options, more than core_ext._game's MOST_OPTIONS")


cdef class Game(_GameBase):
    """An Azul Duel game: 2 players, 5 rounds, every decision a :class:`Move`.

    ``Game(seed=None, starting_player=None, objectives=None, stack_reveal="end",
    objective_count=3)``: the seed makes the whole game reproducible; the RNG
    decides whatever is not given (starting player, objectives, and always the
    plates, chips and bag). ``objectives`` names 3 or 4 objectives from
    distinct tablets; ``objective_count=4`` plays the 4-tablet variant (D4).
    """

    players = 2
    _move_type = Move
    _title = "an Azul Duel"
    _reasons = duel_reasons
    _kind = "duel"
    _format_version = FORMAT_VERSION
    _pending_names = PENDING
    _event_kinds = EVENTS
    _scoring_events = SCORING_EVENTS
    _event_fields = _EVENT_FIELDS

    def __init__(self, seed=None, starting_player=None, objectives=None, stack_reveal="end", objective_count=3):
        cdef int ids[4]
        cdef int nids = 0, start = -1
        if stack_reveal not in STACK_REVEAL:
            raise ValueError(f"stack_reveal must be one of {', '.join(STACK_REVEAL)}, not {stack_reveal!r}")
        if objective_count not in (3, 4):
            raise ValueError(f"objective_count must be 3 or 4, not {objective_count!r}")
        if starting_player is not None:
            if starting_player not in (0, 1) or isinstance(starting_player, bool):
                raise ValueError(f"starting_player must be 0 or 1, not {starting_player!r}")
            start = starting_player
        if objectives is not None:
            for i, objective in enumerate(_objective_ids(objectives)):
                ids[i] = objective
                nids += 1
        new_game(&self.s, seed_state(seed), start, ids, nids, objective_count, stack_reveal == "each")

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
        self.s.log = NULL

    cdef int _pending_index(self) noexcept:
        return self.s.pending

    cdef void _play_out(self, uint64_t* chooser) noexcept nogil:
        play_out(&self.s, chooser)

    cdef void _read(self, reader) except *:
        _read_state(&self.s, reader)

    # -- status -------------------------------------------------------------

    @property
    def current_player(self):
        """The seat owning the pending decision (after the game: the tie-break holder or last starter)."""
        return self.s.current

    @property
    def round(self):
        return self.s.round

    @property
    def stack_reveal(self):
        return STACK_REVEAL[self.s.reveal_each]

    @property
    def objectives(self):
        """Names of the objectives in play."""
        return tuple(OBJECTIVES[self.s.objectives[i]] for i in range(self.s.nobjectives))

    def scores(self):
        return (self.s.pl[0].score, self.s.pl[1].score)

    def winners(self):
        """The winning seats: () while running, both on a shared victory (D8, D19)."""
        if self.s.pending != P_OVER:
            return ()
        a, b = self.s.pl[0].score, self.s.pl[1].score
        if a != b:
            return (0,) if a > b else (1,)
        if self.s.sp_holder >= 0:
            return (self.s.sp_holder,)
        return (0, 1)

    def final_breakdown(self):
        """Per seat, once the game is over: the score after round 5, each objective, and the 0 floor."""
        if self.s.pending != P_OVER:
            raise ValueError("the game is not over yet")
        result = []
        for p in range(2):
            parts = [{"label": "Rounds 1-5", "points": self.s.pl[p].score_before_final}]
            total = self.s.pl[p].score_before_final
            for i in range(self.s.nobjectives):
                points = objective_points(&self.s.pl[p], self.s.objectives[i])
                parts.append({"label": OBJECTIVE_LABELS[self.s.objectives[i]], "points": points})
                total += points
            if total < 0:
                parts.append({"label": "Score floor at 0", "points": -total})
            result.append(parts)
        return result

    def objective_progress(self):
        """Per objective in play: its name and each seat's points toward it now (the final scoring's
        value if the game ended here)."""
        return [(OBJECTIVES[self.s.objectives[i]],
                 [objective_points(&self.s.pl[p], self.s.objectives[i]) for p in range(2)])
                for i in range(self.s.nobjectives)]

    # -- hidden information ---------------------------------------------------

    def redetermine(self, seed, int player):
        """A copy in which what ``player`` cannot see is re-drawn at random, RNG reseeded.

        In Azul Duel hidden information is hidden from both seats alike (unseen
        stack plates, unrevealed drawn plates, face-down chips), so ``player``
        only has to be a valid seat.
        """
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, not {player!r}")
        cdef Game other = self.copy()
        other.s.rng = seed_state(seed)
        redetermine_state(&other.s)
        return other

    def __repr__(self):
        return (f"<duel.Game round {self.s.round}, {self.pending} for player {self.s.current}, "
                f"scores {self.scores()}>")

    # -- saved games ----------------------------------------------------------

    def to_dict(self):
        """The ``state`` object of :meth:`to_json` as a plain dict."""
        cdef State* s = &self.s
        cdef Player* pl
        players = []
        for p in range(2):
            pl = &s.pl[p]
            players.append({
                "score": pl.score,
                "score_before_final": pl.score_before_final,
                "lines": [COLOURS[pl.line_colour[i]] * pl.line_count[i] if pl.line_count[i] else "" for i in range(6)],
                "broken": "".join([COLOURS[pl.broken[i]] for i in range(pl.nbroken)]),
                "plates": [pl.slot_plate[i] for i in range(9)],
                "rotations": [pl.slot_rot[i] for i in range(9)],
                "dome": ["".join([_tile_letter(pl.tile[r * 6 + c]) for c in range(6)]) for r in range(6)],
                "chips": _chip_list(pl.chips),
                "spent_chips": _chip_list(pl.spent),
                "plates_taken": pl.plates_taken,
                "chips_taken": pl.chips_taken,
            })
        return {
            "stack_reveal": STACK_REVEAL[s.reveal_each],
            "objectives": list(self.objectives),
            "round": s.round,
            "starting_player": s.starting_player,
            "current_player": s.current,
            "pending": PENDING[s.pending],
            "rng": envelope.hex64(s.rng),
            "bag": [s.bag[c] for c in range(NCOL)],
            "tower": [s.tower[c] for c in range(NCOL)],
            "special_supply": s.special_supply,
            "chip_supply": [s.chip_supply[t] for t in range(NCHIP)],
            "large_factory": {
                "sun": [s.sun[0][c] for c in range(NCOL)],
                "moon": [s.lmoon[c] for c in range(NCOL)],
                "start_tile": bool(s.sp_on_factory),
            },
            "small_factories": [{
                "sun": [s.sun[f][c] for c in range(NCOL)],
                "moon": "".join([COLOURS[s.moon[f][i]] for i in range(s.moon_n[f])]),
                "chip": CHIP_TYPES[s.fchip[f]] if s.fchip[f] >= 0 else "",
                "chip_revealed": bool(s.fchip_up[f]),
            } for f in range(1, 5)],
            "start_tile_holder": s.sp_holder,
            "display": [s.display[i] for i in range(3)],
            "stack": [s.stack[i] for i in range(s.nstack)],
            "stack_seen": [bool(s.stack_seen[i]) for i in range(s.nstack)],
            "players": players,
            "setup_stage": s.setup_stage,
            "hand": COLOURS[s.hand_colour] * s.hand_count if s.hand_count else "",
            "order_factory": s.order_factory,
            "drawn": [s.drawn[i] for i in range(s.ndrawn)],
            "drawn_revealed": bool(s.drawn_revealed),
            "kept": s.kept,
            "tiling_line": s.tiling_line + 1,
        }


def plate_spaces(int plate, int rotation):
    """The 4 spaces (TL, TR, BL, BR) of ``plate`` turned ``rotation`` quarter turns
    clockwise, as letters of ``COLOURS`` plus W (wild) and S (special)."""
    cdef Player pl
    if not (0 <= plate < NPLATES and 0 <= rotation < 4):
        raise ValueError(f"no plate {plate} with rotation {rotation} (plates 0-{NPLATES - 1}, rotations 0-3)")
    set_plate(&pl, 0, plate, rotation)
    return "".join([(COLOURS + "WS")[pl.space[cell_of(0, q)]] for q in range(4)])


def _tile_letter(int tile):
    return "." if tile < 0 else "S" if tile == SPECIAL_TILE else COLOURS[tile]


cdef list _chip_list(signed char* counts):
    return [CHIP_TYPES[t] for t in range(NCHIP) for _ in range(counts[t])]


# ---------------------------------------------------------------------------
# Reading saved games
# ---------------------------------------------------------------------------


def _letters(reader, key, alphabet, max_length):
    """A string of letters from ``alphabet`` (at most ``max_length``), as indices."""
    text = reader.str(key)
    if len(text) > max_length or any(ch not in alphabet for ch in text):
        raise InvalidStateError(f"{reader._path}.{key} must be at most {max_length} letters of {alphabet}, not {text!r}")
    return [alphabet.index(ch) for ch in text]


def _chip_counts_of(reader, key):
    faces = reader.list(key)
    counts = [0] * NCHIP
    for face in faces:
        if face not in CHIP_TYPES:
            raise InvalidStateError(f"{reader._path}.{key} has {face!r}, which is not a chip ({', '.join(CHIP_TYPES)})")
        counts[CHIP_TYPES.index(face)] += 1
    return counts


cdef void _read_state(State* s, reader) except *:
    cdef Player* pl
    cdef int options[MAX_OPTIONS]
    memset(s, 0, sizeof(State))
    s.reveal_each = reader.str("stack_reveal", STACK_REVEAL) == "each"
    objectives = reader.list("objectives")
    try:
        ids = _objective_ids(objectives)
    except ValueError as exc:
        raise InvalidStateError(f"state.objectives: {exc}") from None
    s.nobjectives = len(ids)
    for i, objective in enumerate(ids):
        s.objectives[i] = objective
    s.round = reader.int("round", 1, FINAL_ROUND)
    s.starting_player = reader.int("starting_player", 0, 1)
    s.current = reader.int("current_player", 0, 1)
    s.pending = PENDING.index(reader.str("pending", PENDING))
    s.rng = reader.hex64("rng")
    for c, n in enumerate(reader.ints("bag", NCOL, 0, TILES_PER_COLOUR)):
        s.bag[c] = n
    for c, n in enumerate(reader.ints("tower", NCOL, 0, TILES_PER_COLOUR)):
        s.tower[c] = n
    s.special_supply = reader.int("special_supply", 0, NSPECIAL)
    for t, n in enumerate(reader.ints("chip_supply", NCHIP, 0, 2)):
        s.chip_supply[t] = n
    large = reader.object("large_factory")
    for c, n in enumerate(large.ints("sun", NCOL, 0, 5)):
        s.sun[0][c] = n
    for c, n in enumerate(large.ints("moon", NCOL, 0, 4)):
        s.lmoon[c] = n
    s.sp_on_factory = large.bool("start_tile")
    large.done()
    if sun_total(s, 0) > 5 or sum([s.lmoon[c] for c in range(NCOL)]) > 4:
        raise InvalidStateError("state.large_factory holds more tiles than fit (5 sun, 4 moon)")
    chip_counts = [s.chip_supply[t] for t in range(NCHIP)]
    for f, factory in enumerate(reader.objects("small_factories", 4), start=1):
        for c, n in enumerate(factory.ints("sun", NCOL, 0, 4)):
            s.sun[f][c] = n
        moon = _letters(factory, "moon", COLOURS, 3)
        for i, c in enumerate(moon):
            s.moon[f][i] = c
        s.moon_n[f] = len(moon)
        face = factory.str("chip", ("",) + CHIP_TYPES)
        s.fchip[f] = CHIP_TYPES.index(face) if face else -1
        s.fchip_up[f] = factory.bool("chip_revealed")
        factory.done()
        if sun_total(s, f) > 4 or (sun_total(s, f) and s.moon_n[f]):
            raise InvalidStateError(f"state.small_factories[{f - 1}] has too many tiles, or tiles on both sides")
        if s.fchip_up[f] and (s.fchip[f] < 0 or sun_total(s, f) or s.moon_n[f]):
            raise InvalidStateError(f"state.small_factories[{f - 1}] reveals a chip it lacks or while it holds tiles")
        if s.fchip[f] >= 0:
            chip_counts[s.fchip[f]] += 1
    s.sp_holder = reader.int("start_tile_holder", -1, 1)
    if s.sp_on_factory and s.sp_holder >= 0:
        raise InvalidStateError("state.start_tile_holder is set while the tile is on the large factory")
    plate_places = []
    for i, plate in enumerate(reader.ints("display", 3, -1, NPLATES - 1)):
        s.display[i] = plate
        plate_places.append(plate)
    stack = reader.ints("stack", None, 0, NPLATES - 1)
    seen = reader.list("stack_seen", len(stack))
    if len(stack) > NPLATES or not all(isinstance(b, bool) for b in seen):
        raise InvalidStateError("state.stack_seen must hold one true/false per stack plate")
    for i, plate in enumerate(stack):
        s.stack[i] = plate
        s.stack_seen[i] = seen[i]
    s.nstack = len(stack)
    plate_places += stack
    tile_counts = [s.bag[c] + s.tower[c] + s.lmoon[c] + sum(s.sun[f][c] for f in range(5))
                   + sum(1 for f in range(1, 5) for i in range(s.moon_n[f]) if s.moon[f][i] == c)
                   for c in range(NCOL)]
    specials = s.special_supply
    for p, player in enumerate(reader.objects("players", 2)):
        pl = &s.pl[p]
        pl.score = player.int("score", 0, 10_000)
        pl.score_before_final = player.int("score_before_final", -1, 10_000)
        for i, line in enumerate(player.list("lines", 6)):
            if not isinstance(line, str) or len(line) > i + 1 or len(set(line)) > 1 or any(ch not in COLOURS for ch in line):
                raise InvalidStateError(f"state.players[{p}].lines[{i}] must be up to {i + 1} tiles of one colour, not {line!r}")
            pl.line_count[i] = len(line)
            pl.line_colour[i] = COLOURS.index(line[0]) if line else -1
            if line:
                tile_counts[pl.line_colour[i]] += len(line)
        broken = _letters(player, "broken", COLOURS, 4)
        for i, c in enumerate(broken):
            pl.broken[i] = c
            tile_counts[c] += 1
        pl.nbroken = len(broken)
        plates = player.ints("plates", 9, -1, NPLATES - 1)
        rotations = player.ints("rotations", 9, 0, 3)
        for i in range(36):
            pl.space[i] = -1
        for slot in range(9):
            pl.slot_plate[slot] = -1
            if plates[slot] >= 0:
                set_plate(pl, slot, plates[slot], rotations[slot])
                plate_places.append(plates[slot])
        dome = player.list("dome", 6)
        for r, row in enumerate(dome):
            if not isinstance(row, str) or len(row) != 6 or any(ch not in "." + COLOURS + "S" for ch in row):
                raise InvalidStateError(f"state.players[{p}].dome[{r}] must be 6 letters of .{COLOURS}S, not {row!r}")
            for c, ch in enumerate(row):
                k = r * 6 + c
                pl.tile[k] = -1 if ch == "." else SPECIAL_TILE if ch == "S" else COLOURS.index(ch)
                if ch == "S":
                    specials += 1
                    if pl.space[k] != SPECIAL:
                        raise InvalidStateError(f"state.players[{p}].dome[{r}] has a special tile off a special field")
                elif ch != ".":
                    tile_counts[pl.tile[k]] += 1
                    if pl.space[k] != pl.tile[k] and pl.space[k] != WILD:
                        raise InvalidStateError(f"state.players[{p}].dome[{r}] has {ch} on a space that does not take it")
        for t, n in enumerate(_chip_counts_of(player, "chips")):
            pl.chips[t] = n
            chip_counts[t] += n
        for t, n in enumerate(_chip_counts_of(player, "spent_chips")):
            pl.spent[t] = n
            chip_counts[t] += n
        pl.plates_taken = player.int("plates_taken", 0, 2)
        pl.chips_taken = player.int("chips_taken", 0, 2)
        player.done()
    s.setup_stage = reader.int("setup_stage", 0, 2)
    hand = _letters(reader, "hand", COLOURS, 9)
    if len(set(hand)) > 1:
        raise InvalidStateError("state.hand must be tiles of one colour")
    s.hand_count = len(hand)
    s.hand_colour = hand[0] if hand else -1
    if hand:
        tile_counts[hand[0]] += len(hand)
    s.order_factory = reader.int("order_factory", 0, 4)
    drawn = reader.ints("drawn", None, 0, NPLATES - 1)
    if len(drawn) > NPLATES:
        raise InvalidStateError("state.drawn lists more plates than exist")
    for i, plate in enumerate(drawn):
        s.drawn[i] = plate
    s.ndrawn = len(drawn)
    plate_places += drawn
    s.drawn_revealed = reader.bool("drawn_revealed")
    s.kept = reader.int("kept", -1, NPLATES - 1)
    plate_places.append(s.kept)
    s.tiling_line = reader.int("tiling_line", 1, 6) - 1
    reader.done()
    if sorted(p for p in plate_places if p >= 0) != list(range(NPLATES)):
        raise InvalidStateError("every plate must be in exactly one place (display, stack, drawn, kept or a dome)")
    if tile_counts != [TILES_PER_COLOUR] * NCOL:
        raise InvalidStateError(f"coloured tiles do not add up to {TILES_PER_COLOUR} per colour: {tile_counts}")
    if specials != NSPECIAL:
        raise InvalidStateError(f"special tiles do not add up to {NSPECIAL}: {specials}")
    if chip_counts != [2] * NCHIP:
        raise InvalidStateError(f"bonus chips do not add up to 2 of each kind: {chip_counts}")
    if s.pending == P_ORDER and (s.order_factory == 0 or sun_colours(s, s.order_factory) < 2):
        raise InvalidStateError("state.order_factory must name a small factory with leftovers of 2+ colours")
    if (s.pending == P_LINE or s.pending == P_ORDER) != (s.hand_count > 0):
        raise InvalidStateError("state.hand holds tiles exactly while a stacking order or line decision is pending")
    if (s.pending == P_PLACE or s.pending == P_RETURN) != (s.kept >= 0):
        raise InvalidStateError("state.kept names a plate exactly while plates are returned or placed")
    if s.pending in (P_DRAW, P_KEEP, P_RETURN) and s.ndrawn == 0:
        raise InvalidStateError("state.drawn is empty during a stack draw")
    if s.pending == P_OVER:
        return
    if s.pending in (P_PAY, P_TILE) and s.pl[s.current].line_count[s.tiling_line] == 0:
        raise InvalidStateError("state.tiling_line is empty during tiling")
    if gen_moves(s, options) == 0:
        raise InvalidStateError(f"the pending {PENDING[s.pending]!r} decision has no option")


# ---------------------------------------------------------------------------
# Benchmark entry point
# ---------------------------------------------------------------------------


def random_games(int n, seed=None):
    """Play ``n`` whole random games from fresh setups in C; returns the total plies."""
    cdef uint64_t master = seed_state(seed), chooser
    cdef State s
    cdef long total = 0
    cdef int i
    cdef int no_objectives[4]
    with nogil:
        for i in range(n):
            new_game(&s, rng_next(&master), -1, no_objectives, 0, 3, 0)
            chooser = rng_next(&master)
            total += play_out(&s, &chooser)
    return total
