"""Time the annotations: hindsight per deal, and every annotation of a whole match.

Prints the median, 90th percentile and maximum CPU milliseconds of the hindsight annotation
(cards, shows, par) of whole random deals, one core; then the wall time of all the
annotations of one random bangladesh match of ``--match-deals`` deals at ``--samples``
samples a decision with ``--jobs 1`` and with ``--jobs 2`` (the same results, checked), with
the CPU time it took (this process's and its workers'), and the machine's load average.

    python bench/bench_analyze.py
    python bench/bench_analyze.py --deals 10 --match-deals 2 --samples 8   # a quick look
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

# Run as a script, bench/ comes first on the path: put the repository root before it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from twentynine.analysis import solve
from twentynine.analysis.hindsight import hindsight_deal
from twentynine.analysis.run import AnalysisOptions, annotate_matches
from twentynine.analysis.solver import forget_deals
from twentynine.analysis.testing import random_ending
from twentynine.replay import random_match
from twentynine.schema import Rules
from twentynine.workers import process_pool


def hindsight_times(preset: str, deals: int) -> list[float]:
    """CPU milliseconds of the hindsight annotation of each of ``deals`` played deals."""
    out: list[float] = []
    seed = 0
    while len(out) < deals:
        log = random_match(Rules.preset(preset), seed=seed)
        rules = log.resolved_rules()
        for number, deal in enumerate(log.deals, start=1):
            if len(out) == deals:
                break
            if not any(a.type == "play" for a in deal.actions):
                continue
            start = time.process_time()
            hindsight_deal(log.match_id, rules, deal, number)
            out.append((time.process_time() - start) * 1000)
        seed += 1
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40, help="deals timed per preset")
    parser.add_argument("--match-deals", type=int, default=10)
    parser.add_argument("--samples", type=int, default=32)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="job counts to time")
    parser.add_argument("--skip-hindsight", action="store_true")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    solve(random_ending(Rules.preset("bangladesh"), seed=0, tricks_left=2))
    loading = time.perf_counter() - start
    print(f"compile or load the solver kernel (left out below): {loading:.1f} s")
    print(f"load average at the start (the machine is shared): {_load()}")
    print("\nhindsight of a whole deal (cards, shows, par), CPU ms, one core")
    print("preset      deals  median  p90  max")
    for preset in () if args.skip_hindsight else ("bangladesh", "bhoos"):
        times = sorted(hindsight_times(preset, args.deals))
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        print(
            f"{preset:<10}  {len(times):>5}  {statistics.median(times):>6.0f}  "
            f"{p90:>4.0f}  {times[-1]:.0f}"
        )
    seed = 0
    while (
        len((log := random_match(Rules.preset("bangladesh"), seed=seed)).deals) < args.match_deals
    ):
        seed += 1
    log = log.model_copy(update={"deals": log.deals[: args.match_deals], "result": None})
    options = AnalysisOptions(samples=args.samples)
    print(
        f"\nall annotations of a {len(log.deals)}-deal bangladesh match, "
        f"{args.samples} samples a decision (wall time)"
    )
    results = []
    for jobs in args.jobs:
        # Forked workers would inherit this process's table, and with it the layouts an
        # earlier run solved: every run starts from a table that knows none of them.
        forget_deals()
        start = time.perf_counter()
        cpu = _cpu_seconds()
        if jobs == 1:
            notes = list(annotate_matches([log], options))
        else:
            with process_pool(jobs) as pool:
                notes = list(annotate_matches([log], options, pool))
        elapsed = time.perf_counter() - start
        cpu = _cpu_seconds() - cpu
        count = sum(len(n) for _, n in notes)
        print(f"--jobs {jobs}: {elapsed:.1f} s wall, {cpu:.1f} s CPU, {count} annotations")
        results.append(notes)
    if len(results) > 1:
        print("same annotations with every job count:", all(r == results[0] for r in results))
    print(f"load average at the end: {_load()}")
    return 0


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished workers (a pool's, once shut down):
    what the annotations cost whatever else the machine runs."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def _load() -> str:
    """The 1, 5 and 15 minute load averages: other work on the machine slows every figure."""
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


if __name__ == "__main__":
    sys.exit(main())
