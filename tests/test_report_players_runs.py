"""``report players`` never pools annotations of different configurations (issue 36 §1): a
mix is refused in one line that numbers them, and ``--run`` counts one configuration's
annotations while the other statistics count every match. Real warehouses, built and
reported by ``python -m twentynine`` as a user runs it."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from tests.htmlpage import Page
from twentynine.importers.formats import read_any, write_matches

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"
ANALYSE = ["--only", "cards", "--samples", "8"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "twentynine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "COLUMNS": "100"},
        check=False,
    )


def _two_deals(name: str, path: Path) -> tuple[Path, str]:
    """The first two deals of a sample match, as a file of their own; and its id."""
    match = next(r.match for r in read_any(SAMPLES / name) if r.match is not None)
    match = match.model_copy(update={"deals": match.deals[:2], "result": None})
    write_matches(iter([match]), str(path))
    return path, match.match_id


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """A warehouse of a pagat match analysed with seed 0 and a bangladesh match analysed
    with seed 1 (the same options otherwise), and the two match ids."""
    folder = tmp_path_factory.mktemp("mixed")
    first, first_id = _two_deals("pagat.json", folder / "pagat.jsonl")
    second, second_id = _two_deals("bangladesh.json", folder / "bangladesh.jsonl")
    db = folder / "w.duckdb"
    for args in (
        ["load", str(first), str(second), "--db", str(db)],
        ["analyze", str(first), *ANALYSE, "--db", str(db)],
        ["analyze", str(second), *ANALYSE, "--seed", "1", "--db", str(db)],
    ):
        done = _run(*args)
        assert done.returncode == 0, done.stderr
    return db, first_id, second_id


def _report(db: Path, out: Path, *more: str) -> subprocess.CompletedProcess[str]:
    return _run("report", "players", "--db", str(db), "--min-deals", "1", "-o", str(out), *more)


def _ids(line: str) -> dict[str, str]:
    """The id of each configuration a refusal numbers, by its number."""
    return dict(re.findall(r"(?:: |; )(\d) \[([0-9a-f]{8})\] ", line))


def test_a_mix_is_refused_in_one_line_that_numbers_the_configurations(
    mixed: tuple[Path, str, str], tmp_path: Path
) -> None:
    db, _, _ = mixed
    out = tmp_path / "p.html"
    refused = _report(db, out)
    assert refused.returncode == 2, refused.stderr
    (line,) = refused.stderr.splitlines()
    assert "worked out with 2 configurations, and the report does not pool them" in line
    assert line.count("(1 match)") == 2 and "--seed 0" in line and "--seed 1" in line
    assert set(_ids(line)) == {"1", "2"} and "--run N" in line and "--run ID" in line
    assert not out.exists() and not (tmp_path / "p_matches").exists()


def test_a_scope_of_one_configuration_needs_no_choice(
    mixed: tuple[Path, str, str], tmp_path: Path
) -> None:
    db, _, _ = mixed
    out = tmp_path / "p.html"
    made = _report(db, out, "--preset", "pagat")
    assert made.returncode == 0, made.stderr
    runs = Page(out.read_text()).by_id("runs").content
    assert "--seed 0" in runs and "--seed 1" not in runs


def _judged(page: Page) -> list[str]:
    """Each player section's name and its judged decisions, as the page writes them."""
    return [
        " ".join(e.content.split())
        for e in page.elements
        if e.tag in ("h3", "dd") and any(e.within(f"player-{n}") for n in range(1, 9))
    ]


def test_run_counts_one_configuration_s_annotations_and_every_match_s_statistics(
    mixed: tuple[Path, str, str], tmp_path: Path
) -> None:
    db, first_id, _ = mixed
    line = _report(db, tmp_path / "none.html").stderr
    by_number = _ids(line)
    seed_1 = next(n for n, _ in by_number.items() if re.search(rf"{n} \[\w+\] [^;]*--seed 1", line))
    picked, by_id = tmp_path / "n.html", tmp_path / "id.html"
    assert _report(db, picked, "--run", seed_1, "--examples", "0").returncode == 0
    assert _report(db, by_id, "--run", by_number[seed_1], "--examples", "0").returncode == 0
    assert picked.read_bytes() == by_id.read_bytes()  # the number and the id pick the same

    # the same warehouse with only the seed-1 match analysed: one configuration, no choice
    alone = tmp_path / "alone.duckdb"
    shutil.copy(db, alone)
    with duckdb.connect(str(alone)) as con:
        con.execute("DELETE FROM annotations WHERE match_id = ?", [first_id])
        con.execute("DELETE FROM warehouse_info WHERE key = ?", [f"analysed:{first_id}"])
    single = tmp_path / "alone.html"
    assert _report(alone, single, "--examples", "0").returncode == 0

    page, expected = Page(picked.read_text()), Page(single.read_text())
    assert page.by_id("summary").content == "2 matches, 4 deals, 8 players"  # every match
    assert page.table("players") == expected.table("players")  # player_analysis included
    assert _judged(page) == _judged(expected)  # labels, card loss, decisions judged
    assert any(re.fullmatch(r"[1-9]\d* · .*blunder", text) for text in _judged(page))
    runs = " ".join(page.by_id("runs").content.split())
    assert "count only the annotations worked out with --only cards, --samples 8, --seed 1" in runs
    assert f"[{by_number[seed_1]}], 1 match; --run" in runs
    assert "Left out of them" in runs and "--seed 0" in runs
    # the page's pagat body (only the seed-0 match) keeps the choice: nothing of it counted
    body = Page(page.json("filter-bodies")["pagat|"])
    assert "with the configuration picked (--run)" in body.text
    assert "worked out with the configuration picked" in body.by_id("runs").content
    assert "Left out of them: the annotations of --only cards, --samples 8, --seed 0" in " ".join(
        body.by_id("runs").content.split()
    )

    other = "1" if seed_1 == "2" else "2"
    theirs = tmp_path / "o.html"
    assert _report(db, theirs, "--run", other, "--examples", "0").returncode == 0
    assert Page(theirs.read_text()).table("players") != page.table("players")


def test_a_run_not_in_scope_is_one_line(mixed: tuple[Path, str, str], tmp_path: Path) -> None:
    db, _, _ = mixed
    out = tmp_path / "p.html"
    for choice in ("3", "deadbeef"):
        refused = _report(db, out, "--run", choice)
        assert refused.returncode == 2, refused.stderr
        (line,) = refused.stderr.splitlines()
        assert f"--run {choice}: no such configuration; the matches in scope hold 1 [" in line
        assert not out.exists()
