"""The DuckDB warehouse: open (create, migrate, refuse), load matches in bulk, query read-only.

The walk: importers give match logs, :func:`replay.audit_match` gives their facts and
findings, and :meth:`Warehouse.load` stores both, many matches per transaction, through
Arrow. A batch commits whole matches only, so a load killed at any moment leaves every
stored match whole, and loading the same input again stores the rest. A match already
stored (same ``match_id``: the log's ``id``, or its content hash) is counted and skipped.

>>> import tempfile
>>> from replay import random_match
>>> from schema import Rules
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
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Final

import duckdb
import pyarrow as pa

from importers.canonical import FastRecord, Record
from importers.errors import InputProblem
from importers.formats import (
    FORMAT_NAMES,
    FORMATS,
    HEAD_SIZE,
    READ_BUFFER,
    detect_format,
    expand_inputs,
    guarded,
    limited,
    read_format_fast,
)
from importers.formats import read_any as _read_stdin
from replay import AuditedMatch, audit_match
from reports.warehouse import ddl
from reports.warehouse.errors import (
    LoadFailedError,
    NotAWarehouseError,
    QueryFailedError,
    QueryRefusedError,
    WarehouseCorruptError,
    WarehouseError,
    WarehouseLockedError,
    WarehouseMissingError,
    WarehouseOutdatedError,
    WarehouseTooNewError,
)
from reports.warehouse.rows import Batch, RowError
from schema.fastlog import FastMatchLog, content_fingerprint
from schema.log import MatchLog

DEFAULT_DB: Final = "twentynine.duckdb"
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
Match = MatchLog | FastMatchLog
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

    @property
    def exit_code(self) -> int:
        """0 when every match was stored or already there, 1 when some were skipped, 2 when
        no input could be read at all (as ``twentynine audit`` exits).

        >>> LoadSummary("w", files=1, read=1, skipped=1, unreadable=1).exit_code
        2
        """
        if self.files and self.unreadable == self.files:
            return 2
        return 1 if self.skipped else 0

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
            out.append(f"... and {hidden} more lines like these")
        if self.read and not self.stored and self.duplicates == self.read:
            out.append(f"nothing new: every match read was already stored in {self.database}")
        files = "file" if self.files == 1 else "files"
        matches = "match" if self.read == 1 else "matches"
        replaced = f", {self.replaced} replaced" if self.replaced else ""
        out.append(
            f"{self.read} {matches} read from {self.files} {files}: {self.stored} stored "
            f"({self.deals} deals, {self.findings} findings{replaced}), {self.duplicates} "
            f"already stored, {self.skipped} skipped -> {self.database}"
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
        items: Iterable[Record | FastRecord | Match],
        *,
        progress: Progress | None = None,
        batch_deals: int = BATCH_DEALS,
        summary: LoadSummary | None = None,
        replace: bool = False,
    ) -> LoadSummary:
        """Audit and store matches (or importer records), many per transaction.

        A match may be the models or the fast decoder's structs (:mod:`schema.fastlog`):
        both are stored alike.

        A record with problems is skipped and its problems kept; a match already stored,
        or met earlier in this load, is counted as a duplicate. A match stored before with
        other content under the same id is skipped with a line that says so, or, with
        ``replace``, stored in place of the old one (in the same transaction). Raises
        :class:`LoadFailedError` when DuckDB cannot store a batch (that batch is rolled back;
        earlier ones stay).

        >>> import tempfile
        >>> from replay import random_match
        >>> from schema import Rules
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
        items: Iterable[tuple[Record | FastRecord | Match, AuditedMatch | None]],
        progress: Progress | None,
        batch_deals: int,
        summary: LoadSummary | None,
        *,
        replace: bool = False,
    ) -> LoadSummary:
        if self.read_only:
            raise WarehouseError(self.name, "opened read-only: cannot load")
        summary = summary if summary is not None else LoadSummary(database=self.name)
        try:
            with _load_settings(self.con):
                return self._load_all(items, progress, batch_deals, summary, replace)
        except duckdb.Error as exc:  # a batch that fails to store says so itself
            raise LoadFailedError(self.name, f"loading failed: {_first_line(exc)}") from None

    def _load_all(
        self,
        items: Iterable[tuple[Record | FastRecord | Match, AuditedMatch | None]],
        progress: Progress | None,
        batch_deals: int,
        summary: LoadSummary,
        replace: bool,
    ) -> LoadSummary:
        batch = _new_batch()
        pending: list[_Pending] = []  # read, not yet checked against the database
        pending_deals = 0
        where_of: dict[str, str] = {}  # ids read since the last commit, and where
        with _no_gc():
            for item, audited in items:
                summary.read += 1
                if isinstance(item, Record | FastRecord):
                    match = item.match
                    where = item.source if item.line is None else f"{item.source}:{item.line}"
                    source, line = item.source, item.line
                    if match is None:
                        summary.skipped += 1
                        for problem in item.problems or (
                            InputProblem(item.source, item.line, None, "unreadable"),
                        ):
                            summary._keep(summary.problems, str(problem))
                        continue
                else:
                    match, where, source, line = item, "<match>", None, None
                match_id = match.match_id
                if match_id in where_of:
                    summary.duplicates += 1
                    summary._keep(
                        summary.duplicate_lines,
                        f"{where}: match {match_id!r} appears again "
                        f"(first at {where_of[match_id]})",
                    )
                    continue
                where_of[match_id] = where
                pending.append(_Pending(match, audited, match_id, where, source, line))
                pending_deals += len(match.deals)
                if pending_deals >= min(CHECK_DEALS, batch_deals):
                    self._admit(pending, batch, summary, replace)
                    pending, pending_deals = [], 0
                    if batch.deals >= batch_deals:
                        self._commit(batch, summary)
                        batch, where_of = _new_batch(), {}
                        if progress is not None:
                            progress(summary)
                        continue
                if progress is not None and summary.read % PROGRESS_EVERY == 0:
                    progress(summary)
            if pending:
                self._admit(pending, batch, summary, replace)
            if len(batch):
                self._commit(batch, summary)
        if progress is not None:
            progress(summary)
        return summary

    def _admit(
        self, pending: list[_Pending], batch: Batch, summary: LoadSummary, replace: bool
    ) -> None:
        """Audit the matches not stored yet (or stored with other content, to ``replace``)
        and add their rows to the batch."""
        stored = self._stored_sources([p.match_id for p in pending])
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
                if not replace:
                    summary.skipped += 1
                    summary._keep(
                        summary.problems,
                        f"{p.where}: match {p.match_id!r} is already stored (from {source}) "
                        "with other content; load again with --replace to store this one "
                        "in its place",
                    )
                    continue
                batch.replaced.append(p.match_id)
            try:
                audited = p.audited if p.audited is not None else audit_match(p.match)
                batch.add(p.match, audited, p.source, p.line)
            except RowError as exc:
                summary.skipped += 1
                summary._keep(summary.problems, f"{p.where}: cannot be stored: {exc}")
            except Exception as exc:  # the engine's fault, not the input's: say so
                summary.skipped += 1
                summary._keep(
                    summary.problems,
                    f"{p.where}: the auditor failed on match {p.match_id!r} "
                    f"({type(exc).__name__}: {exc}); please report it",
                )

    def _commit(self, batch: Batch, summary: LoadSummary) -> None:
        """Store the batch in one transaction."""
        self._insert(batch.arrow_tables(), batch.loaded_at, batch.replaced)
        summary.stored += len(batch)
        summary.replaced += len(batch.replaced)
        summary.deals += batch.deals
        summary.findings += batch.findings

    def _stored_sources(self, match_ids: list[str]) -> dict[str, tuple[str, str | None]]:
        """Where each stored match of ``match_ids`` came from, and its content hash."""
        rows = self.con.execute(
            "SELECT match_id, source, source_line, content_hash FROM matches "
            "WHERE match_id IN (SELECT unnest($ids::VARCHAR[]))",
            {"ids": match_ids},
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
        try:
            for statement in statements[:-1]:
                self.con.execute(statement.query)
            cursor = self.con.execute(statements[-1].query, params)
            description = cursor.description or []
            rows = cursor.fetchall()
        except duckdb.Error as exc:
            raise QueryFailedError(self.name, _first_line(exc)) from None
        return QueryResult(
            tuple(d[0] for d in description), tuple(str(d[1]) for d in description), rows
        )


def _statement_kind(statement: duckdb.Statement) -> str:
    """A statement's type name (``SELECT``, ...); DuckDB's Python API has no name for some
    types (UPDATE EXTENSIONS): the statement's first words then."""
    try:
        return statement.type.name
    except ValueError:
        return " ".join(statement.query.split()[:2]).upper()


@dataclass(frozen=True, slots=True)
class _Pending:
    match: Match
    audited: AuditedMatch | None
    match_id: str
    where: str
    source: str | None
    line: int | None


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
def _load_settings(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    settings = {**_LOAD_SETTINGS, "threads": str(_usable_cpus())}
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
def _no_gc() -> Iterator[None]:
    # A batch is hundreds of thousands of acyclic tuples; the cyclic collector would rescan
    # them all again and again for nothing.
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
    reports.warehouse.errors.WarehouseMissingError: /no/such/dir/w.duckdb: no such warehouse; ...
    >>> open_warehouse("md:club")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    reports.warehouse.errors.WarehouseError: md:club: not a local file path; ...
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
        elif _is_sqlite(path):
            raise WarehouseError(
                name, "a SQLite database, not a DuckDB warehouse; nothing was changed"
            )
    except OSError as exc:
        raise WarehouseError(name, f"cannot open it: {exc.strerror or exc}") from None
    config: dict[str, Any] = {
        "autoinstall_known_extensions": False,
        "autoload_known_extensions": False,
    }
    if export_to is None:  # the export's folder can only be allowed once DuckDB runs
        config["enable_external_access"] = False
        config["lock_configuration"] = read_only  # the loader sets its own memory settings
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
    nothing, and ``md:``, ``s3://`` and the like reach for the network."""
    if name.startswith(":memory:") or not name or _REMOTE.match(name):
        raise WarehouseError(
            name,
            "not a local file path; name a DuckDB file on this machine, e.g. --db club.duckdb "
            "(a file whose name has a colon: give its absolute path)",
        )


def _is_sqlite(path: Path) -> bool:
    with path.open("rb") as stream:
        return stream.read(len(_SQLITE_HEADER)) == _SQLITE_HEADER


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
def read_inputs(
    paths: Iterable[str | Path], from_format: str | None, summary: LoadSummary
) -> Iterator[Record | FastRecord]:
    """Records from files and folders in any known format, counting bytes read into
    ``summary`` (for a progress bar) as it goes. Raises ``ValueError`` for an unknown format.

    Canonical files are read by the fast decoder where it is sure of a document (a
    :class:`~importers.canonical.FastRecord`), by the models otherwise; standard input and
    the other formats by the models.
    """
    if from_format is not None and from_format not in FORMATS:
        raise ValueError(f"unknown format {from_format!r} (known: {', '.join(FORMAT_NAMES)})")
    return _read_files(expand_inputs(paths), from_format, summary)


def _read_files(
    inputs: list[Path], from_format: str | None, summary: LoadSummary
) -> Iterator[Record | FastRecord]:
    summary.files = len(inputs)
    sizes = {}
    for path in inputs:
        try:
            sizes[path] = path.stat().st_size if str(path) != "-" else 0
        except OSError:
            sizes[path] = 0
    summary.bytes_total = sum(sizes.values())
    done = 0
    for path in inputs:
        if str(path) == "-":
            yield from _read_stdin("-", from_format)
            continue
        source = str(path)
        try:
            with path.open("rb", buffering=READ_BUFFER) as stream:
                head = stream.read(HEAD_SIZE)
                stream.seek(0)
                name = from_format or detect_format(path, head)
                records = read_format_fast(limited(stream, head), source, path, name)
                for record in guarded(records, source, name):
                    summary.bytes_read = done + _tell(stream)
                    yield record
        except OSError as exc:
            summary.unreadable += 1
            reason = f"cannot read: {exc.strerror or exc}"
            yield Record(source, None, None, (InputProblem(source, None, None, reason),))
        done += sizes[path]
        summary.bytes_read = done


def _tell(stream: IO[bytes]) -> int:
    try:
        return stream.tell()
    except (OSError, ValueError):
        return 0


def load_paths(
    paths: Iterable[str | Path],
    *,
    db: str | Path = DEFAULT_DB,
    from_format: str | None = None,
    progress: Progress | None = None,
    batch_deals: int = BATCH_DEALS,
    replace: bool = False,
) -> LoadSummary:
    """``twentynine load PATH... [--db FILE] [--from FORMAT] [--replace]``: read, audit and
    store (``replace``: a match stored with other content is replaced, see
    :meth:`Warehouse.load`).

    Raises :class:`~reports.warehouse.errors.WarehouseError` (one line) when the warehouse cannot be
    opened or written, ``ValueError`` for an unknown format name or when ``paths`` hold no
    match log (an empty folder: the warehouse is then not opened).
    """
    paths = list(paths)
    if from_format is not None and from_format not in FORMATS:
        raise ValueError(f"unknown format {from_format!r} (known: {', '.join(FORMAT_NAMES)})")
    missing = [str(path) for path in paths if str(path) != "-" and not _exists(Path(path))]
    if missing and len(missing) == len(paths):  # nothing to read: no warehouse made for it
        raise ValueError(f"{missing[0]}: no such file or folder; nothing was stored")
    inputs = expand_inputs(paths)
    if not inputs:
        raise ValueError("no match logs found in " + ", ".join(map(str, paths)))
    with open_warehouse(db) as wh:
        summary = LoadSummary(database=wh.name)
        records = _read_files(inputs, from_format, summary)
        return wh.load(
            records, progress=progress, batch_deals=batch_deals, summary=summary, replace=replace
        )


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
                if statement.type.name not in _READ_ONLY_STATEMENTS:
                    raise QueryRefusedError(wh.name, statement.type.name)
            kinds = ", ".join(statement.type.name for statement in statements)
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
