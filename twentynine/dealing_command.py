"""``twentynine dealing``: do a set of logs' deals look like fair shuffles?

The walk: the importers read the matches, :mod:`analysis.dealing_audit` counts where each
card landed and tests the counts; this module prints the figures. cli.py registers
:func:`dealing_command`.
"""

from __future__ import annotations

from typing import Annotated

import orjson
import typer

from twentynine.analysis.dealing_audit import LEVEL, SHOWN, DealCounter
from twentynine.cli import _read_inputs, say_unreadable
from twentynine.importers.errors import no_logs_found
from twentynine.options import FromOption, OutputFormat, OutputOption, fail
from twentynine.schema.words import plural


def dealing_command(
    paths: Annotated[
        list[str],
        typer.Argument(metavar="PATH", help="Files or folders of match logs; - is stdin."),
    ],
    level: Annotated[
        float,
        typer.Option("--level", metavar="ALPHA", help="Reject fair shuffles below this p-value."),
    ] = LEVEL,
    shown: Annotated[
        int, typer.Option("--cells", min=0, metavar="N", help="The cells most off to name.")
    ] = SHOWN,
    output: OutputOption = OutputFormat.text,
    from_format: FromOption = None,
) -> None:
    """Test whether the logs' deals look like fair shuffles: a chi-square test on where each
    card landed, in each seat's first and second four (docs/analysis.md, "The dealing
    audit").

    Exit status: 0 no evidence against fair shuffles, 1 rejected at the level, 2 an input
    could not be read or no deal had every card.

    \b
    Example: twentynine dealing archive.jsonl --level 0.001 --format json
    """
    if not 0 < level < 1:
        raise fail(f"--level: {level:g} is not a level; give a number between 0 and 1, e.g. 0.01")
    counter = DealCounter()
    read = unreadable = 0
    for record in _read_inputs(paths, from_format, fast=False):
        if record.match is None:
            unreadable += 1
            say_unreadable(record)
            continue
        read += 1
        for deal in record.match.deals:
            counter.add(deal)
    if not read:
        if not unreadable:  # only empty files, each warned of
            raise fail(no_logs_found(paths))
        raise typer.Exit(2)  # each unreadable input has had its line
    audit = counter.audit(level, shown)
    if not audit.deals:
        raise fail(
            f"no deal with every card known in {plural(read, 'match')}: the test needs "
            "the 32 cards of a deal (docs/match-log.md, 'hands')"
        )
    if output is OutputFormat.json:
        typer.echo(orjson.dumps({"matches": read, **audit.as_json()}).decode())
    else:
        typer.echo(f"{plural(read, 'match')}: " + "\n".join(audit.lines()))
    if unreadable:
        raise typer.Exit(2)
    if audit.rejected:
        raise typer.Exit(1)
