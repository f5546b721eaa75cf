"""A fast decoder of match logs for the auditor: the models' own contract, read by msgspec.

The pydantic models of :mod:`schema.log` are the one definition of the log: they give the
JSON Schema, the one-line error messages, and the models the importers build. Reading them
costs about five times parsing the JSON, which caps the audit of a large file. So at import
this module derives msgspec structs from the models' fields, types and constraints (a model
changed is a struct changed: the two cannot drift) and decodes and checks a document into them
in one compiled pass (a little quicker than parsing into plain dicts). The structs are no
public type: code types against :mod:`schema.shapes` (:class:`~schema.shapes.MatchLike`),
which the models satisfy too.

:func:`decode_match` is strict and cautious: whenever it is not sure the pydantic models would
read a document the same way, it returns ``None`` and the caller reads that document with the
models, errors and all.

>>> match = decode_match(b'{"format": "twentynine.match", "version": 1, "id": "m1", '
...     b'"rules": "pagat", "players": {"N": "a", "E": "b", "S": "c", "W": "d"}, '
...     b'"deals": [{"dealer": "N", "actions": [{"seat": "E", "type": "bid", "value": 15}]}]}')
>>> action = match.deals[0].actions[0]
>>> action.type, action.seat, action.value
('bid', <Seat.E: 'E'>, 15)
>>> decode_match(b'{"format": "twentynine.match"}') is None  # the models must say why
True
"""

from __future__ import annotations

import hashlib
import types
from collections.abc import Iterable, Mapping
from typing import Any, Final, cast

import msgspec
from msgspec import UNSET
from pydantic import BaseModel

from twentynine.schema import log
from twentynine.schema._derive import Derived
from twentynine.schema._keycount import Counting
from twentynine.schema.log import MatchLog
from twentynine.schema.rules import Rules, resolve_rules
from twentynine.schema.shapes import DealResultLike, MatchLike


def _resolved_rules(self: MatchLike) -> Rules:
    """The match's rules as a validated :class:`Rules` value."""
    return resolve_rules(self.rules)


def _recorded_id(self: MatchLike) -> str:
    """The recorder's ``id``: :func:`decode_match` only returns matches that have one."""
    assert self.id, "decode_match reads only matches with an id"
    return self.id


_DERIVED: Final = Derived(
    MatchLog,
    module=__name__,
    methods={"resolved_rules": _resolved_rules, "match_id": property(_recorded_id)},
)
_STRUCTS: Final = _DERIVED.structs
_ROOT_CHECKS: Final = _DERIVED.checks
_MATCH: Final = _DERIVED.root
STRUCTS: Final[Mapping[type[BaseModel], type[msgspec.Struct]]] = types.MappingProxyType(_STRUCTS)
"""The struct made from each model the match log uses (for the tests and the curious)."""

_MATCH_TYPE: Final[type] = _MATCH  # plain ``type``: mypy sees MatchLike apart from structs
_DEAL_RESULT: Final[type] = _STRUCTS[log.DealResult]
_DECODER: Final[msgspec.json.Decoder[Any]] = msgspec.json.Decoder(_MATCH)


def is_decoded(match: MatchLike) -> bool:
    """Whether a match was read by the fast decoder (structs), not by the models.

    What a caller asks that must treat the two apart (copy the decoder's document as it is,
    or read it again with the models for their messages); nothing else should ask.

    >>> is_decoded(_DECODER.decode(_SMALL)), is_decoded(MatchLog.model_validate_json(_SMALL))
    (True, False)
    """
    return type(match) is _MATCH_TYPE  # by type: pydantic's isinstance runs in Python


def decode_encoded(data: bytes) -> MatchLike:
    """A decoded match again from the JSON that msgspec encoded it into (to cross a process
    boundary at a tenth of pickling's cost), without :func:`decode_match`'s checks: they
    passed when it was first read.

    >>> match = _DECODER.decode(_SMALL)
    >>> decode_encoded(msgspec.json.encode(match)) == match
    True
    """
    return cast(MatchLike, _DECODER.decode(data))


def recorded_thrown_in(result: DealResultLike) -> tuple[bool, str | None]:
    """Whether a deal's result says if it was thrown in, and the reason it gives (or None).

    A model knows which fields were written; a struct leaves ``thrown_in`` ``UNSET``.

    >>> fast = _DECODER.decode(_SMALL.replace('"deals": []', '"deals": [' + _RESULTS + ']'))
    >>> [recorded_thrown_in(deal.result) for deal in fast.deals]
    [(False, None), (True, None)]
    >>> recorded_thrown_in(log.DealResult.model_validate({"thrown_in": "all_pass"}))
    (True, 'all_pass')
    """
    if type(result) is _DEAL_RESULT:  # by type: pydantic's isinstance runs in Python
        struct: Any = result  # not cast(): a call, at every deal of an audit
        reason = struct.thrown_in
        return (False, None) if reason is UNSET else (True, reason)
    model = cast(log.DealResult, result)
    return "thrown_in" in model.__pydantic_fields_set__, model.thrown_in


MAX_NESTING: Final = 200
"""The deepest nesting of non-empty arrays and objects pydantic's JSON parser reads (the
document itself counts); msgspec has no such limit. Only ``meta`` can nest that deep: every
other field has a fixed shape, and ``rules`` overrides are plain values."""


def nesting(value: object) -> int:
    """Levels of non-empty lists and dicts, counted as pydantic's parser counts them.

    >>> nesting({"a": [1, {"b": []}]}), nesting([]), nesting(7)
    (3, 0, 0)
    """
    if isinstance(value, dict):
        items: Iterable[object] = value.values()
    elif isinstance(value, list):
        items = value
    else:
        return 0
    if not value:
        return 0
    # only the lists and dicts inside nest further: a walk of the plain values is spared
    inner = [item for item in items if isinstance(item, (dict, list))]
    return 1 + max(map(nesting, inner), default=0)


_SMALL: Final = (  # a match for the examples
    '{"format": "twentynine.match", "version": 1, "rules": "pagat", "deals": [], '
    '"players": {"N": "a", "E": "b", "S": "c", "W": "d:e"}, "id": "t1"}'
)
_RESULTS: Final = (  # two deals for the examples: a result without thrown_in, one with null
    '{"dealer": "N", "actions": [], "result": {"points": {"NS": 1, "EW": 28}}}, '
    '{"dealer": "E", "actions": [], "result": {"thrown_in": null}}'
)

_COUNTING: Final = Counting(_MATCH)


def _colons_but_deferred(match: MatchLike) -> tuple[int, list[list[Any]]]:
    """:func:`_expected_colons` less the actions' times and notes, and the actions."""
    return _COUNTING.but_deferred(match)


def _expected_colons(match: MatchLike) -> int:
    """The colons a document that gives each key once, and writes no optional field as
    ``null`` (bar one whose absence means something, ``thrown_in``), has when it decodes to
    ``match``: one per key, plus those in its strings. Strings the structs hold as seats,
    cards, suits, teams or action types have none. Counted from the structs' fields, which
    are the models'.

    >>> _expected_colons(_DECODER.decode(_SMALL)), _SMALL.count(":")
    (11, 11)
    """
    colons, deferred = _colons_but_deferred(match)
    return colons + _COUNTING.deferred(deferred)


def _may_repeat_keys(data: bytes | str, match: MatchLike) -> bool:
    """Whether the document may give a key twice (the decoder keeps the last value): False
    only when it surely does not, told by counting colons, at a fraction of the cost of
    decoding.

    In JSON a colon outside a string follows a key, and only there. Every key of the
    structs, and of the dicts they hold, was read from a key of the document of its own,
    and every string they hold from a string of its own; without a backslash in the
    document, strings read as they are written. So the document's colons are at least
    the structs' keys and the colons in their strings, which are at least
    :func:`_expected_colons`, which is at least the same count less the actions' times and
    notes. A document with exactly as many colons as either count therefore has no key
    beyond the structs' (a second one would add its colon): no key twice, no optional field
    written ``null``, no value dropped. The count less times and notes, which spares a look
    at every action, clears a document without them. Any other count, or a backslash, is
    checked key by key (:func:`schema.log.repeated_key`), which is exact but slower.

    >>> doc = _SMALL.replace('"deals": []', '"deals": [], "id": "t2"')
    >>> _may_repeat_keys(_SMALL, _DECODER.decode(_SMALL))
    False
    >>> _may_repeat_keys(doc, _DECODER.decode(doc))
    True
    """
    if isinstance(data, str):
        found = -1 if "\\" in data else data.count(":")
    else:
        found = -1 if b"\\" in data else data.count(b":")
    if found >= 0:
        least, deferred = _colons_but_deferred(match)
        if found == least or found == least + _COUNTING.deferred(deferred):
            return False
    return log.repeated_key(data) is not None


def decode_match(data: bytes | str, *, keys_checked: bool = False) -> MatchLike | None:
    """One JSON document as a match read by the structs, or ``None`` to leave it to the models.

    ``None`` when the document breaks the strict schema (the models then give the reason, or
    accept what their lax reading allows, such as ``"15"`` for 15), when its rules or players
    would not pass the models' own checks (run on the decoded values), when its ``meta`` nests
    deeper than the models' parser reads, when it gives a key twice (:func:`_may_repeat_keys`;
    the models refuse it), and when it has no ``id`` (its id is then the hash of the
    canonical JSON, which only the models write).

    ``keys_checked`` means the caller already knows that no key repeats, or checks it on
    these very bytes before it trusts the match (``twentynine import`` copies a line only
    when orjson's round trip gives it back, which a repeated key never passes, and reads
    any other line with the models): the count for repeated keys is then skipped.

    >>> head = b'{"format": "twentynine.match", "version": 1, "rules": "bhoos", "deals": [], '
    >>> seats = b'"players": {"N": "a", "E": "b", "S": "c", "W": "d"}'
    >>> decode_match(head + seats + b', "id": "t1"}').match_id
    't1'
    >>> decode_match(head + seats + b"}") is None  # no id: the models hash the document
    True
    >>> decode_match(head + b'"players": {"N": "a"}, "id": "t1"}') is None  # the models' check
    True
    >>> twice = head + seats + b', "id": "t1", "id": "t2"}'
    >>> decode_match(twice) is None, decode_match(twice, keys_checked=True).match_id
    (True, 't2')
    """
    try:
        match = _DECODER.decode(data)
    except (msgspec.DecodeError, RecursionError):
        return None
    if not match.id:
        return None
    if match.meta and nesting(match.meta) >= MAX_NESTING:  # the document is one level more
        return None
    for field, check in _ROOT_CHECKS:
        try:
            check(getattr(match, field))
        except ValueError:  # pydantic's custom errors are ValueErrors
            return None
    # Last: it walks ``meta`` and ``rules``, whose depth the checks above have bounded
    if not keys_checked and _may_repeat_keys(data, match):
        return None
    return cast(MatchLike, match)


_SORTED: Final = msgspec.json.Encoder(order="sorted")


def content_fingerprint(match: MatchLike) -> str:
    """16 hex digits of the SHA-256 of a match's content, alike for the models and the
    structs of one document (keys sorted, fields left out read as null): what tells a
    match stored before from a changed one under the same id.

    >>> doc = (b'{"format": "twentynine.match", "version": 1, "id": "m", "rules": "pagat", '
    ...        b'"players": {"N": "a", "E": "b", "S": "c", "W": "d"}, "deals": []}')
    >>> fast = decode_match(doc)
    >>> content_fingerprint(fast) == content_fingerprint(MatchLog.model_validate_json(doc))
    True
    """
    if is_decoded(match):
        struct: object | None = match
    else:
        assert isinstance(match, MatchLog)
        struct = _as_struct(match)
        if struct is None:  # beyond the structs (an integer past 64 bits)
            return match.content_hash()
    return hashlib.sha256(_SORTED.encode(struct)).hexdigest()[:16]


def _as_struct(match: MatchLog) -> object | None:
    """The structs the fast decoder would have read the match's document into."""
    try:
        fast = msgspec.convert(match, _MATCH, from_attributes=True)
    except msgspec.ValidationError:
        return None
    deals = cast(Any, fast).deals
    for i, (deal, model) in enumerate(zip(deals, match.deals, strict=True)):
        result = model.result
        if (
            deal.result is not None
            and result is not None
            and "thrown_in" not in result.__pydantic_fields_set__
        ):
            # a model reads a thrown_in left out as None; the struct leaves it UNSET
            unset = msgspec.structs.replace(deal.result, thrown_in=UNSET)
            deals[i] = msgspec.structs.replace(deal, result=unset)
    return fast
