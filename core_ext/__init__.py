"""The rules core of azul-table: Azul Duel and Azul: Summer Pavilion, compiled with Cython.

Pure rules: no I/O, no threads, no clock. ``COMPILED`` is True when the core's
modules were loaded from compiled extensions (the only build the project
ships: the games are written in Cython proper, with C data for the state).
"""
from importlib.machinery import EXTENSION_SUFFIXES

from core_ext import _shared

COMPILED = _shared.__file__.endswith(tuple(EXTENSION_SUFFIXES))
