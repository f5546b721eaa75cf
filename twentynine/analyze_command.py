"""``twentynine analyze``: annotate matches, store the annotations or write them as JSON lines.

The walk: the importers read the matches, :mod:`analysis.run` annotates them deal by deal
through an executor (processes here, or a Dask cluster), and the warehouse stores each
match's annotations whole. cli.py registers :func:`analyze_command`.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from itertools import chain
from pathlib import Path
from typing import Annotated

import orjson
import typer
from rich.console import Console

from twentynine.analysis.annotate import Annotation
from twentynine.analysis.hindsight import HINDSIGHT_KINDS, unjudged
from twentynine.analysis.models.contract import ModelError, load_model
from twentynine.analysis.run import (
    DEFAULT_SAMPLES,
    ONLY_GROUPS,
    SEEDS,
    AnalysisOptions,
    annotate_matches,
    parse_only,
)
from twentynine.cli import say_unreadable
from twentynine.cluster import ClusterError, cluster_executor
from twentynine.importers.canonical import Record
from twentynine.importers.formats import FORMAT_NAMES, read_paths
from twentynine.limits import STORE_SECONDS, WAIT_SECONDS, check_jobs, check_samples
from twentynine.loading import _discard, _exists
from twentynine.outputs import refuse_overwrite
from twentynine.reports.warehouse import companions
from twentynine.reports.warehouse.annotations import annotations_refusal, replace_annotations
from twentynine.reports.warehouse.errors import WarehouseError
from twentynine.reports.warehouse.store import SourcedMatch, Warehouse, open_warehouse
from twentynine.schema.log import MatchLog
from twentynine.schema.words import plural
from twentynine.textout import error_line, warning_line
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
    wait: Annotated[
        float,
        typer.Option(
            "--wait",
            min=1,
            metavar="SECONDS",
            help="With --cluster: how long to wait for a worker, or for the scheduler to "
            "answer, before giving up.",
        ),
    ] = WAIT_SECONDS,
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
    for refusal in (check_jobs(jobs), check_samples(samples)):
        if refusal is not None:
            raise _fail(refusal)
    try:
        model = load_model(model_file) if model_file is not None else None
    except ModelError as exc:
        raise _fail(str(exc)) from None
    options = AnalysisOptions(kinds=kinds, samples=samples, seed=seed, model=model)
    if db is not None:
        refuse_overwrite([db, *companions(db)[:1]], inputs=paths)
    try:
        records = read_paths(paths, from_format)
    except ValueError as exc:  # no match log in the paths, or an unknown --from
        raise _fail(str(exc)) from None
    inputs = _Inputs(records, exact=bool(kinds & HINDSIGHT_KINDS))
    matches = inputs.matches()
    first = next(matches, None)
    if first is None:
        raise typer.Exit(2)  # each unreadable input has had its line; nothing made
    tally = _Tally()
    done: int | None = None  # matches done, once the executor is there
    try:
        with _executor(jobs, cluster, wait) as pool, _progress() as tick, _output(db) as output:
            done = 0
            window = 2 * jobs if cluster is None else 64  # enough to keep every worker busy
            admitted = inputs.admitted(chain([first], matches), output.admit)
            results = annotate_matches(admitted, options, pool, on_deal=tick, window=window)
            for match_id, notes in results:  # each match written or stored once done
                output(inputs.done(match_id), notes)
                tally.add(notes)
                done += 1
    except WarehouseError as exc:
        raise _fail(str(exc), exc.exit_code) from None
    except ClusterError as exc:  # what was done before it is written or stored
        if done is None:  # not connected: nothing began
            raise _fail(str(exc)) from None
        if not done:
            raise _fail(f"{exc}; nothing analysed") from None
        kept = f"stored in {db}" if db is not None else "written"
        raise _fail(f"{exc}; {plural(done, 'match')} analysed before it, each {kept}") from None
    typer.echo(tally.summary(inputs.read, inputs.deals, db), err=True)
    if inputs.unreadable or inputs.refused:
        raise typer.Exit(2)


class _Inputs:
    """The matches of the inputs as they are read, each kept with its file and line until it
    is done; what cannot be read is named and counted, and a warning names the deals whose
    cards and shows cannot be judged (``exact``: when they are asked for)."""

    def __init__(self, records: Iterator[Record[MatchLog]], *, exact: bool) -> None:
        self._records = records
        self._exact = exact
        self._in_flight: deque[SourcedMatch] = deque()
        self.read = 0
        self.deals = 0
        self.unreadable = 0
        self.refused = 0

    def matches(self) -> Iterator[MatchLog]:
        """The readable matches, in reading order."""
        for record in self._records:
            if record.match is None:
                self.unreadable += 1
                say_unreadable(record)
                continue
            sourced = SourcedMatch(record.match, record.source, record.line)
            if self._exact:
                _warn_unjudged(sourced)
            self.read += 1
            self.deals += len(record.match.deals)
            self._in_flight.append(sourced)
            yield record.match

    def admitted(
        self, matches: Iterator[MatchLog], admit: Callable[[SourcedMatch], bool | None]
    ) -> Iterator[MatchLog]:
        """``matches`` (read by :meth:`matches`) less those ``admit`` turns down as each is
        read: ``False``, refused (named by ``admit``), ``None``, the same match again."""
        for match in matches:
            verdict = admit(self._in_flight[-1])  # the match just read
            if verdict:
                yield match
                continue
            self._in_flight.pop()
            self.read -= 1
            self.deals -= len(match.deals)
            self.refused += verdict is False

    def done(self, match_id: str) -> SourcedMatch:
        """The match whose annotations came back (they come in reading order), with its
        file and line; it is no longer kept."""
        sourced = self._in_flight.popleft()
        assert sourced.match.match_id == match_id, (sourced.match.match_id, match_id)
        return sourced


class Output:
    """Writes or stores a match's annotations once they are all done (``__call__``), and
    says whether a match just read is to be analysed (``admit``)."""

    def __call__(self, sourced: SourcedMatch, notes: list[Annotation]) -> None:
        for note in notes:  # JSON lines are UTF-8 (10♦), whatever the locale
            sys.stdout.buffer.write(orjson.dumps(note.as_dict()) + b"\n")
        sys.stdout.buffer.flush()

    def admit(self, sourced: SourcedMatch) -> bool | None:
        return True


@contextmanager
def _output(db: Path | None) -> Iterator[Output]:
    """JSON lines on standard output (each match's flushed at once), or the warehouse ``db``:
    each match stored (as ``load`` stores it, with its file) with its annotations; a
    warehouse made for a run that stored nothing is not left behind."""
    if db is None:
        yield Output()
        return
    made = not _exists(db)
    stored: _Stored | None = None
    try:
        with open_warehouse(db) as wh, _Stored(wh) as stored:
            yield stored
    finally:
        if made and (stored is None or not stored.count):  # nothing stored: no new file left
            _discard(db)


class _Stored(Output):
    """Stores each match as it is read, with its file and line (as ``load`` does), and
    admits it when the warehouse holds it as read (:meth:`admit`); then stores its
    annotations once they are done, at once, unless a store came less than
    :data:`STORE_SECONDS` before: storing a batch costs the warehouse about as much as
    storing one match, so quick matches go in together, each within those seconds of being
    done (a thread stores them while the run waits), and every one is stored when the run
    ends, however it ends."""

    def __init__(self, wh: Warehouse) -> None:
        self._wh = wh
        self._lock = threading.Lock()
        self._done: list[tuple[SourcedMatch, list[Annotation]]] = []
        self._last = -STORE_SECONDS
        self._failed: BaseException | None = None
        self._stop = threading.Event()
        self._timer = threading.Thread(target=self._store_late, name="store", daemon=True)
        self._taken: set[str] = set()
        self.count = 0

    def admit(self, sourced: SourcedMatch) -> bool | None:
        """Store ``sourced`` at once and say whether its annotations may follow: ``False``
        (named in one line) for a match the warehouse refuses or another match under an id
        it holds, ``None`` for a match already admitted in this run (analysed once)."""
        assert isinstance(sourced.match, MatchLog)  # the models read it: analysis needs them
        with self._lock:  # the reading thread and the storing ones share the connection
            summary = self._wh.load([sourced])
            self.count += 1
            problem = summary.problems[0] if summary.problems else None
            if problem is None:
                refusal = annotations_refusal(self._wh, sourced.match)
                problem = None if refusal is None else f"{sourced.where}: {refusal}"
        if problem is not None:
            typer.echo(error_line(f"{problem}; it is not analysed"), err=True)
            return False
        if sourced.match.match_id in self._taken:
            return None
        self._taken.add(sourced.match.match_id)
        return True

    def __enter__(self) -> _Stored:
        self._timer.start()
        return self

    def __call__(self, sourced: SourcedMatch, notes: list[Annotation]) -> None:
        with self._lock:
            self._raise()
            self._done.append((sourced, notes))
            if time.monotonic() - self._last >= STORE_SECONDS:
                self._store()

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._timer.join()
        with self._lock:
            self._raise()
            self._store()

    def _store_late(self) -> None:
        while not self._stop.wait(STORE_SECONDS / 4):
            with self._lock:
                if self._failed is None and time.monotonic() - self._last >= STORE_SECONDS:
                    try:
                        self._store()
                    except BaseException as exc:  # the run raises it at its next store
                        self._failed = exc

    def _raise(self) -> None:
        if self._failed is not None:
            failed, self._failed = self._failed, None
            self._done.clear()  # the warehouse refused them: not tried again
            raise failed

    def _store(self) -> None:
        if not self._done:
            return
        done, self._done = self._done, []
        for sourced, notes in done:  # each stored as it was read (admit)
            assert isinstance(sourced.match, MatchLog)
            replace_annotations(self._wh, sourced.match, notes)
        self._last = time.monotonic()


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
def _executor(jobs: int, cluster: str | None, wait: float) -> Iterator[Executor | None]:
    """Processes on this machine (none for one job), or a Dask cluster's executor."""
    if cluster is not None:
        with cluster_executor(cluster, wait=wait, say=_notice) as pool:
            yield pool
        return
    if jobs == 1:
        yield None
        return
    with process_pool(jobs) as pool:
        yield pool


def _notice(message: str) -> None:
    typer.echo(warning_line(message), err=True)


@contextmanager
def _progress() -> Iterator[Callable[[], None] | None]:
    """A count of the deals done on standard error when that is a terminal (the input is read
    as the work goes: how many deals it holds is not known up front)."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("analysing deals", total=None)
        yield lambda: progress.advance(task)


class _Tally:
    """What the annotations add up to, match after match: counts by kind and label, and the
    points lost by the cards judged exactly."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.cards = 0
        self.card_loss = 0.0

    def add(self, notes: list[Annotation]) -> None:
        for note in notes:
            self.counts[note.kind] += 1
            if note.label:
                self.counts[note.label] += 1
            if note.kind == "card" and note.method == "exact":
                self.cards += 1
                self.card_loss += note.loss

    def summary(self, matches: int, deals: int, db: Path | None) -> str:
        """The line ``analyze`` ends with."""
        counts = self.counts
        total = sum(v for k, v in counts.items() if k not in LABEL_WORDS)
        text = f"{plural(matches, 'match')}, {plural(deals, 'deal')}: "
        text += plural(total, "annotation")
        if self.cards:
            average = self.card_loss / self.cards
            text += f"; {plural(self.cards, 'card')} judged, {average:.2f} points lost a card"
        labels = [plural(counts[k], k, many) for k, many in LABEL_WORDS.items() if counts[k]]
        if labels:
            text += "; " + ", ".join(labels)
        if db is not None:
            text += f" -> {db}"
        return text
