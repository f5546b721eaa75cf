"""Deals played out by players who see only their own cards: the trump choice and the show
decisions judged with the trump's secrecy counted.

Double dummy lets every seat see every card, the hidden trump included, and the hidden trump
is the heart of 29: a suit that wins with all cards known may lose when the defenders must
guess it, and asking for the trump changes what everyone knows. So these decisions are
judged by play in which each seat knows only what it saw: on each layout of the deciding
seat's view, every alternative is made, then the deal is played to its end by the
simulator's bots (:mod:`replay.bots`, the ``balanced`` style: each decides from its own
:class:`~replay.bots.SeatView`, its cards, the cards played and the trump once it knows it),
:data:`PLAYOUTS` times with the same random choices for every alternative. An alternative's
value on a layout is the share of play-outs in which the deciding side reached its goal (the
caller's side made the call, the defenders beat it), and its tie-break the side's card points.

>>> from twentynine.schema import Rules
>>> from twentynine.analysis.testing import first_lead
>>> state = first_lead(Rules.preset("bhoos"), 3)
>>> end = play_out(state, [], random.Random(1))
>>> end.is_over and end.outcome is not None
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from twentynine.replay import DealState
from twentynine.replay.bots import Bot, seat_view
from twentynine.replay.selfplay import DealRunner
from twentynine.schema.cards import SEATS, Seat
from twentynine.schema.log import Action, PlayAction

POLICY: Final = "balanced"
"""The bots' style that plays every seat."""

PLAYOUTS: Final = 8
"""Play-outs of each layout for each alternative (the same random choices for all)."""

_BOTS: Final = {seat: Bot(POLICY) for seat in SEATS}


def play_out(state: DealState, history: Sequence[Action], rng: random.Random) -> DealState:
    """``state`` (changed in place) played to its end by the bots; ``history`` is the deal's
    actions so far, what the bots see of the auction and the play."""
    runner = DealRunner(state, _BOTS, rng, history=list(history))
    runner.run()
    return state


def bot_card(state: DealState, seat: Seat, history: Sequence[Action], rng: random.Random) -> Action:
    """The card the bot of ``seat`` plays now without asking for the trump."""
    view = seat_view(state, seat, history, "play")
    plays = tuple(a for a in view.legal if isinstance(a, PlayAction))
    choice = _BOTS[seat].decide(view._replace(legal=plays), rng)
    return choice.action if choice is not None else plays[0]


def reached(state: DealState, side: Seat) -> tuple[float, float]:
    """Whether ``side``'s team reached its goal in a finished deal (1 or 0; a deal thrown in
    counts as not reached), and its card points."""
    outcome = state.outcome
    caller = state.caller_seat
    if outcome is None or caller is None or outcome.made is None:
        return 0.0, 0.0
    points = float(outcome.points[side.team])
    ours = caller.team is side.team
    return (1.0 if outcome.made == ours else 0.0), points
