"""Seeded rule breaches for the simulator's known-bad logs, each with the finding it must give.

A breach replaces one action of a simulated deal (or falsifies its recorded result) and is
listed in the match's ``meta.injected`` as ``{"deal": n, "action": i, "kind": KIND}``
(``action`` is null for a falsified result). The contract the tests check: in each injected
deal, the first error finding is at the injected action with :data:`KINDS` ``[kind]`` as its
code; a deal without an injection has no error finding. After a breach the deal carries on
as the table would, so later findings in the same deal may follow from it (a card played by
the wrong seat is later played again by its owner, say). A ``wrong_score`` also puts the
match's recorded final score off by the same amount (the scorer's running total carries
the slip), which gives one ``MATCH_SCORE_MISMATCH`` for the match.

>>> KINDS["revoke"], expected_code("bad_bid")
('REVOKE', 'BID_TOO_LOW')
>>> from twentynine.schema import Rules
>>> "no_trump_after_show" in applicable_kinds(Rules.preset("pagat"))
False
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from twentynine.replay.deal import DealState, DealView
from twentynine.schema.cards import SEATS, Card, Seat, Suit
from twentynine.schema.log import Action, BidAction, DealResult, PlayAction, ShowAction, TeamScores
from twentynine.schema.rules import Rules

KINDS: Final[dict[str, str]] = {
    "revoke": "REVOKE",
    "card_not_held": "CARD_NOT_HELD",
    "out_of_turn": "OUT_OF_TURN",
    "bad_bid": "BID_TOO_LOW",
    "show_while_able": "SHOW_WHILE_ABLE_TO_FOLLOW",
    "no_trump_after_show": "MUST_TRUMP_AFTER_SHOW",
    "wrong_score": "SCORE_MISMATCH",
    "wrong_points": "POINTS_MISMATCH",
}
"""Each inject kind and the finding code the auditor must give for it."""

RESULT_KINDS: Final[frozenset[str]] = frozenset({"wrong_score", "wrong_points"})
"""Kinds that falsify the recorded result rather than replace an action."""

# How often each action kind takes an opportunity, so breaches fall anywhere in a deal.
_TAKE: Final[dict[str, float]] = {
    "revoke": 0.3,
    "card_not_held": 0.15,
    "out_of_turn": 0.2,
    "bad_bid": 0.5,
    "show_while_able": 0.35,
    "no_trump_after_show": 1.0,
}


def expected_code(kind: str) -> str:
    """The finding code a breach of this kind must give; ``KeyError`` for an unknown kind."""
    return KINDS[kind]


def applicable_kinds(rules: Rules) -> tuple[str, ...]:
    """The kinds that can occur under these rules (no_trump_after_show needs the asker's
    obligation to trump, and a show that is asked for rather than automatic)."""
    kinds = list(KINDS)
    if not rules.must_trump_after_show or rules.show_trump == "automatic":
        kinds.remove("no_trump_after_show")
    return tuple(kinds)


@dataclass(frozen=True, slots=True)
class Injection:
    """One breach written into a log: the deal (1-based), action (0-based or None), kind."""

    deal: int
    action: int | None
    kind: str

    def to_dict(self) -> dict[str, Any]:
        """As listed in ``meta.injected``."""
        return {"deal": self.deal, "action": self.action, "kind": self.kind}

    @property
    def code(self) -> str:
        """The finding code the auditor must give for it."""
        return KINDS[self.kind]


def breach_action(
    kind: str,
    state: DealState,
    seat: Seat,
    history: Sequence[Action],
    rng: random.Random | None = None,
) -> Action | None:
    """An action breaking the rules as ``kind`` says, for ``seat`` about to act, or None.

    With ``rng``, an opportunity is taken only some of the time, so breaches fall anywhere
    in a deal. The action is checked against the engine: it is returned only when the first
    error it gives is the kind's code, so the breach is unambiguous.

    >>> from twentynine.schema import Rules
    >>> state = DealState(Rules.preset("pagat"), Seat.N)
    >>> breach_action("bad_bid", state, Seat.E, []).value
    14
    """
    action = _candidate(kind, state, seat, history)
    if action is None or (rng is not None and rng.random() >= _TAKE[kind]):
        return None
    finding = state.check(action)
    if finding is None or finding.code != KINDS[kind]:
        return None
    return action


def _candidate(kind: str, state: DealState, seat: Seat, history: Sequence[Action]) -> Action | None:
    view = state.seat_view(seat)
    if kind == "bad_bid":
        if view.phase != "auction":
            return None
        if not any(a.type == "pass" for a in state.legal_actions(seat)):
            return None  # the dealer's forced call: there is no bid to get wrong
        standing = view.standing
        if standing is None:
            return BidAction(seat=seat, value=state.rules.min_bid - 1)
        equal = BidAction(seat=seat, value=standing[1])
        if state.check(equal) is not None:
            return equal
        return BidAction(seat=seat, value=standing[1] - 1)
    if view.phase != "play" or view.single is not None or view.to_act is None:
        return None
    playable = _playable(view)
    led = view.led
    if kind == "revoke":
        if led is None or not any(c.suit is led for c in playable):
            return None
        off = [c for c in playable if c.suit is not led]
        if not off:
            return None
        return PlayAction(seat=seat, card=min(off, key=lambda c: (c.points, c.strength)))
    if kind == "card_not_held":
        elsewhere = sorted(
            (c for other in SEATS if other is not seat for c in state.seat_view(other).hand),
            key=lambda c: c.index,
        )
        if led is not None and any(c.suit is led for c in playable):
            elsewhere = [c for c in elsewhere if c.suit is led]
        if not elsewhere:
            return None
        return PlayAction(seat=seat, card=elsewhere[0])
    if kind == "out_of_turn":
        trick = view.trick
        if not trick or len(trick) >= 3:
            return None
        after = seat.next(state.rules.direction)
        if any(s is after for s, _ in trick):
            return None
        theirs = _playable(state.seat_view(after))
        follow = [c for c in theirs if led is not None and c.suit is led]
        pool = follow or theirs
        if not pool:
            return None
        return PlayAction(seat=after, card=min(pool, key=lambda c: (c.points, c.strength)))
    if kind == "show_while_able":
        if led is None or view.shown:
            return None
        if not any(c.suit is led for c in playable):
            return None
        return ShowAction(seat=seat, suit=_trump_suit(state))
    if kind == "no_trump_after_show":
        if not history or not isinstance(history[-1], ShowAction) or history[-1].seat is not seat:
            return None
        trump = _trump_suit(state)
        if trump is None or not any(c.suit is trump for c in playable):
            return None
        off = [c for c in playable if c.suit is not trump]
        if not off:
            return None
        return PlayAction(seat=seat, card=min(off, key=lambda c: (c.points, c.strength)))
    return None


def _playable(view: DealView) -> list[Card]:
    """The seat's cards in card order, without a face-down card it may not play yet."""
    return sorted((c for c in view.hand if c is not view.face_down), key=lambda c: c.index)


def _trump_suit(state: DealState) -> Suit | None:
    return Suit(state.trump_suit) if state.trump_suit is not None else None


def falsify_result(kind: str, result: DealResult, offset: int) -> DealResult:
    """The deal's recorded result made wrong as ``kind`` says.

    ``offset`` is the scorer's running error (already including this deal's slip for
    ``wrong_score``); it shifts the recorded score of this deal and every later one.

    >>> r = DealResult(points=TeamScores(NS=10, EW=18), score=TeamScores(NS=1, EW=0))
    >>> falsify_result("wrong_points", r, 0).points
    TeamScores(NS=11, EW=17)
    """
    if kind == "wrong_points":
        assert result.points is not None
        points = TeamScores(NS=result.points.NS + 1, EW=result.points.EW - 1)
        return result.model_copy(update={"points": points})
    return shift_score(result, offset)


def shift_score(result: DealResult, offset: int) -> DealResult:
    """The result with NS's recorded score moved by ``offset`` (unchanged for 0)."""
    if not offset or result.score is None:
        return result
    score = TeamScores(NS=result.score.NS + offset, EW=result.score.EW)
    return result.model_copy(update={"score": score})


def score_slip(rng: random.Random) -> int:
    """The size of a scorer's slip: one game point up or down."""
    return rng.choice((-1, 1))
