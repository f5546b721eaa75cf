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

from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from twentynine.analysis.annotate import FIELDS, Annotation
from twentynine.analysis.run import config_key, config_words
from twentynine.reports.warehouse.annotations import parse_record, stored_run
from twentynine.reports.warehouse.ddl import ANALYSED_KEY
from twentynine.reports.warehouse.store import Warehouse
from twentynine.schema.words import plural

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


UNRECORDED: Final = "unrecorded"
"""The id of the matches whose annotations were stored without their options."""


class Configuration(NamedTuple):
    """The options some matches' annotations were worked out with: its number in a list
    (from 1), its short id (:func:`~analysis.run.config_key`; :data:`UNRECORDED` when not
    recorded), in words, and the ids of those matches."""

    number: int
    key: str
    words: str
    match_ids: tuple[str, ...]
    config: dict[str, Any] | None = None
    """The record's options (None: not recorded)."""

    def named(self, keys: Sequence[str] | None = None) -> str:
        """The configuration as a one-line list names it: number, id, options (only
        ``keys`` when given), matches.

        >>> Configuration(2, "0a1b2c3d", "--seed 3", ("m1",), {"seed": 3}).named()
        '2 [0a1b2c3d] --seed 3 (1 match)'
        """
        words = self.words
        if keys is not None and self.config is not None:
            words = config_words(self.config, keys)
        return f"{self.number} [{self.key}] {words} ({plural(len(self.match_ids), 'match')})"


def configurations(wh: Warehouse) -> list[Configuration]:
    """The configurations the annotations of the matches the connection sees (a report's
    scope: :func:`~reports.html.players.scope_to`) were worked out with, most matches first
    (then by words), numbered in that order; matches whose options were not recorded come
    last, as ``options not recorded``. Read from the file's own ``annotations``: a view that
    narrows those (``report players --run``) changes nothing here.

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
        "SELECT m.match_id, i.value FROM matches m JOIN warehouse_info i "
        "ON i.key = $prefix || m.match_id ORDER BY m.match_id",
        {"prefix": ANALYSED_KEY},
    ).rows
    found: dict[str, tuple[dict[str, Any], list[str]]] = {}
    for match_id, value in rows:
        config = parse_record(str(value)).config or {}
        found.setdefault(config_key(config), (config, []))[1].append(str(match_id))
    catalog = str(wh.query("SELECT current_database()").rows[0][0]).replace('"', '""')
    unrecorded = [
        str(row[0])
        for row in wh.query(
            f'SELECT DISTINCT a.match_id FROM "{catalog}".main.annotations a '
            "JOIN matches m USING (match_id) WHERE $prefix || a.match_id NOT IN "
            "(SELECT key FROM warehouse_info) ORDER BY 1",
            {"prefix": ANALYSED_KEY},
        ).rows
    ]
    groups = [
        Configuration(0, key, config_words(config), tuple(ids), config)
        for key, (config, ids) in found.items()
    ]
    groups.sort(key=lambda c: (-len(c.match_ids), c.words, c.key))
    if unrecorded:
        groups.append(Configuration(0, UNRECORDED, "options not recorded", tuple(unrecorded)))
    return [c._replace(number=number) for number, c in enumerate(groups, start=1)]


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
