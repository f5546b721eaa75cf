"""What a command may not write over: its inputs, and the warehouse. One check, for every
command that writes a file or a folder.

An output is refused when it is one of the files the command reads (a folder given as input
counts as the files read from it), the warehouse, or what DuckDB keeps beside the warehouse:
its write-ahead log ``FILE.wal`` and its temporary folder ``FILE.tmp``. One file is one file
by whatever name: through symbolic links, and as a hard link (the same device and inode)
where it exists. An output folder (an export, the example reports beside the players report)
is refused when it holds one of those. The refusal is one line and exit 2, before anything
is read or written.

>>> print(overwrite_problem(["sample_logs/pagat.json"], inputs=["sample_logs/"]))
the output sample_logs/pagat.json is also an input: write to another file
>>> print(overwrite_problem(["w.duckdb.wal"], warehouses=["w.duckdb"]))
the output w.duckdb.wal is the write-ahead log of the warehouse w.duckdb: write to another file
>>> overwrite_problem(["pagat.html"], inputs=["sample_logs/pagat.json"]) is None
True
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from twentynine.options import fail
from twentynine.reports.warehouse import companions

PathLike = str | Path


def overwrite_problem(
    outputs: Iterable[PathLike] = (),
    *,
    folders: Iterable[PathLike] = (),
    inputs: Iterable[PathLike] = (),
    warehouses: Iterable[PathLike] = (),
) -> str | None:
    """Why writing ``outputs`` (files) or into ``folders`` would destroy one of ``inputs``
    (files or folders, as the command was given them) or of ``warehouses``; None when it
    would not. ``-`` (standard input or output) is never a file here."""
    kept = [_Kept(path, "input") for path in _files(inputs)]
    for db in warehouses:
        wal, temporary = companions(db)
        kept += [_Kept(Path(db), "warehouse"), _Kept(wal, "wal", db), _Kept(temporary, "tmp", db)]
    for output in (o for o in outputs if str(o) != "-"):
        for one in kept:
            if one.overwritten_by(output):
                return f"the output {output} {one.described(output)}: write to another file"
    for folder in folders:
        for one in kept:
            if one.overwritten_by(folder):
                return (
                    f"the output folder {folder} {one.described(folder)}: write to another folder"
                )
            if _inside(one.path, folder):
                return f"the output folder {folder} holds {one.name}: write to another folder"
    return None


def refuse_overwrite(
    outputs: Iterable[PathLike] = (),
    *,
    folders: Iterable[PathLike] = (),
    inputs: Iterable[PathLike] = (),
    warehouses: Iterable[PathLike] = (),
) -> None:
    """:func:`overwrite_problem`, as the command line says it: one line, exit 2."""
    problem = overwrite_problem(outputs, folders=folders, inputs=inputs, warehouses=warehouses)
    if problem is not None:
        raise fail(problem)


class _Kept(NamedTuple):
    """A file or folder no output may replace: an input, the warehouse, or DuckDB's ``wal``
    or ``tmp`` beside the warehouse ``db``."""

    path: Path
    kind: str
    db: PathLike = ""

    def overwritten_by(self, output: PathLike) -> bool:
        return _same(output, self.path) or (self.kind == "tmp" and _inside(output, self.path))

    @property
    def name(self) -> str:
        return {
            "input": f"the input {self.path}",
            "warehouse": f"the warehouse {self.path}",
            "wal": f"the write-ahead log of the warehouse {self.db}",
            "tmp": f"the temporary folder of the warehouse {self.db}",
        }[self.kind]

    def described(self, output: PathLike) -> str:
        if self.kind == "input":
            return "is also an input" + ("" if str(output) == str(self.path) else f" ({self.path})")
        return f"is in {self.name}" if self.kind == "tmp" else f"is {self.name}"


def _files(inputs: Iterable[PathLike]) -> list[Path]:
    """The files the command reads from ``inputs`` (a folder's as the readers find them)."""
    given = [path for path in inputs if str(path) != "-"]
    if not given:
        return []
    from twentynine.importers.formats import expand_inputs  # only for a command that reads

    return expand_inputs(given)


def _identity(path: PathLike) -> tuple[object, ...]:
    """The file a path names: its device and inode where it exists, else its real path."""
    try:
        status = Path(path).stat()
    except (OSError, ValueError):
        return ("path", os.path.realpath(path))
    return ("file", status.st_dev, status.st_ino)


def _same(a: PathLike, b: PathLike) -> bool:
    return _identity(a) == _identity(b)


def _inside(path: PathLike, folder: PathLike) -> bool:
    """Whether ``path`` is ``folder`` or lies in it (links followed)."""
    return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))
