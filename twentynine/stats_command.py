"""``twentynine stats``: player statistics, or the same figures by role, with their intervals.

Registered on the app by :mod:`twentynine.cli`; every figure is defined in docs/warehouse.md.
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from twentynine.options import DbOption, Preset, TableFormat, TableFormatOption, fail
from twentynine.reports.warehouse import DEFAULT_DB
from twentynine.reports.warehouse.errors import WarehouseError
from twentynine.reports.warehouse.stats import StatsRequest, intervals_beside, run_stats_report
from twentynine.textout import result_text


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
    since: Annotated[
        str | None,
        typer.Option("--since", metavar="YYYY-MM-DD", help="Only matches begun on or after it."),
    ] = None,
    sort: Annotated[
        str | None,
        typer.Option("--sort", metavar="COLUMN", help="Order by this column (highest first)."),
    ] = None,
    columns: Annotated[
        str | None,
        typer.Option("--columns", metavar="A,B,...", help="Only these columns (comma-separated)."),
    ] = None,
    output: TableFormatOption = TableFormat.table,
) -> None:
    """Player statistics with a 95% interval beside each rate (definitions in docs/warehouse.md).

    \b
    Example: twentynine stats --db club.duckdb --min-deals 20 --sort make_rate
    """
    try:
        since_date = dt.date.fromisoformat(since) if since is not None else None
    except ValueError:
        raise fail(f"--since {since!r}: not a date; write YYYY-MM-DD, e.g. 2026-11-01") from None
    request = StatsRequest(
        player=player,
        by_role=by is StatsBy.role,
        min_deals=min_deals,
        preset=preset.value if preset is not None else None,
        since=since_date,
        sort=sort,
        columns=tuple(c.strip() for c in columns.split(",") if c.strip()) if columns else (),
    )
    try:
        report = run_stats_report(request, db=db)
    except WarehouseError as exc:
        raise fail(str(exc), exc.exit_code) from None
    result = report.result
    if output is TableFormat.table:
        result = intervals_beside(result)
        if player is not None:
            result = result.transposed()
    typer.echo(result_text(result, output.value))
    for note in report.notes:
        typer.echo(f"note: {note}", err=True)
