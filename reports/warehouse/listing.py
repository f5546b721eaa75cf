"""The list of matches that ``twentynine matches`` prints: one row per match, numbered.

The same columns come from files (audited on the spot) and from a warehouse (its ``matches``
and ``match_players`` tables); :func:`match_row` shapes a row for both, so a number or id
read in the list can be handed to ``twentynine replay --match``.

>>> row = match_row(3, "club-7", None, "pagat", ["Asha", "Bikash", "Chandra", "Deepa"], 9,
...                 {"NS": 6, "EW": -2}, "NS", 0)
>>> row[:2], row[4], row[6]
((3, 'club-7'), 'Asha & Chandra v Bikash & Deepa', 'NS won (NS 6, EW -2)')
>>> nearest_ids("club-8", ["club-7", "league-1", "club-17"])
['club-7', 'club-17']
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TypeVar

from twentynine.reports.warehouse import DEFAULT_DB
from twentynine.schema.dates import date_text
from twentynine.schema.log import MatchLog

if TYPE_CHECKING:  # the store imports DuckDB: pick_match, which solve uses, needs none of it
    from twentynine.reports.warehouse.store import QueryResult, Warehouse
from twentynine.schema.words import plural

MATCH_COLUMNS: Final = ("no", "match_id", "date", "rules", "players", "deals", "result", "findings")
"""The listing's columns; ``no`` counts from 1 in the order read (or stored)."""

T = TypeVar("T")

_TYPES: Final = (
    "INTEGER",
    "VARCHAR",
    "VARCHAR",
    "VARCHAR",
    "VARCHAR",
    "INTEGER",
    "VARCHAR",
    "INTEGER",
)


def match_row(
    number: int,
    match_id: str,
    started: dt.datetime | None,
    preset: str,
    names: Sequence[str],
    deals: int,
    score: Mapping[str, int],
    winner: str | None,
    findings: int,
) -> tuple[Any, ...]:
    """One listing row; ``names`` in seat order N, E, S, W and ``score`` keyed ``NS``, ``EW``.

    >>> match_row(1, "m", dt.datetime(2026, 11, 29, 13, 30), "bhoos", "NESW", 1,
    ...           {"NS": 0, "EW": 0}, None, 2)[2:]
    ('2026-11-29 13:30', 'bhoos', 'N & S v E & W', 1, 'no winner (NS 0, EW 0)', 2)
    >>> match_row(1, "m", dt.datetime(1, 1, 1), "bhoos", "NESW", 1, {"NS": 0, "EW": 0}, None, 0)[2]
    '0001-01-01 00:00'
    """
    date = date_text(started, minutes=True) if started is not None else "-"
    north, east, south, west = names
    players = f"{north} & {south} v {east} & {west}"
    figures = f"NS {score['NS']}, EW {score['EW']}"
    result = f"{winner} won ({figures})" if winner else f"no winner ({figures})"
    return (number, match_id, date, preset, players, deals, result, findings)


def match_table(rows: list[tuple[Any, ...]]) -> QueryResult:
    from twentynine.reports.warehouse.store import QueryResult

    """Rows of :func:`match_row` as a result ``format_result`` can print."""
    return QueryResult(MATCH_COLUMNS, _TYPES, rows)


def nearest_ids(wanted: str, known: Sequence[str], count: int = 5) -> list[str]:
    """The ids most like ``wanted``, most alike first (none when nothing is close)."""
    return difflib.get_close_matches(wanted, list(known), n=count, cutoff=0.5)


class MatchNotFoundError(LookupError):
    """``--match`` names no match of the input; ``str()`` is one line with the nearest ids."""


def pick_match(wanted: str | None, candidates: Iterable[tuple[str, T]]) -> T:
    """The candidate (``(match_id, item)`` pairs, in listing order) that ``wanted`` names.

    ``wanted`` is a match id, or else the number :func:`match_row` gives it (from 1); None
    takes the first. Raises :class:`MatchNotFoundError` naming the nearest ids.

    >>> pairs = [("club-7", "a"), ("club-9", "b"), ("2", "c")]
    >>> pick_match("club-9", pairs), pick_match("2", pairs), pick_match("1", pairs)
    ('b', 'c', 'a')
    >>> try:
    ...     pick_match("club-8", pairs)
    ... except MatchNotFoundError as exc:
    ...     print(exc)
    no match with id 'club-8' among 3 matches; nearest: club-9, club-7
    """
    seen: list[tuple[str, T]] = []
    for match_id, item in candidates:
        if wanted is None or match_id == wanted:
            return item
        seen.append((match_id, item))
    if wanted is not None and wanted.isdigit() and 1 <= int(wanted) <= len(seen):
        return seen[int(wanted) - 1][1]
    count = plural(len(seen), "match")
    if wanted is None:
        raise MatchNotFoundError(f"no match among {count}")
    message = f"no match with id {wanted!r} among {count}"
    if wanted.isdigit():
        message = f"no match number {wanted} or with that id among {count}"
    nearest = nearest_ids(wanted, [match_id for match_id, _ in seen])
    if nearest:
        raise MatchNotFoundError(f"{message}; nearest: {', '.join(nearest)}")
    raise MatchNotFoundError(f"{message} (`twentynine matches` lists them)")


_STORED: Final = """
SELECT m.match_id, m.started_at, m.preset,
    (SELECT list(mp.name ORDER BY strpos('NESW', mp.seat)) FROM match_players mp
        WHERE mp.match_id = m.match_id) AS names,
    m.deals, m.score_ns, m.score_ew, m.winner, m.errors + m.warnings AS findings,
    m.loaded_at, m.source, m.source_line
FROM matches m"""


def natural_key(text: str | None) -> tuple[tuple[int, int, str], ...]:
    """``text`` as people sort it: its runs of digits by their value (``game 2`` before
    ``game 10``), the rest as text.

    >>> sorted(["bhoos-7-10", "bhoos-7-2", "bhoos-7-1"], key=natural_key)
    ['bhoos-7-1', 'bhoos-7-2', 'bhoos-7-10']
    """
    parts = re.split(r"(\d+)", text or "")
    return tuple((1, int(p), "") if p.isdigit() else (0, 0, p) for p in parts if p)


def _stored_order(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """Oldest first (matches with no date last), then in the order loaded: by load, file
    and line, then by id, numbers in names and ids in their natural order."""
    match_id, started, loaded, source, line = row[0], row[1], row[9], row[10], row[11]
    return (
        started is None,
        started or dt.datetime.min,
        loaded or dt.datetime.min,
        natural_key(source),
        line or 0,
        natural_key(match_id),
    )


def stored_matches(wh: Warehouse, shown: Callable[[str], str] = str) -> QueryResult:
    """Every stored match, oldest first (then in the order loaded), numbered from 1; each
    player's name as ``shown`` writes it (a terminal table cuts a long one)."""
    rows = [
        match_row(
            i,
            match_id,
            started,
            preset,
            [shown(name) for name in names],
            deals,
            {"NS": ns, "EW": ew},
            winner,
            findings,
        )
        for i, (match_id, started, preset, names, deals, ns, ew, winner, findings, *_) in (
            enumerate(sorted(wh.query(_STORED).rows, key=_stored_order), 1)
        )
    ]
    return match_table(rows)


def run_matches(*, db: str | Path = DEFAULT_DB, shown: Callable[[str], str] = str) -> QueryResult:
    """``twentynine matches --db FILE``: the stored matches, read-only (names as ``shown``
    writes them)."""
    from twentynine.reports.warehouse.store import open_warehouse

    with open_warehouse(db, read_only=True) as wh:
        return stored_matches(wh, shown)


def stored_match(wanted: str | None, *, db: str | Path = DEFAULT_DB) -> MatchLog:
    """The stored match that ``wanted`` names (an id or a number of :func:`stored_matches`).

    Raises :class:`MatchNotFoundError`, and the errors of
    :func:`~reports.warehouse.store.open_warehouse`.
    """
    from twentynine.reports.warehouse.store import open_warehouse

    with open_warehouse(db, read_only=True) as wh:
        ids = [row[1] for row in stored_matches(wh).rows]
        from twentynine.reports.warehouse.readback import read_match

        return read_match(wh, pick_match(wanted, ((match_id, match_id) for match_id in ids)))
