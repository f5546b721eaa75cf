"""`twentynine calibration`: the contract model's table on some logs, a refit written with
--fit that `analyze --model` then uses, and the refusals (one line, exit 2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from twentynine.analysis.models.contract import SHIPPED_PATH, load_model, shipped_model
from twentynine.cli import app
from twentynine.importers.formats import write_matches
from twentynine.replay.selfplay import simulate_matches
from twentynine.schema import Rules
from twentynine.schema.log import MatchLog

runner = CliRunner()


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Two files of bot matches (a club's logs, two evenings)."""
    folder = tmp_path_factory.mktemp("calibration")
    paths = []
    for k in (1, 2):
        path = folder / f"evening{k}.jsonl"
        write_matches(simulate_matches(Rules.preset("bhoos"), matches=5, seed=k), str(path))
        paths.append(path)
    return paths


def _table(output: str, title: str) -> list[list[str]]:
    """The rows of the table whose header starts with ``title``."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:1] == [title])
    rows = []
    for line in lines[start + 2 :]:
        if not line.strip():
            break
        rows.append(line.split())
    return rows


def test_the_table_of_the_shipped_model(logs: list[Path]) -> None:
    result = runner.invoke(app, ["calibration", *map(str, logs)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("2 files, 10 matches: ")
    assert f"model {shipped_model().version} (shipped)" in out
    bands = _table(out, "band")
    assert [row[0] for row in bands] == ["1", "2", "3", "4", "5"]
    predicted = [float(row[1]) for row in bands]
    assert predicted == sorted(predicted)
    calls = int(out.split(": ")[1].split()[0])
    assert sum(int(row[3]) for row in bands) == calls
    assert sum(int(row[3]) for row in _table(out, "level")) == calls
    assert sum(int(row[3]) for row in _table(out, "trumps")) == calls
    assert "AUC" in out and "for the base rate" in out and "calibration error" in out
    again = runner.invoke(app, ["calibration", *map(str, logs), "--seed", "0"])
    assert again.stdout == out  # the same seed, the same figures


def test_fit_writes_a_model_that_analyze_then_uses(logs: list[Path], tmp_path: Path) -> None:
    path = tmp_path / "club.json"
    result = runner.invoke(app, ["calibration", *map(str, logs), "--fit", "-o", str(path)])
    assert result.exit_code == 0, result.output
    model = load_model(path)
    assert model.version != shipped_model().version
    assert f"wrote {path} ({model.version})" in result.stderr
    assert "refitted, out of fold (leave one file out)" in result.stdout
    assert model.fit is not None and model.fit["files"] == ["evening1.jsonl", "evening2.jsonl"]
    assert "warning: " in result.stderr  # a few hundred calls: said to be few
    same = tmp_path / "same.json"
    runner.invoke(app, ["calibration", *map(str, logs), "--fit", "-o", str(same)])
    assert load_model(same) == model  # deterministic
    measured = runner.invoke(app, ["calibration", str(logs[0]), "--model", str(path)])
    assert measured.exit_code == 0 and f"model {model.version} ({path})" in measured.stdout

    # the first match is enough to see which model judged the bids (a match takes seconds)
    first = ["analyze", str(logs[0]), "--only", "bids", "--limit", "1"]
    analyzed = runner.invoke(app, [*first, "--model", str(path)])
    assert analyzed.exit_code == 0, analyzed.output
    notes = [json.loads(line) for line in analyzed.stdout.splitlines()]
    assert notes and {json.loads(n["detail"])["model"] for n in notes} == {model.version}
    shipped = runner.invoke(app, first)
    versions = {
        json.loads(json.loads(line)["detail"])["model"] for line in shipped.stdout.splitlines()
    }
    assert versions == {shipped_model().version}


def test_one_file_is_checked_in_folds_of_its_matches(logs: list[Path], tmp_path: Path) -> None:
    path = tmp_path / "one.json"
    result = runner.invoke(
        app, ["calibration", str(logs[0]), "--fit", "-o", str(path), "--seed", "7"]
    )
    assert result.exit_code == 0, result.output
    assert "matches dealt into 5 folds (seed 7)" in result.stdout
    assert load_model(path).fit["out_of_fold"] == "matches dealt into 5 folds (seed 7)"  # type: ignore[index]


def _refused(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.stderr == f"twentynine: {message}\n"
    assert result.stdout == "" and "Traceback" not in result.output


def test_refusals_are_one_line(logs: list[Path], tmp_path: Path) -> None:
    log = str(logs[0])
    _refused(
        ["calibration", log, "--fit"], "--fit needs -o FILE: where to write the refitted model"
    )
    _refused(
        ["calibration", log, "-o", str(tmp_path / "m.json")],
        "-o is where --fit writes a model: give --fit too",
    )
    _refused(
        ["calibration", log, "--fit", "-o", log],
        f"the output {log} is also an input: write to another file",
    )
    folder = str(logs[1].parent)
    _refused(
        ["calibration", folder, "--fit", "-o", str(logs[1])],
        f"the output {logs[1]} is also an input: write to another file",
    )
    _refused(
        ["calibration", log, "--fit", "-o", str(SHIPPED_PATH)],
        f"{SHIPPED_PATH}: the shipped model is not written over; name another file",
    )
    _refused(
        ["calibration", log, "--fit", "-o", str(tmp_path / "no" / "m.json")],
        f"{tmp_path / 'no' / 'm.json'}: no such folder to write the model in",
    )
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "twentynine.contract_model", "version": "x"}', encoding="utf-8")
    for command in ("calibration", "analyze"):
        _refused([command, log, "--model", str(bad)], f"{bad}: the model has no 'features'")
    _refused(
        ["calibration", log, "--model", str(tmp_path / "none.json")],
        f"{tmp_path / 'none.json'}: cannot read the model: No such file or directory",
    )
    assert SHIPPED_PATH.read_text(encoding="utf-8") == shipped_model().dumps()  # untouched


def test_the_refit_never_replaces_the_warehouse_or_the_model_it_read(
    logs: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    log = str(logs[0])
    load = runner.invoke(app, ["load", log])
    assert load.exit_code == 0, load.output
    warehouse = (tmp_path / "twentynine.duckdb").read_bytes()
    _refused(
        ["calibration", log, "--fit", "-o", "twentynine.duckdb"],
        "the output twentynine.duckdb is the warehouse twentynine.duckdb: write to another file",
    )
    assert (tmp_path / "twentynine.duckdb").read_bytes() == warehouse
    model = tmp_path / "club.json"
    model.write_text(shipped_model().dumps(), encoding="utf-8")
    _refused(
        ["calibration", log, "--fit", "-o", str(model), "--model", str(model)],
        f"the output {model} is also an input: write to another file",
    )
    assert model.read_text(encoding="utf-8") == shipped_model().dumps()


def test_a_negative_seed_is_a_usage_error(logs: list[Path]) -> None:
    result = runner.invoke(app, ["calibration", str(logs[0]), "--seed", "-1"])
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--seed': Input should be greater than or equal to 0" in result.stderr
    assert result.stdout == "" and "Traceback" not in result.output


# ------------------------------------------------- issue 36 §2: files the product can trust
@pytest.fixture(scope="module")
def all_made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two one-deal matches whose calls were both made: no failed call to rank against."""
    from twentynine.analysis.models.fit import contract_rows

    made: list[MatchLog] = []
    for match in simulate_matches(Rules.preset("bhoos"), matches=5, seed=1):
        for k in range(len(match.deals)):
            one = match.model_copy(update={"deals": match.deals[k : k + 1], "id": f"m{k}"})
            rows = contract_rows([one])
            if rows and all(r.made for r in rows):
                made.append(one.model_copy(update={"id": f"made{len(made)}"}))
                break
    path = tmp_path_factory.mktemp("made") / "made.jsonl"
    write_matches(made[:2], str(path))
    return path


def _no_nan(text: str) -> Any:
    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_a_fit_where_every_call_was_made_writes_a_null_auc_and_says_why(
    all_made: Path, tmp_path: Path
) -> None:
    path = tmp_path / "made-model.json"
    result = runner.invoke(app, ["calibration", str(all_made), "--fit", "-o", str(path)])
    assert result.exit_code == 0, result.output
    body = _no_nan(path.read_text(encoding="utf-8"))
    assert body["fit"]["metrics"]["auc"] is None
    assert "AUC none (every call made, or every call failed: no pair to rank)" in result.stdout
    assert "nan" not in result.stdout.lower()
    # ... and a model fitted on two calls is said to be, when analyze is given it
    assert "the refit is fitted on 2 calls, fewer than 1,000" in result.stderr
    analyzed = runner.invoke(
        app, ["analyze", str(all_made), "--only", "bids", "--limit", "1", "--model", str(path)]
    )
    assert analyzed.exit_code == 0, analyzed.output
    assert analyzed.stderr.splitlines()[0] == (
        f"twentynine: warning: {path}: fitted on 2 calls, fewer than 1,000: its chances are "
        "mostly noise; its notes keep wide intervals"
    )


def test_a_bad_model_file_is_one_line_for_both_commands(logs: list[Path], tmp_path: Path) -> None:
    log = str(logs[0])
    text = SHIPPED_PATH.read_text(encoding="utf-8")
    huge = tmp_path / "huge.json"
    huge.write_text(text.replace('"intercept": -3.396787', '"intercept": 1' + "0" * 400))
    longer = tmp_path / "longer.json"
    longer.write_text(text.replace('"intercept": -3.396787', '"intercept": 1' + "0" * 4400))
    forged = tmp_path / "forged.json"
    body = json.loads(text)
    forged.write_text(json.dumps({**body, "version": "contract-x\ntwentynine: forged"}))
    for command in ("calibration", "analyze"):
        _refused(
            [command, log, "--model", str(huge)],
            f"{huge}: intercept: a number of 401 digits is too large",
        )
        _refused(
            [command, log, "--model", str(longer)],
            f"{longer}: a number too long to read (thousands of digits): not a model file",
        )
        _refused(
            [command, log, "--model", str(forged)],
            f"{forged}: its version is not the one its parameters make "
            f"({shipped_model().version}): a model edited by hand is not taken under "
            "another's name; refit it (twentynine calibration --fit)",
        )
