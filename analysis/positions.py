"""The positions of a recorded deal, one before each action, as the table saw them.

>>> from twentynine.replay import random_match
>>> from twentynine.schema import Rules
>>> log = random_match(Rules.preset("bhoos"), seed=2)
>>> deal = log.deals[0]
>>> first = next(deal_positions(log.resolved_rules(), deal))
>>> first.at, first.state.phase_name
(0, 'auction')
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final, NamedTuple

from twentynine.replay import DealState
from twentynine.schema.cards import SEATS, Card
from twentynine.schema.log import Action, Deal
from twentynine.schema.rules import Rules

LADDER_TYPES = frozenset({"double", "redouble", "set"})
"""Actions of the doubling ladder: the second four are dealt once the next action is not one."""


UNREAL_FINDINGS: Final = frozenset({"CARD_NOT_HELD", "CARD_ALREADY_PLAYED", "HANDS_INVALID"})
"""Findings after which the recorded play is no real deal (a card from nowhere, a card played
twice, hands that name a card twice): the solver and the engine would each judge another
position. Nothing is judged from such an action on (the reports say so at its step)."""


class Position(NamedTuple):
    """The state just before action ``at`` (its index in the deal) of a deal, and that action."""

    at: int
    action: Action
    state: DealState


def deal_positions(rules: Rules, deal: Deal, number: int = 1) -> Iterator[Position]:
    """Each action of ``deal`` with the state before it (an independent copy each time).

    The second four cards are dealt as soon as the doubling is over, as ``deal_steps`` does:
    after an action whose successor is not part of the ladder. The positions stop before the
    first action that gives one of :data:`UNREAL_FINDINGS` (none when the hands do).
    """
    state = DealState(rules, deal.dealer, deal.hands, number=number)
    if not any(f.code in UNREAL_FINDINGS for f in state.findings):
        yield from replay_from(state, deal.actions)


def replay_from(state: DealState, actions: Sequence[Action], start: int = 0) -> Iterator[Position]:
    """Apply ``actions`` to ``state`` (changed in place), yielding a copy before each one, up
    to the first action that makes the play unreal (:data:`UNREAL_FINDINGS`)."""
    last = len(actions) - 1
    for offset, action in enumerate(actions):
        before = state.copy()
        if any(f.code in UNREAL_FINDINGS for f in state.apply(action)):
            return
        yield Position(start + offset, action, before)
        if offset < last and actions[offset + 1].type not in LADDER_TYPES:
            state.end_doubling()


def full_play_rules(rules: Rules) -> Rules:
    """``rules`` with every deal played out to its last trick.

    Where a deal ends once decided, the card points at the stop say little about the play
    (the side that can force the stop earliest "wins" points); whether the call is made
    does not depend on the stop. The annotations solve every position as if played out.

    >>> full_play_rules(Rules.preset("bangladesh")).end_when_decided
    False
    """
    if not rules.end_when_decided:
        return rules
    return rules.model_copy(update={"end_when_decided": False})


def all_hands_known(deal: Deal) -> bool:
    """Whether the log records all 32 cards of the deal (hindsight needs them).

    >>> from twentynine.replay import random_match
    >>> from twentynine.schema import Rules
    >>> all_hands_known(random_match(Rules.preset("pagat"), seed=1).deals[0])
    True
    """
    hands = deal.hands
    if hands is None:
        return False
    cards: list[Card | None] = [c for seat in SEATS for c in hands.get(seat, ())]
    return len(cards) == 32 and None not in cards


def first_lead(rules: Rules, deal: Deal, number: int = 1) -> Position | None:
    """The position before the deal's first card or show (None when the play never began)."""
    for position in deal_positions(rules, deal, number):
        if position.action.type in ("play", "show") and position.state.phase_name == "play":
            return position
    return None
