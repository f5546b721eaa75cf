"""`twentynine analyze --db` stores a match's annotations only under the match they describe:
never another match's under a stored id, never a refused match's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner

from twentynine.cli import app
from twentynine.importers.canonical import dump_match
from twentynine.replay import random_match
from twentynine.schema import Rules

runner = CliRunner()
ONLY = ["--only", "cards,shows"]


def _short(seed: int, match_id: str) -> dict[str, Any]:
    """A one-deal match whose play ends early: cheap to analyse."""
    log = random_match(Rules.preset("bangladesh"), seed=seed)
    one = log.model_copy(update={"deals": log.deals[:1], "result": None, "id": match_id})
    document: dict[str, Any] = json.loads(dump_match(one))
    return document


def _write(path: Path, *matches: dict[str, Any]) -> Path:
    path.write_text("".join(json.dumps(m) + "\n" for m in matches), encoding="utf-8")
    return path


@pytest.fixture
def a_and_b(tmp_path: Path) -> tuple[Path, Path]:
    """Two files, each a match with the id `same`, with other deals."""
    return (
        _write(tmp_path / "a.json", _short(3, "same")),
        _write(tmp_path / "b.json", _short(2, "same")),
    )


def _rows(db: Path, sql: str) -> list[tuple[Any, ...]]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(sql).fetchall()


def _error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "not analysed" in line]


def test_a_match_under_a_stored_id_with_other_deals_is_refused(
    tmp_path: Path, a_and_b: tuple[Path, Path]
) -> None:
    a, b = a_and_b
    db = tmp_path / "w.duckdb"
    assert runner.invoke(app, ["load", str(a), "--db", str(db)]).exit_code == 0
    first = runner.invoke(app, ["analyze", str(a), *ONLY, "--db", str(db)])
    assert first.exit_code == 0, first.output
    kept = _rows(db, "SELECT * FROM annotations ORDER BY ALL")
    stored = _rows(db, "SELECT content_hash, source FROM matches")
    assert kept
    impostor = runner.invoke(app, ["analyze", str(b), *ONLY, "--db", str(db)])
    assert impostor.exit_code == 2, impostor.output
    assert "Traceback" not in impostor.output
    lines = _error_lines(impostor.stderr)
    assert len(lines) == 1 and str(a) in lines[0] and str(b) in lines[0], impostor.stderr
    assert "'same'" in lines[0] and "other content" in lines[0]
    assert _rows(db, "SELECT * FROM annotations ORDER BY ALL") == kept
    assert _rows(db, "SELECT content_hash, source FROM matches") == stored


def test_two_matches_with_one_id_in_one_input_annotate_the_stored_one_only(
    tmp_path: Path, a_and_b: tuple[Path, Path]
) -> None:
    a, _ = a_and_b
    both = _write(tmp_path / "both.jsonl", _short(3, "same"), _short(2, "same"))
    db = tmp_path / "w.duckdb"
    result = runner.invoke(app, ["analyze", str(both), *ONLY, "--db", str(db)])
    assert result.exit_code == 2, result.output
    lines = _error_lines(result.stderr)
    assert len(lines) == 1 and f"{both}:2" in lines[0] and f"{both}:1" in lines[0], lines
    alone = runner.invoke(app, ["analyze", str(a), *ONLY])  # the first match's, as JSON lines
    assert alone.exit_code == 0, alone.output
    expected = sorted(
        (tuple(json.loads(line).values()) for line in alone.stdout.splitlines()), key=repr
    )
    stored = sorted(_rows(db, "SELECT * FROM annotations"), key=repr)
    assert expected and stored == expected


def test_a_match_the_warehouse_refuses_gets_no_annotations(tmp_path: Path) -> None:
    absurd = _short(3, "absurd")
    absurd["deals"][0]["result"]["points"] = {"NS": 10**20, "EW": 0}  # beyond INTEGER
    fine = _short(2, "fine")
    path = _write(tmp_path / "absurd.jsonl", absurd, fine)
    db = tmp_path / "w.duckdb"
    result = runner.invoke(app, ["analyze", str(path), *ONLY, "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = _error_lines(result.stderr)
    assert len(lines) == 1 and f"{path}:1" in lines[0] and "cannot be stored" in lines[0], lines
    assert _rows(db, "SELECT DISTINCT match_id FROM annotations") == [("fine",)]
    assert _rows(db, "SELECT match_id FROM matches") == [("fine",)]


def test_the_same_match_again_is_analysed_once_and_kept(
    tmp_path: Path, a_and_b: tuple[Path, Path]
) -> None:
    a, _ = a_and_b
    twice = _write(tmp_path / "twice.jsonl", _short(3, "same"), _short(3, "same"))
    db = tmp_path / "w.duckdb"
    result = runner.invoke(app, ["analyze", str(twice), str(a), *ONLY, "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "1 match, 1 deal" in result.stderr
    assert _rows(db, "SELECT count(DISTINCT match_id) FROM annotations") == [(1,)]
