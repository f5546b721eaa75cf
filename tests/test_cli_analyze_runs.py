"""Runs that say what they hold (issue 36 §1): a match's annotations come from one
configuration, a resume or a deal that would mix or drop them is refused in one line, a
replaced match loses its run record, and the reports name the configurations and the deals
not analysed. Real DuckDB files, through the command line."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner, Result

from tests.htmlpage import Page
from twentynine.cli import app
from twentynine.importers.formats import write_matches
from twentynine.replay import random_match
from twentynine.schema import Rules
from twentynine.schema.log import MatchLog

runner = CliRunner()
# cards at 4 samples a decision: quick, and a run's configuration is what is checked here
ONLY = ["--only", "cards", "--samples", "4"]


def _match(seed: int, match_id: str | None = None) -> MatchLog:
    """A bangladesh match of two deals (``match_id``: under that id)."""
    log = random_match(Rules.preset("bangladesh"), seed=seed)
    update: dict[str, object] = {"deals": log.deals[:2], "result": None}
    if match_id is not None:
        update["id"] = match_id
    return log.model_copy(update=update)


def _file(path: Path, *matches: MatchLog) -> Path:
    write_matches(iter(matches), str(path))
    return path


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two matches of two deals each."""
    return _file(tmp_path_factory.mktemp("runs") / "two.jsonl", _match(3), _match(2))


@pytest.fixture(scope="module")
def analysed(logs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A warehouse of both matches analysed whole with :data:`ONLY` (copied by the tests)."""
    db = tmp_path_factory.mktemp("runs-db") / "whole.duckdb"
    done = _analyze(str(logs), *ONLY, "--db", str(db))
    assert done.exit_code == 0, done.output
    return db


def _analyze(*args: str) -> Result:
    return runner.invoke(app, ["analyze", *args])


def _copy(db: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "w.duckdb"
    shutil.copy(db, copy)
    return copy


def _held(db: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """Every annotation row and every run record of the warehouse, in order."""
    with duckdb.connect(str(db), read_only=True) as con:
        notes = con.execute("SELECT * FROM annotations ORDER BY ALL").fetchall()
        records = con.execute(
            "SELECT * FROM warehouse_info WHERE key LIKE 'analysed:%' ORDER BY ALL"
        ).fetchall()
    return notes, records


def _deals(db: Path, match_id: str) -> list[int]:
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute(
            "SELECT DISTINCT deal FROM annotations WHERE match_id = ? ORDER BY 1", [match_id]
        ).fetchall()
    return [int(r[0]) for r in rows]


def test_load_replace_drops_the_run_record_so_resume_analyses_the_new_match(
    tmp_path: Path,
) -> None:
    db = tmp_path / "w.duckdb"
    old = _file(tmp_path / "old.jsonl", _match(3, "club-1"))
    new = _file(tmp_path / "new.jsonl", _match(5, "club-1"))  # the same id, other deals
    assert _analyze(str(old), *ONLY, "--db", str(db)).exit_code == 0
    replaced = runner.invoke(app, ["load", str(new), "--db", str(db), "--replace"])
    assert replaced.exit_code == 0, replaced.output
    assert _held(db) == ([], [])  # the match's annotations and its record went together
    resumed = _analyze(str(new), *ONLY, "--db", str(db), "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert "1 match, 2 deals" in resumed.stderr and "skipped" not in resumed.stderr
    assert _deals(db, "club-1") == [1, 2]


@pytest.mark.parametrize("deal", [[], ["--deal", "2"]], ids=["whole", "deal"])
def test_a_resume_with_other_options_is_one_line_and_changes_nothing(
    analysed: Path, logs: Path, tmp_path: Path, deal: list[str]
) -> None:
    db = _copy(analysed, tmp_path)
    before = _held(db)
    other = ["--only", "bids", "--samples", "4"]
    refused = _analyze(str(logs), *other, *deal, "--db", str(db), "--resume")
    assert refused.exit_code == 2, refused.output
    assert len(refused.stderr.splitlines()) == 1, refused.stderr
    assert "--only cards stored, --only bids asked" in refused.stderr
    assert "Traceback" not in refused.output
    assert _held(db) == before


@pytest.mark.parametrize(
    ("changed", "said"),
    [
        (["--seed", "9"], "--seed 0 stored, --seed 9 asked"),
        (["--samples", "5"], "--samples 4 stored, --samples 5 asked"),
        (["--only", "bids"], "--only cards stored, --only bids asked"),
    ],
    ids=["seed", "samples", "kinds"],
)
def test_a_deal_with_other_options_is_refused_and_the_match_keeps_one_run(
    analysed: Path, logs: Path, tmp_path: Path, changed: list[str], said: str
) -> None:
    db = _copy(analysed, tmp_path)
    before = _held(db)
    options = ["--only", "cards", "--samples", "4", *changed]
    refused = _analyze(str(logs), *options, "--match", "1", "--deal", "2", "--db", str(db))
    assert refused.exit_code == 2, refused.output
    (line,) = refused.stderr.splitlines()[:-1]  # then the summary: nothing analysed
    assert said in line and "random-3" in line and line.endswith("it is not analysed")
    assert _held(db) == before


def test_a_deal_with_the_same_options_replaces_that_deal_only(
    analysed: Path, logs: Path, tmp_path: Path
) -> None:
    db = _copy(analysed, tmp_path)
    notes, records = _held(db)
    again = _analyze(str(logs), *ONLY, "--match", "1", "--deal", "2", "--db", str(db))
    assert again.exit_code == 0, again.output
    assert _held(db) == (notes, records)  # the same options give the same rows, one record


def test_deals_analysed_one_by_one_are_recorded_as_they_are_covered(
    logs: Path, tmp_path: Path
) -> None:
    db = tmp_path / "w.duckdb"
    assert _analyze(str(logs), *ONLY, "--match", "1", "--deal", "2", "--db", str(db)).exit_code == 0
    resumed = _analyze(str(logs), *ONLY, "--match", "1", "--db", str(db), "--resume")
    assert "1 match, 2 deals" in resumed.stderr  # deal 1 was not analysed: the match again
    again = _analyze(str(logs), *ONLY, "--match", "1", "--deal", "2", "--db", str(db), "--resume")
    assert "1 match already analysed with these options, skipped" in again.stderr


@pytest.fixture(scope="module")
def in_part(logs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A warehouse whose first match has only its deal 2 analysed."""
    db = tmp_path_factory.mktemp("runs-part") / "part.duckdb"
    done = _analyze(str(logs), *ONLY, "--match", "1", "--deal", "2", "--db", str(db))
    assert done.exit_code == 0, done.output
    return db


def test_a_match_report_says_the_deals_not_analyzed(in_part: Path, tmp_path: Path) -> None:
    out = tmp_path / "m.html"
    args = ["report", "match", "--db", str(in_part), "--match", "1", "-o", str(out)]
    made = runner.invoke(app, args)
    assert made.exit_code == 0, made.output
    page = Page(out.read_text())
    assert "deal 2 analyzed, the others not analyzed" in page.text
    assert "--seed 0" in page.text and "--samples 4" in page.text
    first, second = page.json("viewer-data")["deals"]
    assert (first["analyzed"], second["analyzed"]) == (False, True)
    assert first["summary"] is None and second["summary"]
    notes = [p for p in page.all("p") if p.within("deal-1") and "Not analyzed" in p.content]
    assert notes and not [
        p for p in page.all("p") if p.within("deal-2") and "Not analyzed" in p.content
    ]


def test_replay_says_a_deal_is_not_analyzed(in_part: Path) -> None:
    frames = {}
    for deal in ("1", "2"):
        args = ["replay", "--db", str(in_part), "--match", "1", "--deal", deal]
        shown = runner.invoke(app, args)
        assert shown.exit_code == 0, shown.output
        frames[deal] = shown.stdout.splitlines()[0]
    assert frames["1"].endswith("· not analyzed") and "not analyzed" not in frames["2"]


def test_the_players_report_names_each_configuration_and_refuses_a_mix(
    tmp_path: Path,
) -> None:
    db = tmp_path / "w.duckdb"
    first = _file(tmp_path / "a.jsonl", _match(3))
    second = _file(tmp_path / "b.jsonl", _match(2))
    assert _analyze(str(first), *ONLY, "--db", str(db)).exit_code == 0
    out = tmp_path / "p.html"
    args = ["report", "players", "--db", str(db), "--min-deals", "1", "-o", str(out)]
    assert runner.invoke(app, args).exit_code == 0
    one = Page(out.read_text()).by_id("runs").content
    assert "configurations" not in one
    assert "--samples 4, --seed 0" in one and "contract model contract-" in one
    assert "others' calls model" in one and "], 1 match)" in one
    assert _analyze(str(second), *ONLY, "--seed", "1", "--db", str(db)).exit_code == 0
    out.unlink()
    mixed = runner.invoke(app, args)  # never pooled: tests/test_report_players_runs.py
    assert mixed.exit_code == 2 and not out.exists()
    assert "worked out with 2 configurations, and the report does not pool them" in mixed.stderr
    assert "--seed 0" in mixed.stderr and "--seed 1" in mixed.stderr


def test_every_run_option_is_recorded_compared_and_named() -> None:
    from twentynine.analysis.models.contract import shipped_model
    from twentynine.analysis.run import (
        RUN_OPTIONS,
        AnalysisOptions,
        config_difference,
        config_words,
        run_config,
    )

    shipped = shipped_model()
    other = dataclasses.replace(shipped, version="contract-00000000")
    stored = run_config(AnalysisOptions())
    assert list(stored) == [option.key for option in RUN_OPTIONS]
    assert all(option.name in config_words(stored) for option in RUN_OPTIONS)
    asked = run_config(AnalysisOptions(model=other))
    assert config_difference(stored, asked) == (
        f"contract model {shipped.version} stored, contract model contract-00000000 asked"
    )
    older = {k: v for k, v in stored.items() if k != "dealing"}  # before the option existed
    assert config_difference(older, stored) == (
        f"--dealing (not recorded) stored, --dealing {stored['dealing']} asked"
    )
