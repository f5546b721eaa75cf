"""The warehouse's smaller faults: odd dates, hand-edited files, empty inputs, changed matches,
and what an export leaves behind."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner

from twentynine.cli import app

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
PAGAT = SAMPLES / "pagat.json"


def _match(match_id: str = "m1") -> dict[str, Any]:
    match: dict[str, Any] = json.loads(PAGAT.read_text(encoding="utf-8"))
    match["id"] = match_id
    return copy.deepcopy(match)


def _write(path: Path, *matches: dict[str, Any]) -> Path:
    path.write_text("".join(json.dumps(m) + "\n" for m in matches), encoding="utf-8")
    return path


def _load(db: Path, *paths: Path | str, replace: bool = False) -> Any:
    args = ["load", *map(str, paths), "--db", str(db)]
    return runner.invoke(app, [*args, "--replace"] if replace else args)


def _one_line(result: Any, code: int = 2) -> str:
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return str(lines[0])


def _scalar(db: Path, sql: str) -> Any:
    with duckdb.connect(str(db), read_only=True) as con:
        row = con.execute(sql).fetchone()
    assert row is not None
    return row[0]


# ----------------------------------------------------------------------- odd dates
def test_a_start_in_year_one_is_stored(tmp_path: Path) -> None:
    match = _match("year-one")
    match["meta"]["start"] = "0001-01-01T00:00:00+06:00"
    db = tmp_path / "w.duckdb"
    result = _load(db, _write(tmp_path / "y.jsonl", match))
    assert result.exit_code == 0, result.output
    assert _scalar(db, "SELECT count(*) FROM matches WHERE match_id = 'year-one'") == 1


# ---------------------------------------------------------------------- empty inputs
def test_load_of_an_empty_or_missing_folder_exits_2_like_audit(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    db = tmp_path / "w.duckdb"
    assert "no match logs found" in _one_line(_load(db, empty))
    assert not db.exists()
    for folder in (empty, tmp_path / "missing"):
        audit = runner.invoke(app, ["audit", str(folder)])
        load = _load(db, folder)
        assert (audit.exit_code, load.exit_code) == (2, 2), load.output
        assert "Traceback" not in load.output


# ------------------------------------------------------------------- hand-edited files
@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "w.duckdb"
    assert _load(path, PAGAT).exit_code == 0
    return path


def _edit(db: Path, sql: str) -> None:
    with duckdb.connect(str(db)) as con:
        con.execute(sql)


@pytest.mark.parametrize("version", ["0", "²", "٣"])
@pytest.mark.parametrize("command", ["load", "query", "stats", "export"])
def test_a_hand_edited_schema_version_is_one_line(
    db: Path, tmp_path: Path, version: str, command: str
) -> None:
    _edit(db, f"UPDATE warehouse_info SET value = '{version}' WHERE key = 'schema_version'")
    args = {
        "load": ["load", str(SAMPLES / "bhoos.json")],
        "query": ["query", "SELECT 1"],
        "stats": ["stats"],
        "export": ["export", "--parquet", str(tmp_path / "out")],
    }[command]
    line = _one_line(runner.invoke(app, [*args, "--db", str(db)]))
    assert str(db) in line and "schema version" in line


@pytest.mark.parametrize("table", ["matches", "deal_cards", "players", "findings"])
@pytest.mark.parametrize("command", ["load", "query", "stats", "export"])
def test_a_dropped_table_is_one_line(db: Path, tmp_path: Path, table: str, command: str) -> None:
    _edit(db, f"DROP TABLE {table} CASCADE")
    args = {
        "load": ["load", str(SAMPLES / "bhoos.json")],
        "query": ["query", "SELECT count(*) FROM deals"],
        "stats": ["stats"],
        "export": ["export", "--parquet", str(tmp_path / "out")],
    }[command]
    line = _one_line(runner.invoke(app, [*args, "--db", str(db)]))
    assert f"{db}: the table {table} is missing" in line


# --------------------------------------------------------------------- changed matches
def test_a_changed_match_is_named_and_replace_stores_it(db: Path, tmp_path: Path) -> None:
    changed = _match("sim-pagat-5-1")
    changed["players"]["N"] = "Johnny"
    log = _write(tmp_path / "changed.jsonl", changed)
    result = _load(db, log)
    assert result.exit_code == 1, result.output
    assert (
        f"{log}:1: match 'sim-pagat-5-1' is already stored (from {PAGAT}) with other content"
    ) in result.stderr
    assert "--replace" in result.stderr
    assert _scalar(db, "SELECT name FROM match_players WHERE seat = 'N'") == "John"
    same = _load(db, PAGAT)
    assert same.exit_code == 0 and "other content" not in same.stderr
    replaced = _load(db, log, replace=True)
    assert replaced.exit_code == 0, replaced.output
    assert "1 replaced" in replaced.stderr
    assert _scalar(db, "SELECT name FROM match_players WHERE seat = 'N'") == "Johnny"
    assert _scalar(db, "SELECT count(*) FROM matches") == 1
    assert _scalar(db, "SELECT count(*) FROM deals") == len(changed["deals"])
    assert _scalar(db, "SELECT source FROM matches") == str(log)


# ----------------------------------------------------------------------------- export
def test_the_export_folder_has_the_umask_mode(db: Path, tmp_path: Path) -> None:
    target = tmp_path / "out"
    umask = os.umask(0o022)
    try:
        result = runner.invoke(app, ["export", "--parquet", str(target), "--db", str(db)])
    finally:
        os.umask(umask)
    assert result.exit_code == 0, result.output
    assert target.stat().st_mode & 0o777 == 0o755


def test_an_export_removes_what_a_killed_export_left(db: Path, tmp_path: Path) -> None:
    ended = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    dead = int(ended.stdout)
    stale = tmp_path / f".out.export-{dead}.abcd1234"
    (stale / "matches").mkdir(parents=True)
    running = tmp_path / f".out.export-{os.getpid()}.efgh5678"
    running.mkdir()
    unrelated = tmp_path / f".other.export-{dead}.ijkl9012"
    unrelated.mkdir()
    result = runner.invoke(app, ["export", "--parquet", str(tmp_path / "out"), "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert not stale.exists()
    assert running.exists() and unrelated.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".out.")) == [
        running.name
    ]
