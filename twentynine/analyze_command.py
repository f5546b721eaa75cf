"""``twentynine analyze``: annotate matches, store the annotations or write them as JSON lines.

The walk: the importers read the matches, :mod:`analysis.run` annotates them deal by deal
through an executor (processes here, or a Dask cluster), and the warehouse stores each
match's annotations whole. cli.py registers :func:`analyze_command`.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Annotated

import orjson
import typer
from rich.console import Console

from twentynine.analysis.annotate import Annotation
from twentynine.analysis.models.contract import ModelError, load_model
from twentynine.analysis.run import (
    DEFAULT_SAMPLES,
    ONLY_GROUPS,
    SEEDS,
    AnalysisOptions,
    annotate_matches,
    parse_only,
)
from twentynine.importers.formats import FORMAT_NAMES, read_paths
from twentynine.outputs import refuse_overwrite
from twentynine.reports.warehouse import companions
from twentynine.reports.warehouse.annotations import annotations_refusal, replace_annotations
from twentynine.reports.warehouse.errors import WarehouseError
from twentynine.reports.warehouse.store import SourcedMatch, Warehouse, open_warehouse
from twentynine.schema.log import MatchLog
from twentynine.textout import error_line, plural

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
        int,
        typer.Option(
            "--seed",
            min=SEEDS.start,
            max=SEEDS.stop - 1,
            metavar="S",
            help="Same seed, same annotations (a signed 64-bit integer).",
        ),
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
    model_file: Annotated[
        Path | None,
        typer.Option(
            "--model",
            metavar="FILE",
            help="Judge the bids by this contract model (`twentynine calibration --fit`).",
        ),
    ] = None,
) -> None:
    """Annotate every card, show, bid, trump choice and double (docs/analysis.md).

    With --db, a match the warehouse refuses, or another match under an id it holds, is
    named and not analysed. Exit status: 0 done, 2 an input or the warehouse could not be
    used, or a match was refused (matches already stored keep their annotations).

    \b
    Example: twentynine analyze sample_logs/bangladesh.json --db club.duckdb --only cards,shows
    """
    try:
        kinds = parse_only(only)
    except ValueError as exc:
        raise _fail(f"--only: {exc}") from None
    try:
        model = load_model(model_file) if model_file is not None else None
    except ModelError as exc:
        raise _fail(str(exc)) from None
    options = AnalysisOptions(kinds=kinds, samples=samples, seed=seed, model=model)
    if db is not None:
        refuse_overwrite([db, *companions(db)[:1]], inputs=paths)
    matches, sourced, unreadable = _read_matches(paths, from_format)
    if not matches:
        raise typer.Exit(2)  # each unreadable input has had its line
    counts: Counter[str] = Counter()
    card_losses: list[float] = []
    refused = 0
    try:
        with _executor(jobs, cluster) as pool, ExitStack() as stack:
            wh = None if db is None else stack.enter_context(open_warehouse(db))
            if wh is not None:
                matches, refused = _admit(wh, list(zip(matches, sourced, strict=True)))
            deals = sum(len(m.deals) for m in matches)
            tick = stack.enter_context(_progress(deals))
            results = annotate_matches(matches, options, pool, on_deal=tick)
            for match, (_, notes) in zip(matches, results, strict=True):
                if wh is not None:
                    replace_annotations(wh, match, notes)
                else:
                    for note in notes:  # JSON lines are UTF-8 (10♦), whatever the locale
                        sys.stdout.buffer.write(orjson.dumps(note.as_dict()) + b"\n")
                _tally(notes, counts, card_losses)
    except WarehouseError as exc:
        raise _fail(str(exc), exc.exit_code) from None
    typer.echo(_summary(len(matches), deals, counts, card_losses, db), err=True)
    if unreadable or refused:
        raise typer.Exit(2)


def _admit(wh: Warehouse, read: list[tuple[MatchLog, SourcedMatch]]) -> tuple[list[MatchLog], int]:
    """Store each match read (with its file and line, which a later load names), and keep
    those whose annotations the warehouse will take: the match stored under each id, once.
    A match it refused (a number it cannot hold), or another match under a stored id, is
    named in one line with the reason and not analysed; how many were, beside the matches."""
    admitted: list[MatchLog] = []
    taken: set[str] = set()
    refused = 0
    for match, item in read:
        summary = wh.load([item])  # one at a time: a match's refusal is its own line
        problem = summary.problems[0] if summary.problems else None
        if problem is None:
            refusal = annotations_refusal(wh, match)
            problem = None if refusal is None else f"{item.where}: {refusal}"
        if problem is not None:
            typer.echo(error_line(f"{problem}; it is not analysed"), err=True)
            refused += 1
        elif match.match_id not in taken:  # the same match again: analysed once
            taken.add(match.match_id)
            admitted.append(match)
    return admitted, refused


def _read_matches(
    paths: list[str], from_format: str | None
) -> tuple[list[MatchLog], list[SourcedMatch], int]:
    """The matches read, the same with their files and lines (what the warehouse stores),
    and how many inputs could not be read (each named on stderr)."""
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
            for problem in record.problems:
                typer.echo(error_line(str(problem)), err=True)
            continue
        matches.append(record.match)
        sourced.append(SourcedMatch(record.match, record.source, record.line))
    return matches, sourced, unreadable


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
    pool = ProcessPoolExecutor(max_workers=jobs)
    try:
        yield pool
    finally:
        pool.shutdown(cancel_futures=True)


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
