"""The model of the others' calls: how often a seat bids on, from its four cards and the
auction, fitted on the Bhoos archive's auctions.

Judging a pass (or a bid) needs what the deal is worth once the auction goes on without
the decision being undone: the other seats may call, and how high. At every turn where a
seat could either pass or call, the archive says whether it called. This module models that
choice as a logistic regression on a few counts of the seat's first four cards and the
state of the auction (the level it must reach to stay in, whether its partner holds the
standing bid, whether it may match the standing bid by Ditto), and the share of calls that
jump one level above the lowest. The parameters are data: ``auction_model.json`` beside
this module, written by ``bench/fit_auction_model.py`` (docs/analysis.md, "The others'
calls", gives the fit and its tables on files it was not fitted on).

>>> from twentynine.schema.cards import Card
>>> model = shipped_model()
>>> strong = tuple(Card.parse(t) for t in ("JH", "9H", "AH", "TH"))
>>> weak = tuple(Card.parse(t) for t in ("7S", "8D", "7C", "QH"))
>>> model.call_chance(Turn(strong, 16)) > model.call_chance(Turn(weak, 16))
True
>>> model.call_chance(Turn(strong, 16)) > model.call_chance(Turn(strong, 20))
True
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any, Final, NamedTuple

import numpy as np

from twentynine.analysis.models.contract import longest_suit
from twentynine.analysis.models.files import (
    MAX_LOG_ODDS,
    ModelFileError,
    named_version,
    number,
    numbers,
    read_body,
    sigmoid,
)
from twentynine.replay import DealState
from twentynine.schema.cards import ALL_CARDS, Card, Rank, Seat, Suit
from twentynine.schema.log import Action, BidAction, Deal
from twentynine.schema.rules import Rules

FORMAT: Final = "twentynine.auction_model"
"""The ``format`` every file of this model names."""

SHIPPED_PATH: Final = Path(__file__).resolve().parent / "auction_model.json"
"""The parameters the product uses."""

LEVEL_BASE: Final = 16
"""The level whose ``need`` feature is 0."""

_KEPT_TURNS: Final = 50_000


class Turn(NamedTuple):
    """A seat's turn in the auction, as it saw it: its first four cards, the level it must
    reach to stay in (the standing bid for a Ditto, else the lowest legal bid), whether its
    partner holds the standing bid, whether it may say Ditto; and, in the archive, whether
    it called and whether that call jumped a level."""

    four: tuple[Card, ...]
    need: int
    partner_holds: bool = False
    ditto: bool = False
    called: bool = False
    jumped: bool = False


def _long_points(four: Sequence[Card]) -> float:
    """The points of the suit a caller would name from ``four`` (:func:`longest_suit`)."""
    if not four:
        return 0.0
    trump = longest_suit(four)
    return float(sum(c.points for c in four if c.suit is trump))


def _count(four: Sequence[Card], rank: Rank) -> float:
    return float(sum(1 for c in four if c.rank is rank))


FEATURES: Final[dict[str, Callable[[Turn], float]]] = {
    "jacks": lambda t: _count(t.four, Rank.JACK),
    "nines": lambda t: _count(t.four, Rank.NINE),
    "aces_tens": lambda t: _count(t.four, Rank.ACE) + _count(t.four, Rank.TEN),
    "long_suit": lambda t: float(max(sum(1 for c in t.four if c.suit is s) for s in Suit)),
    "long_points": lambda t: _long_points(t.four),
    "need": lambda t: float(t.need - LEVEL_BASE),
    "partner_holds": lambda t: float(t.partner_holds),
    "ditto": lambda t: float(t.ditto),
}
"""Every feature a file may name: a number from a turn."""

HAND_FEATURES: Final = frozenset({"jacks", "nines", "aces_tens", "long_suit", "long_points"})
"""The features read from the four cards alone: a seat's are worked out once a model."""


@dataclass(frozen=True, slots=True)
class AuctionModel:
    """``P(call) = 1 / (1 + exp(-(intercept + coefficients . x)))`` over the named features;
    ``jump`` is the share of calls (not Dittos) that bid one level above the lowest legal.

    Frozen and made of tuples: it is sent as it is to worker processes.
    """

    version: str
    features: tuple[str, ...]
    intercept: float
    coefficients: tuple[float, ...]
    jump: float
    fit: Mapping[str, Any] | None = None
    _hand_terms: dict[int, float] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """What each hand of four cards adds to the log-odds, by the hand's mask: every hand's,
    worked out at the first use (:meth:`_hand_table`)."""
    _hand_range: list[float] = field(default_factory=list, init=False, repr=False, compare=False)
    """The least and the most any four cards add to the log-odds."""
    _bounds: dict[tuple[int, bool, bool, bool], tuple[float, float]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """Per call as every seat saw it: the log-odds but the hand's, and the most any four
    cards make the call's chance (:meth:`calls_weight`)."""
    _turns: dict[Turn, float] = field(default_factory=dict, init=False, repr=False, compare=False)
    """The chance of each turn met, up to :data:`_KEPT_TURNS` (runs of one layout meet the
    same turns again and again; emptied when full, so memory stays flat over a season)."""

    def __post_init__(self) -> None:
        unknown = [name for name in self.features if name not in FEATURES]
        if unknown:
            raise ModelFileError(f"unknown feature {unknown[0]!r} (known: {', '.join(FEATURES)})")
        if len(self.coefficients) != len(self.features):
            raise ModelFileError("as many coefficients as features are needed")
        if not 0.0 <= self.jump < 1.0:
            raise ModelFileError(f"jump must be a share in [0, 1), not {self.jump}")
        if not self.features:
            raise ModelFileError("the model has no features")
        if max(abs(self.intercept), *(abs(b) for b in self.coefficients)) > MAX_LOG_ODDS:
            raise ModelFileError(f"a parameter beyond {MAX_LOG_ODDS:g} log-odds: not a fit's")

    def call_chance(self, turn: Turn) -> float:
        """The chance the seat calls (bids or says Ditto) rather than passes."""
        turns = self._turns
        known = turns.get(turn)
        if known is None:
            if len(turns) >= _KEPT_TURNS:
                turns.clear()
            known = turns[turn] = self._call_chance(turn)
        return known

    def __reduce__(self) -> tuple[Any, ...]:
        # Sent to a worker without the tables worked out from it: they are rebuilt there.
        return (
            AuctionModel,
            (self.version, self.features, self.intercept, self.coefficients, self.jump, self.fit),
        )

    def _call_chance(self, turn: Turn) -> float:
        four = turn.four
        if len(four) == 4:
            hand = self._hand_table()[four[0].mask | four[1].mask | four[2].mask | four[3].mask]
        else:
            hand = self._hand_term(four)
        return sigmoid(self.intercept + hand + self._rest_term(turn))

    def _hand_term(self, four: tuple[Card, ...]) -> float:
        turn = Turn(four, LEVEL_BASE)
        terms = zip(self.features, self.coefficients, strict=True)
        return sum(b * FEATURES[name](turn) for name, b in terms if name in HAND_FEATURES)

    def _rest_term(self, turn: Turn) -> float:
        terms = zip(self.features, self.coefficients, strict=True)
        return sum(b * FEATURES[name](turn) for name, b in terms if name not in HAND_FEATURES)

    def _hand_table(self) -> dict[int, float]:
        """Every hand of four cards' term, by its mask (35,960 hands). The hand features
        read a card's suit and points alone (an ace is a ten to them, a king a seven), so the
        term is worked out once for each such pattern (1,000 or so) and shared."""
        table = self._hand_terms
        if not table:
            by_pattern: dict[tuple[tuple[int, int], ...], float] = {}
            for four in combinations(ALL_CARDS, 4):
                pattern = tuple(sorted((c.suit.index, c.points) for c in four))
                term = by_pattern.get(pattern)
                if term is None:
                    term = by_pattern[pattern] = self._hand_term(four)
                table[four[0].mask | four[1].mask | four[2].mask | four[3].mask] = term
            self._hand_range.extend((min(by_pattern.values()), max(by_pattern.values())))
        return table

    def calls_weight(self, calls: Sequence[Call], fours: Mapping[Seat, tuple[Card, ...]]) -> float:
        """How likely seats holding ``fours`` (four cards each) were to make ``calls`` as
        they did, over the most any four cards could make it: each call's chance (to call,
        or to pass) divided by the highest it takes over all hands, multiplied. A number in
        [0, 1]: a layout kept with this chance is a layout drawn as the auction says
        (rejection sampling), and the bound keeps as many as it can.

        >>> from twentynine.schema.cards import Card
        >>> model = shipped_model()
        >>> bid = Call(Seat.E, need=18, partner_holds=False, ditto=False, called=True, jumped=False)
        >>> strong = {Seat.E: tuple(Card.parse(t) for t in ("JH", "9H", "AH", "TH"))}
        >>> weak = {Seat.E: tuple(Card.parse(t) for t in ("7S", "8D", "7C", "QH"))}
        >>> model.calls_weight([bid], strong) > 0.5 > 0.01 > model.calls_weight([bid], weak)
        True
        """
        table = self._hand_table()
        weight = 1.0
        for call in calls:
            key = (call.need, call.partner_holds, call.ditto, call.called)
            bound = self._bounds.get(key)
            if bound is None:
                least, most = self._hand_range
                base = self.intercept + self._rest_term(call.turn(()))
                top = sigmoid(base + most) if call.called else 1.0 - sigmoid(base + least)
                bound = self._bounds[key] = (base, top)
            base, top = bound
            four = fours[call.seat]
            if len(four) == 4:
                hand = table[four[0].mask | four[1].mask | four[2].mask | four[3].mask]
            else:
                hand = self._hand_term(four)
            chance = sigmoid(base + hand)
            weight *= (chance if call.called else 1.0 - chance) / top
        return min(weight, 1.0)

    def as_json(self) -> dict[str, Any]:
        """The file's content (what :func:`load_model` reads back)."""
        body: dict[str, Any] = {
            "format": FORMAT,
            "version": self.version,
            "features": list(self.features),
            "intercept": self.intercept,
            "coefficients": list(self.coefficients),
            "jump": self.jump,
        }
        if self.fit is not None:
            body["fit"] = dict(self.fit)
        return body

    def dumps(self) -> str:
        """The file's text: JSON with a two-space indent and a newline at the end."""
        return json.dumps(self.as_json(), indent=2) + "\n"


def model_version(
    features: Sequence[str], intercept: float, coefficients: Sequence[float], jump: float
) -> str:
    """A version named after the parameters: the same numbers, the same version.

    >>> model_version(["need"], 0.5, [-0.2], 0.1)
    'auction-aca81f8f'
    """
    return named_version("auction", [list(features), intercept, list(coefficients), jump])


def load_model(path: Path) -> AuctionModel:
    """The model in ``path``; :class:`ModelFileError` says in one line what is wrong."""
    body = read_body(path, FORMAT)
    known = ("format", "version", "features", "intercept", "coefficients", "jump", "fit")
    try:
        unknown = [k for k in body if k not in known]
        if unknown:
            raise ModelFileError(f"unknown key {unknown[0][:40]!r}")
        features, fit = body["features"], body.get("fit")
        if not isinstance(features, list) or not all(isinstance(n, str) for n in features):
            raise ModelFileError("features must be a list of feature names")
        if fit is not None and not isinstance(fit, dict):
            raise ModelFileError("fit must be an object: the record of the fit")
        model = AuctionModel(
            version=str(body["version"]),
            features=tuple(features),
            intercept=number(body["intercept"], "intercept"),
            coefficients=numbers(body["coefficients"], "coefficients"),
            jump=number(body["jump"], "jump"),
            fit=fit,
        )
    except KeyError as exc:
        raise ModelFileError(f"{path}: the model has no {exc.args[0]!r}") from None
    except ModelFileError as exc:
        raise ModelFileError(f"{path}: {exc}") from None
    made = model_version(model.features, model.intercept, model.coefficients, model.jump)
    if model.version != made:
        raise ModelFileError(f"{path}: its version is not the one its parameters make ({made})")
    return model


@functools.cache
def shipped_model() -> AuctionModel:
    """The shipped model (read once)."""
    return load_model(SHIPPED_PATH)


# ------------------------------------------------------------------------------- the fit
def design(features: Sequence[str], turns: Sequence[Turn]) -> np.ndarray[Any, np.dtype[np.float64]]:
    """The turns' feature rows, a column of ones first."""
    rows = [[1.0, *(FEATURES[name](t) for name in features)] for t in turns]
    return np.array(rows, dtype=np.float64).reshape(len(turns), len(features) + 1)


def fit_model(
    features: Sequence[str],
    turns: Sequence[Turn],
    *,
    l2: float = 1.0,
    fit: Mapping[str, Any] | None = None,
) -> AuctionModel:
    """Maximum likelihood with a small L2 penalty on the coefficients (not the intercept),
    by iteratively reweighted least squares; ``jump`` is the share of calls that jumped.

    >>> from twentynine.schema.cards import Card
    >>> jacks = [tuple(Card.parse(t) for t in h.split()) for h in ("JH JS 7C 8D", "7H 8S 7C 8D")]
    >>> turns = [Turn(jacks[i % 2], 16, called=(i % 2 == 0) == (i % 7 != 0)) for i in range(70)]
    >>> model = fit_model(["jacks"], turns)
    >>> model.call_chance(Turn(jacks[0], 16)) > 0.7 > 0.3 > model.call_chance(Turn(jacks[1], 16))
    True
    """
    x = design(features, turns)
    y = np.array([float(t.called) for t in turns], dtype=np.float64)
    penalty = np.eye(x.shape[1]) * l2
    penalty[0, 0] = 0.0
    beta = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(x @ beta)))
        w = p * (1 - p)
        hessian = x.T @ (x * w[:, None]) + penalty
        gradient = x.T @ (y - p) - penalty @ beta
        step = np.linalg.solve(hessian, gradient)
        beta = beta + step
        if float(np.max(np.abs(step))) < 1e-9:
            break
    calls = [t for t in turns if t.called and not t.ditto]
    jump = sum(t.jumped for t in calls) / len(calls) if calls else 0.0
    intercept = round(float(beta[0]), 6)
    coefficients = tuple(round(float(b), 6) for b in beta[1:])
    jump = round(jump, 6)
    return AuctionModel(
        model_version(features, intercept, coefficients, jump),
        tuple(features),
        intercept,
        coefficients,
        jump,
        fit,
    )


class Call(NamedTuple):
    """A seat's free turn of the auction as every seat saw it (its cards left out): the
    level it had to reach to stay in, whether its partner held the standing bid, whether it
    could say Ditto, and whether it called."""

    seat: Seat
    need: int
    partner_holds: bool
    ditto: bool
    called: bool
    jumped: bool

    def turn(self, four: tuple[Card, ...]) -> Turn:
        """This call as the turn of a seat holding ``four``."""
        return Turn(four, self.need, self.partner_holds, self.ditto, self.called, self.jumped)


def free_call(state: DealState, action: Action) -> Call | None:
    """The turn ``action`` takes in ``state``'s auction, when its seat could either pass or
    call (None: a forced call, or no auction turn).

    >>> from twentynine.schema import Rules
    >>> from twentynine.schema.log import PassAction
    >>> state = DealState(Rules.preset("bhoos"), Seat.N)
    >>> free_call(state, PassAction(seat=state.current_seat))
    Call(seat=<Seat.E: 'E'>, need=16, partner_holds=False, ditto=False, called=False, jumped=False)
    """
    if state.phase_name != "auction" or state.is_over:
        return None
    seat = action.seat
    legal = state.legal_actions(seat)
    bids = sorted(a.value for a in legal if isinstance(a, BidAction))
    ditto = any(a.type == "ditto" for a in legal)
    if not any(a.type == "pass" for a in legal) or not (bids or ditto):
        return None
    standing = state.standing_bid
    return Call(
        seat,
        need=standing[1] if ditto and standing is not None else bids[0],
        partner_holds=standing is not None and standing[0] is seat.partner,
        ditto=ditto,
        called=action.type in ("bid", "ditto"),
        jumped=isinstance(action, BidAction) and bool(bids) and action.value > bids[0],
    )


def auction_turns(rules: Rules, deal: Deal) -> list[Turn]:
    """Every turn of ``deal``'s auction where the seat could pass or call, with what it did
    (a seat whose first four cards the log lacks is left out; so is a forced call).

    >>> from twentynine.replay import random_match
    >>> from twentynine.schema import Rules
    >>> log = random_match(Rules.preset("bhoos"), seed=1)
    >>> turns = auction_turns(log.resolved_rules(), log.deals[0])
    >>> all(len(t.four) == 4 and t.need >= 16 for t in turns) and len(turns) >= 3
    True
    """
    state = DealState(rules, deal.dealer, deal.hands)
    hands = deal.hands or {}
    turns: list[Turn] = []
    for action in deal.actions:
        if state.phase_name != "auction" or state.is_over:
            break
        call = free_call(state, action)
        four = tuple(c for c in list(hands.get(action.seat, ()))[:4] if c is not None)
        if call is not None and len(four) == 4:
            turns.append(call.turn(four))
        state.apply(action)
    return turns
