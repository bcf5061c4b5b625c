"""The whole suite as ``make test`` runs it: what is independent at once, then what needs the machine alone.

Phase 1 runs every test not marked ``serial`` on pytest-xdist workers (``AZUL_TEST_WORKERS``,
default twice the cores: most browser and server tests wait rather than compute).
Phase 2 runs the ``serial`` tests one at a time with nothing else running, so the figures they
measure (floods, held bodies, think times) stay honest.

The arguments go to both phases, so ``make test PYTEST_ARGS=tests/web/test_api.py`` runs one
file as before; a marker expression (``-m "not browser"``) narrows both. A phase that finds no test of its kind is not a failure; both finding none is.
"""
import os
import subprocess
import sys
import time

NO_TESTS = 5  # pytest's exit code when it collected nothing
ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
"""Bytecode may be kept: each worker, and each table a test starts, then reuses the compiled modules and
pytest's rewritten test files instead of compiling them again."""


def default_workers():
    return int(os.environ.get("AZUL_TEST_WORKERS") or 2 * (os.cpu_count() or 1))


def phase(name, arguments):
    """Runs pytest with ``arguments``; its exit code and wall time."""
    print(f"--- {name}: pytest {' '.join(arguments)}", flush=True)
    started = time.monotonic()
    code = subprocess.call([sys.executable, "-m", "pytest", *arguments], env=ENVIRONMENT)
    took = time.monotonic() - started
    print(f"--- {name}: exit {code} after {took:.0f} s", flush=True)
    return code, took


def split_marker_expression(arguments):
    """``(expression or None, the other arguments)``: a ``-m EXPR`` given is combined with each phase's own."""
    rest, expression = [], None
    items = iter(arguments)
    for item in items:
        if item == "-m":
            expression = next(items, None)
        elif item.startswith("-m="):
            expression = item[3:]
        else:
            rest.append(item)
    return expression, rest


def main(arguments):
    expression, rest = split_marker_expression(arguments)
    chosen = f"({expression}) and " if expression else ""
    workers = default_workers()
    parallel = ["-n", str(workers), "--dist", "worksteal"] if workers > 1 else []
    results = [phase("at once", [*parallel, "-m", f"{chosen}not serial", *rest]),
               phase("alone", ["-m", f"{chosen}serial", *rest])]
    codes = [code for code, _ in results]
    print(f"--- whole suite: {sum(took for _, took in results):.0f} s", flush=True)
    if all(code == NO_TESTS for code in codes):
        print("error: pytest collected no tests", file=sys.stderr)
        return 1
    failed = [code for code in codes if code not in (0, NO_TESTS)]
    return failed[0] if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
