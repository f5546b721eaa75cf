"""No command writes over one of its inputs or the warehouse: whatever the name (a symbolic
link, a hard link, a folder given as input), one line, exit 2, every file as it was."""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from twentynine.cli import app
from twentynine.reports.warehouse import DEFAULT_DB

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _refused(args: list[str], kept: list[Path], *needles: str) -> str:
    """Run the command: it must say one line and exit 2, and leave ``kept`` as they were."""
    before = {path: _digest(path) for path in kept}
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    assert {path: _digest(path) for path in kept} == before
    return lines[0]


@pytest.fixture
def match(tmp_path: Path) -> Path:
    path = tmp_path / "pagat.json"
    path.write_bytes((SAMPLES / "pagat.json").read_bytes())
    return path


@pytest.fixture
def club(tmp_path: Path, match: Path) -> Path:
    db = tmp_path / "club.duckdb"
    assert runner.invoke(app, ["load", str(match), "--db", str(db)]).exit_code == 0
    return db


def _hard_link(tmp_path: Path, target: Path, name: str) -> Path:
    link = tmp_path / name
    os.link(target, link)
    return link


def _symbolic_link(tmp_path: Path, target: Path, name: str) -> Path:
    link = tmp_path / name
    link.symlink_to(target)
    return link


NAMES: dict[str, Callable[[Path, Path], Path]] = {
    "itself": lambda tmp, path: path,
    "a hard link": lambda tmp, path: _hard_link(tmp, path, "hard" + path.suffix),
    "a symbolic link": lambda tmp, path: _symbolic_link(tmp, path, "soft" + path.suffix),
    "another spelling": lambda tmp, path: tmp / "." / ".." / tmp.name / path.name,
}


@pytest.mark.parametrize("name", NAMES)
def test_a_match_report_over_its_input_is_refused(tmp_path: Path, match: Path, name: str) -> None:
    out = NAMES[name](tmp_path, match)
    _refused(["report", "match", str(match), "-o", str(out)], [match], "is also an input")


def test_a_match_report_over_a_file_of_its_input_folder_is_refused(
    tmp_path: Path, match: Path
) -> None:
    line = _refused(["report", "match", str(tmp_path), "-o", str(match)], [match])
    assert f"the output {match} is also an input" in line


@pytest.mark.parametrize("name", NAMES)
def test_a_report_over_the_warehouse_is_refused(tmp_path: Path, club: Path, name: str) -> None:
    out = NAMES[name](tmp_path, club)
    _refused(["report", "players", "--db", str(club), "-o", str(out)], [club], "warehouse")
    _refused(["report", "match", "--db", str(club), "-o", str(out)], [club], "warehouse")


def test_a_report_over_the_warehouse_s_log_or_in_its_temporary_folder_is_refused(
    tmp_path: Path, club: Path
) -> None:
    wal = tmp_path / "club.duckdb.wal"
    _refused(["report", "players", "--db", str(club), "-o", str(wal)], [club], "write-ahead log")
    assert not wal.exists()
    temporary = tmp_path / "club.duckdb.tmp"
    args = ["report", "players", "--db", str(club), "-o", str(temporary / "p.html")]
    _refused(args, [club], "temporary folder")
    assert not temporary.exists()


def test_the_players_report_s_examples_folder_may_not_hold_the_warehouse(tmp_path: Path) -> None:
    folder = tmp_path / "players_matches"
    folder.mkdir()
    db = folder / "club.duckdb"
    assert runner.invoke(app, ["load", str(SAMPLES / "pagat.json"), "--db", str(db)]).exit_code == 0
    args = ["report", "players", "--db", str(db), "-o", str(tmp_path / "players.html")]
    _refused(args, [db], f"the output folder {folder} holds the warehouse")


def test_the_default_warehouse_is_kept_from_a_match_report(
    tmp_path: Path, match: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["load", str(match)]).exit_code == 0  # into twentynine.duckdb
    _refused(["report", "match", str(match), "-o", DEFAULT_DB], [tmp_path / DEFAULT_DB])


def test_an_import_over_a_hard_link_of_its_input_is_refused(tmp_path: Path, match: Path) -> None:
    league = tmp_path / "league.jsonl"
    league.write_bytes((SAMPLES / "league.jsonl").read_bytes())
    alias = _hard_link(tmp_path, league, "alias.jsonl")
    _refused(["import", str(league), "-o", str(alias)], [league], "is also an input")


def test_a_simulation_over_the_default_warehouse_is_refused(
    tmp_path: Path, match: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["load", str(match)]).exit_code == 0
    alias = _hard_link(tmp_path, tmp_path / DEFAULT_DB, "alias.jsonl")
    _refused(["simulate", "--rules", "pagat", "-o", str(alias)], [tmp_path / DEFAULT_DB])


@pytest.mark.parametrize("command", ["load", "analyze"])
def test_a_warehouse_that_is_also_an_input_is_refused(
    tmp_path: Path, match: Path, command: str
) -> None:
    empty = tmp_path / "empty.json"  # an input DuckDB would take for a new warehouse
    empty.write_bytes(b"")
    args = [command, str(match), str(empty), "--db", str(empty)]
    if command == "analyze":
        args += ["--only", "cards", "--samples", "1"]
    _refused(args, [match, empty], "is also an input")
    assert empty.read_bytes() == b""


def test_an_export_into_the_warehouse_s_temporary_folder_is_refused(
    tmp_path: Path, club: Path
) -> None:
    temporary = tmp_path / "club.duckdb.tmp"
    _refused(["export", "--parquet", str(temporary), "--db", str(club)], [club], "temporary")
    assert not temporary.exists()


def test_the_demo_keeps_the_default_warehouse(
    tmp_path: Path, match: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["load", str(match)]).exit_code == 0
    kept = tmp_path / DEFAULT_DB
    _refused(["demo", "--samples", str(SAMPLES), "--out", "."], [kept], "is the warehouse")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([DEFAULT_DB, match.name])


def test_outputs_beside_the_inputs_are_written(tmp_path: Path, match: Path, club: Path) -> None:
    out = tmp_path / "pagat.html"
    result = runner.invoke(
        app, ["report", "match", str(tmp_path), "-o", str(out), "--db", str(club)]
    )
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith("<!DOCTYPE html>")


OUTPUT_COMMANDS: dict[str, list[str]] = {
    "report match": ["report", "match", "IN", "-o", "OUT"],
    "import": ["import", "IN", "-o", "OUT"],
    "simulate": ["simulate", "--rules", "pagat", "-o", "OUT"],
    "calibration": ["calibration", "IN", "--fit", "-o", "OUT"],
}


def _command(name: str, match: Path, out: Path) -> list[str]:
    places = {"IN": str(match), "OUT": str(out)}
    return [places.get(arg, arg) for arg in OUTPUT_COMMANDS[name]]


@pytest.mark.parametrize("command", OUTPUT_COMMANDS)
def test_an_output_named_by_a_link_to_a_folder_is_refused_and_the_link_kept(
    tmp_path: Path, match: Path, command: str
) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    link = _symbolic_link(tmp_path, folder, "out.jsonl" if command != "report match" else "o.html")
    before = _digest(match)
    result = runner.invoke(app, _command(command, match, link))
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    [line] = [line for line in result.stderr.splitlines() if line.startswith("twentynine: ")]
    assert str(link) in line and ("Is a directory" in line or "a folder" in line), line
    assert _digest(match) == before
    assert link.is_symlink() and link.resolve() == folder.resolve()
    assert list(folder.iterdir()) == []
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("command", OUTPUT_COMMANDS)
def test_an_output_named_by_a_link_to_a_file_writes_that_file(
    tmp_path: Path, match: Path, command: str
) -> None:
    target = tmp_path / ("earlier.html" if command == "report match" else "earlier.jsonl")
    target.write_text("earlier\n")
    link = _symbolic_link(tmp_path, target, "latest" + target.suffix)
    result = runner.invoke(app, _command(command, match, link))
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert target.read_text() != "earlier\n"


@pytest.mark.parametrize(
    "command",
    [
        ["report", "match", str(SAMPLES / "pagat.json"), "-o"],
        ["simulate", "--rules", "pagat", "--matches", "1", "-o"],
        ["import", str(SAMPLES / "pagat.json"), "-o"],
    ],
    ids=["report", "simulate", "import"],
)
def test_an_output_that_is_a_named_pipe_is_written_into_not_replaced(
    command: list[str], tmp_path: Path
) -> None:
    """``-o`` naming a pipe (or ``/dev/null``, a terminal) writes into it as ``>`` does:
    the rename that keeps a file whole would put a file in the pipe's place."""
    folder = tmp_path / "out"
    folder.mkdir()
    pipe = folder / ("out.html" if command[0] == "report" else "out.jsonl")
    os.mkfifo(pipe)
    got = tmp_path / "got"
    with got.open("wb") as sink:
        reader = subprocess.Popen(["cat", str(pipe)], stdout=sink)
        try:
            result = runner.invoke(app, [*command, str(pipe)])
            assert result.exit_code == 0, result.output
            assert stat.S_ISFIFO(pipe.lstat().st_mode)
            reader.wait(timeout=30)
        finally:
            reader.kill()
            reader.wait()
    assert got.read_bytes().startswith(b"<!DOCTYPE html>" if command[0] == "report" else b"{")
    assert list(folder.iterdir()) == [pipe]
