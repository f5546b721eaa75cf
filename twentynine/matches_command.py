"""``twentynine matches``: the matches of some files, or of a warehouse, one numbered row each.

The number and the id of a row are what ``twentynine replay PATH --match`` takes. Registered
on the app by :mod:`twentynine.cli`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from twentynine.cli import _read_inputs
from twentynine.importers.canonical import Match, Record
from twentynine.options import FromOption, TableFormat, TableFormatOption, fail, named_file
from twentynine.replay import audit_match
from twentynine.reports.warehouse.errors import WarehouseError
from twentynine.reports.warehouse.listing import match_row, match_table, run_matches
from twentynine.reports.warehouse.rows import preset_of
from twentynine.schema.cards import Seat
from twentynine.schema.dates import started_at
from twentynine.textout import error_line, print_result, shown_name, unreadable_lines


def matches_command(
    paths: Annotated[
        list[str] | None,
        typer.Argument(metavar="[PATH]...", help="Files or folders of match logs; - is stdin."),
    ] = None,
    db: Annotated[
        Path | None,
        typer.Option(
            "--db",
            metavar="FILE",
            help="List the matches stored in this warehouse.",
            parser=named_file,
        ),
    ] = None,
    output: TableFormatOption = TableFormat.table,
    from_format: FromOption = None,
) -> None:
    """List matches: number, id, date, rules, players, deals, result and findings.

    The number or the id goes to `twentynine replay PATH --match`. Exit status: 0 listed,
    2 an input could not be read.

    \b
    Example: twentynine matches sample_logs/league.jsonl
    """
    if (db is None) == (not paths):
        raise fail("give files or folders of match logs, or --db FILE (not both)")
    # a table shows each name as a terminal does (a long one cut); CSV and JSON keep it whole
    shown = shown_name if output is TableFormat.table else str
    if db is not None:
        try:
            table = run_matches(db=db, shown=shown)
        except WarehouseError as exc:
            raise fail(str(exc), exc.exit_code) from None
        print_result(table, output.value)
        return
    rows: list[tuple[Any, ...]] = []
    unreadable: list[str] = []
    for record in _read_inputs(paths or [], from_format):
        if record.match is None:
            unreadable.extend(unreadable_lines(record))
            continue
        rows.append(_row(len(rows) + 1, record, shown))
    print_result(match_table(rows), output.value)
    for line in unreadable:
        typer.echo(error_line(line), err=True)
    if unreadable:
        raise typer.Exit(2)


def _row(number: int, record: Record[Match], shown: Callable[[str], str]) -> tuple[Any, ...]:
    match = record.match
    assert match is not None
    audited = audit_match(match)
    players = [match.players[seat] for seat in Seat]
    names = [shown(p if isinstance(p, str) else p.name) for p in players]
    score = {team.value: points for team, points in audited.score.items()}
    winner = audited.winner.value if audited.winner else None
    return match_row(
        number,
        audited.match_id,
        started_at(match.meta),
        preset_of(match.rules),
        names,
        len(match.deals),
        score,
        winner,
        len(audited.findings),
    )
