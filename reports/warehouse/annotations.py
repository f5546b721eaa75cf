"""Storing annotations: a match's annotations replaced whole, in one transaction.

The warehouse is handed :class:`analysis.annotate.Annotation` records (it never reads
files): :func:`replace_annotations` deletes what a match had and inserts the new ones in one
transaction, so analysing a match again never duplicates its rows, and a run stopped at any
moment leaves every match's annotations as they were or as they are now, never half.

>>> import tempfile
>>> from pathlib import Path
>>> from twentynine.analysis.annotate import Annotation
>>> from twentynine.reports.warehouse.store import open_warehouse
>>> note = Annotation("m1", 1, 20, "N", "card", "exact", "7H", "JH", 10.0, 14.0, 4.0,
...     "card_points", None, None, None, None, "7H gave away 4 points", "{}", 0)
>>> with open_warehouse(Path(tempfile.mkdtemp()) / "w.duckdb") as wh:
...     first = replace_annotations(wh, "m1", [note])
...     again = replace_annotations(wh, "m1", [note, note._replace(action=21)])
...     rows = wh.query("SELECT count(*) FROM annotations").rows
>>> first, again, rows
(1, 2, [(2,)])
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress

import duckdb
import pyarrow as pa

from twentynine.analysis.annotate import FIELDS, Annotation
from twentynine.reports.warehouse import ddl
from twentynine.reports.warehouse.errors import LoadFailedError
from twentynine.reports.warehouse.store import Warehouse


def annotations_table(notes: Sequence[Annotation]) -> pa.Table:
    """The records as an Arrow table with the ``annotations`` table's schema."""
    schema = ddl.arrow_schema("annotations")
    columns = {name: [getattr(n, name) for n in notes] for name in FIELDS}
    return pa.Table.from_pydict(columns, schema=schema)


def replace_annotations(wh: Warehouse, match_id: str, notes: Sequence[Annotation]) -> int:
    """Replace all of ``match_id``'s annotations by ``notes`` in one transaction; their count.

    Raises :class:`~reports.warehouse.errors.LoadFailedError` when DuckDB refuses them (the
    match's earlier annotations are then kept).
    """
    con = wh.con
    stray = {n.match_id for n in notes} - {match_id}
    if stray:
        raise ValueError(f"annotations of {sorted(stray)} given for match {match_id!r}")
    table = annotations_table(notes)
    try:
        con.begin()
        con.execute("DELETE FROM annotations WHERE match_id = ?", [match_id])
        if notes:
            con.register("_new_annotations", table)
            try:
                con.execute("INSERT INTO annotations SELECT * FROM _new_annotations")
            finally:
                con.unregister("_new_annotations")
        con.commit()
    except duckdb.Error as exc:
        with suppress(duckdb.Error):  # no transaction was open
            con.rollback()
        raise LoadFailedError(wh.name, str(exc).strip().splitlines()[0]) from None
    return len(notes)
