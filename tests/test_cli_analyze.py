"""`twentynine analyze`: JSON lines, the warehouse, processes and a real local Dask cluster."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from tests.processes import output_lines, stored_matches, wait_until
from twentynine.analysis.annotate import FIELDS
from twentynine.cli import app
from twentynine.importers.formats import write_matches
from twentynine.replay import random_match
from twentynine.schema import Rules

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
ONLY = ["--only", "cards,shows"]


def two_short_matches(folder: Path) -> Path:
    """Two one-deal matches whose play is short (each a single hand that ends early), in
    ``folder``/two.jsonl (also the inputs of tests/test_cli_cluster.py)."""
    path = folder / "two.jsonl"
    matches = []
    for seed in (3, 2):
        log = random_match(Rules.preset("bangladesh"), seed=seed)
        matches.append(log.model_copy(update={"deals": log.deals[:1], "result": None}))
    write_matches(iter(matches), str(path))
    return path


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return two_short_matches(tmp_path_factory.mktemp("analyze"))


def _lines(output: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in output.splitlines() if line.strip()]


def test_json_lines_carry_the_contract_keys(logs: Path) -> None:
    result = runner.invoke(app, ["analyze", str(logs), *ONLY])
    assert result.exit_code == 0, result.output
    lines = _lines(result.stdout)
    assert lines and all(tuple(line) == FIELDS for line in lines)
    assert {line["kind"] for line in lines} <= {"card", "show", "par"}
    assert {line["method"] for line in lines} == {"exact"}
    assert "2 matches, 2 deals" in result.stderr and "annotations" in result.stderr
    only_cards = _lines(runner.invoke(app, ["analyze", str(logs), "--only", "cards"]).stdout)
    assert only_cards == [line for line in lines if line["kind"] in ("card", "par")]


def test_same_results_with_processes_and_with_a_dask_cluster(logs: Path) -> None:
    distributed = pytest.importorskip("distributed")
    one = runner.invoke(app, ["analyze", str(logs), *ONLY, "--jobs", "1"])
    two = runner.invoke(app, ["analyze", str(logs), *ONLY, "--jobs", "2"])
    assert one.exit_code == two.exit_code == 0
    with distributed.LocalCluster(
        # ":0": its web server on a free port (None takes 8787, which another cluster may hold)
        n_workers=1,
        threads_per_worker=2,
        processes=False,
        dashboard_address=":0",
    ) as cluster:
        dask = runner.invoke(
            app, ["analyze", str(logs), *ONLY, "--cluster", cluster.scheduler_address]
        )
    assert dask.exit_code == 0, dask.output
    assert one.stdout == two.stdout == dask.stdout and one.stdout


def test_the_warehouse_keeps_one_set_per_match(logs: Path, tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    first = runner.invoke(app, ["analyze", str(logs), *ONLY, "--db", str(db)])
    assert first.exit_code == 0, first.output
    assert f"-> {db}" in first.stderr
    with duckdb.connect(str(db), read_only=True) as con:
        before = con.execute("SELECT * FROM annotations ORDER BY ALL").fetchall()
        matches = con.execute("SELECT count(*) FROM matches").fetchone()
    again = runner.invoke(app, ["analyze", str(logs), *ONLY, "--db", str(db)])
    assert again.exit_code == 0, again.output
    with duckdb.connect(str(db), read_only=True) as con:
        after = con.execute("SELECT * FROM annotations ORDER BY ALL").fetchall()
        keys = con.execute(
            "SELECT count(*), count(DISTINCT (match_id, deal, action, kind, method)) "
            "FROM annotations"
        ).fetchone()
        cards = con.execute(
            "SELECT mp.player_id, count(*), avg(a.loss) FROM annotations a "
            "JOIN match_players mp ON mp.match_id = a.match_id AND mp.seat = a.seat "
            "WHERE a.kind = 'card' GROUP BY ALL ORDER BY ALL"
        ).fetchall()
        view = con.execute(
            "SELECT player_id, cards_judged, average_card_loss FROM player_analysis "
            "WHERE cards_judged > 0 ORDER BY ALL"
        ).fetchall()
    assert matches == (2,)
    assert before == after and before
    assert keys is not None and keys[0] == keys[1]
    assert view == cards and view


def test_the_stored_matches_keep_their_file(logs: Path, tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    assert runner.invoke(app, ["analyze", str(logs), *ONLY, "--db", str(db)]).exit_code == 0
    with duckdb.connect(str(db), read_only=True) as con:
        sources = con.execute("SELECT source, source_line FROM matches ORDER BY 2").fetchall()
    assert sources == [(str(logs), 1), (str(logs), 2)]
    again = runner.invoke(app, ["load", str(logs), "--db", str(db)])
    assert f"is already stored (from {logs}:1)" in again.stderr


def test_a_json_run_and_the_stored_rows_agree(logs: Path, tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    lines = _lines(runner.invoke(app, ["analyze", str(logs), *ONLY]).stdout)
    assert runner.invoke(app, ["analyze", str(logs), *ONLY, "--db", str(db)]).exit_code == 0
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute(f"SELECT {', '.join(FIELDS)} FROM annotations").fetchall()
    assert sorted(map(repr, (tuple(line.values()) for line in lines))) == sorted(map(repr, rows))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--only", "cardz"], "--only: unknown group 'cardz'"),
        (["--samples", "0"], "--samples"),
    ],
)
def test_bad_options_give_one_line(logs: Path, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["analyze", str(logs), *args])
    assert result.exit_code == 2
    assert message in result.stderr


def test_bad_input_is_named_and_the_rest_is_analysed(logs: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "twentynine.match", "version": 1, "deals": 3}')
    result = runner.invoke(app, ["analyze", str(broken), str(logs), *ONLY])
    assert result.exit_code == 2
    assert str(broken) in result.stderr and "Traceback" not in result.output
    assert _lines(result.stdout)
    missing = runner.invoke(app, ["analyze", str(tmp_path / "none.json")])
    assert missing.exit_code == 2 and len(missing.stderr.strip().splitlines()) == 1


def test_an_unreachable_cluster_is_one_line(logs: Path) -> None:
    pytest.importorskip("distributed")
    # --wait bounds the connection's retries too (10 s without it): the same one line sooner
    args = ["analyze", str(logs), "--cluster", "tcp://127.0.0.1:9", "--wait", "1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "--cluster tcp://127.0.0.1:9" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("delay", [2.0, 4.0])
def test_a_killed_run_leaves_each_match_whole(logs: Path, tmp_path: Path, delay: float) -> None:
    """Killed at any moment, every match has all its annotations or none; a rerun completes."""
    db = tmp_path / "w.duckdb"
    full = _lines(runner.invoke(app, ["analyze", str(logs), *ONLY]).stdout)
    per_match: dict[object, int] = {}
    for line in full:
        per_match[line["match_id"]] = per_match.get(line["match_id"], 0) + 1
    args = [sys.executable, "-m", "twentynine", "analyze", str(logs), *ONLY, "--db", str(db)]
    process = subprocess.Popen(args, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    time.sleep(delay)
    process.send_signal(signal.SIGKILL)
    process.wait()
    if db.exists():
        with duckdb.connect(str(db)) as con:
            tables = {
                r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()
            }
            if "annotations" in tables:
                stored = dict(
                    con.execute("SELECT match_id, count(*) FROM annotations GROUP BY 1").fetchall()
                )
                assert all(per_match[m] == n for m, n in stored.items())
    rerun = runner.invoke(app, ["analyze", str(logs), *ONLY, "--db", str(db)])
    assert rerun.exit_code == 0, rerun.output
    with duckdb.connect(str(db), read_only=True) as con:
        counts = dict(
            con.execute("SELECT match_id, count(*) FROM annotations GROUP BY 1").fetchall()
        )
    assert counts == per_match


def test_jobs_and_samples_beyond_the_limits_are_refused(logs: Path) -> None:
    """One line and exit 2 before any work: a process count or a sample count that would
    swamp the machine or never finish (twentynine.limits)."""
    from twentynine.limits import MAX_SAMPLES, max_jobs

    for option, value in (("--jobs", max_jobs() + 1), ("--samples", MAX_SAMPLES + 1)):
        result = runner.invoke(app, ["analyze", str(logs), *ONLY, option, str(value)])
        assert result.exit_code == 2, (option, result.output)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"twentynine: {option} {value}: at most")
        assert not result.stdout
    at_the_limit = runner.invoke(app, ["analyze", str(logs), *ONLY, "--samples", str(MAX_SAMPLES)])
    assert at_the_limit.exit_code == 0, at_the_limit.output


def _unrecorded_trump(logs: Path, tmp_path: Path) -> tuple[Path, str]:
    """The two matches of ``logs``, the first with its trump suit left out (`"suit": null`,
    as a recorder who did not see it writes it), and that match's id."""
    lines = logs.read_text().splitlines()
    first = json.loads(lines[0])
    for action in first["deals"][0]["actions"]:
        if action["type"] == "trump":
            action["suit"] = None
    path = tmp_path / "hidden-trump.jsonl"
    path.write_text(json.dumps(first) + "\n" + lines[1] + "\n")
    return path, first["id"]


def test_a_trump_suit_not_recorded_is_a_warning_not_a_traceback(logs: Path, tmp_path: Path) -> None:
    path, hidden = _unrecorded_trump(logs, tmp_path)
    result = runner.invoke(app, ["analyze", str(path), *ONLY])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert warnings == [
        f"twentynine: warning: {path}:1: match {hidden}, deal 1: cards and shows not judged: "
        "the trump suit is not recorded"
    ]
    lines = _lines(result.stdout)
    assert lines and {line["match_id"] for line in lines} == {
        json.loads(logs.read_text().splitlines()[1])["id"]
    }


@pytest.mark.parametrize("store", [False, True])
def test_each_match_is_written_once_done_before_the_input_ends(
    logs: Path, tmp_path: Path, store: bool
) -> None:
    """Standard input stays open after each match: its annotations come out (or it is stored,
    with them) before the next match is sent, and the second, done moments after the first
    was stored, is stored while the run waits for more."""
    first, second = logs.read_bytes().splitlines(keepends=True)
    ids = [json.loads(line)["id"] for line in (first, second)]
    first = first.rstrip(b"\n") + b" " * (64 * 1024) + b"\n"  # past the format detection's head
    db = tmp_path / "w.duckdb"
    args = [sys.executable, "-m", "twentynine", "analyze", "-", *ONLY]
    args += ["--db", str(db)] if store else []
    with (tmp_path / "stderr.txt").open("wb") as errors:
        process = subprocess.Popen(
            args, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors
        )
    assert process.stdin is not None and process.stdout is not None
    lines, reader = output_lines(process.stdout)
    try:
        with process.stdin as feed:
            for count, (line, match_id) in enumerate(zip((first, second), ids, strict=True)):
                feed.write(line)
                feed.flush()
                if store:
                    done = wait_until(partial(_stored_is, db, count + 1), 120)
                    assert done, (tmp_path / "stderr.txt").read_text()
                else:  # a line of this match comes (after the rest of the one before)
                    while (written := json.loads(lines.get(timeout=120))["match_id"]) != match_id:
                        assert written in ids[:count]
        assert process.wait(timeout=120) == 0, (tmp_path / "stderr.txt").read_text()
    finally:
        process.kill()
        process.wait(timeout=60)
        reader.join(timeout=60)
    if store:
        assert stored_matches(db) == 2


def _stored_is(db: Path, count: int) -> bool:
    return stored_matches(db) == count
