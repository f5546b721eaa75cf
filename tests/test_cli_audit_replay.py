"""`twentynine audit` and `twentynine replay` over real logs made by the engine."""

import json
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.terminal import Terminal
from twentynine.cli import app
from twentynine.importers.canonical import dump_match
from twentynine.importers.formats import read_any
from twentynine.replay import audit_match, random_match
from twentynine.reports.html.viewer import deal_data
from twentynine.schema.cards import Seat, Team
from twentynine.schema.log import MatchLog, PlayAction, TrumpAction, player_name
from twentynine.schema.rules import Rules

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


def _frames(output: str) -> list[str]:
    """The frames as a terminal lays them out: the isolates around names take no column."""
    shown = output.replace("\u2068", "").replace("\u2069", "")
    return [f for f in shown.split("\n\nmatch ") if f.strip()]


def test_replay_prints_every_step_off_a_terminal(tmp_path: Path, clean_match: MatchLog) -> None:
    path = _write(tmp_path / "m.json", clean_match)
    result = runner.invoke(app, ["replay", str(path), "--deal", "1"])
    assert result.exit_code == 0, result.output
    actions = len(clean_match.deals[0].actions)
    frames = _frames(result.stdout)
    assert len(frames) == actions + 2  # the start, each action, the result
    assert (
        frames[0].splitlines()[1].startswith(f"before the first action (actions 0-{actions - 1})")
    )
    for k, frame in enumerate(frames[1:-1]):
        assert frame.splitlines()[1].startswith(f"action {k} of 0-{actions - 1}: ")
        assert "Result: " not in frame
    assert (
        frames[-1].splitlines()[1]
        == f"the result (after action {actions - 1}; actions 0-{actions - 1})"
    )
    assert "Result: " in frames[-1]
    assert _table(frames[-1]) == _table(frames[-2])  # the table as the last action left it
    for label in ("Auction", "Contract  ", "Trump     ", "Points    ", "Needs     "):
        assert label in frames[0]
    names = {player_name(p) for p in clean_match.players.values()}
    assert all(name in frames[0] for name in names)


def test_replay_frames_keep_their_columns_and_show_whole_tricks(
    tmp_path: Path, clean_match: MatchLog
) -> None:
    path = _write(tmp_path / "m.json", clean_match)
    frames = _frames(runner.invoke(app, ["replay", str(path)]).stdout)
    boxes = {line.index("┌") for frame in frames for line in frame.splitlines() if "┌" in line}
    panels = {
        line.index("Contract") for f in frames for line in f.splitlines() if "Contract" in line
    }
    assert len(boxes) == 1 and len(panels) == 1
    # cards are written with suit symbols only: no `9D` anywhere
    assert not any(re.search(r"\b[AKQJT987][SHDC]\b", frame) for frame in frames)
    plays = [i for i, a in enumerate(clean_match.deals[0].actions) if isinstance(a, PlayAction)]
    fourth = frames[plays[3] + 1]
    shown = _table(fourth)
    assert sum(shown.count(symbol) for symbol in "♠♥♦♣") == 4 and shown.count("*") == 1
    assert "Tricks" in fourth and " 1  " in fourth.split("Tricks")[1]
    # the next lead clears it
    after = _table(frames[plays[4] + 1])
    assert sum(after.count(symbol) for symbol in "♠♥♦♣") == 1


def test_replay_columns_hold_long_names_and_hidden_hands(tmp_path: Path) -> None:
    names = {seat: f"{seat.value} a player with a very long name" for seat in Seat}
    match = random_match(Rules.preset("bangladesh"), 5, names)
    path = _write(tmp_path / "long.json", match)
    for seat in ([], ["--seat", "W"], ["--seat", "E"]):
        frames = _frames(runner.invoke(app, ["replay", str(path), *seat]).stdout)
        boxes = {line.index("┌") for f in frames for line in f.splitlines() if "┌" in line}
        sides = {line.index("│") for f in frames for line in f.splitlines() if "│" in line}
        panels = {
            line.index("Contract") for f in frames for line in f.splitlines() if "Contract" in line
        }
        assert len(boxes) == 1 and len(sides) == 1 and len(panels) == 1, seat


def test_replay_isolates_names_that_write_right_to_left(tmp_path: Path) -> None:
    # an unclosed right-to-left override, and a name in Hebrew letters
    names = {seat: f"{seat.value} \u202eevil" for seat in Seat}
    names[Seat.E] = "\u05d0\u05d1\u05d2"
    match = random_match(Rules.preset("bangladesh"), 5, names)
    path = _write(tmp_path / "rtl.json", match)
    output = runner.invoke(app, ["replay", str(path), "--deal", "1"]).stdout
    assert "\u202e" not in output and "\u2068N \\u202eevil\u2069" in output
    assert "E \u2068\u05d0\u05d1\u05d2\u2069" in output
    frames = _frames(output)
    sides = {line.index("│") for f in frames for line in f.splitlines() if "│" in line}
    assert len(sides) == 1  # the isolates take no column


def _table(frame: str) -> str:
    """What is inside the box of the trick on the table."""
    lines = [line for line in frame.splitlines() if "│" in line]
    return "".join(line[line.index("│") : line.rindex("│") + 1] for line in lines)


def test_replay_at_an_audited_action(tmp_path: Path, clean_match: MatchLog) -> None:
    bad, deal, index = _with_revoke(clean_match)
    path = _write(tmp_path / "bad.json", bad)
    audit = runner.invoke(app, ["audit", str(path)])
    where = audit.stdout.splitlines()[0].split(": ")[0]
    deal_no, action_no = where.split(":")[-2:]
    assert (int(deal_no), int(action_no)) == (deal, index)
    at = runner.invoke(app, ["replay", str(path), "--deal", deal_no, "--at", action_no])
    assert at.exit_code == 0, at.output
    [frame] = _frames(at.stdout)
    assert frame.splitlines()[1].startswith(f"action {index} of ")
    assert "!! REVOKE (error)" in frame
    found = runner.invoke(app, ["replay", str(path), "--finding"])
    assert found.exit_code == 0 and found.stdout == at.stdout
    clean = _write(tmp_path / "clean.json", clean_match)
    none = runner.invoke(app, ["replay", str(clean), "--finding"])
    assert none.exit_code == 2 and "has no finding" in none.stderr
    beyond = runner.invoke(app, ["replay", str(path), "--at", "999"])
    assert beyond.exit_code == 2 and "deal 1 has" in beyond.stderr


def test_replay_for_one_seat_hides_the_others(tmp_path: Path, clean_match: MatchLog) -> None:
    path = _write(tmp_path / "m.json", clean_match)
    result = runner.invoke(app, ["replay", str(path), "--seat", "N"])
    assert result.exit_code == 0, result.output
    frames = _frames(result.stdout)
    east = player_name(clean_match.players[Seat.E])
    north = player_name(clean_match.players[Seat.N])
    # before the second four are dealt, each seat holds four cards
    assert f"E {east} (4 unseen)" in frames[0]
    assert f"N {north} (" not in frames[0]
    trump = next(
        i for i, a in enumerate(clean_match.deals[0].actions) if isinstance(a, TrumpAction)
    )
    caller = clean_match.deals[0].actions[trump].seat
    for at, held in ((trump, 4), (trump + 1, 8)):
        seen = runner.invoke(app, ["replay", str(path), "--seat", caller.value, "--at", str(at)])
        [frame] = _frames(seen.stdout)
        # only the caller's own cards show: the first four when it chose the trump
        ranks = [
            token
            for line in frame.splitlines()[3:]
            if "Tricks" not in line
            for token in line[:60].split()
            if re.fullmatch("[AKQJT987]", token)
        ]
        action = clean_match.deals[0].actions[at]
        played = at > trump and isinstance(action, PlayAction) and action.seat is caller
        assert len(ranks) + played == held, at


def test_replay_bad_choices_are_one_line(tmp_path: Path, clean_match: MatchLog) -> None:
    path = _write(tmp_path / "m.json", clean_match)
    deal = runner.invoke(app, ["replay", str(path), "--deal", "99"])
    assert deal.exit_code == 2 and f"has {len(clean_match.deals)} deals" in deal.stderr
    match = runner.invoke(app, ["replay", str(path), "--match", "nope"])
    assert match.exit_code == 2 and "no match with id 'nope'" in match.stderr
    both = runner.invoke(app, ["replay", str(path), "--deal", "1", "--at", "3", "--finding"])
    assert both.exit_code == 2 and both.stdout == "", both.output
    assert both.stderr == "twentynine: --at 3 and --finding ask two things: give one\n"


def test_replay_steps_on_a_real_terminal(tmp_path: Path, clean_match: MatchLog) -> None:
    path = _write(tmp_path / "m.json", clean_match)
    last = len(clean_match.deals[0].actions) - 1
    deals = len(clean_match.deals)
    command = [sys.executable, "-m", "twentynine", "replay", str(path)]
    with Terminal(command) as terminal:
        first = terminal.read_until(b"? keys")
        assert f"deal 1/{deals} \u00b7 start of 0-{last}".encode() in first
        assert b"\x1b[31m" in first  # hearts and diamonds in red on a terminal
        for keys, status in [
            (b"\x1b[C", "action 0 "),
            (b"5\r", "action 5 "),
            (b"\x1b[D", "action 4 "),
            (b"\x1b[F", f"result of 0-{last} "),
            (b"\x1b[D", f"action {last} "),
            (b"\x1b[H", "start "),
            (b"\x1b[6~", f"deal 2/{deals} \u00b7 start "),
            (b"]", f"deal 3/{deals} \u00b7 start "),
            (b"\x1b[5~", f"deal 2/{deals} \u00b7 start "),
            (b"[", f"deal 1/{deals} \u00b7 start "),
        ]:
            terminal.type(keys)
            assert status.encode() in terminal.read_until(status.encode()), keys
        terminal.type(b"?")
        assert b"Page Down" in terminal.read_until(b"Page Down")
        terminal.type(b"x")
        assert b"? keys" in terminal.read_until(b"? keys")
        terminal.type(b"q")
        assert terminal.finish() == 0


def test_replay_starts_at_a_finding_on_a_terminal(tmp_path: Path, clean_match: MatchLog) -> None:
    bad, deal, index = _with_revoke(clean_match)
    path = _write(tmp_path / "bad.json", bad)
    command = [sys.executable, "-m", "twentynine", "replay", str(path), "--finding"]
    with Terminal(command) as terminal:
        shown = terminal.read_until(b"? keys")
        assert f"deal {deal}/{len(bad.deals)} \u00b7 action {index} ".encode() in shown
        assert b"!! REVOKE" in shown
        terminal.type(b"q")
        assert terminal.finish() == 0


def test_replay_frame_is_the_pinned_one() -> None:
    """The frame at the revoke of sample_logs/bad/revoke.json, checked by hand once."""
    root = Path(__file__).resolve().parent
    sample = root.parent / "sample_logs" / "bad" / "revoke.json"
    result = runner.invoke(app, ["replay", str(sample), "--finding"])
    assert result.exit_code == 0, result.output
    pinned = (root / "fixtures" / "replay_frame.txt").read_text(encoding="utf-8")
    assert result.stdout.replace(str(sample), "sample_logs/bad/revoke.json") == pinned


def test_a_lost_single_hand_says_so_in_the_replay_and_the_viewer() -> None:
    """Deal 28 of the bangladesh sample: N plays a single hand and W wins trick 4."""
    sample = Path(__file__).resolve().parent.parent / "sample_logs" / "bangladesh.json"
    match = next(r.match for r in read_any(sample) if r.match)
    deal = match.deals[27]
    assert any(a.type == "single_hand" for a in deal.actions)
    last = len(deal.actions) - 1
    shown = runner.invoke(app, ["replay", str(sample), "--deal", "28"])
    *_, frame, result = _frames(shown.stdout)
    assert frame.splitlines()[1].startswith(f"action {last} of")
    for told in (frame, result):
        needs = told[told.index("Needs") : told.index("Tricks")]
        assert "single hand by N: lost, W won trick 4" in " ".join(needs.split())
        assert "need" not in needs[len("Needs") :]
    assert "Result: Single hand by N lost at trick 4, won by W. NS -3 game points" in result
    audited = audit_match(match).deals
    before, after = (audited[n].score_after for n in (26, 27))  # the match's score
    assert frame.splitlines()[0].endswith(f"· score NS {before[Team.NS]}, EW {before[Team.EW]}")
    assert result.splitlines()[0].endswith(f"· score now NS {after[Team.NS]}, EW {after[Team.EW]}")
    data = deal_data(match, audit_match(match), 28, None)
    assert data["steps"][-2]["standing"] == "single hand by N: lost, W won trick 4"
    assert data["steps"][-1]["say"].startswith("Single hand by N lost at trick 4, won by W.")


@pytest.fixture
def folder_with_a_broken_file(tmp_path: Path, clean_match: MatchLog) -> tuple[Path, Path]:
    """A folder whose first file is not a match log and whose second is a good one."""
    folder = tmp_path / "logs"
    folder.mkdir()
    broken = folder / "a-broken.json"
    broken.write_text('{"format": "twentynine.match", "version": 1, "deals": 3}')
    _write(folder / "b-good.json", clean_match)
    return folder, broken


@pytest.mark.parametrize("command", ["replay", "report", "solve"])
@pytest.mark.parametrize("by_id", [False, True])
def test_a_picking_command_goes_past_an_unreadable_file(
    command: str,
    by_id: bool,
    folder_with_a_broken_file: tuple[Path, Path],
    clean_match: MatchLog,
    tmp_path: Path,
) -> None:
    """replay, report and solve on a folder name each file they could not read (as audit and
    load do), go on with the others, and exit 2 once done, as audit does."""
    folder, broken = folder_with_a_broken_file
    out = tmp_path / "m.html"
    args = {
        "replay": ["replay", str(folder), "--at", "3"],
        "report": ["report", "match", str(folder), "-o", str(out)],
        "solve": ["solve", str(folder), "--deal", "1", "--format", "json"],
    }[command]
    if by_id:
        args += ["--match", clean_match.match_id]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    errors = [line for line in result.stderr.splitlines() if line.startswith("twentynine: ")]
    assert errors and all(line.startswith(f"twentynine: {broken}:") for line in errors), errors
    if command == "report":
        assert clean_match.match_id in out.read_text()
    elif command == "solve":
        assert json.loads(result.stdout)["match"] == clean_match.match_id
    else:
        assert "action 3" in result.stdout or clean_match.match_id in result.stdout
