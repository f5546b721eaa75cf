"""Worker processes that end with the command that started them.

A command killed by SIGTERM or SIGKILL runs no clean-up of its own, and a pool's workers
wait on their task queue for ever: each worker instead asks the system to kill it when its
parent ends (``prctl(PR_SET_PDEATHSIG)`` on Linux), or, where there is no such call, watches
its parent from a thread. ``analyze --jobs N`` and ``load --jobs 2`` (its reader) start
their processes here.

Cheap to import (the standard library only).

>>> with process_pool(2) as pool:
...     sorted(pool.map(abs, [-2, 1]))
[1, 2]
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Final

_PR_SET_PDEATHSIG: Final = 1  # from <linux/prctl.h>
_WATCH_SECONDS: Final = 0.5  # how often a worker without prctl looks for its parent


def end_with_parent(parent: int) -> None:
    """Make this process end when ``parent`` (its parent's pid, taken before the fork) ends.

    Called first thing in a worker. On Linux the kernel sends SIGKILL at the parent's end;
    elsewhere a daemon thread looks every half second. A parent already gone ends the
    worker at once. SIGTERM ends the worker as by default (a forked worker inherits the
    command's handler, which is for its main process).
    """
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if not _kill_me_with_parent():
        threading.Thread(target=_watch, args=(parent,), name="watch-parent", daemon=True).start()
    if os.getppid() != parent:  # the parent ended before the call: nobody would be told
        os._exit(1)


def _kill_me_with_parent() -> bool:
    """Ask Linux to send this process SIGKILL when its parent ends; whether it could."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0  # type: ignore[no-any-return]
    except (OSError, AttributeError):  # no C library to ask, or no prctl in it
        return False


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_WATCH_SECONDS)
    os._exit(1)  # nothing will take what this process makes


@contextmanager
def process_pool(jobs: int) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``jobs`` worker processes that end with this one, shut down on leaving
    (the tasks not started are cancelled)."""
    pool = ProcessPoolExecutor(
        max_workers=jobs, initializer=end_with_parent, initargs=(os.getpid(),)
    )
    try:
        yield pool
    finally:
        pool.shutdown(cancel_futures=True)
