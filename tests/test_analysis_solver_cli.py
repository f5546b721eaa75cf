"""``twentynine solve`` as a user runs it: the value and the moves, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from twentynine.analysis import solve
from twentynine.cli import app
from twentynine.importers.formats import read_any
from twentynine.replay import DealState

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
BHOOS = str(SAMPLES / "bhoos.json")
runner = CliRunner()


def _state_before(path: str, deal_number: int, at: int) -> DealState:
    match = next(iter(read_any(path))).match
    assert match is not None
    deal = match.deals[deal_number - 1]
    state = DealState(match.resolved_rules(), deal.dealer, deal.hands, number=deal_number)
    for action in deal.actions[:at]:
        state.apply(action)
    return state


def test_json_gives_the_value_and_every_move() -> None:
    result = runner.invoke(app, ["solve", BHOOS, "--deal", "2", "--format", "json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    match = next(iter(read_any(BHOOS))).match
    assert match is not None
    first_play = next(i for i, a in enumerate(match.deals[1].actions) if a.type == "play")
    assert payload["at"] == first_play
    solution = solve(_state_before(BHOOS, 2, first_play))
    assert payload["value"] == solution.value
    expected = [(a.card.text, v) for a, v in solution.actions if a.type == "play"]
    assert [(a["card"], a["value"]) for a in payload["actions"]] == expected
    assert payload["value"] == payload["actions"][0]["value"]


def test_text_shows_the_hands_and_the_moves_best_first() -> None:
    result = runner.invoke(app, ["solve", BHOOS, "--deal", "1", "--at", "10"])
    assert result.exit_code == 0, result.output
    solution = solve(_state_before(BHOOS, 1, 10))
    lines = result.stdout.splitlines()
    assert "before action 10" in lines[0]
    assert any(line.lstrip().startswith("N  ") for line in lines)
    assert f"value:   {solution.value} " in result.stdout
    values = [int(line.split()[-1]) for line in lines if " plays " in line or " asks " in line]
    assert values == [value for _, value in solution.actions]
    assert "\x1b[" not in result.stdout  # no colour when the output is not a terminal


def test_the_hands_shown_are_the_ones_solved() -> None:
    """Before the first lead of a bangladesh deal the doubling is still open (the engine holds
    the second four back); the solver closes it, and the text shows the eight cards it solved."""
    path = str(SAMPLES / "bangladesh.json")
    result = runner.invoke(app, ["solve", path, "--deal", "1"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    south = next(line for line in lines if line.lstrip().startswith("S  "))
    ranks = south.split()[1:]  # suit symbols and ranks after the seat
    held = [token for token in ranks if token not in {"♠", "♥", "♣", "♦"}]
    moves = [line for line in lines if line.startswith("S plays ")]
    assert len(held) == len(moves) == 8


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "no/such.json", "--deal", "1"], "cannot read"),
        (["solve", BHOOS, "--deal", "99"], "has 23 deals"),
        (["solve", BHOOS, "--deal", "1", "--at", "999"], "--at must be 0 to"),
        (["solve", BHOOS, "--deal", "1", "--at", "0"], "no caller yet"),
        (["solve", BHOOS, "--deal", "1", "--match", "nope"], "no match with id 'nope'"),
        (
            ["solve", str(SAMPLES / "formats" / "bhoos_play.jsonl"), "--deal", "1"],
            "unknown cards",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_a_single_hand_is_said_to_need_every_trick_not_a_target() -> None:
    """Issue 36 §3: deal 4 of the standard sample, a single hand by E, said "target 19"."""
    result = runner.invoke(app, ["solve", str(SAMPLES / "standard.json"), "--deal", "4"])
    assert result.exit_code == 0, result.output
    caller = next(line for line in result.stdout.splitlines() if line.startswith("caller:"))
    assert caller == "caller:  E (EW), single hand by E: must win every trick"


@pytest.mark.parametrize("command", ["solve", "replay"])
def test_a_negative_at_is_the_same_usage_error_in_solve_and_replay(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 36 §3: `--at -1` was a usage error in `replay` but the file's own line in `solve`."""
    from tests.console import usage_error_line

    line = usage_error_line([command, BHOOS, "--deal", "1", "--at", "-1"], monkeypatch)
    assert line == (
        "twentynine: Invalid value for '--at': Input should be greater than or equal to 0 "
        f"(see twentynine {command} --help)"
    )


def test_the_load_line_groups_thousands_in_every_count() -> None:
    """Issue 36 §3: "3,668 matches read ... 3668 stored"."""
    from twentynine.reports.warehouse.store import LoadSummary

    summary = LoadSummary(
        "w.duckdb", files=7, read=4668, stored=2000, duplicates=1668, skipped=1000, deals=2000
    )
    assert summary.lines()[-1] == (
        "4,668 matches read from 7 files: 2,000 stored (2,000 deals, 0 findings), 1,668 already "
        "stored, 1,000 skipped -> w.duckdb"
    )
