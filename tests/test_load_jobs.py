"""``twentynine load --jobs 2`` stores exactly what ``--jobs 1`` stores, and says the same.

Each test loads the same inputs into two real DuckDB files, with one process and with two,
in small batches (so that ids repeat across batches, the second process answering for the
batches it handed over as the warehouse does once they are stored), and compares every table
and view row for row and the summaries line for line.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.test_reports_fastload import assert_same_contents, assert_same_summary, mixed_lines
from twentynine.cli import app
from twentynine.loading import _Pace, load_paths
from twentynine.replay import random_match
from twentynine.reports.warehouse import store
from twentynine.reports.warehouse.store import Admission, LoadSummary, Pending
from twentynine.schema import PRESET_NAMES, Rules

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_logs"


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Random matches of every preset, then some again (the same and with other content)."""
    folder = tmp_path_factory.mktemp("jobs")
    matches = [
        random_match(Rules.preset(preset), seed, max_deals=6).model_copy(
            update={"id": f"{preset}-{seed}"}
        )
        for preset in PRESET_NAMES
        for seed in range(12)
    ]
    lines = [match.canonical_json() for match in matches]
    changed = random_match(Rules.preset("pagat"), 99, max_deals=6)
    lines += lines[:3]  # the same again: duplicates, some after their batch was stored
    lines.append(changed.model_copy(update={"id": matches[0].id}).canonical_json())
    (folder / "league.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    (folder / "mixed.jsonl").write_bytes(b"\n".join(mixed_lines()) + b"\n")
    return folder


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample logs, every format and fault, but for the samples' league: its 2,395 deals
    made each load here cost four times as much, for the same kinds of input again."""
    folder = tmp_path_factory.mktemp("samples") / "sample_logs"
    shutil.copytree(SAMPLES, folder, ignore=shutil.ignore_patterns("league.jsonl", "__pycache__"))
    return folder


OneJob = Callable[[bool], tuple[LoadSummary, Path]]


@pytest.fixture(scope="module")
def one_job(samples: Path, league: Path, tmp_path_factory: pytest.TempPathFactory) -> OneJob:
    """The load of the samples and the league by one process, with ``--replace`` or not: made
    once for the tests that compare a load by two processes with it (it is the same in each:
    one process takes no hand-over). Read it, or load again into a copy of it."""
    loads: dict[bool, tuple[LoadSummary, Path]] = {}

    def load(replace: bool) -> tuple[LoadSummary, Path]:
        if replace not in loads:
            db = tmp_path_factory.mktemp("one-job") / "one.duckdb"
            summary = load_paths([samples, league], db=db, batch_deals=40, replace=replace)
            loads[replace] = summary, db
        return loads[replace]

    return load


def _copy(db: Path, folder: Path) -> Path:
    """A copy of a closed warehouse file (and its write-ahead log, if one was left)."""
    copy = folder / db.name
    shutil.copy(db, copy)
    wal = db.with_name(db.name + ".wal")
    if wal.exists():
        shutil.copy(wal, copy.with_name(copy.name + ".wal"))
    return copy


@pytest.mark.parametrize("replace", [False, True])
def test_two_jobs_store_what_one_stores(
    samples: Path, league: Path, one_job: OneJob, tmp_path: Path, replace: bool
) -> None:
    paths = [samples, league]
    one, stored = one_job(replace)
    one_db = _copy(stored, tmp_path)  # loaded into again below
    two = load_paths(paths, db=tmp_path / "two.duckdb", batch_deals=40, replace=replace, jobs=2)
    assert one.stored > 100 and one.duplicates >= 3 and one.skipped > 0
    assert any("already stored" in line for line in one.duplicate_lines)  # after a batch
    assert_same_summary(one, two)
    assert_same_contents(one_db, tmp_path / "two.duckdb")
    # again into the same files: everything is already stored, both ways alike
    again_one = load_paths(paths, db=one_db, batch_deals=40, replace=replace)
    again_two = load_paths(
        paths, db=tmp_path / "two.duckdb", batch_deals=40, jobs=2, replace=replace
    )
    assert again_one.duplicates > 100
    assert_same_summary(again_one, again_two)
    assert_same_contents(one_db, tmp_path / "two.duckdb")


@pytest.mark.parametrize("writer_takes", ["every unit", "none"])
def test_two_jobs_store_the_same_whoever_audits(
    samples: Path,
    league: Path,
    one_job: OneJob,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    writer_takes: str,
) -> None:
    """Whichever share of the audits the writer takes (by the CPU each process used, which
    a test cannot steer), the rows and the summary are those of one process: every unit
    handed over (the writer decodes their documents again and stores its rows with the
    reader's batches), or none."""
    monkeypatch.setattr(_Pace, "hand_over", lambda *_, **__: writer_takes == "every unit")
    paths = [samples, league]
    one, stored = one_job(False)
    two = load_paths(paths, db=tmp_path / "two.duckdb", batch_deals=40, jobs=2)
    assert one.stored > 100
    assert_same_summary(one, two)
    assert_same_contents(stored, tmp_path / "two.duckdb")


def test_the_load_command_takes_jobs(tmp_path: Path) -> None:
    runner = CliRunner()
    db = tmp_path / "w.duckdb"
    result = runner.invoke(
        app, ["load", str(SAMPLES / "league.jsonl"), "--db", str(db), "--jobs", "2"]
    )
    assert result.exit_code == 0, result.output
    assert "70 stored" in result.output
    refused = runner.invoke(app, ["load", str(SAMPLES), "--db", str(db), "--jobs", "3"])
    assert refused.exit_code == 2
    assert "--jobs" in refused.output and not db.with_suffix(".wal").exists()


def test_two_jobs_read_standard_input(tmp_path: Path) -> None:
    # the reading process is another process: it must still read the load's standard input
    db = tmp_path / "w.duckdb"
    loaded = subprocess.run(
        [sys.executable, "-m", "twentynine", "load", "-", "--db", str(db), "--jobs", "2"],
        input=(SAMPLES / "league.jsonl").read_bytes(),
        capture_output=True,
        cwd=ROOT,
        check=False,
    )
    assert loaded.returncode == 0, loaded.stderr
    assert b"70 matches read from 1 file: 70 stored" in loaded.stderr


@pytest.mark.parametrize("takes", ["every other", "none", "all"])
def test_each_match_is_audited_once_whichever_units_are_handed_off(takes: str) -> None:
    """The reading process offers each unit to the writer and audits it itself when declined
    (the writer busy): whatever is taken, every new match ends in a batch or a hand-off, once,
    and the duplicates are told as by one process."""
    matches = [
        random_match(Rules.preset(preset), seed, max_deals=6).model_copy(
            update={"id": f"{preset}-{seed}"}
        )
        for preset in PRESET_NAMES
        for seed in range(3)
    ]
    items = [(m, None) for m in matches + matches[:4]]  # four again: duplicates
    handed: list[str] = []
    offers = 0

    def hand_off(todo: list[Pending], replaced: list[str]) -> bool:
        nonlocal offers
        offers += 1
        if takes == "none" or (takes == "every other" and offers % 2):
            return False
        handed.extend(p.match_id for p in todo)
        return True

    summary = LoadSummary(database="")
    admission = Admission(lambda ids: {}, summary, batch_deals=40, hand_off=hand_off)
    batched = [i for batch, _ in admission.batches(items) for i in batch.match_ids]
    assert sorted(batched + handed) == sorted(str(m.id) for m in matches)
    assert summary.duplicates == 4 and offers > 2
    assert (len(handed) > 0, len(batched) > 0) == {
        "every other": (True, True),
        "none": (False, True),
        "all": (True, False),
    }[takes]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_load_that_stores_nothing_leaves_no_new_warehouse(tmp_path: Path, jobs: int) -> None:
    refused = tmp_path / "refused.jsonl"
    refused.write_bytes(b'{"format": "twentynine.match"}\n{"format": "twentynine.match"}\n')
    db = tmp_path / "new.duckdb"
    summary = load_paths([refused], db=db, jobs=jobs)
    assert (summary.read, summary.skipped, summary.stored) == (2, 2, 0)
    assert summary.discarded and not db.exists() and not db.with_suffix(".duckdb.wal").exists()
    assert f"nothing stored: {db} was not created" in summary.lines()
    # a warehouse that was there stays as it was, and says nothing of the kind
    kept = tmp_path / "kept.duckdb"
    assert load_paths([SAMPLES / "pagat.json"], db=kept).stored == 1
    before = kept.read_bytes()
    again = load_paths([refused], db=kept, jobs=jobs)
    assert again.skipped == 2 and not again.discarded
    assert not any("nothing stored" in line for line in again.lines())
    assert kept.read_bytes() == before


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_file_not_read_is_no_match_read(tmp_path: Path, jobs: int) -> None:
    """A missing file is counted apart (it said "2 matches read ... 1 skipped"), and the
    load still exits 1: not everything named was stored."""
    db = tmp_path / "w.duckdb"
    missing = tmp_path / "missing.json"
    summary = load_paths([missing, SAMPLES / "pagat.json"], db=db, jobs=jobs)
    assert (summary.read, summary.stored, summary.skipped, summary.unreadable) == (1, 1, 0, 1)
    assert summary.exit_code == 1
    assert summary.problems == [f"{missing}: cannot read: No such file or directory"]
    assert summary.lines()[-1].startswith("1 match read from 2 files (1 not read): 1 stored")
    assert summary.to_dict()["unread"] == 1


def test_near_the_end_each_unit_is_a_batch_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """``closing`` (the reader of ``--jobs 2`` near the end of its input) cuts a batch at
    every unit, so that the last one is small; every match still ends in one batch once."""
    monkeypatch.setattr(store, "CHECK_DEALS", 10)  # units of 10 deals, batches of 60
    matches = [
        random_match(Rules.preset(preset), seed, max_deals=6).model_copy(
            update={"id": f"{preset}-{seed}"}
        )
        for preset in PRESET_NAMES
        for seed in range(3)
    ]
    asked: list[int] = []

    def closing() -> bool:
        asked.append(1)
        return len(asked) > 2  # the last units of the input

    cut = Admission(lambda ids: {}, LoadSummary(database=""), batch_deals=60, closing=closing)
    whole = Admission(lambda ids: {}, LoadSummary(database=""), batch_deals=60)
    items = [(m, None) for m in matches]
    cut_batches = [batch.match_ids for batch, _ in cut.batches(items)]
    whole_batches = [batch.match_ids for batch, _ in whole.batches(items)]
    assert sorted(i for ids in cut_batches for i in ids) == sorted(str(m.id) for m in matches)
    assert [i for ids in cut_batches for i in ids] == [i for ids in whole_batches for i in ids]
    assert len(cut_batches) > len(whole_batches)
    assert max(len(ids) for ids in cut_batches[-3:]) < max(len(ids) for ids in whole_batches)
