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

from collections import Counter
from typing import Final, NamedTuple

from twentynine.analysis.annotate import FIELDS, Annotation
from twentynine.analysis.run import config_words
from twentynine.reports.warehouse.annotations import parse_record, stored_run
from twentynine.reports.warehouse.ddl import ANALYSED_KEY
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


class Coverage(NamedTuple):
    """What a match's stored annotations cover: the deals analysed (None: every deal) and
    the options they were worked out with, in words (empty when not recorded)."""

    deals: frozenset[int] | None
    options: str

    def covers(self, deal: int) -> bool:
        """Whether deal ``deal`` (from 1) was analysed."""
        return self.deals is None or deal in self.deals


def read_coverage(wh: Warehouse, match_id: str) -> Coverage | None:
    """What the stored annotations of ``match_id`` cover (:class:`Coverage`); None when the
    match was not analysed.

    >>> import tempfile
    >>> from pathlib import Path
    >>> from twentynine.reports.warehouse.store import open_warehouse
    >>> with open_warehouse(Path(tempfile.mkdtemp()) / "w.duckdb") as wh:
    ...     read_coverage(wh, "any") is None
    True
    """
    run = stored_run(wh, match_id)
    if run is None:
        return None
    return Coverage(run.deals, "" if run.config is None else config_words(run.config))


def configurations(wh: Warehouse) -> list[tuple[str, int]]:
    """The configurations the annotations of the matches the connection sees (a report's
    scope) were worked out with, in words, each with its count of matches, most first;
    matches whose options were not recorded come last, as ``options not recorded``.

    >>> import tempfile
    >>> from pathlib import Path
    >>> from twentynine.reports.warehouse.store import open_warehouse
    >>> with open_warehouse(Path(tempfile.mkdtemp()) / "w.duckdb") as wh:
    ...     configurations(wh)
    []
    """
    if not has_table(wh, "annotations"):
        return []
    rows = wh.query(
        "SELECT i.value, count(*) FROM matches m JOIN warehouse_info i "
        "ON i.key = $prefix || m.match_id GROUP BY 1",
        {"prefix": ANALYSED_KEY},
    ).rows
    counts: Counter[str] = Counter()
    for value, matches in rows:
        config = parse_record(str(value)).config
        counts[config_words(config or {})] += int(matches)
    unrecorded = wh.query(
        "SELECT count(DISTINCT match_id) FROM annotations WHERE $prefix || match_id NOT IN "
        "(SELECT key FROM warehouse_info)",
        {"prefix": ANALYSED_KEY},
    ).rows[0][0]
    found = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    if unrecorded:
        found.append(("options not recorded", int(unrecorded)))
    return found


class Analysed(NamedTuple):
    """A match's stored annotations (None: not analysed) and what they cover."""

    annotations: list[Annotation] | None
    coverage: Coverage | None


def read_analysed(wh: Warehouse, match_id: str) -> Analysed:
    """The annotations of ``match_id`` (:func:`read_annotations`) with their coverage
    (:func:`read_coverage`), as a report of the match shows them: a match analysed to no
    annotation (its record kept) has an empty list."""
    if not has_table(wh, "annotations"):
        return Analysed(None, None)
    coverage = read_coverage(wh, match_id)
    notes = read_annotations(wh, match_id)
    return Analysed(notes if coverage is None else notes or [], coverage)
