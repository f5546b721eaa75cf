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

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Final, Generic, Literal, get_args, overload

import orjson
from pydantic import BaseModel, ValidationError
from typing_extensions import TypeVar

from twentynine.importers.errors import (
    EMPTY_INPUT,
    InputProblem,
    InputTooLargeError,
    describe_validation_error,
    where,
)
from twentynine.schema.fastlog import decode_match
from twentynine.schema.log import (
    Action,
    Deal,
    DealResult,
    MatchLog,
    MatchResult,
    PlayerRef,
    TeamScores,
    dump_json,
    repeated_key,
)
from twentynine.schema.shapes import MatchLike

Layout = Literal["json", "jsonl", "auto"]


Match = MatchLike
"""A match as read: the pydantic models, or the fast decoder's structs (:mod:`schema.fastlog`),
which the engine and the warehouse take alike."""
M_co = TypeVar("M_co", bound=Match, covariant=True, default=MatchLog)


@dataclass(frozen=True, slots=True)
class Record(Generic[M_co]):
    """One document read from an input: a match, or the problems that stopped it; and where it
    was read (the file, and the line of a JSONL record or of a match in a text file).

    The match is the models (``Record[MatchLog]``, what the readers give by default) or,
    read with ``fast=True``, whichever of the two the reader chose (``Record[Match]``).
    ``places`` maps a JSON path (``deals[0]``, ``deals[0].actions[7]``) to the line it was
    read from, where a format has a line per action (the text notation).
    """

    source: str
    line: int | None
    match: M_co | None
    problems: tuple[InputProblem, ...] = ()
    places: Mapping[str, int] | None = None
    document: bytes | str | None = None
    """The document the fast decoder read (for a writer that copies what is already
    canonical: :func:`canonical_line`)."""
    canonical: bool = False
    """Whether ``document`` is already known to be the canonical line (a reader wrote it, its
    keys in the models' order: the Bhoos archive's), to be copied without checking it again."""
    copied_id: str | None = None
    """The match's id, given instead of the match by a reader that was asked only for lines
    to copy (``copying``, ``twentynine import``) and wrote ``document``, the canonical line,
    itself from values it checked: ``match`` is then None, and ``ok`` True."""
    notes: tuple[InputProblem, ...] = ()
    """What the reader had to assume to read the match, for the command to tell (the match
    is read; these are not problems): a Bhoos payload log's seating order, where nothing in
    the game shows it."""

    @staticmethod
    def refused(source: str, line: int | None, reason: str) -> Record[Any]:
        """A record of one problem about the whole document (or file).

        >>> str(Record.refused("a.json", None, "empty input").problems[0])
        'a.json: empty input'
        """
        return Record(source, line, None, (InputProblem(source, line, None, reason),))

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
    def where(self) -> str:
        """``file:line``, or the file alone (:func:`importers.errors.where`)."""
        return where(self.source, self.line)

    @property
    def ok(self) -> bool:
        return self.match is not None or self.copied_id is not None


@overload
def parse_document(
    data: bytes | str,
    source: str,
    line: int | None,
    *,
    fast: Literal[False] = False,
    keys_checked: bool = False,
) -> Record[MatchLog]: ...
@overload
def parse_document(
    data: bytes | str, source: str, line: int | None, *, fast: bool, keys_checked: bool = False
) -> Record[Match]: ...
def parse_document(
    data: bytes | str,
    source: str,
    line: int | None,
    *,
    fast: bool = False,
    keys_checked: bool = False,
) -> Record[Match]:
    """Validate one JSON document as a match log (each key given once in each object).

    With ``fast``, the fast decoder reads it where it is sure of the document; what it leaves
    (a lax value, a missing id, a mistake) goes to the models, so problems read the same.
    ``keys_checked`` (with ``fast``) leaves out the decoder's own check that no key repeats,
    for a caller that checks the record's ``document`` itself before it trusts the match
    (:func:`canonical_line` does) and reads it again without ``fast`` when that fails.

    >>> parse_document(b"{", "m.json", None).problems[0].reason.startswith("invalid JSON")
    True
    >>> doc = b'{"format": "twentynine.match", "version": 1, "id": "m", "rules": "pagat", '
    >>> type(parse_document(doc + b'"players": {}, "deals": []}', "m", None, fast=True).match)
    <class 'NoneType'>
    >>> seats = b'"players": {"N": "a", "E": "b", "S": "c", "W": "d"}, "deals": []}'
    >>> from twentynine.schema.fastlog import is_decoded
    >>> is_decoded(parse_document(doc + seats, "m.json", None, fast=True).match)
    True
    """
    if fast:
        decoded = decode_match(data, keys_checked=keys_checked)
        if decoded is not None:
            return Record(source, line, decoded, document=data)
    key = repeated_key(data)
    if key is not None:
        return Record.refused(source, line, f"the key {key!r} appears twice in one object")
    try:
        match = MatchLog.model_validate_json(data)
    except ValidationError as exc:
        problems = describe_validation_error(exc, source, line, document=data)
        return Record(source, line, None, tuple(problems))
    return Record(source, line, match)


def read_json(stream: BinaryIO, source: str) -> Iterator[Record[MatchLog]]:
    """Read a ``.json`` stream: exactly one match object."""
    yield parse_document(stream.read(), source, None)


def read_jsonl(
    stream: Iterable[bytes], source: str, first_line: int = 1
) -> Iterator[Record[MatchLog]]:
    """Read a ``.jsonl`` stream: one match object a line, blank lines ignored."""
    return _read_lines(stream, source, first_line, fast=False)


def _read_lines(
    stream: Iterable[bytes], source: str, first_line: int, *, fast: bool, keys_checked: bool = False
) -> Iterator[Record[Any]]:
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
            yield parse_document(raw, source, number, fast=fast, keys_checked=keys_checked)


@overload
def read_stream(
    stream: BinaryIO,
    source: str,
    layout: Layout = "auto",
    *,
    fast: Literal[False] = False,
    keys_checked: bool = False,
) -> Iterator[Record[MatchLog]]: ...
@overload
def read_stream(
    stream: BinaryIO,
    source: str,
    layout: Layout = "auto",
    *,
    fast: bool,
    keys_checked: bool = False,
) -> Iterator[Record[Match]]: ...
def read_stream(
    stream: BinaryIO,
    source: str,
    layout: Layout = "auto",
    *,
    fast: bool = False,
    keys_checked: bool = False,
) -> Iterator[Record[Match]]:
    """Read a stream as JSON, JSONL, or (``auto``) whichever its first line shows it to be,
    each document as :func:`parse_document` reads it (``fast``: by the fast decoder where it
    can; ``keys_checked``: the caller checks for repeated keys itself).

    A first line that is a whole JSON object by itself means JSONL; anything else is read as
    one document.

    >>> import io
    >>> lines = io.BytesIO(Path("sample_logs/league.jsonl").read_bytes())
    >>> from twentynine.schema.fastlog import is_decoded
    >>> {is_decoded(r.match) for r in read_stream(lines, "league.jsonl", fast=True)}
    {True}
    """
    checked = keys_checked
    if layout == "json":
        yield parse_document(stream.read(), source, None, fast=fast, keys_checked=checked)
        return
    if layout == "jsonl":
        yield from _read_lines(stream, source, 1, fast=fast, keys_checked=checked)
        return
    first = stream.readline()
    while first and not first.strip():
        first = stream.readline()
        if not first:
            break
    if not first.strip():
        yield Record.refused(source, None, EMPTY_INPUT)
        return
    if _is_whole_object(first):
        yield parse_document(first, source, 1, fast=fast, keys_checked=checked)
        yield from _read_lines(stream, source, 2, fast=fast, keys_checked=checked)
    else:
        yield parse_document(first + stream.read(), source, None, fast=fast, keys_checked=checked)


def _is_whole_object(line: bytes) -> bool:
    try:
        return isinstance(orjson.loads(line), dict)
    except orjson.JSONDecodeError:
        return False


def layout_of(path: Path | None) -> Layout:
    """The layout a file name promises: ``.json``, ``.jsonl``, or auto for anything else
    (standard input, ``None``, included)."""
    suffix = path.suffix.lower() if path is not None else ""
    if suffix == ".json":
        return "json"
    if suffix in (".jsonl", ".ndjson"):
        return "jsonl"
    return "auto"


def read_path(path: str | Path) -> Iterator[Record[MatchLog]]:
    """Read a file (or ``-`` for standard input) of canonical match logs: what
    :func:`importers.formats.read_any` reads with ``--from canonical``."""
    from twentynine.importers.formats import read_any  # formats builds on this module

    return read_any(path, "canonical")


def _field_order(model: type[BaseModel]) -> dict[str, int]:
    return {field.alias or name: i for i, (name, field) in enumerate(model.model_fields.items())}


class _Order:
    """The order of the fields of one kind of object, as the models write them, and the
    spellings of such an object (its keys in turn) already found to keep it: a match's
    objects are checked a spelling at a time, most of them by one set lookup."""

    __slots__ = ("kept", "ranks")

    def __init__(self, ranks: dict[str, int]) -> None:
        self.ranks = ranks
        self.kept: set[tuple[str, ...]] = set()

    def keeps(self, value: dict[str, Any]) -> bool:
        keys = tuple(value)
        return keys in self.kept or self._new(keys)

    def all_keep(self, values: Iterable[dict[str, Any]]) -> bool:
        spellings = set(map(tuple, values))  # the loop over the objects runs in C
        return spellings <= self.kept or all(map(self._new, spellings - self.kept))

    def _new(self, keys: tuple[str, ...]) -> bool:
        ranks = [self.ranks.get(key, -1) for key in keys]
        if -1 in ranks or ranks != sorted(ranks):
            return False
        if len(self.kept) < _MAX_ORDERS_KEPT:
            self.kept.add(keys)
        return True


def _action_order() -> dict[str, int]:
    """One order of every action field that each action model's own order keeps (``seat``,
    ``t``, ``note``, ``type``, then the fields of each kind): an action's keys are then
    checked without its type (which keys it may have is the decoder's to check)."""
    models = list(get_args(get_args(Action)[0]))
    names: list[str] = []
    for model in models:
        names.extend(name for name in _field_order(model) if name not in names)
    order = {name: i for i, name in enumerate(names)}
    for model in models:
        ranks = [order[name] for name in _field_order(model)]
        assert ranks == sorted(ranks), f"{model.__name__}: no one order of the action fields"
    return order


_MAX_ORDERS_KEPT: Final = 10_000
# The models' field order, which a canonical document keeps (from the models themselves)
_MATCH: Final = _Order(_field_order(MatchLog))
_DEAL: Final = _Order(_field_order(Deal))
_ACTION: Final = _Order(_action_order())
_PLAYER: Final = _Order(_field_order(PlayerRef))
_MATCH_RESULT: Final = _Order(_field_order(MatchResult))
_DEAL_RESULT: Final = _Order(_field_order(DealResult))
_SCORES: Final = _Order(_field_order(TeamScores))


def _canonical_order(match: dict[str, Any]) -> bool:
    """Whether every object of a match document whose fields the models order has them in
    that order (``meta``, ``rules`` and the seats of ``players`` and ``hands`` keep theirs)."""
    if not _MATCH.keeps(match):
        return False
    players = [p for p in match["players"].values() if isinstance(p, dict)]
    if players and not _PLAYER.all_keep(players):
        return False
    result = match.get("result")
    if isinstance(result, dict):
        if not _MATCH_RESULT.keeps(result):
            return False
        score = result.get("score")
        if isinstance(score, dict) and not _SCORES.keeps(score):
            return False
    deals = match["deals"]
    if not _DEAL.all_keep(deals):
        return False
    for deal in deals:
        outcome = deal.get("result")
        if isinstance(outcome, dict):
            if not _DEAL_RESULT.keeps(outcome):
                return False
            scores = [outcome.get("points"), outcome.get("score")]
            if not _SCORES.all_keep(s for s in scores if isinstance(s, dict)):
                return False
        if not _ACTION.all_keep(deal["actions"]):
            return False
    return True


def canonical_line(document: bytes | str) -> bytes | None:
    """A document that the fast decoder accepted, as one line of canonical JSON (the bytes
    :func:`dump_match` would write for it, without the newline) when it already is that, else
    None: no space, every value spelled as orjson spells it, each key once, the fields in the
    models' order. It checks the form only; the content is the decoder's to check.

    >>> doc = (b'{"format":"twentynine.match","version":1,"id":"m","rules":"pagat",'
    ...        b'"players":{"N":"a","E":"b","S":"c","W":"d"},"deals":[]}')
    >>> canonical_line(doc + b"\\n") == doc
    True
    >>> canonical_line(doc.replace(b'"id":"m",', b"").replace(b"[]}", b'[],"id":"m"}')) is None
    True
    """
    data = (document.encode() if isinstance(document, str) else document).strip()
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(value, dict) or orjson.dumps(value) != data:
        return None
    try:
        return data if _canonical_order(value) else None
    except (KeyError, TypeError, AttributeError):  # not the shape the decoder accepted
        return None


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
