"""The one seam through which a judgement asks how likely a contract is to be made.

Every bid, pass, Ditto, Double, Redouble, Set and the contract a single hand is weighed
against asks :func:`contract_chance`, and nothing else, for the chance that a caller's side
makes its call. It is handed what the caller knew when it called (:class:`CallView`: its
first four cards, its position from the dealer, the level, the auction before its call)
and, lazily, the caller's side's double-dummy value on the layout being judged; a model
that needs no double dummy never pays for a solve.

Today the chance is :func:`analysis.calibration.made_probability` of that double-dummy
value and the level; pointing this one function at another model changes every judgement
of the auction at once.

>>> from twentynine.schema.cards import Card
>>> view = CallView(tuple(Card.parse(t) for t in ("JH", "9H", "AH", "7S")), 1, 16)
>>> 0.0 < contract_chance(view, lambda: 20) < 1.0
True
>>> contract_chance(view, lambda: None) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from twentynine.analysis.calibration import made_probability
from twentynine.schema.cards import Card, Direction, Seat, Suit
from twentynine.schema.log import Action
from twentynine.schema.rules import Rules


class CallView(NamedTuple):
    """What a caller knew when it made its call: its first four cards, its position from
    the dealer (1 speaks first, 4 is the dealer), the level, the standing bid before its
    call (None: nobody had bid), whether its partner or an opponent had bid, whether the
    call was forced on it (the dealer given the minimum), and the trump when known."""

    four: tuple[Card, ...]
    position: int
    level: int
    standing: int | None = None
    partner_bid: bool = False
    opponent_bid: bool = False
    forced: bool = False
    trump: Suit | None = None


def contract_chance(view: CallView, value: Callable[[], float | None]) -> float | None:
    """The chance that the caller's side makes ``view.level`` (None: no value to judge by).

    ``value()`` is the caller's side's double-dummy card points on the layout judged, with
    the caller's trump; it is called only if the model needs it.
    """
    points = value()
    if points is None:
        return None
    return made_probability(points, view.level)


def call_view(
    hands: Mapping[Seat, Sequence[Card | None]],
    dealer: Seat,
    direction: Direction,
    auction: Sequence[Action],
    caller: Seat,
    level: int,
    *,
    forced: bool = False,
    trump: Suit | None = None,
) -> CallView:
    """The :class:`CallView` of ``caller`` calling ``level`` after ``auction`` (the bids,
    passes and Dittos before its call) on a layout of ``hands``.

    >>> from twentynine.schema.log import BidAction
    >>> hands = {Seat.E: [Card.parse(t) for t in ("JH", "9H", "AS", "7C")]}
    >>> bids = [BidAction(seat=Seat.E, value=16), BidAction(seat=Seat.S, value=17)]
    >>> view = call_view(hands, Seat.N, Direction.CLOCKWISE, bids, Seat.E, 18)
    >>> view.position, view.standing, view.opponent_bid, view.partner_bid
    (1, 17, True, False)
    """
    four = tuple(c for c in list(hands.get(caller, ()))[:4] if c is not None)
    order = dealer.order_from(direction)
    standing: int | None = None
    partner = opponent = False
    for action in auction:
        if action.type == "bid":
            level_said: int | None = action.value
        elif action.type == "ditto":
            level_said = standing
        else:
            continue
        if level_said is None:
            continue
        if action.seat is caller.partner:
            partner = True
        elif action.seat is not caller:
            opponent = True
        standing = max(standing or 0, level_said)
    position = order.index(caller) or 4
    return CallView(four, position, level, standing, partner, opponent, forced, trump)


def caller_view(
    rules: Rules,
    hands: Mapping[Seat, Sequence[Card | None]],
    dealer: Seat,
    actions: Sequence[Action],
    caller: Seat,
    level: int,
) -> CallView:
    """The caller's :class:`CallView` at its last call of ``actions`` (a deal's record, or a
    layout's), on a layout of ``hands``: the auction before that call, and whether the call
    was forced on it (the dealer given the minimum once the others passed)."""
    auction = [a for a in actions if a.type in ("bid", "pass", "ditto")]
    said = [i for i, a in enumerate(auction) if a.seat is caller and a.type != "pass"]
    last = said[-1] if said else 0
    before = auction[:last]
    forced = (
        caller is dealer
        and level == rules.min_bid
        and all(a.type == "pass" for a in before)
        and len(before) >= 3
    )
    return call_view(hands, dealer, rules.direction, before, caller, level, forced=forced)
