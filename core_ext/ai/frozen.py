"""The computer players of an earlier revision, rebuilt from git, to measure a change against them.

``load("e8aa901")`` takes ``core_ext/ai``'s ``__init__.py`` and compiled knowledge and search
of that commit (``git show``), renames the package so it lives beside today's, compiles it
against today's rules cores into a cache directory, and imports it. A build is kept per commit
and per version of the cores' C declarations (``core_ext/*.pxd``): code compiled against other
declarations would not fit the cores as they are compiled now. The match script's
``frozen:REV:LEVEL`` players use it: "today's hard level" stays a fixed yardstick however the
search changes later.
"""
import fcntl
import hashlib
import importlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from core_ext import compile_options

ROOT = Path(__file__).resolve().parents[2]
FILES = ("__init__.py", "_duel_knowledge.pyx", "_pavilion_knowledge.pyx", "_search.pyx")


def cache_directory():
    """Where frozen builds are kept (``$XDG_CACHE_HOME/azul-table/frozen-ai``)."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "azul-table" / "frozen-ai"


def cores_fingerprint(folder=ROOT / "core_ext"):
    """A short hash of the rules cores' C declarations (the ``.pxd`` files in ``folder``)."""
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.pxd")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def _commit(revision):
    """The full commit id of ``revision``, with a clear error for an unknown one."""
    if not re.fullmatch(r"[0-9A-Za-z._/~^-]+", revision):
        raise ValueError(f"not a git revision: {revision!r}")
    if shutil.which("git") is None:
        raise ValueError("frozen players are rebuilt from git, which is not installed here")
    found = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"], cwd=ROOT,
                           capture_output=True, text=True)
    if found.returncode != 0:
        raise ValueError(f"no commit {revision!r} in {ROOT}")
    return found.stdout.strip()


def load(revision):
    """The ``core_ext.ai`` package of ``revision`` as a module (built once, then taken from the cache)."""
    commit = _commit(revision)
    package = f"frozen_ai_{commit[:12]}"
    home = cache_directory() / f"{package}_{cores_fingerprint()}"
    if package in sys.modules:
        return sys.modules[package]
    if not (home / "built").exists():
        home.parent.mkdir(parents=True, exist_ok=True)
        # One build at a time: processes that want the same revision (a match's jobs, a second match)
        # wait for the first build and then take it.
        with open(home.parent / f"{home.name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (home / "built").exists():
                _build(commit, package, home)
    if str(home) not in sys.path:
        sys.path.insert(0, str(home))
    return importlib.import_module(package)


def _build(commit, package, home):
    source = home / package
    source.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        text = subprocess.run(["git", "show", f"{commit}:core_ext/ai/{name}"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout
        (source / name).write_text(text.replace("core_ext.ai", package))
    jobs = os.cpu_count() or 1  # as setup.py builds the core: side by side, with the same options
    script = (
        "from Cython.Build import cythonize\n"
        "from setuptools import Extension, setup\n"
        f"names = {[name[:-4] for name in FILES if name.endswith('.pyx')]!r}\n"
        f"extensions = [Extension(f'{package}.{{n}}', [f'{package}/{{n}}.pyx'],"
        f" extra_compile_args={compile_options.EXTRA_COMPILE_ARGS!r}) for n in names]\n"
        f"setup(script_args=['build_ext', '--inplace', '-j', '{jobs}'], ext_modules=cythonize(extensions, nthreads={jobs},"
        f" include_path=[{str(ROOT)!r}], compiler_directives={compile_options.DIRECTIVES!r}, quiet=True))\n"
    )
    subprocess.run([sys.executable, "-c", script], cwd=home, check=True, capture_output=True)
    (home / "built").write_text(commit + "\n")
