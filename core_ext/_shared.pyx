"""Python-visible entry points to the shared machinery (seeding, and checks in tests)."""
import os

from libc.stdint cimport uint64_t

from core_ext._shared cimport bag_draw, rng_below, rng_next

MASK64 = (1 << 64) - 1


def seed_state(seed=None):
    """The generator state for ``seed``: an int of any size, or None for a fresh random seed."""
    if seed is None:
        return int.from_bytes(os.urandom(8), "little")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
    state = seed & MASK64
    seed >>= 64
    while seed > 0:
        state = (state * 0x9E3779B97F4A7C15 + (seed & MASK64)) & MASK64
        seed >>= 64
    return state


def random_sequence(uint64_t state, int n, int bound):
    """``n`` draws below ``bound`` from ``state`` and the state after them."""
    out = [rng_below(&state, bound) for _ in range(n)]
    return out, state


def drain_bag(list bag_counts, list tower_counts, uint64_t state, int draws):
    """Colours of ``draws`` bag draws (with the tower refill), and the counts after them."""
    cdef int bag[8]
    cdef int tower[8]
    cdef int n = len(bag_counts)
    if n > 8 or len(tower_counts) != n:
        raise ValueError("at most 8 colours, with bag and tower the same length")
    for i in range(n):
        bag[i] = bag_counts[i]
        tower[i] = tower_counts[i]
    drawn = [bag_draw(bag, tower, n, &state) for _ in range(draws)]
    return drawn, [bag[i] for i in range(n)], [tower[i] for i in range(n)], state
