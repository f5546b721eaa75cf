"""Getting data out: query results as a table, CSV or JSON lines, and Parquet exports.

:func:`export_parquet` writes every table the warehouse's catalog lists, and the views that
unpack ``deal_cards``, as Hive-partitioned Parquet
(``DIR/TABLE/preset=NAME/month=YYYY-MM/data_0.parquet``; a table of no match, such as
``players``, as ``DIR/TABLE/data_0.parquet``) that DuckDB, Spark and Trino read as it is; it
writes into a temporary folder beside ``DIR`` and renames it at the end, so ``DIR`` appears
whole or not at all.

>>> from twentynine.reports.warehouse.store import QueryResult
>>> print(format_result(QueryResult(("name", "rate"), ("VARCHAR", "DOUBLE"),
...                                 [("Asha", 0.5), ("Bikash", None)]), "table"))
name    rate
------  -----
Asha    0.500
Bikash  NULL
"""

from __future__ import annotations

import csv
import datetime as dt
import decimal
import glob
import io
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

import duckdb
import orjson

from twentynine.reports.warehouse.errors import ExportFailedError
from twentynine.reports.warehouse.store import DEFAULT_DB, QueryResult, open_warehouse
from twentynine.schema.words import plural

OutputFormat = Literal["table", "csv", "json"]
FORMATS: Final[tuple[str, ...]] = ("table", "csv", "json")

UNPACKED_VIEWS: Final[tuple[str, ...]] = ("actions", "tricks", "hands", "show_chances")
"""Views exported beside the tables: the rows ``deal_cards`` packs, one a row, as other
engines read them best."""

_MONTH: Final = "coalesce(strftime(m.started_at, '%Y-%m'), 'unknown')"


def _text(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, list):
        return " ".join("NULL" if v is None else str(v) for v in value)
    return str(value)


def _plain(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, bytes):
        return value.hex()
    return value


def format_result(result: QueryResult, fmt: str = "table") -> str:
    """A result as text: ``table`` (aligned, floats to 3 places, NULL spelt out), ``csv``
    (a header, then RFC 4180 rows, NULL empty) or ``json`` (one object a line).

    Raises ``ValueError`` for another format.

    >>> r = QueryResult(("a", "b"), ("INTEGER", "VARCHAR"), [(1, "x,y")])
    >>> format_result(r, "csv"), format_result(r, "json")
    ('a,b\\r\\n1,"x,y"\\r\\n', '{"a":1,"b":"x,y"}')
    """
    if fmt == "table":
        cells = [[_text(v) for v in row] for row in result.rows]
        widths = [len(c) for c in result.columns]
        for row in cells:
            widths = [max(w, len(c)) for w, c in zip(widths, row, strict=True)]
        lines = [
            "  ".join(c.ljust(w) for c, w in zip(result.columns, widths, strict=True)).rstrip(),
            "  ".join("-" * w for w in widths),
        ]
        lines.extend(
            "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
            for row in cells
        )
        return "\n".join(lines)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(result.columns)
        writer.writerows(
            [json_cell(v) if isinstance(v, list | dict) else _plain(v) for v in row]
            for row in result.rows
        )
        return out.getvalue()
    if fmt == "json":
        return "\n".join(
            orjson.dumps(
                {c: _plain(v) for c, v in zip(result.columns, row, strict=True)},
                default=str,
            ).decode()
            for row in result.rows
        )
    raise ValueError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")


def json_cell(value: Any) -> str:
    """A list or struct value as JSON text, for CSV cells."""
    return orjson.dumps(value, default=str).decode()


@dataclass
class ExportSummary:
    """What an export wrote: rows and files per table, and where."""

    directory: str
    rows: dict[str, int] = field(default_factory=dict)
    files: int = 0

    def lines(self) -> list[str]:
        """One line per table, then the total."""
        out = [f"{table}: {plural(rows, 'row')}" for table, rows in self.rows.items()]
        tables, files = plural(len(self.rows), "table"), plural(self.files, "Parquet file")
        out.append(f"exported {tables} ({files}) -> {self.directory}")
        return out


def export_parquet(directory: str | Path, *, db: str | Path = DEFAULT_DB) -> ExportSummary:
    """``twentynine export [--db FILE] --parquet DIR``: every table (:func:`stored_tables`)
    and the views of :data:`UNPACKED_VIEWS` as partitioned Parquet.

    ``DIR`` must not exist yet, or be empty (the folders above it are made as needed); it gets
    the mode a new folder gets (the umask's).
    The export is written into a hidden staging folder beside ``DIR``; staging folders that
    an export killed before it ended left behind are removed first. Raises
    :class:`~reports.warehouse.errors.ExportFailedError` (nothing is left behind) and the
    open errors of :func:`~reports.warehouse.store.open_warehouse`.
    """
    target = Path(directory)
    name = str(target)
    parent = target.parent if str(target.parent) else Path()
    try:
        if target.exists() and (not target.is_dir() or any(target.iterdir())):
            raise ExportFailedError(name, "exists and is not an empty folder; choose a new one")
    except OSError as exc:
        raise ExportFailedError(name, f"cannot write it: {exc.strerror or exc}") from None
    open_warehouse(db, read_only=True).close()  # a warehouse it refuses makes no folder
    try:  # exports/2026-11: the folders above it are made as needed
        parent.mkdir(parents=True, exist_ok=True)
        _remove_stale(parent, target.name)
        prefix = f".{target.name}.export-{os.getpid()}."
        staging = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
        staging.chmod(_folder_mode())
    except OSError as exc:
        raise ExportFailedError(name, f"cannot write it: {exc.strerror or exc}") from None
    summary = ExportSummary(directory=name)
    try:
        with open_warehouse(db, read_only=True, export_to=staging) as wh:
            for table, per_match in [*stored_tables(wh.con), *_views(wh.con)]:
                summary.rows[table] = _copy(wh.con, table, staging / table, per_match)
        summary.files = sum(1 for _ in staging.rglob("*.parquet"))
        if target.exists():
            target.rmdir()
        staging.replace(target)
    except duckdb.Error as exc:
        raise ExportFailedError(name, str(exc).strip().splitlines()[0]) from None
    except OSError as exc:
        raise ExportFailedError(name, f"cannot write it: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return summary


_STAGING: Final = re.compile(r"\.(?P<name>.+)\.export-(?P<pid>\d+)\.[^.]+")


def _remove_stale(parent: Path, name: str) -> None:
    """Remove the staging folders of exports to ``parent/name`` whose process has ended."""
    for folder in parent.glob(f".{glob.escape(name)}.export-*"):
        found = _STAGING.fullmatch(folder.name)
        if found is None or found["name"] != name or not folder.is_dir():
            continue
        if not _alive(int(found["pid"])):
            shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (on this machine)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it runs, as someone else
        return True
    return True


def _folder_mode() -> int:
    # mkdtemp makes a folder only its owner may enter; an export is for others to read too
    umask = os.umask(0)
    os.umask(umask)
    return 0o777 & ~umask


def _quoted(path: Path) -> str:
    return str(path).replace("'", "''")


def stored_tables(con: duckdb.DuckDBPyConnection) -> list[tuple[str, bool]]:
    """Every table of the warehouse, as its catalog lists them (a table added later is
    exported with no change here), each with whether it holds rows of matches (a
    ``match_id`` column): those are partitioned by preset and month, the others written whole.
    """
    rows = con.execute(
        "SELECT t.table_name, count(c.column_name) > 0 FROM duckdb_tables() t "
        "LEFT JOIN duckdb_columns() c ON c.table_oid = t.table_oid AND c.column_name = 'match_id' "
        "WHERE t.database_name = current_database() AND NOT t.temporary "
        "GROUP BY t.table_name, t.table_oid ORDER BY t.table_oid"
    ).fetchall()
    return [(str(table), bool(per_match)) for table, per_match in rows]


def _views(con: duckdb.DuckDBPyConnection) -> list[tuple[str, bool]]:
    names = {
        row[0]
        for row in con.execute(
            "SELECT view_name FROM duckdb_views() WHERE database_name = current_database()"
        ).fetchall()
    }
    return [(view, True) for view in UNPACKED_VIEWS if view in names]


def _copy(con: duckdb.DuckDBPyConnection, table: str, folder: Path, per_match: bool) -> int:
    count = int(con.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0])  # type: ignore[index]
    if not per_match:
        folder.mkdir()
        con.execute(f"COPY \"{table}\" TO '{_quoted(folder / 'data_0.parquet')}' (FORMAT parquet)")
        return count
    if table == "matches":
        source = f"SELECT *, {_MONTH.replace('m.', '')} AS month FROM matches"
    else:
        # LEFT: a row of a match no longer stored (annotations an older version kept) is
        # exported too, under preset and month "unknown"
        source = (
            f"SELECT t.*, coalesce(m.preset, 'unknown') AS preset, {_MONTH} AS month "
            f'FROM "{table}" t LEFT JOIN matches m USING (match_id)'
        )
    if count:
        con.execute(
            f"COPY ({source}) TO '{_quoted(folder)}' (FORMAT parquet, PARTITION_BY (preset, month))"
        )
    else:  # an empty table still gets a file, so that readers know its columns
        folder.mkdir()
        con.execute(
            f"COPY (SELECT * FROM \"{table}\" LIMIT 0) TO '{_quoted(folder / 'empty.parquet')}' "
            "(FORMAT parquet)"
        )
    return count
