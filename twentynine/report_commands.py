"""``twentynine report match|players``: the HTML reports, wired from the rooms.

The match is read here (the importers' reader, as ``replay`` reads it), audited by the
engine, its annotations read from the warehouse when ``--db`` is given, and handed to
:mod:`reports.html`, which never reads files itself.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Final
from urllib.parse import quote

import typer

from twentynine.analysis.annotate import Annotation
from twentynine.cli import Skipping, warn_empty
from twentynine.importers.formats import Reading, atomic_file, read_paths
from twentynine.options import (
    DbOption,
    MatchOption,
    Preset,
    SinceOption,
    UntilOption,
    named_file,
)
from twentynine.outputs import refuse_overwrite
from twentynine.replay import audit_match
from twentynine.reports.html.annotations import Analysed, Coverage, read_analysed
from twentynine.reports.html.match import match_report
from twentynine.reports.html.players import (
    SECTIONS_SHOWN,
    RunChoiceError,
    Scope,
    players_report,
)
from twentynine.reports.warehouse.errors import WarehouseError
from twentynine.reports.warehouse.listing import MatchNotFoundError, pick_match, stored_match
from twentynine.reports.warehouse.readback import read_match
from twentynine.reports.warehouse.store import DEFAULT_DB, open_warehouse
from twentynine.schema.log import MatchLog
from twentynine.schema.words import plural

report_app = typer.Typer(
    name="report",
    help="HTML reports: a match with its step-by-step viewer, or the players' statistics.",
    no_args_is_help=True,
    rich_markup_mode=None,  # plain help, as the other commands have it
)


def _fail(message: str) -> typer.Exit:
    from twentynine.options import fail

    return fail(message)


_PLAIN_ID: Final = re.compile(r"[a-z0-9][a-z0-9._-]{0,59}")
"""Match ids kept as they are in a file name: short, lower case (two ids never share a file
on a case-insensitive disk), and safe in a file name and an address alike."""


def match_file_name(match_id: str) -> str:
    """The file name of a match's report: ``match-<id>.html`` for a short, plain id; else a
    slug of it, ``~`` and a hash of the whole id, so that every id gets its own short file
    name (non-Latin ids, long ids, ids that differ only in case or punctuation).

    >>> match_file_name("sim-pagat-1"), match_file_name("club/2026-11-29 t3")
    ('match-sim-pagat-1.html', 'match-club_2026-11-29_t3~dda4a4aca6a4.html')
    >>> match_file_name("খেলা-১"), match_file_name("খেলা-২")
    ('match-~54e5e154608d.html', 'match-~8434cf3449f9.html')
    """
    if _PLAIN_ID.fullmatch(match_id):
        return f"match-{match_id}.html"
    slug = re.sub(r"[^a-z0-9.-]+", "_", match_id.lower()).strip("._-")[:40].rstrip("._-")
    digest = hashlib.sha256(match_id.encode()).hexdigest()[:12]
    return f"match-{slug}~{digest}.html"


def example_link(folder: Path, match_id: str, deal: int, action: int | None) -> str:
    """The address, relative to the players report, of a step of an example match: each part
    of the path escaped, so that a ``#`` or ``%`` in the report's own name breaks nothing.

    >>> example_link(Path("a#b_matches"), "m1", 2, 5)
    'a%23b_matches/match-m1.html#deal=2&action=5'
    """
    step = f"#deal={deal}" + ("" if action is None else f"&action={action}")
    return f"{quote(folder.name, safe='')}/{quote(match_file_name(match_id), safe='')}{step}"


def _write(path: Path, text: str) -> None:
    with atomic_file(path) as stream:
        stream.write(text.encode())


def _annotations(db: Path | None, match_id: str) -> Analysed:
    if db is None:
        return Analysed(None, None)
    try:
        with open_warehouse(db, read_only=True) as wh:
            return read_analysed(wh, match_id)
    except WarehouseError as exc:
        raise _fail(str(exc)) from None


def find_match(path: str, match_id: str | None, skipped: Skipping) -> MatchLog:
    """The match that ``match_id`` names in ``path`` (its id, or its number in `twentynine
    matches`; the first without one), going past what cannot be read (``skipped`` names
    and counts it); a one-line exit when there is none."""

    def candidates() -> Iterator[tuple[str, MatchLog]]:
        reading = Reading()
        try:
            records = read_paths([path], reading=reading)
        except ValueError:  # no match log there: none to pick, as pick_match says
            return
        warn_empty(reading.inputs)
        yield from skipped.readable(records)

    try:
        return pick_match(match_id, candidates())
    except MatchNotFoundError as exc:
        raise skipped.not_found(f"{path}: {exc}") from None


def write_match_report(
    match: MatchLog,
    out: Path,
    annotations: list[Annotation] | None,
    coverage: Coverage | None = None,
) -> None:
    """Audit ``match`` and write its report to ``out`` (``coverage``: what the annotations
    cover, :func:`~reports.html.annotations.read_coverage`)."""
    _write(out, match_report(match, audit_match(match), annotations, coverage))


@report_app.command("match")
def match_command(
    out: Annotated[
        Path,
        typer.Option(
            "-o", "--out", metavar="FILE", help="The HTML file to write.", parser=named_file
        ),
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
            parser=named_file,
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
    skipped = Skipping()
    if path is not None:
        match = find_match(path, match_id, skipped)
    else:
        assert db is not None
        try:
            match = stored_match(match_id, db=db)
        except MatchNotFoundError as exc:
            raise _fail(f"{db}: {exc}") from None
        except WarehouseError as exc:
            raise _fail(str(exc)) from None
    try:
        write_match_report(match, out, *_annotations(db, match.match_id))
    except OSError as exc:
        raise _fail(f"cannot write {out}: {exc.strerror or exc}") from None
    typer.echo(f"match report ({plural(len(match.deals), 'deal')}) -> {out}", err=True)
    skipped.exit()


def examples_folder(out: Path) -> Path:
    """Where the players report's example match reports go: ``NAME_matches/`` beside it.

    >>> examples_folder(Path("out/players.html"))
    PosixPath('out/players_matches')
    """
    return out.with_name(out.stem + "_matches")


def write_players_report(
    db: Path,
    out: Path,
    min_deals: int,
    examples: int,
    scope: Scope | None = None,
    sections: int = SECTIONS_SHOWN,
    run: str | None = None,
) -> list[Path]:
    """Write the players report of the warehouse ``db`` to ``out`` (a section for at most
    ``sections`` players; its judged figures from configuration ``run``, a number or an id:
    :func:`~reports.html.players.pick_run`), and the match reports of up to ``examples``
    matches its statistics link to; returns those match reports' paths.

    Every page is made before the first is written; a failure to write removes what this
    call wrote (and the examples' folder when it made it). Raises the warehouse's errors,
    :class:`~reports.html.players.RunChoiceError` (nothing written) and ``OSError``.
    """
    folder = examples_folder(out)
    chosen: list[str] = []

    def link(match_id: str, deal: int, action: int | None) -> str | None:
        if match_id not in chosen:
            if len(chosen) >= examples:
                return None
            chosen.append(match_id)
        return example_link(folder, match_id, deal, action)

    pages: list[tuple[Path, str]] = []
    with open_warehouse(db, read_only=True) as wh:
        page = players_report(wh, min_deals, link, scope, section_cap=sections, run=run)
        for match_id in sorted(chosen):
            match = read_match(wh, match_id)
            html = match_report(match, audit_match(match), *read_analysed(wh, match_id))
            pages.append((folder / match_file_name(match_id), html))
    made_folder = False
    written: list[Path] = []
    try:
        if pages and not folder.exists():
            folder.mkdir(parents=True)
            made_folder = True  # only now: a folder it could not make is not one to remove
        for target, html in pages:
            _write(target, html)
            written.append(target)
        _write(out, page)
    except OSError:
        for path in written:
            path.unlink(missing_ok=True)
        if made_folder:
            folder.rmdir()
        raise
    return written


@report_app.command("players")
def players_command(
    out: Annotated[
        Path,
        typer.Option(
            "-o", "--out", metavar="FILE", help="The HTML file to write.", parser=named_file
        ),
    ],
    db: DbOption = Path(DEFAULT_DB),
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
            "report, in FILE_matches/, and link the statistics to them (0: no links); each "
            "player's worst decisions come first.",
        ),
    ] = 3,
    preset: Annotated[
        Preset | None, typer.Option("--preset", help="Only matches of this preset.")
    ] = None,
    since: SinceOption = None,
    until: UntilOption = None,
    sections: Annotated[
        int,
        typer.Option(
            "--sections",
            min=0,
            metavar="N",
            help="A section for at most this many players with --min-deals deals or more, "
            "those with the most deals; the page says how many were left out.",
        ),
    ] = SECTIONS_SHOWN,
    run: Annotated[
        str | None,
        typer.Option(
            "--run",
            metavar="N|ID",
            help="When the annotations in scope come from several configurations (the "
            "report refuses to pool them, and numbers them): count only this one's, by its "
            "number or its id; the other statistics count every match.",
        ),
    ] = None,
) -> None:
    """Player and partnership statistics with intervals, sortable tables and charts.

    Archives whose player ids change every game are reported by role instead (and each id
    with --min-deals deals or more on its own). --preset, --since and --until count only
    those matches. Annotations worked out with different options are never pooled: pick
    one configuration with --run.

    \b
    Example: twentynine report players --db club.duckdb -o players.html
    """
    refuse_overwrite([out], folders=[examples_folder(out)], warehouses=[db])
    if since is not None and until is not None and since > until:
        raise _fail(f"--since {since} is after --until {until}: no match begins in between")
    scope = Scope(preset.value if preset is not None else None, since, until)
    try:
        examples_written = write_players_report(db, out, min_deals, examples, scope, sections, run)
    except WarehouseError as exc:
        raise _fail(str(exc)) from None
    except RunChoiceError as exc:
        raise _fail(f"{db}: {exc}") from None
    except OSError as exc:
        raise _fail(f"cannot write {exc.filename or out}: {exc.strerror or exc}") from None
    extra = ""
    if examples_written:
        extra = f", and {plural(len(examples_written), 'example match')} in {examples_folder(out)}/"
    typer.echo(f"players report -> {out}{extra}", err=True)
