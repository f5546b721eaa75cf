"""Time the exact solver on whole deals, from the first lead, on one core.

Run from the repository root: ``python bench/bench_solver.py`` (``--deals 200`` a preset by
default, bangladesh and bhoos). Each deal is random (``analysis.testing.first_lead``: auction
and trump by uniform legal choices, nobody doubling or playing alone) and solved in full:
the value and every legal lead's exact value (``analysis.solve``). Prints per preset the
median, 90th percentile and maximum milliseconds per solve and the nodes searched, for the
compiled kernel (the JIT compile, or loading it from numba's cache, is timed apart and left
out), then the pure-Python path's median on the first ``--python-deals`` deals. Times are
CPU time of this process (``time.process_time``), so another process on the machine slows
them less than it would wall time. A benchmark, never a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

# Run as a script, bench/ comes first on the path: put the repository root before it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis import solve
from analysis.testing import first_lead, random_ending
from replay import DealState
from schema import Rules


def timed(states: list[DealState], engine: str) -> list[float]:
    """Milliseconds of CPU time per full solve."""
    out = []
    for state in states:
        start = time.process_time()
        solve(state, engine=engine)
        out.append((time.process_time() - start) * 1000)
    return out


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals per preset")
    parser.add_argument("--python-deals", type=int, default=10, help="pure-Python sample")
    parser.add_argument("--presets", default="bangladesh,bhoos")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    presets = args.presets.split(",")

    start = time.perf_counter()
    solve(random_ending(Rules.preset("bhoos"), 1, 2), engine="numba")
    print(f"compile or load the kernel (left out below): {time.perf_counter() - start:.2f} s")

    print("preset      engine  deals  median ms  p90 ms  max ms")
    for name in presets:
        rules = Rules.preset(name)
        states = [first_lead(rules, args.seed + i) for i in range(args.deals)]
        ms = timed(states, "numba")
        print(
            f"{name:<11} numba   {len(ms):>5}  {statistics.median(ms):>9.1f}"
            f"  {percentile(ms, 0.9):>6.1f}  {max(ms):>6.1f}"
        )
        sample = states[: args.python_deals]
        if sample:
            slow = timed(sample, "python")
            print(
                f"{name:<11} python  {len(slow):>5}  {statistics.median(slow):>9.1f}"
                f"  {percentile(slow, 0.9):>6.1f}  {max(slow):>6.1f}"
            )


if __name__ == "__main__":
    main()
