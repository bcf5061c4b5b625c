"""How the project's Cython modules are compiled, in one place.

``setup.py`` compiles the rules core with these options, and ``core_ext.ai.frozen`` an earlier revision's
computer players, so that a frozen player runs as fast as it did at the table. ``setup.py`` reads this file
by its path (the package itself cannot be imported before its core is built), so it imports nothing.
"""
EXTRA_COMPILE_ARGS = ["-O3", "-g0"]
"""Optimised, and without debugging symbols, which cost a third of the compile and nothing at the table."""

DIRECTIVES = {
    "language_level": "3",
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
}
"""Cython's directives: no bounds, negative-index, division or memoryview checks in the compiled loops."""
