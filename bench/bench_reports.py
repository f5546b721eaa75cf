"""HTML reports: how long they take to render and how big they are.

Run from the repository root: ``python bench/bench_reports.py``. Renders the match report of
each sample match (audit included, as ``twentynine report match`` does, best of three) and
the players report of a warehouse of all the samples (best of three, the example matches
left out), and prints seconds, megabytes, and the viewer's share of the match report.
A benchmark, never a test.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# Run as a script, bench/ comes first on the path: put the repository root before it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from twentynine.importers.formats import read_any
from twentynine.loading import load_paths
from twentynine.replay import audit_match, engine_build
from twentynine.reports.html.match import match_context, match_report
from twentynine.reports.html.players import players_report
from twentynine.reports.html.render import plotly_bundle
from twentynine.reports.warehouse.store import open_warehouse
from twentynine.schema.log import MatchLog

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def best_of(runs: int, work: Callable[[], str]) -> tuple[float, str]:
    best, out = float("inf"), ""
    for _ in range(runs):
        start = time.perf_counter()
        out = work()
        best = min(best, time.perf_counter() - start)
    return best, out


def _render(match: MatchLog) -> Callable[[], str]:
    return lambda: match_report(match, audit_match(match), None)


def main() -> None:
    print(f"rules engine: {engine_build()}")
    plotly_bundle()  # once per process, as the CLI pays it
    print(f"plotly.js embedded (gzip + base64): {len(plotly_bundle()) / 1e6:.2f} MB")
    print(f"{'match report':<22} {'deals':>5} {'seconds':>8} {'MB':>6} {'viewer MB':>9}")
    for path in sorted(SAMPLES.glob("*.json")):
        match = next(r.match for r in read_any(path) if r.match is not None)
        seconds, page = best_of(3, _render(match))
        viewer = len(str(match_context(match, audit_match(match), None).viewer_data).encode())
        print(
            f"{path.name:<22} {len(match.deals):>5} {seconds:>8.2f} "
            f"{len(page.encode()) / 1e6:>6.2f} {viewer / 1e6:>9.2f}"
        )
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "w.duckdb"
        summary = load_paths([SAMPLES], db=db)
        with open_warehouse(db, read_only=True) as wh:
            seconds, page = best_of(3, lambda: players_report(wh, 30, lambda *_: None))
        print(
            f"players report of {summary.deals:,} deals: {seconds:.2f} s, "
            f"{len(page.encode()) / 1e6:.2f} MB"
        )


if __name__ == "__main__":
    main()
