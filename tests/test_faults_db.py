"""`--db` is a plain local file, opened with no extension loaded or installed on the way."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.console import usage_error_line
from twentynine.cli import app
from twentynine.reports.warehouse.errors import WarehouseError
from twentynine.reports.warehouse.store import open_warehouse

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
PAGAT = str(SAMPLES / "pagat.json")


def _usage_error(args: list[str], needle: str, monkeypatch: pytest.MonkeyPatch) -> None:
    line = usage_error_line(args, monkeypatch)
    assert line.startswith("twentynine: Invalid value for '--db': ") and needle in line, line


def _one_line_exit_2(args: list[str], *needles: str) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("db", ["md:test", ":memory:", ":memory:x", "s3://bucket/w.duckdb"])
@pytest.mark.parametrize("command", ["load", "query", "stats"])
def test_only_a_local_file_path(
    db: str, command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    args = {"load": ["load", PAGAT], "query": ["query", "SELECT 1"], "stats": ["stats"]}[command]
    _one_line_exit_2([*args, "--db", db], "not a local file path")
    assert list(tmp_path.iterdir()) == []


def test_a_local_file_whose_name_has_a_colon_is_fine(tmp_path: Path) -> None:
    result = runner.invoke(app, ["load", PAGAT, "--db", str(tmp_path / "md:test")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "md:test").is_file()


@pytest.fixture
def lite(tmp_path: Path) -> Path:
    path = tmp_path / "club.db"
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE games (id INTEGER)")
    con.close()
    return path


@pytest.mark.parametrize("command", ["load", "query", "stats"])
def test_a_sqlite_file_is_refused_untouched(command: str, lite: Path) -> None:
    before = hashlib.sha256(lite.read_bytes()).hexdigest()
    args = {"load": ["load", PAGAT], "query": ["query", "SELECT 1"], "stats": ["stats"]}[command]
    _one_line_exit_2([*args, "--db", str(lite)], str(lite), "SQLite")
    assert hashlib.sha256(lite.read_bytes()).hexdigest() == before


def _data_file(tmp_path: Path, kind: str) -> Path:
    import duckdb

    path = tmp_path / f"data.{kind}"
    if kind == "parquet":
        with duckdb.connect() as con:
            con.execute(f"COPY (SELECT 1 AS a) TO '{path}' (FORMAT parquet)")
    else:
        path.write_text('{"a": 1}\n' if kind == "json" else "a,b\n1,2\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("kind", ["json", "csv", "parquet"])
@pytest.mark.parametrize("command", ["load", "query", "stats", "matches"])
def test_a_json_csv_or_parquet_file_is_not_a_duckdb_database(
    kind: str, command: str, tmp_path: Path
) -> None:
    """Issue 36 §3: DuckDB opens such a file as a view of its data, so `load` said "a DuckDB
    database but not a twentynine warehouse" and `stats` "Cannot launch in-memory database in
    read-only mode!"."""
    path = _data_file(tmp_path, kind)
    before = path.read_bytes()
    args = {"load": ["load", PAGAT], "query": ["query", "SELECT 1"]}.get(command, [command])
    line = _one_line_exit_2([*args, "--db", str(path)])
    assert line == f"twentynine: {path}: not a DuckDB database; nothing was changed"
    assert path.read_bytes() == before


@pytest.mark.parametrize("read_only", [False, True])
def test_every_connection_loads_and_installs_no_extension(tmp_path: Path, read_only: bool) -> None:
    db = tmp_path / "w.duckdb"
    open_warehouse(db).close()
    with open_warehouse(db, read_only=read_only) as wh:
        settings = dict(
            wh.con.execute(
                "SELECT name, value FROM duckdb_settings() WHERE name IN "
                "('autoinstall_known_extensions', 'autoload_known_extensions', "
                "'enable_external_access')"
            ).fetchall()
        )
    assert settings == {
        "autoinstall_known_extensions": "false",
        "autoload_known_extensions": "false",
        "enable_external_access": "false",
    }


def test_open_warehouse_refuses_memory() -> None:
    with pytest.raises(WarehouseError, match="not a local file path"):
        open_warehouse(":memory:")


def test_update_extensions_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    assert runner.invoke(app, ["load", PAGAT, "--db", str(db)]).exit_code == 0
    _one_line_exit_2(["query", "UPDATE EXTENSIONS", "--db", str(db)], str(db))


@pytest.mark.parametrize("sql", ["SELECT 1; UPDATE EXTENSIONS", "UPDATE EXTENSIONS; SELECT 1"])
def test_a_statement_of_an_unknown_type_among_others_is_refused_as_a_write(
    tmp_path: Path, sql: str
) -> None:
    db = tmp_path / "w.duckdb"
    assert runner.invoke(app, ["load", PAGAT, "--db", str(db)]).exit_code == 0
    line = _one_line_exit_2(["query", sql, "--db", str(db)], str(db), "refused")
    assert "UPDATE" in line


def test_a_query_reads_nothing_in_the_warehouse_s_temporary_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "w.duckdb"
    assert runner.invoke(app, ["load", PAGAT, "--db", str(db)]).exit_code == 0
    temporary = tmp_path / "w.duckdb.tmp"  # DuckDB's own temporary folder for w.duckdb
    temporary.mkdir()
    (temporary / "secret.csv").write_text("a,b\n1,hidden\n")
    monkeypatch.chdir(tmp_path)
    for name in (temporary / "secret.csv", "w.duckdb.tmp/secret.csv"):
        sql = f"SELECT * FROM read_csv('{name}')"
        line = _one_line_exit_2(["query", sql, "--db", str(db)], str(db), "disabled")
        assert "hidden" not in line
    result = runner.invoke(app, ["query", "SELECT * FROM deals ORDER BY ALL", "--db", str(db)])
    assert result.exit_code == 0, result.output
    with open_warehouse(db, read_only=True) as one, open_warehouse(db, read_only=True) as two:
        assert one.query("SELECT 1").rows == two.query("SELECT 1").rows  # readers side by side


DB_COMMANDS: dict[str, list[str]] = {
    "load": ["load", PAGAT],
    "analyze": ["analyze", PAGAT, "--only", "cards", "--deal", "1"],
    "report players": ["report", "players", "-o", "players.html"],
    "export": ["export", "--parquet", "exported"],
    "query": ["query", "SELECT 1"],
    "stats": ["stats"],
}


@pytest.mark.parametrize(
    ("db", "reason"),
    [("", "an empty name"), (".", ". names a folder"), ("..", ".. names a folder")],
)
@pytest.mark.parametrize("command", DB_COMMANDS)
def test_a_db_that_names_the_current_folder_is_one_line(
    db: str, reason: str, command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _usage_error([*DB_COMMANDS[command], "--db", db], reason, monkeypatch)
    assert list(tmp_path.iterdir()) == []


def test_a_folder_named_without_a_slash_is_refused_by_the_warehouse(tmp_path: Path) -> None:
    (tmp_path / "club").mkdir()
    _one_line_exit_2(["stats", "--db", str(tmp_path / "club")], "club: is a folder, not a database")


@pytest.mark.parametrize(
    "command",
    [
        *DB_COMMANDS,
        "replay",
        "matches",
        "report match",
    ],
)
@pytest.mark.parametrize("ending", ["/", "/.", "/.."])
def test_a_db_named_as_a_folder_opens_no_file_of_that_name(
    command: str, ending: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--db club.duckdb/` opened (or made) `club.duckdb`: the path had dropped the slash."""
    monkeypatch.chdir(tmp_path)
    args = {
        **DB_COMMANDS,
        "replay": ["replay"],
        "matches": ["matches"],
        "report match": ["report", "match"],
    }
    _usage_error(
        [*args[command], "--db", f"club.duckdb{ending}"],
        f"club.duckdb{ending} names a folder: give the file's name in it",
        monkeypatch,
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["load", "query"])
def test_a_backslash_in_the_db_name_is_refused(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DuckDB reads a backslash as a folder separator: `sub\\w.duckdb` would be `sub/w.duckdb`,
    another file than the one named (and than the one the overwrite checks look at)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    _one_line_exit_2(
        [*DB_COMMANDS[command], "--db", "sub\\w.duckdb"], "sub\\w.duckdb: ", "backslash"
    )
    assert list((tmp_path / "sub").iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sub"]
