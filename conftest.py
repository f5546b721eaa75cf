"""pytest's ``--doctest-modules`` leaves out the modules setup.py compiles (``replay/deal.py``,
``replay/audit.py``, ``replay/match.py``, ``replay/bots.py``, ``replay/selfplay.py``,
``analysis/packets.py``, ``importers/_bhoos.py``, ``importers/bhoos_archive.py``): their
doctests run elsewhere.

They may be installed compiled by mypyc: pytest then cannot collect a source file as a module
("import file mismatch") and a compiled module keeps no docstrings.
``tests/test_deal_doctests.py`` reads the docstrings from the sources and runs them, once,
against the modules actually imported, compiled or not.

Values that several test modules use are made once per run and shared by the pytest-xdist
workers (``tests/once.py``).
"""

import compileall
from pathlib import Path

import pytest

collect_ignore = [
    "twentynine/replay/deal.py",
    "twentynine/replay/audit.py",
    "twentynine/replay/match.py",
    "twentynine/replay/bots.py",
    "twentynine/replay/selfplay.py",
    "twentynine/analysis/packets.py",
    "twentynine/importers/_bhoos.py",
    "twentynine/importers/bhoos_archive.py",
]


def pytest_configure(config: pytest.Config) -> None:
    """Byte-compile the package once, before the workers start: the commands the tests run
    and the documentation's examples (run with PYTHONDONTWRITEBYTECODE, as is any process
    where it is set) would otherwise compile every module they import from source, about a
    tenth of a second of CPU each time."""
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: the controller did it
        return
    package = Path(__file__).resolve().parent / "twentynine"
    # twentynine/ links in the other folders of sources, which compile_dir does not follow
    linked = [path.resolve() for path in package.iterdir() if path.is_symlink() and path.is_dir()]
    for folder in (package, *linked):
        compileall.compile_dir(folder, quiet=2)


# The modules whose tests take the most time, heaviest first: run before the others, they
# never leave one worker busy alone at the end of a run (pytest-xdist's worksteal, set in
# pyproject.toml, shares the rest out as the workers free up).
RUN_FIRST = (
    "tests/test_docs.py",
    "tests/test_load_jobs.py",
    "tests/test_cli_calibration.py",
    "tests/test_reports_browser.py",
    "tests/test_import_copy.py",
    "tests/test_analysis_solver.py",
    "tests/test_cli_cluster.py",
    "tests/test_cli_analyze_seed.py",
    "tests/test_cli_demo.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: n for n, name in enumerate(RUN_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(RUN_FIRST)))


@pytest.fixture(scope="session", autouse=True)
def _shared_once(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Values that several modules use are made once per run (tests/once.py)."""
    from tests import once

    once.use_run_folder(tmp_path_factory)
