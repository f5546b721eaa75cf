"""The pydantic models of the match log, version 1 (LOG-FORMAT.md, the contract).

Every model is frozen and refuses unknown fields, except the free ``meta`` object.
Actions are a discriminated union on ``type``.

>>> match = MatchLog.model_validate({
...     "format": "twentynine.match", "version": 1, "rules": "standard",
...     "players": {"N": "A", "E": "B", "S": "C", "W": "D"},
...     "deals": [{"dealer": "N", "actions": [{"seat": "E", "type": "bid", "value": 15}]}]})
>>> action = match.deals[0].actions[0]
>>> action.type, action.seat, action.value
('bid', <Seat.E: 'E'>, 15)
"""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Any, Final, Literal, Self, get_args

import orjson
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    TypeAdapter,
    ValidationError,
    WithJsonSchema,
    field_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError
from pydantic_core.core_schema import ErrorType

from twentynine.schema.cards import SEATS, Card, Seat, Suit, Team, not_a_card
from twentynine.schema.rules import PRESET_NAMES, Rules, RulesError, resolve_rules
from twentynine.schema.shapes import PlayerRefLike

FORMAT_NAME: Final = "twentynine.match"
FORMAT_VERSION: Final = 1


CARD_PATTERN: Final = "^[J9ATKQ87][SHDC]$"

CardField = Annotated[
    Card,
    PlainSerializer(lambda card: card.text, return_type=str),
    WithJsonSchema({"type": "string", "pattern": CARD_PATTERN, "description": "rank then suit"}),
]
"""A card in log notation: ``"JS"`` in JSON, a :class:`Card` in Python.

:class:`Card` is an enum whose values are the texts, so pydantic checks a card in its
compiled core, not in Python: a log has dozens of cards a deal. Its error ("Input should
be 'JS', '9S', ...") is reworded as ``'XS' is not a card`` by the models' ``model_validate``
and ``model_validate_json``.
"""

INT64_MIN: Final = -(2**63)
INT64_MAX: Final = 2**63 - 1
"""The range of a bid's value: a signed 64-bit integer, as the warehouse, the solver and the
reports' JSON hold it (a bid beyond it is refused where the log is read)."""

_BUILTIN_ERRORS: Final = frozenset(get_args(ErrorType))


def _card_expectation() -> object:
    try:
        TypeAdapter(Card).validate_python("?")
    except ValidationError as exc:
        return exc.errors()[0].get("ctx", {}).get("expected")
    raise AssertionError("'?' is a card")  # pragma: no cover


_CARD_EXPECTED: Final = _card_expectation()


def _reworded(exc: ValidationError, input_type: Literal["python", "json"]) -> ValidationError:
    """The same errors, each failed card worded as ``'XS' is not a card`` (``exc`` itself when
    no card failed); the others keep their type, place, input and message."""
    errors = exc.errors(include_url=False)
    if not any(
        e["type"] == "enum" and e.get("ctx", {}).get("expected") == _CARD_EXPECTED for e in errors
    ):
        return exc
    details: list[InitErrorDetails] = []
    for e in errors:
        ctx = e.get("ctx")
        kind: str | PydanticCustomError
        if e["type"] == "enum" and ctx is not None and ctx.get("expected") == _CARD_EXPECTED:
            kind = PydanticCustomError("card", "{reason}", {"reason": not_a_card(e["input"])})
            ctx = None
        elif e["type"] in _BUILTIN_ERRORS:
            kind = e["type"]
        else:  # a custom error: its message is already worded
            kind = PydanticCustomError(e["type"], e["msg"])
            ctx = None
        detail: InitErrorDetails = {"type": kind, "loc": e["loc"], "input": e["input"]}
        if ctx is not None:
            detail["ctx"] = ctx
        details.append(detail)
    return ValidationError.from_exception_data(exc.title, details, input_type=input_type)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    @classmethod
    def model_validate(cls, obj: Any, *args: Any, **kwargs: Any) -> Self:
        """As pydantic's, with a failed card worded as ``'XS' is not a card``."""
        try:
            return super().model_validate(obj, *args, **kwargs)
        except ValidationError as exc:
            raise _reworded(exc, "python") from None

    @classmethod
    def model_validate_json(
        cls, json_data: str | bytes | bytearray, *args: Any, **kwargs: Any
    ) -> Self:
        """As pydantic's, with a failed card worded as ``'XS' is not a card``."""
        try:
            return super().model_validate_json(json_data, *args, **kwargs)
        except ValidationError as exc:
            raise _reworded(exc, "json") from None


class TeamScores(_Frozen):
    """A number for each team, e.g. card points or match score."""

    NS: int
    EW: int

    def __getitem__(self, team: Team) -> int:
        return self.NS if team is Team.NS else self.EW


class PlayerRef(_Frozen):
    """A player with a display name and a stable id."""

    name: str
    id: str


Player = str | PlayerRef


def player_name(player: str | PlayerRefLike) -> str:
    """The display name of a player entry, whichever form it takes (and whichever reader).

    >>> player_name("Anne"), player_name(PlayerRef(name="Bob", id="p2"))
    ('Anne', 'Bob')
    """
    return player if isinstance(player, str) else player.name


class _ActionBase(_Frozen):
    seat: Seat
    t: int | None = Field(default=None, description="Milliseconds since the match began.")
    note: str | None = Field(default=None, description="Free commentary, shown in reports.")

    def __init__(self, /, **data: Any) -> None:
        super().__init__(**data)
        # ``type`` has a default so code can build actions without it; it must still be
        # written, or the canonical JSON would not say which action it is. Validating a
        # document does not come here (the union needs ``type`` in the input anyway).
        self.__pydantic_fields_set__.add("type")

    # Tell pydantic this __init__ only adds to its own, so validating a document (dozens of
    # actions a deal) never calls it; without the flag it would, correctly but slowly.
    __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]

    @classmethod
    def model_validate(cls, obj: Any, *args: Any, **kwargs: Any) -> Self:
        action = super().model_validate(obj, *args, **kwargs)
        action.__pydantic_fields_set__.add("type")  # as __init__ does
        return action

    @classmethod
    def model_validate_json(
        cls, json_data: str | bytes | bytearray, *args: Any, **kwargs: Any
    ) -> Self:
        action = super().model_validate_json(json_data, *args, **kwargs)
        action.__pydantic_fields_set__.add("type")  # as __init__ does
        return action


class BidAction(_ActionBase):
    """A bid of ``value`` card points."""

    type: Literal["bid"] = "bid"
    value: int = Field(ge=INT64_MIN, le=INT64_MAX)


class PassAction(_ActionBase):
    """A pass in the auction."""

    type: Literal["pass"] = "pass"


class DittoAction(_ActionBase):
    """Duel bidding: the senior equals the standing bid and takes it over."""

    type: Literal["ditto"] = "ditto"


class TrumpAction(_ActionBase):
    """The caller's secret choice of trump.

    ``suit`` is null when the recorder did not see it; ``seventh`` calls the seventh card;
    ``card`` is the face-down card when it is one of the caller's own; ``mode`` is
    ``no_trump`` or ``reverse`` where the rules allow them.
    """

    type: Literal["trump"] = "trump"
    suit: Suit | None = None
    seventh: bool | None = None
    card: CardField | None = Field(default=None, title="Card")
    mode: Literal["no_trump", "reverse"] | None = None


class DoubleAction(_ActionBase):
    """An opponent of the caller doubles the stake."""

    type: Literal["double"] = "double"


class RedoubleAction(_ActionBase):
    """The caller's side redoubles."""

    type: Literal["redouble"] = "redouble"


class SetAction(_ActionBase):
    """The doubling side answers a redouble with Set."""

    type: Literal["set"] = "set"


class SingleHandAction(_ActionBase):
    """The seat declares single hand."""

    type: Literal["single_hand"] = "single_hand"


class RedealAction(_ActionBase):
    """A request for a new deal where the rules allow one."""

    type: Literal["redeal"] = "redeal"


class ShowAction(_ActionBase):
    """The seat asks for the trump to be shown (or, the caller, shows it)."""

    type: Literal["show"] = "show"
    suit: Suit | None = Field(default=None, description="What was shown, where recorded.")


class PlayAction(_ActionBase):
    """A card played to the current trick."""

    type: Literal["play"] = "play"
    card: CardField = Field(title="Card")  # the title an enum field would not get


class PairAction(_ActionBase):
    """The seat shows the King and Queen of trumps."""

    type: Literal["pair"] = "pair"


Action = Annotated[
    BidAction
    | PassAction
    | DittoAction
    | TrumpAction
    | DoubleAction
    | RedoubleAction
    | SetAction
    | SingleHandAction
    | RedealAction
    | ShowAction
    | PlayAction
    | PairAction,
    Field(discriminator="type"),
]
ACTION_TYPES: Final[tuple[str, ...]] = tuple(
    model.model_fields["type"].default for model in get_args(get_args(Action)[0])
)
"""Every action ``type``, in the order of the union (derived, so the two cannot drift)."""


class _LeftOutIsNotNull:
    """Field metadata: leaving the field out says something else than writing it ``null``."""

    def __repr__(self) -> str:
        return "LEFT_OUT_IS_NOT_NULL"


LEFT_OUT_IS_NOT_NULL: Final = _LeftOutIsNotNull()
"""Marks a field whose absence means something: ``thrown_in`` left out is "not recorded",
``null`` is "recorded as not thrown in". A model tells by the fields set; the fast structs
(:mod:`schema.fastlog`) read such a field left out as ``msgspec.UNSET``."""


class DealResult(_Frozen):
    """A deal's result as recorded; the engine recomputes and compares it."""

    points: TeamScores | None = None
    score: TeamScores | None = Field(default=None, description="Match score after this deal.")
    thrown_in: Annotated[str | None, LEFT_OUT_IS_NOT_NULL] = None


HandField = Annotated[list[CardField | None], Field(min_length=8, max_length=8)]
"""Eight cards in the order dealt; null for a card the recorder did not see."""


class Deal(_Frozen):
    """One deal: the dealer, the cards as dealt (where seen) and every action in order."""

    dealer: Seat
    hands: dict[Seat, HandField] | None = None
    actions: list[Action]
    result: DealResult | None = None


class MatchResult(_Frozen):
    """A match's result as recorded."""

    score: TeamScores
    winner: Team | None = None


def _rules_json_schema() -> dict[str, Any]:
    options = Rules.model_json_schema(by_alias=True)
    definitions = options.get("$defs", {})

    def inline(prop: dict[str, Any]) -> dict[str, Any]:
        ref = prop.get("$ref")
        if isinstance(ref, str):
            prop = {**definitions[ref.rsplit("/", 1)[-1]], **prop}
            del prop["$ref"]
        return {key: value for key, value in prop.items() if key not in ("default", "title")}

    properties = {name: inline(prop) for name, prop in options["properties"].items()}
    preset_names = list(PRESET_NAMES)
    return {
        "anyOf": [
            {"type": "string", "enum": preset_names, "description": "a preset name"},
            {
                "type": "object",
                "description": "a preset with options overridden",
                "properties": {"preset": {"type": "string", "enum": preset_names}, **properties},
                "required": ["preset"],
                "additionalProperties": False,
            },
        ]
    }


def _validate_rules(value: object) -> str | dict[str, Any]:
    if not isinstance(value, str | dict):
        raise PydanticCustomError(
            "rules", "rules must be a preset name or an object with a 'preset'"
        )
    try:
        resolve_rules(value)
    except RulesError as exc:
        raise PydanticCustomError("rules", "{reason}", {"reason": str(exc)}) from None
    return value


RulesField = Annotated[
    str | dict[str, Any],
    PlainValidator(_validate_rules),
    WithJsonSchema(_rules_json_schema()),
]


class MatchLog(_Frozen):
    """A match: who sat where, under which rules, and every deal in order."""

    format: Literal["twentynine.match"]
    version: Literal[1]
    id: str | None = None
    rules: RulesField
    players: dict[Seat, Player]
    meta: dict[str, Any] | None = None
    deals: list[Deal]
    result: MatchResult | None = None

    @field_validator("players")
    @classmethod
    def _all_four_seats(cls, players: dict[Seat, Player]) -> dict[Seat, Player]:
        if len(players) == len(SEATS):  # the keys are seats: all four (the fast decoder's
            return players  # check too, so its cost counts)
        missing = [seat.value for seat in Seat if seat not in players]
        if missing:
            raise PydanticCustomError(
                "players", "no player for seat {seats}", {"seats": ", ".join(missing)}
            )
        return players

    def resolved_rules(self) -> Rules:
        """The match's rules as a validated :class:`Rules` value."""
        return resolve_rules(self.rules)

    def to_canonical(self) -> dict[str, Any]:
        """The JSON-ready document, with only the fields that were given."""
        return self.model_dump(mode="json", exclude_unset=True, by_alias=True)

    def canonical_json(self) -> bytes:
        """Canonical JSON: keys sorted, no spaces; the input to :meth:`content_hash`."""
        return dump_json(self.to_canonical(), sort_keys=True)

    def content_hash(self) -> str:
        """The first 16 hex digits of the SHA-256 of the canonical JSON."""
        return hashlib.sha256(self.canonical_json()).hexdigest()[:16]

    @property
    def match_id(self) -> str:
        """The recorder's ``id``, or the content hash when it has none (or an empty one)."""
        return self.id if self.id else self.content_hash()


def dump_json(document: Any, *, sort_keys: bool = False, indent: bool = False) -> bytes:
    """JSON bytes by orjson, or by the standard library for integers beyond 64 bits.

    >>> dump_json({"b": 1, "a": 2**70}, sort_keys=True)
    b'{"a":1180591620717411303424,"b":1}'
    """
    option = (orjson.OPT_SORT_KEYS if sort_keys else 0) | (orjson.OPT_INDENT_2 if indent else 0)
    try:
        return orjson.dumps(document, option=option)
    except TypeError:  # orjson refuses integers outside 64 bits; JSON itself does not
        separators = (",", ": ") if indent else (",", ":")
        text = json.dumps(
            document,
            sort_keys=sort_keys,
            indent=2 if indent else None,
            separators=separators,
            ensure_ascii=False,
        )
        return text.encode()


def match_json_schema() -> dict[str, Any]:
    """The JSON Schema of the match log, as checked in at ``schema/match.schema.json``."""
    document = MatchLog.model_json_schema(by_alias=True, mode="validation")
    document["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    document["$id"] = "twentynine.match.v1"
    document["title"] = "Twenty-Nine match log, version 1"
    return document


class _RepeatedKeyError(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    document = dict(pairs)
    if len(document) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _RepeatedKeyError(key)
            seen.add(key)
    return document


_UNIQUE_KEYS: Final = json.JSONDecoder(object_pairs_hook=_unique_pairs)  # one, made once


def repeated_key(data: bytes | str) -> str | None:
    """The first key that one object of a JSON document gives twice, or None.

    JSON parsers keep the last value of a repeated key, so a second ``"deals": []`` would
    hide every deal: a log holds each key once (a document that is not JSON gives None, for
    the models to say why).

    >>> repeated_key(b'{"deals": [1], "id": "m", "deals": []}'), repeated_key(b'{"a": {"b": 1}}')
    ('deals', None)
    """
    try:
        _UNIQUE_KEYS.decode(data if isinstance(data, str) else data.decode("utf-8"))
    except _RepeatedKeyError as exc:
        return exc.key
    except (ValueError, RecursionError):  # not JSON (UnicodeDecodeError is a ValueError)
        return None
    return None
