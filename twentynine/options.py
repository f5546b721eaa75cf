"""The options, choices and exits that several commands share, each defined once.

Command modules import them from here (never from :mod:`twentynine.cli`, which loads the
command modules). Cheap to import: only Typer and the standard library, so that a command
pays for the libraries it uses and no others.

>>> fail("x.json: no match in it").exit_code
2
>>> [preset.value for preset in Preset][:2], InputFormat("bhoos-play").name
(['bangladesh', 'standard'], 'bhoos_play')
"""

from __future__ import annotations

import datetime as dt
import os
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Final

import typer

from twentynine.textout import error_line

EXIT_OK: Final = 0
EXIT_FINDINGS: Final = 1
EXIT_BAD_INPUT: Final = 2


def named_file(value: str | os.PathLike[str]) -> Path:
    """A FILE option as given (``-o FILE``, ``--db FILE``): a name that ends in a slash, ``.``
    or ``..`` names a folder (the path would drop the ending, and the file of the folder's
    name be written or opened).

    >>> named_file("out.html")
    PosixPath('out.html')
    >>> named_file("reports/")
    Traceback (most recent call last):
    typer._click.exceptions.BadParameter: reports/ names a folder: give the file's name in it
    """
    return Path(named_file_or_dash(value))


def named_file_or_dash(value: str | os.PathLike[str]) -> str:
    """An ``-o OUT`` that may be ``-`` (standard output), held to :func:`named_file`'s rule.

    >>> named_file_or_dash("-"), named_file_or_dash("all.jsonl")
    ('-', 'all.jsonl')
    """
    value = os.fspath(value)  # a default is given as its Path
    if not value:
        raise typer.BadParameter("an empty name: give the file's name")
    last = value.replace(os.sep, "/").rsplit("/", 1)[-1]
    if last in ("", ".", ".."):
        raise typer.BadParameter(f"{value} names a folder: give the file's name in it")
    return value


def iso_date(value: str | dt.date) -> dt.date:
    """A date option (``--since``, ``--until``), written YYYY-MM-DD.

    >>> iso_date("2026-11-01")
    datetime.date(2026, 11, 1)
    >>> iso_date("May 1")
    Traceback (most recent call last):
    typer._click.exceptions.BadParameter: 'May 1' is not a date: write YYYY-MM-DD, e.g. 2026-11-01
    """
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise typer.BadParameter(
            f"{value!r} is not a date: write YYYY-MM-DD, e.g. 2026-11-01"
        ) from None


def fail(message: str, code: int = EXIT_BAD_INPUT) -> typer.Exit:
    """Print one error line to standard error and return the exit to raise."""
    typer.echo(error_line(message), err=True)
    return typer.Exit(code)


class OutputFormat(StrEnum):
    """What a command that prints findings or rules writes: text for people, or JSON."""

    text = "text"
    json = "json"


class TableFormat(StrEnum):
    """How a command prints a table of rows (``reports.warehouse.export.format_result``)."""

    table = "table"
    csv = "csv"
    json = "json"


class Preset(StrEnum):
    """The rule presets (``schema.rules.PRESET_NAMES``), so that help lists them."""

    bangladesh = "bangladesh"
    standard = "standard"
    beginner = "beginner"
    pagat = "pagat"
    classic29 = "classic29"
    bhoos = "bhoos"


class InputFormat(StrEnum):
    """The input formats (``importers.formats.FORMAT_NAMES``), so that help lists them."""

    canonical = "canonical"
    bhoos_archive = "bhoos-archive"
    bhoos_play = "bhoos-play"
    text = "text"


OutputOption = Annotated[OutputFormat, typer.Option("--format", help="text or json.")]
TableFormatOption = Annotated[TableFormat, typer.Option("--format", help="table, csv or json.")]
RulesOption = Annotated[
    Preset | None,
    typer.Option("--rules", help="Audit under this preset instead of each log's own rules."),
]
FromOption = Annotated[
    InputFormat | None, typer.Option("--from", help="The input format; detected when not given.")
]
DbOption = Annotated[
    Path,
    typer.Option("--db", metavar="FILE", help="The DuckDB warehouse file.", parser=named_file),
]
SinceOption = Annotated[
    dt.date | None,
    typer.Option(
        "--since", metavar="YYYY-MM-DD", help="Only matches begun on or after it.", parser=iso_date
    ),
]
UntilOption = Annotated[
    dt.date | None,
    typer.Option(
        "--until", metavar="YYYY-MM-DD", help="Only matches begun on or before it.", parser=iso_date
    ),
]


def at_option(help_text: str) -> Any:
    """``--at K``, an action of a deal (0-based, as the audit numbers them), as every command
    that takes one reads it: a negative K is a usage error.

    >>> at_option("Start here.").min
    0
    """
    return typer.Option("--at", min=0, metavar="K", help=help_text)


MatchOption = Annotated[
    str | None,
    typer.Option(
        "--match",
        metavar="ID",
        help="The match's id or number in `twentynine matches` (default: 1).",
    ),
]
