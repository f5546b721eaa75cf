"""Control characters in player names and file names never reach the terminal raw."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from twentynine.cli import app
from twentynine.textout import printable

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
TITLE = "\x1b]0;pwned\x07"  # sets a terminal window's title
RAW = ("\x1b", "\x07", "\r", "\x9b", "\u202e")


def _clean(text: str) -> None:
    for char in RAW:
        assert char not in text, repr(text)


def test_printable_escapes_controls_and_keeps_the_rest() -> None:
    assert printable("Asha\x1b[2J") == "Asha\\x1b[2J"
    assert printable("a\nb\tc\u202ed\x9b") == "a\\nb\\tc\\u202ed\\x9b"
    assert printable("Ñandú ♠ 29") == "Ñandú ♠ 29"


@pytest.fixture
def forged(tmp_path: Path) -> Path:
    """A bad log whose file name holds a newline and a forged audit line."""
    name = "x.json:1:1:0: OUT_OF_TURN fake\nrevoke.json"
    path = tmp_path / name
    path.write_bytes((SAMPLES / "bad" / "revoke.json").read_bytes())
    return path


def test_a_file_name_cannot_forge_audit_lines(forged: Path) -> None:
    result = runner.invoke(app, ["audit", str(forged)])
    assert result.exit_code == 1, result.output
    findings = [line for line in result.stdout.splitlines() if "REVOKE" in line]
    assert findings and all(line.startswith(str(forged.parent)) for line in findings)
    assert all("\\n" in line for line in findings)
    forged_lines = [line for line in result.stdout.splitlines() if "OUT_OF_TURN fake" in line]
    assert all("\\n" in line for line in forged_lines)


def test_problem_lines_escape_file_names(tmp_path: Path) -> None:
    bad = tmp_path / f"bad{TITLE}.json"
    bad.write_text("{", encoding="utf-8")
    for args, code in (
        (["audit", str(bad)], 2),
        (["import", str(bad), "-o", str(tmp_path / "o.jsonl")], 2),
        (["load", str(bad), "--db", str(tmp_path / "w.duckdb")], 1),
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == code, result.output
        _clean(result.output)
        assert "bad\\x1b]0;pwned\\x07.json" in result.stderr


def _with_name(name: str) -> dict[str, Any]:
    match: dict[str, Any] = json.loads((SAMPLES / "pagat.json").read_text(encoding="utf-8"))
    match["players"]["N"] = name
    match["id"] = f"m{len(name)}"
    return match


def test_player_names_are_escaped_in_stats_and_query_tables(tmp_path: Path) -> None:
    log = tmp_path / "names.jsonl"
    log.write_text(json.dumps(_with_name(f"Evil{TITLE}\u202eName")) + "\n", encoding="utf-8")
    db = tmp_path / "w.duckdb"
    assert runner.invoke(app, ["load", str(log), "--db", str(db)]).exit_code == 0
    for args in (
        ["stats"],
        ["stats", "--player", f"Evil{TITLE}\u202eName"],
        ["query", 'SELECT name, name AS "x\x1by" FROM players'],
    ):
        # wide enough for the name as printed, escapes and all (80 columns cut it: stats fits)
        result = runner.invoke(app, [*args, "--db", str(db)], env={"COLUMNS": "120"})
        assert result.exit_code == 0, result.output
        _clean(result.stdout)
        assert "Evil\\x1b]0;pwned\\x07\\u202eName" in result.stdout
    query = ["query", "SELECT name FROM players", "--db", str(db), "--format", "json"]
    data = runner.invoke(app, query)
    assert f"Evil{TITLE}" in "".join(json.loads(line)["name"] for line in data.stdout.splitlines())


def test_replay_escapes_names_and_ids(tmp_path: Path) -> None:
    match = _with_name(f"Evil{TITLE}")
    match["id"] = f"id{TITLE}"
    log = tmp_path / "m.jsonl"
    log.write_text(json.dumps(match) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 0, result.output
    _clean(result.stdout)
    assert "Evil\\x1b" in result.stdout and "id\\x1b]0;pwned\\x07" in result.stdout


LONG = "L" * 10_000


def test_a_long_name_is_cut_in_every_terminal_table(tmp_path: Path) -> None:
    log = tmp_path / "long.jsonl"
    log.write_text(json.dumps(_with_name(LONG)) + "\n", encoding="utf-8")
    db = tmp_path / "w.duckdb"
    assert runner.invoke(app, ["load", str(log), "--db", str(db)]).exit_code == 0
    for args in (
        ["matches", str(log)],
        ["matches", "--db", str(db)],
        ["stats", "--db", str(db)],
        ["stats", "--db", str(db), "--columns", "all"],
        ["stats", "--db", str(db), "--player", LONG],
        ["replay", str(log), "--deal", "1", "--at", "0"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        assert "L" * 32 not in result.stdout, args  # cut: at most 31 letters and the …
        assert "LLLL…" in result.stdout, args
        if args[0] == "matches":  # 10,141 characters a line before
            assert max(map(len, result.stdout.splitlines())) <= 160
    data = runner.invoke(app, ["matches", str(log), "--format", "csv"])
    assert LONG in data.stdout  # as data: whole


def test_zero_width_characters_are_shown_and_keep_the_columns(tmp_path: Path) -> None:
    match = _with_name("Anne")
    match["players"].update({"E": "An\u200bne", "S": "Ann\u200de", "W": "\ufeffAnne"})
    log = tmp_path / "anne.jsonl"
    log.write_text(json.dumps(match) + "\n", encoding="utf-8")
    db = tmp_path / "w.duckdb"
    assert runner.invoke(app, ["load", str(log), "--db", str(db)]).exit_code == 0
    for args in (["stats", "--db", str(db)], ["matches", str(log)]):
        out = runner.invoke(app, args).stdout
        for char in "\u200b\u200c\u200d\ufeff":
            assert char not in out
        for shown in ("An\\u200bne", "Ann\\u200de", "\\ufeffAnne"):
            assert shown in out
    header, _, *rows = runner.invoke(app, ["stats", "--db", str(db)]).stdout.splitlines()
    assert len(rows) == 4
    at = header.index("deals")  # each row's deals under the heading: the names' columns
    assert all(row[at - 2 : at] == "  " and row[at].isdigit() for row in rows), rows
