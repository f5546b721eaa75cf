"""What a match looks like once read, whichever reader read it: read-only protocols.

A match log is read either by the pydantic models (:mod:`schema.log`) or by the fast decoder
(:mod:`schema.fastlog`, structs derived from those models). Code after the reader types against
these protocols and never names a reader's class; an action is told by its ``type``, which
narrows :data:`ActionLike` to the protocol of that kind (mypy narrows the union on it).

The models satisfy the protocols (mypy checks it, see the end of this module); the structs,
made from the models' fields, have the same attributes (the tests read both).

>>> from twentynine.schema.log import MatchLog
>>> match: MatchLike = MatchLog.model_validate({
...     "format": "twentynine.match", "version": 1, "rules": "pagat", "id": "m1",
...     "players": {"N": "a", "E": "b", "S": "c", "W": "d"},
...     "deals": [{"dealer": "N", "actions": [{"seat": "E", "type": "bid", "value": 16}]}]})
>>> action = match.deals[0].actions[0]
>>> action.value if action.type == "bid" else None
16
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol

from twentynine.schema.cards import Card, Seat, Suit, Team
from twentynine.schema.rules import Rules

PlainActionType = Literal[
    "pass", "ditto", "double", "redouble", "set", "single_hand", "redeal", "pair"
]
"""The action types that carry nothing beyond the seat (and a time and a note)."""


class TeamScoresLike(Protocol):
    """A number for each team (:class:`schema.log.TeamScores`)."""

    @property
    def NS(self) -> int: ...  # noqa: N802 (the log's key)
    @property
    def EW(self) -> int: ...  # noqa: N802 (the log's key)


class PlayerRefLike(Protocol):
    """A player with a display name and a stable id (:class:`schema.log.PlayerRef`)."""

    @property
    def name(self) -> str: ...
    @property
    def id(self) -> str: ...


class _ActionLike(Protocol):
    @property
    def seat(self) -> Seat: ...
    @property
    def t(self) -> int | None: ...
    @property
    def note(self) -> str | None: ...


class BidLike(_ActionLike, Protocol):
    """A bid (:class:`schema.log.BidAction`)."""

    @property
    def type(self) -> Literal["bid"]: ...
    @property
    def value(self) -> int: ...


class TrumpLike(_ActionLike, Protocol):
    """The caller's choice of trump (:class:`schema.log.TrumpAction`)."""

    @property
    def type(self) -> Literal["trump"]: ...
    @property
    def suit(self) -> Suit | None: ...
    @property
    def seventh(self) -> bool | None: ...
    @property
    def card(self) -> Card | None: ...
    @property
    def mode(self) -> Literal["no_trump", "reverse"] | None: ...


class ShowLike(_ActionLike, Protocol):
    """A call to show the trump, or the caller showing it (:class:`schema.log.ShowAction`)."""

    @property
    def type(self) -> Literal["show"]: ...
    @property
    def suit(self) -> Suit | None: ...


class PlayLike(_ActionLike, Protocol):
    """A card played (:class:`schema.log.PlayAction`)."""

    @property
    def type(self) -> Literal["play"]: ...
    @property
    def card(self) -> Card: ...


class PlainActionLike(_ActionLike, Protocol):
    """Any action that carries nothing more: a pass, a Ditto, a double, a redouble, a Set, a
    single hand, a redeal or a pair (:data:`PlainActionType`)."""

    @property
    def type(self) -> PlainActionType: ...


ActionLike = BidLike | TrumpLike | ShowLike | PlayLike | PlainActionLike
"""Any action, told apart by its ``type``."""


class DealResultLike(Protocol):
    """A deal's result as recorded (:class:`schema.log.DealResult`); whether ``thrown_in`` was
    written at all is :func:`schema.fastlog.recorded_thrown_in`'s to tell."""

    @property
    def points(self) -> TeamScoresLike | None: ...
    @property
    def score(self) -> TeamScoresLike | None: ...


class DealLike(Protocol):
    """One deal: the dealer, the cards as dealt where seen, the actions in order."""

    @property
    def dealer(self) -> Seat: ...
    @property
    def hands(self) -> Mapping[Seat, Sequence[Card | None]] | None: ...
    @property
    def actions(self) -> Sequence[ActionLike]: ...
    @property
    def result(self) -> DealResultLike | None: ...


class MatchResultLike(Protocol):
    """A match's result as recorded (:class:`schema.log.MatchResult`)."""

    @property
    def score(self) -> TeamScoresLike: ...
    @property
    def winner(self) -> Team | None: ...


class MatchLike(Protocol):
    """A match as read: who sat where, under which rules, every deal in order."""

    @property
    def format(self) -> Literal["twentynine.match"]: ...
    @property
    def version(self) -> Literal[1]: ...
    @property
    def id(self) -> str | None: ...
    @property
    def rules(self) -> str | dict[str, Any]: ...
    @property
    def players(self) -> Mapping[Seat, str | PlayerRefLike]: ...
    @property
    def meta(self) -> Mapping[str, Any] | None: ...
    @property
    def deals(self) -> Sequence[DealLike]: ...
    @property
    def result(self) -> MatchResultLike | None: ...
    @property
    def match_id(self) -> str:
        """The recorder's ``id``, or the content hash when it has none."""

    def resolved_rules(self) -> Rules:
        """The match's rules as a validated :class:`Rules` value."""


if TYPE_CHECKING:  # mypy holds the models to the protocols: a field changed breaks here
    from twentynine.schema import log

    def _models_conform(
        match: log.MatchLog,
        bid: log.BidAction,
        plain: log.PassAction
        | log.DittoAction
        | log.DoubleAction
        | log.RedoubleAction
        | log.SetAction
        | log.SingleHandAction
        | log.RedealAction
        | log.PairAction,
        action: log.Action,
    ) -> tuple[MatchLike, BidLike, PlainActionLike, ActionLike]:
        return match, bid, plain, action
