"""``twentynine load``: files read by the importers, matches audited and stored by the warehouse.

The front wires the walk: :func:`importers.formats.read_paths` gives one record per match
(with its file and line), a record that could not be read is counted with its problems, and
:meth:`reports.warehouse.store.Warehouse.load` audits and stores the matches. With ``jobs=2``
a second process reads the files and tells the duplicates, audits the matches and builds
their rows, while this one stores them and audits the units of matches handed to it (as
much as keeps the two processes' CPU time alike): the same rows on two cores.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import queue
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import fields, replace
from pathlib import Path
from typing import Any, Final

import msgspec

from twentynine.importers.canonical import Match, Record
from twentynine.importers.errors import no_such_path, unknown_format
from twentynine.importers.formats import FORMAT_NAMES, FORMATS, Reading, read_paths
from twentynine.limits import LOAD_JOBS
from twentynine.reports.warehouse.errors import WarehouseError, WarehouseLockedError
from twentynine.reports.warehouse.store import (
    BATCH_DEALS,
    DEFAULT_DB,
    Admission,
    LoadSummary,
    Pending,
    Progress,
    SourcedMatch,
    StoredBatch,
    StoredSources,
    Warehouse,
    audit_into,
    collector_off,
    new_batch,
    open_warehouse,
)
from twentynine.schema.fastlog import decode_encoded, is_decoded
from twentynine.textout import unreadable_lines
from twentynine.workers import end_with_parent

_IN_FLIGHT: Final = 3  # batches and units handed over, not yet taken: bounds --jobs 2's memory
_UNITS_AHEAD: Final = 1  # units handed to a busy writer that it has not started yet
_CLOSING_UNITS: Final = 4  # units left to read when each unit becomes a batch of its own
_ENCODER: Final = msgspec.json.Encoder()
_WRITER_FIELDS: Final = frozenset({"database", "stored", "deals", "findings", "replaced"})


def load_paths(
    paths: Iterable[str | Path],
    *,
    db: str | Path = DEFAULT_DB,
    from_format: str | None = None,
    progress: Progress | None = None,
    batch_deals: int = BATCH_DEALS,
    replace: bool = False,
    jobs: int = 1,
) -> LoadSummary:
    """``twentynine load PATH... [--db FILE] [--from FORMAT] [--replace] [--jobs N]``: read,
    audit and store (``replace``: a match stored with other content is replaced, see
    :meth:`Warehouse.load`; ``jobs=2``: read and audit in a second process).

    Raises :class:`~reports.warehouse.errors.WarehouseError` (one line) when the warehouse
    cannot be opened or written, ``ValueError`` for an unknown format name or when ``paths``
    hold no match log (an empty folder: the warehouse is then not opened). A warehouse the
    load made and stored nothing in (every match refused) is not left behind
    (``summary.discarded``); one that was there is left as it was.

    >>> import tempfile
    >>> db = Path(tempfile.mkdtemp()) / "w.duckdb"
    >>> load_paths(["sample_logs/league.jsonl"], db=db, jobs=2).stored
    70
    """
    paths = list(paths)
    if from_format is not None and from_format not in FORMATS:
        raise ValueError(unknown_format(from_format, FORMAT_NAMES))
    if jobs not in LOAD_JOBS:
        raise ValueError(f"--jobs {jobs}: give 1 or 2")
    missing = [str(path) for path in paths if str(path) != "-" and not _exists(Path(path))]
    if missing and len(missing) == len(paths):  # nothing to read: no warehouse made for it
        raise ValueError(no_such_path(missing[0]))
    reading = Reading()
    records = read_paths(paths, from_format, fast=True, reading=reading)
    made = not _exists(Path(db))
    load = _load_beside if jobs == 2 else _load_here
    try:
        summary = load(records, reading, db, progress, batch_deals, replace)
    except BaseException:  # Ctrl-C, or a refusal: a warehouse this load made, left empty, goes
        if made and not _holds_matches(Path(db)):
            _discard(Path(db))
        raise
    if made and not summary.stored:
        _discard(Path(db))
        summary.discarded = True
    return summary


def _load_here(
    records: Iterator[Record[Match]],
    reading: Reading,
    db: str | Path,
    progress: Progress | None,
    batch_deals: int,
    replace: bool,
) -> LoadSummary:
    """Read, audit and store in this process."""
    with open_warehouse(db) as wh:
        summary = _summary(wh.name, reading)
        matches = _matches(records, reading, summary)
        return wh.load(
            matches, progress=progress, batch_deals=batch_deals, summary=summary, replace=replace
        )


def _summary(database: str, reading: Reading) -> LoadSummary:
    return LoadSummary(
        database=database, files=len(reading.inputs), bytes_total=reading.bytes_total
    )


def _matches(
    records: Iterator[Record[Match]], reading: Reading, summary: LoadSummary
) -> Iterator[SourcedMatch]:
    """The matches read, each with its file and line; a file not read at all, or a record
    that could not be read, is counted into ``summary`` with its problems."""
    for record in records:
        summary.bytes_read = reading.bytes_read
        if reading.unreadable > summary.unreadable:  # a file not read at all: no match read
            summary.not_read(unreadable_lines(record))
        elif record.match is None:
            summary.skip_unreadable(unreadable_lines(record))
        else:
            yield SourcedMatch(record.match, record.source, record.line, record.document)
    summary.bytes_read = reading.bytes_read


def _discard(db: Path) -> None:
    """Remove a warehouse file the load made (closed), and its write-ahead log if any."""
    for path in (db, db.with_name(db.name + ".wal")):
        path.unlink(missing_ok=True)


def _holds_matches(db: Path) -> bool:
    """Whether the warehouse file ``db`` holds a match (one locked by another process
    counts: it is not this load's to remove; one that cannot be read as a warehouse, half
    made when the load stopped, does not)."""
    if not db.exists():
        return False
    try:
        with open_warehouse(db, read_only=True) as wh:
            return bool(wh.query("SELECT count(*) FROM matches").rows[0][0])
    except WarehouseLockedError:
        return True
    except WarehouseError:
        return False


def _exists(path: Path) -> bool:
    """Whether ``path`` exists; a path one may not look at, or a symlink loop, counts
    (reading it says why)."""
    try:
        path.stat()
    except FileNotFoundError:
        return path.is_symlink()
    except OSError:
        return True
    return True


# ------------------------------------------------------------------------------ --jobs 2
def _load_beside(
    records: Iterator[Record[Match]],
    reading: Reading,
    db: str | Path,
    progress: Progress | None,
    batch_deals: int,
    replace: bool,
) -> LoadSummary:
    """Read, audit and build rows in a child process; store them here, a batch at a time.

    The child is forked before the warehouse is opened (it must hold no copy of DuckDB's
    connection) and is told which ids are stored once it is open. It makes the same
    batches as one process would, answering for the ids of the batches it handed over as
    the warehouse would once they are stored; every batch is stored in one transaction
    here, so a kill leaves each match whole, as with one process.
    """
    context = multiprocessing.get_context("fork")
    stored_in: Any = context.Queue(1)
    stored_in.cancel_join_thread()  # a reader that fails before it reads it: no wait at exit
    built: Any = context.Queue(_IN_FLIGHT)
    pace = _Pace(context)
    try:
        stdin = os.dup(0)  # the child process starts with standard input closed: it reads this
    except OSError:  # none to read
        stdin = os.open(os.devnull, os.O_RDONLY)
    child = context.Process(
        target=_build_batches,
        args=(records, reading, stored_in, built, pace, os.getpid(), replace, batch_deals, stdin),
        daemon=True,
    )
    try:
        child.start()
    finally:
        os.close(stdin)
    try:
        with collector_off(), open_warehouse(db) as wh:  # as the one-process load
            stored_in.put(wh.stored_sources())
            summary = _summary(wh.name, reading)
            return _store_batches(wh, child, built, pace, summary, progress, batch_deals)
    finally:
        if child.is_alive():
            child.terminate()
        child.join()


def _store_batches(
    wh: Warehouse,
    child: Any,
    built: Any,
    pace: _Pace,
    summary: LoadSummary,
    progress: Progress | None,
    batch_deals: int,
) -> LoadSummary:
    """Store what the child built, and audit and store the units it handed over."""
    own = new_batch()  # the rows of the units audited here
    audited = LoadSummary(database="")  # what auditing them here skipped, and why
    while True:
        pace.writer_ran()
        if built.empty():
            pace.writer_waits()
        try:
            kind, payload, counted = built.get(timeout=1.0)
        except queue.Empty:
            if child.is_alive():
                continue
            raise RuntimeError("the load's reading process ended without a word") from None
        if kind == "failed":
            raise RuntimeError(f"the load's reading process failed ({payload})")
        ending = kind == "done"  # with the last batch, if any: the reader has stopped
        if kind == "audit":
            pace.unit_started()
            todo, replaced = payload
            own.replaced.extend(replaced)
            for _ in audit_into([_unpacked(p) for p in todo], own, audited):
                pass
        ready: list[StoredBatch] = [payload] if kind != "audit" and payload is not None else []
        if len(own) and (ready or ending or own.deals >= batch_deals):
            ready.append(StoredBatch.of(own))  # with the reader's batch: one insert, not two
            own = new_batch()
        if ready:  # while the reader runs, it keeps a CPU busy: DuckDB's threads take the rest
            wh.store_tables(StoredBatch.joined(ready), summary, busy_cpus=0 if ending else 1)
        _take_counts(summary, counted, audited)
        if progress is not None:
            progress(summary)
        if kind == "done":
            return summary


def _take_counts(summary: LoadSummary, counted: LoadSummary, audited: LoadSummary) -> None:
    """What the reading process counted (read, skipped, duplicates, their lines, bytes) and
    what auditing here skipped, into the writer's summary, which counts what it stored."""
    for field in fields(LoadSummary):
        if field.name not in _WRITER_FIELDS:
            setattr(summary, field.name, getattr(counted, field.name))
    summary.skipped += audited.skipped
    summary.problems = list(summary.problems)
    for line in audited.problems:
        summary._keep(summary.problems, line)


def _build_batches(
    records: Iterator[Record[Match]],
    reading: Reading,
    stored_in: Any,
    built: Any,
    pace: _Pace,
    writer: int,
    replace: bool,
    batch_deals: int,
    stdin: int,
) -> None:
    """The child of ``--jobs 2``: read, admit, audit and build rows, a unit of matches at a
    time; a unit is handed to the writer instead when ``pace`` says so, which shares the
    work by how fast each process goes (``writer``, its parent's pid: it stops when that
    is gone).
    ``stdin`` is the parent's standard input (``-``), which multiprocessing closes here."""
    end_with_parent(writer)
    sys.stdin = os.fdopen(stdin, "r")
    gc.disable()  # as the one-process load: many acyclic rows, nothing for the collector
    summary = _summary("", reading)
    try:
        stored: StoredSources | None = None

        def lookup(match_ids: list[str]) -> StoredSources:
            nonlocal stored  # asked for the first unit: its reading overlaps the opening
            if stored is None:
                stored = _get(stored_in, writer)
            return {i: stored[i] for i in match_ids if i in stored}

        unit_bytes = read_at = 0
        units_left = float("inf")  # about how many units are still to read (a file's size)

        def closing() -> bool:  # asked once a unit
            nonlocal unit_bytes, read_at, units_left
            unit_bytes = max(unit_bytes, reading.bytes_read - read_at)
            read_at = reading.bytes_read
            if reading.bytes_total and unit_bytes:
                units_left = (reading.bytes_total - read_at) / unit_bytes
            return units_left <= _CLOSING_UNITS

        def hand_off(todo: list[Pending], replaced: list[str]) -> bool:
            # Near the end only to a writer that waits, and not the last unit: what the
            # writer has to do when the reading ends, it does alone
            if units_left < 1:
                return False
            waiting_only = units_left <= _CLOSING_UNITS or not built.empty()
            if not pace.hand_over(only_if_waiting=waiting_only):
                return False
            packed = [_packed(p) for p in todo]
            _put(built, ("audit", (packed, replaced), _snapshot(summary)), writer)
            return True

        admission = Admission(
            lookup,
            summary,
            replace=replace,
            batch_deals=batch_deals,
            hand_off=hand_off,
            closing=closing,
        )
        items = ((match, None) for match in _matches(records, reading, summary))
        last: StoredBatch | None = None
        for batch, ending in admission.batches(items):
            if ending:  # sent with "done": the writer stores it knowing the reader stopped
                last = StoredBatch.of(batch)
            else:
                _put(built, ("batch", StoredBatch.of(batch), _snapshot(summary)), writer)
        lookup([])  # read what the writer sent, if no unit asked (nothing to admit)
        _put(built, ("done", last, _snapshot(summary)), writer)
    except BaseException as exc:  # the writer reports it: this process cannot
        _put(built, ("failed", f"{type(exc).__name__}: {exc}", _snapshot(summary)), writer)


class _Pace:
    """What the two processes of ``--jobs 2`` share to split the audits by how fast each
    goes: whether the writer waits with nothing to do, how many units handed to it it has
    not started, and the CPU time it has used since the reader was forked (the reader's is
    its own process's, which starts then).

    A unit goes to the writer when it waits, or when it has nothing queued (no unit, no
    batch) and has used less CPU than the reader: both then stay busy, and end with about
    the same CPU time each, which is the shortest wall time on two free cores, whatever
    each one's share of storing costs on the machine. Near the end of the input the reader
    hands a unit over only to a writer that waits (``only_if_waiting``).
    """

    def __init__(self, context: Any) -> None:
        self._idle = context.Event()  # set while the writer waits with nothing to do
        self._queued = context.Value("i", 0)  # units handed over and not started
        self._writer_cpu = context.Value("d", 0.0, lock=False)
        self._start = time.process_time()  # the writer's, when the reader is forked

    def writer_ran(self) -> None:
        """The writer, between items: its CPU time so far."""
        self._writer_cpu.value = time.process_time() - self._start

    def writer_waits(self) -> None:
        """The writer: nothing to do until the next item."""
        self._idle.set()

    def unit_started(self) -> None:
        """The writer: a unit handed over is being audited."""
        with self._queued.get_lock():
            self._queued.value -= 1

    def hand_over(self, *, only_if_waiting: bool = False) -> bool:
        """The reader: whether to hand its next unit to the writer (it then counts it)."""
        busy = (
            only_if_waiting
            or self._queued.value >= _UNITS_AHEAD
            or self._writer_cpu.value >= time.process_time()
        )
        if busy and not self._idle.is_set():
            return False
        self._idle.clear()  # the writer says again when it waits
        with self._queued.get_lock():
            self._queued.value += 1
        return True


Packed = tuple[bytes | Match, str, str, str | None, int | None, str | None]
"""A match handed to the writer: the fast decoder's structs as JSON (a tenth of the cost of
pickling them, object by object): the document they were read from (which the decoder
checked: decoding it again gives the same structs), else as encoded; the models as they
are; its id, places and content fingerprint."""


def _packed(p: Pending) -> Packed:
    match: bytes | Match = p.match
    if is_decoded(p.match):
        document = p.document
        if document is None:
            match = _ENCODER.encode(p.match)
        else:
            match = document.encode() if isinstance(document, str) else document
    return match, p.match_id, p.where, p.source, p.line, p.fingerprint


def _unpacked(packed: Packed) -> Pending:
    match, match_id, where, source, line, fingerprint = packed
    decoded = decode_encoded(match) if isinstance(match, bytes) else match
    return Pending(decoded, None, match_id, where, source, line, fingerprint)


def _snapshot(summary: LoadSummary) -> LoadSummary:
    """A copy to send: the queue pickles it later, while the counting goes on."""
    return replace(
        summary, problems=list(summary.problems), duplicate_lines=list(summary.duplicate_lines)
    )


def _get(source: Any, writer: int) -> Any:
    while True:
        try:
            return source.get(timeout=1.0)
        except queue.Empty:
            _stop_if_orphaned(writer)


def _put(target: Any, item: object, writer: int) -> None:
    while True:
        try:
            target.put(item, timeout=1.0)
            return
        except queue.Full:
            _stop_if_orphaned(writer)


def _stop_if_orphaned(writer: int) -> None:
    if os.getppid() != writer:  # the writer was killed: nothing will store what is built
        os._exit(1)
