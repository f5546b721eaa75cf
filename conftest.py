"""pytest's ``--doctest-modules`` leaves out the modules setup.py compiles (``replay/deal.py``,
``replay/audit.py``, ``replay/match.py``, ``importers/_bhoos.py``,
``importers/bhoos_archive.py``): their doctests run elsewhere.

They may be installed compiled by mypyc: pytest then cannot collect a source file as a module
("import file mismatch") and a compiled module keeps no docstrings.
``tests/test_deal_doctests.py`` reads the docstrings from the sources and runs them, once,
against the modules actually imported, compiled or not.

Values that several test modules use are made once per run and shared by the pytest-xdist
workers (``tests/once.py``).
"""

from collections.abc import Iterator

import pytest

collect_ignore = [
    "twentynine/replay/deal.py",
    "twentynine/replay/audit.py",
    "twentynine/replay/match.py",
    "twentynine/importers/_bhoos.py",
    "twentynine/importers/bhoos_archive.py",
]


@pytest.fixture(scope="session", autouse=True)
def _shared_once(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Values that several modules use are made once per run (tests/once.py)."""
    from tests import once

    once.use_run_folder(tmp_path_factory)
    yield
