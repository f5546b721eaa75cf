"""Which build of the engine runs: replay._engine.engine_build(), and the guard CI relies on."""

from __future__ import annotations

import hashlib
import importlib
import os
import shutil
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from twentynine.analysis.solver import kernel_build_of, solver_build
from twentynine.replay import deal
from twentynine.replay._engine import (
    COMPILED,
    PURE_PYTHON,
    RECORD,
    UNVERIFIED,
    build_of,
    engine_build,
    stale,
)

ROOT = Path(deal.__file__).parent.parent
SOURCES = ["replay/deal.py", "replay/_tables.py"]


def fake_build(root: Path, *, record: bool = True) -> Path:
    """Copies of two engine sources beside an empty extension file, as setup.py leaves them."""
    (root / "replay").mkdir()
    for source in SOURCES:
        shutil.copyfile(ROOT / source, root / source)
    if record:
        (root / "replay" / RECORD).write_text(
            "".join(
                f"{hashlib.sha256((root / source).read_bytes()).hexdigest()}  {source}\n"
                for source in SOURCES
            ),
            encoding="utf-8",
        )
    extension = root / "replay" / f"deal{EXTENSION_SUFFIXES[0]}"
    extension.touch()
    return extension


def test_engine_build_names_the_module_imported() -> None:
    compiled = deal.__file__.endswith(tuple(EXTENSION_SUFFIXES))
    assert engine_build().startswith(COMPILED) == compiled
    assert (engine_build() == PURE_PYTHON) == (not compiled)


def test_the_compiled_engine_is_built_from_the_sources_here() -> None:
    """After an edit to replay/deal.py or what it imports, a compiled engine must be rebuilt:
    the tests would otherwise run the engine as it was before the edit."""
    assert engine_build() in {COMPILED, PURE_PYTHON}


def test_a_source_file_is_pure_python(tmp_path: Path) -> None:
    (tmp_path / "replay").mkdir()
    shutil.copyfile(ROOT / "replay/deal.py", tmp_path / "replay/deal.py")
    assert build_of(tmp_path / "replay/deal.py") == PURE_PYTHON


def test_an_extension_built_from_the_sources_beside_it_is_compiled(tmp_path: Path) -> None:
    assert build_of(fake_build(tmp_path)) == COMPILED


@pytest.mark.parametrize("source", SOURCES)
def test_an_edit_after_the_build_is_stale(tmp_path: Path, source: str) -> None:
    extension = fake_build(tmp_path)
    with (tmp_path / source).open("a", encoding="utf-8") as file:
        file.write("# edited\n")
    assert build_of(extension) == stale(source)
    assert build_of(extension) == (
        f"compiled (stale: {source} changed since the build; run pip install -e . again)"
    )


def test_an_extension_without_a_record_is_unverified(tmp_path: Path) -> None:
    assert build_of(fake_build(tmp_path, record=False)) == UNVERIFIED


def test_an_extension_installed_without_its_sources_is_compiled(tmp_path: Path) -> None:
    extension = fake_build(tmp_path)
    for source in SOURCES:
        (tmp_path / source).unlink()
    assert build_of(extension) == COMPILED


def test_the_solvers_kernel_is_built_from_the_source_here() -> None:
    """After an edit to analysis/_ckernel.c the kernel must be rebuilt (pip install -e .), or
    the tests run the kernel as it was before the edit."""
    assert solver_build() in {COMPILED, PURE_PYTHON}


def test_a_kernel_is_stale_once_its_source_changes(tmp_path: Path) -> None:
    source = tmp_path / "_ckernel.c"
    source.write_text("int kernel;\n", encoding="utf-8")
    extension = tmp_path / f"_ckernel{EXTENSION_SUFFIXES[0]}"
    built = hashlib.sha256(source.read_bytes()).hexdigest()
    assert kernel_build_of(built, extension) == COMPILED
    source.write_text("int kernel = 1;\n", encoding="utf-8")
    assert kernel_build_of(built, extension) == stale("analysis/_ckernel.c")
    assert kernel_build_of("", extension) == UNVERIFIED  # built without the record
    source.unlink()  # installed without its source: nothing to be out of date with
    assert kernel_build_of(built, extension) == COMPILED


@pytest.mark.skipif(
    os.environ.get("TWENTYNINE_EXPECT_COMPILED") != "1", reason="TWENTYNINE_EXPECT_COMPILED unset"
)
def test_the_engine_is_compiled_where_expected() -> None:
    """CI sets TWENTYNINE_EXPECT_COMPILED=1: an install that fell back to pure Python fails."""
    assert engine_build() == COMPILED, f"replay.deal is imported from {deal.__file__}"
    # every module setup.py compiles, the Bhoos archive's reader too
    for name in (
        "replay.audit",
        "replay.match",
        "replay.bots",
        "replay.selfplay",
        "analysis.packets",
        "importers._bhoos",
        "importers.bhoos_archive",
    ):
        module = importlib.import_module(f"twentynine.{name}")
        assert str(module.__file__).endswith(tuple(EXTENSION_SUFFIXES)), module.__file__
    # the solver's kernel too (analysis/_ckernel.c), which the solver runs by default
    kernel = importlib.import_module("twentynine.analysis._ckernel")
    assert str(kernel.__file__).endswith(tuple(EXTENSION_SUFFIXES)), kernel.__file__
    assert solver_build() == COMPILED
