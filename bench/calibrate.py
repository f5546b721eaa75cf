"""Calibrate the make-probabilities against real outcomes: the Bhoos archive's calls.

For every scored call of the archive (../shared/real/bhoos), lay out the cards the caller
could not see at its trump choice ``--samples`` times and solve each layout double dummy
from the first lead with the trump it chose. The solves are saved, one line a call, in
``bench/out/calibrate.jsonl`` (git-ignored; written as they finish, so a stopped run keeps
what it did), and ``--fit-only`` fits again from that file in a second, with no solving.

The fit compares models of the make-probability on held-out calls (a two-fold split by
match: each half scored by the model fitted on the other) by log-loss and Brier score: the
base rate, the bare double-dummy answer, the shipped constants of
``analysis.calibration``, shift and spread refitted, and refitted with a bid-level term;
then prints the constants fitted on every call, to paste there, and the tables of predicted
against observed make-rate by band of double-dummy prediction and by call.

    nice python bench/calibrate.py --samples 6 --jobs 2
    python bench/calibrate.py --fit-only
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

# Run as a script, bench/ comes first on the path: put the repository root before it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from twentynine.analysis.calibration import (
    BEFORE_REFIT,
    CALIBRATION,
    DOUBLE_DUMMY,
    CallerRecord,
    Model,
    call_log_losses,
    caller_record,
    fit,
    predicted,
)
from twentynine.importers.bhoos_archive import read_stream
from twentynine.schema.log import Deal
from twentynine.schema.rules import Rules
from twentynine.workers import process_pool

ARCHIVE = Path(__file__).resolve().parent.parent.parent / "shared" / "real" / "bhoos"
SAVED = Path(__file__).resolve().parent / "out" / "calibrate.jsonl"
Task = tuple[Rules, Deal, str, int, int, int]


def _record(task: Task) -> dict[str, object] | None:
    """One call's saved line: where it is, its four cards and trump, target, outcome and
    the double-dummy values of its layouts (None without a scored call)."""
    rules, deal, match_id, number, samples, seed = task
    record = caller_record(rules, deal, number, samples, seed, match_id)
    if record is None:
        return None
    choice = next(a for a in deal.actions if a.type == "trump")
    four = list((deal.hands or {}).get(choice.seat, []))[:4]
    return {
        "match_id": match_id,
        "deal": number,
        "seat": choice.seat,
        "four": [str(card) for card in four],
        "trump": str(getattr(choice, "suit", None)),
        "target": record.target,
        "made": record.made,
        "values": list(record.values),
    }


def _tasks(folder: Path, samples: int, limit: int | None) -> list[Task]:
    tasks: list[Task] = []
    for path in sorted(folder.glob("*.json")):
        with path.open("rb") as stream:
            for record in read_stream(stream, str(path)):
                if record.match is None:
                    continue
                rules = record.match.resolved_rules()
                match_id = record.match.match_id
                for number, deal in enumerate(record.match.deals, start=1):
                    tasks.append((rules, deal, match_id, number, samples, len(tasks)))
    return tasks[:limit] if limit else tasks


def _solve(tasks: Sequence[Task], jobs: int, saved: Path) -> None:
    """Solve every task's layouts, one saved line per scored call as soon as it is done
    (an interrupted run keeps what it finished)."""
    saved.parent.mkdir(parents=True, exist_ok=True)
    with process_pool(jobs) as pool, saved.open("w") as out:
        for line in pool.map(_record, tasks, chunksize=1):
            if line is not None:
                out.write(json.dumps(line) + "\n")
                out.flush()


Saved = tuple[str, CallerRecord]
"""A saved call: its match's id and its record."""


def _load(saved: Path) -> list[Saved]:
    calls = []
    for text in saved.read_text().splitlines():
        line = json.loads(text)
        record = CallerRecord(line["target"], line["made"], tuple(line["values"]))
        calls.append((line["match_id"], record))
    return calls


def _half(match_id: str) -> int:
    """Which half of the two-fold split a match's calls go to (stable across runs)."""
    return hashlib.sha256(match_id.encode()).digest()[0] & 1


Scored = dict[str, tuple[list[float], list[float], Model | None]]
"""Per model: each held-out call's log-loss and squared error, and the model fitted."""


def _scores(train: Sequence[CallerRecord], test: Sequence[CallerRecord]) -> Scored:
    """Each held-out call's log-loss and squared error under each model fitted on ``train``."""
    rate = sum(r.made for r in train) / len(train)
    made = np.array([float(r.made) for r in test])
    out: Scored = {
        "base rate": (
            (-(made * np.log(rate) + (1 - made) * np.log(1 - rate))).tolist(),
            ((rate - made) ** 2).tolist(),
            None,
        )
    }
    models = {
        "double dummy": DOUBLE_DUMMY,
        "before the refit": BEFORE_REFIT,
        "shipped (fitted on every call: not held out)": CALIBRATION,
        "margin refitted": fit(train),
        "margin and level refitted": fit(train, level=True),
    }
    for name, model in models.items():
        predictions = np.array([predicted(r, model) for r in test])
        losses = call_log_losses(test, model).tolist()
        out[name] = (losses, ((predictions - made) ** 2).tolist(), model)
    return out


def _held_out(calls: Sequence[Saved]) -> list[str]:
    halves = [[r for m, r in calls if _half(m) == h] for h in (0, 1)]
    folds = [_scores(halves[0], halves[1]), _scores(halves[1], halves[0])]
    lines = [
        f"Held out (two folds by match: {len(halves[0])} + {len(halves[1])} calls, each half "
        "scored by the model fitted on the other; lower is better; the last column is the "
        "log-loss against the constants before the refit, per call, with its 95% interval):",
        "",
        "| model | log-loss | Brier | fitted on A (a / b / c) | fitted on B | vs before |",
        "|---|---:|---:|---|---|---:|",
    ]
    before = np.array(folds[0]["before the refit"][0] + folds[1]["before the refit"][0])
    for name in folds[0]:
        losses = np.array(folds[0][name][0] + folds[1][name][0])
        squares = np.array(folds[0][name][1] + folds[1][name][1])
        diff = losses - before
        half = 1.96 * float(np.std(diff, ddof=1)) / math.sqrt(len(diff))
        versus = f"{diff.mean():+.4f} ± {half:.4f}"
        fitted = [_model_text(f[name][2]) for f in folds]
        lines.append(
            f"| {name} | {losses.mean():.4f} | {squares.mean():.4f} | {fitted[0]} | {fitted[1]} "
            f"| {versus} |"
        )
    return lines


def _model_text(model: Model | None) -> str:
    if model is None:
        return "-"
    return f"{model.intercept:g} / {model.slope:g} / {model.level_slope:g}"


def _table(
    records: Sequence[CallerRecord],
    key: Callable[[CallerRecord], str],
    models: Sequence[tuple[str, Model]],
) -> list[str]:
    groups: dict[str, list[CallerRecord]] = {}
    for record in records:
        groups.setdefault(key(record), []).append(record)
    header = "| band | calls | made |" + "".join(f" {name} |" for name, _ in models)
    lines = [header, "|---|---:|---:|" + "---:|" * len(models)]
    for band in sorted(groups):
        rows = groups[band]
        made = sum(r.made for r in rows) / len(rows)
        cells = "".join(
            f" {sum(predicted(r, model) for r in rows) / len(rows):.2f} |" for _, model in models
        )
        lines.append(f"| {band} | {len(rows)} | {made:.2f} |{cells}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, default=ARCHIVE)
    parser.add_argument("--samples", type=int, default=6, help="layouts per call")
    parser.add_argument("--deals", type=int, default=None, help="the first N deals only")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--saved", type=Path, default=SAVED, help="the solves' file")
    parser.add_argument(
        "--fit-only", action="store_true", help="fit on the saved solves, solve nothing"
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    if not args.fit_only:
        tasks = _tasks(args.archive, args.samples, args.deals)
        _solve(tasks, args.jobs, args.saved)
        print(f"{len(tasks)} deals solved in {time.perf_counter() - started:.0f} s")
    calls = _load(args.saved)
    records = [r for _, r in calls]
    layouts = sum(len(r.values) for r in records) / len(records)
    print(f"{len(records)} scored calls, {layouts:.1f} layouts each ({args.saved})\n")
    print("\n".join(_held_out(calls)))
    best = fit(records, level=True)
    plain = fit(records)
    print(
        "\nFitted on every call (intercept / slope / level slope): "
        f"margin {_model_text(plain)}; margin and level {_model_text(best)}"
    )
    models = [
        ("double dummy", DOUBLE_DUMMY),
        ("before", BEFORE_REFIT),
        ("shipped", CALIBRATION),
        ("margin", plain),
        ("margin and level", best),
    ]

    def by_prediction(r: CallerRecord) -> str:
        p = predicted(r, DOUBLE_DUMMY)
        low = min(int(p * 5), 4) / 5
        return f"dd {low:.1f}-{low + 0.2:.1f}"

    def by_call(r: CallerRecord) -> str:
        return f"call {r.target}" if r.target < 20 else "calls 20+"

    print("\nPredicted make-rate against the observed one, by double-dummy prediction:\n")
    print("\n".join(_table(records, by_prediction, models)))
    print("\nBy call:\n")
    print("\n".join(_table(records, by_call, models)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
