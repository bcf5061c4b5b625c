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
