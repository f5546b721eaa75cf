"""Time the exact solver on whole deals, from the first lead, on one core.

Run from the repository root: ``python bench/bench_solver.py`` (``--deals 200`` a preset by
default, bangladesh and bhoos). Each deal is random (``analysis.testing.first_lead``: auction
and trump by uniform legal choices, nobody doubling or playing alone) and solved twice: the
value alone (``analysis.solve_value``) and the value and every legal lead's exact value
(``analysis.solve``), the table made to forget the deals in between. Prints per preset the
median, 90th and 99th percentiles and maximum milliseconds per solve for the compiled kernel
(loading it is timed apart and left out); then, on the first ``--walk-deals`` other deals, the
time to solve every position of the deal in turn along the best play (the table kept from
one to the next, as annotating a deal does); then the pure-Python path's on the first
``--python-deals`` deals. Times are CPU time of this process (``time.process_time``), so
another process on the machine slows them less than it would wall time; beside them, the
nodes searched in all (the same on any machine, ``analysis.solver.nodes_searched``) and a
digest of every value found, to compare two versions of the solver: equal digests, equal
values. ``--engine`` names the engine (``numba`` for a version before the C kernel). A
benchmark, never a test.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
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

Timing = tuple[list[float], int, str]
"""Milliseconds per solve, the nodes searched in all, a digest of the values found."""


def timed(states: list[DealState], engine: str, value_only: bool = False) -> Timing:
    """The value only (``solve_value``) or the value and every legal move's (``solve``)."""
    out = []
    nodes = 0
    values = hashlib.sha256()
    for state in states:
        start = time.process_time()
        if value_only:
            found = repr(solve_value(state, engine=engine))
        else:
            solution = solve(state, engine=engine)
            found = repr([(str(action), value) for action, value in solution.actions])
        out.append((time.process_time() - start) * 1000)
        nodes += nodes_searched()
        values.update(found.encode())
    return out, nodes, values.hexdigest()[:12]


def timed_walks(states: list[DealState], engine: str) -> Timing:
    """Per deal, every position of it solved in turn along the best play (what annotating
    a deal in hindsight asks of the solver)."""
    out = []
    nodes = 0
    values = hashlib.sha256()
    for first in states:
        state = first.copy()
        start = time.process_time()
        while not state.is_over:
            solution = solve(state, engine=engine)
            nodes += nodes_searched()
            values.update(repr([v for _, v in solution.actions]).encode())
            if not solution.actions:
                break
            state.apply(solution.actions[0][0])
        out.append((time.process_time() - start) * 1000)
    return out, nodes, values.hexdigest()[:12]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


Figures = dict[str, dict[str, float]]
"""Per preset and what was solved: the median and 99th percentile ms, and the nodes."""

FLOOR = Path(__file__).resolve().parent / "solver_floor.json"
"""Today's figures on a quiet machine, which no change may worsen by more than
:data:`MARGIN` (``--floor``)."""
MARGIN = 0.10


def report(preset: str, what: str, timing: Timing, figures: Figures) -> None:
    ms, nodes, digest = timing
    if ms:
        print(
            f"{preset:<11} {what:<28} {len(ms):>5} {statistics.median(ms):>7.2f}"
            f" {percentile(ms, 0.9):>7.2f} {percentile(ms, 0.99):>7.2f} {max(ms):>7.1f}"
            f" {nodes:>11,}  {digest}"
        )
        figures[f"{preset} {what}"] = {
            "deals": len(ms),
            "median_ms": round(statistics.median(ms), 2),
            "p99_ms": round(percentile(ms, 0.99), 2),
            "nodes": nodes,
        }


def worse_than_floor(figures: Figures, floor: Figures) -> list[str]:
    """Each figure of the floor that ``figures`` worsen by more than :data:`MARGIN`, said
    in a line; figures measured on another number of deals are not compared.

    >>> floor = {"bhoos value only": {"deals": 200, "median_ms": 2.0, "p99_ms": 40.0, "nodes": 9}}
    >>> now = {"bhoos value only": {"deals": 200, "median_ms": 2.3, "p99_ms": 41.0, "nodes": 9}}
    >>> worse_than_floor(now, floor)
    ['bhoos value only: median_ms 2.3 against 2 (+15%, more than +10%)']
    """
    lines = []
    for what, wanted in floor.items():
        got = figures.get(what)
        if got is None or got["deals"] != wanted["deals"]:
            continue
        for key in ("median_ms", "p99_ms", "nodes"):
            if got[key] > wanted[key] * (1 + MARGIN):
                change = got[key] / wanted[key] - 1
                lines.append(
                    f"{what}: {key} {got[key]:g} against {wanted[key]:g} "
                    f"({change:+.0%}, more than {MARGIN:+.0%})"
                )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals per preset")
    parser.add_argument("--python-deals", type=int, default=10, help="pure-Python sample")
    parser.add_argument("--walk-deals", type=int, default=50, help="whole-deal sample")
    parser.add_argument("--presets", default="bangladesh,bhoos")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engine", default="compiled", help="compiled (numba before it)")
    parser.add_argument(
        "--floor",
        action="store_true",
        help=f"compare with {FLOOR.name} (exit 1 when a figure is more than 10%% worse)",
    )
    args = parser.parse_args()
    figures: Figures = {}
    presets = args.presets.split(",")
    engine = args.engine

    start = time.perf_counter()
    warm_up = random_ending(Rules.preset("bhoos"), 1, 2)
    solve(warm_up, engine=engine)  # the kernel loads (or compiles) on its first call
    solve_value(warm_up, engine=engine)
    print(f"load the kernel (left out below): {time.perf_counter() - start:.2f} s")

    print(
        f"{'preset':<11} {'what (ms of CPU a solve)':<28} deals  median     p90     p99     max"
        "       nodes  values"
    )
    for name in presets:
        rules = Rules.preset(name)
        states = [first_lead(rules, args.seed + i) for i in range(args.deals)]
        # The same deals twice, the table made to forget them in between: neither run
        # learns from the other.
        report(name, "value only", timed(states, engine, value_only=True), figures)
        forget_deals()
        report(name, "value and every legal lead", timed(states, engine), figures)
        # Other deals than those solved above: the table must not know them yet.
        fresh = [first_lead(rules, args.seed + 100_000 + i) for i in range(args.walk_deals)]
        report(name, "every position of a deal", timed_walks(fresh, engine), figures)
        sample = states[: args.python_deals]
        if sample:
            forget_deals()
            report(name, "every legal lead, pure Python", timed(sample, "python"), figures)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    if args.floor:
        floor: Figures = json.loads(FLOOR.read_text(encoding="utf-8"))["figures"]
        worse = worse_than_floor(figures, floor)
        for line in worse:
            print(f"WORSE THAN THE FLOOR: {line}")
        compared = [what for what, got in figures.items() if what in floor
                    and got["deals"] == floor[what]["deals"]]  # fmt: skip
        if not worse:
            print(
                f"{len(compared)} of the floor's {len(floor)} figures compared "
                f"(the same deals): none more than {MARGIN:.0%} worse than {FLOOR.name}"
            )
        sys.exit(1 if worse else 0)


if __name__ == "__main__":
    main()
