"""The ``twentynine`` command: one line of wiring per step of the walk.

Every command turns a user's bad input into one clean line on standard error and a
non-zero exit status; a traceback means a bug in twentynine, never in the input.
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import re
import signal
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal, overload

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup

from twentynine.limits import LOAD_JOBS, check_simulated
from twentynine.options import (
    EXIT_BAD_INPUT,
    EXIT_FINDINGS,
    EXIT_OK,
    DbOption,
    FromOption,
    InputFormat,
    MatchOption,
    OutputFormat,
    OutputOption,
    Preset,
    RulesOption,
    TableFormat,
    TableFormatOption,
    at_option,
    fail,
    named_file,
    named_file_or_dash,
)
from twentynine.reports.warehouse import DEFAULT_DB
from twentynine.schema.cards import Seat
from twentynine.schema.words import plural
from twentynine.textout import (
    STANDARD_OUTPUT,
    error_line,
    guard_standard_output,
    printable,
    text_table,
    warning_line,
)

if TYPE_CHECKING:
    from twentynine.importers.canonical import Match, Record
    from twentynine.schema.log import MatchLog

__all__ = [  # what the command modules and the tests have imported from here
    "EXIT_BAD_INPUT",
    "EXIT_FINDINGS",
    "EXIT_OK",
    "InputFormat",
    "OutputFormat",
    "Preset",
    "TableFormat",
    "app",
    "fail",
    "main",
]


class _CommandGroup(TyperGroup):
    """The commands, with help as people read it: an argument shows its metavar (``PATH``),
    not the Python type of its parameter (``<list[str]>``); and a ``PATH`` that is empty is
    refused (Python reads ``""`` as the current folder: ``load "$UNSET"`` read all of it)."""

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        for param in getattr(command, "params", ()):
            if isinstance(param, TyperArgument) and param.metavar is not None:
                setattr(param, "display_type_rich", _no_type)  # noqa: B010 (an instance's own)
                if "PATH" in param.metavar and param.callback is None:
                    param.callback = _named_paths
        return command


def _no_type(ctx: Any) -> None:
    return None


def _named_paths(ctx: Any, param: Any, value: Any) -> Any:
    """The ``PATH`` arguments as given, none of them empty (a usage error, one line)."""
    values = value if isinstance(value, list | tuple) else [value]
    if any(path == "" for path in values):
        raise typer.BadParameter("an empty path names no file or folder", ctx, param)
    return value


COMMANDS: Final = (
    "schema",
    "rules",
    "audit",
    "import",
    "simulate",
    "arena",
    "bot",
    "replay",
    "solve",
    "load",
    "query",
    "export",
    "analyze",
    "calibration",
    "dealing",
    "demo",
    "matches",
    "stats",
    "report",
)
"""Every command, in the order ``twentynine --help`` lists them."""

LAZY_COMMANDS: Final = {
    "audit": "twentynine.audit_command:audit_command",
    "solve": "twentynine.solve_command:solve_command",
    "analyze": "twentynine.analyze_command:analyze_command",
    "calibration": "twentynine.calibration_command:calibration_command",
    "dealing": "twentynine.dealing_command:dealing_command",
    "matches": "twentynine.matches_command:matches_command",
    "stats": "twentynine.stats_command:stats_command",
    "report": "twentynine.report_commands:report_app",
    "arena": "twentynine.arena_command:arena_command",
    "bot": "twentynine.arena_command:bot_app",
}
"""The commands kept in modules of their own, ``module:function`` (or a Typer of
subcommands): a module is imported only when its command runs or help lists it, so that a
command loads the libraries it uses (DuckDB, Arrow, numba, jinja2, plotly) and no others."""


class _TopGroup(_CommandGroup):
    """The ``twentynine`` group: its own commands, and those of :data:`LAZY_COMMANDS`."""

    def list_commands(self, ctx: Any) -> list[str]:
        unlisted = [name for name in super().list_commands(ctx) if name not in COMMANDS]
        return [*COMMANDS, *unlisted]  # a command left out of COMMANDS still shows, last

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name in LAZY_COMMANDS and cmd_name not in self.commands:
            self.add_command(_load_command(cmd_name), cmd_name)
        return super().get_command(ctx, cmd_name)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        if args and args[0] not in COMMANDS and not args[0].startswith("-"):
            for name in LAZY_COMMANDS:  # a mistyped command: "did you mean" weighs them all
                self.get_command(ctx, name)
        return super().resolve_command(ctx, args)


def _load_command(name: str) -> Any:
    """The click command of a lazy command, built as ``app.command`` would build it."""
    module_name, _, attribute = LAZY_COMMANDS[name].partition(":")
    target = getattr(importlib.import_module(module_name), attribute)
    if isinstance(target, typer.Typer):  # a group of subcommands: `report match|players`
        target.info.cls = _CommandGroup
        return typer.main.get_group(target)
    single = typer.Typer(rich_markup_mode=None, add_completion=False)
    single.command(name)(target)
    return typer.main.get_command(single)


app = typer.Typer(
    name="twentynine",
    cls=_TopGroup,
    help="Replay, audit, store and report hand histories of the card game Twenty-Nine (29).",
    no_args_is_help=True,
    add_completion=True,
    # Plain help, as click writes it: every option with its metavar or its allowed values.
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        import importlib.metadata

        from twentynine.analysis.solver import solver_build
        from twentynine.replay import engine_build

        version = importlib.metadata.version("twentynine")
        typer.echo(
            f"twentynine {version} (rules engine: {engine_build()}; solver: {solver_build()})"
        )
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


@app.command("schema")
def schema_command() -> None:
    """Print the JSON Schema of the match log (version 1).

    \b
    Example: twentynine schema > match.schema.json
    """
    from twentynine.schema.log import match_json_schema

    typer.echo(json.dumps(match_json_schema(), indent=2, ensure_ascii=False))


@app.command("rules")
def rules_command(
    preset: Annotated[
        str | None,
        typer.Argument(metavar="PRESET", help="A preset; without one, all six side by side."),
    ] = None,
    diff: Annotated[
        tuple[str, str] | None,
        typer.Option("--diff", metavar="A B", help="Only the options where A and B differ."),
    ] = None,
    output: OutputOption = OutputFormat.text,
) -> None:
    """Show a preset's rule options, all presets side by side, or the difference of two.

    \b
    Example: twentynine rules --diff bangladesh standard
    """
    from twentynine.schema.rules import (
        PRESET_NAMES,
        PRESETS,
        Rules,
        RulesError,
        resolve_rules,
        rules_diff,
    )

    if preset is not None and diff is not None:
        raise fail(
            f"give a PRESET or --diff A B, not both ({preset}, and {diff[0]} against {diff[1]})"
        )
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


@overload
def _read_inputs(
    paths: list[str], from_format: str | None, *, fast: Literal[False]
) -> Iterator[Record[MatchLog]]: ...
@overload
def _read_inputs(
    paths: list[str], from_format: str | None, *, fast: bool = True
) -> Iterator[Record[Match]]: ...
def _read_inputs(
    paths: list[str], from_format: str | None, *, fast: bool = True
) -> Iterator[Record[Match]]:
    """The records of ``paths`` (``fast``: the fast decoder's matches where it can), after a
    warning for each empty file; a one-line exit when there is nothing to read."""
    from twentynine.importers.formats import Reading, read_paths

    reading = Reading()
    try:
        records = read_paths(paths, from_format, fast=fast, reading=reading)
    except ValueError as exc:  # no match log in the paths, or an unknown --from
        raise fail(str(exc)) from None
    warn_empty(reading.inputs)
    return records


def say_unreadable(record: Record[Any]) -> None:
    """Name a document that could not be read: one error line for each of its problems
    (``textout.unreadable_lines``). The command goes on with the other documents."""
    from twentynine.textout import unreadable_lines

    for line in unreadable_lines(record):
        typer.echo(error_line(line), err=True)


class Skipping:
    """Goes past the documents that could not be read, naming each (:func:`say_unreadable`)
    and counting them: ``replay``, ``report match`` and ``solve`` pick their match among
    the others, and exit 2 once done when one was skipped, as ``audit`` does."""

    def __init__(self) -> None:
        self.count = 0
        self.read = 0

    def readable(self, records: Iterable[Record[MatchLog]]) -> Iterator[tuple[str, MatchLog]]:
        """Each readable record's match id and match, in reading order."""
        for record in records:
            if record.match is None:
                self.count += 1
                say_unreadable(record)
                continue
            self.read += 1
            yield record.match.match_id, record.match

    def not_found(self, message: str) -> typer.Exit:
        """The exit when the match wanted is not among those read: ``message`` in one line,
        or nothing more when no document could be read (each is already named)."""
        if self.count and not self.read:
            return typer.Exit(EXIT_BAD_INPUT)
        return fail(message)

    def exit(self) -> None:
        """Exit 2 when a document was skipped (each is already named)."""
        if self.count:
            raise typer.Exit(EXIT_BAD_INPUT)


def warn_empty(files: list[Path]) -> None:
    """A warning line for each file that holds nothing but white space: no match in it."""
    from twentynine.importers.errors import empty_file
    from twentynine.importers.formats import HEAD_SIZE, is_blank

    for file in files:
        if str(file) == "-":
            continue
        try:
            with file.open("rb") as stream:
                if not stream.seekable():  # a pipe: what is read here the reader would miss
                    continue
                blank = is_blank(stream.read(HEAD_SIZE), stream)
        except OSError:
            continue  # the reader says why it cannot be read
        if blank:
            typer.echo(warning_line(empty_file(file)), err=True)


@app.command("import")
def import_command(
    paths: Annotated[
        list[str],
        typer.Argument(metavar="PATH", help="Files or folders to import; - is stdin."),
    ],
    out: Annotated[
        str,
        typer.Option(
            "-o",
            "--out",
            metavar="OUT",
            help="Output .json, .jsonl, .29 (text), or - for stdout.",
            parser=named_file_or_dash,
        ),
    ],
    from_format: FromOption = None,
    first_seat: Annotated[
        int | None,
        typer.Option(
            "--first-seat",
            min=0,
            max=3,
            metavar="I",
            help="bhoos-play: the playerIds index that bids and leads first, for a game whose "
            "payloads do not show it (else 1 is assumed, with a warning).",
        ),
    ] = None,
) -> None:
    """Convert logs from any known format into canonical match logs, with counts.

    Exit status: 0 all imported, 1 some records skipped, 2 nothing written.

    \b
    Example: twentynine import sample_logs/formats/sample.29 -o sample.jsonl
    """
    from twentynine.importers.formats import expand_inputs, import_paths
    from twentynine.outputs import refuse_overwrite
    from twentynine.textout import ERROR_PREFIX

    inputs = expand_inputs(paths)
    refuse_overwrite([out], inputs=inputs, warehouses=[DEFAULT_DB])
    warn_empty(inputs)
    summary = import_paths(paths, from_format, out, first_seat=first_seat)
    for line in summary.lines(ERROR_PREFIX):
        typer.echo(printable(line), err=True)
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
    rules_name: Annotated[Preset, typer.Option("--rules", help="The preset the bots play.")],
    matches: Annotated[
        int, typer.Option("--matches", min=0, metavar="N", help="How many matches.")
    ] = 1,
    seed: Annotated[int, typer.Option("--seed", metavar="S", help="Same seed, same bytes.")] = 0,
    settings: Annotated[
        list[str] | None,
        typer.Option("--set", metavar="OPTION=VALUE", help="Override a rule option (repeatable)."),
    ] = None,
    out: Annotated[
        str,
        typer.Option(
            "-o",
            "--out",
            metavar="OUT",
            help="Output .json (one match), .jsonl, .29, or -.",
            parser=named_file_or_dash,
        ),
    ] = "-",
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            metavar="NAMES",
            help="Comma-separated names, each NAME or NAME:STYLE (cautious, balanced, "
            "aggressive); 8 or more names make a league with rotating partnerships.",
        ),
    ] = None,
    inject: Annotated[
        float,
        typer.Option(
            "--inject", min=0.0, max=1.0, metavar="RATE", help="Chance a deal gets a breach."
        ),
    ] = 0.0,
    notes: Annotated[bool, typer.Option(help="Write the bots' reasons as action notes.")] = False,
) -> None:
    """Let bots play complete matches and write them as canonical match logs.

    The same arguments give the same bytes. With --inject, seeded rule breaches are written
    in and listed in each match's meta.injected.

    \b
    Example: twentynine simulate --rules pagat --matches 3 --seed 7 -o pagat.jsonl
    """
    from twentynine.importers.formats import write_matches
    from twentynine.outputs import refuse_overwrite
    from twentynine.replay.selfplay import simulate_matches
    from twentynine.schema.rules import RulesError, resolve_rules

    too_many = check_simulated(matches)
    if too_many is not None:
        raise fail(too_many)
    refuse_overwrite([out], warehouses=[DEFAULT_DB])
    options = _parse_settings(settings or [])
    if "preset" in options:
        raise fail(
            f"--set preset={options['preset']}: the preset is --rules {rules_name.value}; "
            "--set changes its options"
        )
    spec: dict[str, object] = {"preset": rules_name.value, **options}
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
    except BrokenPipeError:
        raise  # the reader stopped (| head): main() ends quietly
    except OSError as exc:
        raise fail(f"cannot write {out}: {exc.strerror or exc}") from None
    if out != "-":
        typer.echo(f"{plural(written, 'match')} -> {out}", err=True)


def _with_progress(items: Iterator[MatchLog], total: int, label: str) -> Iterator[MatchLog]:
    """The items, with a progress bar on standard error when that is a terminal."""
    if not sys.stderr.isatty():
        yield from items
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(label, total=total)
        for item in items:
            yield item
            progress.advance(task)


@app.command("replay")
def replay_command(
    path: Annotated[
        str | None,
        typer.Argument(metavar="[PATH]", help="A file or folder of match logs; - is stdin."),
    ] = None,
    match_id: MatchOption = None,
    deal_number: Annotated[
        int | None,
        typer.Option("--deal", min=1, metavar="N", help="The deal, from 1 (default: 1)."),
    ] = None,
    at: Annotated[int | None, at_option("Start at this action (the numbers of `audit`).")] = None,
    finding: Annotated[
        bool, typer.Option("--finding", help="Start at the first finding (of --deal, if given).")
    ] = False,
    seat: Annotated[
        Seat | None, typer.Option("--seat", help="Show only what this seat could see.")
    ] = None,
    rules_name: RulesOption = None,
    from_format: FromOption = None,
    db: Annotated[
        Path | None,
        typer.Option(
            "--db",
            metavar="FILE",
            help="A warehouse (read only): the match's annotations, and the match itself "
            "when no PATH is given.",
            parser=named_file,
        ),
    ] = None,
) -> None:
    """Step through a match's deals as a hand viewer shows them, action by action.

    After each action: the four hands, the trick on the table, the auction, the contract and
    its stake, the trump, points, needs, the tricks played and the findings; a last frame
    states the result. From a warehouse whose match was analyzed, the review's marks (?! ? ??
    !) stand beside the calls and cards, with what each marked decision was. Action K of deal
    N is `file:line:N:K` in `twentynine audit`: `--deal N --at K` starts there. On a terminal
    it steps interactively (? lists the keys); otherwise it prints the deal's frames (with
    --at or --finding, only that one).

    \b
    Example: twentynine replay sample_logs/bad/revoke.json --deal 1 --at 7 --seat W
    """
    from twentynine.frames import deal_frames, finding_frames, first_finding
    from twentynine.pager import show_deals, show_frames
    from twentynine.replay import audit_match
    from twentynine.reports.html.annotations import Analysed, read_analysed
    from twentynine.reports.warehouse.errors import WarehouseError
    from twentynine.reports.warehouse.listing import MatchNotFoundError, pick_match, stored_match
    from twentynine.reports.warehouse.store import open_warehouse
    from twentynine.schema.rules import RulesError, resolve_rules

    try:
        rules = resolve_rules(rules_name) if rules_name is not None else None
    except RulesError as exc:
        raise fail(f"--rules: {exc}") from None
    if path is None and db is None:
        raise fail("give a file or folder of match logs, or --db FILE")
    if at is not None and finding:
        raise fail(f"--at {at} and --finding ask two things: give one")
    skipped = Skipping()
    stored = Analysed(None, None)
    try:
        if path is None:
            assert db is not None
            chosen = stored_match(match_id, db=db)
        else:
            records = _read_inputs([str(path)], from_format, fast=False)
            chosen = pick_match(match_id, skipped.readable(records))
        if db is not None:
            with open_warehouse(db, read_only=True) as wh:  # the review's marks, if analyzed
                stored = read_analysed(wh, chosen.match_id)
    except MatchNotFoundError as exc:
        raise skipped.not_found(f"{path or db}: {exc}") from None
    except WarehouseError as exc:
        raise fail(str(exc), exc.exit_code) from None
    where = f"{path or db}: match {chosen.match_id}"
    deal = deal_number or 1
    if deal > len(chosen.deals):
        raise fail(f"{where} has {plural(len(chosen.deals), 'deal')}")
    frame = 0
    if finding:
        found = first_finding(audit_match(chosen, rules), deal_number)
        if found is None:
            raise fail(f"{where} has no finding" + (f" in deal {deal}" if deal_number else ""))
        deal, frame = found
    elif at is not None:
        actions = len(chosen.deals[deal - 1].actions)
        if at >= actions:
            last = f"0 to {actions - 1}" if actions else "none"
            raise fail(f"{where}: deal {deal} has {plural(actions, 'action')} ({last})")
        frame = at + 1
    interactive = sys.stdin.isatty() and sys.stdout.isatty()

    def frames_of(number: int) -> list[str]:
        notes, coverage = stored
        analysed = notes is not None and (coverage is None or coverage.covers(number))
        return deal_frames(
            chosen,
            number,
            seat=seat,
            rules=rules,
            color=interactive,
            annotations=notes if analysed else None,
            analyzed=analysed if db is not None else None,
        )

    if interactive:
        findings = finding_frames(audit_match(chosen, rules))
        deals = len(chosen.deals)
        show_deals(frames_of, deals, sys.stdout, deal=deal, frame=frame, findings=findings)
    else:
        frames = frames_of(deal)
        shown = frames if at is None and not finding else [frames[frame]]
        show_frames(shown, sys.stdout, interactive=False)
    skipped.exit()


@app.command("load")
def load_command(
    paths: Annotated[
        list[str],
        typer.Argument(metavar="PATH", help="Files or folders of logs; - is stdin."),
    ],
    db: DbOption = Path(DEFAULT_DB),
    from_format: FromOption = None,
    replace: Annotated[
        bool, typer.Option(help="Store a match in place of one stored with other content.")
    ] = False,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            min=min(LOAD_JOBS),
            max=max(LOAD_JOBS),
            metavar="N",
            help="2: read and audit in a second process.",
        ),
    ] = 1,
) -> None:
    """Read, audit and store matches, players, deals, actions, tricks and findings in DuckDB.

    A match is stored whole or not at all; loading it again stores nothing new. Exit status:
    0 all stored (or already there), 1 some records skipped or some file not read, 2 no input
    could be read or the warehouse could not be used.

    \b
    Example: twentynine load sample_logs/ --db club.duckdb
    """
    from twentynine.importers.formats import expand_inputs
    from twentynine.loading import load_paths
    from twentynine.outputs import refuse_overwrite
    from twentynine.reports.warehouse import companions
    from twentynine.reports.warehouse.errors import WarehouseError
    from twentynine.reports.warehouse.progress import terminal_progress
    from twentynine.textout import ERROR_PREFIX

    inputs = expand_inputs(paths)
    refuse_overwrite([db, *companions(db)[:1]], inputs=inputs)  # the file and its log
    warn_empty(inputs)
    try:
        with terminal_progress() as progress:
            summary = load_paths(
                paths, db=db, from_format=from_format, progress=progress, replace=replace, jobs=jobs
            )
    except WarehouseError as exc:
        raise fail(str(exc), exc.exit_code) from None
    except ValueError as exc:
        raise fail(str(exc)) from None
    for line in summary.lines(ERROR_PREFIX):
        typer.echo(printable(line), err=True)
    raise typer.Exit(summary.exit_code)


class _SqlCommand(TyperCommand):
    """``query``'s parsing: SQL pasted with a header comment starts with ``--``, which click
    takes for an option; a word with white space in it is no option, so it goes after ``--``.
    """

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        def is_sql(word: str) -> bool:
            return word.startswith("-") and any(character.isspace() for character in word)

        if "--" not in args and any(map(is_sql, args)):
            args = [*(w for w in args if not is_sql(w)), "--", *filter(is_sql, args)]
        return super().parse_args(ctx, args)


@app.command("query", cls=_SqlCommand)
def query_command(
    sql: Annotated[str, typer.Argument(metavar="SQL", help="One SQL statement that reads.")],
    db: DbOption = Path(DEFAULT_DB),
    output: TableFormatOption = TableFormat.table,
) -> None:
    """Run a read-only SQL query on the warehouse; a statement that writes is refused.

    The SQL may begin with a comment (-- ...).

    \b
    Example: twentynine query "SELECT preset, count(*) FROM matches GROUP BY 1" --db club.duckdb
    """
    from twentynine.reports.warehouse.errors import WarehouseError
    from twentynine.reports.warehouse.store import run_query
    from twentynine.textout import print_result

    try:
        result = run_query(sql, db=db)
    except WarehouseError as exc:
        raise fail(str(exc), exc.exit_code) from None
    print_result(result, output.value)


@app.command("export")
def export_command(
    parquet: Annotated[
        Path, typer.Option("--parquet", metavar="DIR", help="An empty or new folder.")
    ],
    db: DbOption = Path(DEFAULT_DB),
) -> None:
    """Export every table as Parquet partitioned by preset and month.

    \b
    Example: twentynine export --parquet exports/2026-11 --db club.duckdb
    """
    from twentynine.outputs import refuse_overwrite
    from twentynine.reports.warehouse.errors import WarehouseError
    from twentynine.reports.warehouse.export import export_parquet

    refuse_overwrite(folders=[parquet], warehouses=[db])
    try:
        summary = export_parquet(parquet, db=db)
    except WarehouseError as exc:
        raise fail(str(exc), exc.exit_code) from None
    for line in summary.lines():
        typer.echo(printable(line))


@app.command("demo")
def demo_command(
    samples: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR", help="The folder of sample logs to run on (default: those installed)."
        ),
    ] = None,
    out: Annotated[
        Path,
        typer.Option(
            metavar="DIR",
            envvar="TWENTYNINE_DEMO_OUT",
            help="Where the demo writes what it makes.",
        ),
    ] = Path("demo_out"),
) -> None:
    """Run every step of the walk on the bundled sample logs and say what each found.

    \b
    Example: twentynine demo --out demo_out
    """
    from twentynine.demo import default_samples, demo_outputs, run_demo
    from twentynine.outputs import refuse_overwrite

    samples = samples if samples is not None else default_samples()
    if not all(_is_folder(samples / name) for name in ("bad", "formats")):
        raise fail(f"{samples}: not the sample_logs folder (give the folder with --samples)")
    if _not_a_folder(out):
        raise fail(f"{out}: a file, not a folder: --out names the folder the demo writes in")
    files, folders = demo_outputs(out)
    refuse_overwrite(files, folders=folders, inputs=[samples], warehouses=[DEFAULT_DB])
    try:
        result = run_demo(samples, out, typer.echo)
    except OSError as exc:
        raise fail(f"{exc.filename or out}: {exc.strerror or exc}") from None
    if not result.ok:
        for failure in result.failures:
            typer.echo(error_line(f"demo: {failure}"), err=True)
        raise typer.Exit(1)
    typer.echo(f"\ndemo done: everything as expected; files written under {out}/")


def _not_a_folder(path: Path) -> bool:
    """Whether ``path`` is there and is not a folder (a file, say)."""
    try:
        return path.exists() and not path.is_dir()
    except OSError:  # a path one may not look at: the demo's first write says why
        return False


def _is_folder(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # a folder one may not enter: not one to use
        return False


def _end_on_sigterm(signum: int, frame: object) -> None:
    """SIGTERM (kill, timeout) ends the process as by default, at once, after removing the
    hidden temporary file of an output being written (no ``finally`` runs on the way out).
    The warehouse needs nothing: each match is stored whole or not at all, as under
    SIGKILL; the worker processes end with this one (twentynine/workers.py)."""
    formats = sys.modules.get("twentynine.importers.formats")
    if formats is not None:
        formats.remove_partial_files()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


def main() -> None:
    """Entry point of the console script: the app, with its usage errors on the one error line."""
    # The modules and tables loaded at start-up live as long as the process: moving them out
    # of the collector's sight makes its passes over the audit's short-lived objects cheaper.
    gc.freeze()
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:  # not one a parent set ignored
        signal.signal(signal.SIGTERM, _end_on_sigterm)
    guard_standard_output()
    try:
        code = app(prog_name="twentynine", standalone_mode=False)
        sys.stdout.flush()  # what is still buffered fails here, not in Python's last flush
    except typer.TyperException as exc:  # click's usage errors: one line, and where to look
        message = exc.format_message().replace("Value error, ", "")
        message = re.sub(r"\s*\n\s*", " ", message)  # click lists some choices a line each
        if type(exc).__name__ == "NoArgsIsHelpError":  # no command given: the help it shows
            typer.echo(message)
            sys.exit(EXIT_OK)
        context = getattr(exc, "ctx", None)
        if context is not None:
            message += f" (see {context.command_path} --help)"
        typer.echo(error_line(message), err=True)
        code = getattr(exc, "exit_code", EXIT_BAD_INPUT)
    except typer.Abort:
        code = 130
    except RuntimeError as exc:
        if str(exc) != "Query interrupted":  # DuckDB's word for a Ctrl-C during a query
            raise
        code = 130
    except BrokenPipeError:
        # The reader of our output went away (| head): stop quietly, and keep Python's final
        # flush of standard output from complaining about it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = EXIT_OK
    except OSError as exc:
        if exc.filename != STANDARD_OUTPUT:
            raise
        # A full disk (> /dev/full), a closed output (>&-): what was asked for is lost
        typer.echo(error_line(f"cannot write to standard output: {exc.strerror}"), err=True)
        code = EXIT_BAD_INPUT
    sys.exit(code if isinstance(code, int) else EXIT_OK)
