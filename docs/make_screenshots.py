"""Regenerate the screenshots of the two HTML reports (docs/images/*.png).

    python docs/make_screenshots.py

Loads the sample logs into a warehouse in a temporary folder, analyzes the bangladesh sample
(``twentynine analyze --samples 8 --jobs 2``: a minute or two), renders both reports with this
checkout's ``twentynine``, opens them in Debian's headless Chromium (``/usr/bin/chromium``, or
``TWENTYNINE_CHROMIUM``) through playwright, and saves each part at 1280 and at 390 px wide.
Nothing is fetched.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import duckdb
from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
SAMPLES = ROOT / "sample_logs"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
WIDTHS = (1280, 390)


def twentynine(*args: str) -> None:
    """Run this checkout's CLI."""
    subprocess.run([sys.executable, "-m", "twentynine", *args], cwd=ROOT, check=True)


def opened(browser: Browser, url: str, width: int) -> Page:
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(url)
    page.wait_for_selector("body[data-charts=drawn]", timeout=60_000)
    return page


def save(page: Page, selector: str, name: str) -> None:
    target = IMAGES / name
    page.locator(selector).first.screenshot(path=str(target))
    print(f"wrote {target.relative_to(ROOT)}")


def players_narrowed(page: Page, width: int) -> None:
    """The players page narrowed by its own lists to the bangladesh matches: the lists, the
    note that says so and the start of the figures."""
    page.select_option("#filter-preset", "bangladesh")
    page.wait_for_selector("#scope")
    height = 560 if width > 500 else 820
    target = IMAGES / f"players-filters-{width}.png"
    page.screenshot(path=str(target), clip={"x": 0, "y": 0, "width": width, "height": height})
    print(f"wrote {target.relative_to(ROOT)}")


def first_blunder(db: Path) -> tuple[int, int]:
    """The deal and action of the first card the analysis called a blunder."""
    with duckdb.connect(str(db), read_only=True) as con:
        row = con.execute(
            "SELECT deal, action FROM annotations WHERE kind = 'card' AND label = 'blunder' "
            "ORDER BY deal, action LIMIT 1"
        ).fetchone()
    if row is None:
        sys.exit("make_screenshots: the analysis found no blunder to show")
    return int(row[0]), int(row[1])


def main() -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    chromium = os.environ.get("TWENTYNINE_CHROMIUM") or shutil.which("chromium")
    if chromium is None:
        sys.exit("make_screenshots: no chromium (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        match = work / "match.html"
        players = work / "players.html"
        db = work / "w.duckdb"
        bangladesh = str(SAMPLES / "bangladesh.json")
        twentynine("load", str(SAMPLES), "--db", str(db))
        twentynine("analyze", bangladesh, "--db", str(db), "--samples", "8", "--jobs", "2")
        twentynine("report", "match", bangladesh, "--db", str(db), "-o", str(match))
        twentynine("report", "players", "--db", str(db), "-o", str(players))
        deal, action = first_blunder(db)
        step = f"{match.as_uri()}#deal={deal}&action={action}"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=ARGS)
            for width in WIDTHS:
                page = opened(browser, step, width)
                page.wait_for_selector("#deal-graph .main-svg")
                save(page, "#viewer .board", f"match-review-{width}.png")
                save(page, "#viewer .deal-graph", f"match-graph-{width}.png")
                page.click("#legend summary")
                page.evaluate("document.activeElement.blur()")
                save(page, "#legend", f"match-legend-{width}.png")
                page.keyboard.press("End")
                save(page, "#viewer .board", f"match-result-{width}.png")
                page.close()
                if width == 1280:
                    page = opened(browser, step, width)
                    page.wait_for_selector("#deal-graph .main-svg")
                    save(page, "#viewer", "match-viewer.png")
                    page.select_option("#view-select", "S")
                    save(page, "#viewer .board", "match-seat-view.png")
                    page.close()
                page = opened(browser, players.as_uri(), width)
                save(page, "section.player", f"players-section-{width}.png")
                save(page, ".two", f"players-charts-{width}.png")
                if width == 1280:
                    page.screenshot(path=str(IMAGES / "players-report.png"))
                    print("wrote docs/images/players-report.png")
                players_narrowed(page, width)
                page.close()
            browser.close()


if __name__ == "__main__":
    main()
