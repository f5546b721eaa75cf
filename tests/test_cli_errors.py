"""Errors that teach and a command line as people expect it, through ``python -m twentynine``.

These run the real program (its ``main()``), since the one error line for click's usage errors,
the quiet end on a closed pipe and shell completion live there, not in the Typer app.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from twentynine.cli import InputFormat, Preset, app
from twentynine.importers.formats import FORMAT_NAMES
from twentynine.schema.rules import PRESET_NAMES
from twentynine.textout import ERROR_PREFIX

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m twentynine ARGS`` from the checkout, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "twentynine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "COLUMNS": "100", **(env or {})},
        check=False,
    )


def test_usage_errors_are_one_prefixed_line() -> None:
    for args, text in [
        (["audit", "--bogus"], "No such option: --bogus (see twentynine audit --help)"),
        (["import", "x.json", "--from", "foo", "-o", "y.jsonl"], "'foo' is not one of 'canonical'"),
        (["simulate", "--rules", "hearts"], "'hearts' is not one of 'bangladesh'"),
        (["simulate"], "Missing option '--rules'. Choose from: bangladesh, standard, beginner,"),
    ]:
        done = run_cli(*args)
        assert done.returncode == 2, (args, done.stderr)
        [line] = done.stderr.splitlines()
        assert line.startswith(ERROR_PREFIX) and text in line, (args, line)
        assert "Traceback" not in done.stderr and done.stdout == ""


def test_import_from_an_unknown_format_says_only_that(tmp_path: Path) -> None:
    out = str(tmp_path / "x.jsonl")
    done = run_cli("import", "sample_logs/formats/sample.29", "--from", "foo", "-o", out)
    [line] = done.stderr.splitlines()
    assert "'foo' is not one of" in line and "found" not in line
    assert not (tmp_path / "x.jsonl").exists()


def test_a_closed_pipe_ends_quietly() -> None:
    done = subprocess.run(
        f"'{sys.executable}' -m twentynine simulate --rules pagat --matches 20 | head -c 10",
        shell=True,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert done.stdout == '{"format":'
    assert done.stderr == ""


def test_one_statement_at_a_time_and_readable_columns(tmp_path: Path) -> None:
    db = str(tmp_path / "w.duckdb")
    assert runner.invoke(app, ["load", "sample_logs/pagat.json", "--db", db]).exit_code == 0
    two = runner.invoke(app, ["query", "select 1; select 2", "--db", db])
    assert two.exit_code == 2
    assert two.stderr.strip().endswith(
        "one statement at a time: this text holds 2 (SELECT, SELECT); run each by itself"
    )
    one = runner.invoke(app, ["query", "SELECT count(*) FROM matches", "--db", db])
    assert one.stdout.splitlines()[0].strip() == "count(*)"


def test_a_load_of_nothing_makes_no_database(tmp_path: Path) -> None:
    missing, db = str(tmp_path / "missing.jsonl"), str(tmp_path / "new.duckdb")
    result = runner.invoke(app, ["load", missing, "--db", db])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"{ERROR_PREFIX}{tmp_path / 'missing.jsonl'}: no such file or folder; nothing was stored"
    )
    assert not (tmp_path / "new.duckdb").exists()


EMPTY_RUNS: dict[str, list[str]] = {
    "audit": ["audit", "IN"],
    "load": ["load", "IN", "--db", "w.duckdb"],
    "import": ["import", "IN", "-o", "-"],
    "matches": ["matches", "IN"],
    "analyze": ["analyze", "IN", "--only", "cards"],
    "calibration": ["calibration", "IN"],
    "replay": ["replay", "IN"],
    "solve": ["solve", "IN"],
    "report match": ["report", "match", "IN", "-o", "out.html"],
}


@pytest.mark.parametrize("command", EMPTY_RUNS)
def test_an_empty_file_gets_a_warning(tmp_path: Path, command: str) -> None:
    """Whatever its extension, a file of nothing but white space gets the one warning, and
    no reader's error besides (was: `invalid JSON: EOF` for .json, `empty input` for .29, and
    not a word from analyze or calibration)."""
    codes = set()
    for name in ("empty.jsonl", "empty.json", "empty.29"):
        empty = tmp_path / name
        empty.write_text("\n\n")
        places = {"IN": str(empty), "w.duckdb": str(tmp_path / "w.duckdb")}
        args = [
            places.get(arg, str(tmp_path / arg) if arg == "out.html" else arg)
            for arg in EMPTY_RUNS[command]
        ]
        result = runner.invoke(app, args)
        assert result.exception is None or isinstance(result.exception, SystemExit)
        lines = result.stderr.splitlines()
        assert f"{ERROR_PREFIX}warning: {empty}: empty: no match in it" in lines, result.stderr
        assert not [line for line in lines if "invalid JSON" in line or "empty input" in line]
        assert not (tmp_path / "out.html").exists() and not (tmp_path / "w.duckdb").exists()
        codes.add(result.exit_code)
    assert len(codes) == 1, codes


def test_json_strict_prints_its_finding_as_a_json_line() -> None:
    result = runner.invoke(
        app, ["audit", "sample_logs/bad/revoke.json", "--format", "json", "--strict"]
    )
    assert result.exit_code == 1
    [line] = result.stdout.splitlines()
    assert json.loads(line) == {
        "file": "sample_logs/bad/revoke.json",
        "line": None,
        "match": "bad-revoke",
        "deal": 1,
        "action": 7,
        "code": "REVOKE",
        "severity": "error",
        "message": "W played 8C holding 9D: must follow diamonds",
    }


# --- help ------------------------------------------------------------------------------

RAW_TYPE = re.compile(r"<(?:str|int|float|bool|path|file|list\[[^\]]*\]|[a-z]+ range)>")


def _commands() -> list[str]:
    return sorted(command.name or "" for command in app.registered_commands)


@pytest.mark.parametrize("command", _commands())
def test_help_has_an_example_and_no_raw_types(command: str) -> None:
    result = runner.invoke(app, [command, "--help"], terminal_width=100)
    assert result.exit_code == 0
    text = result.stdout
    assert f"Example: twentynine {command}" in text, f"twentynine {command} --help: no example"
    raw = RAW_TYPE.findall(text)
    assert not raw, f"twentynine {command} --help shows Python types {raw}: give a metavar"


def test_help_lists_the_allowed_values() -> None:
    assert tuple(p.value for p in Preset) == PRESET_NAMES
    assert tuple(f.value for f in InputFormat) == FORMAT_NAMES
    text = runner.invoke(app, ["audit", "--help"], terminal_width=100).stdout
    assert "<" + "|".join(PRESET_NAMES) + ">" in text
    assert "<" + "|".join(FORMAT_NAMES) + ">" in text
    assert "<text|json>" in text
    assert "<table|csv|json>" in runner.invoke(app, ["query", "--help"]).stdout


def test_shell_completion_is_offered() -> None:
    assert "--install-completion" in runner.invoke(app, ["--help"]).stdout
    # --show-completion guesses the shell from the processes above it (none in a detached CI
    # job); the variable it sets in the script asks for bash's script directly.
    shown = run_cli(env={"_TWENTYNINE_COMPLETE": "source_bash"})
    assert shown.returncode == 0 and "_TWENTYNINE_COMPLETE=complete_bash" in shown.stdout
    completed = run_cli(
        env={
            "_TWENTYNINE_COMPLETE": "complete_bash",
            "COMP_WORDS": "twentynine au",
            "COMP_CWORD": "1",
        }
    )
    assert completed.returncode == 0 and "audit" in completed.stdout


def test_a_json_problem_names_line_and_column_and_the_spelling_to_write(tmp_path: Path) -> None:
    document = {
        "format": "twentynine.match",
        "version": 1,
        "rules": "pagat",
        "players": {"N": "a", "E": "b", "S": "c", "W": "d"},
        "deals": [{"dealer": "N", "actions": [{"seat": "E", "type": "play", "card": "10H"}]}],
    }
    path = tmp_path / "m.json"
    path.write_text(json.dumps(document, indent=2))
    text = path.read_text().splitlines()
    row = next(i for i, line in enumerate(text, 1) if '"10H"' in line)
    column = text[row - 1].index('"10H"') + 1
    result = runner.invoke(app, ["audit", str(path)])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == (
        f"{ERROR_PREFIX}{path}:{row}:{column}: deals[0].actions[0].card: "
        "'10H' is not a card; write TH"
    )


def test_a_text_notation_finding_points_at_the_line_of_its_card(tmp_path: Path) -> None:
    text = (ROOT / "sample_logs" / "formats" / "sample.29").read_text()
    show = "  N show=D {North has no club and asks}"
    assert show in text
    path = tmp_path / "gap.29"
    path.write_text(text.replace(show, "", 1))
    row = next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith("6. S 9C"))
    result = runner.invoke(app, ["audit", str(path)])
    lines = result.stdout.splitlines()
    gap = f"{path}:{row}:1:29: MISSING_ACTION a show by N seems to be missing before action 29"
    assert any(line.startswith(gap) for line in lines), lines
    deal_row = next(i for i, line in enumerate(text.splitlines(), 1) if line == "[Deal 1]")
    assert any(line.startswith(f"{path}:{deal_row}:1:-: POINTS_MISMATCH") for line in lines)


@pytest.mark.parametrize(
    "args",
    [
        ["audit", ""],
        ["load", "", "--db", "w.duckdb"],
        ["import", "", "-o", "out.jsonl"],
        ["matches", ""],
        ["replay", ""],
        ["solve", "", "--deal", "1"],
        ["analyze", "", "--only", "cards", "--deal", "1"],
        ["calibration", ""],
        ["report", "match", "", "-o", "out.html"],
        ["audit", "pagat.json", ""],
    ],
)
def test_an_empty_path_is_refused_not_read_as_the_current_folder(
    tmp_path: Path, args: list[str]
) -> None:
    """`twentynine load "$LOGS"` with LOGS unset: Python reads "" as the current folder, and
    every log under it was read (and stored); an empty path names nothing, as for `ls ''`."""
    (tmp_path / "pagat.json").write_bytes((ROOT / "sample_logs" / "pagat.json").read_bytes())
    done = subprocess.run(
        [sys.executable, "-m", "twentynine", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "COLUMNS": "100"},
        check=False,
        timeout=300,
    )
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith(ERROR_PREFIX) and "an empty path names no file or folder" in line, line
    assert done.stdout == "" and "Traceback" not in done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["pagat.json"]


def test_a_wrong_from_is_one_line_for_the_file_not_one_for_each_of_its_lines(
    tmp_path: Path,
) -> None:
    """Read as the format --from named, each of the file's lines failed alone: 5,125 error
    lines for pagat.json read as payload logs. The content shows the format it is in."""
    done = run_cli("audit", "sample_logs/pagat.json", "--from", "bhoos-play")
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert line == (
        f"{ERROR_PREFIX}sample_logs/pagat.json: not read: --from bhoos-play, but its content "
        "is canonical (leave out --from, or name its format)"
    )
    right = run_cli("audit", "sample_logs/pagat.json", "--from", "canonical")
    assert right.returncode == 0 and right.stderr == ""
    untold = run_cli("audit", "sample_logs/formats/sample.29", "--from", "text")
    assert untold.returncode == 0, untold.stderr  # content that tells nothing against it
    db = tmp_path / "w.duckdb"
    load = run_cli("load", "sample_logs/pagat.json", "--from", "bhoos-play", "--db", str(db))
    assert load.returncode == 2 and not db.exists()  # no input could be read, as audit says


@pytest.mark.parametrize(
    "command",
    [
        ["report", "match", "sample_logs/pagat.json"],
        ["report", "players"],
        ["calibration", "sample_logs/pagat.json", "--fit"],
        ["simulate", "--rules", "pagat", "--matches", "1"],
        ["import", "sample_logs/pagat.json"],
    ],
)
def test_an_output_named_as_a_folder_is_refused(command: list[str], tmp_path: Path) -> None:
    """`-o all.jsonl/` or `-o all.jsonl/.`: the ending was dropped, and a file named
    `all.jsonl` written."""
    where = f"(see twentynine {' '.join(command[: 2 if command[0] == 'report' else 1])} --help)"
    for name in (f"{tmp_path}/all.jsonl/", f"{tmp_path}/all.jsonl/.", f"{tmp_path}/all.jsonl/.."):
        done = run_cli(*command, "-o", name)
        assert done.returncode == 2
        [line] = done.stderr.splitlines()
        assert line.startswith(ERROR_PREFIX)
        assert line.endswith(f"{name} names a folder: give the file's name in it {where}")
    empty = run_cli(*command, "-o", "")
    assert empty.returncode == 2 and "an empty name: give the file's name" in empty.stderr
    assert list(tmp_path.iterdir()) == []


OUTPUT_COMMANDS = [
    ["audit", "sample_logs/bad/revoke.json", "--format", "json"],
    ["rules", "pagat"],
    ["replay", "sample_logs/pagat.json", "--deal", "1"],
    ["import", "sample_logs/pagat.json", "-o", "-"],
]


@pytest.mark.parametrize("args", OUTPUT_COMMANDS, ids=lambda args: args[0])
@pytest.mark.parametrize(
    ("redirect", "reason"),
    [(">/dev/full", "No space left on device"), (">&-", "Bad file descriptor")],
    ids=["full", "closed"],
)
def test_standard_output_that_cannot_be_written_is_one_line(
    args: list[str], redirect: str, reason: str
) -> None:
    """A full disk or a closed standard output loses what was asked for: one line, exit 2."""
    if redirect == ">/dev/full" and not Path("/dev/full").is_char_device():
        pytest.skip("no /dev/full here")
    done = subprocess.run(
        f"'{sys.executable}' -m twentynine {' '.join(args)} {redirect}",
        shell=True,
        cwd=ROOT,
        capture_output=False,
        stderr=subprocess.PIPE,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1] == (
        f"{ERROR_PREFIX}cannot write to standard output: {reason}"
    ), done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr


@pytest.mark.parametrize(("encoding", "heart"), [("ascii", "♥".encode()), ("latin-1", b"\\u2665")])
def test_standard_output_in_a_narrow_encoding_still_shows_the_cards(
    encoding: str, heart: bytes
) -> None:
    """An ASCII standard output gets UTF-8 (as click writes it); latin-1 the symbol escaped."""
    done = subprocess.run(
        [sys.executable, "-m", "twentynine", "replay", "sample_logs/pagat.json", "--deal", "1"],
        cwd=ROOT,
        capture_output=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": encoding},
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert b"E plays " + heart + b"7" in done.stdout


def test_csv_keeps_the_escape_sequences_of_its_data(tmp_path: Path) -> None:
    """CSV is data: a name holding ``ESC[31m`` is printed whole to a pipe, not cut by the
    stripping click does for text that is not going to a terminal."""
    db = str(tmp_path / "w.duckdb")
    assert runner.invoke(app, ["load", "sample_logs/pagat.json", "--db", db]).exit_code == 0
    sql = "SELECT chr(27) || '[31mred' || chr(27) || '[0m' AS name"
    assert runner.invoke(app, ["query", sql, "--db", db, "--format", "csv"]).stdout == (
        "name\n\x1b[31mred\x1b[0m\n"  # the runner reads CSV's \r\n as \n
    )
    log = tmp_path / "named.json"
    log.write_text(
        (ROOT / "sample_logs" / "pagat.json").read_text().replace('"John"', '"\\u001b[1mJohn"')
    )
    listed = runner.invoke(app, ["matches", str(log), "--format", "csv"]).stdout
    assert "\x1b[1mJohn & Peter" in listed


@pytest.mark.parametrize("dask", [True, False])
def test_the_cluster_module_s_doctest_passes_with_or_without_dask(
    dask: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 36 §3: the doctest of twentynine/cluster.py failed without the cluster extra,
    while the tests that need it skip."""
    import doctest

    import twentynine.cluster

    if not dask:
        monkeypatch.setitem(sys.modules, "distributed", None)  # an import of it fails
    elif importlib.util.find_spec("distributed") is None:
        pytest.skip("the cluster extra is not installed")
    results = doctest.testmod(twentynine.cluster)
    assert results.attempted >= 3 and results.failed == 0
