"""``twentynine stats``: player statistics, or the same figures by role, with their intervals.

Registered on the app by :mod:`twentynine.cli`; every figure is defined in docs/warehouse.md.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Final

import typer

from twentynine.options import (
    DbOption,
    Preset,
    SinceOption,
    TableFormat,
    TableFormatOption,
    fail,
)
from twentynine.reports.warehouse import DEFAULT_DB
from twentynine.reports.warehouse.errors import WarehouseError
from twentynine.reports.warehouse.stats import StatsRequest, intervals_beside, run_stats_report
from twentynine.reports.warehouse.store import QueryResult
from twentynine.schema.names import cut
from twentynine.textout import print_result, shown_name

FIRST_COLUMNS: Final = {
    "player": ("name", "deals", "calls", "make_rate", "break_rate"),
    "role": ("role", "meaning", "make_rate", "break_rate"),
}
"""What a table shows by default: the columns a player reads first (``--columns all`` shows
every one); ``player_id`` joins them when some player's id is not their name."""
NARROWEST: Final = 80  # the table fits the terminal, and at least this many columns
SHORTEST_NAME: Final = 8  # a name is never cut shorter, whatever the width
NAME_COLUMNS: Final = ("player_id", "name")  # cut as a name is (textout.shown_name)


class StatsBy(StrEnum):
    player = "player"
    role = "role"


def stats_command(
    db: DbOption = Path(DEFAULT_DB),
    player: Annotated[
        str | None,
        typer.Option(
            "--player", metavar="NAME", help="One player's figures (id or name, any case)."
        ),
    ] = None,
    by: Annotated[
        StatsBy,
        typer.Option(
            "--by", help="player, or role: auction position P1-P4 and caller, partner, defender."
        ),
    ] = StatsBy.player,
    min_deals: Annotated[
        int,
        typer.Option("--min-deals", min=1, metavar="N", help="Only rows with at least N deals."),
    ] = 1,
    preset: Annotated[
        Preset | None, typer.Option("--preset", help="Only matches of this preset.")
    ] = None,
    since: SinceOption = None,
    sort: Annotated[
        str | None,
        typer.Option("--sort", metavar="COLUMN", help="Order by this column (highest first)."),
    ] = None,
    columns: Annotated[
        str | None,
        typer.Option(
            "--columns",
            metavar="A,B,...",
            help="These columns (comma-separated), or all; a table shows the first few.",
        ),
    ] = None,
    output: TableFormatOption = TableFormat.table,
) -> None:
    """Player statistics with a 95% interval beside each rate (definitions in docs/warehouse.md).

    \b
    Example: twentynine stats --db club.duckdb --min-deals 20 --sort make_rate
    """
    wanted = () if columns in (None, "all") else tuple(c.strip() for c in columns.split(","))
    request = StatsRequest(
        player=player,
        by_role=by is StatsBy.role,
        min_deals=min_deals,
        preset=preset.value if preset is not None else None,
        since=since,
        sort=sort,
        columns=tuple(c for c in wanted if c),
    )
    try:
        report = run_stats_report(request, db=db)
    except WarehouseError as exc:
        raise fail(str(exc), exc.exit_code) from None
    result = report.result
    notes = list(report.notes)
    if output is TableFormat.table:
        result = intervals_beside(result)
        result = names_shown(result)
        if player is not None:
            result = result.transposed()
        elif columns is None:
            result, left_out = first_columns(result, by.value, sort)
            notes.append(f"{left_out} more columns with --columns all (docs/warehouse.md)")
            result = fitted(result, max(NARROWEST, shutil.get_terminal_size().columns))
        result = with_dashes(result)
    print_result(result, output.value)
    for note in notes:
        typer.echo(f"note: {note}", err=True)


def names_shown(result: QueryResult) -> QueryResult:
    """The table with each player's id and name as a terminal shows a name
    (:func:`textout.shown_name`: escaped, a long one cut).

    >>> from twentynine.reports.warehouse.store import QueryResult
    >>> r = QueryResult(("name", "deals"), ("VARCHAR", "INTEGER"), [("L" * 99, 3)])
    >>> names_shown(r).rows == [("L" * 31 + "…", 3)]
    True
    """
    at = [i for i, column in enumerate(result.columns) if column in NAME_COLUMNS]
    if not at:
        return result
    rows = [
        tuple(shown_name(v) if i in at and isinstance(v, str) else v for i, v in enumerate(row))
        for row in result.rows
    ]
    return replace(result, rows=rows)


def first_columns(result: QueryResult, by: str, sort: str | None = None) -> tuple[QueryResult, int]:
    """The columns of :data:`FIRST_COLUMNS` of a table, with the column it is sorted by, and
    how many were left out.

    >>> from twentynine.reports.warehouse.store import QueryResult
    >>> r = QueryResult(("player_id", "name", "deals", "calls", "make_rate", "break_rate", "x"),
    ...                 ("VARCHAR",) * 7, [("a", "a", 3, 1, "1.000", None, 0)])
    >>> first_columns(r, "player")[0].columns, first_columns(r, "player")[1]
    (('name', 'deals', 'calls', 'make_rate', 'break_rate'), 2)
    >>> first_columns(r, "player", sort="x")[0].columns[-1]
    'x'
    """
    keep = list(FIRST_COLUMNS[by])
    if sort is not None and sort in result.columns and sort not in keep:
        keep.append(sort)
    at = {name: i for i, name in enumerate(result.columns)}
    if by == "player" and any(row[at["player_id"]] != row[at["name"]] for row in result.rows):
        keep.insert(0, "player_id")
    chosen = [at[name] for name in keep]
    selected = QueryResult(
        tuple(result.columns[i] for i in chosen),
        tuple(result.types[i] for i in chosen),
        [tuple(row[i] for i in chosen) for row in result.rows],
    )
    return selected, len(result.columns) - len(keep)


def fitted(result: QueryResult, width: int) -> QueryResult:
    """The table with its names (or meanings) cut, ``…`` last, so that it is at most
    ``width`` characters wide (never shorter than :data:`SHORTEST_NAME`).

    >>> from twentynine.reports.warehouse.store import QueryResult
    >>> r = QueryResult(("name", "deals"), ("VARCHAR", "INTEGER"), [("Alexandria Ocasio", 3)])
    >>> fitted(r, 17).rows
    [('Alexandri…', 3)]
    """
    text = next((c for c in ("name", "meaning") if c in result.columns), None)
    if text is None or not result.rows:
        return result
    at = result.columns.index(text)
    widths = [
        max(len(name), *(len(_cell(row[i])) for row in result.rows))
        for i, name in enumerate(result.columns)
    ]
    over = sum(widths) + 2 * (len(widths) - 1) - width
    if over <= 0:
        return result
    room = max(SHORTEST_NAME, widths[at] - over, len(text))

    rows = [
        tuple(cut(v, room) if i == at and isinstance(v, str) else v for i, v in enumerate(row))
        for row in result.rows
    ]
    return replace(result, rows=rows)


def _cell(value: object) -> str:
    """A value as the table writes it (floats to 3 places), for its width."""
    if value is None:
        return "-"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def with_dashes(result: QueryResult) -> QueryResult:
    """Empty figures (no denominator: no calls, no defences) as ``-`` rather than NULL.

    >>> from twentynine.reports.warehouse.store import QueryResult
    >>> with_dashes(QueryResult(("a",), ("DOUBLE",), [(None,), (0.5,)])).rows
    [('-',), (0.5,)]
    """
    rows = [tuple("-" if v is None else v for v in row) for row in result.rows]
    return replace(result, rows=rows)
