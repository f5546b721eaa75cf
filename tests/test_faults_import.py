"""`twentynine import` never destroys an output: not with nothing, not with itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from twentynine.cli import app

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
KEPT = b'{"kept": true}\n'


@pytest.fixture
def keep(tmp_path: Path) -> Path:
    path = tmp_path / "keep.jsonl"
    path.write_bytes(KEPT)
    return path


def _garbage(tmp_path: Path) -> Path:
    path = tmp_path / "garbage.json"
    path.write_bytes(b"not a match at all")
    return path


def _empty(tmp_path: Path) -> Path:
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"")
    return path


@pytest.mark.parametrize("make", [lambda t: t / "missing.json", _garbage, _empty])
def test_nothing_imported_leaves_the_output_as_it_was(
    tmp_path: Path, keep: Path, make: object
) -> None:
    source = make(tmp_path)  # type: ignore[operator]
    result = runner.invoke(app, ["import", str(source), "-o", str(keep)])
    assert result.exit_code == 2, result.output
    assert keep.read_bytes() == KEPT
    assert f"nothing imported: {keep} was not written" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        {keep.name, *(p.name for p in [source] if p.exists())}
    )


def test_nothing_imported_creates_no_new_output(tmp_path: Path) -> None:
    out = tmp_path / "new.jsonl"
    result = runner.invoke(app, ["import", str(_garbage(tmp_path)), "-o", str(out)])
    assert result.exit_code == 2
    assert not out.exists()


def test_an_output_that_is_also_an_input_is_refused(tmp_path: Path) -> None:
    league = tmp_path / "x.jsonl"
    original = (SAMPLES / "league.jsonl").read_bytes()
    league.write_bytes(original)
    for given in (str(league), str(tmp_path)):
        result = runner.invoke(app, ["import", given, "-o", str(league)])
        assert result.exit_code == 2, result.output
        assert f"the output {league} is also an input" in result.stderr
        assert league.read_bytes() == original
    alias = tmp_path / "alias.jsonl"
    alias.symlink_to(league)
    result = runner.invoke(app, ["import", str(alias), "-o", str(league)])
    assert result.exit_code == 2 and league.read_bytes() == original


def test_a_real_import_still_writes(tmp_path: Path, keep: Path) -> None:
    result = runner.invoke(app, ["import", str(SAMPLES / "pagat.json"), "-o", str(keep)])
    assert result.exit_code == 0, result.output
    assert keep.read_bytes().startswith(b'{"format":"twentynine.match"')
