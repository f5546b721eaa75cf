"""What an audit of many matches adds up to: the counts and the finding rows, without I/O.

``twentynine audit``, ``twentynine demo`` and the audit benchmark feed it each audited match
(and each document that could not be read) and print what it holds; none of them counts.

>>> from twentynine.schema import Rules
>>> from twentynine.replay.audit import audit_match
>>> from twentynine.replay.simulate import random_match
>>> log = random_match(Rules.preset("pagat"), seed=3)
>>> summary = AuditSummary()
>>> rows = summary.add("league.jsonl", audit_match(log))
>>> summary.matches, summary.deals == len(log.deals), summary.errors, rows
(1, True, 0, [])
>>> summary.exit_code
0
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Final

from twentynine.replay.audit import AuditedMatch
from twentynine.replay.findings import Finding

LineOf = Callable[[int | None, int | None], int | None]
"""The line of the input that holds a deal's action (deal from 1, action from 0), if known."""

EXIT_CLEAN: Final = 0
EXIT_ERRORS: Final = 1
EXIT_UNREADABLE: Final = 2

AUDIT_GEN0_THRESHOLD: Final = 50_000
"""Tracked objects allocated and not yet freed between two of the collector's youngest
collections while an audit runs (Python's default is 700)."""


@contextmanager
def seldom_collected(gen0_threshold: int = AUDIT_GEN0_THRESHOLD) -> Iterator[None]:
    """Run a loop of audits with the cyclic collector's youngest generation collected
    seldom, and its thresholds as they were after, also on an exception.

    An audit's objects hold no cycles: reference counting frees them at once, so a
    collection finds nothing and only costs time (readers of other formats trigger one
    every few matches). The collector still runs, when that many objects pile up: memory
    stays flat on a file of any length.

    >>> before = gc.get_threshold()
    >>> with seldom_collected():
    ...     gc.get_threshold()[0]
    50000
    >>> gc.get_threshold() == before
    True
    """
    before = gc.get_threshold()
    gc.set_threshold(gen0_threshold, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


@dataclass(frozen=True, slots=True)
class FindingRow:
    """One finding where the input holds it: the file, its line if known, and the match.

    >>> row = FindingRow("x.json", 4, "m1", Finding("REVOKE", "error", 2, 9, "S revoked"))
    >>> row.location(), row.text()
    ('x.json:4:2:9', 'x.json:4:2:9: REVOKE S revoked')
    >>> row.to_dict()["file"], row.to_dict()["code"]
    ('x.json', 'REVOKE')
    """

    source: str
    line: int | None
    match_id: str
    finding: Finding

    def location(self) -> str:
        """``file[:line]:deal:action``, with ``-`` for a deal or action the finding has not."""
        where = self.source if self.line is None else f"{self.source}:{self.line}"
        deal = "-" if self.finding.deal is None else str(self.finding.deal)
        action = "-" if self.finding.action is None else str(self.finding.action)
        return f"{where}:{deal}:{action}"

    def text(self) -> str:
        """The row as ``twentynine audit`` prints it: location, code and message."""
        return f"{self.location()}: {self.finding.code} {self.finding.message}"

    def to_dict(self) -> dict[str, object]:
        """The row as a JSON line of ``twentynine audit --format json``."""
        return {
            "file": self.source,
            "line": self.line,
            "match": self.match_id,
            **self.finding.to_dict(),
        }


def finding_row(
    source: str, match_id: str, finding: Finding, line_of: LineOf | None = None
) -> FindingRow:
    """The row of one finding; ``line_of`` places it in the input (no line without it).

    >>> finding_row("a.29", "m", Finding("X", "error", 1, 2, "m"), lambda d, a: 10 + a).line
    12
    """
    line = line_of(finding.deal, finding.action) if line_of is not None else None
    return FindingRow(source, line, match_id, finding)


@dataclass
class AuditSummary:
    """The running totals of an audit: files, matches, deals, errors, warnings, unreadable
    documents; :meth:`add` returns each match's finding rows for the caller to show."""

    files: set[str] = field(default_factory=set)
    matches: int = 0
    deals: int = 0
    errors: int = 0
    warnings: int = 0
    unreadable: int = 0

    def add(
        self, source: str, audited: AuditedMatch, line_of: LineOf | None = None
    ) -> list[FindingRow]:
        """Count a match read from ``source`` (a file, or ``<stdin>``) and audited; its
        finding rows, in order, placed in the input by ``line_of``."""
        self.files.add(source)
        self.matches += 1
        self.deals += len(audited.deals)
        rows = []
        for finding in audited.findings:
            if finding.severity == "error":
                self.errors += 1
            else:
                self.warnings += 1
            rows.append(finding_row(source, audited.match_id, finding, line_of))
        return rows

    def add_unreadable(self, source: str) -> None:
        """Count a document of ``source`` that could not be read as a match.

        >>> summary = AuditSummary()
        >>> summary.add_unreadable("bad.json")
        >>> summary.files, summary.unreadable, summary.exit_code
        ({'bad.json'}, 1, 2)
        """
        self.files.add(source)
        self.unreadable += 1

    @property
    def exit_code(self) -> int:
        """2 if a document could not be read, else 1 if an error was found, else 0."""
        if self.unreadable:
            return EXIT_UNREADABLE
        return EXIT_ERRORS if self.errors else EXIT_CLEAN
