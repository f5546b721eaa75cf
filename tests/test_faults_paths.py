"""Paths a user may not enter, symlink loops and unreadable subfolders: one line each, never
a traceback, and a non-zero exit.

Permission bits do not stop root: under root the commands run in a child process whose
capabilities to ignore them are dropped (``setpriv``), so the kernel refuses as it would
refuse anyone else.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from twentynine.cli import app

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"
runner = CliRunner()
_DROP = "-dac_override,-dac_read_search"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m twentynine ARGS`` as a user whom permission bits stop."""
    command = [sys.executable, "-m", "twentynine", *args]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("root, and no setpriv to drop the capability to ignore permissions")
        command = [setpriv, f"--bounding-set={_DROP}", f"--inh-caps={_DROP}", *command]
    return subprocess.run(
        command, check=False, cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def _one_clean_error(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    for needle in needles:
        assert needle in result.stderr, result.stderr


@pytest.fixture
def locked(tmp_path: Path) -> Iterator[Path]:
    """A folder nobody may enter, holding a match log and a warehouse."""
    folder = tmp_path / "locked"
    folder.mkdir()
    shutil.copy(SAMPLES / "pagat.json", folder / "pagat.json")
    (folder / "w.duckdb").touch()
    folder.chmod(0)
    yield folder
    folder.chmod(0o755)


@pytest.fixture
def tree(tmp_path: Path) -> Iterator[Path]:
    """A folder with a readable match log and a subfolder nobody may read."""
    top = tmp_path / "tree"
    hidden = top / "sub"
    hidden.mkdir(parents=True)
    shutil.copy(SAMPLES / "pagat.json", top / "pagat.json")
    shutil.copy(SAMPLES / "bhoos.json", hidden / "bhoos.json")
    hidden.chmod(0)
    yield top
    hidden.chmod(0o755)


@pytest.mark.parametrize("command", ["audit", "import", "load", "replay"])
def test_a_file_in_a_folder_one_may_not_enter(command: str, locked: Path, tmp_path: Path) -> None:
    args = [command, str(locked / "pagat.json")]
    if command == "import":
        args += ["-o", str(tmp_path / "out.jsonl")]
    if command == "load":
        args += ["--db", str(tmp_path / "w.duckdb")]
    _one_clean_error(_run(*args), f"{locked / 'pagat.json'}: cannot read", "Permission denied")


@pytest.mark.parametrize("command", ["load", "query", "stats", "export"])
def test_a_warehouse_in_a_folder_one_may_not_enter(
    command: str, locked: Path, tmp_path: Path
) -> None:
    db = locked / "w.duckdb"
    args = {
        "load": ["load", str(SAMPLES / "pagat.json")],
        "query": ["query", "SELECT 1"],
        "stats": ["stats"],
        "export": ["export", "--parquet", str(tmp_path / "out")],
    }[command]
    _one_clean_error(_run(*args, "--db", str(db)), str(db), "ermission denied")


def test_an_export_folder_in_a_folder_one_may_not_enter(locked: Path, tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    loaded = runner.invoke(app, ["load", str(SAMPLES / "pagat.json"), "--db", str(db)])
    assert loaded.exit_code == 0, loaded.output
    target = locked / "out"
    _one_clean_error(_run("export", "--parquet", str(target), "--db", str(db)), str(target))


def test_demo_samples_in_a_folder_one_may_not_enter(locked: Path, tmp_path: Path) -> None:
    result = _run("demo", "--samples", str(locked / "samples"), "--out", str(tmp_path / "d"))
    _one_clean_error(result, str(locked / "samples"))


def test_demo_output_in_a_folder_one_may_not_enter(locked: Path) -> None:
    result = _run("demo", "--samples", str(SAMPLES), "--out", str(locked / "demo"))
    _one_clean_error(result, f"{locked / 'demo'}: Permission denied")


@pytest.mark.parametrize("command", ["simulate", "import"])
def test_an_output_in_a_folder_one_may_not_enter(command: str, locked: Path) -> None:
    out = str(locked / "out.jsonl")
    args = {
        "simulate": ["simulate", "--rules", "pagat", "-o", out],
        "import": ["import", str(SAMPLES / "pagat.json"), "-o", out],
    }[command]
    result = _run(*args)
    _one_clean_error(result, f"cannot write {out}", "Permission denied")
    # nothing was read: no count to give ("0 matches found in 1 file" said the file was empty)
    assert result.stderr.splitlines() == [f"twentynine: cannot write {out}: Permission denied"]


@pytest.mark.parametrize("command", ["audit", "import", "load"])
def test_an_unreadable_subfolder_is_reported_and_fails(
    command: str, tree: Path, tmp_path: Path
) -> None:
    args = [command, str(tree)]
    if command == "import":
        args += ["-o", str(tmp_path / "out.jsonl")]
    if command == "load":
        args += ["--db", str(tmp_path / "w.duckdb")]
    result = _run(*args)
    assert result.returncode != 0, result.stderr
    assert "Traceback" not in result.stderr
    assert f"{tree / 'sub'}: cannot read" in result.stderr, result.stderr
    assert "2 files" in result.stdout + result.stderr  # the log, and the folder


@pytest.fixture
def loop(tmp_path: Path) -> Path:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.symlink_to(second)
    second.symlink_to(first)
    return first


@pytest.mark.parametrize("command", ["audit", "import", "load", "replay"])
def test_a_symlink_loop(command: str, loop: Path, tmp_path: Path) -> None:
    args = [command, str(loop)]
    if command == "import":
        args += ["-o", str(tmp_path / "out.jsonl")]
    if command == "load":
        args += ["--db", str(tmp_path / "w.duckdb")]
    result = runner.invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2, result.output
    assert f"{loop}: cannot read: Too many levels of symbolic links" in result.stderr


def test_a_symlink_loop_inside_a_folder_is_reported(loop: Path) -> None:
    shutil.copy(SAMPLES / "pagat.json", loop.parent / "pagat.json")
    result = runner.invoke(app, ["audit", str(loop.parent)])
    assert result.exit_code == 2, result.output
    assert "Too many levels of symbolic links" in result.stderr
    assert "1 match" in result.stdout


def _piped(command: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m twentynine ARGS`` with the log given as a pipe, ``<(cat FILE)`` in bash."""
    script = f'"$0" -m twentynine {command} <(cat "$1") "${{@:2}}"'
    return subprocess.run(
        ["bash", "-c", script, sys.executable, *args],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("sample", ["bad/revoke.json", "league.jsonl"])
def test_a_pipe_given_as_a_path_is_read_as_the_file_would_be(sample: str) -> None:
    if shutil.which("bash") is None:
        pytest.skip("no bash for a process substitution")
    log = str(SAMPLES / sample)
    direct = subprocess.run(
        [sys.executable, "-m", "twentynine", "audit", log, "--format", "json"],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    piped = _piped("audit", log, "--format", "json")
    assert "Traceback" not in piped.stderr and "cannot read" not in piped.stderr, piped.stderr
    assert piped.returncode == direct.returncode, piped.stderr
    assert piped.stderr == direct.stderr  # the summary: the same file, matches, deals, findings
    unnamed = [re.sub(r'"file":"[^"]*"', "", line) for line in direct.stdout.splitlines()]
    assert [re.sub(r'"file":"/dev/fd/\d+"', "", line) for line in piped.stdout.splitlines()] == (
        unnamed
    )


def test_an_empty_pipe_is_one_line() -> None:
    if shutil.which("bash") is None:
        pytest.skip("no bash for a process substitution")
    empty = subprocess.run(
        ["bash", "-c", '"$0" -m twentynine audit <(true)', sys.executable],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert empty.returncode == 2, empty.stderr
    [line] = empty.stderr.splitlines()
    assert line.startswith("twentynine: /dev/fd/") and line.endswith(": empty input"), line


def test_a_file_name_that_is_not_utf8_is_named_with_its_byte_escaped(tmp_path: Path) -> None:
    """A name made under another locale (``café`` in latin-1): its byte shows as ``\\xe9``
    in the audit's JSON and the warehouse, which take no lone half of a UTF-8 character."""
    name = os.fsdecode(b"caf\xe9.json")
    log = tmp_path / name
    shutil.copy(SAMPLES / "bad" / "revoke.json", log)
    audited = runner.invoke(app, ["audit", str(log), "--format", "json"])
    assert audited.exit_code == 1, audited.output
    assert {json.loads(line)["file"] for line in audited.stdout.splitlines()} == {
        f"{tmp_path}/caf\\xe9.json"
    }
    db = tmp_path / "w.duckdb"
    loaded = runner.invoke(app, ["load", str(log), "--db", str(db)])
    assert loaded.exit_code == 0, loaded.output
    sql = "SELECT source FROM matches"
    stored = runner.invoke(app, ["query", sql, "--db", str(db), "--format", "json"])
    assert json.loads(stored.stdout) == {"source": f"{tmp_path}/caf\\xe9.json"}
    # a name not read from a file, but given to a command, is shown the same way
    missing = runner.invoke(app, ["stats", "--db", str(tmp_path / os.fsdecode(b"caf\xe9.db"))])
    assert missing.exit_code == 2
    assert f"twentynine: {tmp_path}/caf\\xe9.db: no such warehouse" in missing.stderr


def test_a_players_report_in_a_folder_one_may_not_write_says_why(
    locked: Path, tmp_path: Path
) -> None:
    """The examples' folder it could not make is named with the reason it could not."""
    db = tmp_path / "w.duckdb"
    loaded = runner.invoke(app, ["load", str(SAMPLES / "pagat.json"), "--db", str(db)])
    assert loaded.exit_code == 0, loaded.output
    locked.chmod(0o555)
    out = locked / "players.html"
    result = _run("report", "players", "--db", str(db), "--min-deals", "1", "-o", str(out))
    _one_clean_error(result, f"cannot write {locked / 'players_matches'}: Permission denied")
