"""Labels that survive a reseed (issue 33 §3): the same games analysed at several seeds.

The first ``--games`` games of the archive's held-back files (``fit_auction_model.HELD_BACK``,
half from each, in file order) are analysed as ``twentynine analyze`` would (every kind but
the doubling, which the bhoos rules do not have; ``--samples``, the command's default if not
given) at each of ``--seeds``; each game's sampled notes are saved a line a game and seed in
``bench/out/<name>_labels.jsonl`` (``--tables-only`` prints the table again from that file).

Then, per kind, of the first seed's labels: the share labelled at every other seed with the
same best move and a label within one step (inaccuracy, mistake, blunder), and at each seed
alone. A kind with fewer than ``MIN_GATED`` labels is reported, not gated; the target is
``TARGET``.

    nice python bench/label_stability.py --games 40 --jobs 2
    nice python bench/label_stability.py --games 60 --jobs 2 --resume   # 20 games more
    python bench/label_stability.py --tables-only
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

# Run as a script, bench/ comes first on the path: put the repository root before it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fit_auction_model import ARCHIVE, HELD_BACK

from twentynine.analysis.run import DEFAULT_SAMPLES, AnalysisOptions, DealTask, annotate_deal
from twentynine.importers.bhoos_archive import read_stream
from twentynine.schema.log import MatchLog

OUT = Path(__file__).resolve().parent / "out"
KINDS = frozenset({"bid", "trump", "show", "card", "par"})
LABELS = ("inaccuracy", "mistake", "blunder")
MIN_GATED = 20
TARGET = 0.90


def first_games(folder: Path, total: int) -> list[MatchLog]:
    """The first ``total`` games of the held-back files: half from each, in file order."""
    chosen: list[MatchLog] = []
    for i, name in enumerate(HELD_BACK):
        want = (total + len(HELD_BACK) - 1 - i) // len(HELD_BACK)
        path = folder / name
        taken = 0
        with path.open("rb") as stream:
            for record in read_stream(stream, str(path)):
                if taken >= want:
                    break
                if record.match is not None and record.match.deals:
                    chosen.append(record.match)
                    taken += 1
    return chosen


def analyse(task: tuple[MatchLog, int, int]) -> dict[str, Any]:
    """One game's sampled notes at one seed, and the CPU time they took."""
    match, seed, samples = task
    options = AnalysisOptions(kinds=KINDS, samples=samples, seed=seed)
    rules = match.resolved_rules()
    started = time.process_time()
    notes = []
    for number, deal in enumerate(match.deals, start=1):
        for note in annotate_deal(DealTask(match.match_id, rules, deal, number, options)):
            if note.method == "sampled":
                notes.append(
                    [note.deal, note.action, note.seat, note.kind, note.chosen, note.best,
                     note.label, note.samples]
                )  # fmt: skip
    return {
        "match_id": match.match_id,
        "seed": seed,
        "cpu": time.process_time() - started,
        "notes": notes,
    }


def table(lines: Sequence[dict[str, Any]], seeds: Sequence[int]) -> list[str]:
    """The per-kind table of the first seed's labels found again at the other seeds."""
    found: dict[int, dict[tuple[Any, ...], tuple[str, str | None]]] = {s: {} for s in seeds}
    games: dict[int, set[str]] = {s: set() for s in seeds}
    for line in lines:
        if line["seed"] not in found:
            continue
        games[line["seed"]].add(line["match_id"])
        for deal, action, seat, kind, _, best, label, _ in line["notes"]:
            found[line["seed"]][(line["match_id"], deal, action, seat, kind)] = (best, label)
    common = set.intersection(*(games[s] for s in seeds))
    first, others = seeds[0], seeds[1:]

    def back(key: tuple[Any, ...], best: str, label: str, seed: int) -> bool:
        again = found[seed].get(key)
        if again is None or again[1] is None or again[0] != best:
            return False
        return abs(LABELS.index(again[1]) - LABELS.index(label)) <= 1

    rows = [
        f"{len(common)} games at seeds {', '.join(map(str, seeds))}",
        "",
        "| kind | labels at seed "
        + str(first)
        + " | "
        + " | ".join(f"back at seed {s}" for s in others)
        + " | back at every seed | new at seed "
        + str(others[0] if others else first)
        + " | verdict |",
        "|---|---:|" + "---:|" * len(others) + "---:|---:|---|",
    ]
    kinds = sorted({k[4] for s in seeds for k in found[s]})
    for kind in kinds:
        labelled = {
            k: v
            for k, v in found[first].items()
            if k[0] in common and k[4] == kind and v[1] is not None
        }
        n = len(labelled)
        each = [sum(back(k, b, lab, s) for k, (b, lab) in labelled.items() if lab) for s in others]
        every = sum(
            all(back(k, b, lab, s) for s in others) for k, (b, lab) in labelled.items() if lab
        )
        new = 0
        if others:
            new = sum(
                1
                for k, v in found[others[0]].items()
                if k[0] in common and k[4] == kind and v[1] is not None
                and (found[first].get(k) or (None, None))[1] is None
            )  # fmt: skip
        share = every / n if n else float("nan")
        verdict = (
            "not gated (fewer than 20)"
            if n < MIN_GATED
            else ("met" if share >= TARGET else "not met")
        )
        cells = " | ".join(f"{c} ({c / n:.0%})" if n else "0" for c in each)
        rows.append(
            f"| {kind} | {n} | {cells} | {every} ({share:.0%}) | {new} | {verdict} |"
            if n
            else f"| {kind} | 0 | {cells} | - | {new} | none labelled |"
        )
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, default=ARCHIVE)
    parser.add_argument("--games", type=int, default=300, help="games, half from each file")
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--tables-only", action="store_true")
    parser.add_argument("--name", default="stability", help="the saved file's prefix")
    parser.add_argument(
        "--resume", action="store_true", help="keep the games and seeds already saved"
    )
    args = parser.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",")]
    OUT.mkdir(parents=True, exist_ok=True)
    saved = OUT / f"{args.name}_labels.jsonl"
    if not args.tables_only:
        games = first_games(args.archive, args.games)
        done: set[tuple[str, int]] = set()
        if args.resume and saved.exists():
            done = {(line["match_id"], line["seed"]) for line in map(json.loads, saved.open())}
        tasks = [
            (m, seed, args.samples)
            for seed in seeds
            for m in games
            if (m.match_id, seed) not in done
        ]
        started = time.monotonic()
        cpu = 0.0
        mode = "a" if args.resume else "w"
        with ProcessPoolExecutor(max_workers=args.jobs) as pool, saved.open(mode) as out:
            for line in pool.map(analyse, tasks, chunksize=1):
                cpu += line["cpu"]
                out.write(json.dumps(line) + "\n")
                out.flush()
        print(
            f"{len(games)} games x {len(seeds)} seeds, {args.samples} samples: "
            f"{time.monotonic() - started:.0f} s wall, {cpu:.0f} s CPU "
            f"({cpu / max(1, len(tasks)):.2f} s a game)"
        )
    lines = [json.loads(t) for t in saved.read_text().splitlines()]
    print("\n".join(table(lines, seeds)))


if __name__ == "__main__":
    main()
