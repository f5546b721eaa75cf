"""Numbers no real match holds: the warehouse skips the match with one line, the auditor says so."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner

from twentynine.cli import app

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def _sample(match_id: str) -> dict[str, Any]:
    match: dict[str, Any] = json.loads((SAMPLES / "pagat.json").read_text(encoding="utf-8"))
    match["id"] = match_id
    return copy.deepcopy(match)


def _recorded_points(match_id: str, ns: int) -> dict[str, Any]:
    match = _sample(match_id)
    match["deals"][0]["result"]["points"] = {"NS": ns, "EW": 0}
    return match


def _bid(match_id: str, value: int) -> dict[str, Any]:
    match = _sample(match_id)
    bid = next(a for a in match["deals"][0]["actions"] if a["type"] == "bid")
    bid["value"] = value
    return match


def _many_actions(match_id: str, count: int) -> dict[str, Any]:
    match = _sample(match_id)
    actions = match["deals"][0]["actions"]
    actions.extend({"seat": "N", "type": "pass"} for _ in range(count - len(actions)))
    return match


def _write(path: Path, matches: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(m) + "\n" for m in matches), encoding="utf-8")
    return path


@pytest.fixture
def absurd(tmp_path: Path) -> Path:
    """Four matches a line each: line 1 records points no real deal has (the warehouse keeps
    them as recorded), lines 3 and 4 hold numbers no warehouse column takes."""
    return _write(
        tmp_path / "absurd.jsonl",
        [
            _recorded_points("points-40000", 40_000),
            _sample("fine"),
            _recorded_points("points-1e20", 10**20),
            _bid("bid-40000", 40_000),
        ],
    )


def test_load_skips_what_it_cannot_store_and_stores_the_rest(tmp_path: Path, absurd: Path) -> None:
    db = tmp_path / "w.duckdb"
    later = _write(tmp_path / "later.jsonl", [_sample("later")])
    result = runner.invoke(app, ["load", str(absurd), str(later), "--db", str(db)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    problems = [line for line in result.stderr.splitlines() if "cannot be stored" in line]
    places = [line.removeprefix("twentynine: ").split(": ")[0] for line in problems]
    assert places == [f"{absurd}:{n}" for n in (3, 4)]
    assert "3 stored" in result.stderr and "2 skipped" in result.stderr
    with duckdb.connect(str(db), read_only=True) as con:
        stored = sorted(row[0] for row in con.execute("SELECT match_id FROM matches").fetchall())
        recorded = con.execute(
            "SELECT recorded_points_ns FROM deals WHERE match_id = 'points-40000' AND deal_no = 1"
        ).fetchone()
    assert stored == ["fine", "later", "points-40000"]
    assert recorded == (40_000,)
    again = runner.invoke(app, ["load", str(absurd), str(later), "--db", str(db)])
    assert again.exit_code == 1 and "3 already stored" in again.stderr


def test_a_deal_of_forty_thousand_actions_is_skipped(tmp_path: Path) -> None:
    log = _write(tmp_path / "long.jsonl", [_many_actions("long", 40_040), _sample("fine")])
    db = tmp_path / "w.duckdb"
    result = runner.invoke(app, ["load", str(log), "--db", str(db)])
    assert result.exit_code == 1, result.output
    assert f"{log}:1: cannot be stored" in result.stderr
    assert "1 stored" in result.stderr
    audit = runner.invoke(app, ["audit", str(log), "--format", "json"])
    codes = {json.loads(line)["code"] for line in audit.stdout.splitlines()}
    assert "VALUE_OUT_OF_RANGE" in codes


def test_audit_reports_numbers_out_of_range(absurd: Path) -> None:
    result = runner.invoke(app, ["audit", str(absurd), "--format", "json"])
    assert result.exit_code == 1, result.output
    found = [json.loads(line) for line in result.stdout.splitlines()]
    out_of_range = [(f["line"], f["deal"]) for f in found if f["code"] == "VALUE_OUT_OF_RANGE"]
    assert out_of_range == [(1, 1), (3, 1)]
    assert not any(f["line"] == 2 for f in found)


@pytest.mark.parametrize(
    ("command", "options", "exit_code"),
    [
        (["analyze"], ["--only", "cards", "--deal", "1"], 2),
        (["solve"], ["--deal", "1"], 2),
        (["report", "match"], ["-o", "out.html"], 2),
        (["load"], ["--db", "out.duckdb"], 1),
    ],
)
def test_a_bid_beyond_64_bits_is_one_line_naming_its_place(
    tmp_path: Path, command: list[str], options: list[str], exit_code: int
) -> None:
    match = _bid("bid-1e30", 10**30)
    log = tmp_path / "absurd.json"
    log.write_text(json.dumps(match), encoding="utf-8")
    index = next(i for i, a in enumerate(match["deals"][0]["actions"]) if a["type"] == "bid")
    out = [str(tmp_path / option) if option.startswith("out.") else option for option in options]
    result = runner.invoke(app, [*command, str(log), *out])
    assert result.exit_code == exit_code, result.output
    assert "Traceback" not in result.output
    [line] = [line for line in result.stderr.splitlines() if str(log) in line]
    assert line.startswith(f"twentynine: {log}:1:")
    assert f"deals[0].actions[{index}].value: " in line
    assert not [path.name for path in tmp_path.iterdir() if path.name.startswith("out")]
