"""The test suite's time: the README's test command on N workers, its count and slowest tests.

Run from the repository root: ``python bench/bench_tests.py`` (``--workers 2`` by default;
``--compare DIR`` runs another checkout's suite afterwards, e.g. the main branch, for a
before and after on the same machine). Each run is
``python -m pytest -q -p no:cacheprovider -n WORKERS --durations=20`` in the checkout, as a
child process; prints the tests passed and skipped, the wall time, the CPU time of the run
and of every process it started (workers, commands the tests ran, the browser and its
renderers: this script takes in the processes whose parent ended first), and the
20 slowest test phases pytest reports. The machine's load average is printed beside, as the
wall time depends on it. A benchmark, never a test.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import re
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h
SLOW = re.compile(r"^\s*([\d.]+)s (setup|call|teardown)\s+(.+?)\s*$")  # ids may hold spaces
COUNTS = re.compile(r"(\d+) (passed|skipped|failed|errors?)")


def run(checkout: Path, workers: int) -> None:
    """One run of the suite in ``checkout``; prints its figures."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    command += ["-n", str(workers), "--durations=20"]
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with subprocess.Popen(
        command, cwd=checkout, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as process:
        reaper = threading.Thread(target=_reap_orphans, args=(process,), daemon=True)
        reaper.start()
        stdout, _ = process.communicate()
        reaper.join()
    done = subprocess.CompletedProcess(command, process.returncode, stdout)
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


def _orphans(run: subprocess.Popen[str]) -> list[int]:
    """This process's children other than the run itself: processes of the run whose
    parent ended first (the browser's renderers), handed to this process as subreaper."""
    mine = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != run.pid:
            try:
                stat = (entry / "stat").read_text(encoding="ascii", errors="replace")
                parent = int(stat.rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if parent == os.getpid():
                mine.append(int(entry.name))
    return mine


def _reap_orphans(run: subprocess.Popen[str]) -> None:
    """Reap the run's orphaned processes as they end, so that their CPU time counts in this
    process's children's (Chromium's renderers outlive the browser process that started
    them, and were counted nowhere), then those left at the end of the run (10 s at most)."""
    deadline = None
    while True:
        if deadline is None and run.poll() is not None:
            deadline = time.monotonic() + 10
        left = _orphans(run)
        for pid in left:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
        if deadline is not None and (not left or time.monotonic() > deadline):
            return
        time.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--compare", type=Path, help="another checkout, run after this one")
    args = parser.parse_args()
    if sys.platform == "linux":  # the run's orphans come here, to be reaped and counted
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    run(ROOT, args.workers)
    if args.compare is not None:
        run(args.compare.resolve(), args.workers)


if __name__ == "__main__":
    main()
