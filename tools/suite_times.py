"""Where the suite's time goes: each file's test durations, set-up apart, or the CPU its tests took.

    tools/suite_times.py LOG [--top N]
    tools/suite_times.py --cpu FILE [--top N]

LOG is the output of a run with ``--durations=0`` (``make test PYTEST_ARGS=--durations=0 | tee LOG``
gives it for both phases). Prints the files by their total time, each with its set-up, call and
teardown seconds and its slowest test, then the N slowest tests. Under xdist the times are each
worker's own, so their sum exceeds the wall time by about the number of workers.

FILE is what ``--cpu-times FILE`` wrote (tests/cpu_times.py: ``rm -f cpu.tsv; AZUL_TEST_WORKERS=1 make test
PYTEST_ARGS=--cpu-times=cpu.tsv`` on an idle machine). On the workers the run is bound by the cores, so the
CPU a file's tests take, browsers and tables included, is what they cost it.
"""
import argparse
import re
import sys
from collections import Counter, defaultdict

LINE = re.compile(r"^(\d+(?:\.\d+)?)s (setup|call|teardown)\s+(\S+)")


def read_durations(lines):
    """``{(nodeid, phase): seconds}`` from pytest's slowest-durations lines."""
    times = defaultdict(float)
    for line in lines:
        found = LINE.match(line.strip())
        if found:
            seconds, phase, nodeid = found.groups()
            times[nodeid, phase] += float(seconds)
    return times


def file_of(nodeid):
    return nodeid.split("::")[0]


def grouped(times, group=file_of):
    """``{group: {measure: seconds}}`` from ``{(nodeid, measure): seconds}``: by file, unless ``group`` says otherwise."""
    groups = defaultdict(lambda: defaultdict(float))
    for (nodeid, measure), seconds in times.items():
        groups[group(nodeid)][measure] += seconds
    return groups


def by_test(times):
    """``{nodeid: {measure: seconds}}``."""
    return grouped(times, lambda nodeid: nodeid)


def report(times, top):
    files = grouped(times)
    tests = by_test(times)
    total = sum(times.values())
    lines = [f"{'file':<52} {'total':>8} {'setup':>8} {'call':>8} {'teardown':>8}"]
    for name, phases in sorted(files.items(), key=lambda item: -sum(item[1].values())):
        lines.append(f"{name:<52} {sum(phases.values()):8.1f} {phases['setup']:8.1f} {phases['call']:8.1f} "
                     f"{phases['teardown']:8.1f}")
    setup = sum(seconds for (_, phase), seconds in times.items() if phase == "setup")
    lines.append(f"{'all ' + str(len(files)) + ' files':<52} {total:8.1f} {setup:8.1f}")
    lines.append("")
    lines.append(f"the {top} slowest tests (set-up, call and teardown together):")
    for nodeid, phases in sorted(tests.items(), key=lambda item: -sum(item[1].values()))[:top]:
        lines.append(f"{sum(phases.values()):8.1f} s  {nodeid}")
    return "\n".join(lines)


def read_cpu_times(lines):
    """``{(nodeid, "wall" | "cpu"): seconds}`` from the lines ``--cpu-times`` wrote; a test run more than once
    under one id (schemathesis runs each API operation so) sums its runs."""
    times = defaultdict(float)
    for line in lines:
        nodeid, wall, cpu = line.rstrip("\n").rsplit("\t", 2)
        times[nodeid, "wall"] += float(wall)
        times[nodeid, "cpu"] += float(cpu)
    return times


def cpu_report(times, top):
    files = grouped(times)
    tests = by_test(times)
    counts = Counter(file_of(nodeid) for nodeid in tests)
    wall = sum(seconds for (_, measure), seconds in times.items() if measure == "wall")
    cpu = sum(seconds for (_, measure), seconds in times.items() if measure == "cpu")
    lines = [f"{'file':<52} {'CPU s':>8} {'share':>6} {'wall s':>8} {'tests':>6}"]
    for name, spent in sorted(files.items(), key=lambda item: -item[1]["cpu"]):
        lines.append(f"{name:<52} {spent['cpu']:8.1f} {spent['cpu'] / cpu:6.1%} {spent['wall']:8.1f} {counts[name]:6d}")
    lines.append(f"{'all ' + str(len(files)) + ' files':<52} {cpu:8.1f} {'':>6} {wall:8.1f} {len(tests):6d}"
                 f"  ({cpu / wall:.2f} cores busy on average)")
    lines.append("")
    lines.append(f"the {top} tests that took the most CPU (CPU s, wall s):")
    for nodeid, spent in sorted(tests.items(), key=lambda item: -item[1]["cpu"])[:top]:
        lines.append(f"{spent['cpu']:8.1f} {spent['wall']:8.1f}  {nodeid}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", type=argparse.FileType("r"), nargs="?", help="a pytest run's output with --durations=0")
    parser.add_argument("--cpu", type=argparse.FileType("r"), metavar="FILE", help="what --cpu-times FILE wrote")
    parser.add_argument("--top", type=int, default=10, help="how many of the slowest tests to list")
    options = parser.parse_args(argv)
    if (options.log is None) == (options.cpu is None):
        parser.error("give either a run's output with --durations=0 or --cpu FILE")
    if options.cpu is not None:
        times = read_cpu_times(options.cpu)
        if not times:
            parser.error("no tests in that file: run pytest with --cpu-times FILE")
        print(cpu_report(times, options.top))
        return 0
    times = read_durations(options.log)
    if not times:
        parser.error("no durations in that output: run pytest with --durations=0")
    print(report(times, options.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
