"""`twentynine analyze --match/--deal/--limit/--resume`, and its progress on a terminal: what
is picked is what a whole run gives for it, byte for byte, in a real DuckDB file."""

from __future__ import annotations

import json
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from tests.processes import stored_matches
from twentynine.cli import app
from twentynine.importers.formats import write_matches
from twentynine.replay import random_match
from twentynine.schema import Rules

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
# cards and shows at 4 samples a decision: what is picked, resumed or counted is the same at
# any number of samples (the default 32 took four times the CPU)
ONLY = ["--only", "cards,shows", "--samples", "4"]


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four bangladesh matches of two deals each (quick to judge: cards and shows)."""
    path = tmp_path_factory.mktemp("pick") / "four.jsonl"
    matches = []
    for seed in (3, 2, 5, 7):
        log = random_match(Rules.preset("bangladesh"), seed=seed)
        matches.append(log.model_copy(update={"deals": log.deals[:2], "result": None}))
    write_matches(iter(matches), str(path))
    return path


@pytest.fixture(scope="module")
def whole(logs: Path) -> list[str]:
    """The JSON lines of a run over every match."""
    result = runner.invoke(app, ["analyze", str(logs), *ONLY])
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


@pytest.fixture(scope="module")
def whole_db(logs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A warehouse of a run over every match (tests that write to one write to a copy)."""
    db = tmp_path_factory.mktemp("pick-whole") / "whole.duckdb"
    result = runner.invoke(app, ["analyze", str(logs), *ONLY, "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert _rows(db)
    return db


def _ids(logs: Path) -> list[str]:
    return [json.loads(line)["id"] for line in logs.read_text().splitlines()]


def _of(lines: list[str], match_id: str, deal: int | None = None) -> list[str]:
    return [
        line
        for line in lines
        if json.loads(line)["match_id"] == match_id
        and (deal is None or json.loads(line)["deal"] == deal)
    ]


def _rows(db: Path) -> list[tuple[object, ...]]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute("SELECT * FROM annotations ORDER BY ALL").fetchall()


def test_limit_takes_the_first_matches(logs: Path, whole: list[str]) -> None:
    ids = _ids(logs)
    result = runner.invoke(app, ["analyze", str(logs), *ONLY, "--limit", "2"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == _of(whole, ids[0]) + _of(whole, ids[1])
    assert "2 matches, 4 deals" in result.stderr


def test_match_by_id_or_number(logs: Path, whole: list[str]) -> None:
    ids = _ids(logs)
    by_id = runner.invoke(app, ["analyze", str(logs), *ONLY, "--match", ids[2]])
    by_number = runner.invoke(app, ["analyze", str(logs), *ONLY, "--match", "3"])
    assert by_id.exit_code == by_number.exit_code == 0, by_id.output + by_number.output
    assert by_id.stdout.splitlines() == by_number.stdout.splitlines() == _of(whole, ids[2])
    assert "1 match, 2 deals" in by_id.stderr


def test_an_unknown_match_is_one_line(logs: Path) -> None:
    ids = _ids(logs)
    wrong = ids[1][:-1] + "x"
    result = runner.invoke(app, ["analyze", str(logs), *ONLY, "--match", wrong])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and f"--match: no match with id {wrong!r} among 4 matches" in lines[0]
    assert ids[1] in lines[0] and not result.stdout


def test_deal_takes_one_deal_of_each_match(logs: Path, whole: list[str]) -> None:
    ids = _ids(logs)
    result = runner.invoke(app, ["analyze", str(logs), *ONLY, "--deal", "2"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [line for i in ids for line in _of(whole, i, 2)]
    assert "4 matches, 4 deals" in result.stderr


def test_a_match_without_the_deal_is_named(logs: Path) -> None:
    result = runner.invoke(app, ["analyze", str(logs), *ONLY, "--match", "1", "--deal", "3"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert lines == [
        f"twentynine: {logs}:1: match {_ids(logs)[0]} has 2 deals: no deal 3 to analyse"
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--limit", "0"], "--limit"),
        (["--deal", "0"], "--deal"),
        (["--limit", "two"], "--limit"),
        (["--resume"], "--resume needs --db FILE"),
        (["--cluster", "tcp://127.0.0.1:9", "--jobs", "2"], "--jobs 2 and --cluster"),
    ],
)
def test_bad_picks_are_one_line(logs: Path, args: list[str], message: str) -> None:
    command = [sys.executable, "-m", "twentynine", "analyze", str(logs), *ONLY, *args]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(command, check=False, cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and not result.stdout


def test_deal_in_the_warehouse_keeps_the_other_deals(
    logs: Path, whole_db: Path, tmp_path: Path
) -> None:
    db = tmp_path / "w.duckdb"
    shutil.copyfile(whole_db, db)
    before = _rows(db)
    again = runner.invoke(app, ["analyze", str(logs), *ONLY, "--db", str(db), "--deal", "1"])
    assert again.exit_code == 0, again.output
    assert _rows(db) == before and before


def test_resume_skips_what_is_analysed_with_the_same_options(
    logs: Path, whole_db: Path, tmp_path: Path
) -> None:
    db = tmp_path / "w.duckdb"
    first = runner.invoke(app, ["analyze", str(logs), *ONLY, "--db", str(db), "--limit", "1"])
    assert first.exit_code == 0, first.output
    rest = runner.invoke(app, ["analyze", str(logs), *ONLY, "--db", str(db), "--resume"])
    assert rest.exit_code == 0, rest.output
    assert "3 matches, 6 deals" in rest.stderr
    assert "1 match already analysed with these options, skipped" in rest.stderr
    assert _rows(db) == _rows(whole_db)
    other = ["analyze", str(logs), *ONLY, "--db", str(db), "--seed", "5"]
    refused = runner.invoke(app, [*other, "--resume"])  # another seed: not the stopped run's
    assert refused.exit_code == 2, refused.output
    assert "--seed 0 stored, --seed 5 asked" in refused.stderr
    assert _rows(db) == _rows(whole_db)
    reseeded = runner.invoke(app, other)  # without --resume: every match again, and said
    assert reseeded.exit_code == 0, reseeded.output
    assert "4 matches, 8 deals" in reseeded.stderr and "skipped" not in reseeded.stderr
    assert "the annotations of 4 matches, worked out with other options, replaced" in (
        reseeded.stderr
    )
    after = runner.invoke(app, [*other, "--resume"])
    assert "4 matches already analysed with these options, skipped" in after.stderr


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_killed_run_resumes_where_it_stopped(logs: Path, whole_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    args = [sys.executable, "-m", "twentynine", "analyze", str(logs), *ONLY, "--db", str(db)]
    # killed once its progress counts the first match's deals (the run holds the warehouse's
    # lock to its end: no reader can see what it stored before then)
    process, leader = _on_a_terminal(args)
    try:
        _terminal_text(process, leader, until=b"2/8")
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
        os.close(leader)
    kept = _annotated(db)
    rest = runner.invoke(app, ["analyze", str(logs), *ONLY, "--db", str(db), "--resume"])
    assert rest.exit_code == 0, rest.output
    if 0 < kept < 4:  # the kill may come before the first match is stored, or after the last
        assert f"{kept} match already analysed" in rest.stderr
    assert _rows(db) == _rows(whole_db)
    assert stored_matches(db) == 4


def _annotated(db: Path) -> int:
    """Matches the warehouse holds annotated (0 while it cannot be read)."""
    if not db.exists():
        return 0
    try:
        with duckdb.connect(str(db), read_only=True) as con:
            row = con.execute(
                "SELECT count(*) FROM warehouse_info WHERE key LIKE 'analysed:%'"
            ).fetchone()
    except duckdb.Error:  # still being written by the run
        return 0
    return int(row[0]) if row else 0


def _on_a_terminal(args: list[str]) -> tuple[subprocess.Popen[bytes], int]:
    """``args`` run with its standard error on a terminal (read from the returned end)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
    leader, follower = pty.openpty()
    process = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=follower)
    os.close(follower)
    return process, leader


def _terminal_text(process: subprocess.Popen[bytes], leader: int, until: bytes = b"") -> str:
    """What the process wrote on its terminal, up to its end (or up to ``until``)."""
    seen = b""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not (until and until in seen):
        ready, _, _ = select.select([leader], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            seen += chunk
        elif process.poll() is not None:
            break
    return seen.decode(errors="replace")


def test_progress_on_a_terminal_counts_down_with_the_time_left(logs: Path) -> None:
    args = [sys.executable, "-m", "twentynine", "analyze", str(logs), *ONLY, "--limit", "3"]
    process, leader = _on_a_terminal(args)
    text = _terminal_text(process, leader)
    process.wait()
    os.close(leader)
    assert process.returncode == 0, text
    assert "analysing deals" in text and "/6" in text  # 3 matches of 2 deals
    assert "left" in text and "6/6" in text
    assert "3 matches, 6 deals" in text


def test_a_pipe_on_a_terminal_is_read_once_by_the_run_not_by_the_count(logs: Path) -> None:
    """``analyze <(command)``: the count of deals for the bar would read the pipe too, taking
    lines from the run (the bar said ``4/0``); a pipe is read by the run alone, as standard
    input is, and the bar goes without a total."""
    if shutil.which("bash") is None:
        pytest.skip("no bash for a process substitution")
    script = f'"$0" -m twentynine analyze <(cat "$1") {" ".join(ONLY)}'
    process, leader = _on_a_terminal(["bash", "-c", script, sys.executable, str(logs)])
    text = _terminal_text(process, leader)
    process.wait()
    os.close(leader)
    assert process.returncode == 0, text
    assert "analysing deals" in text and "4 matches, 8 deals" in text, text
    assert "/0" not in text and "/8" not in text, text
