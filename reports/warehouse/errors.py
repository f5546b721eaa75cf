"""The warehouse's typed errors: each one line that names the file and the reason.

The CLI prints ``str(error)`` as it is and exits with :attr:`WarehouseError.exit_code`.

>>> print(WarehouseLockedError("games.duckdb", pid=4242))  # doctest: +ELLIPSIS
games.duckdb: locked by another process (PID 4242) that has it open; try again ...
"""

from __future__ import annotations

from typing import Final


class WarehouseError(Exception):
    """Something about the warehouse file or a request on it; ``str()`` is one line.

    >>> str(WarehouseError("w.duckdb", "cannot create it: No such file or directory"))
    'w.duckdb: cannot create it: No such file or directory'
    """

    exit_code = 2

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = " ".join(reason.split())  # one line, whatever DuckDB said
        super().__init__(f"{path}: {self.reason}")


class WarehouseMissingError(WarehouseError):
    """Opened for reading, but there is no file: nothing was loaded yet."""

    def __init__(self, path: str) -> None:
        super().__init__(path, "no such warehouse; create it with `twentynine load PATH... --db`")


class WarehouseLockedError(WarehouseError):
    """Another process holds the file's write lock (DuckDB allows one writer, or many readers)."""

    def __init__(self, path: str, pid: int | None = None) -> None:
        self.pid = pid
        who = f"another process (PID {pid})" if pid is not None else "another process"
        super().__init__(path, f"locked by {who} that has it open; try again when it has finished")


class WarehouseCorruptError(WarehouseError):
    """The file is not a DuckDB database, or DuckDB cannot read it."""

    def __init__(self, path: str, detail: str) -> None:
        super().__init__(path, f"not a readable DuckDB database ({detail}); nothing was changed")


class NotDuckDBError(WarehouseCorruptError):
    """A file that is not a DuckDB database at all (no DuckDB header: a match log, a CSV or
    a Parquet file), which DuckDB would otherwise open as a view of its data."""

    def __init__(self, path: str) -> None:
        WarehouseError.__init__(self, path, "not a DuckDB database; nothing was changed")


class NotAWarehouseError(WarehouseError):
    """A DuckDB database, but not one of ours (it has other tables and no schema version)."""

    def __init__(self, path: str) -> None:
        super().__init__(
            path, "a DuckDB database but not a twentynine warehouse; nothing was changed"
        )


class WarehouseTooNewError(WarehouseError):
    """The file's schema version is newer than this program knows."""

    def __init__(self, path: str, found: int, known: int) -> None:
        self.found = found
        self.known = known
        super().__init__(
            path,
            f"schema version {found} is newer than this twentynine knows ({known}); "
            "upgrade twentynine to use it; nothing was changed",
        )


class WarehouseOutdatedError(WarehouseError):
    """Opened read-only, but the schema needs a migration that only a writer may do."""

    def __init__(self, path: str, found: int, known: int) -> None:
        super().__init__(
            path,
            f"schema version {found} needs migrating to {known}; open it for writing once "
            "(`twentynine load --db` with any input) to migrate it",
        )


_SAID_AS: Final = {"LOAD": "INSTALL and LOAD"}
"""DuckDB's statement types under the words people write (its LOAD type holds INSTALL)."""


class QueryRefusedError(WarehouseError):
    """A statement that is not a read, sent to the read-only query path.

    >>> str(QueryRefusedError("w.duckdb", "LOAD")).split(": ", 2)[2]
    'INSTALL and LOAD statements are refused; nothing was changed'
    """

    def __init__(self, path: str, statement: str) -> None:
        statement = _SAID_AS.get(statement, statement)
        super().__init__(
            path, f"queries are read-only: {statement} statements are refused; nothing was changed"
        )


class QueryFailedError(WarehouseError):
    """DuckDB could not run the query (syntax, unknown table or column, ...)."""


class LoadFailedError(WarehouseError):
    """Storing a batch failed; the batch was rolled back, earlier batches stay stored."""


class AnnotationsRefusedError(WarehouseError):
    """Annotations of a match that is not the one stored under its id (or of none stored):
    nothing was changed."""


class ExportFailedError(WarehouseError):
    """The Parquet export could not be written."""
