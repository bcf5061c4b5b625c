# The Python face both games' ``Game`` classes share, written once over the few hooks
# through which each game reaches its own C state.
from libc.stdint cimport uint64_t

from core_ext._events cimport EventLog

cdef enum:
    MOST_OPTIONS = 1100  # the most options any game's decision has (Azul Duel's MAX_OPTIONS)


cdef class Game:
    cdef int _options(self, int* out) noexcept
    cdef bint _is_legal(self, int code) noexcept
    cdef object _move(self, int code)
    cdef void _apply(self, int code, EventLog* log) noexcept
    cdef int _pending_index(self) noexcept
    cdef void _play_out(self, uint64_t* chooser) noexcept nogil
    cdef void _read(self, reader) except *
