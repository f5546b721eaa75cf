"""``twentynine analyze``: annotate matches, store the annotations or write them as JSON lines.

The walk: the importers read the matches, :mod:`analysis.run` annotates them deal by deal
through an executor (processes here, or a Dask cluster), and the warehouse stores each
match's annotations whole. cli.py registers :func:`analyze_command`.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import orjson
import typer
from rich.console import Console

from twentynine.analysis.annotate import Annotation
from twentynine.analysis.hindsight import HINDSIGHT_KINDS, unjudged
from twentynine.analysis.run import (
    DEFAULT_SAMPLES,
    ONLY_GROUPS,
    AnalysisOptions,
    annotate_matches,
    parse_only,
)
from twentynine.cli import say_unreadable
from twentynine.importers.formats import FORMAT_NAMES, read_paths
from twentynine.limits import check_jobs, check_samples
from twentynine.reports.warehouse.annotations import replace_annotations
from twentynine.reports.warehouse.errors import WarehouseError
from twentynine.reports.warehouse.store import SourcedMatch, open_warehouse
from twentynine.schema.log import MatchLog
from twentynine.textout import plural, warning_line
from twentynine.workers import process_pool

LABEL_WORDS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


def _fail(message: str, code: int = 2) -> typer.Exit:
    from twentynine.options import fail

    return fail(message, code)


def analyze_command(
    paths: Annotated[
        list[str],
        typer.Argument(metavar="PATH", help="Files or folders of match logs; - is stdin."),
    ],
    db: Annotated[
        Path | None,
        typer.Option(
            "--db",
            metavar="FILE",
            help="Store in this DuckDB warehouse (else JSON lines to stdout).",
        ),
    ] = None,
    samples: Annotated[
        int,
        typer.Option("--samples", min=1, metavar="N", help="Samples a fair decision takes."),
    ] = DEFAULT_SAMPLES,
    jobs: Annotated[int, typer.Option("--jobs", min=1, metavar="J", help="Worker processes.")] = 1,
    seed: Annotated[
        int, typer.Option("--seed", metavar="S", help="Same seed, same annotations.")
    ] = 0,
    only: Annotated[
        str | None,
        typer.Option(
            "--only",
            metavar="GROUPS",
            help=f"Comma-separated, of: {', '.join(ONLY_GROUPS)}.",
        ),
    ] = None,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            metavar="ADDRESS",
            help="A Dask scheduler's address, e.g. tcp://127.0.0.1:8786 (the 'cluster' extra).",
        ),
    ] = None,
    from_format: Annotated[
        str | None,
        typer.Option(
            "--from",
            metavar="FORMAT",
            help=f"The input format, of: {', '.join(FORMAT_NAMES)}; detected when not given.",
        ),
    ] = None,
) -> None:
    """Annotate every card, show, bid, trump choice and double (docs/analysis.md).

    Exit status: 0 done, 2 an input or the warehouse could not be used (matches already
    stored keep their annotations).

    \b
    Example: twentynine analyze sample_logs/bangladesh.json --db club.duckdb --only cards,shows
    """
    try:
        kinds = parse_only(only)
    except ValueError as exc:
        raise _fail(f"--only: {exc}") from None
    for refusal in (check_jobs(jobs), check_samples(samples)):
        if refusal is not None:
            raise _fail(refusal)
    options = AnalysisOptions(kinds=kinds, samples=samples, seed=seed)
    matches, sourced, unreadable = _read_matches(paths, from_format, kinds)
    if not matches:
        raise typer.Exit(2)  # each unreadable input has had its line
    deals = sum(len(m.deals) for m in matches)
    counts: Counter[str] = Counter()
    card_losses: list[float] = []
    try:
        with _executor(jobs, cluster) as pool, _progress(deals) as tick:
            results = annotate_matches(matches, options, pool, on_deal=tick)
            if db is None:
                for _, notes in results:
                    _tally(notes, counts, card_losses)
                    for note in notes:  # JSON lines are UTF-8 (10♦), whatever the locale
                        sys.stdout.buffer.write(orjson.dumps(note.as_dict()) + b"\n")
            else:
                with open_warehouse(db) as wh:
                    wh.load(sourced)  # with their files, which a later load names
                    for match_id, notes in results:
                        replace_annotations(wh, match_id, notes)
                        _tally(notes, counts, card_losses)
    except WarehouseError as exc:
        raise _fail(str(exc), exc.exit_code) from None
    typer.echo(_summary(len(matches), deals, counts, card_losses, db), err=True)
    if unreadable:
        raise typer.Exit(2)


def _read_matches(
    paths: list[str], from_format: str | None, kinds: frozenset[str]
) -> tuple[list[MatchLog], list[SourcedMatch], int]:
    """The matches read, the same with their files and lines (what the warehouse stores),
    and how many inputs could not be read (each named on stderr); a warning for the deals
    whose cards and shows cannot be judged, when ``kinds`` asks for them."""
    try:
        records = read_paths(paths, from_format)
    except ValueError as exc:  # no match log in the paths, or an unknown --from
        raise _fail(str(exc)) from None
    matches: list[MatchLog] = []
    sourced: list[SourcedMatch] = []
    unreadable = 0
    for record in records:
        if record.match is None:
            unreadable += 1
            say_unreadable(record)
            continue
        matches.append(record.match)
        sourced.append(SourcedMatch(record.match, record.source, record.line))
        if kinds & HINDSIGHT_KINDS:
            _warn_unjudged(sourced[-1])
    return matches, sourced, unreadable


def _warn_unjudged(sourced: SourcedMatch) -> None:
    """One warning line for each reason some deals of the match get no exact annotations."""
    match = sourced.match
    assert isinstance(match, MatchLog)
    rules = match.resolved_rules()
    deals: dict[str, list[int]] = {}
    for number, deal in enumerate(match.deals, start=1):
        reason = unjudged(rules, deal, number)
        if reason is not None:
            deals.setdefault(reason, []).append(number)
    for reason, numbers in deals.items():
        which = "deal" if len(numbers) == 1 else "deals"
        listed = ", ".join(map(str, numbers))
        typer.echo(
            warning_line(
                f"{sourced.where}: match {match.match_id}, {which} {listed}: "
                f"cards and shows not judged: {reason}"
            ),
            err=True,
        )


@contextmanager
def _executor(jobs: int, cluster: str | None) -> Iterator[Executor | None]:
    """Processes on this machine (none for one job), or a Dask cluster's executor."""
    if cluster is not None:
        try:
            from distributed import Client
        except ImportError:
            raise _fail("--cluster needs Dask distributed: install the 'cluster' extra") from None
        try:
            client = Client(cluster, timeout="5s")  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError) as exc:
            raise _fail(f"--cluster {cluster}: cannot reach the scheduler ({exc})") from None
        try:
            yield client.get_executor()  # type: ignore[no-untyped-call]
        finally:
            client.close()  # type: ignore[no-untyped-call]
        return
    if jobs == 1:
        yield None
        return
    with process_pool(jobs) as pool:
        yield pool


@contextmanager
def _progress(total: int) -> Iterator[Callable[[], None] | None]:
    """A progress bar of deals on standard error when that is a terminal."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("analysing deals", total=total)
        yield lambda: progress.advance(task)


def _tally(notes: list[Annotation], counts: Counter[str], card_losses: list[float]) -> None:
    for note in notes:
        counts[note.kind] += 1
        if note.label:
            counts[note.label] += 1
        if note.kind == "card" and note.method == "exact":
            card_losses.append(note.loss)


def _summary(
    matches: int, deals: int, counts: Counter[str], card_losses: list[float], db: Path | None
) -> str:
    total = sum(v for k, v in counts.items() if k not in LABEL_WORDS)
    text = f"{plural(matches, 'match')}, {plural(deals, 'deal')}: {plural(total, 'annotation')}"
    if card_losses:
        average = sum(card_losses) / len(card_losses)
        text += f"; {plural(len(card_losses), 'card')} judged, {average:.2f} points lost a card"
    labels = [
        f"{counts[k]} {k if counts[k] == 1 else many}"
        for k, many in LABEL_WORDS.items()
        if counts[k]
    ]
    if labels:
        text += "; " + ", ".join(labels)
    if db is not None:
        text += f" -> {db}"
    return text
