# The C level of core_ext.duel, for search code that cimports it: the flat game
# state, the move-code ranges, and the nogil functions that generate and play moves.
from libc.stdint cimport uint64_t

from core_ext._events cimport EventLog
from core_ext._game cimport Game as _GameBase
from core_ext._move cimport Move as _MoveBase

cdef enum:
    NCOL = 5
    WILD = 5
    SPECIAL = 6
    SPECIAL_TILE = 5
    NPLATES = 18
    NCHIP = 10
    NSPECIAL = 9
    TILES_PER_COLOUR = 13
    FINAL_ROUND = 5
    MAX_OPTIONS = 1100

cdef enum Pending:
    P_SETUP, P_ACTION, P_DRAW, P_KEEP, P_RETURN, P_PLACE, P_ORDER, P_LINE, P_PAY, P_TILE, P_OVER

# Move codes: one contiguous range per kind.
cdef enum:
    C_DISPLAY = 0      # + display position 0..2
    C_STACK = 3        # draw a plate from the stack (first or further draw)
    C_STOP = 4         # stop drawing
    C_SUN = 5          # + factory * 5 + colour (factory 0 = large)
    C_MOON = 30        # + colour
    C_CHIP = 35        # + small factory 1..4, minus 1
    C_KEEP = 39        # + plate id
    C_UNDER = 57       # + plate id
    C_PLACE = 75       # + slot * 4 + rotation
    C_LINE = 111       # + line 0..5, or 6 for the broken-tiles area
    C_TILE = 118       # + cell (row * 6 + column)
    C_ORDER = 154      # 2 tiles: + a*5+b; 3 tiles: + 25 + a*25+b*5+c (bottom first)
    C_NOPAY = 304
    C_PAY = 305        # + sum of count[t] * 3**t over the chip types
    NCODES = 59354     # C_PAY + 3**10

cdef struct Player:
    int score
    int score_before_final      # -1 until the final scoring
    signed char line_colour[6]  # -1 when empty
    signed char line_count[6]
    signed char broken[4]       # colours on the broken-tiles spaces
    signed char nbroken
    signed char slot_plate[9]   # plate id or -1
    signed char slot_rot[9]     # quarter turns clockwise
    signed char space[36]       # per cell: colour 0-4, WILD, SPECIAL, or -1 without plate
    signed char tile[36]        # per cell: colour 0-4, SPECIAL_TILE, or -1 when empty
    signed char chips[NCHIP]    # unused chips by type
    signed char spent[NCHIP]
    signed char plates_taken    # this round (player tokens used)
    signed char chips_taken     # this round

cdef struct State:
    uint64_t rng
    Player pl[2]
    int bag[NCOL]
    int tower[NCOL]
    int chip_supply[NCHIP]
    signed char special_supply
    signed char sun[5][NCOL]    # factory 0 is the large one
    signed char lmoon[NCOL]     # the large factory's moon pool
    signed char moon[5][3]      # small factories 1..4: stack, bottom first
    signed char moon_n[5]
    signed char fchip[5]        # chip type on small factory 1..4, or -1
    signed char fchip_up[5]     # revealed
    signed char sp_on_factory
    signed char sp_holder       # -1: nobody
    signed char display[3]      # plate id or -1
    signed char stack[NPLATES]  # index 0 is the top
    signed char stack_seen[NPLATES]
    signed char nstack
    signed char objectives[4]
    signed char nobjectives
    signed char reveal_each
    signed char round
    signed char starting_player
    signed char current
    signed char pending
    signed char setup_stage     # starting plates placed so far (0-2)
    signed char hand_colour
    signed char hand_count
    signed char order_factory   # small factory whose leftovers await an order, or 0
    signed char drawn[NPLATES]
    signed char ndrawn
    signed char drawn_revealed
    signed char kept            # plate awaiting placement, or -1
    signed char tiling_line     # 0-5 during Phase 2
    EventLog* log               # where the running push records what it does, else NULL


cdef inline int cell_of(int slot, int quarter) noexcept nogil:
    """The grid cell of a slot's space (quarter: 0 TL, 1 TR, 2 BL, 3 BR)."""
    return ((slot // 3) * 2 + quarter // 2) * 6 + (slot % 3) * 2 + quarter % 2


cdef inline int special_field_unlocked(Player* pl, int cell) noexcept nogil:
    """The empty special field that a regular tile on ``cell`` unlocks (D7) by tiling the last
    other regular space of its plate, or -1 (no such field, or the plate stays open)."""
    cdef int slot = (cell // 12) * 3 + (cell % 6) // 2, q, k, special = -1
    for q in range(4):
        k = cell_of(slot, q)
        if pl.space[k] == SPECIAL:
            special = k
        elif k != cell and pl.tile[k] < 0:
            return -1
    if special < 0 or pl.tile[special] >= 0:
        return -1
    return special


cdef int gen_moves(State* s, int* out) noexcept nogil
cdef void apply_move(State* s, int code) noexcept nogil
cdef bint is_legal(State* s, int code) noexcept nogil
cdef int play_out(State* s, uint64_t* chooser) noexcept nogil
cdef void redetermine_state(State* s) noexcept nogil
cdef int fitting_cells(Player* pl, int line, int colour, int* out) noexcept nogil
cdef int run_score(Player* pl, int cell) noexcept nogil
cdef int objective_points(Player* pl, int objective) noexcept nogil


cdef class Move(_MoveBase):
    pass


cdef class Game(_GameBase):
    cdef State s
    cpdef Game copy(self)
