"""Start-up time of the CLI: a command that does little, against ``python -c pass``.

Run from the repository root: ``python bench/bench_startup.py`` (``--runs 21`` by default;
``--compare DIR`` also times the CLI of another checkout, e.g. the main branch, in the same
turns, so that both see the same machine).
Each command runs as a fresh process, ``--runs`` times, the commands taking turns so that a
busy moment of the machine falls on all of them alike; prints the median wall time of each
and its multiple of the median of ``python -c pass`` (the floor any Python command pays):

- ``python -c pass``;
- ``python -c "import typer"`` (the CLI's own library, for scale);
- ``twentynine rules`` (every preset's options: the rules, no input);
- ``twentynine audit FILE`` of one match (read, audit, print);
- ``twentynine solve --help`` (the solve command's own start-up) and ``twentynine solve FILE
  --deal 1``, a full deal solved from its first lead: the difference of the two is what
  solving costs a command (issue 22's target: 100 ms at most).

Compiled modules are kept between runs (in a folder under the temp directory), as an
installed package keeps them. Then the libraries each command imported (of DuckDB, Arrow,
numpy, pydantic, rich, plotly, jinja2, numba and the analysis), from ``python -X importtime``.
A benchmark, never a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ONE_MATCH = "sample_logs/pagat.json"
TO_SOLVE = "sample_logs/bhoos.json"
HEAVY = ("duckdb", "pyarrow", "numpy", "pydantic", "rich", "plotly", "jinja2", "numba", "analysis")

COMMANDS: dict[str, list[str]] = {
    "python -c pass": ["-c", "pass"],
    "import typer": ["-c", "import typer"],
    "twentynine rules": ["-m", "twentynine", "rules"],
    f"twentynine audit {ONE_MATCH}": ["-m", "twentynine", "audit", ONE_MATCH],
    "twentynine solve --help": ["-m", "twentynine", "solve", "--help"],
    f"twentynine solve {TO_SOLVE} --deal 1": ["-m", "twentynine", "solve", TO_SOLVE, "--deal", "1"],
}


def bytecode_cached() -> dict[str, str]:
    """The environment of the runs: compiled modules kept, as an installed package keeps
    them (with ``PYTHONDONTWRITEBYTECODE`` set, a run compiles every changed module again),
    in a folder of their own under the temp directory, so that no checkout is written to."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "twentynine-bench-pycache")
    return env


ENV = bytecode_cached()


def wall_time(arguments: list[str], root: Path) -> float:
    """Seconds one run of ``python ARGUMENTS`` takes, output dropped."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, *arguments], cwd=root, env=ENV, stdout=subprocess.DEVNULL, check=False
    )
    return time.perf_counter() - start


def imported(arguments: list[str], root: Path) -> list[str]:
    """Which of :data:`HEAVY` a run of ``python ARGUMENTS`` imports."""
    run = subprocess.run(
        [sys.executable, "-X", "importtime", *arguments],
        cwd=root,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    modules = [line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines()]
    # a room of twentynine by its own name (twentynine.analysis.solver: analysis)
    names = {module.removeprefix("twentynine.").split(".")[0] for module in modules}
    return [name for name in HEAVY if name in names]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument(
        "--compare",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="Also time the CLI of this checkout (repeatable), its runs taking turns with ours.",
    )
    args = parser.parse_args()
    roots = [ROOT, *args.compare]
    runs = [(root, name) for root in roots for name in COMMANDS]
    times: dict[tuple[Path, str], list[float]] = {run: [] for run in runs}
    for root, name in runs:  # one run each first: warm the file cache
        wall_time(COMMANDS[name], root)
    for _ in range(args.runs):
        for root, name in runs:
            times[root, name].append(wall_time(COMMANDS[name], root))
    for root in roots:
        floor = statistics.median(times[root, "python -c pass"])
        print(f"{root}: median of {args.runs} runs each, as a multiple of `python -c pass`")
        print(f"{'command':<44}{'ms':>8}{'x pass':>8}  imports")
        for name, arguments in COMMANDS.items():
            median = statistics.median(times[root, name])
            heavy = ", ".join(imported(arguments, root)) or "-"
            print(f"{name:<44}{median * 1000:>8.1f}{median / floor:>8.1f}  {heavy}")
        solving = statistics.median(
            [
                full - bare
                for full, bare in zip(
                    times[root, f"twentynine solve {TO_SOLVE} --deal 1"],
                    times[root, "twentynine solve --help"],
                    strict=True,
                )
            ]
        )
        print(f"solving the deal, over the command's own start-up: {solving * 1000:.1f} ms")
    print(f"python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
