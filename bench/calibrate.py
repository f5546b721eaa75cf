"""Calibrate the make-probabilities against real outcomes: the Bhoos archive's calls.

For every scored call of the archive (../shared/real/bhoos), lay out the cards the caller
could not see at its trump choice ``--samples`` times, solve each layout double dummy from
the first lead with the trump it chose, and compare the predicted make-probability with
what happened: per band of prediction and per call level, before calibration (the bare
double-dummy answer) and after (``analysis.calibration``'s SHIFT and SPREAD, and the pair
fitted here by maximum likelihood, to paste there).

    python bench/calibrate.py --samples 8 --jobs 2
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

# Run as a script, bench/ comes first on the path: put the repository root before it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis.calibration import (
    SHIFT,
    SPREAD,
    CallerRecord,
    caller_record,
    fit,
    predicted,
)
from importers.bhoos_archive import read_stream
from schema.log import Deal
from schema.rules import Rules

ARCHIVE = Path(__file__).resolve().parent.parent.parent / "shared" / "real" / "bhoos"
Task = tuple[Rules, Deal, int, int, int]


def _record(task: Task) -> CallerRecord | None:
    rules, deal, number, samples, seed = task
    return caller_record(rules, deal, number, samples, seed)


def _tasks(folder: Path, samples: int, limit: int | None) -> list[Task]:
    tasks: list[Task] = []
    for path in sorted(folder.glob("*.json")):
        with path.open("rb") as stream:
            for record in read_stream(stream, str(path)):
                if record.match is None:
                    continue
                rules = record.match.resolved_rules()
                for number, deal in enumerate(record.match.deals, start=1):
                    tasks.append((rules, deal, number, samples, len(tasks)))
    return tasks[:limit] if limit else tasks


def _table(
    records: Sequence[CallerRecord],
    key: Callable[[CallerRecord], str],
    params: Sequence[tuple[str, float, float]],
) -> list[str]:
    groups: dict[str, list[CallerRecord]] = {}
    for record in records:
        groups.setdefault(key(record), []).append(record)
    header = "| band | calls | made |" + "".join(f" {name} |" for name, _, _ in params)
    lines = [header, "|---|---:|---:|" + "---:|" * len(params)]
    for band in sorted(groups):
        rows = groups[band]
        made = sum(r.made for r in rows) / len(rows)
        cells = "".join(
            f" {sum(predicted(r, s, w) for r in rows) / len(rows):.2f} |" for _, s, w in params
        )
        lines.append(f"| {band} | {len(rows)} | {made:.2f} |{cells}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, default=ARCHIVE)
    parser.add_argument("--samples", type=int, default=8, help="layouts per call")
    parser.add_argument("--deals", type=int, default=None, help="the first N deals only")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    tasks = _tasks(args.archive, args.samples, args.deals)
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        found = list(pool.map(_record, tasks, chunksize=4))
    records = [r for r in found if r is not None]
    elapsed = time.perf_counter() - started
    shift, spread = fit(records)
    print(
        f"{len(tasks)} deals, {len(records)} scored calls, {args.samples} layouts each, "
        f"{elapsed:.0f} s with {args.jobs} jobs; fitted SHIFT = {shift}, SPREAD = {spread} "
        f"(shipped: {SHIFT}, {SPREAD})"
    )
    params = [
        ("double dummy", 0.0, 0.0),
        ("shipped", SHIFT, SPREAD),
        ("fitted", shift, spread),
    ]

    def by_prediction(r: CallerRecord) -> str:
        p = predicted(r, 0.0, 0.0)
        low = min(int(p * 5), 4) / 5
        return f"dd {low:.1f}-{low + 0.2:.1f}"

    def by_call(r: CallerRecord) -> str:
        return "calls 16-19" if r.target < 20 else ("calls 20-23" if r.target < 24 else "calls 24+")

    print("\nPredicted make-rate against the observed one, by double-dummy prediction:\n")
    print("\n".join(_table(records, by_prediction, params)))
    print("\nBy call:\n")
    print("\n".join(_table(records, by_call, params)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
