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
import itertools
import operator
from collections.abc import Iterable
from typing import Annotated, Any, ClassVar, Final, Literal, get_args

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


def _text_keys(value: object) -> tuple[int, int]:
    """Keys and colons in the strings of a free-form value (``meta``, ``rules`` overrides).

    >>> _text_keys({"at": "10:30", "x": [{"y": None}, "a:b:c"]})
    (3, 3)
    """
    if isinstance(value, str):
        return 0, value.count(":")
    keys = colons = 0
    if isinstance(value, dict):
        keys = len(value)
        for key, item in value.items():
            inner_keys, inner_colons = _text_keys(item)
            keys += inner_keys
            colons += key.count(":") + inner_colons
    elif isinstance(value, list):
        for item in value:
            inner_keys, inner_colons = _text_keys(item)
            keys += inner_keys
            colons += inner_colons
    return keys, colons


_SMALL: Final = (  # a match for the examples
    '{"format": "twentynine.match", "version": 1, "rules": "pagat", "deals": [], '
    '"players": {"N": "a", "E": "b", "S": "c", "W": "d:e"}, "id": "t1"}'
)
_ACTIONS: Final = operator.attrgetter("actions")
_HANDS: Final = operator.attrgetter("hands")
_RESULT: Final = operator.attrgetter("result")
_POINTS: Final = operator.attrgetter("points")
_SCORE: Final = operator.attrgetter("score")
_THROWN_IN: Final = operator.attrgetter("thrown_in")
_NOTE: Final = operator.attrgetter("note")
_TIME: Final = operator.attrgetter("t")
# A byte for each kind of action: a bid or play (one key more), a trump, a show, any other
_VALUED, _TRUMP, _SHOW = b"v", b"t", b"s"
_KIND_BYTE: Final[dict[type, int]] = {kind: ord("o") for kind in get_args(FastAction)} | {
    FastBid: ord(_VALUED),
    FastPlay: ord(_VALUED),
    FastTrump: ord(_TRUMP),
    FastShow: ord(_SHOW),
}
_SCORES_KEYS: Final = 3  # the key of a FastTeamScores and its NS and EW


def _written(values: list[Any]) -> int:
    """How many of the values are not None (a field left out, or written null, reads None)."""
    return len(values) - values.count(None)


def _colons(texts: Iterable[object]) -> int:
    """Colons in those of the values that are strings."""
    return "".join([text for text in texts if isinstance(text, str)]).count(":")


def _colons_but_times_and_notes(match: FastMatchLog) -> tuple[int, list[FastAction]]:
    """:func:`_expected_colons` less the actions' times and notes, and every action."""
    keys = 6  # format, version, rules, players, deals, id
    colons = (match.id or "").count(":")
    rules_keys, rules_colons = _text_keys(match.rules)
    keys += rules_keys + len(match.players)
    colons += rules_colons
    for player in match.players.values():
        if isinstance(player, str):
            colons += player.count(":")
        else:
            keys += 2
            colons += player.name.count(":") + player.id.count(":")
    if match.meta is not None:
        meta_keys, meta_colons = _text_keys(match.meta)
        keys += 1 + meta_keys
        colons += meta_colons
    if match.result is not None:
        keys += 1 + _SCORES_KEYS + (match.result.winner is not None)
    deals = match.deals
    actions = list(itertools.chain.from_iterable(map(_ACTIONS, deals)))
    keys += 2 * len(deals) + 2 * len(actions)  # dealer, actions; each action's type and seat
    hands = [hand for hand in map(_HANDS, deals) if hand is not None]
    keys += len(hands) + sum(map(len, hands))
    results = [result for result in map(_RESULT, deals) if result is not None]
    keys += len(results)
    keys += _SCORES_KEYS * (
        _written(list(map(_POINTS, results))) + _written(list(map(_SCORE, results)))
    )
    thrown_in = list(map(_THROWN_IN, results))
    keys += len(thrown_in) - thrown_in.count(UNSET)
    colons += _colons(thrown_in)
    # One byte an action, its kind's: counted and searched at C speed (types compare slowly)
    kinds = bytes(map(_KIND_BYTE.__getitem__, map(type, actions)))
    keys += kinds.count(_VALUED)  # a bid's value, a play's card
    at = -1
    for _ in range(kinds.count(_TRUMP)):  # about one a deal
        at = kinds.index(_TRUMP, at + 1)
        trump = actions[at]
        assert isinstance(trump, FastTrump)
        fields = (trump.suit, trump.seventh, trump.card, trump.mode)
        keys += len(fields) - fields.count(None)
    at = -1
    for _ in range(kinds.count(_SHOW)):
        at = kinds.index(_SHOW, at + 1)
        show = actions[at]
        assert isinstance(show, FastShow)
        keys += show.suit is not None
    return keys + colons, actions


def _times_and_notes(actions: list[FastAction]) -> int:
    """The colons the actions' times and notes add: a key each, and those in the notes."""
    colons = _written(list(map(_TIME, actions)))
    notes = list(map(_NOTE, actions))
    written = _written(notes)
    if written:
        colons += written + _colons(notes)
    return colons


def _expected_colons(match: FastMatchLog) -> int:
    """The colons a document that gives each key once, and writes no optional field as
    ``null`` (bar ``thrown_in``), has when it decodes to ``match``: one per key, plus those
    in its strings. Strings the structs hold as seats, cards, suits, teams or action types
    have none. Counted a field at a time over all the deals (C loops, not Python ones).

    >>> _expected_colons(_DECODER.decode(_SMALL)), _SMALL.count(":")
    (11, 11)
    """
    colons, actions = _colons_but_times_and_notes(match)
    return colons + _times_and_notes(actions)


def _may_repeat_keys(data: bytes | str, match: FastMatchLog) -> bool:
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
        least, actions = _colons_but_times_and_notes(match)
        if found == least or found == least + _times_and_notes(actions):
            return False
    return repeated_key(data) is not None


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
    if not match.id or len(match.players) != 4:
        return None
    if match.meta and _nesting(match.meta) >= MAX_NESTING:  # the document is one level more
        return None
    try:
        match.resolved_rules()
    except RulesError:
        return None
    # Last: it walks ``meta`` and ``rules``, whose depth the checks above have bounded
    return None if _may_repeat_keys(data, match) else match


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
