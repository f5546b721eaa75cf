"""`twentynine stats` as a player reads it (issue 23 §7): the first few columns within the
terminal's width, `-` for an empty figure, `--columns all` for the rest, and a word about
the matches `--since` leaves out for want of a date."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from twentynine.cli import app
from twentynine.replay import random_match
from twentynine.reports.warehouse.store import open_warehouse
from twentynine.schema import Rules, Seat

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"
runner = CliRunner()


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("club") / "club.duckdb"
    paths = [str(p) for p in sorted(SAMPLES.glob("*.json"))] + [str(SAMPLES / "bad")]
    loaded = runner.invoke(app, ["load", *paths, "--db", str(db)])
    assert loaded.exit_code == 0, loaded.output
    return db


def test_stats_shows_the_first_columns_within_80_characters_with_dashes(club: Path) -> None:
    shown = runner.invoke(app, ["stats", "--db", str(club)], env={"COLUMNS": "80"})
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert lines[0].split() == ["name", "deals", "calls", "make_rate", "break_rate"]
    assert max(map(len, lines)) <= 80
    assert "NULL" not in shown.stdout
    # a player who never called has no make-rate: a dash, not NULL
    no_calls = [line.split() for line in lines[2:] if line.split()[2] == "0"]
    assert no_calls and all(row[3] == "-" for row in no_calls)
    assert "--columns all" in shown.stderr
    everything = runner.invoke(app, ["stats", "--db", str(club), "--columns", "all"])
    header = everything.stdout.splitlines()[0].split()
    assert header[:4] == ["player_id", "name", "matches", "deals"] and len(header) > 30
    assert "findings_per_100_deals" in header and "NULL" not in everything.stdout
    # sorted by a column not among the first: that column is shown too, last
    ordered = runner.invoke(app, ["stats", "--db", str(club), "--sort", "ask_rate"])
    assert ordered.stdout.splitlines()[0].split()[-1] == "ask_rate"


def test_a_long_name_is_cut_to_fit_the_terminal(tmp_path: Path) -> None:
    long = "Srimati Anandamayi Chattopadhyay-Bandyopadhyay"
    names = {Seat.N: long, Seat.E: "Bo", Seat.S: "Cy", Seat.W: "Di"}
    db = tmp_path / "w.duckdb"
    with open_warehouse(db) as wh:
        wh.load([random_match(Rules.preset("pagat"), 4, names)])
    for width in (80, 100):
        shown = runner.invoke(app, ["stats", "--db", str(db)], env={"COLUMNS": str(width)})
        assert shown.exit_code == 0, shown.output
        assert max(map(len, shown.stdout.splitlines())) <= width
        assert "Srimati Anandamayi" in shown.stdout  # cut at the end, never below 8 characters


def test_since_says_how_many_matches_have_no_date(club: Path, tmp_path: Path) -> None:
    undated = runner.invoke(app, ["stats", "--db", str(club), "--since", "2020-01-01"])
    assert undated.exit_code == 0
    assert "all 18 matches have no date" in undated.stderr
    assert "left out by --since" in undated.stderr
    db = tmp_path / "w.duckdb"
    dated = random_match(Rules.preset("pagat"), 1).model_copy(
        update={"id": "dated", "meta": {"start": "2024-05-01T10:00:00"}}
    )
    with open_warehouse(db) as wh:
        wh.load([dated, random_match(Rules.preset("pagat"), 2)])
    some = runner.invoke(app, ["stats", "--db", str(db), "--since", "2020-01-01"])
    assert "1 of 2 matches has no date" in some.stderr and "is left out" in some.stderr
    assert "no date" not in runner.invoke(app, ["stats", "--db", str(db)]).stderr
