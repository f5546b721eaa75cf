"""Time the exact solver on whole deals, from the first lead, on one core.

Run from the repository root: ``python bench/bench_solver.py`` (``--deals 200`` a preset by
default, bangladesh and bhoos). Each deal is random (``analysis.testing.first_lead``: auction
and trump by uniform legal choices, nobody doubling or playing alone) and solved in full:
the value and every legal lead's exact value (``analysis.solve``). Prints per preset the
median, 90th percentile and maximum milliseconds per solve for the compiled kernel (the JIT
compile, or loading it from numba's cache, is timed apart and left out); then, on the first
``--walk-deals`` other deals, the time to solve every position of the deal in turn along the best
play (the table kept from one to the next, as annotating a deal does); then the pure-Python
path's on the first ``--python-deals`` deals. Times are
CPU time of this process (``time.process_time``), so another process on the machine slows
them less than it would wall time; beside them, the nodes searched in all (the same on any
machine, ``analysis.solver.nodes_searched``). A benchmark, never a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

# Run as a script, bench/ comes first on the path: put the repository root before it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from twentynine.analysis import solve, solve_value
from twentynine.analysis.solver import forget_deals, nodes_searched
from twentynine.analysis.testing import first_lead, random_ending
from twentynine.replay import DealState
from twentynine.schema import Rules


def timed(
    states: list[DealState], engine: str, value_only: bool = False
) -> tuple[list[float], int]:
    """Milliseconds of CPU time per solve, and the nodes searched in all: the value only
    (``solve_value``) or the value and every legal move's (``solve``)."""
    out = []
    nodes = 0
    for state in states:
        start = time.process_time()
        if value_only:
            solve_value(state, engine=engine)
        else:
            solve(state, engine=engine)
        out.append((time.process_time() - start) * 1000)
        nodes += nodes_searched()
    return out, nodes


def timed_walks(states: list[DealState]) -> tuple[list[float], int]:
    """Milliseconds of CPU time per deal to solve every position of it in turn, along the
    best play (what annotating a deal in hindsight asks of the solver), and the nodes."""
    out = []
    nodes = 0
    for first in states:
        state = first.copy()
        start = time.process_time()
        while not state.is_over:
            solution = solve(state, engine="numba")
            nodes += nodes_searched()
            if not solution.actions:
                break
            state.apply(solution.actions[0][0])
        out.append((time.process_time() - start) * 1000)
    return out, nodes


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(preset: str, what: str, timing: tuple[list[float], int]) -> None:
    ms, nodes = timing
    if ms:
        print(
            f"{preset:<11} {what:<34}  {len(ms):>5}  {statistics.median(ms):>9.1f}"
            f"  {percentile(ms, 0.9):>6.1f}  {max(ms):>6.1f}  {nodes:>11,}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals per preset")
    parser.add_argument("--python-deals", type=int, default=10, help="pure-Python sample")
    parser.add_argument("--walk-deals", type=int, default=50, help="whole-deal sample")
    parser.add_argument("--presets", default="bangladesh,bhoos")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    presets = args.presets.split(",")

    start = time.perf_counter()
    warm_up = random_ending(Rules.preset("bhoos"), 1, 2)
    solve(warm_up, engine="numba")  # each entry point compiles, or loads, on its first call
    solve_value(warm_up, engine="numba")
    print(f"compile or load the kernel (left out below): {time.perf_counter() - start:.2f} s")

    print(f"{'preset':<11} {'what':<34}  deals  median ms  p90 ms  max ms        nodes")
    for name in presets:
        rules = Rules.preset(name)
        states = [first_lead(rules, args.seed + i) for i in range(args.deals)]
        # The same deals twice, the table made to forget them in between: neither run
        # learns from the other.
        report(name, "value only, numba", timed(states, "numba", value_only=True))
        forget_deals()
        report(name, "value and every legal lead, numba", timed(states, "numba"))
        # Other deals than those solved above: the table must not know them yet.
        fresh = [first_lead(rules, args.seed + 100_000 + i) for i in range(args.walk_deals)]
        report(name, "every position of a deal, numba", timed_walks(fresh))
        sample = states[: args.python_deals]
        if sample:
            report(name, "value and every lead, python", timed(sample, "python"))


if __name__ == "__main__":
    main()
