"""Work done once per test run, however many pytest-xdist workers ask for it.

The first worker to ask makes the value and keeps it in the run's own temporary folder (the
parent of the workers' ``tmp_path_factory`` folders, made new for each run); the others wait
for it and read it. Nothing is kept from one run to the next: each run checks the code it
runs. The root ``conftest.py`` names the folder at the start of each worker's session.
"""

from __future__ import annotations

import fcntl
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

T = TypeVar("T")

_FOLDER: dict[str, Path] = {}  # "run": this run's folder, once conftest.py has named it


def use_run_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Keep the shared values under this run's temporary folder (conftest.py calls this)."""
    base = tmp_path_factory.getbasetemp()
    # a worker's folder is the run's folder's child, one per worker; alone, it is the run's
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder = root / "once"
    folder.mkdir(exist_ok=True)
    _FOLDER["run"] = folder


def once(name: str, make: Callable[[], T]) -> T:
    """``make()``, or what another worker of this run already made under ``name``.

    Outside a test run (no folder named) it simply returns ``make()``.
    """
    folder = _FOLDER.get("run")
    if folder is None:
        return make()
    kept = folder / f"{name}.pickle"
    with (folder / f"{name}.lock").open("wb") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the others wait here while one makes it
        if kept.exists():
            value: T = pickle.loads(kept.read_bytes())
            return value
        value = make()
        partial = kept.with_suffix(".partial")
        partial.write_bytes(pickle.dumps(value))
        partial.replace(kept)
        return value
