"""`twentynine matches` over files and a real DuckDB file, and `replay --match` by its numbers."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from twentynine.cli import app
from twentynine.importers.canonical import dump_match
from twentynine.replay import audit_match, random_match
from twentynine.schema.cards import Seat
from twentynine.schema.log import MatchLog
from twentynine.schema.rules import Rules

runner = CliRunner()
NAMES = {Seat.N: "Asha", Seat.E: "Bikash", Seat.S: "Chandra", Seat.W: "Deepa"}


@pytest.fixture(scope="module")
def logs() -> list[MatchLog]:
    made = []
    for seed, preset in enumerate(("pagat", "bangladesh", "classic29")):
        log = random_match(Rules.preset(preset), seed, NAMES)
        update = {"id": f"club-{seed + 7}", "meta": {"start": f"2026-11-{seed + 10}T19:30:00Z"}}
        made.append(log.model_copy(update=update))
    return made


@pytest.fixture(scope="module")
def league(logs: list[MatchLog], tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("matches") / "league.jsonl"
    path.write_bytes(b"".join(dump_match(log) + b"\n" for log in logs))
    return path


def _listed(args: list[str]) -> list[dict[str, object]]:
    result = runner.invoke(app, ["matches", *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_matches_lists_each_match_of_the_files(logs: list[MatchLog], league: Path) -> None:
    rows = _listed([str(league)])
    assert [row["no"] for row in rows] == list(range(1, len(logs) + 1))
    for row, log in zip(rows, logs, strict=True):
        audited = audit_match(log)
        assert row["match_id"] == log.id
        assert row["rules"] == log.rules
        assert row["deals"] == len(log.deals)
        assert row["findings"] == len(audited.findings)
        assert row["date"] == str(log.meta and log.meta["start"])[:16].replace("T", " ")
        assert row["players"] == "Asha & Chandra v Bikash & Deepa"
        figures = f"NS {audited.score[Seat.N.team]}, EW {audited.score[Seat.E.team]}"
        assert isinstance(row["result"], str) and row["result"].endswith(f"({figures})")
    table = runner.invoke(app, ["matches", str(league)])
    assert table.stdout.splitlines()[0].split() == [
        "no", "match_id", "date", "rules", "players", "deals", "result", "findings"
    ]  # fmt: skip


def test_replay_takes_the_listed_number_or_id(logs: list[MatchLog], league: Path) -> None:
    rows = _listed([str(league)])
    for match in ("3", rows[2]["match_id"]):
        shown = runner.invoke(app, ["replay", str(league), "--match", str(match)])
        assert shown.exit_code == 0, shown.output
        assert shown.stdout.splitlines()[0].startswith(f"match {rows[2]['match_id']} ")


def test_a_missing_id_names_the_nearest(league: Path) -> None:
    result = runner.invoke(app, ["replay", str(league), "--match", "club-10"])
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert len(line.splitlines()) == 1
    assert "no match with id 'club-10' among 3 matches; nearest: " in line
    assert {"club-7", "club-8", "club-9"} >= set(line.split("nearest: ")[1].split(", "))
    number = runner.invoke(app, ["replay", str(league), "--match", "4"])
    assert number.exit_code == 2 and "no match number 4" in number.stderr


def test_matches_of_a_warehouse_and_replay_from_it(
    logs: list[MatchLog], league: Path, tmp_path: Path
) -> None:
    db = tmp_path / "club.duckdb"
    loaded = runner.invoke(app, ["load", str(league), "--db", str(db)])
    assert loaded.exit_code == 0, loaded.output
    stored = _listed(["--db", str(db)])
    # oldest first: the logs' starts are in increasing order
    assert [row["match_id"] for row in stored] == [log.id for log in logs]
    assert stored == _listed([str(league)])
    second = stored[1]
    shown = runner.invoke(app, ["replay", "--db", str(db), "--match", "2", "--deal", "2"])
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.splitlines()[0].startswith(f"match {second['match_id']} · deal 2 ")


@pytest.mark.parametrize("args", [[], ["x.jsonl", "--db", "w.duckdb"]])
def test_matches_wants_files_or_a_warehouse(args: list[str]) -> None:
    result = runner.invoke(app, ["matches", *args])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "twentynine: give files or folders of match logs, or --db FILE (not both)"
    )


def test_matches_lists_what_it_can_read_and_names_the_rest(
    logs: list[MatchLog], tmp_path: Path
) -> None:
    (tmp_path / "good.json").write_bytes(dump_match(logs[0]))
    (tmp_path / "broken.json").write_text('{"format": "twentynine.match"', encoding="utf-8")
    result = runner.invoke(app, ["matches", str(tmp_path), "--format", "json"])
    assert result.exit_code == 2
    assert [json.loads(line)["match_id"] for line in result.stdout.splitlines()] == [logs[0].id]
    assert "broken.json" in result.stderr


def test_stats_since_counts_the_later_matches(
    logs: list[MatchLog], league: Path, tmp_path: Path
) -> None:
    db = tmp_path / "club.duckdb"
    assert runner.invoke(app, ["load", str(league), "--db", str(db)]).exit_code == 0
    since = runner.invoke(
        app, ["stats", "--db", str(db), "--since", "2026-11-11", "--format", "json"]
    )
    assert since.exit_code == 0, since.output
    rows = [json.loads(line) for line in since.stdout.splitlines()]
    later = sum(len(log.deals) for log in logs[1:])
    assert {row["name"] for row in rows} == set(NAMES.values())
    assert {(row["matches"], row["deals"]) for row in rows} == {(2, later)}


@pytest.mark.parametrize("written", ["2026-02-30", "not a date", "2026-13-01"])
def test_an_unreadable_date_is_an_audit_warning(written: str, tmp_path: Path) -> None:
    """Issue 36 §3: an unreadable date silently became "no date"."""
    match = random_match(Rules.preset("pagat"), 3).model_copy(update={"meta": {"date": written}})
    found = [f for f in audit_match(match).findings if f.code == "DATE_UNREADABLE"]
    assert [(f.severity, f.deal, f.action) for f in found] == [("warning", None, None)]
    assert found[0].message == (
        f"meta.date {written!r} is not a date (YYYY-MM-DD, or an ISO 8601 time): the match has "
        "no date"
    )
    path = tmp_path / "m.json"
    path.write_bytes(dump_match(match))
    audited = runner.invoke(app, ["audit", str(path)])
    assert f"DATE_UNREADABLE meta.date {written!r} is not a date" in audited.stdout
    readable = match.model_copy(update={"meta": {"date": "2026-02-28", "start": written}})
    assert not [f for f in audit_match(readable).findings if f.code == "DATE_UNREADABLE"]


def test_year_1_is_listed_with_four_digits(tmp_path: Path) -> None:
    """Issue 36 §3: a match of year 1 was listed as 1-01-01."""
    match = random_match(Rules.preset("pagat"), 3).model_copy(
        update={"meta": {"date": "0001-01-01"}}
    )
    path = tmp_path / "m.json"
    path.write_bytes(dump_match(match))
    [row] = _listed([str(path)])
    assert row["date"] == "0001-01-01 00:00"
    db = tmp_path / "w.duckdb"
    assert runner.invoke(app, ["load", str(path), "--db", str(db)]).exit_code == 0
    [stored] = _listed(["--db", str(db)])
    assert stored["date"] == "0001-01-01 00:00"
