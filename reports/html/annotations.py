"""Annotations, as the warehouse's ``annotations`` table holds them (read-only).

The analysis writes the table (``twentynine analyze --db``); the reports only read it, by the
column names of the annotations contract. A warehouse without the table has not been
analyzed: :func:`read_annotations` then returns None and the reports say so.

>>> import tempfile
>>> from pathlib import Path
>>> from twentynine.reports.warehouse.store import open_warehouse
>>> with open_warehouse(Path(tempfile.mkdtemp()) / "w.duckdb") as wh:
...     read_annotations(wh, "any") is None
True
"""

from __future__ import annotations

from typing import Final

from twentynine.analysis.annotate import FIELDS, Annotation
from twentynine.reports.warehouse.store import Warehouse

_COLUMNS: Final = ", ".join(FIELDS)


def has_table(wh: Warehouse, name: str) -> bool:
    """True when the warehouse has a table or view called ``name``."""
    found = wh.query(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = $name",
        {"name": name},
    )
    return bool(found.rows[0][0])


def read_annotations(wh: Warehouse, match_id: str | None = None) -> list[Annotation] | None:
    """The annotations of one match (all matches when None), in deal and action order;
    None when the match was not analyzed: no ``annotations`` table, or none of its rows.

    An analyzed match always has some (the par of each deal), so none means not analyzed.
    """
    if not has_table(wh, "annotations"):
        return None
    where = "" if match_id is None else "WHERE match_id = $match"
    params = None if match_id is None else {"match": match_id}
    result = wh.query(
        f"SELECT {_COLUMNS} FROM annotations {where} "
        "ORDER BY match_id, deal, action NULLS LAST, kind, method",
        params,
    )
    return [Annotation(*row) for row in result.rows] or None
