"""The players report of a whole archive at ``--min-deals 1`` (issue 36 §4): its time, peak
memory and size, and how long Chromium takes to open it and to sort its players' table.

Run from the repository root, with the warehouse of the Bhoos archive (``twentynine import``
its folder, then ``twentynine load``): ``python bench/bench_players_archive.py ARCHIVE.duckdb``.
The report is made as a user makes it (``twentynine report players --db ARCHIVE.duckdb
--min-deals 1 -o ...``, its three example matches included) in a process of its own, whose
peak resident memory the kernel counts. The page is opened in Debian's Chromium when there is
one (``TWENTYNINE_CHROMIUM`` names another). Once: the machine is shared. A benchmark, never a
test.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def make_report(db: Path, out: Path) -> tuple[float, float]:
    """Seconds and peak megabytes of ``twentynine report players --min-deals 1``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "twentynine", "report", "players", "--db", str(db)]
    start = time.perf_counter()
    subprocess.run([*command, "--min-deals", "1", "-o", str(out)], check=True, env=env)
    seconds = time.perf_counter() - start
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # Linux: KiB
    return seconds, peak_kib / 1024


def open_page(out: Path) -> tuple[float, float] | None:
    """Seconds until Chromium has drawn the page (its charts included), then to sort the
    players' table by a click on its first heading; None without Chromium."""
    executable = os.environ.get("TWENTYNINE_CHROMIUM") or shutil.which("chromium")
    if executable is None:
        return None
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        start = time.perf_counter()
        page.goto(out.as_uri(), timeout=600_000)
        page.wait_for_selector("body[data-charts=drawn]", timeout=600_000)
        opened = time.perf_counter() - start
        start = time.perf_counter()
        page.click("#players thead th:first-child button", timeout=600_000)
        page.wait_for_selector("#players thead th[aria-sort]", timeout=600_000)
        sorted_in = time.perf_counter() - start
        browser.close()
    return opened, sorted_in


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: python bench/bench_players_archive.py ARCHIVE.duckdb")
    db = Path(sys.argv[1])
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "players.html"
        seconds, peak = make_report(db, out)
        html = out.read_text(encoding="utf-8")
        sections = len(re.findall(r'<section class="player"', html))
        rows = html.count("<tr>")
        print(f"report players --min-deals 1: {seconds:.1f} s, peak {peak:.0f} MB")
        print(f"page: {len(html.encode()) / 1e6:.2f} MB, {sections:,} sections, {rows:,} rows")
        left = re.search(r'id="sections-left-out">([^<]*)<', html)
        if left:
            print(f"under the sections: {left.group(1)}")
        timed = open_page(out)
        if timed is not None:
            drawn, sorted_in = timed
            print(f"Chromium: drawn in {drawn:.1f} s, the table sorted in {sorted_in:.1f} s")


if __name__ == "__main__":
    main()
