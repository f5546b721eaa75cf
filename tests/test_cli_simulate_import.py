"""`twentynine simulate` and `twentynine import` as a user runs them."""

import json
import sys
from pathlib import Path

from typer.testing import CliRunner

from tests.terminal import Terminal
from twentynine.cli import app
from twentynine.importers.canonical import read_path
from twentynine.replay import audit_match

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def test_same_arguments_same_bytes_and_clean_audit(tmp_path: Path) -> None:
    args = ["simulate", "--rules", "standard", "--matches", "2", "--seed", "9"]
    first = runner.invoke(app, [*args, "-o", str(tmp_path / "a.jsonl")])
    second = runner.invoke(app, [*args, "-o", str(tmp_path / "b.jsonl")])
    assert first.exit_code == second.exit_code == 0, first.output
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    matches = [r.match for r in read_path(tmp_path / "a.jsonl")]
    assert len(matches) == 2 and all(m is not None and m.id for m in matches)
    for match in matches:
        assert match is not None
        audited = audit_match(match)
        assert audited.errors == 0 and audited.winner is not None
    other = runner.invoke(app, [*args[:-1], "10", "-o", "-"])
    assert other.stdout.encode() != (tmp_path / "a.jsonl").read_bytes()


def test_set_options_players_and_inject(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    result = runner.invoke(
        app,
        [
            "simulate",
            "--rules",
            "pagat",
            "--set",
            "double=true",
            "--set",
            "min_bid=16",
            "--players",
            "Ann,Bo:aggressive,Cy,Di",
            "--inject",
            "0.5",
            "--seed",
            "3",
            "-o",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    document = json.loads(out.read_text())
    assert document["rules"] == {"preset": "pagat", "min_bid": 16, "double": True}
    assert document["players"] == {"N": "Ann", "E": "Bo", "S": "Cy", "W": "Di"}
    assert document["meta"]["injected"], "a 0.5 rate over a whole match injects something"
    audit = runner.invoke(app, ["audit", str(out), "--format", "json"])
    assert audit.exit_code == 1
    found = {(row["deal"], row["action"]) for row in map(json.loads, audit.stdout.splitlines())}
    for injected in document["meta"]["injected"]:
        if injected["kind"] not in ("wrong_score", "wrong_points"):
            assert (injected["deal"], injected["action"]) in found


def test_bad_arguments_are_one_line(tmp_path: Path) -> None:
    for args, message in [
        (["--rules", "pagat", "--set", "redouble=true"], "redouble needs double"),
        (["--rules", "pagat", "--set", "nonsense"], "write OPTION=VALUE"),
        (["--rules", "pagat", "--players", "A,B"], ""),
        (
            ["--rules", "pagat", "--matches", "2", "-o", str(tmp_path / "two.json")],
            "exactly one match",
        ),
    ]:
        result = runner.invoke(app, ["simulate", *args])
        assert result.exit_code == 2, (args, result.output)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and message in lines[0], (args, lines)
    assert not (tmp_path / "two.json").exists()


def test_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    out = tmp_path / "p.jsonl"
    args = ["simulate", "--rules", "bhoos", "--matches", "3", "-o", str(out)]
    with Terminal([sys.executable, "-m", "twentynine", *args]) as terminal:
        assert terminal.finish() == 0
        assert b"simulating" in terminal.seen and b"3 matches ->" in terminal.seen
    assert len(out.read_text().splitlines()) == 3


def test_import_sample_formats(tmp_path: Path) -> None:
    out = tmp_path / "all.jsonl"
    result = runner.invoke(app, ["import", str(SAMPLES / "formats"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    summary = result.stderr.strip().splitlines()[-1]
    imported = len(out.read_text().splitlines())
    assert f"{imported} imported, 0 skipped" in summary
    audit = runner.invoke(app, ["audit", str(out)])
    assert audit.exit_code == 0, audit.output


def test_import_reports_a_bad_record_and_keeps_the_rest(tmp_path: Path) -> None:
    good = (SAMPLES / "pagat.json").read_bytes().replace(b"\n", b"") + b"\n"
    source = tmp_path / "mixed.jsonl"
    source.write_bytes(good + b'{"format": "twentynine.match"}\n')
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["import", str(source), "-o", str(out)])
    assert result.exit_code == 1
    assert f"{source}:2: " in result.stderr
    assert "2 matches found in 1 file: 1 imported, 1 skipped" in result.stderr
    assert len(out.read_text().splitlines()) == 1


def test_a_run_that_would_never_end_or_contradicts_itself_is_refused(tmp_path: Path) -> None:
    from twentynine.limits import MAX_SIMULATED

    out = tmp_path / "many.jsonl"
    for args, message in [
        (["--matches", str(10**30)], f"--matches {10**30}: at most {MAX_SIMULATED:,} matches"),
        (["--matches", str(MAX_SIMULATED + 1)], f"at most {MAX_SIMULATED:,} matches a run"),
        (["--set", "preset=standard"], "--set preset=standard: the preset is --rules pagat"),
    ]:
        result = runner.invoke(app, ["simulate", "--rules", "pagat", *args, "-o", str(out)])
        assert result.exit_code == 2, (args, result.output)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and message in lines[0], (args, lines)
    assert list(tmp_path.iterdir()) == []
