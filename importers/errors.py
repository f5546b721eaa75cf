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

import orjson
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

    ``line`` is the 1-based line of a JSONL record or text file, or in a file that is one
    JSON document the line of the value at fault, with its 1-based ``column``; ``path`` the
    JSON path inside the document (None when it is about the whole document, e.g. bad JSON).

    >>> str(InputProblem("m.json", 12, "deals[0].dealer", "'X' is not a seat", column=19))
    "m.json:12:19: deals[0].dealer: 'X' is not a seat"
    """

    source: str
    line: int | None
    path: str | None
    reason: str
    column: int | None = None

    def __str__(self) -> str:
        place = where(self.source, self.line)
        if self.line is not None and self.column is not None:
            place += f":{self.column}"
        return f"{place}: {self.path}: {self.reason}" if self.path else f"{place}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.source,
            "line": self.line,
            "column": self.column,
            "path": self.path,
            "reason": self.reason,
        }


def where(source: str, line: int | None) -> str:
    """``file:line``, or the file alone: how every message names the place of a document.

    >>> where("league.jsonl", 14), where("<stdin>", None)
    ('league.jsonl:14', '<stdin>')
    """
    return source if line is None else f"{source}:{line}"


EMPTY_INPUT: Final = "empty input"
NO_INPUT_FILES: Final = "no input files found"
"""Why an import wrote nothing: its paths hold no file in a known format."""
"""The reason given for a stream with nothing but white space in it."""


def unreadable(source: str, exc: OSError) -> InputProblem:
    """The one line for a file that cannot be opened or read (missing, a folder one may not
    read, a symlink loop, no permission).

    >>> str(unreadable("a.json", FileNotFoundError(2, "No such file or directory")))
    'a.json: cannot read: No such file or directory'
    """
    return InputProblem(source, None, None, f"cannot read: {exc.strerror or exc}")


def not_the_format(source: str, named: str, shown: str) -> InputProblem:
    """The one line for a file ``--from`` names in one format whose content shows another
    (read as named, each of its lines failed alone: thousands of lines for one mistake).

    >>> print(not_the_format("a.json", "bhoos-play", "canonical").reason)
    not read: --from bhoos-play, but its content is canonical (leave out --from, or name its format)
    """
    return InputProblem(
        source,
        None,
        None,
        f"not read: --from {named}, but its content is {shown} "
        "(leave out --from, or name its format)",
    )


def reader_failed(source: str, name: str, exc: Exception) -> InputProblem:
    """The one line for a reader that failed by its own fault, not the input's.

    >>> str(reader_failed("a.json", "canonical", KeyError("x")))
    "a.json: the canonical reader failed (KeyError: 'x'); please report it"
    """
    reason = f"the {name} reader failed ({type(exc).__name__}: {exc}); please report it"
    return InputProblem(source, None, None, reason)


def unknown_format(name: str, known: Sequence[str]) -> str:
    """The message for a ``--from`` no reader goes by.

    >>> unknown_format("pbn", ["canonical", "text"])
    "unknown format 'pbn' (known: canonical, text)"
    """
    return f"unknown format {name!r} (known: {', '.join(known)})"


def no_logs_found(paths: Sequence[object]) -> str:
    """The message for paths that hold no file in a known format (an empty folder).

    >>> no_logs_found(["empty/"])
    'no match logs found in empty/'
    """
    return "no match logs found in " + ", ".join(map(str, paths))


def no_such_path(path: object) -> str:
    """The message for a load whose every path is missing: nothing to read, nothing stored.

    >>> no_such_path("games/")
    'games/: no such file or folder; nothing was stored'
    """
    return f"{path}: no such file or folder; nothing was stored"


def empty_file(path: object) -> str:
    """The warning for a file with nothing but white space in it.

    >>> empty_file("empty.jsonl")
    'empty.jsonl: empty: no match in it'
    """
    return f"{path}: empty: no match in it"


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


def json_keys(loc: Sequence[int | str]) -> list[int | str]:
    """A pydantic error location as the keys and indices into the document, without the union
    tags pydantic adds.

    >>> json_keys(("deals", 3, "actions", 7, "play", "card"))
    ['deals', 3, 'actions', 7, 'card']
    """
    keys: list[int | str] = []
    for i, part in enumerate(loc):
        if isinstance(part, int):
            keys.append(part)
        elif i >= 2 and loc[i - 2] == "actions" and isinstance(loc[i - 1], int):
            continue  # pydantic names the action's union member after its index
        elif part in _UNION_MEMBERS or part.startswith(("function-", "nullable[", "union[")):
            continue
        else:
            keys.append(part)
    return keys


def json_path(loc: Sequence[int | str]) -> str:
    """A pydantic error location as a JSON path, without the union tags pydantic adds.

    >>> json_path(("deals", 3, "actions", 7, "play", "card"))
    'deals[3].actions[7].card'
    """
    parts = [f"[{key}]" if isinstance(key, int) else f".{key}" for key in json_keys(loc)]
    return "".join(parts).removeprefix(".")


def json_position(text: str, keys: Sequence[int | str]) -> tuple[int, int] | None:
    """Line and column (from 1) of the value at ``keys`` in a JSON text, or of the deepest
    object or array on the way that holds it (a missing field is at its object); None when
    the text is not JSON enough to tell.

    >>> json_position('{"a": [1,\\n  {"b": "x"}]}', ["a", 1, "b"])
    (2, 9)
    >>> json_position('{"a": {"c": 1}}', ["a", "b"])
    (1, 7)
    """
    try:
        return _JsonWalk(text).find(keys)
    except (IndexError, ValueError):
        return None


class _JsonWalk:
    """Just enough of a JSON reader to find where a value starts; only run on a bad document."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0

    def find(self, keys: Sequence[int | str]) -> tuple[int, int]:
        self._blank()
        at = self.i
        for key in keys:
            found = self._enter(key)
            if found is None:
                break
            at = found
        line = self.text.count("\n", 0, at) + 1
        return line, at - (self.text.rfind("\n", 0, at) + 1) + 1

    def _enter(self, key: int | str) -> int | None:
        """From the start of a container, move to the start of its member ``key``."""
        opening = self.text[self.i]
        if opening not in "{[" or isinstance(key, int) != (opening == "["):
            return None
        self.i += 1
        index = 0
        while True:
            self._blank()
            if self.text[self.i] in "}]":
                return None
            if opening == "{":
                name = self._string()
                self._blank()
                if self.text[self.i] != ":":
                    raise ValueError("no colon")
                self.i += 1
                self._blank()
                if name == key:
                    return self.i
            elif index == key:
                return self.i
            self._skip_value()
            index += 1
            self._blank()
            if self.text[self.i] == ",":
                self.i += 1

    def _blank(self) -> None:
        while self.text[self.i] in " \t\r\n":
            self.i += 1

    def _string(self) -> str:
        if self.text[self.i] != '"':
            raise ValueError("no string")
        start = self.i
        self.i += 1
        while self.text[self.i] != '"':
            self.i += 2 if self.text[self.i] == "\\" else 1
        self.i += 1
        return str(orjson.loads(self.text[start : self.i]))

    def _skip_value(self) -> None:
        if self.text[self.i] == '"':
            self._string()
            return
        if self.text[self.i] in "{[":
            depth = 0
            while True:
                char = self.text[self.i]
                if char == '"':
                    self._string()
                    continue
                if char in "{[":
                    depth += 1
                elif char in "}]":
                    depth -= 1
                    if depth == 0:
                        self.i += 1
                        return
                self.i += 1
        while self.text[self.i] not in ",}] \t\r\n":  # a number, true, false or null
            self.i += 1


_UNION_MEMBERS = frozenset({"str", "PlayerRef", "int", "bool"})

_JSON_POSITION = re.compile(r"at line (?P<line>\d+) column (?P<column>\d+)")

_REASONS: dict[str, str] = {
    "missing": "missing required field",
    "extra_forbidden": "unknown field",
}


def describe_validation_error(
    exc: ValidationError,
    source: str,
    line: int | None,
    *,
    limit: int = 20,
    document: bytes | str | None = None,
) -> list[InputProblem]:
    """One problem per pydantic error, worded for a person, at most ``limit`` of them.

    With the ``document`` of a whole file (``line`` None), each problem in it gets the line
    and column of the value at fault.
    """
    pairs = _describe(exc, source, line, limit)
    if line is not None or document is None:
        return [problem for problem, _ in pairs]
    text = document.decode("utf-8", "replace") if isinstance(document, bytes) else document
    placed: list[InputProblem] = []
    for problem, loc in pairs:
        where = json_position(text, json_keys(loc)) if problem.line is None else None
        if where is None:
            placed.append(problem)
        else:
            placed.append(
                InputProblem(source, where[0], problem.path, problem.reason, column=where[1])
            )
    return placed


Located = tuple[InputProblem, tuple[int | str, ...]]


def _describe(exc: ValidationError, source: str, line: int | None, limit: int) -> list[Located]:
    """The problems, each with the pydantic location it came from."""
    pairs: list[Located] = []
    seen: set[tuple[str, str]] = set()
    for error in exc.errors(include_url=False)[:limit]:
        kind = error["type"]
        loc = tuple(error["loc"])
        ctx = error.get("ctx") or {}
        problem: InputProblem | None
        if loc and loc[-1] in ("str", "PlayerRef"):
            # both branches of "name or {name, id}" failed: one line, not two
            key = (json_path(loc), "player")
            if isinstance(error["input"], dict) or key in seen:
                continue
            seen.add(key)
            reason = f"{error['input']!r} is not a player: give a name or {{name, id}}"
            problem = InputProblem(source, line, key[0], reason)
        elif kind == "json_invalid":
            reason = f"invalid JSON: {ctx.get('error')}"
            where = _JSON_POSITION.search(reason)
            if line is None and where is not None:
                # a whole-file document: the parser's line is the file's line
                problem = InputProblem(source, int(where["line"]), None, reason)
            else:
                problem = InputProblem(source, line, None, reason)
        elif kind == "union_tag_invalid":
            expected = ctx.get("expected_tags", "")
            reason = f"unknown action type {ctx.get('tag')!r} (expected one of {expected})"
            problem = InputProblem(source, line, json_path(loc) + ".type", reason)
        elif kind == "union_tag_not_found":
            problem = InputProblem(source, line, json_path(loc) + ".type", _REASONS["missing"])
        else:
            if kind in _REASONS:
                reason = _REASONS[kind]
            elif kind == "literal_error":
                reason = f"{error['input']!r} is not allowed: expected {ctx.get('expected')}"
            else:
                reason = str(error["msg"]).removeprefix("Value error, ")
            problem = InputProblem(source, line, json_path(loc) or None, reason)
        pairs.append((problem, loc))
    return pairs
