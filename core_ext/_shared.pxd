# Machinery shared by both games, inlined into each compiled game module:
# the seeded random generator, the bag-and-tower tile draw, and the pick of a best option.
from libc.stdint cimport uint64_t


cdef inline uint64_t rng_next(uint64_t* state) noexcept nogil:
    """splitmix64: one 64-bit word of state, so it serializes as one number."""
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline int rng_below(uint64_t* state, int n) noexcept nogil:
    """A uniform integer in [0, n); n must be positive."""
    return <int>(rng_next(state) % <uint64_t>n)


cdef inline int bag_draw(int* bag, int* tower, int ncolours, uint64_t* rng) noexcept nogil:
    """Draw one tile uniformly from the bag; an empty bag is first refilled
    with every tile in the tower. Returns the colour, or -1 when both are empty."""
    cdef int total = 0
    cdef int c
    for c in range(ncolours):
        total += bag[c]
    if total == 0:
        for c in range(ncolours):
            bag[c] = tower[c]
            total += tower[c]
            tower[c] = 0
        if total == 0:
            return -1
    cdef int r = rng_below(rng, total)
    for c in range(ncolours):
        if r < bag[c]:
            bag[c] -= 1
            return c
        r -= bag[c]
    return -1


cdef inline int best_index(double* scores, int n, uint64_t* rng) noexcept nogil:
    """The index of the highest of ``n`` scores, ties (within 1e-9) broken at random."""
    cdef int i, best = 0, ties = 1
    cdef double top = -1e300
    for i in range(n):
        if scores[i] > top + 1e-9:
            top = scores[i]
            best = i
            ties = 1
        elif scores[i] > top - 1e-9:
            ties += 1
            if rng_below(rng, ties) == 0:
                best = i
    return best
