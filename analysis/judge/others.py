"""What the deal is worth to a side once the auction goes on: the others' calls played out.

A bid, a pass or a Ditto does not end the auction: the seats still in may call over it.
On a layout of the bidder's view, the auction is driven on from the decision through the
rules engine, each seat on turn (the bidder's later turns too) calling or passing as the
model of the archive's calls says (:mod:`analysis.models.others`): a call is a Ditto where
the seat may say it, else the lowest legal bid, one level higher at the model's jump share.
Each run ends with a contract (a caller and a level) or a throw-in; the contract is worth
``stake x (2p - 1)`` to the caller's side with ``p`` the chance the seam gives
(:func:`analysis.judge.chance.contract_chance`), its negative to the others, 0 a throw-in.

>>> import random
>>> from twentynine.schema import Rules
>>> from twentynine.replay.simulate import deal_cards
>>> from twentynine.analysis.models.others import shipped_model
>>> rules = Rules.preset("bhoos")
>>> hands = deal_cards(random.Random(3), Seat.N, rules)
>>> start = DealState(rules, Seat.N, hands)
>>> ends = [run_auction(start, hands, [], shipped_model(), random.Random(k)) for k in range(20)]
>>> all(end.caller is not None and end.level >= 16 for end in ends)  # bhoos: never thrown in
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from operator import attrgetter
from typing import NamedTuple, Protocol

from twentynine.analysis.models.others import AuctionModel, Turn
from twentynine.replay import DealState
from twentynine.schema.cards import Card, Seat
from twentynine.schema.log import Action, BidAction

MAX_TURNS = 80
"""A bound on the turns of one run (an auction of 16 to 28 ends well before)."""


class Uniform(Protocol):
    """What an auction run draws from: ``random()``, a float in [0, 1)."""

    def random(self) -> float: ...


class Replayed:
    """The numbers ``rng`` gives, kept as they are drawn, so that every alternative's run
    reads the very same ones (:meth:`reader`) without a generator seeded again for each.

    >>> replay = Replayed(random.Random(5))
    >>> first, second = replay.reader(), replay.reader()
    >>> [first.random() for _ in range(3)] == [second.random() for _ in range(3)]
    True
    """

    __slots__ = ("_drawn", "_rng")

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._drawn: list[float] = []

    def reader(self) -> _Reader:
        """A fresh reader from the first number."""
        return _Reader(self)

    def at(self, index: int) -> float:
        drawn = self._drawn
        while len(drawn) <= index:
            drawn.append(self._rng.random())
        return drawn[index]


class _Reader:
    __slots__ = ("_next", "_replay")

    def __init__(self, replay: Replayed) -> None:
        self._replay = replay
        self._next = 0

    def random(self) -> float:
        index = self._next
        self._next = index + 1
        return self._replay.at(index)


class AuctionEnd(NamedTuple):
    """How one run of the auction ended: the caller and its level (None: thrown in), and
    the auction's actions from its start."""

    caller: Seat | None
    level: int | None
    actions: tuple[Action, ...]


def run_auction(
    start: DealState,
    hands: Mapping[Seat, Sequence[Card | None]],
    said: Sequence[Action],
    model: AuctionModel,
    rng: Uniform,
) -> AuctionEnd:
    """The auction of a layout of ``hands`` from ``start`` (left as it is), where the actions
    ``said`` have been made, every seat calling as ``model`` says, to its end."""
    state = start.copy()
    actions = list(said)
    fours: dict[Seat, tuple[Card, ...]] = {}
    for _ in range(MAX_TURNS):
        if state.phase_name != "auction" or state.is_over:
            break
        seat = state.current_seat
        if seat is None:
            break
        four = fours.get(seat)
        if four is None:
            four = fours[seat] = tuple(c for c in list(hands.get(seat, ()))[:4] if c is not None)
        action = _choose(state, seat, four, model, rng)
        state.apply(action)
        actions.append(action)
    caller = state.caller_seat
    level = state.seat_view().call if caller is not None else None
    return AuctionEnd(caller, level, tuple(actions))


def _choose(
    state: DealState,
    seat: Seat,
    four: tuple[Card, ...],
    model: AuctionModel,
    rng: Uniform,
) -> Action:
    legal = state.legal_actions(seat)
    bids: list[BidAction] = []
    ditto: Action | None = None
    passing: Action | None = None
    for a in legal:  # one pass: this runs at every turn of every run
        if isinstance(a, BidAction):
            bids.append(a)
        elif a.type == "ditto":
            ditto = ditto or a
        elif a.type == "pass":
            passing = passing or a
    bids.sort(key=_value)
    calls: list[Action] = [ditto] if ditto is not None else list(bids)
    if passing is None:
        return calls[0] if calls else legal[0]  # forced
    if not calls:
        return passing
    standing = state.standing_bid
    need = standing[1] if ditto is not None and standing is not None else bids[0].value
    turn = Turn(
        four,
        need,
        partner_holds=standing is not None and standing[0] is seat.partner,
        ditto=ditto is not None,
    )
    if rng.random() >= model.call_chance(turn):
        return passing
    if ditto is None and len(bids) > 1 and rng.random() < model.jump:
        return bids[1]
    return calls[0]


_value = attrgetter("value")


Chance = Callable[[Seat, int, Sequence[Action]], float | None]
"""The chance a caller's side makes a level, given the auction's actions up to its end."""


def contract_worth(end: AuctionEnd, side: Seat, stake: int, chance: Chance) -> float | None:
    """What a run's contract is worth to ``side``'s team in game points (None: no chance)."""
    if end.caller is None or end.level is None:
        return 0.0
    p = chance(end.caller, end.level, end.actions)
    if p is None:
        return None
    worth = stake * (2 * p - 1)
    return worth if end.caller.team is side.team else -worth
