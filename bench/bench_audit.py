"""Audit throughput on a JSONL file of random legal games, against parsing it with orjson.

Run from the repository root: ``python bench/bench_audit.py`` (``--deals 10000`` by default).
The file is generated once (random matches of every preset, uniform among legal actions)
and kept in the temp directory. Prints, best of ``--repeat`` runs on one core (timed by the
wall clock, or with ``--cpu`` by the process's CPU time), in deals per second and as a
multiple of the parse time:

- parse: ``orjson.loads`` of every line (the floor any reader pays);
- decode: ``schema.fastlog.decode_match`` of every line: parse and check every field into
  the fast structs, the way ``twentynine audit`` reads canonical logs;
- audit: ``audit_match`` on already-decoded fast structs (the engine's own cost);
- end to end: decode + audit a line at a time, results dropped, as a streaming audit does;
- reader + audit: ``importers.formats.read_any(path, fast=True)`` (file I/O, format
  detection, a record a match) + audit, counted into a ``replay.summary.AuditSummary``:
  what ``twentynine audit`` runs, less its start-up and output;

the last two with the collector set as ``twentynine audit`` sets it
(``replay.summary.seldom_collected``);

and, for comparison, the same through the pydantic models (what the importers and the
warehouse read with): validate (``MatchLog.model_validate_json``), audit on the models, end
to end. Then peak memory, and which engine ran (compiled or pure Python).
A benchmark, never a test.
"""

from __future__ import annotations

import argparse
import gc
import resource
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import orjson

# Run as a script, bench/ comes first on the path: put the repository root before it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from twentynine.importers.formats import read_any
from twentynine.replay import audit_match, random_match
from twentynine.replay.summary import AuditSummary, seldom_collected
from twentynine.schema import PRESET_NAMES, MatchLike, MatchLog, Rules
from twentynine.schema.fastlog import decode_match


def make_file(path: Path, deals: int, seed: int) -> None:
    """Write random legal matches, presets in turn, until exactly ``deals`` deals."""
    written = 0
    n = 0
    with path.open("wb") as out:
        while written < deals:
            rules = Rules.preset(PRESET_NAMES[n % len(PRESET_NAMES)])
            log = random_match(rules, seed + n, max_deals=min(200, deals - written))
            out.write(orjson.dumps(log.to_canonical()) + b"\n")
            written += len(log.deals)
            n += 1


def best_of(repeat: int, run: Callable[[], object], clock: Callable[[], float]) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        start = clock()
        run()
        times.append(clock() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2029)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--file", type=Path, default=None)
    parser.add_argument(
        "--cpu", action="store_true", help="time by this process's CPU, not the wall clock"
    )
    args = parser.parse_args()
    path = (
        args.file
        or Path(tempfile.gettempdir()) / f"twentynine-bench-{args.deals}-{args.seed}.jsonl"
    )
    if not path.exists():
        start = time.perf_counter()
        make_file(path, args.deals, args.seed)
        print(f"generated {path} in {time.perf_counter() - start:.1f} s")
    lines = path.read_bytes().splitlines()
    models = [MatchLog.model_validate_json(line) for line in lines]
    fast: list[MatchLike] = []
    for line in lines:
        decoded = decode_match(line)
        assert decoded is not None, "the fast decoder must read every generated match"
        fast.append(decoded)
    deals = sum(len(m.deals) for m in models)
    plays = sum(1 for m in models for d in m.deals for a in d.actions if a.type == "play")
    errors = sum(audit_match(m).errors for m in fast)
    assert errors == sum(audit_match(m).errors for m in models)
    # The matches held for the in-memory rows are this script's scaffolding, not the audit's:
    # keep the collector from walking them in every row (``twentynine audit`` holds none, and
    # freezes what it loaded at start-up the same way). The rows that stand for the command
    # run under its own collector policy, ``seldom_collected``, and no other tweak.
    gc.collect()
    gc.freeze()

    def parse() -> None:
        for line in lines:
            orjson.loads(line)

    def decode() -> None:
        for line in lines:
            decode_match(line)

    def audit() -> None:
        for match in fast:
            audit_match(match)

    def end_to_end() -> None:
        with seldom_collected():  # the collector as ``twentynine audit`` sets it
            for line in lines:
                match = decode_match(line)
                assert match is not None
                audit_match(match)

    def reader() -> None:
        summary = AuditSummary()
        with seldom_collected():
            for record in read_any(path, fast=True):
                assert record.match is not None
                summary.add(record.source, audit_match(record.match))
        assert summary.errors == errors

    def validate_models() -> None:
        for line in lines:
            MatchLog.model_validate_json(line)

    def audit_models() -> None:
        for model in models:
            audit_match(model)

    def end_to_end_models() -> None:
        for line in lines:
            audit_match(MatchLog.model_validate_json(line))

    steps: list[tuple[str, Callable[[], None]]] = [
        ("parse", parse),
        ("decode", decode),
        ("audit", audit),
        ("end to end", end_to_end),
        ("reader+audit", reader),
        ("models: validate", validate_models),
        ("models: audit", audit_models),
        ("models: e2e", end_to_end_models),
    ]
    clock = time.process_time if args.cpu else time.perf_counter
    times = {name: best_of(args.repeat, run, clock) for name, run in steps}

    tracemalloc.start()
    audit()
    _, audit_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    tracemalloc.start()
    end_to_end()
    _, stream_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux

    size = path.stat().st_size
    print(f"file: {path} ({size / 1e6:.1f} MB, {len(lines)} matches, {deals} deals, {plays} cards)")
    print(f"audit errors in the file: {errors} (random legal games must give 0)")
    print(f"timed by {'CPU' if args.cpu else 'the wall clock'}, best of {args.repeat}")
    print(f"{'step':<18}{'seconds':>9}{'deals/s':>10}{'x parse':>9}")
    t_parse = times["parse"]
    for name, t in times.items():
        print(f"{name:<18}{t:>9.3f}{deals / t:>10.0f}{t / t_parse:>9.1f}")
    print(
        f"peak traced memory: audit {audit_peak / 1e6:.2f} MB above the models in memory; "
        f"end to end {stream_peak / 1e6:.2f} MB (one match at a time); "
        f"process max RSS {rss:.0f} MB (all {len(models)} matches held, twice)"
    )
    print(f"python {sys.version.split()[0]}, orjson {orjson.__version__}")


if __name__ == "__main__":
    main()
