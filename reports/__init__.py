"""Reports: two jobs, each in its own package.

- :mod:`reports.warehouse`: the DuckDB warehouse (tables, loading, statistics, exports);
- :mod:`reports.html`: the HTML reports (jinja2 templates beside the code that fills them).
"""
