"""make test's runner: the tests on workers, then the serial ones alone, and a verdict that counts both."""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT / "tools"))
import run_tests  # noqa: E402

from tests.long_first import LongFirst  # noqa: E402

SUITE = {
    "pytest.ini": """\
        [pytest]
        markers =
            serial: alone
        """,
    "test_sample.py": """\
        import os
        import pytest

        def test_at_once():
            assert os.environ.get("PYTEST_XDIST_WORKER", "").startswith("gw")

        @pytest.mark.serial
        def test_alone():
            assert "PYTEST_XDIST_WORKER" not in os.environ

        def test_chosen_by_name():
            assert os.environ.get("FAIL_ME") != "yes"
        """,
}


@pytest.mark.parametrize("arguments, expression, rest", [
    ([], None, []),
    (["tests/web/test_api.py", "-x"], None, ["tests/web/test_api.py", "-x"]),
    (["-m", "not browser", "-k", "api"], "not browser", ["-k", "api"]),
    (["-m=browser", "tests"], "browser", ["tests"]),
])
def test_a_marker_expression_given_is_taken_apart_from_the_other_arguments(arguments, expression, rest):
    assert run_tests.split_marker_expression(arguments) == (expression, rest)


# The environment of a shell, without what this test's own pytest and its worker set for themselves.
OUTSIDE_PYTEST = {name: value for name, value in os.environ.items() if not name.startswith("PYTEST_")}


def run(tmp_path, *arguments, **environment):
    for name, text in SUITE.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    lean = ["-p", "no:cacheprovider", "--disable-plugin-autoload", "-p", "xdist"]  # the project's other plugins not needed
    return subprocess.run([sys.executable, str(PROJECT / "tools" / "run_tests.py"), *lean, *arguments],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={**OUTSIDE_PYTEST, "AZUL_TEST_WORKERS": "2", **environment})


def test_the_tests_run_on_workers_and_the_serial_ones_alone_after_them(tmp_path):
    done = run(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout and "1 passed, 2 deselected" in done.stdout


def test_a_failure_fails_the_run(tmp_path):
    assert run(tmp_path, FAIL_ME="yes").returncode == 1


def test_a_phase_with_nothing_of_its_kind_passes_and_nothing_at_all_fails(tmp_path):
    assert run(tmp_path, "-k", "at_once").returncode == 0
    nothing = run(tmp_path, "-k", "no_such_test")
    assert nothing.returncode == 1 and "collected no tests" in nothing.stderr


class Item:
    """A collected test as :class:`LongFirst` sees it: its name and whether it is marked ``long``."""

    def __init__(self, name, long=False):
        self.name, self.long = name, long

    def get_closest_marker(self, name):
        return pytest.mark.long.mark if name == "long" and self.long else None


def first_blocks(count, workers):
    """Where the blocks pytest-xdist's worksteal gives each worker at the start begin: even shares of the rest."""
    starts, given = [], 0
    for worker in range(workers):
        starts.append(given)
        given += (count - given) // (workers - worker)
    return starts


def test_the_long_tests_open_the_blocks_the_workers_start_with(monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "4")
    long = {5, 40, 41, 90, 99}
    items = [Item(f"t{n}", n in long) for n in range(101)]
    LongFirst().pytest_collection_modifyitems(items)
    names = [item.name for item in items]
    assert sorted(names) == sorted(f"t{n}" for n in range(101))
    assert [names[start] for start in first_blocks(101, 4)] == ["t5", "t40", "t41", "t90"]
    assert names[1] == "t99"  # one more long test than workers: second in the first block
    others = [name for name in names if int(name[1:]) not in long]
    assert others == [f"t{n}" for n in range(101) if n not in long]


def test_without_workers_the_order_is_the_files(monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_WORKER_COUNT", raising=False)
    items = [Item(f"t{n}", n == 7) for n in range(20)]
    LongFirst().pytest_collection_modifyitems(items)
    assert [item.name for item in items] == [f"t{n}" for n in range(20)]
