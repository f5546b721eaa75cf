"""A command imports the libraries it uses and no others (how long that takes is
bench/bench_startup.py's business, never a test's): which modules a run of the CLI loads,
read from ``python -X importtime`` in a fresh process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

WAREHOUSE_AND_REPORTS = ("duckdb", "pyarrow", "numba", "plotly", "jinja2", "rich", "analysis")
"""What only the warehouse, the analysis and the HTML reports use (rich: progress bars)."""


def imported_by(*arguments: str, status: int = 0) -> set[str]:
    """The top-level packages a run of ``twentynine ARGUMENTS`` imports, each room of
    twentynine (``twentynine.schema``) by its own name (``schema``); it must end with exit
    ``status``."""
    return {
        name.removeprefix("twentynine.").split(".")[0]
        for name in modules_imported_by(*arguments, status=status)
    }


def modules_imported_by(*arguments: str, status: int = 0) -> set[str]:
    """Every module (``twentynine.schema.log``, ``pydantic.main``) a run of ``twentynine ARGUMENTS``
    imports; it must end with exit ``status``."""
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "twentynine", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == status, run.stderr[-2000:]
    lines = [line for line in run.stderr.splitlines() if line.startswith("import time:")]
    assert lines, "python -X importtime wrote nothing"
    return {line.rsplit("|", 1)[-1].strip() for line in lines}


def test_rules_loads_no_engine_reader_warehouse_or_report_library() -> None:
    loaded = imported_by("rules")
    assert {"schema", "typer"} <= loaded  # what it does use
    assert loaded.isdisjoint({*WAREHOUSE_AND_REPORTS, "replay", "importers", "msgspec"}), loaded


def test_rules_loads_the_rules_but_not_the_match_log_models() -> None:
    loaded = modules_imported_by("rules")
    assert "twentynine.schema.rules" in loaded
    assert loaded.isdisjoint({"twentynine.schema.log", "twentynine.schema.fastlog"}), sorted(loaded)


def test_every_name_schema_exports_imports_and_the_models_load_on_first_use() -> None:
    check = (
        "import sys\n"
        "from twentynine import schema\n"
        "assert 'twentynine.schema.log' not in sys.modules, 'imported with the package'\n"
        "exec('from twentynine.schema import ' + ', '.join(schema.__all__))\n"
        "log = sys.modules['twentynine.schema.log']\n"
        "assert MatchLog is log.MatchLog and ACTION_TYPES is log.ACTION_TYPES\n"
        "assert set(schema.__all__) <= set(dir(schema))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", check], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr[-2000:]


@pytest.mark.parametrize(("name", "status"), [("pagat.json", 0), ("bad/revoke.json", 1)])
def test_audit_of_a_file_loads_no_warehouse_or_report_library(name: str, status: int) -> None:
    loaded = imported_by("audit", f"sample_logs/{name}", status=status)
    assert {"replay", "importers"} <= loaded  # what it does use
    assert loaded.isdisjoint(WAREHOUSE_AND_REPORTS), loaded


def test_a_command_in_a_module_of_its_own_still_loads_what_it_uses() -> None:
    assert {"duckdb", "pyarrow"} <= imported_by("stats", "--help")


def test_solve_loads_the_solver_but_no_warehouse_or_report_library() -> None:
    """A solve starts as fast as the solver allows: its kernel is compiled at install time
    (no JIT library to import) and the hands' text needs nothing of the warehouse."""
    loaded = imported_by("solve", "sample_logs/bhoos.json", "--deal", "1")
    assert {"analysis", "replay"} <= loaded  # what it does use
    assert loaded.isdisjoint({"duckdb", "pyarrow", "numpy", "numba", "plotly", "jinja2"}), loaded
