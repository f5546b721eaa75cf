"""`twentynine solve` and `matches` as a new user met them (issue 23 §7): a match by number,
no `--deal` for a one-deal match, suits as symbols, stored games in natural order."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from twentynine.cli import app
from twentynine.importers.formats import read_any
from twentynine.schema.log import MatchLog

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"
runner = CliRunner()


def first_match(path: Path) -> MatchLog:
    return next(r.match for r in read_any(path) if r.match is not None)


def one_deal_file(tmp_path: Path) -> Path:
    """The first deal of a sample match, as a match of its own."""
    match = first_match(SAMPLES / "bhoos.json")
    one = match.model_copy(update={"deals": match.deals[:1], "result": None})
    path = tmp_path / "one.json"
    path.write_text(one.model_dump_json(exclude_none=True))
    return path


def test_solve_takes_a_match_number_as_replay_does() -> None:
    league = SAMPLES / "league.jsonl"
    third = [r.match for r in read_any(league) if r.match is not None][2]
    solved = runner.invoke(app, ["solve", str(league), "--match", "3", "--deal", "1"])
    assert solved.exit_code == 0, solved.output
    assert solved.stdout.startswith(f"match {third.match_id} · deal 1 of")


def test_solve_needs_no_deal_for_a_one_deal_match(tmp_path: Path) -> None:
    solved = runner.invoke(app, ["solve", str(one_deal_file(tmp_path))])
    assert solved.exit_code == 0, solved.output
    assert "deal 1 of 1" in solved.stdout
    many = runner.invoke(app, ["solve", str(SAMPLES / "bhoos.json")])
    assert many.exit_code == 2
    assert "say which with --deal N (1 to" in many.stderr


def test_a_match_of_no_deal_says_so(tmp_path: Path) -> None:
    match = json.loads((SAMPLES / "pagat.json").read_text(encoding="utf-8"))
    match["deals"], match["result"] = [], None
    log = tmp_path / "none.json"
    log.write_text(json.dumps(match), encoding="utf-8")
    solved = runner.invoke(app, ["solve", str(log)])
    assert solved.exit_code == 2, solved.output
    assert solved.stderr == f"twentynine: {log}: match {match['id']} has 0 deals\n"


def test_solve_writes_suits_as_symbols_beside_seat_letters() -> None:
    solved = runner.invoke(app, ["solve", str(SAMPLES / "bhoos.json"), "--deal", "1", "--at", "10"])
    assert solved.exit_code == 0, solved.output
    # the cards as the rest of the terminal output writes them: ♠K, not KS beside seat S
    assert not re.search(r"\b[AKQJT987][SHDC]\b", solved.stdout), solved.stdout
    assert re.search(r"^trick:\s+E ♠K$", solved.stdout, re.M)
    assert re.search(r"^trump:\s+known to the caller: ♥$", solved.stdout, re.M)
    assert re.search(r"^S plays ♠A", solved.stdout, re.M)


def test_matches_lists_stored_games_in_natural_order(tmp_path: Path) -> None:
    archive = json.loads((SAMPLES / "formats" / "bhoos_archive.json").read_text())
    archive["games"] = archive["games"] + archive["games"][:4]  # 12 games: 10 after 9
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(archive))
    db = tmp_path / "w.duckdb"
    assert runner.invoke(app, ["load", str(path), "--db", str(db)]).exit_code == 0
    listed = runner.invoke(app, ["matches", "--db", str(db), "--format", "json"])
    ids = [json.loads(line)["match_id"] for line in listed.stdout.splitlines()]
    assert ids == [f"bhoos-{archive['sid']}-{i}" for i in range(12)]
