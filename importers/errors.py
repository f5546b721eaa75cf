"""Problems found while reading input: each names the file, the place and the reason.

>>> str(InputProblem("league.jsonl", 14, "deals[3].actions[7].card", "'XS' is not a card"))
"league.jsonl:14: deals[3].actions[7].card: 'XS' is not a card"
"""

from __future__ import annotations

import re
import reprlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from pydantic import ValidationError

_BRIEF = reprlib.Repr()  # Python 3.11's Repr takes no arguments
_BRIEF.maxlevel, _BRIEF.maxstring, _BRIEF.maxother = 3, 40, 40
_BRIEF.maxlist, _BRIEF.maxdict = 6, 4


def brief(value: object) -> str:
    """A value as a problem line shows it: its repr, cut short (deep or long values included).

    >>> brief("XS"), brief([[[[[1]]]]])
    ("'XS'", '[[[[...]]]]')
    """
    return _BRIEF.repr(value)


@dataclass(frozen=True, slots=True)
class InputProblem:
    """One problem in one input document.

    ``line`` is the 1-based line of a JSONL record or text file (None when the whole file is
    one document); ``path`` the JSON path inside the document (None when it is about the
    whole document, e.g. bad JSON).
    """

    source: str
    line: int | None
    path: str | None
    reason: str

    def __str__(self) -> str:
        where = self.source if self.line is None else f"{self.source}:{self.line}"
        return f"{where}: {self.path}: {self.reason}" if self.path else f"{where}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.source, "line": self.line, "path": self.path, "reason": self.reason}


MAX_DOCUMENT: Final = 64 << 20
"""The longest line (and the largest whole-file document) a reader takes: 64 MB, a thousand
times a long match. A longer one is refused with one line; a JSONL file is read on from the
next line (when one comes within :data:`MAX_SKIPPED` bytes), any other file no further."""
MAX_SKIPPED: Final = 16 * MAX_DOCUMENT
"""How far past a line too long a reader looks for its end (a file such as /dev/zero has
none)."""


class InputTooLargeError(Exception):
    """A line (``line``, from 1) or a whole-file document (``line`` None) longer than
    :data:`MAX_DOCUMENT`; ``resumable`` when the stream now stands at the next line."""

    def __init__(self, line: int | None, *, resumable: bool = False) -> None:
        super().__init__(f"line {line}" if line is not None else "document")
        self.line = line
        self.resumable = resumable

    def problem(self, source: str, line: int | None = None) -> InputProblem:
        """The one line that says so (``line`` where the reader counts lines itself).

        >>> str(InputTooLargeError(3, resumable=True).problem("a.jsonl"))
        'a.jsonl:3: longer than 64 MB, the most one line or document may hold'
        """
        where = self.line if line is None else line
        reason = f"longer than {MAX_DOCUMENT >> 20} MB, the most one line or document may hold"
        if not self.resumable and where is not None:
            reason += f"; the rest of {source} is not read"
        return InputProblem(source, where, None, reason)


class InputError(Exception):
    """Raised where a caller wants one bad input to stop the work; carries its problems."""

    def __init__(self, problems: Sequence[InputProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__(str(self.problems[0]) if self.problems else "bad input")


def json_path(loc: Sequence[int | str]) -> str:
    """A pydantic error location as a JSON path, without the union tags pydantic adds.

    >>> json_path(("deals", 3, "actions", 7, "play", "card"))
    'deals[3].actions[7].card'
    """
    parts: list[str] = []
    for i, part in enumerate(loc):
        if isinstance(part, int):
            parts.append(f"[{part}]")
        elif i >= 2 and loc[i - 2] == "actions" and isinstance(loc[i - 1], int):
            continue  # pydantic names the action's union member after its index
        elif part in _UNION_MEMBERS or part.startswith(("function-", "nullable[", "union[")):
            continue
        else:
            parts.append(f".{part}" if parts else part)
    return "".join(parts)


_UNION_MEMBERS = frozenset({"str", "PlayerRef", "int", "bool"})

_JSON_POSITION = re.compile(r"at line (?P<line>\d+) column (?P<column>\d+)")

_REASONS: dict[str, str] = {
    "missing": "missing required field",
    "extra_forbidden": "unknown field",
}


def describe_validation_error(
    exc: ValidationError, source: str, line: int | None, *, limit: int = 20
) -> list[InputProblem]:
    """One problem per pydantic error, worded for a person, at most ``limit`` of them."""
    problems: list[InputProblem] = []
    seen: set[tuple[str, str]] = set()
    for error in exc.errors(include_url=False)[:limit]:
        kind = error["type"]
        loc = tuple(error["loc"])
        ctx = error.get("ctx") or {}
        if loc and loc[-1] in ("str", "PlayerRef"):
            # both branches of "name or {name, id}" failed: one line, not two
            if isinstance(error["input"], dict):
                continue
            key = (json_path(loc), "player")
            if key not in seen:
                seen.add(key)
                reason = f"{error['input']!r} is not a player: give a name or {{name, id}}"
                problems.append(InputProblem(source, line, key[0], reason))
            continue
        if kind == "json_invalid":
            reason = str(ctx.get("error"))
            where = _JSON_POSITION.search(reason)
            if line is None and where is not None:
                # a whole-file document: the parser's line is the file's line
                problems.append(
                    InputProblem(source, int(where["line"]), None, f"invalid JSON: {reason}")
                )
            else:
                problems.append(InputProblem(source, line, None, f"invalid JSON: {reason}"))
            continue
        if kind == "union_tag_invalid":
            expected = ctx.get("expected_tags", "")
            reason = f"unknown action type {ctx.get('tag')!r} (expected one of {expected})"
            problems.append(InputProblem(source, line, json_path(loc) + ".type", reason))
            continue
        if kind == "union_tag_not_found":
            missing = _REASONS["missing"]
            problems.append(InputProblem(source, line, json_path(loc) + ".type", missing))
            continue
        if kind in _REASONS:
            reason = _REASONS[kind]
        elif kind == "literal_error":
            reason = f"{error['input']!r} is not allowed: expected {ctx.get('expected')}"
        else:
            reason = str(error["msg"])
            reason = reason.removeprefix("Value error, ")
        problems.append(InputProblem(source, line, json_path(loc) or None, reason))
    return problems
