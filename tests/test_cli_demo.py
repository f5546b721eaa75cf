"""`twentynine demo` on the bundled samples: every step as expected, files written."""

import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from twentynine.cli import app

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def test_demo_runs_every_step_from_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no sample_logs/ here: the demo uses the packaged samples
    out = Path("out")
    result = runner.invoke(app, ["demo", "--out", str(out)])
    assert result.exit_code == 0, result.output
    for step in range(1, 12):
        assert f"== {step}." in result.stdout
    for report in ("match.html", "players.html"):
        assert f"{out / report}" in result.stdout
        assert (out / report).read_text().startswith("<!DOCTYPE html>")
    assert "annotations (" in result.stdout and "not analyzed" not in result.stdout
    # The analyzed deal shows what a labelled decision looks like, in the output as in the report.
    labelled = re.search(r"(\d+) labelled inaccuracy, mistake or blunder", result.stdout)
    assert labelled and int(labelled.group(1)) >= 1
    assert re.search(
        r"(inaccuracy|mistake|blunder) by [NESW]: from what you could see", result.stdout
    )
    assert "     why: " in result.stdout  # and why, in card terms
    assert "again: " in result.stdout and " 0 stored (0 deals" in result.stdout
    assert "DIFFERENT" not in result.stdout
    assert (out / "imported.jsonl").stat().st_size > 0
    assert (out / "simulated.jsonl").stat().st_size > 0
    assert (out / "twentynine.duckdb").stat().st_size > 0
    assert list((out / "parquet" / "deals").rglob("*.parquet"))


def test_demo_fails_when_a_sample_breaks_its_promise(tmp_path: Path) -> None:
    samples = tmp_path / "samples"
    # Without the league (four fifths of the demo's work), whose absence it reports too.
    shutil.copytree(SAMPLES, samples, ignore=shutil.ignore_patterns("league.jsonl"))
    expected = samples / "bad" / "revoke.expected"
    expected.write_text(expected.read_text().replace("REVOKE", "OUT_OF_TURN"))
    result = runner.invoke(app, ["demo", "--samples", str(samples), "--out", str(tmp_path / "o")])
    assert result.exit_code == 1
    assert "revoke.json: " in result.stdout and "DIFFERENT from expected" in result.stdout
    assert "demo: revoke.json did not give its expected findings" in result.stderr
    assert "demo: the league should have eight players" in result.stderr


def test_demo_outside_the_checkout_says_where_to_run(tmp_path: Path) -> None:
    result = runner.invoke(app, ["demo", "--samples", str(tmp_path / "nowhere")])
    assert result.exit_code == 2
    assert "not the sample_logs folder" in result.stderr


def test_an_out_that_is_a_file_is_one_line_and_kept(tmp_path: Path) -> None:
    out = tmp_path / "notes.txt"
    out.write_text("mine\n")
    result = runner.invoke(app, ["demo", "--samples", str(SAMPLES), "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"twentynine: {out}: a file, not a folder: --out names the folder the demo writes in\n"
    )
    assert out.read_text() == "mine\n"
