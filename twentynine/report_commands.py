"""``twentynine report match|players``: the HTML reports, wired from the rooms.

The match is read here (the importers' reader, as ``replay`` reads it), audited by the
engine, its annotations read from the warehouse when ``--db`` is given, and handed to
:mod:`reports.html`, which never reads files itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from twentynine.analysis.annotate import Annotation
from twentynine.importers.formats import atomic_file, read_paths
from twentynine.options import MatchOption
from twentynine.outputs import refuse_overwrite
from twentynine.replay import audit_match
from twentynine.reports.html.annotations import read_annotations
from twentynine.reports.html.match import match_report
from twentynine.reports.html.players import players_report
from twentynine.reports.warehouse.errors import WarehouseError
from twentynine.reports.warehouse.listing import MatchNotFoundError, pick_match, stored_match
from twentynine.reports.warehouse.readback import read_match
from twentynine.reports.warehouse.store import DEFAULT_DB, open_warehouse
from twentynine.schema.log import MatchLog
from twentynine.textout import plural

report_app = typer.Typer(
    name="report",
    help="HTML reports: a match with its step-by-step viewer, or the players' statistics.",
    no_args_is_help=True,
    rich_markup_mode=None,  # plain help, as the other commands have it
)


def _fail(message: str) -> typer.Exit:
    from twentynine.options import fail

    return fail(message)


def match_file_name(match_id: str) -> str:
    """The file name of a match's report: its id with anything unsafe in a file name as ``_``.

    >>> match_file_name("club/2026-11-29 t3")
    'match-club_2026-11-29_t3.html'
    """
    return "match-" + re.sub(r"[^A-Za-z0-9._-]", "_", match_id) + ".html"


def _write(path: Path, text: str) -> None:
    with atomic_file(path) as stream:
        stream.write(text.encode())


def _annotations(db: Path | None, match_id: str) -> list[Annotation] | None:
    if db is None:
        return None
    try:
        with open_warehouse(db, read_only=True) as wh:
            return read_annotations(wh, match_id)
    except WarehouseError as exc:
        raise _fail(str(exc)) from None


def find_match(path: str, match_id: str | None) -> MatchLog:
    """The match that ``match_id`` names in ``path`` (its id, or its number in `twentynine
    matches`; the first without one); a one-line exit when there is none."""

    def candidates() -> Iterator[tuple[str, MatchLog]]:
        try:
            records = read_paths([path])
        except ValueError:  # no match log there: none to pick, as pick_match says
            return
        for record in records:
            if record.match is None:
                raise _fail(str(record.problems[0]))
            yield record.match.match_id, record.match

    try:
        return pick_match(match_id, candidates())
    except MatchNotFoundError as exc:
        raise _fail(f"{path}: {exc}") from None


def write_match_report(match: MatchLog, out: Path, annotations: list[Annotation] | None) -> None:
    """Audit ``match`` and write its report to ``out``."""
    _write(out, match_report(match, audit_match(match), annotations))


@report_app.command("match")
def match_command(
    out: Annotated[
        Path, typer.Option("-o", "--out", metavar="FILE", help="The HTML file to write.")
    ],
    path: Annotated[
        str | None,
        typer.Argument(
            metavar="[PATH]", help="A file or folder of match logs (any format); - is stdin."
        ),
    ] = None,
    match_id: MatchOption = None,
    db: Annotated[
        Path | None,
        typer.Option(
            "--db",
            metavar="FILE",
            help="A warehouse (read only): the match's annotations, and the match itself "
            "when no PATH is given.",
        ),
    ] = None,
) -> None:
    """One match as a self-contained HTML file: the viewer, the score, every deal judged.

    Works offline (plotly.js is inside the file). With --db, the annotations stored by
    `twentynine analyze` are shown; without, the report says "not analyzed".

    \b
    Example: twentynine report match sample_logs/pagat.json -o pagat.html
    """
    if path is None and db is None:
        raise _fail("give a file or folder of match logs, or --db FILE")
    refuse_overwrite(
        [out], inputs=[path] if path is not None else [], warehouses=[db or DEFAULT_DB]
    )
    if path is not None:
        match = find_match(path, match_id)
    else:
        assert db is not None
        try:
            match = stored_match(match_id, db=db)
        except MatchNotFoundError as exc:
            raise _fail(f"{db}: {exc}") from None
        except WarehouseError as exc:
            raise _fail(str(exc)) from None
    try:
        write_match_report(match, out, _annotations(db, match.match_id))
    except OSError as exc:
        raise _fail(f"cannot write {out}: {exc.strerror or exc}") from None
    typer.echo(f"match report ({plural(len(match.deals), 'deal')}) -> {out}", err=True)


def examples_folder(out: Path) -> Path:
    """Where the players report's example match reports go: ``NAME_matches/`` beside it.

    >>> examples_folder(Path("out/players.html"))
    PosixPath('out/players_matches')
    """
    return out.with_name(out.stem + "_matches")


def write_players_report(db: Path, out: Path, min_deals: int, examples: int) -> list[Path]:
    """Write the players report of the warehouse ``db`` to ``out``, and the match reports of
    up to ``examples`` matches its statistics link to; returns those match reports' paths.

    Raises the warehouse's errors and ``OSError``.
    """
    folder = examples_folder(out)
    chosen: list[str] = []

    def link(match_id: str, deal: int, action: int | None) -> str | None:
        if match_id not in chosen:
            if len(chosen) >= examples:
                return None
            chosen.append(match_id)
        step = f"#deal={deal}" + ("" if action is None else f"&action={action}")
        return f"{folder.name}/{match_file_name(match_id)}{step}"

    written: list[Path] = []
    with open_warehouse(db, read_only=True) as wh:
        page = players_report(wh, min_deals, link)
        if chosen:
            folder.mkdir(parents=True, exist_ok=True)
        for match_id in sorted(chosen):
            target = folder / match_file_name(match_id)
            write_match_report(read_match(wh, match_id), target, read_annotations(wh, match_id))
            written.append(target)
    _write(out, page)
    return written


@report_app.command("players")
def players_command(
    out: Annotated[
        Path, typer.Option("-o", "--out", metavar="FILE", help="The HTML file to write.")
    ],
    db: Annotated[
        Path, typer.Option("--db", metavar="FILE", help="The DuckDB warehouse file.")
    ] = Path(DEFAULT_DB),
    min_deals: Annotated[
        int,
        typer.Option(
            "--min-deals", min=0, metavar="N", help="Below this many deals: 'too few deals'."
        ),
    ] = 30,
    examples: Annotated[
        int,
        typer.Option(
            "--examples",
            min=0,
            metavar="N",
            help="Write the match reports of up to this many example matches beside the "
            "report, in FILE_matches/, and link the statistics to them (0: no links).",
        ),
    ] = 3,
) -> None:
    """Player and partnership statistics with intervals, sortable tables and charts.

    Archives whose player ids change every game are reported by role instead.

    \b
    Example: twentynine report players --db club.duckdb -o players.html
    """
    refuse_overwrite([out], folders=[examples_folder(out)], warehouses=[db])
    try:
        examples_written = write_players_report(db, out, min_deals, examples)
    except WarehouseError as exc:
        raise _fail(str(exc)) from None
    except OSError as exc:
        raise _fail(f"cannot write {exc.filename or out}: {exc.strerror or exc}") from None
    extra = ""
    if examples_written:
        extra = f", and {plural(len(examples_written), 'example match')} in {examples_folder(out)}/"
    typer.echo(f"players report -> {out}{extra}", err=True)
