"""``twentynine audit``: read match logs, audit each, print every finding and the totals.

The counting and the finding rows are :class:`replay.summary.AuditSummary`'s; this module
only reads, prints and picks the exit status. Registered on the app by :mod:`twentynine.cli`.
"""

from __future__ import annotations

import sys
from typing import Annotated

import orjson
import typer

from twentynine.cli import _read_inputs, say_unreadable
from twentynine.importers.canonical import Match, Record
from twentynine.options import (
    EXIT_FINDINGS,
    FromOption,
    OutputFormat,
    OutputOption,
    RulesOption,
    fail,
)
from twentynine.replay import AuditError, audit_match
from twentynine.replay.summary import AuditSummary, FindingRow, finding_row, seldom_collected
from twentynine.schema.rules import Rules, RulesError, resolve_rules
from twentynine.schema.words import plural
from twentynine.textout import printable


def audit_command(
    paths: Annotated[
        list[str],
        typer.Argument(metavar="PATH", help="Files or folders of match logs; - is stdin."),
    ],
    output: OutputOption = OutputFormat.text,
    rules_name: RulesOption = None,
    from_format: FromOption = None,
    strict: Annotated[bool, typer.Option(help="Stop at the first error.")] = False,
) -> None:
    """Replay match logs through the rules engine and report every finding.

    Exit status: 0 no error found, 1 an error was found, 2 an input could not be read.

    \b
    Example: twentynine audit sample_logs/bad/revoke.json --format json
    """
    try:
        rules = resolve_rules(rules_name) if rules_name is not None else None
    except RulesError as exc:
        raise fail(f"--rules: {exc}") from None
    summary = AuditSummary()
    with seldom_collected():
        _audit_all(paths, from_format, rules, strict, output, summary)
    typer.echo(summary_line(summary), err=output is OutputFormat.json)
    if summary.exit_code:
        raise typer.Exit(summary.exit_code)


def _audit_all(
    paths: list[str],
    from_format: str | None,
    rules: Rules | None,
    strict: bool,
    output: OutputFormat,
    summary: AuditSummary,
) -> None:
    """Audit every match of ``paths`` into ``summary``, printing each finding."""
    # The fast decoder where it can: the engine replays its matches as the models' own.
    for record in _read_inputs(paths, from_format):
        if record.match is None:
            summary.add_unreadable(record.source)
            _print_problems(record, output)
            continue
        try:
            audited = audit_match(record.match, rules, strict=strict)
        except AuditError as exc:
            row = finding_row(record.source, record.match.match_id, exc.finding, record.line_of)
            if output is OutputFormat.json:  # the finding as every other: a JSON line
                _print_row(row, output)
                raise typer.Exit(EXIT_FINDINGS) from None
            raise fail(row.text(), EXIT_FINDINGS) from None
        for row in summary.add(record.source, audited, record.line_of):
            _print_row(row, output)


def summary_line(summary: AuditSummary) -> str:
    """The totals ``twentynine audit`` ends with.

    >>> summary = AuditSummary(files={"a.json"}, matches=1, deals=12, warnings=1)
    >>> summary_line(summary)
    '1 file, 1 match, 12 deals: 0 errors, 1 warning'
    """
    line = (
        f"{plural(len(summary.files), 'file')}, {plural(summary.matches, 'match')}, "
        f"{plural(summary.deals, 'deal')}: {plural(summary.errors, 'error')}, "
        f"{plural(summary.warnings, 'warning')}"
    )
    if summary.unreadable:
        line += f", {plural(summary.unreadable, 'unreadable document')}"
    return line


def _print_row(row: FindingRow, output: OutputFormat) -> None:
    if output is OutputFormat.json:
        sys.stdout.write(orjson.dumps(row.to_dict()).decode() + "\n")
    else:
        typer.echo(printable(row.text()))


def _print_problems(record: Record[Match], output: OutputFormat) -> None:
    if output is not OutputFormat.json:
        say_unreadable(record)
        return
    for problem in record.problems:
        line = {
            "file": problem.source,
            "line": problem.line,
            "match": None,
            "deal": None,
            "action": None,
            "code": "INVALID_INPUT",
            "severity": "error",
            "message": f"{problem.path}: {problem.reason}" if problem.path else problem.reason,
        }
        sys.stdout.write(orjson.dumps(line).decode() + "\n")
