"""Benchmark: import a large canonical JSONL file through ``import_paths``.

Writes a JSONL file of realistic one-deal matches (the sample Bhoos games with fresh ids)
of about ``--size-mb`` megabytes, imports it in a child process (so the peak resident
memory measured is the import's own) and prints the throughput and the peak memory.

    python bench/bench_import.py                 # about 1 GB
    python bench/bench_import.py --size-mb 100   # quicker
    python bench/bench_import.py --size-mb 50 --repeat 5   # the best of five, each timed

It also times ``orjson.loads`` of every line of the input (the same file, read the same way)
and prints the import's time as a multiple of it. The machine's load average is printed
first: on a shared machine the figures move with it.

``--archive PATH...`` measures the Bhoos archive format instead: ``import --from
bhoos-archive`` of the given files against ``orjson.loads`` of the same files, CPU time, the
best of ``--repeat`` (default 10) of each, in turn, in this one process:

    python bench/bench_import.py --archive sample_logs/formats/bhoos_archive.json
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Run as a script, bench/ comes first on the path: put the repository root before it.
sys.path.insert(0, str(ROOT))
SAMPLE = ROOT / "sample_logs" / "formats" / "bhoos_archive.json"


def write_input(path: Path, size_mb: int) -> int:
    """Write about ``size_mb`` MB of matches, one a line; returns how many."""
    from twentynine.importers.bhoos_archive import read_stream
    from twentynine.importers.canonical import dump_match

    with SAMPLE.open("rb") as stream:
        matches = [r.match for r in read_stream(stream, str(SAMPLE)) if r.match is not None]
    templates = [dump_match(m).replace(f'"id":"{m.id}"'.encode(), b'"id":"%s"') for m in matches]
    target = size_mb * 1024 * 1024
    written = count = 0
    with path.open("wb", buffering=1 << 20) as out:
        while written < target:
            line = templates[count % len(templates)] % f"bench-{count}".encode() + b"\n"
            out.write(line)
            written += len(line)
            count += 1
    return count


def child(source: str, output: str, repeat: int) -> None:
    """Run the import and print its figures as JSON (runs in the child process), with the
    time ``orjson.loads`` takes on every line of the same file (read the same way), the floor
    any reader pays: the two in turn, ``repeat`` times, the best of each."""
    import orjson

    from twentynine.importers.formats import import_paths

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    seconds, parses = [], []
    for _ in range(repeat):
        started = time.perf_counter()
        summary = import_paths([source], None, output)
        seconds.append(time.perf_counter() - started)
        started = time.perf_counter()
        with Path(source).open("rb", buffering=1 << 20) as stream:
            for line in stream:
                orjson.loads(line)
        parses.append(time.perf_counter() - started)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    figures = {
        "parse_seconds": min(parses),
        "seconds": min(seconds),
        "imported": summary.imported,
        "skipped": summary.skipped,
        "rss_before_kb": before,
        "rss_peak_kb": peak,
    }
    print(json.dumps(figures))


def archive(paths: list[Path], repeat: int) -> None:
    """Print ``import --from bhoos-archive`` of ``paths`` as a multiple of orjson's parse of
    the same files (CPU time, the best of ``repeat`` of each, the two in turn)."""
    import orjson

    from twentynine.importers.formats import import_paths

    def cpu(run: Callable[[], object]) -> float:
        started = time.process_time()
        run()
        return time.process_time() - started

    def parse() -> None:
        for path in paths:
            orjson.loads(path.read_bytes())

    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out.jsonl"
        summary = import_paths(paths, "bhoos-archive", out)  # once to warm up, and to count
        imports, parses = [], []
        for _ in range(repeat):
            imports.append(cpu(lambda: import_paths(paths, "bhoos-archive", out)))
            parses.append(cpu(parse))
    size = sum(path.stat().st_size for path in paths)
    best, floor = min(imports), min(parses)
    print(
        f"{len(paths)} files, {size / 1e3:.0f} kB: {summary.imported} games imported "
        f"({summary.skipped} skipped) in {best * 1e3:.1f} ms CPU: {best / floor:.1f}x the "
        f"orjson parse of the same files ({floor * 1e3:.2f} ms), best of {repeat}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=1024, help="input size (default 1024)")
    parser.add_argument("--dir", type=Path, default=None, help="where to write (default: temp)")
    parser.add_argument(
        "--repeat", type=int, default=None, help="runs, the best taken (1; --archive: 10)"
    )
    parser.add_argument(
        "--archive", nargs="+", type=Path, metavar="PATH", help="Bhoos archive files to time"
    )
    parser.add_argument("--child", nargs=2, metavar=("IN", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.archive:
        print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        archive(args.archive, args.repeat or 10)
        return
    if args.child:
        source, output = args.child
        child(source, output, args.repeat or 1)
        return
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        source = Path(folder) / "big.jsonl"
        started = time.perf_counter()
        count = write_input(source, args.size_mb)
        size = source.stat().st_size
        print(
            f"input: {size / 1e6:.0f} MB, {count} matches, written in "
            f"{time.perf_counter() - started:.1f} s"
        )
        command = [
            sys.executable,
            __file__,
            "--child",
            str(source),
            str(Path(folder) / "out.jsonl"),
            "--repeat",
            str(args.repeat or 1),
        ]
        result = subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT)
        figures = json.loads(result.stdout.strip().splitlines()[-1])
        seconds = figures["seconds"]
        print(
            f"imported {figures['imported']} matches ({figures['skipped']} skipped) "
            f"in {seconds:.1f} s: {seconds / figures['parse_seconds']:.1f}x the orjson parse "
            f"of the same lines ({figures['parse_seconds']:.2f} s)"
        )
        print(
            f"throughput: {size / 1e6 / seconds:.1f} MB/s, "
            f"{figures['imported'] / seconds:.0f} matches/s"
        )
        print(
            f"peak memory (ru_maxrss): {figures['rss_peak_kb'] / 1024:.0f} MB "
            f"(interpreter and imports before the run: {figures['rss_before_kb'] / 1024:.0f} MB)"
        )


if __name__ == "__main__":
    main()
