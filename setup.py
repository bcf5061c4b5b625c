"""Builds the Cython rules core: every ``core_ext/**/*.pyx`` becomes an extension module.

Everything else about the package is declared in pyproject.toml. The editable
install of ``make`` sets AZUL_TABLE_CORE_IN_PLACE=1: ``make build`` compiles the
core in place right after, so the install leaves it out and set-up compiles it
once (on a Pi that halves the set-up time).
"""
import os
import runpy
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent
OPTIONS = runpy.run_path(str(HERE / "core_ext" / "compile_options.py"))


def core_extensions():
    """The largest module first: ``build_ext -j`` compiles in this order, so the longest compile is not the last
    one left."""
    for source in sorted(HERE.glob("core_ext/**/*.pyx"), key=lambda path: (-path.stat().st_size, path)):
        relative = source.relative_to(HERE)
        name = ".".join(relative.with_suffix("").parts)
        yield Extension(name, [str(relative)], extra_compile_args=OPTIONS["EXTRA_COMPILE_ARGS"])


def compiled_core():
    if os.environ.get("AZUL_TABLE_CORE_IN_PLACE") == "1":
        return []
    return cythonize(
        list(core_extensions()),
        nthreads=os.cpu_count() or 1,  # the modules are translated to C side by side, then compiled so (make's -j)
        compiler_directives=OPTIONS["DIRECTIVES"],
    )


setup(ext_modules=compiled_core())
