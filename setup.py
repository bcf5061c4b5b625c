"""Builds the Cython rules core: every ``core_ext/**/*.pyx`` becomes an extension module.

Everything else about the package is declared in pyproject.toml.
"""
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent


def core_extensions():
    for source in sorted(HERE.glob("core_ext/**/*.pyx")):
        relative = source.relative_to(HERE)
        name = ".".join(relative.with_suffix("").parts)
        yield Extension(name, [str(relative)], extra_compile_args=["-O3"])


setup(
    ext_modules=cythonize(
        list(core_extensions()),
        compiler_directives={
            "language_level": "3",
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    )
)
