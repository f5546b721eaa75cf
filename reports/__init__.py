"""Reports: the DuckDB warehouse and what reads it.

- :mod:`reports.warehouse`: open (create, migrate, refuse), load in bulk, read-only queries;
- :mod:`reports.ddl`: the tables, views and schema version;
- :mod:`reports.rows`: matches and audits turned into Arrow tables;
- :mod:`reports.stats`: player and partnership statistics;
- :mod:`reports.export`: output formats and Parquet exports;
- :mod:`reports.readback`: a stored match's log, rebuilt;
- :mod:`reports.progress`: the load's progress bar;
- :mod:`reports.errors`: the one-line errors.
"""
