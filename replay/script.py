"""A compact text notation for deals, for tests, examples and hand-written sample logs.

Actions are whitespace-separated ``SEAT:WHAT`` tokens: ``W:16`` bids 16, ``W:p`` passes,
``W:ditto``, ``W:trump=H`` (``=H/7H`` with the face-down card, ``=seventh``, ``=no_trump``,
``=reverse``, ``=?`` unseen), ``E:double``, ``E:redouble``, ``E:set``, ``E:single``,
``E:redeal``, ``E:show`` (``=H`` with the suit shown), ``E:pair``, and ``S:9D`` plays a card.
A hand is eight cards in the order dealt, ``?`` for a card not seen.

>>> [a.type for a in parse_actions("E:16 S:p E:trump=H E:JS")]
['bid', 'pass', 'trump', 'play']
>>> parse_hand("JS 9S ? TS KS QS 8S 7S")[2] is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from twentynine.replay.deal import DealState
from twentynine.schema.cards import Card, Seat, Suit
from twentynine.schema.log import (
    Action,
    BidAction,
    Deal,
    DealResult,
    DittoAction,
    DoubleAction,
    MatchLog,
    PairAction,
    PassAction,
    PlayAction,
    RedealAction,
    RedoubleAction,
    SetAction,
    ShowAction,
    SingleHandAction,
    TrumpAction,
)
from twentynine.schema.rules import Rules

_SIMPLE: dict[str, Callable[[Seat], Action]] = {
    "p": lambda seat: PassAction(seat=seat),
    "pass": lambda seat: PassAction(seat=seat),
    "ditto": lambda seat: DittoAction(seat=seat),
    "double": lambda seat: DoubleAction(seat=seat),
    "redouble": lambda seat: RedoubleAction(seat=seat),
    "set": lambda seat: SetAction(seat=seat),
    "single": lambda seat: SingleHandAction(seat=seat),
    "redeal": lambda seat: RedealAction(seat=seat),
    "pair": lambda seat: PairAction(seat=seat),
}


def parse_action(token: str) -> Action:
    """One ``SEAT:WHAT`` token as an action; ``ValueError`` naming the token otherwise.

    >>> parse_action("W:trump=H/7H").card
    Card('7H')
    """
    seat_text, sep, what = token.partition(":")
    if not sep or seat_text not in ("N", "E", "S", "W"):
        raise ValueError(f"{token!r} is not SEAT:WHAT")
    seat = Seat(seat_text)
    name, _, arg = what.partition("=")
    if name in _SIMPLE:
        return _SIMPLE[name](seat)
    if name.isdigit():
        return BidAction(seat=seat, value=int(name))
    if name == "show":
        return ShowAction(seat=seat, suit=Suit(arg) if arg else None)
    if name == "trump":
        return _trump(seat, arg, token)
    try:
        return PlayAction(seat=seat, card=Card.parse(name))
    except ValueError:
        raise ValueError(f"{token!r} is not an action") from None


def _trump(seat: Seat, arg: str, token: str) -> TrumpAction:
    if arg == "seventh":
        return TrumpAction(seat=seat, seventh=True)
    if arg in ("no_trump", "reverse"):
        return TrumpAction(seat=seat, mode=arg)
    if arg in ("", "?"):
        return TrumpAction(seat=seat, suit=None)
    suit_text, _, card_text = arg.partition("/")
    try:
        suit = Suit(suit_text)
        card = Card.parse(card_text) if card_text else None
    except ValueError:
        raise ValueError(f"{token!r} is not a trump choice") from None
    return TrumpAction(seat=seat, suit=suit, card=card)


def parse_actions(text: str) -> list[Action]:
    """Whitespace-separated tokens as actions."""
    return [parse_action(token) for token in text.split()]


def parse_hand(text: str) -> list[Card | None]:
    """Eight cards (``?`` unknown) as a hand in the order dealt."""
    cards = [None if t == "?" else Card.parse(t) for t in text.split()]
    if len(cards) != 8:
        raise ValueError(f"a hand has 8 cards, not {len(cards)}: {text!r}")
    return cards


def make_deal(
    dealer: str,
    hands: Mapping[str, str] | None,
    actions: str,
    result: Mapping[str, Any] | None = None,
) -> Deal:
    """A deal from text: ``make_deal("N", {"E": "JS ..."}, "E:16 S:p ...")``."""
    return Deal(
        dealer=Seat(dealer),
        hands={Seat(s): parse_hand(h) for s, h in hands.items()} if hands else None,
        actions=parse_actions(actions),
        result=DealResult.model_validate(result) if result is not None else None,
    )


def make_match(
    rules: str | dict[str, Any],
    deals: list[Deal],
    result: Mapping[str, Any] | None = None,
    match_id: str | None = "script",
) -> MatchLog:
    """A match log around deals made with :func:`make_deal`."""
    data: dict[str, Any] = {
        "format": "twentynine.match",
        "version": 1,
        "rules": rules,
        "players": {"N": "North", "E": "East", "S": "South", "W": "West"},
        "deals": deals,
    }
    if match_id is not None:
        data["id"] = match_id
    if result is not None:
        data["result"] = result
    return MatchLog.model_validate(data)


def run_script(
    rules: Rules,
    dealer: str,
    hands: Mapping[str, str] | None,
    actions: str,
    *,
    number: int = 1,
) -> DealState:
    """A deal state after the scripted actions; its ``findings`` hold what they broke.

    >>> from twentynine.schema import Rules
    >>> state = run_script(Rules.preset("pagat"), "N", None, "E:15 S:16 W:p N:p E:p")
    >>> state.caller_seat, state.call
    (<Seat.S: 'S'>, 16)
    """
    state = DealState(
        rules,
        Seat(dealer),
        {Seat(s): parse_hand(h) for s, h in hands.items()} if hands else None,
        number=number,
    )
    for action in parse_actions(actions):
        state.apply(action)
    return state
