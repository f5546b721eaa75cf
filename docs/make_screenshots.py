"""Regenerate the README's screenshots of the two HTML reports (docs/images/*.png).

    python docs/make_screenshots.py

Renders the reports of the sample logs with this checkout's ``twentynine`` in a temporary
folder, opens them in Debian's headless Chromium (``/usr/bin/chromium``, or
``TWENTYNINE_CHROMIUM``) through playwright, and saves the pictures. Nothing is fetched.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

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


def twentynine(*args: str) -> None:
    """Run this checkout's CLI."""
    subprocess.run([sys.executable, "-m", "twentynine", *args], cwd=ROOT, check=True)


def shoot(page: Page, url: str, name: str, selector: str | None = None) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-charts=drawn]", timeout=60_000)
    target = IMAGES / name
    if selector is None:
        page.screenshot(path=str(target))
    else:
        page.locator(selector).screenshot(path=str(target))
    print(f"wrote {target.relative_to(ROOT)}")


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
        twentynine("report", "match", str(SAMPLES / "bangladesh.json"), "-o", str(match))
        twentynine("load", str(SAMPLES), "--db", str(db))
        twentynine("report", "players", "--db", str(db), "-o", str(players))
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            shoot(page, match.as_uri() + "#deal=3&action=20", "match-viewer.png", "#viewer")
            page.select_option("#view-select", "S")
            page.locator("#viewer").screenshot(path=str(IMAGES / "match-seat-view.png"))
            print("wrote docs/images/match-seat-view.png")
            shoot(page, players.as_uri(), "players-report.png")
            page.locator("h2", has_text="Charts").scroll_into_view_if_needed()
            page.locator(".two").screenshot(path=str(IMAGES / "players-charts.png"))
            print("wrote docs/images/players-charts.png")
            browser.close()


if __name__ == "__main__":
    main()
