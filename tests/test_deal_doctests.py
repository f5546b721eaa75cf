"""The doctests of ``replay/deal.py``, read from its source, run against the imported engine.

``--doctest-modules`` skips ``replay/deal.py`` (see conftest.py): a compiled engine cannot be
collected from its source file and keeps no docstrings. Here every docstring of the module, its
classes, functions and methods is read with :mod:`ast` and run as one test, named as doctest
names it, with the globals of the :mod:`replay.deal` that is imported, compiled or pure Python.
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

import replay.deal

SOURCE = Path(replay.deal.__file__).with_name("deal.py")


class Docstring(NamedTuple):
    name: str
    text: str
    lineno: int  # 0-based line of the docstring's first line, as doctest counts


def docstrings(node: ast.Module | ast.ClassDef, name: str) -> Iterator[Docstring]:
    """The docstrings of ``node`` and of the classes, functions and methods defined in it."""
    text = ast.get_docstring(node, clean=False)
    if text is not None:
        yield Docstring(name, text, node.body[0].lineno - 1)
    for child in node.body:
        if isinstance(child, ast.ClassDef):
            yield from docstrings(child, f"{name}.{child.name}")
        elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            text = ast.get_docstring(child, clean=False)
            if text is not None:
                yield Docstring(f"{name}.{child.name}", text, child.body[0].lineno - 1)


PARSER = doctest.DocTestParser()
DOCSTRINGS = [
    doc
    for doc in docstrings(ast.parse(SOURCE.read_text(encoding="utf-8")), "replay.deal")
    if PARSER.get_examples(doc.text)
]


def make_test(doc: Docstring) -> doctest.DocTest:
    globs = dict(vars(replay.deal))
    return PARSER.get_doctest(doc.text, globs, doc.name, str(SOURCE), doc.lineno)


def test_the_source_has_doctests() -> None:
    assert DOCSTRINGS
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


def test_the_docstrings_are_those_doctest_finds() -> None:
    """The docstrings read here are those doctest finds in the pure-Python module."""
    spec = importlib.util.spec_from_file_location("replay._deal_from_source", SOURCE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        found = doctest.DocTestFinder().find(module, "replay.deal")
    finally:
        del sys.modules[spec.name]
    expected = {test.name: len(test.examples) for test in found if test.examples}
    assert {doc.name: len(PARSER.get_examples(doc.text)) for doc in DOCSTRINGS} == expected
