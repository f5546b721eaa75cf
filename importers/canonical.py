"""The canonical match-log format: streaming reader and writer for ``.json`` and ``.jsonl``.

Readers take binary streams and yield one :class:`Record` per document: the match, or the
problems that kept it from being read, each naming the file, the line and the JSON path. A
JSONL stream is read a line at a time, so memory stays flat however long the file is.

>>> import io
>>> text = b'{"format": "twentynine.match", "version": 1, "rules": "pagat", "deals": []}\\n'
>>> [str(p) for p in next(read_jsonl(io.BytesIO(text), "x.jsonl")).problems]
['x.jsonl:1: players: missing required field']
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Literal, TypeVar

import orjson
from pydantic import ValidationError

from importers.errors import InputProblem, InputTooLargeError, describe_validation_error
from schema.fastlog import FastMatchLog, decode_match
from schema.log import MatchLog, dump_json, repeated_key

Layout = Literal["json", "jsonl", "auto"]
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Record:
    """One document read from an input: a match, or the problems that stopped it.

    ``places`` maps a JSON path (``deals[0]``, ``deals[0].actions[7]``) to the line it was
    read from, where a format has a line per action (the text notation).
    """

    source: str
    line: int | None
    match: MatchLog | None
    problems: tuple[InputProblem, ...] = ()
    places: Mapping[str, int] | None = None

    def line_of(self, deal: int | None, action: int | None) -> int | None:
        """The line of a deal (from 1) or of one of its actions (from 0), where known, else
        the record's own line.

        >>> Record("c.29", 1, None, places={"deals[0].actions[2]": 14}).line_of(1, 2)
        14
        """
        if self.places is None or deal is None:
            return self.line
        where = f"deals[{deal - 1}]"
        if action is not None and f"{where}.actions[{action}]" in self.places:
            return self.places[f"{where}.actions[{action}]"]
        return self.places.get(where, self.line)

    @property
    def ok(self) -> bool:
        return self.match is not None


def parse_document(data: bytes | str, source: str, line: int | None) -> Record:
    """Validate one JSON document as a match log (each key given once in each object).

    >>> parse_document(b"{", "m.json", None).problems[0].reason.startswith("invalid JSON")
    True
    """
    key = repeated_key(data)
    if key is not None:
        reason = f"the key {key!r} appears twice in one object"
        return Record(source, line, None, (InputProblem(source, line, None, reason),))
    try:
        match = MatchLog.model_validate_json(data)
    except ValidationError as exc:
        problems = describe_validation_error(exc, source, line, document=data)
        return Record(source, line, None, tuple(problems))
    return Record(source, line, match)


@dataclass(frozen=True, slots=True)
class FastRecord:
    """A match the fast decoder read (:mod:`schema.fastlog`), for the auditor: never a problem."""

    source: str
    line: int | None
    match: FastMatchLog
    problems: tuple[InputProblem, ...] = ()

    @property
    def ok(self) -> bool:
        return True


def parse_document_fast(data: bytes | str, source: str, line: int | None) -> Record | FastRecord:
    """As :func:`parse_document`, through the fast decoder where it is sure of the document.

    What the fast decoder leaves (a lax value, a missing id, a mistake) goes to the models,
    so problems read exactly as :func:`parse_document` words them.

    >>> doc = b'{"format": "twentynine.match", "version": 1, "id": "m", "rules": "pagat", '
    >>> type(parse_document_fast(doc + b'"players": {}, "deals": []}', "m.json", None)).__name__
    'Record'
    >>> seats = b'"players": {"N": "a", "E": "b", "S": "c", "W": "d"}, "deals": []}'
    >>> type(parse_document_fast(doc + seats, "m.json", None)).__name__
    'FastRecord'
    """
    match = decode_match(data)
    if match is not None:
        return FastRecord(source, line, match)
    return parse_document(data, source, line)


Parse = Callable[[bytes, str, int | None], R]


def read_json(stream: BinaryIO, source: str) -> Iterator[Record]:
    """Read a ``.json`` stream: exactly one match object."""
    yield parse_document(stream.read(), source, None)


def read_jsonl(stream: Iterable[bytes], source: str, first_line: int = 1) -> Iterator[Record]:
    """Read a ``.jsonl`` stream: one match object a line, blank lines ignored."""
    return _read_lines(stream, source, first_line, parse_document)


def _read_lines(
    stream: Iterable[bytes], source: str, first_line: int, parse: Parse[R]
) -> Iterator[R | Record]:
    lines = iter(stream)
    number = first_line - 1
    while True:
        number += 1
        try:
            raw = next(lines)
        except StopIteration:
            return
        except InputTooLargeError as exc:
            if not exc.resumable:
                raise
            problem = exc.problem(source, number)  # refused; the next line is read on
            yield Record(source, number, None, (problem,))
            continue
        if raw.strip():
            yield parse(raw, source, number)


def read_stream(stream: BinaryIO, source: str, layout: Layout = "auto") -> Iterator[Record]:
    """Read a stream as JSON, JSONL, or (``auto``) whichever its first line shows it to be.

    A first line that is a whole JSON object by itself means JSONL; anything else is read as
    one document.
    """
    return _read_stream(stream, source, layout, parse_document)


def read_stream_fast(
    stream: BinaryIO, source: str, layout: Layout = "auto"
) -> Iterator[Record | FastRecord]:
    """As :func:`read_stream`, each document through :func:`parse_document_fast` (the auditor's
    reading: the engine replays either kind of match the same way).

    >>> import io
    >>> lines = io.BytesIO(Path("sample_logs/league.jsonl").read_bytes())
    >>> {type(record).__name__ for record in read_stream_fast(lines, "league.jsonl")}
    {'FastRecord'}
    """
    return _read_stream(stream, source, layout, parse_document_fast)


def _read_stream(
    stream: BinaryIO, source: str, layout: Layout, parse: Parse[R]
) -> Iterator[R | Record]:
    if layout == "json":
        yield parse(stream.read(), source, None)
        return
    if layout == "jsonl":
        yield from _read_lines(stream, source, 1, parse)
        return
    first = stream.readline()
    while first and not first.strip():
        first = stream.readline()
        if not first:
            break
    if not first.strip():
        yield Record(source, None, None, (InputProblem(source, None, None, "empty input"),))
        return
    if _is_whole_object(first):
        yield parse(first, source, 1)
        yield from _read_lines(stream, source, 2, parse)
    else:
        yield parse(first + stream.read(), source, None)


def _is_whole_object(line: bytes) -> bool:
    try:
        return isinstance(orjson.loads(line), dict)
    except orjson.JSONDecodeError:
        return False


def layout_of(path: Path) -> Layout:
    """The layout a file name promises: ``.json``, ``.jsonl``, or auto for anything else."""
    suffix = path.suffix.lower()
    if suffix == ".json":
        return "json"
    if suffix in (".jsonl", ".ndjson"):
        return "jsonl"
    return "auto"


def read_path(path: str | Path) -> Iterator[Record]:
    """Read a file (or ``-`` for standard input) of match logs.

    A file that cannot be opened gives one record with the reason.
    """
    if str(path) == "-":
        yield from read_stream(sys.stdin.buffer, "<stdin>", "auto")
        return
    path = Path(path)
    try:
        with path.open("rb") as stream:
            yield from read_stream(stream, str(path), layout_of(path))
    except OSError as exc:
        reason = f"cannot read: {exc.strerror or exc}"
        yield Record(str(path), None, None, (InputProblem(str(path), None, None, reason),))


def dump_match(match: MatchLog, *, indent: bool = False) -> bytes:
    """A match as canonical JSON bytes (only the fields that were given, in model order).

    >>> m = MatchLog.model_validate({"format": "twentynine.match", "version": 1,
    ...     "rules": "pagat", "players": {"N": "a", "E": "b", "S": "c", "W": "d"}, "deals": []})
    >>> dump_match(m)[:40]
    b'{"format":"twentynine.match","version":1'
    """
    return dump_json(match.to_canonical(), indent=indent)


def write_jsonl(matches: Iterable[MatchLog], stream: BinaryIO) -> int:
    """Write matches one a line; returns how many were written."""
    count = 0
    for match in matches:
        stream.write(dump_match(match))
        stream.write(b"\n")
        count += 1
    return count


def write_json(match: MatchLog, stream: BinaryIO) -> None:
    """Write one match as an indented ``.json`` document."""
    stream.write(dump_match(match, indent=True))
    stream.write(b"\n")
