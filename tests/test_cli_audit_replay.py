"""`twentynine audit` and `twentynine replay` over real logs made by the engine."""

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from importers.canonical import dump_match
from replay import random_match
from schema.log import MatchLog, PlayAction
from schema.rules import Rules
from tests.terminal import Terminal
from twentynine.cli import app

runner = CliRunner()


@pytest.fixture(scope="module")
def clean_match() -> MatchLog:
    return random_match(Rules.preset("pagat"), seed=11)


def _write(path: Path, *matches: MatchLog) -> Path:
    if path.suffix == ".json":
        path.write_bytes(dump_match(matches[0], indent=True))
    else:
        path.write_bytes(b"".join(dump_match(m) + b"\n" for m in matches))
    return path


def _with_revoke(match: MatchLog) -> tuple[MatchLog, int, int]:
    """The match with a follower's card swapped for another of theirs that breaks follow suit."""
    document = match.to_canonical()
    deal = match.deals[0]
    assert deal.hands is not None
    plays = [(i, a) for i, a in enumerate(deal.actions) if isinstance(a, PlayAction)]
    for position, (index, action) in enumerate(plays):
        if position % 4 == 0:
            continue
        led = plays[position - position % 4][1].card.suit
        later = {a.card for _, a in plays[position + 1 :] if a.seat is action.seat}
        if action.card.suit is led:
            other = next((c for c in later if c.suit is not led), None)
            if other is not None:
                document["deals"][0]["actions"][index]["card"] = other.text
                return MatchLog.model_validate(document), 1, index
    raise AssertionError("no follower to make revoke")


def test_clean_logs_exit_0_with_summary(tmp_path: Path, clean_match: MatchLog) -> None:
    _write(tmp_path / "a.json", clean_match)
    _write(tmp_path / "b.jsonl", clean_match, random_match(Rules.preset("bhoos"), seed=2))
    result = runner.invoke(app, ["audit", str(tmp_path)])
    assert result.exit_code == 0, result.output
    deals = 2 * len(clean_match.deals) + len(random_match(Rules.preset("bhoos"), seed=2).deals)
    assert result.stdout.strip().endswith(
        f"2 files, 3 matches, {deals} deals: 0 errors, 0 warnings"
    )


def test_breach_is_reported_like_a_linter_and_exits_1(
    tmp_path: Path, clean_match: MatchLog
) -> None:
    bad, deal, index = _with_revoke(clean_match)
    path = _write(tmp_path / "bad.json", bad)
    result = runner.invoke(app, ["audit", str(path)])
    assert result.exit_code == 1
    first = result.stdout.splitlines()[0]
    assert first.startswith(f"{path}:{deal}:{index}: ")
    assert "errors" in result.stdout.splitlines()[-1]


def test_json_output_has_the_contract_fields(tmp_path: Path, clean_match: MatchLog) -> None:
    bad, deal, index = _with_revoke(clean_match)
    path = _write(tmp_path / "league.jsonl", clean_match, bad)
    result = runner.invoke(app, ["audit", str(path), "--format", "json"])
    assert result.exit_code == 1
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows, "expected findings"
    assert all(
        {"file", "match", "deal", "action", "code", "severity", "message"} <= set(r) for r in rows
    )
    first = rows[0]
    assert (first["file"], first["line"], first["deal"], first["action"]) == (
        str(path),
        2,
        deal,
        index,
    )
    assert first["match"] == bad.match_id and first["severity"] == "error"
    assert "0 errors" not in result.stderr


def test_strict_stops_at_the_first_error(tmp_path: Path, clean_match: MatchLog) -> None:
    bad, deal, index = _with_revoke(clean_match)
    path = _write(tmp_path / "bad.json", bad)
    result = runner.invoke(app, ["audit", "--strict", str(path)])
    assert result.exit_code == 1
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"twentynine: {path}:{deal}:{index}: ")


def test_rules_override_changes_the_verdict(tmp_path: Path) -> None:
    match = random_match(Rules.preset("classic29"), seed=4)
    path = _write(tmp_path / "c.json", match)
    assert runner.invoke(app, ["audit", str(path)]).exit_code == 0
    # classic29 counts the last-trick point; audited as pagat the recorded points disagree
    other = runner.invoke(app, ["audit", str(path), "--rules", "pagat"])
    assert other.exit_code == 1
    bad = runner.invoke(app, ["audit", str(path), "--rules", "hearts"])
    assert bad.exit_code == 2 and "'hearts' is not one of 'bangladesh'" in bad.output


def test_stdin_is_read(clean_match: MatchLog) -> None:
    result = runner.invoke(app, ["audit", "-"], input=dump_match(clean_match).decode())
    assert result.exit_code == 0, result.output
    assert "1 file, 1 match" in result.stdout


def test_replay_prints_every_step_off_a_terminal(tmp_path: Path, clean_match: MatchLog) -> None:
    path = _write(tmp_path / "m.json", clean_match)
    result = runner.invoke(app, ["replay", str(path), "--deal", "1"])
    assert result.exit_code == 0, result.output
    actions = len(clean_match.deals[0].actions)
    assert result.stdout.count(f"step {actions}/{actions}") == 1
    assert "step 0/" in result.stdout and "the deal begins" in result.stdout
    assert "needs:" in result.stdout and "trump:" in result.stdout


def test_replay_for_one_seat_hides_the_others(tmp_path: Path, clean_match: MatchLog) -> None:
    path = _write(tmp_path / "m.json", clean_match)
    result = runner.invoke(app, ["replay", str(path), "--seat", "N"])
    assert result.exit_code == 0, result.output
    first = result.stdout.split("\n\n")[1]
    east = next(line for line in first.splitlines() if "E  " in line)
    # before the second four are dealt, each seat holds four cards
    assert east.split("E  ")[-1].split() == ["??"] * 4
    north = next(line for line in first.splitlines() if line.strip().startswith("N  "))
    assert "??" not in north


def test_replay_bad_choices_are_one_line(tmp_path: Path, clean_match: MatchLog) -> None:
    path = _write(tmp_path / "m.json", clean_match)
    deal = runner.invoke(app, ["replay", str(path), "--deal", "99"])
    assert deal.exit_code == 2 and f"has {len(clean_match.deals)} deals" in deal.stderr
    match = runner.invoke(app, ["replay", str(path), "--match", "nope"])
    assert match.exit_code == 2 and "no match with id 'nope'" in match.stderr


def test_replay_steps_on_a_real_terminal(tmp_path: Path, clean_match: MatchLog) -> None:
    path = _write(tmp_path / "m.json", clean_match)
    with Terminal([sys.executable, "-m", "twentynine", "replay", str(path)]) as terminal:
        assert b"step 0/" in terminal.read_until(b"step 0/")
        terminal.type(b"\x1b[C")
        assert b"step 1/" in terminal.read_until(b"step 1/")
        terminal.type(b"5\r")
        assert b"step 5/" in terminal.read_until(b"step 5/")
        terminal.type(b"\x1b[D")
        assert b"step 4/" in terminal.read_until(b"step 4/")
        terminal.type(b"q")
        assert terminal.finish() == 0
