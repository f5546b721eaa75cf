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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Run as a script, bench/ comes first on the path: put the repository root before it.
sys.path.insert(0, str(ROOT))
SAMPLE = ROOT / "sample_logs" / "formats" / "bhoos_archive.json"


def write_input(path: Path, size_mb: int) -> int:
    """Write about ``size_mb`` MB of matches, one a line; returns how many."""
    from importers.bhoos_archive import read_stream
    from importers.canonical import dump_match

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

    from importers.formats import import_paths

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=1024, help="input size (default 1024)")
    parser.add_argument("--dir", type=Path, default=None, help="where to write (default: temp)")
    parser.add_argument("--repeat", type=int, default=1, help="runs, the best taken (default 1)")
    parser.add_argument("--child", nargs=2, metavar=("IN", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        source, output = args.child
        child(source, output, args.repeat)
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
            str(args.repeat),
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
