"""The ``twentynine`` command: one line of wiring per step of the walk.

Every command turns a user's bad input into one clean line on standard error and a
non-zero exit status; a traceback means a bug in twentynine, never in the input.
"""

from __future__ import annotations

import gc
import importlib.metadata
import json
import sys
from collections.abc import Callable, Iterator
from enum import StrEnum
from pathlib import Path
from typing import Annotated, TypeVar

import orjson
import typer
from rich.console import Console

from importers.canonical import FastRecord, Record
from importers.formats import (
    expand_inputs,
    import_paths,
    read_any,
    read_for_audit,
    write_matches,
)
from replay import AuditError, Finding, audit_match, deal_steps, engine_build
from replay.selfplay import simulate_matches
from reports.warehouse.errors import WarehouseError
from reports.warehouse.export import export_parquet, format_result
from reports.warehouse.progress import terminal_progress
from reports.warehouse.stats import run_stats
from reports.warehouse.store import DEFAULT_DB, load_paths, run_query
from schema.cards import Seat
from schema.log import MatchLog, match_json_schema
from schema.rules import PRESET_NAMES, PRESETS, Rules, RulesError, resolve_rules, rules_diff
from twentynine.analyze_command import analyze_command
from twentynine.demo import run_demo
from twentynine.frames import outcome_text, render_step
from twentynine.pager import show_frames
from twentynine.solve_command import solve_command
from twentynine.textout import plural, text_table

R = TypeVar("R")

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


def _print_version(value: bool) -> None:
    if value:
        version = importlib.metadata.version("twentynine")
        typer.echo(f"twentynine {version} (rules engine: {engine_build()})")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="Print the version and whether the rules engine is compiled, then exit.",
        ),
    ] = False,
) -> None:
    """Replay, audit, store and report hand histories of the card game Twenty-Nine (29)."""


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


RulesOption = Annotated[
    str | None,
    typer.Option("--rules", help="Audit under this preset instead of each log's own rules."),
]
FromOption = Annotated[
    str | None, typer.Option("--from", help="The input format; detected when not given.")
]


def _location(record: Record | FastRecord, finding: Finding) -> str:
    where = record.source if record.line is None else f"{record.source}:{record.line}"
    deal = "-" if finding.deal is None else str(finding.deal)
    action = "-" if finding.action is None else str(finding.action)
    return f"{where}:{deal}:{action}"


def _read_inputs(
    paths: list[str],
    from_format: str | None,
    read: Callable[[Path, str | None], Iterator[R]],
) -> Iterator[tuple[str, R]]:
    files = expand_inputs(paths)
    if not files:
        raise fail("no match logs found in " + ", ".join(paths))
    try:
        for file in files:
            for record in read(file, from_format):
                yield str(file), record
    except ValueError as exc:  # an unknown --from
        raise fail(str(exc)) from None


@app.command("audit")
def audit_command(
    paths: Annotated[list[str], typer.Argument(help="Files or folders of match logs; - is stdin.")],
    output: Annotated[OutputFormat, typer.Option("--format", help="text or json.")] = (
        OutputFormat.text
    ),
    rules_name: RulesOption = None,
    from_format: FromOption = None,
    strict: Annotated[bool, typer.Option(help="Stop at the first error.")] = False,
) -> None:
    """Replay match logs through the rules engine and report every finding.

    Exit status: 0 no error found, 1 an error was found, 2 an input could not be read.
    """
    try:
        rules = resolve_rules(rules_name) if rules_name is not None else None
    except RulesError as exc:
        raise fail(f"--rules: {exc}") from None
    files: set[str] = set()
    matches = deals = errors = warnings = unreadable = 0
    # The fast decoder where it can: the engine replays its matches as the models' own.
    for file, record in _read_inputs(paths, from_format, read_for_audit):
        files.add(file)
        if record.match is None:
            unreadable += 1
            _print_problems(record, output)
            continue
        try:
            audited = audit_match(record.match, rules, strict=strict)
        except AuditError as exc:
            raise fail(
                f"{_location(record, exc.finding)}: {exc.finding.code} {exc.finding.message}", 1
            ) from None
        matches += 1
        deals += len(record.match.deals)
        for finding in audited.findings:
            if finding.severity == "error":
                errors += 1
            else:
                warnings += 1
            if output is OutputFormat.json:
                line: dict[str, object] = {
                    "file": record.source,
                    "line": record.line,
                    "match": audited.match_id,
                    **finding.to_dict(),
                }
                sys.stdout.write(orjson.dumps(line).decode() + "\n")
            else:
                typer.echo(f"{_location(record, finding)}: {finding.code} {finding.message}")
    summary = (
        f"{plural(len(files), 'file')}, {plural(matches, 'match')}, {plural(deals, 'deal')}: "
        f"{plural(errors, 'error')}, {plural(warnings, 'warning')}"
    )
    if unreadable:
        summary += f", {plural(unreadable, 'unreadable document')}"
    typer.echo(summary, err=output is OutputFormat.json)
    if unreadable:
        raise typer.Exit(EXIT_BAD_INPUT)
    if errors:
        raise typer.Exit(EXIT_FINDINGS)


def _print_problems(record: Record | FastRecord, output: OutputFormat) -> None:
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


@app.command("import")
def import_command(
    paths: Annotated[list[str], typer.Argument(help="Files or folders to import; - is stdin.")],
    out: Annotated[
        str, typer.Option("-o", "--out", help="Output .json, .jsonl, .29 (text), or - for stdout.")
    ],
    from_format: FromOption = None,
) -> None:
    """Convert logs from any known format into canonical match logs, with counts.

    Exit status: 0 all imported, 1 some records skipped, 2 nothing written.
    """
    summary = import_paths(paths, from_format, out)
    for line in summary.lines():
        typer.echo(line, err=True)
    raise typer.Exit(summary.exit_code)


def _parse_settings(settings: list[str]) -> dict[str, object]:
    """``OPTION=VALUE`` pairs; a value is read as JSON (true, 17, "x") or else as text."""
    options: dict[str, object] = {}
    for setting in settings:
        name, sep, raw = setting.partition("=")
        if not sep or not name:
            raise fail(f"--set {setting!r}: write OPTION=VALUE, e.g. --set min_bid=16")
        try:
            options[name.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            options[name.strip()] = raw
    return options


@app.command("simulate")
def simulate_command(
    rules_name: Annotated[str, typer.Option("--rules", help="The preset the bots play.")],
    matches: Annotated[int, typer.Option("--matches", min=0, help="How many matches.")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="Same seed, same bytes.")] = 0,
    settings: Annotated[
        list[str] | None,
        typer.Option("--set", metavar="OPTION=VALUE", help="Override a rule option (repeatable)."),
    ] = None,
    out: Annotated[
        str, typer.Option("-o", "--out", help="Output .json (one match), .jsonl, .29, or -.")
    ] = "-",
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            help="Comma-separated names, each NAME or NAME:STYLE (cautious, balanced, "
            "aggressive); 8 or more names make a league with rotating partnerships.",
        ),
    ] = None,
    inject: Annotated[
        float, typer.Option("--inject", min=0.0, max=1.0, help="Chance a deal gets a breach.")
    ] = 0.0,
    notes: Annotated[bool, typer.Option(help="Write the bots' reasons as action notes.")] = False,
) -> None:
    """Let bots play complete matches and write them as canonical match logs.

    The same arguments give the same bytes. With --inject, seeded rule breaches are written
    in and listed in each match's meta.injected.
    """
    spec: dict[str, object] = {"preset": rules_name, **_parse_settings(settings or [])}
    try:
        rules = resolve_rules(spec)
        names = [name.strip() for name in players.split(",")] if players else None
        logs = simulate_matches(rules, matches, seed, names, inject_rate=inject, notes=notes)
    except (RulesError, ValueError) as exc:
        raise fail(str(exc)) from None
    try:
        written = write_matches(_with_progress(logs, matches, "simulating"), out)
    except ValueError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(f"cannot write {out}: {exc.strerror or exc}") from None
    if out != "-":
        typer.echo(f"{plural(written, 'match')} -> {out}", err=True)


def _with_progress(items: Iterator[MatchLog], total: int, label: str) -> Iterator[MatchLog]:
    """The items, with a progress bar on standard error when that is a terminal."""
    if not sys.stderr.isatty():
        yield from items
        return
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(label, total=total)
        for item in items:
            yield item
            progress.advance(task)


@app.command("replay")
def replay_command(
    path: Annotated[str, typer.Argument(help="A file of match logs; - is stdin.")],
    match_id: Annotated[
        str | None, typer.Option("--match", help="The match's id (default: the first).")
    ] = None,
    deal_number: Annotated[int, typer.Option("--deal", min=1, help="The deal, from 1.")] = 1,
    seat: Annotated[
        Seat | None, typer.Option("--seat", help="Show only what this seat could see.")
    ] = None,
    rules_name: RulesOption = None,
    from_format: FromOption = None,
) -> None:
    """Step through one deal: hands, trick, bid, trump, points and findings after each action.

    On a terminal: Enter or right arrow next, left arrow back, a number then Enter jumps, q quits.
    Otherwise every step is printed.
    """
    try:
        rules = resolve_rules(rules_name) if rules_name is not None else None
    except RulesError as exc:
        raise fail(f"--rules: {exc}") from None
    chosen: MatchLog | None = None
    seen = 0
    for _, record in _read_inputs([path], from_format, read_any):
        if record.match is None:
            raise fail(str(record.problems[0]))
        seen += 1
        if match_id is None or record.match.match_id == match_id:
            chosen = record.match
            break
    if chosen is None:
        wanted = f"no match with id {match_id!r}" if match_id else "no match"
        raise fail(f"{path}: {wanted} among {plural(seen, 'match')}")
    if deal_number > len(chosen.deals):
        raise fail(f"{path}: match {chosen.match_id} has {plural(len(chosen.deals), 'deal')}")
    steps = deal_steps(chosen, deal_number, seat=seat, rules=rules)
    view = f" · seen by {seat.value}" if seat else ""
    dealer = chosen.deals[deal_number - 1].dealer.value
    heading = (
        f"match {chosen.match_id} · deal {deal_number} of {len(chosen.deals)}"
        f" · dealer {dealer}{view}"
    )
    facts = audit_match(chosen, rules).deals[deal_number - 1]
    last = len(steps) - 1
    frames = [
        render_step(
            step,
            total=len(steps),
            heading=heading,
            outcome=outcome_text(facts) if i == last else None,
        )
        for i, step in enumerate(steps)
    ]
    show_frames(frames, sys.stdout, interactive=sys.stdin.isatty() and sys.stdout.isatty())


app.command("solve")(solve_command)

DbOption = Annotated[Path, typer.Option("--db", help="The DuckDB warehouse file.")]


class TableFormat(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"


@app.command("load")
def load_command(
    paths: Annotated[list[str], typer.Argument(help="Files or folders of logs; - is stdin.")],
    db: DbOption = Path(DEFAULT_DB),
    from_format: FromOption = None,
) -> None:
    """Read, audit and store matches, players, deals, actions, tricks and findings in DuckDB.

    A match is stored whole or not at all; loading it again stores nothing new. Exit status:
    0 all stored (or already there), 1 some records skipped, 2 the warehouse could not be used.
    """
    try:
        with terminal_progress() as progress:
            summary = load_paths(paths, db=db, from_format=from_format, progress=progress)
    except WarehouseError as exc:
        raise fail(str(exc), exc.exit_code) from None
    except ValueError as exc:
        raise fail(str(exc)) from None
    for line in summary.lines():
        typer.echo(line, err=True)
    raise typer.Exit(summary.exit_code)


@app.command("query")
def query_command(
    sql: Annotated[str, typer.Argument(help="One SQL statement that reads.")],
    db: DbOption = Path(DEFAULT_DB),
    output: Annotated[TableFormat, typer.Option("--format", help="table, csv or json.")] = (
        TableFormat.table
    ),
) -> None:
    """Run a read-only SQL query on the warehouse; a statement that writes is refused."""
    try:
        result = run_query(sql, db=db)
    except WarehouseError as exc:
        raise fail(str(exc), exc.exit_code) from None
    typer.echo(format_result(result, output.value).rstrip("\r\n"))


@app.command("stats")
def stats_command(
    db: DbOption = Path(DEFAULT_DB),
    player: Annotated[str | None, typer.Option("--player", help="One player's figures.")] = None,
    output: Annotated[TableFormat, typer.Option("--format", help="table, csv or json.")] = (
        TableFormat.table
    ),
) -> None:
    """Player statistics (definitions in docs/warehouse.md)."""
    try:
        result = run_stats(db=db, player=player)
    except WarehouseError as exc:
        raise fail(str(exc), exc.exit_code) from None
    if player is not None and output is TableFormat.table:
        result = result.transposed()
    typer.echo(format_result(result, output.value).rstrip("\r\n"))


@app.command("export")
def export_command(
    parquet: Annotated[Path, typer.Option("--parquet", help="An empty or new folder.")],
    db: DbOption = Path(DEFAULT_DB),
) -> None:
    """Export every table as Parquet partitioned by preset and month."""
    try:
        summary = export_parquet(parquet, db=db)
    except WarehouseError as exc:
        raise fail(str(exc), exc.exit_code) from None
    for line in summary.lines():
        typer.echo(line)


app.command("analyze")(analyze_command)


@app.command("demo")
def demo_command(
    samples: Annotated[Path, typer.Option(help="The folder of sample logs to run on.")] = Path(
        "sample_logs"
    ),
    out: Annotated[
        Path,
        typer.Option(envvar="TWENTYNINE_DEMO_OUT", help="Where the demo writes what it makes."),
    ] = Path("demo_out"),
) -> None:
    """Run every step of the walk on the bundled sample logs and say what each found."""
    if not (samples / "bad").is_dir() or not (samples / "formats").is_dir():
        raise fail(f"{samples}: not the sample_logs folder (run from the checkout, or --samples)")
    result = run_demo(samples, out, typer.echo)
    if not result.ok:
        for failure in result.failures:
            typer.echo(f"demo: {failure}", err=True)
        raise typer.Exit(1)
    typer.echo(f"\ndemo done: everything as expected; files written under {out}/")


def main() -> None:
    """Entry point of the console script."""
    # The modules and tables loaded at start-up live as long as the process: moving them out
    # of the collector's sight makes its passes over the audit's short-lived objects cheaper.
    gc.freeze()
    app()
