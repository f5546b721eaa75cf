"""The DuckDB warehouse: tables, loading, statistics, exports.

- :mod:`reports.warehouse.store`: open (create, migrate, refuse), load in bulk, read-only queries;
- :mod:`reports.warehouse.ddl`: the tables, views and schema version;
- :mod:`reports.warehouse.rows`: matches and audits turned into Arrow tables;
- :mod:`reports.warehouse.stats`: player and partnership statistics;
- :mod:`reports.warehouse.export`: output formats and Parquet exports;
- :mod:`reports.warehouse.readback`: a stored match's log, rebuilt;
- :mod:`reports.warehouse.progress`: the load's progress bar;
- :mod:`reports.warehouse.errors`: the one-line errors.
"""

from pathlib import Path
from typing import Final

DEFAULT_DB: Final = "twentynine.duckdb"
"""The warehouse file a command uses when given none (here, so that naming it loads no DuckDB)."""


def companions(db: str | Path) -> tuple[Path, Path]:
    """What DuckDB keeps beside a warehouse file: its write-ahead log and its temporary folder
    (named after the path as given: DuckDB is handed the absolute path, links not followed).

    >>> [p.name for p in companions("data/club.duckdb")]
    ['club.duckdb.wal', 'club.duckdb.tmp']
    """
    path = Path(db)
    if not path.name:  # "." or "/": a folder, which opening refuses; it has no such files
        return path / ".wal", path / ".tmp"
    return path.with_name(path.name + ".wal"), path.with_name(path.name + ".tmp")
