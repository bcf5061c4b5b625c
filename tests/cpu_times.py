"""``--cpu-times FILE``: the machine's CPU time during each test, to find where a run's CPU goes.

On ``make test``'s workers the suite is bound by the cores, so what a test costs the run is the CPU it takes,
in its own process and in the tables, servers and browsers it starts, rather than its wall time. That is the
machine's busy time while the test runs (from ``/proc/stat``), which is the test's own only when nothing else
runs: the option refuses pytest-xdist's workers, and the machine should be otherwise idle. Each test appends a
line to FILE: its node id, wall seconds and CPU seconds, separated by tabs; ``tools/suite_times.py --cpu FILE``
sums them file by file.
"""
import os
import time

import pytest

STAT = "/proc/stat"
BUSY_FIELDS = (0, 1, 2, 5, 6)
"""Of the machine's line in /proc/stat: user, nice, system, irq and softirq (idle, iowait and the time a
hypervisor gave to other machines are not this machine's work)."""


def add_option(parser):
    parser.addoption("--cpu-times", metavar="FILE", help="append each test's wall and machine CPU seconds to FILE "
                     "(one process, an otherwise idle machine; tools/suite_times.py --cpu FILE sums them)")


def configure(config):
    path = config.getoption("cpu_times")
    if not path:
        return
    if config.getoption("numprocesses", None) or os.environ.get("PYTEST_XDIST_WORKER"):
        raise pytest.UsageError("--cpu-times counts the whole machine's CPU during each test, so it runs in one "
                                "process: AZUL_TEST_WORKERS=1 make test, or pytest without -n")
    if not os.path.exists(STAT):
        raise pytest.UsageError(f"--cpu-times reads the machine's CPU time from {STAT}, which this system lacks")
    config.pluginmanager.register(CpuTimes(path), "cpu-times")


def machine_busy_seconds() -> float:
    with open(STAT) as stat:
        fields = stat.readline().split()[1:]
    return sum(int(fields[index]) for index in BUSY_FIELDS) / os.sysconf("SC_CLK_TCK")


class CpuTimes:
    """Times each test from its set-up to its teardown, both ways."""

    def __init__(self, path):
        self.path = path

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item):
        started, busy = time.monotonic(), machine_busy_seconds()
        yield
        with open(self.path, "a") as out:
            out.write(f"{item.nodeid}\t{time.monotonic() - started:.3f}\t{machine_busy_seconds() - busy:.3f}\n")
