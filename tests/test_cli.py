"""The command line as a user runs it: output, one-line errors and exit codes."""

import importlib.metadata
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from twentynine.analysis.solver import solver_build
from twentynine.cli import app
from twentynine.replay import engine_build
from twentynine.schema.log import match_json_schema
from twentynine.textout import ERROR_PREFIX

FIXTURES = Path(__file__).resolve().parent / "fixtures"
runner = CliRunner()


def example() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(
        (FIXTURES / "log_format_example.json").read_text(encoding="utf-8")
    )
    return document


def test_help_lists_the_commands() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("schema", "rules", "audit", "demo"):
        assert command in result.stdout


def test_version_says_which_engine_runs() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0, result.output
    version = importlib.metadata.version("twentynine")
    assert result.output == (
        f"twentynine {version} (rules engine: {engine_build()}; solver: {solver_build()})\n"
    )
    assert engine_build() in ("compiled", "pure Python")  # a stale build fails test_build too


def test_module_entry_point_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "twentynine", "rules", "bhoos", "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["duel_replacement"] == "next_seat"


def test_schema_prints_the_json_schema() -> None:
    result = runner.invoke(app, ["schema"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == match_json_schema()


def test_rules_side_by_side_and_single_and_diff() -> None:
    table = runner.invoke(app, ["rules"])
    assert table.exit_code == 0
    header = table.stdout.splitlines()[0].split()
    assert header == ["option", "bangladesh", "standard", "beginner", "pagat", "classic29", "bhoos"]
    bidding = next(line for line in table.stdout.splitlines() if line.startswith("bidding "))
    styles = ["duel", "rotation", "open", "rotation", "rotation", "duel"]
    assert bidding.split() == ["bidding", *styles]
    single = runner.invoke(app, ["rules", "classic29"])
    row = next(line for line in single.stdout.splitlines() if line.startswith("last_trick_bonus"))
    assert row.split() == ["last_trick_bonus", "1"]
    diff = runner.invoke(app, ["rules", "--diff", "standard", "pagat", "--format", "json"])
    assert json.loads(diff.stdout)["pair"] == {
        "standard": "after_side_wins",
        "pagat": "immediately_after_side_wins",
    }
    assert "min_bid" not in json.loads(diff.stdout)


def test_unknown_preset_is_one_line_and_exit_2() -> None:
    result = runner.invoke(app, ["rules", "hearts"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "twentynine: unknown preset 'hearts' (known: bangladesh, standard, beginner, pagat, "
        "classic29, bhoos)"
    ]


def test_a_preset_and_a_diff_together_are_one_line() -> None:
    result = runner.invoke(app, ["rules", "pagat", "--diff", "bangladesh", "standard"])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().splitlines() == [
        "twentynine: give a PRESET or --diff A B, not both (pagat, and bangladesh against standard)"
    ]
    assert result.stdout == ""


def test_audit_valid_file_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "one.json"
    path.write_text(json.dumps(example()))
    result = runner.invoke(app, ["audit", str(path)])
    assert result.exit_code == 0, result.output
    assert "1 file, 1 match, 1 deal" in result.stdout


def _bad(document: dict[str, Any], change: str) -> dict[str, Any]:
    if change == "card":
        document["deals"][0]["actions"][7]["card"] = "XS"
    elif change == "type":
        document["deals"][0]["actions"][2]["type"] = "shout"
    elif change == "preset":
        document["rules"] = {"preset": "hearts"}
    elif change == "missing":
        del document["deals"][0]["actions"][0]["value"]
    return document


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ("card", "bad.jsonl:2: deals[0].actions[7].card: 'XS' is not a card"),
        ("type", "bad.jsonl:2: deals[0].actions[2].type: unknown action type 'shout'"),
        ("preset", "bad.jsonl:2: rules: unknown preset 'hearts'"),
        ("missing", "bad.jsonl:2: deals[0].actions[0].value: missing required field"),
    ],
)
def test_audit_bad_document_one_line_exit_2(tmp_path: Path, change: str, expected: str) -> None:
    path = tmp_path / "bad.jsonl"
    lines = [json.dumps(example()), json.dumps(_bad(example(), change))]
    path.write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["audit", str(path)])
    assert result.exit_code == 2
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 1
    assert errors[0].startswith(ERROR_PREFIX + str(tmp_path / expected))
    assert "Traceback" not in result.output


def test_audit_truncated_json_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(example())[:80])
    result = runner.invoke(app, ["audit", str(path)])
    assert result.exit_code == 2
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"{ERROR_PREFIX}{path}:1: invalid JSON: EOF while parsing")


def test_audit_searches_folders_reads_stdin_and_speaks_json(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.json").write_text(json.dumps(example()))
    (tmp_path / "notes.txt").write_text("not a log")
    folder = runner.invoke(app, ["audit", str(tmp_path)])
    assert folder.exit_code == 0 and "1 file, 1 match" in folder.stdout
    piped = runner.invoke(app, ["audit", "-", "--format", "json"], input="{")
    assert piped.exit_code == 2
    finding = json.loads(piped.stdout.splitlines()[0])
    assert finding["file"] == "<stdin>" and finding["severity"] == "error"
    assert {"file", "match", "deal", "action", "code", "severity", "message"} <= set(finding)


def test_audit_missing_file_and_empty_folder(tmp_path: Path) -> None:
    missing = runner.invoke(app, ["audit", str(tmp_path / "none.json")])
    assert missing.exit_code == 2 and "cannot read" in missing.stderr
    empty = runner.invoke(app, ["audit", str(tmp_path)])
    assert empty.exit_code == 2 and "no match logs found" in empty.stderr
