cdef class Move:
    cdef readonly int code
