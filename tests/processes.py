"""Real processes for the tests: a command's children, whether they still run, a clean end
for whatever a test started (Linux: read from /proc), a command's output line by line as it
comes, and what a running command has stored so far."""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

import duckdb

PROC = Path("/proc")


def parent_of(pid: int) -> int | None:
    """The parent's pid of a running process (None when it has ended or is a zombie)."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    state, ppid = stat[stat.rindex(")") + 2 :].split()[:2]  # the name may hold spaces
    return None if state in ("Z", "X") else int(ppid)


def children_of(pid: int) -> list[int]:
    """The running processes whose parent is ``pid``."""
    found = []
    for entry in PROC.iterdir():
        if entry.name.isdigit() and parent_of(int(entry.name)) == pid:
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    return parent_of(pid) is not None


def wait_until(condition: Callable[[], bool], seconds: float) -> bool:
    """Whether ``condition`` holds within ``seconds`` (asked every tenth of a second)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def kill_all(pids: list[int], word: str = "twentynine") -> None:
    """End the processes a test started that still run (each checked to be one of ours,
    by ``word`` in its command line, in case its pid was given to another since)."""
    for pid in pids:
        try:
            command = (PROC / str(pid) / "cmdline").read_bytes()
        except OSError:
            continue
        if word.encode() in command:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def output_lines(stream: IO[bytes]) -> tuple[queue.Queue[bytes], threading.Thread]:
    """The lines of ``stream`` as a thread reads them (for waits with a time limit), and the
    thread, which closes the stream at its end."""
    lines: queue.Queue[bytes] = queue.Queue()

    def read() -> None:
        with stream:
            for line in stream:
                lines.put(line)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return lines, thread


def stored_matches(db: Path) -> int:
    """How many matches ``db`` holds with annotations, read from a copy of the file and its
    write-ahead log (the running command keeps the file locked; 0 while there is none)."""
    if not db.exists():
        return 0
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / db.name
        try:
            shutil.copy(db, copy)
            wal = db.with_name(db.name + ".wal")
            if wal.exists():
                shutil.copy(wal, copy.with_name(copy.name + ".wal"))
            with duckdb.connect(str(copy), read_only=True) as con:
                row = con.execute(
                    "SELECT count(DISTINCT m.match_id) FROM matches m "
                    "JOIN annotations a ON a.match_id = m.match_id"
                ).fetchone()
        except (OSError, duckdb.Error):  # caught mid-write: look again
            return 0
    return int(row[0]) if row else 0
