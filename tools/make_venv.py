"""Creates or updates the project's venv for ``make``, fitted to the machine.

The Makefile runs this with the Python it chose (``tools/find-python``), so
it uses the standard library only. Before pip runs it checks what building
needs (a C compiler, the Python headers, the venv module) and, on a
Raspberry Pi, what the rig needs that pip cannot install (Debian's lgpio);
anything missing stops it with the exact command to run. On a Pi the venv
sees the system's packages (lgpio, gpiozero) and gets the pip extra of the
LED backend the board and the rig file call for. It never runs sudo.

    python3 tools/make_venv.py .venv [--rig FILE] [--device-tree DIR] [--service] [--dry-run]

``--service`` (``make install``) installs the project itself, not editable and
without the test tools, so the service does not depend on this checkout.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))  # the project is not installed yet: read its hardware facts from the tree

from hardware.backends import resolve_backend  # noqa: E402
from hardware.board import BUTTON_LIBRARY, LGPIO_WHEEL_PYTHONS, Machine, backend_extras  # noqa: E402
from hardware.rig import load_rig  # noqa: E402

CATALOGUES = PROJECT / "web_remote" / "translations"
COMPILE_CATALOGUES = """\
import pathlib, sys, web_remote
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
for po in pathlib.Path(sys.argv[1]).glob("*/LC_MESSAGES/messages.po"):
    mo = pathlib.Path(web_remote.__file__).parent / "translations" / po.relative_to(sys.argv[1]).with_suffix(".mo")
    mo.parent.mkdir(parents=True, exist_ok=True)
    with po.open("rb") as source, mo.open("wb") as target:
        write_mo(target, read_po(source))
"""
"""Compiles the phone page's catalogues into the service's installed copy (make build does it in the tree)."""
VERSION = sys.version_info[:2]
PYTHON_NAME = "python%d.%d" % VERSION


def missing_for_build() -> list[str]:
    """What this Python lacks to make a venv and compile the rules core, each with its command."""
    problems = []
    if importlib.util.find_spec("ensurepip") is None:
        problems.append(f"{PYTHON_NAME} cannot make a venv (no ensurepip): sudo apt install {PYTHON_NAME}-venv")
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None and shutil.which("cc") is None:
        problems.append("no C compiler (the rules core is compiled): sudo apt install build-essential")
    if not Path(sysconfig.get_paths()["include"], "Python.h").exists():
        problems.append(f"no headers for {PYTHON_NAME} (Python.h): sudo apt install {PYTHON_NAME}-dev")
    return problems


def lgpio_plan(machine: Machine) -> tuple[list[str], list[str]]:
    """On a Pi: (extras, problems) for the buttons' lgpio: the system's, PyPI's wheel, or a command to run."""
    if not machine.is_pi() or importlib.util.find_spec(BUTTON_LIBRARY[0]) is not None:
        return [], []
    if VERSION in LGPIO_WHEEL_PYTHONS:
        return ["gpio"], []
    system_python = sys.prefix == "/usr"
    fix = f"sudo apt install {BUTTON_LIBRARY[1]}" if system_python else (
        f"use the system's Python (make run PYTHON=/usr/bin/python3) after: sudo apt install {BUTTON_LIBRARY[1]}")
    return [], [f"the buttons need lgpio, which PyPI has no wheel of for Python {VERSION[0]}.{VERSION[1]}: {fix}"]


def venv_python(venv_dir: Path) -> Path:
    return venv_dir / "bin" / "python"


def site_packages(venv_dir: Path) -> Path:
    return venv_dir / "lib" / PYTHON_NAME / "site-packages"


def venv_fits(venv_dir: Path, system_site: bool) -> bool:
    """The venv runs this Python's version and sees the system's packages exactly when it should."""
    try:
        config = dict(
            line.split("=", 1) for line in (venv_dir / "pyvenv.cfg").read_text().splitlines() if "=" in line
        )
        config = {key.strip(): value.strip() for key, value in config.items()}
    except OSError:
        return False
    version = config.get("version_info", config.get("version", ""))
    sees_system = config.get("include-system-site-packages", "false").lower() == "true"
    return version.startswith("%d.%d." % VERSION) and sees_system == system_site and venv_python(venv_dir).exists()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="tools/make_venv.py", description=__doc__.splitlines()[0])
    parser.add_argument("venv", type=Path)
    parser.add_argument("--rig", help="rig file whose LED backend decides the Pi extra (default: the reference rig)")
    parser.add_argument("--device-tree", type=Path, help="device tree directory (default: /proc/device-tree)")
    parser.add_argument("--service", action="store_true", help="a service's venv: the project installed, no test tools")
    parser.add_argument("--dry-run", action="store_true", help="print the plan and the commands, run nothing")
    args = parser.parse_args(argv)

    machine = Machine(device_tree=args.device_tree)
    model = machine.model()
    try:
        backend = resolve_backend(load_rig(args.rig), os.environ, model=model)
    except ValueError as error:
        print(f"azul-table setup: {error}", file=sys.stderr)
        return 1
    gpio_extras, problems = lgpio_plan(machine)
    problems = missing_for_build() + problems
    if problems:
        print("azul-table setup: this machine needs first:", file=sys.stderr)
        for problem in problems:
            print(f"  - {problem}", file=sys.stderr)
        return 1

    extras = [*([] if args.service else ["dev"]), *backend_extras(backend, model), *gpio_extras]
    on_pi = machine.is_pi()
    print(f"azul-table setup: {model or 'not a Raspberry Pi'}, LED backend {backend}, Python {sys.version.split()[0]}, "
          f"extras {','.join(extras)}", file=sys.stderr)
    commands = []  # (extra environment, command)
    if not venv_fits(args.venv, on_pi):
        options = ["--clear"] + (["--system-site-packages"] if on_pi else [])
        commands.append(({}, [sys.executable, "-m", "venv", *options, str(args.venv)]))
    python = str(venv_python(args.venv))
    commands.append(({}, [python, "-m", "pip", "install", "--quiet", "--upgrade", "pip", "setuptools>=77"]))
    target = f"{PROJECT}[{','.join(extras)}]" if extras else str(PROJECT)
    # pip compiles what it installs one file after another; compileall then does it on every core
    install = [python, "-m", "pip", "install", "--quiet", "--no-compile"]
    if args.service:
        commands.append(({}, [*install, target]))
        commands.append(({}, [python, "-c", COMPILE_CATALOGUES, str(CATALOGUES)]))
    else:  # make build compiles the core in place next, so the editable install leaves it out (setup.py);
        # setuptools' warning about folders named like the package is about exactly this checkout, so it is muted
        commands.append(({"PYTHONWARNINGS": "ignore:Editable installation", "AZUL_TABLE_CORE_IN_PLACE": "1"},
                         [*install, "-e", target]))
    for settings, command in commands:
        run(command, settings, dry_run=args.dry_run)
    # A file that does not compile is left for Python to report if it is ever imported, as pip leaves it.
    run([python, "-m", "compileall", "-q", "-j", "0", str(site_packages(args.venv))], dry_run=args.dry_run, check=False)
    return 0


def run(command: list[str], settings: dict | None = None, *, dry_run: bool, check: bool = True):
    """Prints ``command`` (after its extra environment) and, unless ``dry_run``, runs it."""
    settings = settings or {}
    print("  " + shlex.join([*(f"{name}={value}" for name, value in settings.items()), *command]), file=sys.stderr)
    if not dry_run:
        subprocess.run(command, check=check, env={**os.environ, **settings})


if __name__ == "__main__":
    try:
        sys.exit(main())
    except subprocess.CalledProcessError as error:
        sys.exit(f"azul-table setup: {shlex.join(error.cmd)} failed (exit {error.returncode})")
