# The C level of core_ext.pavilion, for search code that cimports it: the flat game
# state, the move-code ranges, the board tables, and the nogil functions that
# generate, play and score moves.
from libc.stdint cimport uint64_t

from core_ext._events cimport EventLog
from core_ext._game cimport Game as _GameBase
from core_ext._move cimport Move as _MoveBase

cdef enum:
    NCOL = 6
    NSTAR = 7
    NSPACE = 42
    NSTRUCT = 18
    MAX_PLAYERS = 4
    MAX_FACTORIES = 9
    TILES_PER_COLOUR = 22
    SUPPLY_SPACES = 10
    FACTORY_TILES = 4
    CORNERS = 4
    START_SCORE = 5
    FINAL_ROUND = 6
    MAX_OPTIONS = 256

cdef enum Pending:
    P_DRAFT, P_PLACE, P_PAY, P_BONUS, P_KEEP, P_OVER

# Move codes: one contiguous range per kind.
cdef enum:
    C_TAKE = 0         # + source * 6 + colour; source 0-8 factory, 9 the centre
    CENTRE_SOURCE = 9
    C_PLACE = 60       # + (star * 6 + ring position) * 6 + colour
    C_PASS = 312
    C_PAY = 313        # + wild tiles paid in place of the placed colour (0-5)
    C_BONUS = 319      # + colour
    C_KEEP = 325       # + colour
    C_DISCARD = 331    # keep nothing more: the rest of the hand goes to the tower
    NCODES = 332

cdef struct Player:
    int score
    int score_before_final      # -1 until the final scoring
    int leftover                # tiles lost at the final scoring
    signed char hand[NCOL]
    signed char corner[NCOL]    # tiles kept on the corner spaces when passing
    signed char board[NSTAR][6] # colour per ring position, -1 when empty
    signed char passed

cdef struct State:
    EventLog* log               # where the running push records what it does, else NULL
    uint64_t rng
    Player pl[MAX_PLAYERS]
    int bag[NCOL]
    int tower[NCOL]
    signed char supply[NCOL]
    signed char factory[MAX_FACTORIES][NCOL]
    signed char centre[NCOL]
    signed char nplayers
    signed char nfactories
    signed char mono            # monochrome side
    signed char round
    signed char start_player    # who started this round's Phase 1
    signed char token_holder    # -1: the start player token is in the centre
    signed char current
    signed char pending
    signed char place_star      # the space and colour awaiting payment
    signed char place_pos
    signed char place_colour
    signed char bonus_owed

cdef signed char STAR_COLOUR[NSTAR]
cdef int COLOUR_STAR_BONUS[NCOL]
cdef int CENTRE_STAR_BONUS
cdef signed char COST[2][NSTAR][6]
cdef signed char STRUCT_SPACE[NSTRUCT][4]
cdef signed char STRUCT_NSPACES[NSTRUCT]
cdef signed char STRUCT_BONUS[NSTRUCT]
cdef signed char SPACE_STRUCT[NSPACE][2]
cdef signed char SPACE_NSTRUCTS[NSPACE]
cdef int NUMBER_BONUS[5]


cdef int ring_run(signed char* star, int pos) noexcept nogil
cdef int completed_bonus(Player* pl, int space) noexcept nogil
cdef int star_bonus(signed char* star) noexcept nogil
cdef int allowed_colours(State* s, Player* pl, int star) noexcept nogil
cdef int gen_moves(State* s, int* out) noexcept nogil
cdef void apply_move(State* s, int code) noexcept nogil
cdef void settle(State* s) noexcept nogil


cdef class Move(_MoveBase):
    pass


cdef class Game(_GameBase):
    cdef State s
    cpdef Game copy(self)
