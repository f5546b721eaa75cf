"""Which build of the rules engine :mod:`replay.deal` runs: compiled by mypyc, or pure Python.

``pip install -e .`` compiles ``replay/deal.py`` into an extension beside it, which is imported
in its place, and records in ``replay/_compiled_source.sha256`` the SHA-256 of each source
compiled in: ``replay/deal.py`` and the project modules it imports, whose types and constants
mypyc builds in. An edit to any of them has no effect on the engine until the next install:
:func:`engine_build` says so.

>>> build = engine_build()
>>> build == PURE_PYTHON or build.startswith(COMPILED)
True
"""

from __future__ import annotations

import hashlib
import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Final

from twentynine.replay import deal as _deal

COMPILED: Final = "compiled"
PURE_PYTHON: Final = "pure Python"
RECORD: Final = "_compiled_source.sha256"
UNVERIFIED: Final = (
    "compiled (unverified: no record of the sources it was built from; run pip install -e . again)"
)


def stale(source: str) -> str:
    """What :func:`engine_build` says when ``source`` changed after the engine was compiled."""
    return f"compiled (stale: {source} changed since the build; run pip install -e . again)"


def engine_build() -> str:
    """``"compiled"``, ``"pure Python"``, or ``"compiled (stale: ...)"`` for the running engine.

    >>> engine_build().split(" (")[0] in ("compiled", "pure Python")
    True
    """
    return build_of(_deal.__file__)


def build_of(module_file: str | os.PathLike[str]) -> str:
    """What :func:`engine_build` says of an engine ``replay.deal`` imported from ``module_file``.

    A compiled engine is an extension file (``deal.cpython-311-x86_64-linux-gnu.so``); it is
    stale when a source named in the record beside it, a path from the folder that holds the
    ``replay`` package, no longer has the hash recorded at build time.
    """
    path = Path(module_file)
    if not path.name.endswith(tuple(EXTENSION_SUFFIXES)):
        return PURE_PYTHON
    try:
        record = (path.parent / RECORD).read_text(encoding="utf-8")
    except OSError:
        return UNVERIFIED
    root = path.parent.parent
    for line in record.splitlines():
        digest, _, source = line.partition("  ")
        if not (root / source).is_file():
            continue  # installed without its sources: nothing to be out of date with
        if hashlib.sha256((root / source).read_bytes()).hexdigest() != digest:
            return stale(source)
    return COMPILED
