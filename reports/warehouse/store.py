"""The DuckDB warehouse: open (create, migrate, refuse), load matches in bulk, query read-only.

The walk: the front (``twentynine load``) reads files with the importers and gives the
matches, each with its file and line; :func:`replay.audit_match` gives their facts and
findings, and :meth:`Warehouse.load` stores both, many matches per transaction, through
Arrow. The warehouse never reads a file. A batch commits whole matches only, so a load killed
at any moment leaves every stored match whole, and loading the same input again stores the
rest. A match already stored (same ``match_id``: the log's ``id``, or its content hash) is
counted and skipped.

>>> import tempfile
>>> from twentynine.replay import random_match
>>> from twentynine.schema import Rules
>>> db = Path(tempfile.mkdtemp()) / "w.duckdb"
>>> with open_warehouse(db) as wh:
...     first = wh.load([random_match(Rules.preset("pagat"), seed=1)])
...     again = wh.load([random_match(Rules.preset("pagat"), seed=1)])
>>> first.stored, again.stored, again.duplicates
(1, 0, 1)
>>> run_query("SELECT count(*) AS matches FROM matches", db=db).rows
[(1,)]
"""

from __future__ import annotations

import datetime as dt
import gc
import os
import queue
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path
from types import TracebackType
from typing import Any, Final, TypeVar

import duckdb
import pyarrow as pa

from twentynine.replay import AuditedMatch, audit_match
from twentynine.reports.warehouse import DEFAULT_DB as DEFAULT_DB  # noqa: PLC0414 (named here too)
from twentynine.reports.warehouse import ddl
from twentynine.reports.warehouse.errors import (
    LoadFailedError,
    NotAWarehouseError,
    NotDuckDBError,
    QueryFailedError,
    QueryRefusedError,
    WarehouseCorruptError,
    WarehouseError,
    WarehouseLockedError,
    WarehouseMissingError,
    WarehouseOutdatedError,
    WarehouseTooNewError,
)
from twentynine.reports.warehouse.rows import Batch, RowError
from twentynine.schema.fastlog import content_fingerprint
from twentynine.schema.shapes import MatchLike
from twentynine.schema.words import plural

BATCH_DEALS: Final = 10_000
"""Deals per transaction: big enough for bulk speed, small enough that a killed load loses
little and memory stays flat."""
CHECK_DEALS: Final = 2_000
"""Deals read before their ids are checked against the database, audited and made rows:
what a load holds as matches (models or structs) at once."""
MAX_KEPT_LINES: Final = 1000
PROGRESS_EVERY: Final = 64  # records between progress calls while reading

_LOCK = re.compile(r"Could not set lock|Conflicting lock", re.IGNORECASE)
SHOWN_DUPLICATES: Final = 5
_PID = re.compile(r"\(PID (\d+)\)")
Match = MatchLike
"""A match to store: the models, or the fast decoder's structs (the same rows)."""


@dataclass
class LoadSummary:
    """What a load read and stored; ``lines()`` is the report a person reads.

    ``read`` = ``stored`` + ``duplicates`` + ``skipped``. ``deals`` and ``findings`` count
    what was stored. The live summary is also what a progress callback receives.

    >>> s = LoadSummary(database="w.duckdb", files=1, read=3, stored=2, duplicates=1, deals=40)
    >>> print(s.lines()[-1])  # doctest: +NORMALIZE_WHITESPACE
    3 matches read from 1 file: 2 stored (40 deals, 0 findings), 1 already stored,
    0 skipped -> w.duckdb
    """

    database: str
    files: int = 0
    read: int = 0
    stored: int = 0
    duplicates: int = 0
    skipped: int = 0
    deals: int = 0
    findings: int = 0
    bytes_total: int = 0
    bytes_read: int = 0
    problems: list[str] = field(default_factory=list)
    duplicate_lines: list[str] = field(default_factory=list)
    dropped_lines: int = 0

    replaced: int = 0
    unreadable: int = 0
    """Inputs that could not be opened at all (a missing file, a folder one may not read)."""
    discarded: bool = False
    """The load made the warehouse and stored nothing in it: it was not left behind."""

    @property
    def exit_code(self) -> int:
        """0 when every match was stored or already there, 1 when some were skipped, 2 when
        no input could be read at all (as ``twentynine audit`` exits).

        >>> LoadSummary("w", files=1, unreadable=1).exit_code
        2
        >>> LoadSummary("w", files=2, read=1, stored=1, unreadable=1).exit_code
        1
        """
        if self.files and self.unreadable == self.files:
            return 2
        return 1 if self.skipped or self.unreadable else 0

    def skip_unreadable(self, problems: Iterable[str]) -> None:
        """Count a document that could not be read, with its problems (one line each).

        >>> s = LoadSummary("w")
        >>> s.skip_unreadable(["a.json: cannot read: Permission denied"])
        >>> s.read, s.skipped, s.problems
        (1, 1, ['a.json: cannot read: Permission denied'])
        """
        self.read += 1
        self.skipped += 1
        for problem in problems:
            self._keep(self.problems, problem)

    def not_read(self, problems: Iterable[str]) -> None:
        """Count an input that could not be read at all (no match read from it), with its
        problems (one line each).

        >>> s = LoadSummary("w.duckdb", files=2, read=1, stored=1, deals=20)
        >>> s.not_read(["missing.json: cannot read: No such file or directory"])
        >>> print(s.lines()[-1])  # doctest: +NORMALIZE_WHITESPACE
        1 match read from 2 files (1 not read): 1 stored (20 deals, 0 findings), 0 already
        stored, 0 skipped -> w.duckdb
        """
        self.unreadable += 1
        for problem in problems:
            self._keep(self.problems, problem)

    def _keep(self, lines: list[str], line: str) -> None:
        if len(lines) < MAX_KEPT_LINES:
            lines.append(line)
        else:
            self.dropped_lines += 1

    def lines(self, prefix: str = "") -> list[str]:
        """Problems (each after ``prefix``, the CLI's error prefix) and duplicates one a line,
        then the counts."""
        # every problem matters; duplicates are alike, so a few show what they are
        shown = self.duplicate_lines[:SHOWN_DUPLICATES]
        hidden = len(self.duplicate_lines) - len(shown) + self.dropped_lines
        out = [*(prefix + problem for problem in self.problems), *shown]
        if hidden:
            out.append(f"... and {hidden:,} more lines like these")
        if self.read and not self.stored and self.duplicates == self.read:
            out.append(f"nothing new: every match read was already stored in {self.database}")
        if self.discarded:
            out.append(f"nothing stored: {self.database} was not created")
        replaced = f", {self.replaced:,} replaced" if self.replaced else ""
        unread = f" ({self.unreadable:,} not read)" if self.unreadable else ""
        out.append(
            f"{plural(self.read, 'match')} read from {plural(self.files, 'file')}{unread}: "
            f"{self.stored:,} stored ({plural(self.deals, 'deal')}, "
            f"{plural(self.findings, 'finding')}{replaced}), {self.duplicates:,} "
            f"already stored, {self.skipped:,} skipped -> {self.database}"
        )
        return out

    def to_dict(self) -> dict[str, Any]:
        """The counts and lines as JSON-ready data."""
        return {
            "database": self.database,
            "files": self.files,
            "read": self.read,
            "stored": self.stored,
            "duplicates": self.duplicates,
            "skipped": self.skipped,
            "unread": self.unreadable,
            "replaced": self.replaced,
            "deals": self.deals,
            "findings": self.findings,
            "problems": list(self.problems),
            "duplicate_lines": list(self.duplicate_lines),
        }


Progress = Callable[[LoadSummary], None]
"""Called with the live summary while a load runs (after each commit and every few
records read)."""


@dataclass(frozen=True)
class QueryResult:
    """Columns, their DuckDB types, and rows, as a query gives them.

    >>> r = QueryResult(("a", "b"), ("INTEGER", "VARCHAR"), [(1, "x")])
    >>> r.transposed().rows
    [('a', 1), ('b', 'x')]
    >>> QueryResult(("a",), ("INTEGER",), []).transposed().columns
    ('column',)
    """

    columns: tuple[str, ...]
    types: tuple[str, ...]
    rows: list[tuple[Any, ...]]

    def transposed(self) -> QueryResult:
        """One row per column (``column``, then a value per row): how one player reads best."""
        if len(self.rows) == 1:
            labels = ["value"]
        else:
            labels = [f"row {i + 1}" for i in range(len(self.rows))]
        columns = ("column", *labels)
        return QueryResult(
            columns,
            ("VARCHAR",) * len(columns),
            [(name, *(row[i] for row in self.rows)) for i, name in enumerate(self.columns)],
        )


_READ_STATEMENTS: Final = frozenset({"SELECT"})
_READ_ONLY_STATEMENTS: Final = frozenset({"SELECT", "EXPLAIN", "PRAGMA", "CALL"})


class Warehouse:
    """An open warehouse file. Use :func:`open_warehouse`; close it, or use ``with``."""

    def __init__(self, path: Path, con: duckdb.DuckDBPyConnection, *, read_only: bool) -> None:
        self.path = path
        self.con = con
        self.read_only = read_only

    def __enter__(self) -> Warehouse:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (DuckDB checkpoints on close)."""
        self.con.close()

    @property
    def name(self) -> str:
        return str(self.path)

    @property
    def schema_version(self) -> int:
        """The schema version stored in the file."""
        row = self.con.execute(
            "SELECT value FROM warehouse_info WHERE key = 'schema_version'"
        ).fetchone()
        return int(row[0]) if row else 0

    # ------------------------------------------------------------------------------- load
    def load(
        self,
        items: Iterable[Match | SourcedMatch],
        *,
        progress: Progress | None = None,
        batch_deals: int = BATCH_DEALS,
        summary: LoadSummary | None = None,
        replace: bool = False,
    ) -> LoadSummary:
        """Audit and store matches (each alone, or with the file and line it was read from),
        many per transaction.

        A match may be the models or the fast decoder's structs (:mod:`schema.fastlog`):
        both are stored alike.

        A match already stored, or met earlier in this load, is counted as a duplicate. A
        match stored before with other content under the same id is skipped with a line that
        says so, or, with ``replace``, stored in place of the old one (in the same
        transaction). Raises :class:`LoadFailedError` when DuckDB cannot store a batch (that
        batch is rolled back; earlier ones stay).

        >>> import tempfile
        >>> from twentynine.replay import random_match
        >>> from twentynine.schema import Rules
        >>> with open_warehouse(Path(tempfile.mkdtemp()) / "w.duckdb") as wh:
        ...     s = wh.load([random_match(Rules.preset("bhoos"), seed=s) for s in (1, 2)])
        >>> s.stored, s.deals > 0
        (2, True)
        """
        pairs = ((item, None) for item in items)
        return self._load(pairs, progress, batch_deals, summary, replace=replace)

    def load_audited(
        self,
        pairs: Iterable[tuple[Match, AuditedMatch]],
        *,
        progress: Progress | None = None,
        batch_deals: int = BATCH_DEALS,
    ) -> LoadSummary:
        """Store matches whose audit the caller already has (the demo, the benchmark)."""
        return self._load(pairs, progress, batch_deals, None)

    def _load(
        self,
        items: Iterable[tuple[Match | SourcedMatch, AuditedMatch | None]],
        progress: Progress | None,
        batch_deals: int,
        summary: LoadSummary | None,
        *,
        replace: bool = False,
    ) -> LoadSummary:
        self._check_writable()
        summary = summary if summary is not None else LoadSummary(database=self.name)
        admission = Admission(
            self.stored_sources, summary, replace=replace, batch_deals=batch_deals
        )
        try:
            with _load_settings(self.con), collector_off():
                for batch, last in admission.batches(items, progress):
                    self._commit(batch, summary)
                    if progress is not None and not last:
                        progress(summary)
        except duckdb.Error as exc:  # a batch that fails to store says so itself
            raise LoadFailedError(self.name, f"loading failed: {_first_line(exc)}") from None
        if progress is not None:
            progress(summary)
        return summary

    def _check_writable(self) -> None:
        if self.read_only:
            raise WarehouseError(self.name, "opened read-only: cannot load")

    def store_tables(
        self, tables: StoredBatch, summary: LoadSummary, *, busy_cpus: int = 0
    ) -> None:
        """Store rows built elsewhere (another process: ``twentynine load --jobs 2``) in one
        transaction, as :meth:`load` stores a batch, and count them into ``summary``.
        ``busy_cpus``: how many of the CPUs this process may use are kept busy by other
        work (the reading process): DuckDB's threads take the rest, at least one.
        Raises :class:`LoadFailedError` when DuckDB cannot."""
        self._check_writable()
        try:
            with _load_settings(self.con, busy_cpus):
                self._insert(tables.tables, tables.loaded_at, tables.replaced)
        except duckdb.Error as exc:
            raise LoadFailedError(self.name, f"loading failed: {_first_line(exc)}") from None
        summary.stored += tables.matches
        summary.replaced += len(tables.replaced)
        summary.deals += tables.deals
        summary.findings += tables.findings

    def _commit(self, batch: Batch, summary: LoadSummary) -> None:
        """Store the batch in one transaction."""
        self._insert(batch.arrow_tables(), batch.loaded_at, batch.replaced)
        summary.stored += len(batch)
        summary.replaced += len(batch.replaced)
        summary.deals += batch.deals
        summary.findings += batch.findings

    def stored_sources(self, match_ids: list[str] | None = None) -> StoredSources:
        """Where each stored match of ``match_ids`` (None: every one) came from
        (``file:line``), and its content hash."""
        select = "SELECT match_id, source, source_line, content_hash FROM matches"
        if match_ids is None:
            rows = self.con.execute(select).fetchall()
        else:
            rows = self.con.execute(
                select + " WHERE match_id IN (SELECT unnest($ids::VARCHAR[]))", {"ids": match_ids}
            ).fetchall()
        return {
            mid: ((src or "<match>") if line is None else f"{src}:{line}", content)
            for mid, src, line, content in rows
        }

    def _insert(
        self, tables: dict[str, pa.Table], loaded_at: dt.datetime, replaced: list[str]
    ) -> None:
        con = self.con
        for name, table in tables.items():
            con.register(f"_batch_{name}", table)
        try:
            con.begin()
            if replaced:
                for table in ddl.MATCH_TABLES:
                    con.execute(
                        f"DELETE FROM {table} WHERE match_id IN (SELECT unnest($ids::VARCHAR[]))",
                        {"ids": replaced},
                    )
                con.execute(  # its run record goes with its annotations
                    "DELETE FROM warehouse_info WHERE key IN "
                    "(SELECT $prefix || unnest($ids::VARCHAR[]))",
                    {"ids": replaced, "prefix": ddl.ANALYSED_KEY},
                )
            for table in tables:
                con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _batch_{table}")
            for statement in ddl.match_stats_sql("_batch_{}"):
                con.execute(statement)
            con.execute(
                "INSERT INTO players BY NAME "
                "SELECT player_id, first(name) AS name, first(match_id) AS first_match_id, "
                "$loaded AS first_loaded_at FROM _batch_match_players "
                "WHERE player_id NOT IN (SELECT player_id FROM players) GROUP BY player_id",
                {"loaded": loaded_at},
            )
            con.commit()
        except duckdb.Error as exc:
            _rollback(con)
            raise LoadFailedError(
                self.name, f"storing a batch failed: {_first_line(exc)}"
            ) from None
        except BaseException:
            _rollback(con)
            raise
        finally:
            for name in tables:
                con.unregister(f"_batch_{name}")

    # ------------------------------------------------------------------------------ query
    def query(self, sql: str, params: dict[str, Any] | None = None) -> QueryResult:
        """Run read-only SQL; the last statement's result. Writes raise :class:`QueryRefusedError`.

        On a read-only warehouse ``SELECT``, ``EXPLAIN``, ``PRAGMA`` and ``CALL`` are
        allowed; on a writable one, ``SELECT`` only. DuckDB's errors become
        :class:`QueryFailedError` with DuckDB's first line.
        """
        allowed = _READ_ONLY_STATEMENTS if self.read_only else _READ_STATEMENTS
        try:
            statements = self.con.extract_statements(sql)
        except duckdb.Error as exc:
            raise QueryFailedError(self.name, _first_line(exc)) from None
        if not statements:
            raise QueryFailedError(self.name, "no SQL statement given")
        for statement in statements:
            kind = _statement_kind(statement)
            if kind not in allowed:
                raise QueryRefusedError(self.name, kind)

        def run() -> tuple[list[Any], list[tuple[Any, ...]]]:
            for statement in statements[:-1]:
                self.con.execute(statement.query)
            cursor = self.con.execute(statements[-1].query, params)
            return list(cursor.description or []), cursor.fetchall()

        try:
            description, rows = interruptible(self.con, run)
        except duckdb.Error as exc:
            raise QueryFailedError(self.name, _first_line(exc)) from None
        return QueryResult(
            tuple(d[0] for d in description), tuple(str(d[1]) for d in description), rows
        )


def _statement_kind(statement: duckdb.Statement) -> str:
    """A statement's type name (``SELECT``, ...); DuckDB's Python API has no name for some
    types (UPDATE EXTENSIONS): the statement's first words then, which no list of reads
    holds, so that a statement of a type unknown here is refused as a write."""
    try:
        return statement.type.name
    except ValueError:
        return " ".join(statement.query.split()[:2]).upper()


@dataclass(frozen=True, slots=True)
class SourcedMatch:
    """A match and where it was read: the file (``source``) and the line, where known;
    and the JSON document the fast decoder read it from, if it was (it crosses to another
    process at less cost than the match).

    >>> SourcedMatch(None, "league.jsonl", 3).where  # the match left out of the example
    'league.jsonl:3'
    """

    match: Match
    source: str
    line: int | None
    document: bytes | str | None = None

    @property
    def where(self) -> str:
        return self.source if self.line is None else f"{self.source}:{self.line}"


StoredSources = dict[str, tuple[str, str | None]]
"""Stored match ids, each with where it came from (``file:line``) and its content hash."""


@dataclass(frozen=True)
class StoredBatch:
    """One batch's rows as Arrow tables, ready to store in one transaction (picklable: how a
    load's second process hands its rows to the writer)."""

    tables: dict[str, pa.Table]
    loaded_at: dt.datetime
    replaced: list[str]
    matches: int
    deals: int
    findings: int

    @staticmethod
    def of(batch: Batch) -> StoredBatch:
        return StoredBatch(
            batch.arrow_tables(),
            batch.loaded_at,
            batch.replaced,
            len(batch),
            batch.deals,
            batch.findings,
        )

    @staticmethod
    def joined(batches: Sequence[StoredBatch]) -> StoredBatch:
        """Batches as one, to store in one transaction: each table's rows one batch's after
        the other's (an insert has a fixed cost of its own, about five inserted deals').

        >>> one = StoredBatch.of(new_batch())
        >>> both = StoredBatch.joined([one, one])
        >>> both.tables.keys() == one.tables.keys(), both.matches
        (True, 0)
        """
        if len(batches) == 1:
            return batches[0]
        return StoredBatch(
            {
                name: pa.concat_tables([batch.tables[name] for batch in batches])
                for name in batches[0].tables
            },
            min(batch.loaded_at for batch in batches),
            [match_id for batch in batches for match_id in batch.replaced],
            sum(batch.matches for batch in batches),
            sum(batch.deals for batch in batches),
            sum(batch.findings for batch in batches),
        )


@dataclass(frozen=True, slots=True)
class Pending:
    """A match read and not yet stored, with where it came from (and its content
    fingerprint, once worked out)."""

    match: Match
    audited: AuditedMatch | None
    match_id: str
    where: str
    source: str | None
    line: int | None
    fingerprint: str | None = None
    document: bytes | str | None = None


_CONTENT_HASH: Final = [c.name for c in ddl.TABLES["matches"]].index("content_hash")
"""Where a match row holds the match's content hash."""

HandOff = Callable[[list[Pending], list[str]], bool]
"""Takes a unit of matches to audit and store elsewhere, and the ids whose stored rows they
replace, or declines it (``False``: audit it here). ``twentynine load --jobs 2`` hands a unit
to the writer when the writer waits with nothing to do."""


class Admission:
    """What a load does before it stores: match by match, tell the duplicates and the matches
    stored before with other content, audit the rest and build their rows, a batch at a
    time. It asks ``lookup`` which ids are stored (the warehouse, or what ``twentynine load
    --jobs 2`` read from it at the start), and counts into ``summary``.

    With ``hand_off``, a unit of matches it has admitted is offered there first, and
    audited here only when declined; the ids handed off, and those of the batches it gave,
    are then answered as stored (as the warehouse answers once they are committed), for a
    lookup that cannot see the commits. ``closing``, asked once a unit, says when the input
    is nearly read: each unit then ends its batch, so that the last one, stored when
    nothing else is left to do beside it, is small.
    """

    def __init__(
        self,
        lookup: Callable[[list[str]], StoredSources],
        summary: LoadSummary,
        *,
        replace: bool = False,
        batch_deals: int = BATCH_DEALS,
        hand_off: HandOff | None = None,
        closing: Callable[[], bool] | None = None,
    ) -> None:
        self.lookup = lookup
        self.closing = closing
        self.summary = summary
        self.replace = replace
        self.batch_deals = batch_deals
        self.hand_off = hand_off
        self.remembered: StoredSources = {}
        self._handed_deals = 0  # deals handed off since the last batch

    def batches(
        self,
        items: Iterable[tuple[Match | SourcedMatch, AuditedMatch | None]],
        progress: Progress | None = None,
    ) -> Iterator[tuple[Batch, bool]]:
        """Each full batch, then the last one (``True``); the caller stores each before it
        asks for the next."""
        summary, batch_deals = self.summary, self.batch_deals
        batch = _new_batch()
        pending: list[Pending] = []  # read, not yet checked against the database
        pending_deals = 0
        where_of: dict[str, str] = {}  # ids read since the last commit, and where
        for item, audited in items:
            summary.read += 1
            if isinstance(item, SourcedMatch):
                match, where, source, line = item.match, item.where, item.source, item.line
                document = item.document
            else:
                match, where, source, line, document = item, "<match>", None, None, None
            match_id = match.match_id
            if match_id in where_of:
                summary.duplicates += 1
                summary._keep(
                    summary.duplicate_lines,
                    f"{where}: match {match_id!r} appears again (first at {where_of[match_id]})",
                )
                continue
            where_of[match_id] = where
            pending.append(Pending(match, audited, match_id, where, source, line, None, document))
            pending_deals += len(match.deals)
            if pending_deals >= min(CHECK_DEALS, batch_deals):
                self._admit(pending, batch, where_of)
                pending, pending_deals = [], 0
                closing = self.closing is not None and self.closing()
                if batch.deals + self._handed_deals >= batch_deals or (closing and len(batch)):
                    self._remember(batch, where_of)
                    yield batch, False
                    batch, where_of, self._handed_deals = _new_batch(), {}, 0
                    continue
            if progress is not None and summary.read % PROGRESS_EVERY == 0:
                progress(summary)
        if pending:
            self._admit(pending, batch, where_of)
        if len(batch):
            yield batch, True

    def _remember(self, batch: Batch, where_of: dict[str, str]) -> None:
        if self.hand_off is None:
            return
        for match_id, row in zip(batch.match_ids, batch.match_rows, strict=True):
            self.remembered[match_id] = (where_of[match_id], row[_CONTENT_HASH])

    def _stored(self, match_ids: list[str]) -> StoredSources:
        stored = self.lookup(match_ids)
        if self.remembered:
            stored.update((i, self.remembered[i]) for i in match_ids if i in self.remembered)
        return stored

    def _admit(self, pending: list[Pending], batch: Batch, where_of: dict[str, str]) -> None:
        """Audit the matches not stored yet (or stored with other content, to ``replace``)
        and add their rows to the batch; or hand them off, when ``hand_off`` takes them."""
        summary = self.summary
        stored = self._stored([p.match_id for p in pending])
        todo: list[Pending] = []
        replaced: list[str] = []
        for p in pending:
            if p.match_id in stored:
                source, content = stored[p.match_id]
                if content is None or content == content_fingerprint(p.match):
                    summary.duplicates += 1
                    summary._keep(
                        summary.duplicate_lines,
                        f"{p.where}: match {p.match_id!r} is already stored (from {source})",
                    )
                    continue
                if not self.replace:
                    summary.skipped += 1
                    summary._keep(
                        summary.problems,
                        f"{p.where}: match {p.match_id!r} is already stored (from {source}) "
                        "with other content; load again with --replace to store this one "
                        "in its place",
                    )
                    continue
                replaced.append(p.match_id)
            todo.append(p)
        if self.hand_off is not None:
            # each fingerprint once: remembered if handed off, stored with the rows either way
            todo = [replace(p, fingerprint=content_fingerprint(p.match)) for p in todo]
            if self.hand_off(todo, replaced):
                for p in todo:  # as stored: a match that then fails is the corner case docs name
                    self.remembered[p.match_id] = (where_of[p.match_id], p.fingerprint)
                self._handed_deals += sum(len(p.match.deals) for p in todo)
                return
        batch.replaced.extend(replaced)
        for _ in audit_into(todo, batch, summary):
            pass


def audit_into(todo: list[Pending], batch: Batch, summary: LoadSummary) -> Iterator[Pending]:
    """Audit each match (unless its audit is given) and add its rows to ``batch``; a match
    that cannot be stored is counted skipped with a line that says why. Yields those added."""
    for p in todo:
        try:
            audited = p.audited if p.audited is not None else audit_match(p.match)
            batch.add(p.match, audited, p.source, p.line, fingerprint=p.fingerprint)
        except RowError as exc:
            summary.skipped += 1
            summary._keep(summary.problems, f"{p.where}: cannot be stored: {exc}")
            continue
        except Exception as exc:  # the engine's fault, not the input's: say so
            summary.skipped += 1
            summary._keep(
                summary.problems,
                f"{p.where}: the auditor failed on match {p.match_id!r} "
                f"({type(exc).__name__}: {exc}); please report it",
            )
            continue
        yield p


def new_batch() -> Batch:
    """An empty batch, stamped now."""
    return _new_batch()


_LOAD_SETTINGS: Final = {
    # A checkpoint after every batch costs a third of the load; one every few batches keeps
    # the write-ahead log short (a killed load replays it on the next open).
    "checkpoint_threshold": "64MB",
    # DuckDB's block cache would otherwise grow with the file; beyond this it spills.
    "memory_limit": "256MB",
}


def _usable_cpus() -> int:
    """The CPUs this process may run on: DuckDB counts the machine's, and more threads than
    CPUs only take turns (a load pinned to one core inserts a quarter faster with one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


@contextmanager
def _load_settings(con: duckdb.DuckDBPyConnection, busy_cpus: int = 0) -> Iterator[None]:
    settings = {**_LOAD_SETTINGS, "threads": str(max(1, _usable_cpus() - busy_cpus))}
    before = {
        name: con.execute("SELECT current_setting($name)", {"name": name}).fetchone()[0]  # type: ignore[index]
        for name in settings
    }
    for name, value in settings.items():
        con.execute(f"SET {name} = '{value}'")
    try:
        yield
    finally:
        for name, value in before.items():
            con.execute(f"SET {name} = '{value}'")


def _new_batch() -> Batch:
    return Batch(dt.datetime.now(dt.UTC).replace(tzinfo=None))


@contextmanager
def collector_off() -> Iterator[None]:
    """The cyclic collector off, then as it was (also on an exception): a load's batch is
    hundreds of thousands of acyclic tuples, which it would rescan again and again for
    nothing.

    >>> with collector_off():
    ...     gc.isenabled()
    False
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _rollback(con: duckdb.DuckDBPyConnection) -> None:
    with suppress(duckdb.Error):  # no transaction was open
        con.rollback()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


_T = TypeVar("_T")


def interruptible(con: duckdb.DuckDBPyConnection, run: Callable[[], _T]) -> _T:
    """``run()`` (DuckDB work on ``con``) in a thread of its own, so that Ctrl-C stops it: DuckDB
    does not look for the signal while a query runs (a query of hours went on to its end).
    The main thread waits; on Ctrl-C it interrupts the query, waits for it to stop (the
    connection is closed after) and raises ``KeyboardInterrupt``. One thread serves every
    query of a process (a thread started for each cost about a millisecond of CPU a query).

    >>> interruptible(duckdb.connect(), lambda: 6 * 7)
    42
    """
    outcome: list[_T] = []
    failure: list[BaseException] = []
    done = threading.Event()  # not Thread.join: a join that Ctrl-C cut short returns at once
    # Whether the query thread has begun the work, or Ctrl-C has called it off: one or the
    # other, under the lock, so that Ctrl-C at any moment either stops the work or keeps it
    # from starting (a Ctrl-C between handing the work over and waiting left it running).
    lock = threading.Lock()
    state = {"begun": False, "called_off": False}

    def work() -> None:
        with lock:
            if state["called_off"]:
                return
            state["begun"] = True
        try:
            outcome.append(run())
        except BaseException as exc:  # handed to the main thread as it is
            failure.append(exc)
        finally:
            done.set()

    try:
        _query_thread().put(work)
        while not done.wait(0.1):
            pass
    except KeyboardInterrupt:
        with lock:
            state["called_off"] = True
            begun = state["begun"]
        if begun:
            # Again until it stops: an interrupt that comes before DuckDB begins the query
            # is lost.
            con.interrupt()
            while not done.wait(0.1):
                con.interrupt()
        raise
    if failure:
        raise failure[0]
    return outcome[0]


_QUERY_THREADS: dict[int, queue.SimpleQueue[Callable[[], None]]] = {}


def _query_thread() -> queue.SimpleQueue[Callable[[], None]]:
    """The queue of this process's query thread, started on first use (a forked child has
    none of its parent's threads: it starts its own)."""
    jobs = _QUERY_THREADS.get(os.getpid())
    if jobs is None:
        jobs = _QUERY_THREADS[os.getpid()] = queue.SimpleQueue()
        threading.Thread(target=_serve, args=(jobs,), name="duckdb-query", daemon=True).start()
    return jobs


def _serve(jobs: queue.SimpleQueue[Callable[[], None]]) -> None:
    while True:
        jobs.get()()


# ----------------------------------------------------------------------------------- open
def open_warehouse(
    path: str | Path = DEFAULT_DB, *, read_only: bool = False, export_to: Path | None = None
) -> Warehouse:
    """Open a warehouse: create it (writable and absent or empty), migrate it, or refuse it.

    Every warehouse is opened here, and only here: ``path`` must be a plain local file (not
    ``:memory:``, nor a name DuckDB reads as remote, such as ``md:...`` or ``s3://...``); no
    extension is loaded or installed on the way; and SQL may read or write no other file,
    except into ``export_to`` (the export's folder). Raises a
    :class:`~reports.warehouse.errors.WarehouseError` with a one-line message:
    :class:`WarehouseMissingError`, :class:`WarehouseLockedError`,
    :class:`WarehouseCorruptError`, :class:`NotAWarehouseError`, :class:`WarehouseTooNewError`
    or :class:`WarehouseOutdatedError`; the file is never changed when one is raised.

    >>> open_warehouse("/no/such/dir/w.duckdb", read_only=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    twentynine.reports.warehouse.errors.WarehouseMissingError: /no/such/dir/w.duckdb: no such ...
    >>> open_warehouse("md:club")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    twentynine.reports.warehouse.errors.WarehouseError: md:club: not a local file path; ...
    """
    name = str(path)
    path = Path(path)
    _check_local(name)
    try:
        if path.is_dir():
            raise WarehouseError(name, "is a folder, not a database file")
        exists = path.exists()
        if not exists:
            if read_only:
                raise WarehouseMissingError(name)
            if not path.parent.is_dir():
                raise WarehouseError(name, f"cannot create it: no folder {path.parent}")
        else:
            _check_header(path, name)
    except OSError as exc:
        raise WarehouseError(name, f"cannot open it: {exc.strerror or exc}") from None
    config: dict[str, Any] = {
        "autoinstall_known_extensions": False,
        "autoload_known_extensions": False,
    }
    if export_to is None:  # the export's folder can only be allowed once DuckDB runs
        config["enable_external_access"] = False
        config["lock_configuration"] = read_only  # the loader sets its own memory settings
    if read_only and export_to is None:
        # SQL may read the files of DuckDB's temporary folder (<db>.tmp beside the file, where
        # anyone may have put anything): a reader has none, and spills nothing to disk (the
        # same for every reader: DuckDB opens a file twice in one process only alike)
        config["temp_directory"] = ""
    try:
        # DuckDB reads some relative names (md:x) as remote: it is given the absolute path
        con = duckdb.connect(str(path.absolute()), read_only=read_only, config=config)
    except duckdb.Error as exc:
        raise _open_error(name, exc) from None
    try:
        if export_to is not None:
            _allow_only(con, export_to)
        _prepare(con, name, read_only=read_only)
    except BaseException:
        con.close()
        raise
    return Warehouse(path, con, read_only=read_only)


_DIGITS: Final = re.compile(r"[0-9]+")  # str.isdigit() takes "²", which int() refuses
_REMOTE: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+:")  # a scheme; not a drive letter
_SQLITE_HEADER: Final = b"SQLite format 3\x00"


def _check_local(name: str) -> None:
    """Refuse a ``--db`` that DuckDB would not read as a local file: ``:memory:`` keeps
    nothing, and ``md:``, ``s3://`` and the like reach for the network; and one it would read
    as another file: DuckDB takes a backslash for a folder separator (``a\\b`` is ``a/b``)."""
    if name.startswith(":memory:") or not name or _REMOTE.match(name):
        raise WarehouseError(
            name,
            "not a local file path; name a DuckDB file on this machine, e.g. --db club.duckdb "
            "(a file whose name has a colon: give its absolute path)",
        )
    if "\\" in name and os.sep == "/":
        raise WarehouseError(
            name,
            "DuckDB reads a backslash as a folder separator, so it would open another file; "
            "name the file without one (folders are separated by /)",
        )


def _check_header(path: Path, name: str) -> None:
    """Refuse a file that does not begin as a DuckDB database does (its magic ``DUCK`` at
    byte 8): DuckDB would open a JSON, CSV or Parquet file as a view of its data. An empty
    file is left to DuckDB."""
    with path.open("rb") as stream:
        head = stream.read(16)
    if head.startswith(_SQLITE_HEADER):
        raise WarehouseError(name, "a SQLite database, not a DuckDB warehouse; nothing was changed")
    if head and head[8:12] != b"DUCK":
        raise NotDuckDBError(name)


def _allow_only(con: duckdb.DuckDBPyConnection, folder: Path) -> None:
    """Keep SQL on this connection from any file but the warehouse and ``folder``."""
    quoted = str(folder.absolute()).replace("'", "''")
    con.execute(f"SET allowed_directories = ['{quoted}/']")
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")


def _open_error(name: str, exc: duckdb.Error) -> WarehouseError:
    text = _first_line(exc)
    if _LOCK.search(text):
        pid = _PID.search(text)
        return WarehouseLockedError(name, int(pid.group(1)) if pid else None)
    if isinstance(exc, duckdb.IOException) and "Permission denied" in text:
        return WarehouseError(name, "cannot open it: permission denied")
    detail = re.sub(r'"[^"]*"', "it", text.removeprefix("IO Error: "))
    return WarehouseCorruptError(name, detail)


def _prepare(con: duckdb.DuckDBPyConnection, name: str, *, read_only: bool) -> None:
    """Check the schema version; create or migrate the schema where that is allowed."""
    try:
        names = {
            row[0]
            for row in con.execute(
                "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()"
                " UNION ALL SELECT view_name FROM duckdb_views() "
                "WHERE database_name = current_database() AND NOT internal"
            ).fetchall()
        }
        version: int | None = None
        if "warehouse_info" in names:
            row = con.execute(
                "SELECT value FROM warehouse_info WHERE key = 'schema_version'"
            ).fetchone()
            if row is None:
                raise NotAWarehouseError(name)
            if not _DIGITS.fullmatch(str(row[0])):
                raise _unknown_version(name, str(row[0]))
            version = int(row[0])
    except duckdb.Error as exc:
        raise WarehouseCorruptError(name, _first_line(exc)) from None
    if version is None:
        if names:
            raise NotAWarehouseError(name)
        if read_only:
            raise WarehouseMissingError(name)
        _create(con, name)
        return
    if version > ddl.SCHEMA_VERSION:
        raise WarehouseTooNewError(name, version, ddl.SCHEMA_VERSION)
    if version < min(ddl.MIGRATIONS, default=ddl.SCHEMA_VERSION):
        raise _unknown_version(name, str(version))
    if version < ddl.SCHEMA_VERSION:
        if read_only:
            raise WarehouseOutdatedError(name, version, ddl.SCHEMA_VERSION)
        _migrate(con, name, version)
        return
    missing = [t for t in (*ddl.TABLES, *ddl.VIEWS) if t not in names]
    if missing:
        kind = "table" if missing[0] in ddl.TABLES else "view"
        raise WarehouseError(
            name,
            f"the {kind} {missing[0]} is missing (was the file changed by hand?); "
            "nothing was changed",
        )


def _unknown_version(name: str, version: str) -> WarehouseError:
    return WarehouseError(
        name, f"schema version {version!r} is not one twentynine wrote; nothing was changed"
    )


def _create(con: duckdb.DuckDBPyConnection, name: str) -> None:
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None).isoformat(timespec="seconds")
    try:
        con.begin()
        for statement in ddl.create_schema_sql():
            con.execute(statement)
        con.executemany(
            "INSERT INTO warehouse_info VALUES (?, ?)",
            [
                ("schema_version", str(ddl.SCHEMA_VERSION)),
                ("created_at", now),
                ("created_by", f"twentynine {_version()}"),
            ],
        )
        con.commit()
    except duckdb.Error as exc:
        _rollback(con)
        raise WarehouseError(name, f"cannot create the schema: {_first_line(exc)}") from None


def _version() -> str:
    try:
        return metadata.version("twentynine")
    except metadata.PackageNotFoundError:
        return "unknown"


def _migrate(con: duckdb.DuckDBPyConnection, name: str, version: int) -> None:
    try:
        con.begin()
        while version < ddl.SCHEMA_VERSION:
            ddl.MIGRATIONS[version](con)
            version += 1
        for view in ddl.VIEWS:
            con.execute(ddl.create_view_sql(view))
        con.execute(
            "UPDATE warehouse_info SET value = ? WHERE key = 'schema_version'", [str(version)]
        )
        con.commit()
    except duckdb.Error as exc:
        _rollback(con)
        raise WarehouseError(name, f"cannot migrate the schema: {_first_line(exc)}") from None


# ------------------------------------------------------------------------ CLI entry points
def run_query(sql: str, *, db: str | Path = DEFAULT_DB) -> QueryResult:
    """``twentynine query "SQL" [--db FILE]``: run SQL on a read-only, sandboxed connection.

    Raises :class:`QueryRefusedError` for anything but a read, :class:`QueryFailedError` for SQL
    DuckDB rejects, and the open errors of :func:`open_warehouse`.
    """
    with open_warehouse(db, read_only=True) as wh:
        try:
            statements = wh.con.extract_statements(sql)
        except duckdb.Error as exc:
            raise QueryFailedError(wh.name, _first_line(exc)) from None
        if len(statements) > 1:
            for statement in statements:  # a write is refused first, as alone
                kind = _statement_kind(statement)
                if kind not in _READ_ONLY_STATEMENTS:
                    raise QueryRefusedError(wh.name, kind)
            kinds = ", ".join(_statement_kind(statement) for statement in statements)
            raise QueryFailedError(
                wh.name,
                f"one statement at a time: this text holds {len(statements)} ({kinds}); "
                "run each by itself",
            )
        result = wh.query(sql)
    return replace(result, columns=tuple(readable_column(c) for c in result.columns))


def readable_column(name: str) -> str:
    """A result column as the query wrote it, where DuckDB names it after an internal function.

    >>> readable_column("count_star() FILTER (WHERE made)"), readable_column("avg(points)")
    ('count(*) FILTER (WHERE made)', 'avg(points)')
    """
    return name.replace("count_star()", "count(*)")
