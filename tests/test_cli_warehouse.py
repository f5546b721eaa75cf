"""`twentynine load / query / stats / export` on a real DuckDB file."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from tests.console import usage_error_line
from tests.test_cli_errors import run_cli
from twentynine.cli import app
from twentynine.reports.warehouse import ddl

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"


def _load(db: Path) -> None:
    result = runner.invoke(
        app,
        ["load", str(SAMPLES / "bangladesh.json"), str(SAMPLES / "pagat.json"), "--db", str(db)],
    )
    assert result.exit_code == 0, result.output
    assert "2 matches read from 2 files: 2 stored" in result.stderr


def test_load_twice_stores_nothing_new(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    _load(db)
    again = runner.invoke(app, ["load", str(SAMPLES / "pagat.json"), "--db", str(db)])
    assert again.exit_code == 0
    assert "nothing new" in again.stderr and "1 already stored" in again.stderr
    with duckdb.connect(str(db), read_only=True) as con:
        row = con.execute("select count(*) from matches").fetchone()
    assert row == (2,)


def test_query_reads_and_refuses_writes(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    _load(db)
    deals = sum(
        len(json.loads((SAMPLES / f"{name}.json").read_text())["deals"])
        for name in ("bangladesh", "pagat")
    )
    result = runner.invoke(
        app, ["query", "select count(*) as n from deals", "--db", str(db), "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"n": deals}
    csv = runner.invoke(
        app, ["query", "select 1 as a, 'x' as b", "--db", str(db), "--format", "csv"]
    )
    assert csv.stdout.splitlines() == ["a,b", "1,x"]
    refused = runner.invoke(app, ["query", "drop table matches", "--db", str(db)])
    assert refused.exit_code == 2
    assert len(refused.stderr.strip().splitlines()) == 1 and "read-only" in refused.stderr


def test_query_takes_sql_that_begins_with_a_comment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQL pasted with a header comment starts with `--`: click took it for an option."""
    _load(tmp_path / "w.duckdb")
    db = str(tmp_path / "w.duckdb")
    sql = "-- how many deals\nSELECT count(*) AS n FROM deals"
    for args in (
        [sql, "--db", db, "--format", "csv"],
        ["--db", db, sql, "--format", "csv"],
        ["--db", db, "--format", "csv", "--", sql],
    ):
        result = runner.invoke(app, ["query", *args])
        assert result.exit_code == 0, (args, result.output)
        assert result.stdout.splitlines()[0] == "n" and int(result.stdout.splitlines()[1]) > 0
    # an option mistyped is still one, not SQL
    line = usage_error_line(["query", "SELECT 1", "--fromat", "csv", "--db", db], monkeypatch)
    assert "No such option: --fromat (Possible options: --format)" in line


def test_stats_for_all_and_one_player(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    _load(db)
    players = json.loads((SAMPLES / "pagat.json").read_text())["players"]
    name = players["N"] if isinstance(players["N"], str) else players["N"]["name"]
    table = runner.invoke(app, ["stats", "--db", str(db), "--format", "json"])
    assert table.exit_code == 0, table.output
    rows = [json.loads(line) for line in table.stdout.splitlines()]
    assert name in {row["name"] for row in rows}
    one = runner.invoke(app, ["stats", "--db", str(db), "--player", name])
    assert one.exit_code == 0 and one.stdout.splitlines()[0].split()[0] == "column"
    missing = runner.invoke(app, ["stats", "--db", str(db), "--player", "Nobody"])
    assert missing.exit_code == 2 and "no player 'Nobody'" in missing.stderr


def test_export_parquet_reads_back(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    _load(db)
    out = tmp_path / "parquet"
    result = runner.invoke(app, ["export", "--db", str(db), "--parquet", str(out)])
    assert result.exit_code == 0, result.output
    pattern = str(out / "deals" / "**" / "*.parquet")
    with duckdb.connect() as con:
        row = con.execute(
            f"select count(*) from read_parquet('{pattern}', hive_partitioning=1)"
        ).fetchone()
    with duckdb.connect(str(db), read_only=True) as con:
        assert row == con.execute("select count(*) from deals").fetchone()


def test_missing_or_corrupt_warehouse_is_one_line(tmp_path: Path) -> None:
    missing = runner.invoke(app, ["stats", "--db", str(tmp_path / "none.duckdb")])
    assert missing.exit_code == 2 and len(missing.stderr.strip().splitlines()) == 1
    corrupt = tmp_path / "bad.duckdb"
    corrupt.write_bytes(b"not a database at all" * 100)
    before = corrupt.read_bytes()
    result = runner.invoke(app, ["load", str(SAMPLES / "pagat.json"), "--db", str(corrupt)])
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1
    assert str(corrupt) in result.stderr
    assert corrupt.read_bytes() == before


def test_a_player_is_found_by_any_name_a_match_gave(tmp_path: Path) -> None:
    # the Bhoos archive sample knows this player only by id; the text sample names her Asha
    db = tmp_path / "w.duckdb"
    archive = SAMPLES / "formats" / "bhoos_archive.json"
    text = SAMPLES / "formats" / "sample.29"
    assert "5WrVWE6G" in archive.read_text() and 'id="5WrVWE6G"' in text.read_text()
    loaded = runner.invoke(app, ["load", str(archive), str(text), "--db", str(db)])
    assert loaded.exit_code == 0, loaded.output
    one = runner.invoke(app, ["stats", "--db", str(db), "--player", "Asha", "--format", "json"])
    assert one.exit_code == 0, one.output
    [row] = [json.loads(line) for line in one.stdout.splitlines()]
    assert row["player_id"] == "5WrVWE6G"


def test_stats_by_role_with_intervals_and_the_one_deal_note(tmp_path: Path) -> None:
    # the Bhoos archive sample: every game gives its four players new ids
    db = tmp_path / "w.duckdb"
    archive = SAMPLES / "formats" / "bhoos_archive.json"
    loaded = runner.invoke(app, ["load", str(archive), "--db", str(db)])
    assert loaded.exit_code == 0, loaded.output
    games = len(json.loads(archive.read_text())["games"])
    players = runner.invoke(app, ["stats", "--db", str(db), "--format", "csv"])
    assert players.exit_code == 0, players.output
    assert "make_rate,make_rate_low,make_rate_high" in players.stdout.splitlines()[0]
    assert players.stderr.startswith(f"note: all {4 * games} players have played")
    roles = runner.invoke(app, ["stats", "--db", str(db), "--by", "role", "--format", "json"])
    assert roles.exit_code == 0 and not roles.stderr
    rows = {row["role"]: row for row in map(json.loads, roles.stdout.splitlines())}
    assert [rows[p]["deals"] for p in ("P1", "P2", "P3", "P4")] == [games] * 4
    table = runner.invoke(
        app, ["stats", "--db", str(db), "--by", "role", "--columns", "calls,make_rate"]
    )
    assert table.stdout.splitlines()[0].split() == ["role", "meaning", "calls", "make_rate"]
    caller = next(line for line in table.stdout.splitlines() if line.startswith("caller"))
    rate = rows["caller"]["make_rate"]
    low, high = rows["caller"]["make_rate_low"], rows["caller"]["make_rate_high"]
    assert caller.endswith(f"{rate:.3f} [{low:.2f}, {high:.2f}]")


def test_a_date_not_written_yyyy_mm_dd_is_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`--since` of `stats` and `report players` keep one rule and say it alike."""
    for command in (["stats"], ["report", "players", "-o", "p.html"]):
        for since in ("2026-13-01", "May 1", ""):
            line = usage_error_line([*command, "--since", since], monkeypatch)
            assert f"'--since': {since!r} is not a date: write YYYY-MM-DD" in line, line
    line = usage_error_line(["report", "players", "-o", "p.html", "--until", "1.5."], monkeypatch)
    assert "'--until': '1.5.' is not a date" in line


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--sort", "make"], "no statistic 'make'; did you mean 'make_rate'?"),
        (["--columns", "deals,nope"], "no statistic 'nope'"),
    ],
)
def test_stats_options_refused_in_one_line(tmp_path: Path, option: list[str], message: str) -> None:
    db = tmp_path / "w.duckdb"
    _load(db)
    result = runner.invoke(app, ["stats", "--db", str(db), *option])
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr


def test_stats_preset_choices_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    _load(db)
    result = run_cli("stats", "--db", str(db), "--preset", "bridge")
    assert result.returncode == 2
    line = result.stderr.strip()
    assert len(line.splitlines()) == 1 and "'bridge' is not one of 'bangladesh'" in line


def test_an_older_file_gets_the_new_views(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    _load(db)
    older = ddl.SCHEMA_VERSION - 1
    with duckdb.connect(str(db)) as con:
        con.execute("DROP VIEW contracts")
        con.execute("DROP VIEW role_stats")
        con.execute(f"UPDATE warehouse_info SET value = '{older}' WHERE key = 'schema_version'")
    outdated = runner.invoke(app, ["stats", "--db", str(db)])
    assert outdated.exit_code == 2
    assert f"needs migrating to {ddl.SCHEMA_VERSION}" in outdated.stderr
    again = runner.invoke(app, ["load", str(SAMPLES / "pagat.json"), "--db", str(db)])
    assert again.exit_code == 0, again.output
    counted = runner.invoke(app, ["query", "select count(*) from contracts", "--db", str(db)])
    assert counted.exit_code == 0 and int(counted.stdout.split()[-1]) > 0


def _ctrl_c_as_in_a_terminal() -> None:
    """In the child: Ctrl-C as a terminal delivers it, even where the tests run in a
    background job, whose children inherit it ignored (Python then leaves it ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_a_long_query_at_once(tmp_path: Path) -> None:
    """DuckDB does not look for Ctrl-C while a query runs: `query` went on to the end of a
    query of hours. It stops within seconds, exit 130, no traceback, the warehouse as it was."""
    db = tmp_path / "w.duckdb"
    assert runner.invoke(app, ["load", str(SAMPLES / "pagat.json"), "--db", str(db)]).exit_code == 0
    before = db.read_bytes()
    sql = "SELECT sum(hash(range)) FROM range(1000000000000)"  # hours of work
    process = subprocess.Popen(
        [sys.executable, "-m", "twentynine", "query", sql, "--db", str(db)],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_ctrl_c_as_in_a_terminal,  # noqa: PLW1509 - sets one signal, takes no lock
    )
    time.sleep(3)  # well into the query
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail("the query went on after Ctrl-C")
    assert process.returncode == 130, err
    assert "Traceback" not in err and out == ""
    assert db.read_bytes() == before
