"""SIGTERM (``kill``, ``timeout``) ends a command at once, as by default, but leaves no hidden
temporary file beside an output it was writing (no ``finally`` runs on that way out), and
no worker process behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _started(folder: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "twentynine", *args],
        cwd=folder,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: the workers can be looked for
    )


def _wait_for(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def _group_gone(process: subprocess.Popen[str]) -> bool:
    try:
        os.killpg(process.pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_sigterm_mid_write_leaves_no_hidden_part(tmp_path: Path) -> None:
    """simulate writes its output through a hidden temporary file beside it: SIGTERM left
    that file behind (Ctrl-C did not)."""
    process = _started(tmp_path, "simulate", "--rules", "pagat", "--matches", "100000",
                       "-o", "many.jsonl")  # fmt: skip
    part = lambda: any(tmp_path.glob(".many.jsonl.*.tmp"))  # noqa: E731
    _wait_for(part, 60, "simulate never began its output")
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=30)
    assert process.returncode == -signal.SIGTERM, err
    assert sorted(tmp_path.iterdir()) == []  # neither the output nor its part


def test_sigterm_ends_the_workers_with_the_command(tmp_path: Path) -> None:
    """With --jobs 2 every process of the command is gone within seconds of SIGTERM."""
    sample = str(ROOT / "sample_logs" / "bangladesh.json")
    process = _started(tmp_path, "analyze", sample, "--jobs", "2", "--samples", "400")
    time.sleep(3)  # the workers are at work
    process.send_signal(signal.SIGTERM)
    process.communicate(timeout=30)
    assert process.returncode == -signal.SIGTERM
    _wait_for(lambda: _group_gone(process), 10, "a worker outlived the command")


def _has_open(pid: int, path: Path) -> bool:
    """Whether process ``pid`` has ``path`` open (Linux: its /proc/PID/fd links)."""
    try:
        links = [str(fd.readlink()) for fd in Path(f"/proc/{pid}/fd").iterdir()]
    except OSError:
        return False
    return str(path) in links


def test_an_interrupted_load_leaves_no_warehouse_it_made_and_stored_nothing_in(
    tmp_path: Path,
) -> None:
    """Issue 36 §3: Ctrl-C early in `load` (the warehouse made, no match stored yet) left a
    new empty warehouse file behind. One that was there is left as it was."""
    for there in (False, True):
        db = tmp_path / "new.duckdb"
        if there:
            pagat = str(ROOT / "sample_logs" / "pagat.json")
            subprocess.run(
                [sys.executable, "-m", "twentynine", "load", pagat, "--db", str(db)],
                env={**os.environ, "PYTHONPATH": str(ROOT)},
                capture_output=True,
                check=True,
            )
        before = db.read_bytes() if there else None
        process = subprocess.Popen(
            [sys.executable, "-m", "twentynine", "load", "-", "--db", str(db)],
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdin=subprocess.PIPE,  # kept open: the load waits for its first match
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        _wait_for(lambda: _has_open(process.pid, db), 60, "load never opened its warehouse")  # noqa: B023
        time.sleep(0.5)  # the load is waiting for standard input, its warehouse open
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
        assert process.returncode != 0, err
        assert "Traceback" not in err, err
        if there:
            assert db.read_bytes() == before
        else:
            assert sorted(p.name for p in tmp_path.iterdir()) == [], err
