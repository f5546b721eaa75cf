"""Worker processes end with the command that started them: ``analyze --jobs 2`` and
``load --jobs 2`` killed (SIGTERM or SIGKILL) leave no process behind. Real processes, each
wait bounded; whatever a test started is ended however it goes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import alive, children_of, kill_all, wait_until

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"
START = 120.0  # seconds for the workers to start (a loaded machine)
END = 10.0  # seconds for every worker to end once the command is killed

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="reads processes from /proc"
)


def _kill_and_check(command: subprocess.Popen[bytes], workers: int, sig: int) -> None:
    """Wait for ``workers`` children of ``command``, send it ``sig``, and check that none of
    them outlives it."""
    children: list[int] = []
    try:
        assert wait_until(lambda: len(children_of(command.pid)) >= workers, START), (
            "the workers did not start"
        )
        children = children_of(command.pid)
        os.kill(command.pid, sig)
        command.wait(timeout=END)

        def left() -> list[int]:
            return [pid for pid in children if alive(pid)]

        assert wait_until(lambda: not left(), END), f"workers {left()} outlived the command"
    finally:
        command.kill()
        command.wait(timeout=END)
        kill_all(children)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_analyze_workers_end_with_the_command(sig: int, tmp_path: Path) -> None:
    args = [sys.executable, "-m", "twentynine", "analyze", str(SAMPLES / "bangladesh.json")]
    args += ["--only", "cards,shows", "--jobs", "2", "--db", str(tmp_path / "w.duckdb")]
    command = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _kill_and_check(command, 2, sig)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_the_load_reader_ends_with_the_command(sig: int, tmp_path: Path) -> None:
    """The reader of ``load - --jobs 2`` waits on standard input, which stays open."""
    args = [sys.executable, "-m", "twentynine", "load", "-", "--jobs", "2"]
    args += ["--db", str(tmp_path / "w.duckdb")]
    command = subprocess.Popen(
        args, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        _kill_and_check(command, 1, sig)
    finally:
        assert command.stdin is not None
        command.stdin.close()
