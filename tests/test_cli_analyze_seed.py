"""`twentynine analyze --seed`: the same bytes whatever the hash seed, the jobs or the cluster,
and a seed the warehouse cannot keep refused before any work (in a process of its own where the
hash seed or the command's one-line usage errors matter)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from twentynine.cli import app
from twentynine.importers.formats import write_matches
from twentynine.replay import random_match
from twentynine.schema import Rules

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
# Every kind of decision of one small deal, whose bids were judged on layouts whose trump
# depended on the process's hash seed before the sampler broke ties in a fixed order.
ARGS = ["--samples", "4", "--seed", "1"]
CLUSTER = """
import sys
from distributed import LocalCluster
with LocalCluster(
    n_workers=1,
    threads_per_worker=2,
    processes=False,
    protocol="tcp",
    host="127.0.0.1",
    dashboard_address=":0",  # a free port for its web server (8787 may be taken)
) as cluster:
    print(cluster.scheduler_address, flush=True)
    sys.stdin.read()
"""


@pytest.fixture(scope="module")
def match(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The second deal of a bhoos match, alone."""
    path = tmp_path_factory.mktemp("seed") / "one.json"
    log = random_match(Rules.preset("bhoos"), seed=2)
    alone = log.model_copy(update={"deals": log.deals[1:2], "result": None})
    write_matches(iter([alone]), str(path))
    return path


def _run(args: list[str], hash_seed: int) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONHASHSEED": str(hash_seed)}
    return subprocess.run(
        [sys.executable, "-m", "twentynine", "analyze", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=900,
        check=False,
    )


def _annotations(args: list[str], hash_seed: int) -> bytes:
    done = _run(args, hash_seed)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.count(b"\n") > 3
    return done.stdout


@pytest.fixture
def cluster() -> Iterator[str]:
    """A Dask scheduler and worker in a process of their own, with a third hash seed."""
    pytest.importorskip("distributed")
    env = {**os.environ, "PYTHONHASHSEED": "3"}
    with subprocess.Popen(
        [sys.executable, "-c", CLUSTER],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        try:
            address = process.stdout.readline().strip()
            assert address.startswith("tcp://"), address
            yield address
        finally:
            process.stdin.close()  # the cluster closes when its input ends
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()


def test_the_same_seed_gives_the_same_bytes_whatever_the_hash_seed_and_jobs(
    match: Path, cluster: str
) -> None:
    first = _annotations([str(match), *ARGS], hash_seed=1)
    assert _annotations([str(match), *ARGS], hash_seed=2) == first
    assert _annotations([str(match), *ARGS, "--jobs", "2"], hash_seed=2) == first
    assert _annotations([str(match), *ARGS, "--cluster", cluster], hash_seed=1) == first


@pytest.mark.parametrize("seed", [2**63, 2**64, -(2**63) - 1])
def test_a_seed_out_of_range_is_refused_before_any_work(
    match: Path, tmp_path: Path, seed: int
) -> None:
    db = tmp_path / "w.duckdb"
    done = _run([str(match), *ARGS, "--seed", str(seed), "--db", str(db)], hash_seed=1)
    assert done.returncode == 2
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1 and "--seed" in lines[0] and "Traceback" not in lines[0], lines
    assert not db.exists()  # refused before the warehouse was opened, or any deal analysed


def test_the_largest_seed_is_stored_as_given(match: Path, tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    largest = 2**63 - 1
    args = ["analyze", str(match), *ARGS, "--seed", str(largest), "--db", str(db)]
    done = runner.invoke(app, args)
    assert done.exit_code == 0, done.output
    with duckdb.connect(str(db), read_only=True) as con:
        seeds = con.execute("SELECT DISTINCT seed FROM annotations").fetchall()
    assert seeds == [(largest,)]
