"""The test suite's time: the README's test command on N workers, its count and slowest tests.

Run from the repository root: ``python bench/bench_tests.py`` (``--workers 2`` by default;
``--compare DIR`` runs another checkout's suite afterwards, e.g. the main branch, for a
before and after on the same machine). Each run is
``python -m pytest -q -p no:cacheprovider -n WORKERS --durations=20`` in the checkout, as a
child process; prints the tests passed and skipped, the wall time, the CPU time of the run
and of every process it waited for (workers, commands the tests ran, the browser), and the
20 slowest test phases pytest reports. The machine's load average is printed beside, as the
wall time depends on it. A benchmark, never a test.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SLOW = re.compile(r"^\s*([\d.]+)s (setup|call|teardown)\s+(.+?)\s*$")  # ids may hold spaces
COUNTS = re.compile(r"(\d+) (passed|skipped|failed|errors?)")


def run(checkout: Path, workers: int) -> None:
    """One run of the suite in ``checkout``; prints its figures."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    command += ["-n", str(workers), "--durations=20"]
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=checkout, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = done.stdout.splitlines()
    counts = {kind: int(n) for n, kind in COUNTS.findall(lines[-1] if lines else "")}
    print(f"{checkout}: exit {done.returncode}, load average {load:.1f} at the start")
    print(
        f"  {counts.get('passed', 0)} passed, {counts.get('skipped', 0)} skipped, "
        f"{counts.get('failed', 0)} failed; wall {wall:.0f} s, CPU {cpu:.0f} s "
        f"({workers} workers)"
    )
    print("  slowest 20:")
    for line in lines:
        found = SLOW.match(line)
        if found:
            print(f"  {float(found.group(1)):7.2f} s  {found.group(2):8}  {found.group(3)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--compare", type=Path, help="another checkout, run after this one")
    args = parser.parse_args()
    run(ROOT, args.workers)
    if args.compare is not None:
        run(args.compare.resolve(), args.workers)


if __name__ == "__main__":
    main()
