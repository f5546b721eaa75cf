"""The ``twentynine`` command: one line of wiring per step of the walk.

Every command turns a user's bad input into one clean line on standard error and a
non-zero exit status; a traceback means a bug in twentynine, never in the input.
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import orjson
import typer

from importers.canonical import Record, read_path
from schema.log import match_json_schema
from schema.rules import PRESET_NAMES, PRESETS, Rules, RulesError, resolve_rules, rules_diff
from twentynine.textout import plural, text_table

app = typer.Typer(
    name="twentynine",
    help="Replay, audit, store and report hand histories of the card game Twenty-Nine (29).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_BAD_INPUT = 2

LOG_SUFFIXES = (".json", ".jsonl", ".ndjson")


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


def fail(message: str, code: int = EXIT_BAD_INPUT) -> typer.Exit:
    """Print one line to standard error and return the exit to raise."""
    typer.echo(f"twentynine: {message}", err=True)
    return typer.Exit(code)


@app.command("schema")
def schema_command() -> None:
    """Print the JSON Schema of the match log (version 1)."""
    typer.echo(json.dumps(match_json_schema(), indent=2, ensure_ascii=False))


@app.command("rules")
def rules_command(
    preset: Annotated[
        str | None, typer.Argument(help="A preset name; without one, all six side by side.")
    ] = None,
    diff: Annotated[
        tuple[str, str] | None,
        typer.Option("--diff", metavar="A B", help="Only the options where A and B differ."),
    ] = None,
    output: Annotated[OutputFormat, typer.Option("--format", help="text or json.")] = (
        OutputFormat.text
    ),
) -> None:
    """Show a preset's rule options, all presets side by side, or the difference of two."""
    try:
        if diff is not None:
            a, b = (resolve_rules(name) for name in diff)
            differences = rules_diff(a, b)
            if output is OutputFormat.json:
                payload = {key: {diff[0]: va, diff[1]: vb} for key, (va, vb) in differences.items()}
                typer.echo(json.dumps(payload, indent=2))
                return
            rows = [[key, _show(va), _show(vb)] for key, (va, vb) in differences.items()]
            typer.echo(text_table(["option", diff[0], diff[1]], rows) if rows else "no difference")
            return
        if preset is not None:
            rules = resolve_rules(preset)
            if output is OutputFormat.json:
                typer.echo(json.dumps(rules.options(), indent=2))
                return
            rows = [[key, _show(value)] for key, value in rules.options().items()]
            typer.echo(text_table(["option", preset], rows))
            return
    except RulesError as exc:
        raise fail(str(exc)) from None
    every: dict[str, Rules] = {name: PRESETS[name] for name in PRESET_NAMES}
    if output is OutputFormat.json:
        typer.echo(json.dumps({name: r.options() for name, r in every.items()}, indent=2))
        return
    options = list(every["bangladesh"].options())
    rows = [[key, *(_show(every[name].options()[key]) for name in PRESET_NAMES)] for key in options]
    typer.echo(text_table(["option", *PRESET_NAMES], rows))


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def expand_paths(paths: list[str]) -> list[str]:
    """Files named on the command line, with directories searched for match logs."""
    found: list[str] = []
    for raw in paths:
        path = Path(raw)
        if raw != "-" and path.is_dir():
            found.extend(
                str(p) for p in sorted(path.rglob("*")) if p.suffix.lower() in LOG_SUFFIXES
            )
        else:
            found.append(raw)
    return found


@app.command("audit")
def audit_command(
    paths: Annotated[list[str], typer.Argument(help="Files or folders of match logs; - is stdin.")],
    output: Annotated[OutputFormat, typer.Option("--format", help="text or json.")] = (
        OutputFormat.text
    ),
) -> None:
    """Check match logs: exit 0 when clean, 1 when a finding is an error, 2 when unreadable."""
    files = expand_paths(paths)
    if not files:
        raise fail("no match logs found in " + ", ".join(paths))
    matches = deals = unreadable = 0
    for file in files:
        for record in read_path(file):
            if record.ok:
                matches += 1
                assert record.match is not None
                deals += len(record.match.deals)
                continue
            unreadable += 1
            _print_problems(record, output)
    if output is OutputFormat.text:
        typer.echo(
            f"{plural(len(files), 'file')}, {plural(matches, 'match')}, {plural(deals, 'deal')}: "
            f"{plural(unreadable, 'unreadable document') if unreadable else 'all valid'}"
        )
    if unreadable:
        raise typer.Exit(EXIT_BAD_INPUT)


def _print_problems(record: Record, output: OutputFormat) -> None:
    for problem in record.problems:
        if output is OutputFormat.json:
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
        else:
            typer.echo(str(problem), err=True)


@app.command("demo")
def demo_command(
    samples: Annotated[Path, typer.Option(help="The folder of sample logs to run on.")] = Path(
        "sample_logs"
    ),
) -> None:
    """Run everything the tool can do on the bundled sample logs."""
    if not samples.is_dir():
        raise fail(f"{samples}: no such folder (run from the checkout, or pass --samples)")
    typer.echo(f"== audit {samples}")
    try:
        audit_command([str(samples)], OutputFormat.text)
    except typer.Exit as exc:
        if exc.exit_code not in (EXIT_OK, EXIT_FINDINGS):
            raise


def main() -> None:
    """Entry point of the console script."""
    app()
