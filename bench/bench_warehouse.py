"""Query speed on a large warehouse: the views and ``twentynine stats``, before and after.

Run from the repository root: ``python bench/bench_warehouse.py`` (``--deals 500000``).

The warehouse is built once and kept (``--cache``, a folder under the system's temporary
folder by default): bot matches of every preset (``replay.selfplay``, a few rule breaches
injected), audited once and stored again and again under new ids, each copy seated by four
of ``--players`` players, until ``--deals`` deals. It is built by the code *before* (the git
revision ``--before``, unpacked into the cache with ``git archive``), so the file has that
code's schema; a copy of it is then opened for writing by this worktree's code, which
migrates it in place (timed), and the same queries run on both files:

- ``select * from bids limit 10`` and the other views' first rows, as ``twentynine query``
  runs them (open read-only, query, close);
- a query over every row of ``bids``, ``hands`` and ``contracts``;
- ``twentynine stats`` (the player statistics with the one-deal note) and ``--by role``.

Each figure is the best of ``--repeat`` runs, in a child process per code (so neither
imports the other), all cores. The results of every query are compared between the two
codes (a digest of the rows; not for ``LIMIT 10`` without an order, where any ten rows are
right), and the 1-minute load average is printed with the figures: the machine is shared.
A benchmark, never a test.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

QUERIES: dict[str, str] = {
    "bids limit 10": "SELECT * FROM bids LIMIT 10",
    "hands limit 10": "SELECT * FROM hands LIMIT 10",
    "contracts limit 10": "SELECT * FROM contracts LIMIT 10",
    "player_analysis": "SELECT * FROM player_analysis",
    "bids, all rows": (
        "SELECT decision, f4_points, f4_jacks, count(*), avg(f4_trumps) FROM bids "
        "GROUP BY ALL ORDER BY ALL"
    ),
    "hands, all rows": (
        "SELECT f4_longest_suit, f4_points, count(*), sum(points), sum(trumps), "
        "sum(f4_trumps), sum(known) FROM hands GROUP BY ALL ORDER BY ALL"
    ),
    "contracts, all rows": (
        "SELECT call, position, count(*), avg(made::INT), sum(caller_score_change) "
        "FROM contracts GROUP BY ALL ORDER BY ALL"
    ),
}
"""What is timed: ``twentynine query SQL`` (open read-only, run, close)."""

STATS = ("twentynine stats", "twentynine stats --by role")

PRESET_MATCHES = 12  # bot matches per preset in the pool the warehouse is copied from


def _use(code: Path) -> None:
    """Import the project from ``code`` (this worktree, or the unpacked code before)."""
    sys.path.insert(0, str(code))


def _pool(per_preset: int) -> list[tuple[Any, Any]]:
    from twentynine.replay import audit_match
    from twentynine.replay.selfplay import simulate_matches
    from twentynine.schema import PRESET_NAMES, Rules

    out = []
    for n, preset in enumerate(PRESET_NAMES):
        for log in simulate_matches(Rules.preset(preset), per_preset, 100 + n, inject_rate=0.02):
            out.append((log, audit_match(log)))
    return out


def _copies(base: list[tuple[Any, Any]], deals: int, players: int) -> Iterator[tuple[Any, Any]]:
    """The pool over and over under fresh ids and players, until at least ``deals`` deals."""
    import dataclasses

    rng = random.Random(29)
    made = n = 0
    while made < deals:
        log, audited = base[n % len(base)]
        n += 1
        match_id = f"bench-{n}"
        seated = rng.sample(range(players), 4)
        names = {seat: f"player-{p:05d}" for seat, p in zip("NESW", seated, strict=True)}
        yield (
            log.model_copy(update={"id": match_id, "players": names}),
            dataclasses.replace(audited, match_id=match_id),
        )
        made += len(log.deals)


def build(db: Path, deals: int, players: int) -> dict[str, Any]:
    """Store the copies into a new file (in the code this process imports)."""
    from twentynine.reports.warehouse.store import open_warehouse

    start = time.perf_counter()
    base = _pool(PRESET_MATCHES)
    with open_warehouse(db) as wh:
        summary = wh.load_audited(_copies(base, deals, players))
    return {"deals": summary.deals, "matches": summary.stored, "s": time.perf_counter() - start}


def migrate(db: Path) -> dict[str, Any]:
    """Open ``db`` for writing (which migrates an older file) and say how long it took."""
    from twentynine.reports.warehouse import ddl
    from twentynine.reports.warehouse.store import open_warehouse

    start = time.perf_counter()
    with open_warehouse(db) as wh:
        version = wh.schema_version
    return {"s": time.perf_counter() - start, "version": version, "code": ddl.SCHEMA_VERSION}


def _digest(rows: list[tuple[Any, ...]]) -> str:
    return hashlib.sha256(repr(rows).encode()).hexdigest()[:12]


def measure(db: Path, repeat: int) -> dict[str, Any]:
    """Best-of-``repeat`` seconds and a digest of the rows of every query and of stats."""
    from twentynine.reports.warehouse.stats import StatsRequest, run_stats_report
    from twentynine.reports.warehouse.store import run_query

    out: dict[str, Any] = {}
    for name, sql in QUERIES.items():
        times, rows = [], []
        for _ in range(repeat):
            start = time.perf_counter()
            rows = run_query(sql, db=db).rows
            times.append(time.perf_counter() - start)
        out[name] = {"s": min(times), "digest": _digest(rows), "rows": len(rows)}
    for name in STATS:
        request = StatsRequest(by_role=name.endswith("role"))
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            report = run_stats_report(request, db=db)
            times.append(time.perf_counter() - start)
        rows = report.result.rows
        out[name] = {"s": min(times), "digest": _digest(rows), "rows": len(rows)}
    return out


def _child(code: Path, *args: str) -> dict[str, Any]:
    command = [sys.executable, str(Path(__file__).resolve()), "--code", str(code), *args]
    done = subprocess.run(command, check=True, capture_output=True, text=True, cwd=code)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _unpack(revision: str, cache: Path) -> Path:
    """The code of ``revision``, unpacked once into the cache."""
    sha = _git("rev-parse", "--short=12", revision)
    folder = cache / f"code-{sha}"
    if not folder.exists():
        partial = cache / f"code-{sha}.partial"
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        archive = subprocess.run(
            ["git", "archive", sha], check=True, capture_output=True, cwd=ROOT
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(partial)], input=archive, check=True)
        partial.rename(folder)
    return folder


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], check=True, capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()


def _load_average() -> str:
    return f"{os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500_000)
    parser.add_argument("--players", type=int, default=5_000, help="players the copies seat")
    parser.add_argument(
        "--before", help="git revision of the code before (default: where HEAD left main)"
    )
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--cache", type=Path, help="folder the warehouse is kept in")
    parser.add_argument("--code", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--task", choices=("build", "migrate", "measure"), help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.task:  # a child, in the code of --code
        _use(args.code)
        if args.task == "build":
            print(json.dumps(build(args.db, args.deals, args.players)))
        elif args.task == "migrate":
            print(json.dumps(migrate(args.db)))
        else:
            print(json.dumps(measure(args.db, args.repeat)))
        return
    cache = args.cache or Path(tempfile.gettempdir()) / "twentynine-bench-warehouse"
    cache.mkdir(parents=True, exist_ok=True)
    before = args.before or _git("merge-base", "HEAD", "main")
    before_code = _unpack(before, cache)
    before_db = cache / f"{before_code.name}-{args.deals}-{args.players}.duckdb"
    if not before_db.exists():
        print(f"building {args.deals:,} deals with the code of {before} ...", flush=True)
        partial = before_db.with_suffix(".partial")
        partial.unlink(missing_ok=True)
        built = _child(
            before_code, "--task", "build", "--db", str(partial), "--deals", str(args.deals),
            "--players", str(args.players),
        )  # fmt: skip
        partial.rename(before_db)
        print(
            f"built in {built['s']:.0f} s: {built['matches']:,} matches, {built['deals']:,} deals"
        )
    after_db = cache / "after.duckdb"
    shutil.copyfile(before_db, after_db)
    migrated = _child(ROOT, "--task", "migrate", "--db", str(after_db))
    print(
        f"{before_db.name} ({before_db.stat().st_size / 2**20:.0f} MB); opened for writing by "
        f"this code (schema {migrated['code']}): {migrated['s']:.1f} s, "
        f"{after_db.stat().st_size / 2**20:.0f} MB after; load average {_load_average()}",
        flush=True,
    )
    repeat = ("--repeat", str(args.repeat))
    old = _child(before_code, "--task", "measure", "--db", str(before_db), *repeat)
    load_mid = _load_average()
    after = _child(ROOT, "--task", "measure", "--db", str(after_db), *repeat)
    print(f"\nbest of {args.repeat}; load average {load_mid} and {_load_average()}")
    print(f"| query | before ({before_code.name[5:]}) ms | after ms | rows | same result |")
    print("|---|---|---|---|---|")
    for name in (*QUERIES, *STATS):
        b, a = old[name], after[name]
        same = "yes" if a["digest"] == b["digest"] else "NO"
        if "limit" in name:  # without ORDER BY, any ten rows are a right answer
            same = "-"
        print(f"| {name} | {b['s'] * 1000:,.0f} | {a['s'] * 1000:,.0f} | {a['rows']:,} | {same} |")
    after_db.unlink()


if __name__ == "__main__":
    main()
