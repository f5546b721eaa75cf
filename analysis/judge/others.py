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
from typing import NamedTuple

from twentynine.analysis.models.others import AuctionModel, Turn
from twentynine.replay import DealState
from twentynine.schema.cards import Card, Seat
from twentynine.schema.log import Action, BidAction

MAX_TURNS = 80
"""A bound on the turns of one run (an auction of 16 to 28 ends well before)."""


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
    rng: random.Random,
) -> AuctionEnd:
    """The auction of a layout of ``hands`` from ``start`` (left as it is), where the actions
    ``said`` have been made, every seat calling as ``model`` says, to its end."""
    state = start.copy()
    actions = list(said)
    for _ in range(MAX_TURNS):
        if state.phase_name != "auction" or state.is_over:
            break
        seat = state.current_seat
        if seat is None:
            break
        action = _choose(state, seat, hands, model, rng)
        state.apply(action)
        actions.append(action)
    caller = state.caller_seat
    level = state.seat_view().call if caller is not None else None
    return AuctionEnd(caller, level, tuple(actions))


def _choose(
    state: DealState,
    seat: Seat,
    hands: Mapping[Seat, Sequence[Card | None]],
    model: AuctionModel,
    rng: random.Random,
) -> Action:
    legal = state.legal_actions(seat)
    bids = sorted((a for a in legal if isinstance(a, BidAction)), key=lambda a: a.value)
    ditto = next((a for a in legal if a.type == "ditto"), None)
    passing = next((a for a in legal if a.type == "pass"), None)
    calls: list[Action] = [ditto] if ditto is not None else list(bids)
    if passing is None:
        return calls[0] if calls else legal[0]  # forced
    if not calls:
        return passing
    standing = state.standing_bid
    four = tuple(c for c in list(hands.get(seat, ()))[:4] if c is not None)
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
