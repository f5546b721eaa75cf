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
    """The top-level packages a run of ``twentynine ARGUMENTS`` imports; it must end with
    exit ``status``."""
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
    return {line.rsplit("|", 1)[-1].strip().split(".")[0] for line in lines}


def test_rules_loads_no_engine_reader_warehouse_or_report_library() -> None:
    loaded = imported_by("rules")
    assert {"schema", "typer"} <= loaded  # what it does use
    assert loaded.isdisjoint({*WAREHOUSE_AND_REPORTS, "replay", "importers", "msgspec"}), loaded


@pytest.mark.parametrize(("name", "status"), [("pagat.json", 0), ("bad/revoke.json", 1)])
def test_audit_of_a_file_loads_no_warehouse_or_report_library(name: str, status: int) -> None:
    loaded = imported_by("audit", f"sample_logs/{name}", status=status)
    assert {"replay", "importers"} <= loaded  # what it does use
    assert loaded.isdisjoint(WAREHOUSE_AND_REPORTS), loaded


def test_a_command_in_a_module_of_its_own_still_loads_what_it_uses() -> None:
    assert {"duckdb", "pyarrow"} <= imported_by("stats", "--help")
