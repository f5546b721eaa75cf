"""Audit throughput on a JSONL file of random legal games, against parsing it with orjson.

Run from the repository root: ``python bench/bench_audit.py`` (``--deals 10000`` by default).
The file is generated once (random matches of every preset, uniform among legal actions)
and kept in the temp directory. Prints, best of ``--repeat`` runs on one core:

- parse: ``orjson.loads`` of every line (the floor any reader pays);
- validate: ``MatchLog.model_validate_json`` of every line, as the canonical reader does
  (it parses and validates in one pass; every field is checked);
- audit: ``audit_match`` on already-validated models (the engine's own cost);
- end to end: validate + audit a line at a time, results dropped as a streaming CLI would;
- end to end, orjson: ``orjson.loads`` + ``MatchLog.model_validate`` + audit (how the
  first version of this benchmark read the file, kept for comparison);
- reader + audit: ``importers.formats.read_any`` (what ``twentynine audit`` reads with:
  file I/O, format detection, records) + audit;

in deals per second, each as a multiple of the parse time, and peak memory.
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

from importers.formats import read_any
from replay import audit_match, random_match
from schema import PRESET_NAMES, MatchLog, Rules


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


def best_of(repeat: int, run: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2029)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--file", type=Path, default=None)
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
    deals = sum(len(m.deals) for m in models)
    plays = sum(1 for m in models for d in m.deals for a in d.actions if a.type == "play")
    errors = sum(audit_match(m).errors for m in models)

    def parse() -> None:
        for line in lines:
            orjson.loads(line)

    def validate() -> None:
        for line in lines:
            MatchLog.model_validate_json(line)

    def audit() -> None:
        for model in models:
            audit_match(model)

    def end_to_end() -> None:
        for line in lines:
            audit_match(MatchLog.model_validate_json(line))

    def end_to_end_orjson() -> None:
        for line in lines:
            audit_match(MatchLog.model_validate(orjson.loads(line)))

    def reader() -> None:
        for record in read_any(path):
            assert record.match is not None
            audit_match(record.match)

    t_parse = best_of(args.repeat, parse)
    t_validate = best_of(args.repeat, validate)
    t_audit = best_of(args.repeat, audit)
    t_all = best_of(args.repeat, end_to_end)
    t_orjson = best_of(args.repeat, end_to_end_orjson)
    t_reader = best_of(args.repeat, reader)

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
    print(f"{'step':<12}{'seconds':>9}{'deals/s':>10}{'x parse':>9}")
    for name, t in (
        ("parse", t_parse),
        ("validate", t_validate),
        ("audit", t_audit),
        ("end to end", t_all),
        ("e2e, orjson", t_orjson),
        ("reader+audit", t_reader),
    ):
        print(f"{name:<12}{t:>9.3f}{deals / t:>10.0f}{t / t_parse:>9.1f}")
    print(
        f"peak traced memory: audit {audit_peak / 1e6:.2f} MB above the models in memory; "
        f"end to end {stream_peak / 1e6:.2f} MB (one match at a time); "
        f"process max RSS {rss:.0f} MB (all {len(models)} models held)"
    )
    print(f"python {sys.version.split()[0]}, orjson {orjson.__version__}")


if __name__ == "__main__":
    main()
