"""Where a run's CPU goes: ``--cpu-times`` (tests/cpu_times.py) writes each test's wall and CPU seconds, and
``tools/suite_times.py --cpu`` sums them file by file."""
import os
import subprocess
import sys

import pytest

from tests.setup.conftest import PROJECT

SUITE_TIMES = PROJECT / "tools" / "suite_times.py"
CONFTEST = """from tests import cpu_times

def pytest_addoption(parser):
    cpu_times.add_option(parser)

def pytest_configure(config):
    cpu_times.configure(config)
"""
TESTS = """import subprocess, sys, time

SPIN = "import time\\nuntil = time.process_time() + 0.5\\nwhile time.process_time() < until: pass"

def test_computing():  # in a process of its own, as a browser or a table computes
    subprocess.run([sys.executable, "-c", SPIN], check=True)

def test_waiting():
    time.sleep(0.5)
"""


def run_pytest(folder, *options):
    (folder / "conftest.py").write_text(CONFTEST)
    (folder / "test_two.py").write_text(TESTS)
    # a pytest run of its own: none of this run's worker variables
    environment = {name: value for name, value in os.environ.items() if not name.startswith("PYTEST_XDIST")}
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT), os.environ.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *options], cwd=folder,
                          capture_output=True, text=True, env=environment)


@pytest.mark.serial  # the machine's CPU is the test's only while nothing else runs
def test_each_test_gets_a_line_with_its_wall_and_cpu_seconds(tmp_path):
    result = run_pytest(tmp_path, "--cpu-times", "cpu.tsv")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = [line.split("\t") for line in (tmp_path / "cpu.tsv").read_text().splitlines()]
    times = {nodeid: (float(wall), float(cpu)) for nodeid, wall, cpu in lines}
    assert sorted(times) == ["test_two.py::test_computing", "test_two.py::test_waiting"]
    computing, waiting = times["test_two.py::test_computing"], times["test_two.py::test_waiting"]
    assert computing[0] >= 0.5 and computing[1] >= 0.4, computing
    assert waiting[0] >= 0.5 and waiting[1] < 0.25, waiting
    run_pytest(tmp_path, "--cpu-times", "cpu.tsv")  # a second run (make test's second phase) adds its lines
    assert len((tmp_path / "cpu.tsv").read_text().splitlines()) == 4


def test_the_cpu_times_refuse_workers_with_the_reason(tmp_path):
    result = run_pytest(tmp_path, "--cpu-times", "cpu.tsv", "-n", "2")
    assert result.returncode == pytest.ExitCode.USAGE_ERROR
    assert "--cpu-times counts the whole machine's CPU during each test, so it runs in one process" in result.stderr
    assert not (tmp_path / "cpu.tsv").exists()


def test_the_files_are_listed_by_the_cpu_their_tests_took(tmp_path):
    times = tmp_path / "cpu.tsv"
    times.write_text("tests/web/test_a.py::test_game[chromium]\t30.0\t40.0\n"
                     "tests/core/test_b.py::test_rules\t4.0\t4.0\n"
                     "tests/web/test_a.py::test_page[chromium]\t10.0\t10.0\n"
                     "tests/core/test_b.py::test_rules\t6.0\t6.0\n")  # one id run twice (as schemathesis runs)
    result = subprocess.run([sys.executable, str(SUITE_TIMES), "--cpu", str(times), "--top", "2"],
                            capture_output=True, text=True, check=True)
    lines = result.stdout.splitlines()
    assert lines[1].split() == ["tests/web/test_a.py", "50.0", "83.3%", "40.0", "2"]
    assert lines[2].split() == ["tests/core/test_b.py", "10.0", "16.7%", "10.0", "1"]
    assert lines[3].startswith("all 2 files") and "60.0" in lines[3] and "(1.20 cores busy on average)" in lines[3]
    assert lines[-2:] == ["    40.0     30.0  tests/web/test_a.py::test_game[chromium]",
                          "    10.0     10.0  tests/core/test_b.py::test_rules"]


def test_the_files_are_listed_by_their_tests_durations_set_up_apart(tmp_path):
    log = tmp_path / "run.log"
    log.write_text("============ slowest durations ============\n"
                   "1.50s call     tests/core/test_a.py::test_one\n"
                   "0.50s setup    tests/core/test_a.py::test_one\n"
                   "3.00s call     tests/web/test_b.py::test_two[chromium]\n"
                   "0.25s teardown tests/core/test_a.py::test_three\n"
                   "(12 durations < 0.005s hidden.)\n")
    result = subprocess.run([sys.executable, str(SUITE_TIMES), str(log), "--top", "2"],
                            capture_output=True, text=True, check=True)
    lines = result.stdout.splitlines()
    assert lines[1].split() == ["tests/web/test_b.py", "3.0", "0.0", "3.0", "0.0"]
    assert lines[2].split() == ["tests/core/test_a.py", "2.2", "0.5", "1.5", "0.2"]
    assert lines[3].split() == ["all", "2", "files", "5.2", "0.5"]
    assert lines[-2:] == ["     3.0 s  tests/web/test_b.py::test_two[chromium]", "     2.0 s  tests/core/test_a.py::test_one"]


def test_suite_times_wants_one_kind_of_input(tmp_path):
    result = subprocess.run([sys.executable, str(SUITE_TIMES)], capture_output=True, text=True)
    assert result.returncode == 2 and "give either a run's output with --durations=0 or --cpu FILE" in result.stderr
