"""Throughput of ``twentynine analyze`` on the Bhoos archive: games a second, peak memory, Dask.

Runs the command itself, from this checkout (or ``--checkout DIR``'s: a before and after),
in a child process, at the default samples, into a new warehouse, on games of the archive:
games taken from each of its files in turn (every bot's record alike), written once as
canonical JSON lines so that any checkout reads the same games the same way:

1. every kind of decision, ``--jobs J``;
2. ``--only bids`` on ``--bids-games`` games, ``--jobs J``;
3. (``--dask``) every kind on ``--dask-games`` games through ``--cluster`` on a Dask
   ``LocalCluster`` of one worker process, then of two (one thread each), the JSON lines
   of both compared byte for byte.

For each it prints the wall time, games a second, the CPU time of the command and its
workers, and the peak memory of the command's whole process tree (the sum of the resident
memory of the command and its workers, sampled every 0.2 s). The load average is printed
before and after each: the machine is shared, and other work slows every figure. After each
run (untimed) it prints the SHA-256 of the warehouse's annotations table, every row in order
as DuckDB writes it to CSV: two checkouts that annotate alike print the same digest.

    python bench/bench_analyze_archive.py                          # 200 games, bids 1,000
    python bench/bench_analyze_archive.py --games 40 --bids-games 200 --dask --dask-games 60
    python bench/bench_analyze_archive.py --games 0 --bids-games 3668   # bids, every game
    python bench/bench_analyze_archive.py --checkout /tmp/before        # another checkout

The archive is ``../shared/real/bhoos`` from the checkout (``--archive DIR``); the tests
never read it.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from twentynine.schema.log import MatchLog

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = ROOT.parent / "shared" / "real" / "bhoos"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, default=ARCHIVE)
    parser.add_argument("--games", type=int, default=200, help="games, every kind (0: none)")
    parser.add_argument("--bids-games", type=int, default=1000, help="games, bids (0: none)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--samples", type=int, default=None, help="default: the command's")
    parser.add_argument("--dask", action="store_true", help="time 1 and 2 Dask workers")
    parser.add_argument("--dask-games", type=int, default=60)
    parser.add_argument("--dask-only", default=None, help="--only for the Dask runs")
    parser.add_argument("--checkout", type=Path, default=ROOT, help="whose command to run")
    args = parser.parse_args(argv)
    files = sorted(args.archive.glob("*.json"))
    if not files:
        print(f"no archive files in {args.archive}", file=sys.stderr)
        return 2
    extra = [] if args.samples is None else ["--samples", str(args.samples)]
    checkout = args.checkout.resolve()
    print(f"archive: {len(files)} files in {args.archive}; the command of {checkout}")
    print(f"CPUs: {os.cpu_count()}; load average at the start: {_load()}")
    with tempfile.TemporaryDirectory() as folder:
        runs = [
            ("every kind", args.games, []),
            ("--only bids", args.bids_games, ["--only", "bids"]),
        ]
        for name, games, only in runs:
            if not games:
                continue
            db = Path(folder) / f"{len(only)}.duckdb"
            games_file = _games(files, games, Path(folder) / f"{games}.jsonl")
            command = [str(games_file), "--jobs", str(args.jobs), "--db", str(db)]
            timed = _run([*command, *only, *extra], checkout)
            print(
                f"\n{name}, {games} games, --jobs {args.jobs}: {timed.wall:.1f} s wall, "
                f"**{games / timed.wall:.2f} games/s**, {timed.cpu:.1f} s CPU "
                f"({timed.cpu / games:.3f} s a game), peak memory {timed.peak_mb:.0f} MB "
                f"(the command and its workers); load {timed.load_before} -> {timed.load_after}"
            )
            print(f"  {timed.summary}")
            print(f"  annotations: {_digest(db)}")
        if args.dask:
            games_file = _games(files, args.dask_games, Path(folder) / "dask.jsonl")
            _dask(games_file, args.dask_games, args.dask_only, extra, checkout)
    return 0


def _games(files: list[Path], count: int, path: Path) -> Path:
    """``count`` games of the archive taken from its files in turn (the first game of each,
    then the second of each, ...: every bot's record alike), written to ``path`` as JSON
    lines."""
    sys.path.insert(0, str(ROOT))
    from twentynine.importers.formats import read_paths, write_matches

    readers = [(r.match for r in read_paths([str(f)]) if r.match is not None) for f in files]
    games: list[MatchLog] = []
    while readers and len(games) < count:
        for reader in list(readers):
            game = next(reader, None)
            if game is None:
                readers.remove(reader)
            elif len(games) < count:
                games.append(game)
    if len(games) < count:
        raise SystemExit(f"the archive holds {len(games)} games, not {count}")
    write_matches(iter(games), str(path))
    return path


class Timed:
    """One run of the command: wall and CPU seconds, peak memory of its tree, its summary
    line, its standard output, and the load average around it."""

    def __init__(self) -> None:
        self.wall = self.cpu = self.peak_mb = 0.0
        self.summary = ""
        self.stdout = b""
        self.load_before = self.load_after = ""


def _run(arguments: list[str], checkout: Path) -> Timed:
    """Run ``twentynine analyze ARGUMENTS`` of ``checkout`` and time it."""
    timed = Timed()
    command = [sys.executable, "-m", "twentynine", "analyze", *arguments]
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    timed.load_before = _load()
    before = _children_cpu()
    start = time.perf_counter()
    with subprocess.Popen(
        command, cwd=checkout, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as child:
        peak = [0]
        stop = threading.Event()
        watcher = threading.Thread(target=_watch, args=(child.pid, peak, stop), daemon=True)
        watcher.start()
        out, err = child.communicate()
        stop.set()
        watcher.join()
    timed.wall = time.perf_counter() - start
    timed.load_after = _load()
    if child.returncode != 0:
        raise SystemExit(f"the command failed ({child.returncode}): {err.decode()[-2000:]}")
    timed.cpu = _children_cpu() - before
    timed.peak_mb = peak[0] / 2**20
    timed.summary = err.decode().strip().splitlines()[-1]
    timed.stdout = out
    return timed


def _watch(pid: int, peak: list[int], stop: threading.Event) -> None:
    """The largest sum of resident memory of ``pid`` and its descendants, every 0.2 s
    (read from ``/proc``: Linux)."""
    while not stop.wait(0.2):
        peak[0] = max(peak[0], sum(_rss(p) for p in _tree(pid)))


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants alive now."""
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        for task in Path(f"/proc/{current}/task").glob("*/children"):
            try:
                todo += [int(child) for child in task.read_text().split()]
            except OSError:  # gone meanwhile
                continue
    return out


def _rss(pid: int) -> int:
    """Resident bytes of ``pid`` (0 once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return 0
    return 0


def _dask(games_file: Path, games: int, only: str | None, extra: list[str], checkout: Path) -> None:
    """Every kind on ``games`` games through a LocalCluster of 1, then 2 worker processes."""
    from distributed import LocalCluster

    os.environ["PYTHONPATH"] = str(checkout)  # the workers import the checkout's code
    picked = ["--only", only] if only else []
    timings = {}
    outputs = {}
    for workers in (1, 2):
        with LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster:
            command = [str(games_file), *picked, *extra]
            timed = _run([*command, "--cluster", cluster.scheduler_address], checkout)
        timings[workers] = timed.wall
        outputs[workers] = timed.stdout
        print(
            f"\nDask LocalCluster, {workers} worker(s), {games} games{' ' + only if only else ''}:"
            f" {timed.wall:.1f} s wall, {games / timed.wall:.2f} games/s; "
            f"load {timed.load_before} -> {timed.load_after}"
        )
    same = outputs[1] == outputs[2] and bool(outputs[1])
    print(
        f"\n2 workers against 1: **{timings[1] / timings[2]:.2f}x**; "
        f"the same JSON lines, byte for byte: {same} ({len(outputs[1])} bytes)"
    )


def _digest(db: Path) -> str:
    """The count and SHA-256 of the annotations table of ``db``, its rows sorted, as CSV."""
    import hashlib

    import duckdb

    out = db.with_suffix(".csv")
    with duckdb.connect(str(db), read_only=True) as con:
        count = con.sql("SELECT count(*) FROM annotations").fetchall()[0][0]
        con.execute(f"COPY (SELECT * FROM annotations ORDER BY ALL) TO '{out}' (HEADER)")
    return f"{count} rows, sha256 {hashlib.sha256(out.read_bytes()).hexdigest()}"


def _children_cpu() -> float:
    """CPU seconds of the finished children and theirs (the command waits for its workers)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


if __name__ == "__main__":
    sys.exit(main())
