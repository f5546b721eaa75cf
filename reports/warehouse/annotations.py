"""Storing annotations: a match's annotations replaced whole, in one transaction, and only
for the match they describe.

The warehouse is handed :class:`analysis.annotate.Annotation` records with the match they
were worked out from (it never reads files): :func:`replace_annotations` stores them only
when that match is the one stored under its id, the same content
(``matches.content_hash``), and refuses them otherwise (:func:`annotations_refusal`): a
match the warehouse refused, or another match under a stored id, gets none. It deletes what
the match had and inserts the new ones in one transaction, so analysing a match again never
duplicates its rows, and a run stopped at any moment leaves every match's annotations as
they were or as they are now, never half.

>>> import tempfile
>>> from pathlib import Path
>>> from twentynine.analysis.annotate import Annotation
>>> from twentynine.replay import random_match
>>> from twentynine.reports.warehouse.store import open_warehouse
>>> from twentynine.schema import Rules
>>> log = random_match(Rules.preset("pagat"), seed=1)
>>> note = Annotation(log.match_id, 1, 20, "N", "card", "exact", "7H", "JH", 10.0, 14.0, 4.0,
...     "card_points", None, None, None, None, "7H gave away 4 points", "{}", 0)
>>> with open_warehouse(Path(tempfile.mkdtemp()) / "w.duckdb") as wh:
...     _ = wh.load([log])
...     first = replace_annotations(wh, log, [note])
...     again = replace_annotations(wh, log, [note, note._replace(action=21)])
...     rows = wh.query("SELECT count(*) FROM annotations").rows
>>> first, again, rows
(1, 2, [(2,)])
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from typing import Final

import duckdb
import pyarrow as pa

from twentynine.analysis.annotate import FIELDS, Annotation
from twentynine.reports.warehouse import ddl
from twentynine.reports.warehouse.errors import AnnotationsRefusedError, LoadFailedError
from twentynine.reports.warehouse.readback import read_match
from twentynine.reports.warehouse.store import Warehouse
from twentynine.schema.fastlog import content_fingerprint
from twentynine.schema.log import MatchLog


def annotations_table(notes: Sequence[Annotation]) -> pa.Table:
    """The records as an Arrow table with the ``annotations`` table's schema."""
    schema = ddl.arrow_schema("annotations")
    columns = {name: [getattr(n, name) for n in notes] for name in FIELDS}
    return pa.Table.from_pydict(columns, schema=schema)


def annotations_refusal(wh: Warehouse, match: MatchLog) -> str | None:
    """Why annotations worked out from ``match`` may not be stored in ``wh``: no match is
    stored under its id (the warehouse refused it), or the one stored has other content (the
    annotations would describe deals that are not the stored ones); None when they may.

    The content is told by ``matches.content_hash``; a match stored before schema version 4
    has none, and is then compared as the warehouse rebuilds it (:func:`read_match`).
    """
    row = wh.con.execute(
        "SELECT source, source_line, content_hash FROM matches WHERE match_id = ?",
        [match.match_id],
    ).fetchone()
    if row is None:
        return f"match {match.match_id!r} is not stored"
    source, line, stored = row
    if stored is not None:
        same = stored == content_fingerprint(match)
    else:
        rebuilt = read_match(wh, match.match_id)
        same = rebuilt.model_dump(exclude_none=True) == match.model_dump(exclude_none=True)
    if same:
        return None
    where = (source or "<match>") if line is None else f"{source}:{line}"
    return f"match {match.match_id!r} is stored (from {where}) with other content"


RECORD_KEY: Final = "analysed:{match_id}"
"""The ``warehouse_info`` key under which a match's annotations keep what they were worked
out with (``analyze --resume``)."""


def analysed_record(wh: Warehouse, match_id: str) -> str | None:
    """What the stored annotations of ``match_id`` were worked out with, as
    :func:`replace_annotations` was given it (None: not known, or none stored)."""
    row = wh.con.execute(
        "SELECT value FROM warehouse_info WHERE key = ?", [RECORD_KEY.format(match_id=match_id)]
    ).fetchone()
    return None if row is None else str(row[0])


def replace_annotations(
    wh: Warehouse,
    match: MatchLog,
    notes: Sequence[Annotation],
    *,
    record: str | None = None,
    deal: int | None = None,
) -> int:
    """Replace all the annotations of the stored ``match`` by ``notes`` (worked out from
    ``match``) in one transaction; their count. ``record`` says what they were worked out
    with (:func:`analysed_record` gives it back), kept in the same transaction; ``deal``:
    only that deal's annotations are replaced (the match's record is then kept only when
    it is ``record``).

    Raises :class:`~reports.warehouse.errors.AnnotationsRefusedError` when ``match`` is not
    the match stored under its id (:func:`annotations_refusal`), ``ValueError`` for a note of
    another match, and :class:`~reports.warehouse.errors.LoadFailedError` when DuckDB refuses
    them; the match's earlier annotations are kept in each case.
    """
    con = wh.con
    match_id = match.match_id
    stray = {n.match_id for n in notes} - {match_id}
    if stray:
        raise ValueError(f"annotations of {sorted(stray)} given for match {match_id!r}")
    refusal = annotations_refusal(wh, match)
    if refusal is not None:
        raise AnnotationsRefusedError(wh.name, f"{refusal}: its annotations are not stored")
    if deal is not None and {n.deal for n in notes} - {deal}:
        raise ValueError(f"annotations of other deals given for deal {deal} of {match_id!r}")
    table = annotations_table(notes)
    key = RECORD_KEY.format(match_id=match_id)
    try:
        con.begin()
        if deal is None:
            con.execute("DELETE FROM annotations WHERE match_id = ?", [match_id])
            con.execute("DELETE FROM warehouse_info WHERE key = ?", [key])
        else:
            con.execute("DELETE FROM annotations WHERE match_id = ? AND deal = ?", [match_id, deal])
            con.execute(
                "DELETE FROM warehouse_info WHERE key = ? AND value IS DISTINCT FROM ?",
                [key, record],
            )
        if record is not None and deal is None:
            con.execute("INSERT INTO warehouse_info VALUES (?, ?)", [key, record])
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
