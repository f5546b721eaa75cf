"""Warehouse load throughput: deals stored per second on one core, and peak memory.

Run from the repository root: ``python bench/bench_load.py`` (``--deals 60000`` by default).
Each stage runs in a fresh child process pinned to one CPU, loading into a new DuckDB file:

- store: ``Warehouse.load_audited`` on matches audited beforehand (rows, Arrow, DuckDB,
  the final checkpoint on close), the warehouse's own cost;
- audit + store: ``Warehouse.load`` on match models (the engine's audit included);
- end to end: ``load_paths`` on a JSONL file (read through the fast decoder, audit, store),
  as ``twentynine load`` runs.

Then ``--jobs 1`` against ``--jobs 2``: ``load_paths`` end to end on the same file into new
files, on every CPU (not pinned), the two in turn ``--rounds`` times (so that both see the
same machine), with the load average before each run: the machine is shared.

The matches are random legal games of every preset (``--pool`` per preset), copied under new
ids until ``--deals`` deals. Prints deals/s by wall clock and by CPU time (which leaves out
time lost to other processes on a shared machine), the child's peak resident memory, and the
size of the file; then how long the ``player_stats`` query of ``twentynine stats`` takes on
the stored file (best of five, read-only, all cores). A benchmark, never a test.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson

# Run as a script, bench/ comes first on the path: put the repository root before it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from twentynine.loading import load_paths
from twentynine.replay import AuditedMatch, audit_match, random_match
from twentynine.reports.warehouse.stats import run_stats
from twentynine.reports.warehouse.store import BATCH_DEALS, open_warehouse
from twentynine.schema import PRESET_NAMES, Rules
from twentynine.schema.log import MatchLog

STAGES = ("store", "audit+store", "end to end")
JOBS_STAGES = ("jobs 1", "jobs 2")


def pool(per_preset: int) -> list[tuple[MatchLog, AuditedMatch]]:
    """Random legal matches of every preset, each with its audit."""
    out = []
    for preset in PRESET_NAMES:
        for seed in range(per_preset):
            log = random_match(Rules.preset(preset), 1000 + seed)
            out.append((log, audit_match(log)))
    return out


def copies(
    base: list[tuple[MatchLog, AuditedMatch]], deals: int
) -> Iterator[tuple[MatchLog, AuditedMatch]]:
    """The pool over and over under fresh ids, until at least ``deals`` deals."""
    made = n = 0
    while made < deals:
        log, audited = base[n % len(base)]
        n += 1
        match_id = f"bench-{n}"
        yield (
            log.model_copy(update={"id": match_id}),
            dataclasses.replace(audited, match_id=match_id),
        )
        made += len(log.deals)


def stage(
    name: str, db: Path, source: Path, deals: int, per_preset: int, batch: int
) -> dict[str, object]:
    """Run one stage in this process; returns its figures."""
    if hasattr(os, "sched_setaffinity") and name not in JOBS_STAGES:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    base = pool(per_preset) if name in ("store", "audit+store") else []
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    wall, cpu = time.perf_counter(), time.process_time()
    if name == "end to end":
        summary = load_paths([source], db=db, batch_deals=batch)
    elif name in JOBS_STAGES:
        summary = load_paths([source], db=db, batch_deals=batch, jobs=int(name[-1]))
    else:
        with open_warehouse(db) as wh:
            if name == "store":
                summary = wh.load_audited(copies(base, deals), batch_deals=batch)
            else:
                summary = wh.load((log for log, _ in copies(base, deals)), batch_deals=batch)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # --jobs 2: the reading process
    reader_cpu = usage.ru_utime + usage.ru_stime
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    stats = None
    if name == "store":
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, range(os.cpu_count() or 1))
        stats = min(_timed(lambda: run_stats(db=db)) for _ in range(5))
    return {
        "stage": name,
        "deals": summary.deals,
        "matches": summary.stored,
        "wall": wall,
        "cpu": cpu,
        "reader_cpu": reader_cpu,
        "rss_before_mb": rss_before,
        "peak_rss_mb": peak,
        "db_mb": db.stat().st_size / 2**20,
        "stats_s": stats,
    }


def _timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=60_000)
    parser.add_argument("--pool", type=int, default=6, help="random matches per preset")
    parser.add_argument("--batch-deals", type=int, default=BATCH_DEALS)
    parser.add_argument("--rounds", type=int, default=2, help="runs of each --jobs, in turn")
    parser.add_argument("--jobs-only", action="store_true", help="only --jobs 1 against 2")
    parser.add_argument("--stage", choices=STAGES + JOBS_STAGES, help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--source", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stage:  # the child
        figures = stage(args.stage, args.db, args.source, args.deals, args.pool, args.batch_deals)
        print(json.dumps(figures))
        return
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "matches.jsonl"
        with source.open("wb") as out:
            for log, _ in copies(pool(args.pool), args.deals):
                out.write(orjson.dumps(log.to_canonical()) + b"\n")
        print(
            f"{args.deals:,} deals wanted; JSONL {source.stat().st_size / 2**20:.1f} MB; "
            f"batches of {args.batch_deals:,} deals; one core per stage"
        )
        print(
            "| stage | deals | wall s | deals/s (wall) | CPU s | deals/s (CPU) "
            "| peak RSS MB (before) | file MB |"
        )
        print("|---|---|---|---|---|---|---|---|")
        stats_s = None
        for name in () if args.jobs_only else STAGES:
            db = Path(folder) / f"{name.replace(' ', '_')}.duckdb"
            f = _run_child(name, db, source, args)
            print(
                f"| {name} | {f['deals']:,} | {f['wall']:.2f} | {f['deals'] / f['wall']:,.0f} "
                f"| {f['cpu']:.2f} | {f['deals'] / f['cpu']:,.0f} "
                f"| {f['peak_rss_mb']:.0f} ({f['rss_before_mb']:.0f}) | {f['db_mb']:.1f} |",
                flush=True,
            )
            stats_s = f["stats_s"] if f["stats_s"] is not None else stats_s
        if stats_s is not None:
            print(f"\nplayer_stats (twentynine stats) on the stored file: {stats_s * 1000:.0f} ms")
        _compare_jobs(folder, source, args)


def _run_child(name: str, db: Path, source: Path, args: argparse.Namespace) -> dict[str, Any]:
    child = subprocess.run(
        [
            sys.executable,
            __file__,
            "--stage",
            name,
            "--db",
            str(db),
            "--source",
            str(source),
            "--deals",
            str(args.deals),
            "--pool",
            str(args.pool),
            "--batch-deals",
            str(args.batch_deals),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    figures: dict[str, Any] = json.loads(child.stdout.strip().splitlines()[-1])
    return figures


def _compare_jobs(folder: str, source: Path, args: argparse.Namespace) -> None:
    """``--jobs 1`` and ``--jobs 2`` in turn, every CPU, with the machine's load.

    Besides the wall time, the CPU time of each process: on a machine whose cores are busy
    with other work, the longer of the two is the wall time the load would take with two
    cores of its own (the kernel shares the CPU between sessions, not processes)."""
    print(f"\n--jobs 1 against --jobs 2 ({os.cpu_count()} CPUs, not pinned), in turn:")
    print(
        "| run | load average (1 min) before | wall s | deals/s (wall) "
        "| CPU s, writer | CPU s, reader | stored |"
    )
    print("|---|---|---|---|---|---|---|")
    walls: dict[str, list[float]] = {name: [] for name in JOBS_STAGES}
    paths: dict[str, list[float]] = {name: [] for name in JOBS_STAGES}
    for round_no in range(args.rounds):
        for name in JOBS_STAGES:
            db = Path(folder) / f"{name.replace(' ', '_')}_{round_no}.duckdb"
            load = os.getloadavg()[0]
            f = _run_child(name, db, source, args)
            walls[name].append(f["wall"])
            paths[name].append(max(f["cpu"], f["reader_cpu"]))
            print(
                f"| {name} | {load:.1f} | {f['wall']:.2f} | {f['deals'] / f['wall']:,.0f} "
                f"| {f['cpu']:.2f} | {f['reader_cpu']:.2f} "
                f"| {f['deals']:,} deals, {f['matches']:,} matches |",
                flush=True,
            )
    one, two = min(walls["jobs 1"]), min(walls["jobs 2"])
    cpu_one, cpu_two = min(paths["jobs 1"]), min(paths["jobs 2"])
    print(
        f"\n--jobs 2 against --jobs 1, best of each: {one / two:.2f}x by wall time; "
        f"{cpu_one / cpu_two:.2f}x by the CPU time of the busier process (the wall time "
        "with two free cores)"
    )


if __name__ == "__main__":
    main()
