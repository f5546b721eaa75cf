"""The reports' bytes depend on their inputs only (issue 21 §7): the match report of an
analyzed match and the players report (its filters' bodies and example match reports
included), each made in a fresh process under two hash seeds, are the same files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.analyzed import analyzed_match
from tests.test_reports_players import _dated
from twentynine.reports.warehouse.annotations import replace_annotations
from twentynine.reports.warehouse.store import open_warehouse

ROOT = Path(__file__).resolve().parent.parent


def _make(args: list[str], hash_seed: int) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "twentynine", "report", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONHASHSEED": str(hash_seed)},
        capture_output=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Dated matches of two presets (the page's filters) and the analyzed bangladesh sample."""
    folder = tmp_path_factory.mktemp("bytes")
    db = _dated(folder)
    match, notes = analyzed_match()
    with open_warehouse(db) as wh:
        wh.load([match])
        replace_annotations(wh, match, list(notes))
    return db


def test_the_reports_are_the_same_bytes_whatever_the_hash_seed(
    warehouse: Path, tmp_path: Path
) -> None:
    match, _ = analyzed_match()
    made: list[dict[str, bytes]] = []
    for hash_seed in (0, 12345):
        out = tmp_path / str(hash_seed)
        out.mkdir()
        db = str(warehouse)
        _make(
            ["match", "--db", db, "--match", match.match_id, "-o", str(out / "m.html")], hash_seed
        )
        _make(["players", "--db", db, "--min-deals", "1", "--examples", "2",
               "-o", str(out / "p.html")], hash_seed)  # fmt: skip
        made.append(
            {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
        )
    first, second = made
    assert {"m.html", "p.html"} <= set(first) and len(first) == 4  # and two examples
    assert b'id="filter-bodies"' in first["p.html"] and b"??" in first["m.html"]
    assert first.keys() == second.keys()
    for name in first:
        assert first[name] == second[name], name
