"""What the engine reads of a match log, whichever reader read it: read-only protocols.

A log is read either by the pydantic models (:mod:`schema.log`) or by the fast decoder
(:mod:`schema.fastlog`). The engine and the auditor type against these protocols and never
name a reader's class: an action is told by its ``type`` (``"bid"``, ``"play"``, ...), which
both readers carry. The protocols list only the attributes the engine reads.

>>> from schema.log import PlayAction
>>> action: ActionLike = PlayAction.model_validate({"seat": "N", "type": "play", "card": "JS"})
>>> action.type
'play'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from schema.cards import Card, Seat, Suit, Team
from schema.rules import Rules


class ActionLike(Protocol):
    """Any action: the seat that took it and its ``type``, as written in the log."""

    @property
    def seat(self) -> Seat: ...
    @property
    def type(self) -> str: ...


class BidLike(ActionLike, Protocol):
    """A bid (``type`` ``"bid"``)."""

    @property
    def value(self) -> int: ...


class TrumpLike(ActionLike, Protocol):
    """The caller's choice of trump (``type`` ``"trump"``)."""

    @property
    def suit(self) -> Suit | None: ...
    @property
    def seventh(self) -> bool | None: ...
    @property
    def card(self) -> Card | None: ...
    @property
    def mode(self) -> str | None: ...


class ShowLike(ActionLike, Protocol):
    """A call to show the trump (``type`` ``"show"``); ``suit`` what was shown, if recorded."""

    @property
    def suit(self) -> Suit | None: ...


class PlayLike(ActionLike, Protocol):
    """A card played (``type`` ``"play"``)."""

    @property
    def card(self) -> Card: ...


class TeamScoresLike(Protocol):
    """A number for each team."""

    @property
    def NS(self) -> int: ...  # noqa: N802 (the log's key)
    @property
    def EW(self) -> int: ...  # noqa: N802 (the log's key)


class DealResultLike(Protocol):
    """A deal's recorded result (whether ``thrown_in`` was written is
    :func:`schema.fastlog.recorded_thrown_in`'s to tell)."""

    @property
    def points(self) -> TeamScoresLike | None: ...
    @property
    def score(self) -> TeamScoresLike | None: ...


class DealLike(Protocol):
    """One deal: the dealer, the cards as dealt where recorded, the actions in order."""

    @property
    def dealer(self) -> Seat: ...
    @property
    def hands(self) -> Mapping[Seat, Sequence[Card | None]] | None: ...
    @property
    def actions(self) -> Sequence[ActionLike]: ...
    @property
    def result(self) -> DealResultLike | None: ...


class MatchResultLike(Protocol):
    """A match's recorded result."""

    @property
    def score(self) -> TeamScoresLike: ...
    @property
    def winner(self) -> Team | None: ...


class MatchLike(Protocol):
    """A match as the auditor reads it: its id, rules, deals in order and recorded result."""

    @property
    def deals(self) -> Sequence[DealLike]: ...
    @property
    def result(self) -> MatchResultLike | None: ...
    @property
    def match_id(self) -> str: ...
    def resolved_rules(self) -> Rules: ...
