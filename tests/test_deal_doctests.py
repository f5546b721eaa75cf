"""The doctests of the compiled modules (``replay/deal.py``, ``audit.py``, ``match.py``,
``bots.py``, ``selfplay.py``, ``analysis/packets.py``, ``importers/_bhoos.py``,
``bhoos_archive.py``), read from their sources, run against the modules imported.

``--doctest-modules`` skips them (see conftest.py): a compiled module cannot be collected from
its source file and keeps no docstrings. Here every docstring of each module, its classes,
functions and methods is read with :mod:`ast` and run as one test, named as doctest names it,
with the globals of the module that is imported, compiled or pure Python.
"""

from __future__ import annotations

import ast
import doctest
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from twentynine.analysis import packets
from twentynine.importers import _bhoos, bhoos_archive
from twentynine.replay import audit, bots, deal, match, selfplay

COMPILED = (deal, audit, match, bots, selfplay, packets, _bhoos, bhoos_archive)
MODULES = {module.__name__: module for module in COMPILED}


def source_of(name: str) -> Path:
    """The source file of the module ``name``, in the tree of the engine imported.

    From ``replay.deal``'s place, not the module's own: a compiled module that another compiled
    module imports first (``replay.match``, by the auditor) is given a ``__file__`` one folder
    too deep by mypyc.
    """
    parts = name.removeprefix("twentynine.").split(".")
    return Path(deal.__file__ or "").parent.parent.joinpath(*parts).with_suffix(".py")


class Docstring(NamedTuple):
    module: str
    name: str
    text: str
    lineno: int  # 0-based line of the docstring's first line, as doctest counts


def docstrings(node: ast.Module | ast.ClassDef, module: str, name: str) -> Iterator[Docstring]:
    """The docstrings of ``node`` and of the classes, functions and methods defined in it."""
    text = ast.get_docstring(node, clean=False)
    if text is not None:
        yield Docstring(module, name, text, node.body[0].lineno - 1)
    for child in node.body:
        if isinstance(child, ast.ClassDef):
            yield from docstrings(child, module, f"{name}.{child.name}")
        elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            text = ast.get_docstring(child, clean=False)
            if text is not None:
                line = child.body[0].lineno - 1
                yield Docstring(module, f"{name}.{child.name}", text, line)


PARSER = doctest.DocTestParser()
DOCSTRINGS = [
    doc
    for name in MODULES
    for doc in docstrings(ast.parse(source_of(name).read_text(encoding="utf-8")), name, name)
    if PARSER.get_examples(doc.text)
]


def make_test(doc: Docstring) -> doctest.DocTest:
    globs = dict(vars(MODULES[doc.module]))
    return PARSER.get_doctest(doc.text, globs, doc.name, str(source_of(doc.module)), doc.lineno)


@pytest.mark.parametrize("name", MODULES)
def test_the_source_has_doctests(name: str) -> None:
    assert any(doc.module == name for doc in DOCSTRINGS)
    assert len({doc.name for doc in DOCSTRINGS}) == len(DOCSTRINGS)


@pytest.mark.parametrize("doc", DOCSTRINGS, ids=[doc.name for doc in DOCSTRINGS])
def test_docstring(doc: Docstring, pytestconfig: pytest.Config) -> None:
    flags = doctest.REPORT_ONLY_FIRST_FAILURE
    for flag in pytestconfig.getini("doctest_optionflags"):
        flags |= doctest.OPTIONFLAGS_BY_NAME[flag]
    test = make_test(doc)
    report: list[str] = []
    result = doctest.DocTestRunner(optionflags=flags).run(test, out=report.append)
    if result.failed:
        pytest.fail("".join(report), pytrace=False)
    assert result.attempted == len(test.examples)


@pytest.mark.parametrize("name", MODULES)
def test_the_docstrings_are_those_doctest_finds(name: str) -> None:
    """The docstrings read here are those doctest finds in the pure-Python module."""
    spec = importlib.util.spec_from_file_location(f"{name}_from_source", source_of(name))
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        found = doctest.DocTestFinder().find(module, name)
    finally:
        del sys.modules[spec.name]
    expected = {test.name: len(test.examples) for test in found if test.examples}
    read = {
        doc.name: len(PARSER.get_examples(doc.text)) for doc in DOCSTRINGS if doc.module == name
    }
    assert read == expected
