"""`twentynine analyze --cluster` never hangs: a peer that accepts and says nothing, an address
that is not one, a scheduler without workers, a worker or a scheduler that dies mid-run. Each
gives one line and exit 2, and what was done before it is kept.

Real parts: a plain socket server on loopback, real Dask scheduler and worker processes on
127.0.0.1, the command in a process of its own reading standard input (so that the test
decides when the second match is sent). Every wait is bounded; every process started is
ended however the test goes.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from tests.processes import output_lines, stored_matches, wait_until
from tests.test_cli_analyze import two_short_matches
from twentynine.cli import app

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parent.parent
ONLY = ["--only", "cards,shows"]
WAIT = "3"  # --wait: seconds without a worker before the run gives up
BOUND = 120  # seconds any one step may take on a loaded machine
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
runner = CliRunner()


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return two_short_matches(tmp_path_factory.mktemp("cluster"))


@contextmanager
def _peer(greeting: bytes | None) -> Iterator[str]:
    """The address of a server on loopback that accepts every connection: it says nothing and
    keeps it open (``greeting`` None), or sends ``greeting`` and closes it."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection = server.accept()[0]
            except TimeoutError:
                continue
            if greeting is None:
                accepted.append(connection)
            else:
                with connection:
                    connection.sendall(greeting)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(timeout=BOUND)
        for connection in accepted:
            connection.close()
        server.close()


@pytest.fixture
def silent_peer() -> Iterator[str]:
    """A peer that accepts every connection and says nothing."""
    with _peer(None) as address:
        yield address


@contextmanager
def scheduler() -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A real Dask scheduler process on loopback, and its address."""
    command = [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1"]
    command += ["--port", "0", "--no-dashboard"]
    process = subprocess.Popen(
        command, cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert process.stderr is not None
    lines, reader = output_lines(process.stderr)  # drained to the end: the log never blocks it
    try:
        while True:
            found = re.search(rb"tcp://127\.0\.0\.1:\d+", lines.get(timeout=BOUND))
            if found:
                yield process, found.group(0).decode()
                return
    finally:
        process.kill()
        process.wait(timeout=BOUND)
        reader.join(timeout=BOUND)


@contextmanager
def worker(address: str) -> Iterator[subprocess.Popen[bytes]]:
    """A real Dask worker process (no nanny: killed, it stays dead), once it has joined."""
    command = [sys.executable, "-m", "distributed.cli.dask_worker", address, "--no-nanny"]
    command += ["--nthreads", "1", "--no-dashboard"]
    process = subprocess.Popen(
        command, cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        with distributed.Client(address, timeout=BOUND, set_as_default=False) as client:
            client.wait_for_workers(1, timeout=BOUND)
        yield process
    finally:
        process.kill()
        process.wait(timeout=BOUND)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            [sys.executable, "-m", "twentynine", *args],
            cwd=ROOT,
            env=ENV,
            capture_output=True,
            text=True,
            timeout=BOUND,
            check=False,
        )
    except subprocess.TimeoutExpired:  # the hang this file is about (the child is killed)
        pytest.fail(f"twentynine {' '.join(args)} still ran after {BOUND} s")


def _one_error_line(stderr: str, *needles: str) -> str:
    """The command's error line (its other lines are notices); no traceback, no Dask log."""
    lines = stderr.strip().splitlines()
    assert lines and all(line.startswith("twentynine: ") for line in lines), stderr
    errors = [line for line in lines if not line.startswith("twentynine: warning: ")]
    assert len(errors) == 1, stderr
    for needle in needles:
        assert needle in errors[0], stderr
    return errors[0]


def test_a_peer_that_says_nothing_is_one_line(logs: Path, silent_peer: str) -> None:
    result = _run("analyze", str(logs), *ONLY, "--cluster", silent_peer, "--wait", WAIT)
    assert result.returncode == 2
    _one_error_line(result.stderr, f"--cluster {silent_peer}: no answer in {WAIT} s")
    assert not result.stdout


@pytest.fixture
def chatty_peer() -> Iterator[str]:
    """A peer that answers every connection as a web server."""
    with _peer(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n") as address:
        yield address


def _port_nobody_listens_at() -> int:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return int(probe.getsockname()[1])


def test_a_refused_connection_or_an_unknown_host_says_so(logs: Path) -> None:
    """Dask's connect retried both until its deadline, then said only that it timed out."""
    port = _port_nobody_listens_at()
    address = f"tcp://127.0.0.1:{port}"
    result = runner.invoke(app, ["analyze", str(logs), *ONLY, "--cluster", address])
    assert result.exit_code == 2, result.output
    line = _one_error_line(result.stderr, f"--cluster {address}: nothing listens at port {port}")
    assert line.endswith("of 127.0.0.1 (connection refused)")
    address = "tcp://no-such-host.invalid:8786"  # .invalid never resolves (RFC 6761)
    result = runner.invoke(app, ["analyze", str(logs), *ONLY, "--cluster", address])
    assert result.exit_code == 2, result.output
    _one_error_line(result.stderr, f"--cluster {address}: no such host 'no-such-host.invalid'")


def test_a_peer_that_speaks_another_protocol_is_one_line(logs: Path, chatty_peer: str) -> None:
    """Dask read the web server's answer as a frame's length, and the line said it could not
    allocate 3 EiB."""
    result = runner.invoke(app, ["analyze", str(logs), *ONLY, "--cluster", chatty_peer])
    assert result.exit_code == 2, result.output
    _one_error_line(
        result.stderr, f"--cluster {chatty_peer}: the peer is not a Dask scheduler (its answer"
    )


@pytest.mark.parametrize("address", ["tcp://[::1", "tcp://127.0.0.1:port", "foo://x"])
def test_an_address_that_is_not_one_is_one_line(logs: Path, address: str) -> None:
    result = runner.invoke(app, ["analyze", str(logs), *ONLY, "--cluster", address])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code == 2
    _one_error_line(result.stderr, f"--cluster {address}: not a scheduler's address")


def test_a_scheduler_without_workers_gives_up_after_the_wait(logs: Path, tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    with scheduler() as (_, address):
        result = _run(
            "analyze", str(logs), *ONLY, "--cluster", address, "--wait", WAIT, "--db", str(db)
        )
    assert result.returncode == 2
    _one_error_line(result.stderr, f"--cluster {address}: no worker for {WAIT} s; nothing")
    assert f"--cluster {address}: no worker; waiting up to {WAIT} s" in result.stderr
    # each match is stored as it is read (analyze --db admits it so), but no annotation is
    assert _annotations(db) == 0


@contextmanager
def _feeding(args: list[str], tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    """``twentynine ARGS -`` with standard input kept open; its standard error's file."""
    errors = tmp_path / "stderr.txt"
    with errors.open("wb") as stream:
        process = subprocess.Popen(
            [sys.executable, "-m", "twentynine", *args, "-"],
            cwd=ROOT,
            env=ENV,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stream,
        )
    try:
        yield process, errors
    finally:
        process.kill()
        process.wait(timeout=BOUND)
        for pipe in (process.stdin, process.stdout):
            if pipe is not None and not pipe.closed:
                pipe.close()


@pytest.mark.parametrize("dies", ["worker", "scheduler"])
@pytest.mark.parametrize("store", [False, True])
def test_a_run_whose_cluster_dies_keeps_what_it_finished(
    logs: Path, tmp_path: Path, dies: str, store: bool
) -> None:
    """The first match is done (written or stored); then the worker, or the scheduler, is
    killed and the second match sent: one line, exit 2, the first match kept."""
    first, second = logs.read_bytes().splitlines(keepends=True)
    first_id = json.loads(first)["id"]
    first = first.rstrip(b"\n") + b" " * (64 * 1024) + b"\n"  # past the format detection's head
    db = tmp_path / "w.duckdb"
    with scheduler() as (scheduler_process, address), worker(address) as worker_process:
        args = ["analyze", *ONLY, "--cluster", address, "--wait", WAIT]
        args += ["--db", str(db)] if store else []
        with _feeding(args, tmp_path) as (process, errors):
            assert process.stdin is not None and process.stdout is not None
            lines, reader = output_lines(process.stdout)
            process.stdin.write(first)
            process.stdin.flush()
            if store:
                assert wait_until(lambda: stored_matches(db) == 1, BOUND), errors.read_text()
            else:
                assert json.loads(lines.get(timeout=BOUND))["match_id"] == first_id
            (worker_process if dies == "worker" else scheduler_process).send_signal(signal.SIGKILL)
            process.stdin.write(second)
            process.stdin.close()
            code = process.wait(timeout=BOUND)
            reader.join(timeout=BOUND)
    reason = "no worker for 3 s" if dies == "worker" else ""
    line = _one_error_line(errors.read_text(), f"--cluster {address}: {reason}")
    assert "1 match analysed before it" in line, line
    assert code == 2
    written = []
    while not lines.empty():
        written.append(json.loads(lines.get()))
    if store:
        assert not written
        with duckdb.connect(str(db), read_only=True) as con:
            stored = con.execute("SELECT DISTINCT match_id FROM annotations").fetchall()
            matches = con.execute("SELECT match_id FROM matches").fetchall()
        assert stored == [(first_id,)]  # annotations of the match done before, only
        assert (first_id,) in matches  # every match is stored as read; the second may be
    else:
        assert written and {note["match_id"] for note in written} == {first_id}


def _annotations(db: Path) -> int:
    """How many annotations the warehouse ``db`` holds (0 when it was never made)."""
    if not db.exists():
        return 0
    with duckdb.connect(str(db), read_only=True) as con:
        row = con.execute("SELECT count(*) FROM annotations").fetchone()
    assert row is not None
    return int(row[0])
