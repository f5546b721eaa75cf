"""Peak memory of ``twentynine analyze`` against the number of matches: flat when it streams.

For each N of ``--matches``, writes N random bangladesh matches of ``--deals`` deals (0: whole
matches) under fresh ids as one JSONL file, then runs ``twentynine analyze FILE --only GROUPS
--samples S --db NEW.duckdb --jobs J`` for each J of ``--jobs``, and ``twentynine load FILE
--db NEW.duckdb`` for comparison, each in a fresh child process that runs the command in
itself. Prints the wall time, the CPU time (the process's and its children's), and the peak
resident memory (``resource.getrusage``: ``ru_maxrss`` of the process itself, and of its
children, the workers of ``--jobs`` above 1: the largest of them).

    python bench/bench_analyze_memory.py                         # 100, 300 and 1,000 matches
    python bench/bench_analyze_memory.py --matches 50 200 --jobs 1   # a quick look
    python bench/bench_analyze_memory.py --deals 0 --only doubles --samples 1  # whole matches
    python bench/bench_analyze_memory.py --checkout ../main      # another checkout's command

``--checkout DIR`` runs the commands of the checkout at DIR (the same files, made here): a
before-and-after of a change.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, bench/ comes first on the path: put the repository root before it.
sys.path.insert(0, str(ROOT))


def write_matches(path: Path, count: int, deals: int) -> int:
    """``count`` random bangladesh matches of ``deals`` deals each (0: whole) as JSONL; the
    deals."""
    from twentynine.replay import random_match
    from twentynine.schema import Rules

    total = 0
    with path.open("wb") as out:
        for seed in range(count):
            log = random_match(Rules.preset("bangladesh"), seed, max_deals=deals or 200)
            log = log.model_copy(update={"id": f"bench-memory-{seed}"})
            total += len(log.deals)
            out.write(log.canonical_json() + b"\n")
    return total


def measure(checkout: Path, args: list[str]) -> dict[str, float]:
    """Run ``twentynine ARGS`` in a fresh child process of ``checkout``: its wall time and
    peak memory (MB) of itself and of its largest child."""
    code = (
        "import json, resource, sys, time\n"
        "from twentynine.cli import main\n"
        "start = time.perf_counter()\n"
        "sys.argv[0] = 'twentynine'\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        "else:\n"
        "    code = 0\n"
        "own = resource.getrusage(resource.RUSAGE_SELF)\n"
        "children = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "cpu = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime\n"
        "print(json.dumps({'exit': code, 'seconds': time.perf_counter() - start, 'cpu': cpu,"
        " 'self_mb': own.ru_maxrss / 1024, 'children_mb': children.ru_maxrss / 1024}),"
        " file=sys.__stderr__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=checkout,
        env={**os.environ, "PYTHONPATH": str(checkout)},
        capture_output=True,
        text=True,
        check=False,
    )
    lines = done.stderr.strip().splitlines()
    try:
        figures: dict[str, float] = json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        raise SystemExit(f"the command failed: {done.stderr.strip()[-2000:]}") from None
    if figures["exit"] not in (0, None):
        raise SystemExit(f"the command exited {figures['exit']}: {done.stderr.strip()[-2000:]}")
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, nargs="+", default=[100, 300, 1000])
    parser.add_argument("--deals", type=int, default=1, help="deals a match (0: whole matches)")
    parser.add_argument("--only", default="cards,shows", help="analyze --only")
    parser.add_argument("--samples", type=int, default=32, help="analyze --samples")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--checkout", type=Path, default=ROOT, help="whose command to run")
    args = parser.parse_args(argv)
    checkout = args.checkout.resolve()
    print(f"checkout {checkout}; load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"analyze --only {args.only} --samples {args.samples}")
    print("command           matches  deals  wall s   CPU s  peak MB (self)  (largest child)")
    with tempfile.TemporaryDirectory() as folder:
        for count in args.matches:
            source = Path(folder) / f"m{count}.jsonl"
            deals = write_matches(source, count, args.deals)
            analyze = ["--only", args.only, "--samples", str(args.samples)]
            runs = [
                (f"analyze --jobs {j}", ["analyze", "--jobs", str(j), *analyze]) for j in args.jobs
            ]
            runs.append(("load", ["load"]))
            for name, command in runs:
                db = Path(folder) / f"w{time.monotonic_ns()}.duckdb"
                figures = measure(
                    checkout, [*command[:1], str(source), *command[1:], "--db", str(db)]
                )
                print(
                    f"{name:<16}  {count:>7}  {deals:>5}  {figures['seconds']:>6.1f}  "
                    f"{figures['cpu']:>6.1f}  {figures['self_mb']:>14.0f}  "
                    f"{figures['children_mb']:>15.0f}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
