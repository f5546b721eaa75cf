"""A fast decoder of match logs for the auditor: the same contract, read by msgspec.

The pydantic models of :mod:`schema.log` stay the contract: they give the JSON Schema, the
one-line error messages, and the models the importers and the warehouse build. Reading them
costs about five times parsing the JSON, which caps the audit of a large file. These structs
mirror those models field for field and are decoded and checked in one compiled pass (a little
quicker than parsing into plain dicts). :func:`decode_match` is strict and cautious: whenever
it is not sure the pydantic models would read a document the same way, it returns ``None``
and the caller reads that document with the models, errors and all.

>>> log = decode_match(b'{"format": "twentynine.match", "version": 1, "id": "m1", '
...     b'"rules": "pagat", "players": {"N": "a", "E": "b", "S": "c", "W": "d"}, '
...     b'"deals": [{"dealer": "N", "actions": [{"seat": "E", "type": "bid", "value": 15}]}]}')
>>> action = log.deals[0].actions[0]
>>> type(action).__name__, action.seat, action.value
('FastBid', <Seat.E: 'E'>, 15)
>>> decode_match(b'{"format": "twentynine.match"}') is None  # the models must say why
True
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Any, ClassVar, Final, Literal

import msgspec
from msgspec import UNSET, UnsetType

from schema.cards import Card, Seat, Suit, Team
from schema.log import DealResult, MatchLog, repeated_key
from schema.rules import Rules, RulesError, resolve_rules


class _Strict(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    # gc=False: these hold only data, never a cycle, so the collector need not walk them.
    pass


class FastTeamScores(_Strict, frozen=True):
    """Mirrors :class:`schema.log.TeamScores`."""

    NS: int
    EW: int


class FastPlayerRef(_Strict, frozen=True):
    """Mirrors :class:`schema.log.PlayerRef`."""

    name: str
    id: str


class _FastAction(_Strict, tag_field="type", kw_only=True, frozen=True):
    type: ClassVar[str]
    seat: Seat
    t: int | None = None
    note: str | None = None


class FastBid(_FastAction, tag="bid", frozen=True):
    """Mirrors :class:`schema.log.BidAction`."""

    type: ClassVar[str] = "bid"
    value: int


class FastPass(_FastAction, tag="pass", frozen=True):
    """Mirrors :class:`schema.log.PassAction`."""

    type: ClassVar[str] = "pass"


class FastDitto(_FastAction, tag="ditto", frozen=True):
    """Mirrors :class:`schema.log.DittoAction`."""

    type: ClassVar[str] = "ditto"


class FastTrump(_FastAction, tag="trump", frozen=True):
    """Mirrors :class:`schema.log.TrumpAction`."""

    type: ClassVar[str] = "trump"
    suit: Suit | None = None
    seventh: bool | None = None
    card: Card | None = None
    mode: Literal["no_trump", "reverse"] | None = None


class FastDouble(_FastAction, tag="double", frozen=True):
    """Mirrors :class:`schema.log.DoubleAction`."""

    type: ClassVar[str] = "double"


class FastRedouble(_FastAction, tag="redouble", frozen=True):
    """Mirrors :class:`schema.log.RedoubleAction`."""

    type: ClassVar[str] = "redouble"


class FastSet(_FastAction, tag="set", frozen=True):
    """Mirrors :class:`schema.log.SetAction`."""

    type: ClassVar[str] = "set"


class FastSingleHand(_FastAction, tag="single_hand", frozen=True):
    """Mirrors :class:`schema.log.SingleHandAction`."""

    type: ClassVar[str] = "single_hand"


class FastRedeal(_FastAction, tag="redeal", frozen=True):
    """Mirrors :class:`schema.log.RedealAction`."""

    type: ClassVar[str] = "redeal"


class FastShow(_FastAction, tag="show", frozen=True):
    """Mirrors :class:`schema.log.ShowAction`."""

    type: ClassVar[str] = "show"
    suit: Suit | None = None


class FastPlay(_FastAction, tag="play", frozen=True):
    """Mirrors :class:`schema.log.PlayAction`."""

    type: ClassVar[str] = "play"
    card: Card


class FastPair(_FastAction, tag="pair", frozen=True):
    """Mirrors :class:`schema.log.PairAction`."""

    type: ClassVar[str] = "pair"


FastAction = (
    FastBid
    | FastPass
    | FastDitto
    | FastTrump
    | FastDouble
    | FastRedouble
    | FastSet
    | FastSingleHand
    | FastRedeal
    | FastShow
    | FastPlay
    | FastPair
)


class FastDealResult(_Strict, frozen=True):
    """Mirrors :class:`schema.log.DealResult`; ``thrown_in`` is ``UNSET`` when not written."""

    points: FastTeamScores | None = None
    score: FastTeamScores | None = None
    thrown_in: str | UnsetType | None = UNSET


_Hand = Annotated[list[Card | None], msgspec.Meta(min_length=8, max_length=8)]


class FastDeal(_Strict, frozen=True):
    """Mirrors :class:`schema.log.Deal`."""

    dealer: Seat
    actions: list[FastAction]
    hands: dict[Seat, _Hand] | None = None
    result: FastDealResult | None = None


class FastMatchResult(_Strict, frozen=True):
    """Mirrors :class:`schema.log.MatchResult`."""

    score: FastTeamScores
    winner: Team | None = None


class FastMatchLog(_Strict, frozen=True):
    """Mirrors :class:`schema.log.MatchLog`, as far as the auditor reads it."""

    format: Literal["twentynine.match"]
    version: Literal[1]
    rules: str | dict[str, Any]
    players: dict[Seat, str | FastPlayerRef]
    deals: list[FastDeal]
    id: str | None = None
    meta: dict[str, Any] | None = None
    result: FastMatchResult | None = None

    def resolved_rules(self) -> Rules:
        """The match's rules as a validated :class:`Rules` value."""
        return resolve_rules(self.rules)

    @property
    def match_id(self) -> str:
        """The recorder's ``id``: :func:`decode_match` only returns matches that have one."""
        assert self.id, "decode_match reads only matches with an id"
        return self.id


_DECODER: Final = msgspec.json.Decoder(FastMatchLog)


def recorded_thrown_in(result: DealResult | FastDealResult) -> tuple[bool, str | None]:
    """Whether a deal's result says if it was thrown in, and the reason it gives (or None).

    A model knows which fields were written; a struct leaves ``thrown_in`` ``UNSET``.

    >>> recorded_thrown_in(FastDealResult()), recorded_thrown_in(FastDealResult(thrown_in=None))
    ((False, None), (True, None))
    >>> recorded_thrown_in(DealResult.model_validate({"thrown_in": "all_pass"}))
    (True, 'all_pass')
    """
    if isinstance(result, FastDealResult):  # first: pydantic's isinstance runs in Python
        reason = result.thrown_in
        return (False, None) if isinstance(reason, UnsetType) else (True, reason)
    return "thrown_in" in result.__pydantic_fields_set__, result.thrown_in


MAX_NESTING: Final = 200
"""The deepest nesting of non-empty arrays and objects pydantic's JSON parser reads (the
document itself counts); msgspec has no such limit. Only ``meta`` can nest that deep: every
other field has a fixed shape, and ``rules`` overrides are plain values."""


def _nesting(value: object) -> int:
    """Levels of non-empty lists and dicts, counted as pydantic's parser counts them.

    >>> _nesting({"a": [1, {"b": []}]}), _nesting([]), _nesting(7)
    (3, 0, 0)
    """
    if isinstance(value, dict) and value:
        return 1 + max(map(_nesting, value.values()))
    if isinstance(value, list) and value:
        return 1 + max(map(_nesting, value))
    return 0


_ENCODER: Final = msgspec.json.Encoder()


def _may_repeat_keys(data: bytes | str, match: FastMatchLog) -> bool:
    """Whether the document gives a key twice (the decoder keeps the last value), told by
    counting, at a fraction of the cost of decoding.

    Each key has one colon after it, and the struct written out gives every field (one the
    document left out as ``null``); strings are the same in both. So a document that repeats
    no key has as many colons less nulls as the struct written out, and a repeated key adds
    its colon and whatever its dropped value held. A document that writes characters as
    ``\\u00XX`` escapes is checked key by key (:func:`schema.log.repeated_key`). Only a
    repeat whose dropped value is nothing but nulls passes.

    >>> _may_repeat_keys(b'{"NS": 1, "EW": 2}', FastTeamScores(NS=1, EW=2))
    False
    >>> _may_repeat_keys(b'{"NS": 1, "EW": 2, "NS": 3}', FastTeamScores(NS=3, EW=2))
    True
    """
    raw = data.encode() if isinstance(data, str) else data
    if b"\\u00" in raw:
        return repeated_key(raw) is not None
    encoded = _ENCODER.encode(match)
    return raw.count(b":") - raw.count(b"null") != encoded.count(b":") - encoded.count(b"null")


def decode_match(data: bytes | str) -> FastMatchLog | None:
    """One JSON document as a :class:`FastMatchLog`, or ``None`` to leave it to the models.

    ``None`` when the document breaks the strict schema (the models then give the reason, or
    accept what their lax reading allows, such as ``"15"`` for 15), when its rules or players
    would not pass the models' own checks, when its ``meta`` nests deeper than the models'
    parser reads, when it gives a key twice (:func:`_may_repeat_keys`; the models refuse
    it), and when it has no ``id`` (its id is then the hash of the canonical JSON, which
    only the models write).

    >>> head = b'{"format": "twentynine.match", "version": 1, "rules": "bhoos", "deals": [], '
    >>> seats = b'"players": {"N": "a", "E": "b", "S": "c", "W": "d"}'
    >>> decode_match(head + seats + b', "id": "t1"}').match_id
    't1'
    >>> decode_match(head + seats + b"}") is None  # no id: the models hash the document
    True
    """
    try:
        match = _DECODER.decode(data)
    except (msgspec.DecodeError, RecursionError):
        return None
    if not match.id or len(match.players) != 4 or _may_repeat_keys(data, match):
        return None
    if match.meta and _nesting(match.meta) >= MAX_NESTING:  # the document is one level more
        return None
    try:
        match.resolved_rules()
    except RulesError:
        return None
    return match


_SORTED: Final = msgspec.json.Encoder(order="sorted")


def content_fingerprint(match: MatchLog | FastMatchLog) -> str:
    """16 hex digits of the SHA-256 of a match's content, alike for the models and the
    structs of one document (keys sorted, fields left out read as null): what tells a
    match stored before from a changed one under the same id.

    >>> doc = (b'{"format": "twentynine.match", "version": 1, "id": "m", "rules": "pagat", '
    ...        b'"players": {"N": "a", "E": "b", "S": "c", "W": "d"}, "deals": []}')
    >>> fast = decode_match(doc)
    >>> content_fingerprint(fast) == content_fingerprint(MatchLog.model_validate_json(doc))
    True
    """
    if isinstance(match, FastMatchLog):
        fast: FastMatchLog | None = match
    else:
        fast = _as_struct(match)
        if fast is None:  # beyond the structs (an integer past 64 bits)
            return match.content_hash()
    return hashlib.sha256(_SORTED.encode(fast)).hexdigest()[:16]


def _as_struct(match: MatchLog) -> FastMatchLog | None:
    """The structs the fast decoder would have read the match's document into."""
    try:
        fast = msgspec.convert(match, FastMatchLog, from_attributes=True)
    except msgspec.ValidationError:
        return None
    deals = fast.deals
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
