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

import json
from collections.abc import Sequence
from contextlib import suppress
from typing import Any, Final, NamedTuple

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


RECORD_KEY: Final = ddl.ANALYSED_KEY + "{match_id}"
"""The ``warehouse_info`` key under which a match's annotations keep what they were worked
out with (``analyze --resume``)."""


class StoredRun(NamedTuple):
    """What the stored annotations of a match were worked out with: the configuration
    (:data:`analysis.run.RUN_OPTIONS` by key; None when not recorded: annotations stored
    without one, or by a version before the records), and the deals they cover (None:
    every deal)."""

    config: dict[str, Any] | None
    deals: frozenset[int] | None

    def covers(self, deal: int | None) -> bool:
        """Whether deal ``deal`` (every deal when None) is analysed."""
        if self.deals is None:
            return True
        return deal is not None and deal in self.deals


def parse_record(value: str) -> StoredRun:
    """A stored record's text as a :class:`StoredRun`.

    >>> parse_record('{"seed":3,"deals":[2]}')
    StoredRun(config={'seed': 3}, deals=frozenset({2}))
    """
    config = json.loads(value)
    deals = config.pop("deals", None)
    return StoredRun(config, None if deals is None else frozenset(int(d) for d in deals))


def stored_run(wh: Warehouse, match_id: str) -> StoredRun | None:
    """What the stored annotations of ``match_id`` were worked out with (its record, or,
    when none was kept, the deals that have annotations, the configuration not known);
    None when it has none."""
    row = wh.con.execute(
        "SELECT value FROM warehouse_info WHERE key = ?", [RECORD_KEY.format(match_id=match_id)]
    ).fetchone()
    if row is not None:
        return parse_record(str(row[0]))
    if not _has_annotations(wh):
        return None
    deals = wh.con.execute(
        "SELECT DISTINCT deal FROM annotations WHERE match_id = ?", [match_id]
    ).fetchall()
    return StoredRun(None, frozenset(int(d) for (d,) in deals)) if deals else None


def stored_configs(wh: Warehouse) -> list[tuple[str, dict[str, Any]]]:
    """Every recorded configuration of the warehouse's matches, with the first match (by
    id) that holds it, in the order of those ids."""
    rows = wh.con.execute(
        "SELECT min(key), value FROM warehouse_info WHERE starts_with(key, ?) "
        "GROUP BY value ORDER BY 1",
        [ddl.ANALYSED_KEY],
    ).fetchall()
    seen: list[tuple[str, dict[str, Any]]] = []
    for key, value in rows:
        config = parse_record(str(value)).config
        assert config is not None
        if all(config != other for _, other in seen):
            seen.append((str(key).removeprefix(ddl.ANALYSED_KEY), config))
    return seen


def _has_annotations(wh: Warehouse) -> bool:
    row = wh.con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'annotations'"
    ).fetchone()
    return bool(row and row[0])


def replace_annotations(
    wh: Warehouse,
    match: MatchLog,
    notes: Sequence[Annotation],
    *,
    record: str | None = None,
    deal: int | None = None,
) -> int:
    """Replace all the annotations of the stored ``match`` by ``notes`` (worked out from
    ``match``) in one transaction; their count. ``record`` (:func:`analysis.run.run_record`)
    says what they were worked out with (:func:`stored_run` gives it back), kept in the same
    transaction. ``deal``: the notes are deal ``deal``'s only: they replace that deal's,
    and the match's other deals keep theirs when they were worked out with the same
    ``record``; else (another configuration, or none recorded) the match's whole analysis
    is replaced, so that a match's annotations always come from one configuration.

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
    value = record
    whole = deal is None
    if deal is not None and record is not None:
        before = stored_run(wh, match_id)
        same = before is not None and before.config == parse_record(record).config
        whole = not same  # another configuration's annotations go, the deal's stay
        covered = before.deals if same and before is not None else frozenset()
        if covered is not None:
            deals = covered | {deal}
            if deals != frozenset(range(1, len(match.deals) + 1)):
                value = json.dumps(
                    {**json.loads(record), "deals": sorted(deals)}, separators=(",", ":")
                )
    try:
        con.begin()
        if whole:
            con.execute("DELETE FROM annotations WHERE match_id = ?", [match_id])
        else:
            con.execute("DELETE FROM annotations WHERE match_id = ? AND deal = ?", [match_id, deal])
        con.execute("DELETE FROM warehouse_info WHERE key = ?", [key])
        if value is not None:
            con.execute("INSERT INTO warehouse_info VALUES (?, ?)", [key, value])
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
