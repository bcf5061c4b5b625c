"""Where the suite's time goes: pytest's per-test durations summed by file, set-up apart from the test.

    tools/suite_times.py LOG [--top N]

LOG is the output of a run with ``--durations=0`` (``make test PYTEST_ARGS=--durations=0 | tee LOG``
gives it for both phases). Prints the files by their total time, each with its set-up, call and
teardown seconds and its slowest test, then the N slowest tests. Under xdist the times are each
worker's own, so their sum exceeds the wall time by about the number of workers.
"""
import argparse
import re
import sys
from collections import defaultdict

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


def by_file(times):
    """``{file: {"setup": s, "call": s, "teardown": s}}``."""
    files = defaultdict(lambda: defaultdict(float))
    for (nodeid, phase), seconds in times.items():
        files[nodeid.split("::")[0]][phase] += seconds
    return files


def report(times, top):
    files = by_file(times)
    tests = defaultdict(float)
    for (nodeid, _), seconds in times.items():
        tests[nodeid] += seconds
    total = sum(times.values())
    lines = [f"{'file':<52} {'total':>8} {'setup':>8} {'call':>8} {'teardown':>8}"]
    for name, phases in sorted(files.items(), key=lambda item: -sum(item[1].values())):
        lines.append(f"{name:<52} {sum(phases.values()):8.1f} {phases['setup']:8.1f} {phases['call']:8.1f} "
                     f"{phases['teardown']:8.1f}")
    setup = sum(seconds for (_, phase), seconds in times.items() if phase == "setup")
    lines.append(f"{'all ' + str(len(files)) + ' files':<52} {total:8.1f} {setup:8.1f}")
    lines.append("")
    lines.append(f"the {top} slowest tests (set-up, call and teardown together):")
    for nodeid, seconds in sorted(tests.items(), key=lambda item: -item[1])[:top]:
        lines.append(f"{seconds:8.1f} s  {nodeid}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", type=argparse.FileType("r"), help="a pytest run's output with --durations=0")
    parser.add_argument("--top", type=int, default=10, help="how many of the slowest tests to list")
    options = parser.parse_args(argv)
    times = read_durations(options.log)
    if not times:
        parser.error("no durations in that output: run pytest with --durations=0")
    print(report(times, options.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
