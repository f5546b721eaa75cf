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
from enum import Enum
from itertools import chain, islice
from pathlib import Path
from typing import Annotated, Any, NamedTuple

import orjson
import typer
from rich.console import Console

from twentynine.analysis.annotate import Annotation
from twentynine.analysis.hindsight import HINDSIGHT_KINDS, unjudged
from twentynine.analysis.models.contract import ModelError, few_calls, load_model
from twentynine.analysis.models.dealing import FAIR, asked_dealing
from twentynine.analysis.run import (
    DEFAULT_SAMPLES,
    ONLY_GROUPS,
    SEEDS,
    AnalysisOptions,
    annotate_matches,
    config_difference,
    parse_only,
    run_record,
)
from twentynine.cli import _read_inputs, say_unreadable
from twentynine.cluster import ClusterError, cluster_executor
from twentynine.importers.canonical import Record
from twentynine.importers.errors import no_logs_found
from twentynine.importers.formats import FORMAT_NAMES, read_paths
from twentynine.limits import STORE_SECONDS, WAIT_SECONDS, check_jobs, check_samples
from twentynine.loading import _discard, _exists
from twentynine.options import named_file
from twentynine.outputs import refuse_overwrite
from twentynine.reports.warehouse import companions
from twentynine.reports.warehouse.annotations import (
    StoredRun,
    annotations_refusal,
    parse_record,
    replace_annotations,
    stored_configs,
    stored_run,
)
from twentynine.reports.warehouse.errors import WarehouseError
from twentynine.reports.warehouse.listing import MatchNotFoundError, pick_match
from twentynine.reports.warehouse.store import SourcedMatch, Warehouse, open_warehouse
from twentynine.schema.log import MatchLog
from twentynine.schema.shapes import MatchLike
from twentynine.schema.words import plural
from twentynine.textout import error_line, warning_line
from twentynine.workers import process_pool

ADMIT_BATCH = 32
"""Matches read from files stored in the warehouse together before they are analysed."""

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
            parser=named_file,
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
    dealing: Annotated[
        str,
        typer.Option(
            "--dealing",
            metavar="fair|server",
            help="The layouts dealt as a fair shuffle (the default), or as the Bhoos server "
            "deals, for the games under its rules (docs/analysis.md, 'How the server deals').",
        ),
    ] = FAIR,
    match_id: Annotated[
        str | None,
        typer.Option(
            "--match",
            metavar="ID",
            help="Only this match: its id, or its number in reading order (from 1, as "
            "`twentynine matches` numbers a file's).",
        ),
    ] = None,
    deal_number: Annotated[
        int | None,
        typer.Option("--deal", min=1, metavar="N", help="Only deal N (from 1) of each match."),
    ] = None,
    limit: Annotated[
        int | None,
        typer.Option(
            "--limit",
            min=1,
            metavar="N",
            help="At most N matches (those --resume skips not counted).",
        ),
    ] = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="With --db: skip the matches it holds annotated with the same options, "
            "seed and models (a stopped run goes on where it stopped); refused when it "
            "holds matches analysed with others.",
        ),
    ] = False,
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
    try:
        asked = asked_dealing(dealing)
    except ValueError as exc:
        raise _fail(f"--dealing: {exc}") from None
    if model is not None and (few := few_calls(model)) is not None:
        typer.echo(warning_line(f"{model_file}: {few}; its notes keep wide intervals"), err=True)
    if resume and db is None:
        raise _fail("--resume needs --db FILE: the warehouse holds what was analysed")
    if cluster is not None and jobs != 1:
        raise _fail(
            f"--jobs {jobs} and --cluster ask two things: the cluster's workers run the deals; "
            "give one"
        )
    options = AnalysisOptions(kinds=kinds, samples=samples, seed=seed, model=model, dealing=asked)
    options = options._replace(deal=deal_number)
    if db is not None:
        refuse_overwrite([db, *companions(db)[:1]], inputs=paths)
    records = _read_inputs(paths, from_format, fast=False)
    picks = _Picks(match_id, deal_number, limit)
    inputs = _Inputs(records, exact=bool(kinds & HINDSIGHT_KINDS), picks=picks)
    matches = inputs.matches()
    first = next(matches, None)
    if first is None:
        if inputs.missing is not None:
            raise _fail(inputs.missing)
        if not (inputs.unreadable or inputs.refused):  # only empty files, each warned of
            raise _fail(no_logs_found(paths))
        raise typer.Exit(2)  # each unreadable input has had its line; nothing made
    tally = _Tally()
    done: int | None = None  # matches done, once the executor is there
    record = run_record(options)
    try:
        with (
            _executor(jobs, cluster, wait) as pool,
            _progress(paths, from_format, picks) as progress,
            _output(db, record, deal_number, resume) as output,
        ):
            done = 0
            window = 2 * jobs if cluster is None else 64  # enough to keep every worker busy
            admitted = inputs.admitted(
                chain([first], matches),
                output.admit,
                skipped=progress.skipped,
                batch=1 if "-" in paths else ADMIT_BATCH,  # standard input: each as it comes
            )
            results = annotate_matches(
                admitted, options, pool, on_deal=progress.tick, window=window
            )
            for done_id, notes in results:  # each match written or stored once done
                output(inputs.done(done_id), notes)
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
    replaced = output.replaced if isinstance(output, _Stored) else 0
    typer.echo(tally.summary(inputs.read, inputs.deals, db, inputs.resumed, replaced), err=True)
    if inputs.missing is not None:
        raise _fail(inputs.missing)
    if inputs.unreadable or inputs.refused:
        raise typer.Exit(2)


class _Picks(NamedTuple):
    """What ``--match``, ``--deal`` and ``--limit`` pick of the inputs."""

    match: str | None = None
    deal: int | None = None
    limit: int | None = None

    def deals(self, match: MatchLike) -> int:
        """How many of ``match``'s deals are analysed."""
        if self.deal is None:
            return len(match.deals)
        return int(self.deal <= len(match.deals))


class Admission(Enum):
    """What becomes of a match just read: analysed, refused (named), a match this run
    already took, or one the warehouse holds analysed as asked (``--resume``)."""

    ANALYSE = "analyse"
    REFUSED = "refused"
    AGAIN = "again"
    DONE = "done"


class _Inputs:
    """The matches of the inputs as they are read, each kept with its file and line until it
    is done; what cannot be read is named and counted, and a warning names the deals whose
    cards and shows cannot be judged (``exact``: when they are asked for). ``picks`` keeps
    the match ``--match`` names (``missing`` says why none, once read), the matches that have
    the ``--deal`` asked (the others named), and the first ``--limit`` admitted."""

    def __init__(
        self, records: Iterator[Record[MatchLog]], *, exact: bool, picks: _Picks | None = None
    ) -> None:
        self._records = records
        self._exact = exact
        self._picks = picks or _Picks()
        self._in_flight: deque[SourcedMatch] = deque()
        self.read = 0
        self.deals = 0
        self.unreadable = 0
        self.refused = 0
        self.resumed = 0
        self.missing: str | None = None

    def matches(self) -> Iterator[MatchLog]:
        """The readable matches, in reading order (only the one ``--match`` names)."""
        for record in self._picked():
            match = record.match
            assert match is not None
            sourced = SourcedMatch(match, record.source, record.line)
            deal = self._picks.deal
            if deal is not None and deal > len(match.deals):
                self.refused += 1
                typer.echo(
                    error_line(
                        f"{sourced.where}: match {match.match_id} has "
                        f"{plural(len(match.deals), 'deal')}: no deal {deal} to analyse"
                    ),
                    err=True,
                )
                continue
            if self._exact:
                _warn_unjudged(sourced, deal)
            self.read += 1
            self.deals += self._picks.deals(match)
            self._in_flight.append(sourced)
            yield match

    def _picked(self) -> Iterator[Record[MatchLog]]:
        """The readable records; with ``--match``, the one it names: the match with that id,
        else the one with that number (read to the end to know there is no such id)."""
        wanted = self._picks.match
        ids: list[str] = []
        numbered: Record[MatchLog] | None = None
        for record in self._records:
            if record.match is None:
                self.unreadable += 1
                say_unreadable(record)
                continue
            if wanted is None:
                yield record
                continue
            if record.match.match_id == wanted:
                yield record
                return
            ids.append(record.match.match_id)
            if wanted.isdigit() and int(wanted) == len(ids):
                numbered = record
        if wanted is None:
            return
        if numbered is not None:
            yield numbered
            return
        try:
            pick_match(wanted, ((match_id, None) for match_id in ids))
        except MatchNotFoundError as exc:
            self.missing = f"--match: {exc}"

    def admitted(
        self,
        matches: Iterator[MatchLog],
        admit: Callable[[list[SourcedMatch]], list[Admission]],
        *,
        skipped: Callable[[int], None] | None = None,
        batch: int = 1,
    ) -> Iterator[MatchLog]:
        """``matches`` (read by :meth:`matches`) less those ``admit`` turns down, up to
        ``--limit`` of them; ``admit`` is handed up to ``batch`` matches at a time, as read
        (never more than the limit leaves to take); ``skipped`` is told the deals of each
        match left out."""
        taken = 0
        limit = self._picks.limit
        while limit is None or taken < limit:
            size = batch if limit is None else min(batch, limit - taken)
            chunk = list(islice(matches, size))
            if not chunk:
                return
            sourced = list(self._in_flight)[-len(chunk) :]  # the matches just read
            verdicts = admit(sourced)
            for _ in chunk:  # put back those admitted, as each is handed on
                self._in_flight.pop()
            for match, entry, verdict in zip(chunk, sourced, verdicts, strict=True):
                if verdict is Admission.ANALYSE:
                    self._in_flight.append(entry)
                    yield match
                    taken += 1
                    continue
                deals = self._picks.deals(match)
                self.read -= 1
                self.deals -= deals
                self.refused += verdict is Admission.REFUSED
                self.resumed += verdict is Admission.DONE
                if skipped is not None:
                    skipped(deals)

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

    def admit(self, batch: list[SourcedMatch]) -> list[Admission]:
        return [Admission.ANALYSE for _ in batch]


@contextmanager
def _output(
    db: Path | None, record: str, deal: int | None = None, resume: bool = False
) -> Iterator[Output]:
    """JSON lines on standard output (each match's flushed at once), or the warehouse ``db``:
    each match stored (as ``load`` stores it, with its file) with its annotations; a
    warehouse made for a run that stored nothing is not left behind."""
    if db is None:
        yield Output()
        return
    made = not _exists(db)
    stored: _Stored | None = None
    try:
        with open_warehouse(db) as wh:
            refusal = _resume_refusal(wh, record) if resume else None
            if refusal is not None:
                raise _fail(f"--resume: {db} {refusal}")
            with _Stored(wh, record, deal, resume) as stored:
                yield stored
    finally:
        if made and (stored is None or not stored.count):  # nothing stored: no new file left
            _discard(db)


def _resume_refusal(wh: Warehouse, record: str) -> str | None:
    """Why ``--resume`` with the options of ``record`` may not go on in ``wh``: it holds a
    match analysed with others (a resume goes on with the run that stopped; it would
    replace that match's annotations, or mix two configurations in it); None when it may."""
    asked = parse_record(record).config
    assert asked is not None
    for match_id, config in stored_configs(wh):
        difference = config_difference(config, asked)
        if difference is not None:
            return (
                f"holds matches analysed with other options (match {match_id!r}: "
                f"{difference}): nothing analysed; give the stored options to go on, or "
                "leave out --resume to analyse again and replace their annotations"
            )
    return None


class _Stored(Output):
    """Stores each match as it is read, with its file and line (as ``load`` does), and
    admits it when the warehouse holds it as read (:meth:`admit`); then stores its
    annotations once they are done, at once, unless a store came less than
    :data:`STORE_SECONDS` before: storing a batch costs the warehouse about as much as
    storing one match, so quick matches go in together, each within those seconds of being
    done (a thread stores them while the run waits), and every one is stored when the run
    ends, however it ends."""

    def __init__(self, wh: Warehouse, record: str, deal: int | None, resume: bool) -> None:
        self._wh = wh
        self._record = record
        self._deal = deal
        self._resume = resume
        self._lock = threading.Lock()
        self._done: list[tuple[SourcedMatch, list[Annotation]]] = []
        self._last = -STORE_SECONDS
        self._failed: BaseException | None = None
        self._stop = threading.Event()
        self._timer = threading.Thread(target=self._store_late, name="store", daemon=True)
        self._taken: set[str] = set()
        self._config = parse_record(record).config
        self.count = 0
        self.replaced = 0
        """Matches whose annotations, worked out with other options, this run replaces."""

    def admit(self, batch: list[SourcedMatch]) -> list[Admission]:
        """Store the matches of ``batch`` at once (in one transaction: a match's store costs
        the warehouse about what a batch's does) and say whether the annotations of each may
        follow: refused (named in one line) for a match the warehouse refuses or another
        match under an id it holds, or, with ``--deal``, one whose annotations were worked
        out with other options (the deal would mix two configurations in one match); again
        for a match already admitted in this run (analysed once); done for one it holds
        analysed with the same options, the deal asked included (``--resume``)."""
        assert all(isinstance(s.match, MatchLog) for s in batch)  # analysis needs the models
        with self._lock:  # the reading thread and the storing ones share the connection
            summary = self._wh.load(batch)
            self.count += len(batch)
            refusals = [annotations_refusal(self._wh, s.match) for s in batch]  # type: ignore[arg-type]
            runs = {s.match.match_id: stored_run(self._wh, s.match.match_id) for s in batch}
        for index, sourced in enumerate(batch):  # --deal adds to a match of these options only
            match_id = sourced.match.match_id
            if refusals[index] is None and match_id not in self._taken:
                refusals[index] = self._mixing(match_id, runs[match_id])
        lines = list(summary.problems)
        for sourced, refusal in zip(batch, refusals, strict=True):
            named = any(
                repr(sourced.match.match_id) in line or line.startswith(f"{sourced.where}: ")
                for line in summary.problems
            )
            if refusal is not None and not named:
                lines.append(f"{sourced.where}: {refusal}")
        for line in lines:
            typer.echo(error_line(f"{line}; it is not analysed"), err=True)
        verdicts = []
        for sourced, refusal in zip(batch, refusals, strict=True):
            match_id = sourced.match.match_id
            if refusal is not None:
                verdicts.append(Admission.REFUSED)
            elif match_id in self._taken:
                verdicts.append(Admission.AGAIN)
            else:
                self._taken.add(match_id)
                run = runs[match_id]
                same = run is not None and run.config == self._config
                if self._resume and same and run is not None and run.covers(self._deal):
                    verdicts.append(Admission.DONE)
                    continue
                self.replaced += run is not None and not same
                verdicts.append(Admission.ANALYSE)
        return verdicts

    def _mixing(self, match_id: str, run: StoredRun | None) -> str | None:
        """Why ``--deal`` may not add to a match's stored annotations: they were worked out
        with other options (or with options not recorded); None when it may."""
        if self._deal is None or run is None or run.config == self._config:
            return None
        assert self._config is not None
        if run.config is None:
            held = "annotations whose options are not recorded"
        else:
            difference = config_difference(run.config, self._config)
            held = f"annotations worked out with other options ({difference})"
        return (
            f"match {match_id!r} holds {held}: deal {self._deal} with these would mix two "
            "runs in one match; analyse the whole match (without --deal) to replace them"
        )

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
            replace_annotations(
                self._wh, sourced.match, notes, record=self._record, deal=self._deal
            )
        self._last = time.monotonic()


def _warn_unjudged(sourced: SourcedMatch, only: int | None = None) -> None:
    """One warning line for each reason some deals of the match (deal ``only``, when given)
    get no exact annotations."""
    match = sourced.match
    assert isinstance(match, MatchLog)
    rules = match.resolved_rules()
    deals: dict[str, list[int]] = {}
    for number, deal in enumerate(match.deals, start=1):
        if only is not None and number != only:
            continue
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


class _Progress:
    """The deals done against the deals to do, with the time left, on standard error when
    that is a terminal. The inputs are counted in a thread of their own while the work goes
    (files only: standard input is read once), so the bar has its length, and the time left
    its estimate, a moment after the start; matches ``--resume`` skips come off it."""

    def __init__(self, bar: Any | None = None) -> None:
        self._bar = bar
        self._task: Any = None
        self._lock = threading.Lock()
        self._total: int | None = None
        self._skipped = 0
        if bar is not None:
            self._task = bar.add_task("analysing", total=None)

    def tick(self) -> None:
        """One deal done."""
        if self._bar is not None:
            self._bar.advance(self._task)

    def skipped(self, deals: int) -> None:
        """A match left out after it was counted (``--resume``, refused)."""
        with self._lock:
            self._skipped += deals
            self._show()

    def counted(self, deals: int) -> None:
        """The inputs hold ``deals`` to analyse."""
        with self._lock:
            self._total = deals
            self._show()

    def _show(self) -> None:
        if self._bar is not None and self._total is not None:
            self._bar.update(self._task, total=max(self._total - self._skipped, 0))


@contextmanager
def _progress(paths: list[str], from_format: str | None, picks: _Picks) -> Iterator[_Progress]:
    """A bar on standard error when it is a terminal (else nothing is drawn)."""
    if not sys.stderr.isatty():
        yield _Progress()
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("analysing deals"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        progress = _Progress(bar)
        if all(_read_twice(path) for path in paths):
            threading.Thread(
                target=_count,
                args=(paths, from_format, picks, progress.counted),
                name="count-deals",
                daemon=True,
            ).start()
        yield progress


def _read_twice(path: str) -> bool:
    """Whether ``path`` may be read a second time to count its deals: a file or a folder, not
    standard input or a pipe (``<(command)``), whose bytes the count would take from the run."""
    try:
        return path != "-" and (Path(path).is_file() or Path(path).is_dir())
    except OSError:
        return True  # the run names what cannot be looked at; the count finds nothing there


def _count(
    paths: list[str], from_format: str | None, picks: _Picks, counted: Callable[[int], None]
) -> None:
    """Count the deals the run will analyse (an estimate: the warehouse's refusals and
    ``--resume`` come off as they are met) and hand the count to ``counted``."""
    deals = matches = 0
    try:
        for record in read_paths(paths, from_format, fast=True):
            if record.match is None:
                continue
            matches += 1
            if picks.match is not None:
                if record.match.match_id == picks.match or picks.match == str(matches):
                    deals = picks.deals(record.match)
                    if record.match.match_id == picks.match:
                        break
                continue
            deals += picks.deals(record.match)
            if picks.limit is not None and matches >= picks.limit:
                break
    except Exception:  # the run itself names what cannot be read; no count, no estimate
        return
    counted(deals)


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

    def summary(
        self, matches: int, deals: int, db: Path | None, resumed: int = 0, replaced: int = 0
    ) -> str:
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
        if resumed:
            text += f"; {plural(resumed, 'match')} already analysed with these options, skipped"
        if replaced:
            text += (
                f"; the annotations of {plural(replaced, 'match')}, worked out with other "
                "options, replaced"
            )
        if db is not None:
            text += f" -> {db}"
        return text
