"""Shared timing helper for the benchmark modules."""
import time


def rate(step, min_seconds=2.0):
    """Call ``step()`` (which returns how many units it did) until ``min_seconds`` pass; units per second."""
    units = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < min_seconds:
        units += step()
        elapsed = time.perf_counter() - start
    return units / elapsed
