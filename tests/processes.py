"""Real processes for the tests: a command's children, whether they still run, and a clean
end for whatever a test started (Linux: read from /proc)."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

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
