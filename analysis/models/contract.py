"""The contract model: the chance that the caller's side makes a contract, from what the
bidder knew when it bid (its first four cards, its position, the auction so far, the level).

A logistic regression over a few counts of the four cards, taken against the suit the
bidder would choose as trump (the suit the model rates highest, or the longest: the model
file says which), and the level of the call. Its parameters are data, not code: the shipped
ones are in ``contract_model.json`` beside this module (docs/analysis.md, "The contract
model", gives the features, the fit and the tables), and ``twentynine calibration --fit``
writes others, which ``twentynine analyze --model`` uses.

>>> model = shipped_model()
>>> four = cards("JH 9H AS 7C")
>>> view = ContractView(four, position=1, level=16)
>>> 0.5 < model.chance(view) < 1.0
True
>>> model.chance(view) > model.chance(view._replace(level=19))  # a higher call is harder
True
>>> model.best_suit(view).value
'H'
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, NamedTuple

import numpy as np

from twentynine.analysis.models.dealing import FAIR_SIDE_SHARE, DealingModel, side_shares
from twentynine.analysis.models.files import (
    MAX_LOG_ODDS,
    TOO_LONG,
    ModelFileError,
    named_version,
    number,
    numbers,
    sigmoid,
)
from twentynine.schema.cards import ALL_CARDS, Card, Direction, Rank, Seat, Suit
from twentynine.schema.shapes import DealLike
from twentynine.schema.words import plural

FORMAT: Final = "twentynine.contract_model"
"""The ``format`` every model file names."""

SHIPPED_PATH: Final = Path(__file__).resolve().parent / "contract_model.json"
"""The model the product uses unless told otherwise."""

LEVEL_BASE: Final = 16
"""The call whose ``level`` feature is 0."""

Z95: Final = 1.959964

TrumpRule = Literal["best", "longest"]


ModelError = ModelFileError
"""The contract model's name for a model file that cannot be used (one class for every
model's file)."""

FEW_CALLS: Final = 1000
"""Fewer scored calls than this make a fit mostly noise: ``calibration --fit`` and
``analyze --model`` warn of a model whose ``fit.calls`` says so."""

DRAWS: Final = 2000
"""Parameter draws (half of them mirrored) from which :meth:`ContractModel.combination`
takes its interval."""

_KEYS: Final = (
    "format",
    "version",
    "features",
    "trump",
    "intercept",
    "coefficients",
    "covariance",
    "fit",
)
"""Every key a model file may hold (``trump`` and ``fit`` may be left out)."""


class ContractView(NamedTuple):
    """What a bidder knew at a bid: its first four cards, its position from the dealer (1
    bids first, 4 is the dealer), the level it bid (a Ditto: the level it matched), the
    standing bid before it (None: nobody had bid), whether its partner or an opponent had
    bid, whether the call was forced on it (the dealer given the minimum after three
    passes), the trump when it is chosen (None: the suit the model rates highest), and for
    each card (by its index) the chance that, not in the four, it lands with the bidder's
    side as the deals are dealt (None: a fair shuffle; the server's dealing:
    :meth:`~twentynine.analysis.models.dealing.DealingModel.side_shares`)."""

    four: tuple[Card, ...]
    position: int
    level: int
    standing: int | None = None
    partner_bid: bool = False
    opponent_bid: bool = False
    forced: bool = False
    trump: Suit | None = None
    shares: tuple[float, ...] | None = None


def cards(text: str) -> tuple[Card, ...]:
    """Cards from their log notation, separated by spaces.

    >>> cards("JH 9H")
    (Card('JH'), Card('9H'))
    """
    return tuple(Card.parse(t) for t in text.split())


SUIT_ORDER: Final = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
"""The order that breaks ties between suits."""

_TOTALS: Final = frozenset({"jacks", "nines", "points"})

SUIT_CARDS: Final = {suit: tuple(c for c in ALL_CARDS if c.suit is suit) for suit in SUIT_ORDER}

# A card's class in a tally: the jack, the nine, the ace or ten, any other (no points).
_CLASS: Final = {Rank.JACK: 0, Rank.NINE: 1, Rank.ACE: 2, Rank.TEN: 2}


class Tally(NamedTuple):
    """The four cards counted once: per suit (in :data:`SUIT_ORDER`) the jacks, nines, aces
    and tens, and the other cards, and the card points; what every feature is read from."""

    by_suit: tuple[tuple[int, int, int, int, int], ...]
    jacks: int
    nines: int
    aces_tens: int
    points: int
    suits: int


def tally(four: Sequence[Card]) -> Tally:
    """Count the four cards by suit and class.

    >>> tally(cards("JH 9H AS 7C")).by_suit[1], tally(cards("JH 9H AS 7C")).points
    ((1, 1, 0, 0, 5), 6)
    """
    counts = [[0, 0, 0, 0, 0] for _ in SUIT_ORDER]
    for card in four:
        row = counts[SUIT_ORDER.index(card.suit)]
        row[_CLASS.get(card.rank, 3)] += 1
        row[4] += card.points
    by_suit = tuple((a, b, c, d, e) for a, b, c, d, e in counts)
    return Tally(
        by_suit,
        sum(r[0] for r in by_suit),
        sum(r[1] for r in by_suit),
        sum(r[2] for r in by_suit),
        sum(r[4] for r in by_suit),
        sum(1 for r in by_suit if any(r[:4])),
    )


def side_trumps(view: ContractView) -> tuple[float, float, float, float]:
    """For each suit of :data:`SUIT_ORDER`, how many of its cards the bidder's side can
    expect beyond the four: its own second four and its partner's eight (the view's
    ``shares``; a fair shuffle without them).

    >>> [round(x, 3) for x in side_trumps(ContractView(cards("JH 9H AH 7S"), 1, 16))]
    [3.0, 2.143, 3.429, 3.429]
    """
    shares = view.shares
    held = {card.index for card in view.four}
    out = []
    for suit in SUIT_ORDER:
        mine = [c.index for c in SUIT_CARDS[suit] if c.index not in held]
        if shares is None:
            out.append(len(mine) * FAIR_SIDE_SHARE)
        else:
            out.append(sum(shares[i] for i in mine))
    s, h, d, c = out
    return s, h, d, c


Feature = Callable[[ContractView, Tally, int], float]
"""A feature: a number from the view, its tally and the trump's index in :data:`SUIT_ORDER`."""

FEATURES: Final[dict[str, Feature]] = {
    # the four cards against a trump suit
    "trump_jack": lambda v, h, t: h.by_suit[t][0],
    "trump_nine": lambda v, h, t: h.by_suit[t][1],
    "trump_ace_ten": lambda v, h, t: h.by_suit[t][2],
    "trump_low": lambda v, h, t: h.by_suit[t][3],
    "trump_length": lambda v, h, t: sum(h.by_suit[t][:4]),
    "trump_points": lambda v, h, t: h.by_suit[t][4],
    "side_jacks": lambda v, h, t: h.jacks - h.by_suit[t][0],
    "side_nines": lambda v, h, t: h.nines - h.by_suit[t][1],
    "side_ace_ten": lambda v, h, t: h.aces_tens - h.by_suit[t][2],
    # the four cards whatever the trump
    "jacks": lambda v, h, t: h.jacks,
    "nines": lambda v, h, t: h.nines,
    "points": lambda v, h, t: h.points,
    "void_suits": lambda v, h, t: 4 - h.suits,
    # the call and the auction
    "level": lambda v, h, t: v.level - LEVEL_BASE,
    "position_1": lambda v, h, t: v.position == 1,
    "position_2": lambda v, h, t: v.position == 2,
    "position_3": lambda v, h, t: v.position == 3,
    "contested": lambda v, h, t: v.opponent_bid,
    "partner_bid": lambda v, h, t: v.partner_bid,
    "forced": lambda v, h, t: v.forced,
    # what the bidder can expect of the cards it has not seen
    "side_trump": lambda v, h, t: side_trumps(v)[t],
}
"""Every feature a model file may name: ``trump_*`` count the trump's cards of the four by
class (``trump_low``: king, queen, eight and seven), ``side_*`` those of the other suits;
``level`` is the call less 16; ``position_n`` is 1 for the bidder n-th from the dealer;
``contested``, ``partner_bid``: someone of that side had bid before; ``forced``: the
dealer's call at the minimum after nobody bid; ``side_trump`` (:func:`side_trumps`), the
trump cards the bidder's side can expect beyond the four."""

_SUITED: Final = frozenset({"side_trump"})
"""The features of the view's cards that differ by trump and are not a sum over the four:
a model works them out for each suit."""

_PER_CARD: Final = frozenset(
    name
    for name in FEATURES
    if (name.startswith(("trump_", "side_")) or name in _TOTALS) and name not in _SUITED
)
"""The features that are sums over the four cards: a model adds them up a card at a time."""

_VIEW_ONLY: Final = frozenset(
    {"level", "position_1", "position_2", "position_3", "contested", "partner_bid", "forced"}
)
"""The features read from the view alone, not from its cards."""

_NO_CARDS: Final = tally(())


def feature_vector(names: Sequence[str], view: ContractView, suit: Suit) -> tuple[float, ...]:
    """The named features of ``view`` against trump ``suit``.

    >>> view = ContractView(cards("JH JS 7H 8C"), position=2, level=17)
    >>> feature_vector(["trump_jack", "trump_low", "side_jacks", "level"], view, Suit.HEARTS)
    (1.0, 1.0, 1.0, 1.0)
    """
    hand = tally(view.four)
    t = SUIT_ORDER.index(suit)
    return tuple(float(FEATURES[name](view, hand, t)) for name in names)


def longest_suit(four: Sequence[Card]) -> Suit:
    """The suit a caller would usually choose: the longest, then the most points, then the
    highest card, then the first in the order S, H, D, C.

    >>> longest_suit(cards("7H 9S AS 8H")).value, longest_suit(cards("7C 7D")).value
    ('S', 'D')
    """

    def key(suit: Suit) -> tuple[int, int, int, int]:
        mine = [c for c in four if c.suit is suit]
        strength = max((c.strength for c in mine), default=-1)
        return (len(mine), sum(c.points for c in mine), strength, -SUIT_ORDER.index(suit))

    return max(SUIT_ORDER, key=key)


Speech = tuple[Seat, str, int | None]
"""One step of an auction: who spoke, ``bid``, ``pass`` or ``ditto``, and a bid's value."""


def caller_view(
    deal: DealLike,
    direction: Direction,
    caller: Seat,
    min_bid: int = LEVEL_BASE,
    dealing: DealingModel | None = None,
) -> ContractView | None:
    """The caller's view at its last bid (or Ditto) of a recorded deal, the deal dealt as
    ``dealing`` deals (None: a fair shuffle): None when the log lacks one of its first four
    cards or it never bid.

    >>> from twentynine.schema.log import Deal
    >>> cards_text = "JH 9H AS 7C 8D 8C KS QS".split()
    >>> deal = Deal.model_validate({"dealer": "N", "hands": {"E": cards_text},
    ...     "actions": [{"seat": "E", "type": "bid", "value": 16},
    ...                 {"seat": "S", "type": "bid", "value": 17},
    ...                 {"seat": "E", "type": "bid", "value": 18}]})
    >>> view = caller_view(deal, Direction.CLOCKWISE, Seat.E)
    >>> view.position, view.level, view.standing, view.opponent_bid, view.partner_bid
    (1, 18, 17, True, False)
    """
    hands = deal.hands
    held = list(hands.get(caller, ()))[:4] if hands is not None else []
    four = tuple(c for c in held if c is not None)
    if len(four) < 4:
        return None
    auction: list[Speech] = []
    for action in deal.actions:
        if action.type == "bid":
            auction.append((action.seat, "bid", action.value))
        elif action.type in ("pass", "ditto"):
            auction.append((action.seat, action.type, None))
        elif auction:
            break  # the auction is over
    position = deal.dealer.order_from(direction).index(caller) or 4
    shares = side_shares(dealing, caller, deal.dealer)
    return view_at_last_bid(four, position, caller, auction, min_bid, shares)


def view_at_last_bid(
    four: Sequence[Card],
    position: int,
    caller: Seat,
    auction: Iterable[Speech],
    min_bid: int = LEVEL_BASE,
    shares: tuple[float, ...] | None = None,
) -> ContractView | None:
    """The view of ``caller`` (at ``position`` from the dealer, holding ``four``, its
    side's ``shares`` of the unseen cards) at its last bid or Ditto of ``auction`` (None:
    it never bid).

    >>> auction = [(Seat.E, "pass", None), (Seat.S, "pass", None), (Seat.W, "pass", None),
    ...            (Seat.N, "bid", 16)]
    >>> view = view_at_last_bid(cards("JH 9H AS 7C"), 4, Seat.N, auction)
    >>> view.level, view.standing, view.forced
    (16, None, True)
    """
    last: tuple[int | None, bool, bool] | None = None
    level = 0
    standing: int | None = None
    partner = opponent = False
    for seat, kind, bid in auction:
        value = bid if kind == "bid" else standing if kind == "ditto" else None
        if value is None:
            continue  # a pass, or a Ditto with nothing to match (the auditor's finding)
        if seat is caller:
            last, level = (standing, partner, opponent), value
        elif seat is caller.partner:
            partner = True
        else:
            opponent = True
        standing = max(standing or 0, value)
    if last is None:
        return None
    before, partner_bid, opponent_bid = last
    forced = position == 4 and before is None and level == min_bid
    return ContractView(
        tuple(four), position, level, before, partner_bid, opponent_bid, forced, None, shares
    )


@dataclass(frozen=True, slots=True)
class ContractModel:
    """A fitted contract model: ``1 / (1 + exp(-(intercept + coefficients . x)))`` where
    ``x`` are the named features against the trump the ``trump`` rule picks (``best``: the
    suit whose chance is highest; ``longest``: :func:`longest_suit`). ``covariance`` is
    that of the intercept and coefficients (intercept first): it gives the intervals.

    Frozen and made of tuples: it is sent as it is to worker processes.
    """

    version: str
    features: tuple[str, ...]
    intercept: float
    coefficients: tuple[float, ...]
    covariance: tuple[tuple[float, ...], ...]
    trump: TrumpRule = "best"
    fit: Mapping[str, Any] | None = None
    _card_weights: tuple[tuple[float, ...], ...] = field(init=False, repr=False, compare=False)
    """Per card (by :attr:`Card.index`), what it adds to the log-odds with each suit of
    :data:`SUIT_ORDER` as trump: the per-card features' terms, worked out once."""
    _view_terms: tuple[tuple[str, float], ...] = field(init=False, repr=False, compare=False)
    """The features read from the view alone (the level, the auction) and their weights."""
    _hand_terms: tuple[tuple[str, float], ...] = field(init=False, repr=False, compare=False)
    """The features of the four cards that are not a sum over them (void suits)."""
    _side_weight: float = field(init=False, repr=False, compare=False)
    """The weight of ``side_trump`` (0 when the model does not name it)."""
    _deviations: list[Any] = field(default_factory=list, init=False, repr=False, compare=False)
    """The parameters' draws less their means (:data:`DRAWS` rows, intercept first), made at
    the first :meth:`combination` (:func:`_deviations`)."""

    def __post_init__(self) -> None:
        _validate(self)
        terms = list(zip(self.features, self.coefficients, strict=True))
        weights = []
        for card in ALL_CARDS:
            alone = ContractView((card,), 1, LEVEL_BASE)
            hand = tally(alone.four)
            weights.append(
                tuple(
                    sum(b * float(FEATURES[n](alone, hand, t)) for n, b in terms if n in _PER_CARD)
                    for t in range(4)
                )
            )
        object.__setattr__(self, "_card_weights", tuple(weights))
        view_terms = tuple((n, b) for n, b in terms if n in _VIEW_ONLY)
        object.__setattr__(self, "_view_terms", view_terms)
        hand_terms = tuple((n, b) for n, b in terms if n not in _PER_CARD | _VIEW_ONLY | _SUITED)
        object.__setattr__(self, "_hand_terms", hand_terms)
        object.__setattr__(self, "_side_weight", dict(terms).get("side_trump", 0.0))

    # ---------------------------------------------------------------- predictions
    def vector(self, view: ContractView, suit: Suit) -> tuple[float, ...]:
        """The features of ``view`` against trump ``suit``, in the model's order."""
        return feature_vector(self.features, view, suit)

    def logit(self, view: ContractView, suit: Suit) -> float:
        """The log-odds of making the call with ``suit`` as trump."""
        return self._logits(view)[SUIT_ORDER.index(suit)]

    def _logits(self, view: ContractView) -> list[float]:
        """The log-odds with each suit of :data:`SUIT_ORDER` as trump: a sum of what each
        card adds (the per-card features) and of the other features' terms."""
        base = self.intercept
        for name, b in self._view_terms:
            base += b * float(FEATURES[name](view, _NO_CARDS, 0))
        if self._hand_terms:
            hand = tally(view.four)
            for name, b in self._hand_terms:
                base += b * float(FEATURES[name](view, hand, 0))
        s = h = d = c = base
        if self._side_weight:
            w = self._side_weight
            ts, th, td, tc = side_trumps(view)
            s, h, d, c = s + w * ts, h + w * th, d + w * td, c + w * tc
        for card in view.four:
            ws, wh, wd, wc = self._card_weights[card.index]
            s, h, d, c = s + ws, h + wh, d + wd, c + wc
        return [s, h, d, c]

    def _pick(self, view: ContractView, logits: Sequence[float]) -> int:
        if view.trump is not None:
            return SUIT_ORDER.index(view.trump)
        if self.trump == "longest":
            return SUIT_ORDER.index(longest_suit(view.four))
        return max(range(4), key=lambda t: (logits[t], -t))

    def best_suit(self, view: ContractView) -> Suit:
        """The trump the view's chance is taken against: the chosen one when the view has
        it, else the one the model's rule picks (ties: the order S, H, D, C)."""
        return SUIT_ORDER[self._pick(view, self._logits(view))]

    def chance(self, view: ContractView) -> float:
        """The chance that the caller's side makes the call, from the bidder's view."""
        logits = self._logits(view)
        return sigmoid(logits[self._pick(view, logits)])

    def chances_by_suit(self, view: ContractView) -> dict[Suit, float]:
        """The chance with each suit as trump (the view's own trump set aside).

        >>> by = shipped_model().chances_by_suit(ContractView(cards("JH 9H AS 7C"), 1, 16))
        >>> max(by, key=by.__getitem__).value
        'H'
        """
        return {s: sigmoid(self.logit(view, s)) for s in SUIT_ORDER}

    def interval(self, view: ContractView) -> tuple[float, float]:
        """The 95% interval of :meth:`chance` from the fit's uncertainty (on the log-odds
        scale, then mapped back)."""
        suit = self.best_suit(view)
        x = (1.0, *self.vector(view, suit))
        eta = self.logit(view, suit)
        half = Z95 * math.sqrt(max(_quadratic(self.covariance, x), 0.0))
        return sigmoid(eta - half), sigmoid(eta + half)

    def combination(
        self, terms: Iterable[tuple[float, ContractView]], constant: float = 0.0
    ) -> tuple[float, float, float]:
        """``constant + sum(weight * chance(view))`` with its 95% interval from the fit's
        uncertainty: the parameters drawn :data:`DRAWS` times from their normal law (the
        fit's covariance), the chances of the terms moving together, each on its log-odds
        scale; so a chance near 0 or 1 from an uncertain fit still has a wide interval.

        A bid worth ``stake * (2p - 1)`` game points is ``((2 * stake, view),)`` with
        constant ``-stake``; the gain of one bid over another is a difference of two terms.

        >>> model = shipped_model()
        >>> view = ContractView(cards("JH 9H AS 7C"), 1, 16)
        >>> mean, low, high = model.combination([(1.0, view), (-1.0, view._replace(level=17))])
        >>> 0 < low < mean < high
        True
        """
        rows, weights, logits = [], [], []
        mean = constant
        for weight, view in terms:
            suit = self.best_suit(view)
            rows.append((1.0, *self.vector(view, suit)))
            weights.append(weight)
            logits.append(self.logit(view, suit))
            mean += weight * sigmoid(logits[-1])
        if not rows:
            return mean, mean, mean
        x = np.array(rows)
        w = np.array(weights)
        eta = np.array(logits)
        if not self._deviations:
            self._deviations.append(_deviations(self.covariance))
        drawn = constant + _sigmoids(eta + self._deviations[0] @ x.T) @ w
        low, high = (float(v) for v in np.quantile(drawn, (0.025, 0.975)))
        return mean, min(low, mean), max(high, mean)

    # ------------------------------------------------------------------- the file
    def as_json(self) -> dict[str, Any]:
        """The model file's content (what :func:`load_model` reads back)."""
        body: dict[str, Any] = {
            "format": FORMAT,
            "version": self.version,
            "features": list(self.features),
            "trump": self.trump,
            "intercept": self.intercept,
            "coefficients": list(self.coefficients),
            "covariance": [list(row) for row in self.covariance],
        }
        if self.fit is not None:
            body["fit"] = dict(self.fit)
        return body

    def dumps(self) -> str:
        """The model file's text: JSON, two-space indent, each list of numbers or names on
        one line (a covariance row, the coefficients), a newline at the end."""
        text = json.dumps(self.as_json(), indent=2)
        return _FLAT_LIST.sub(lambda m: " ".join(m.group(0).split()), text) + "\n"


_FLAT_LIST: Final = re.compile(r"\[[^\[\]{}]*\]")
"""A JSON list holding no list or object: written on one line."""


def parameters_version(
    features: Sequence[str],
    trump: str,
    intercept: float,
    coefficients: Sequence[float],
    covariance: Sequence[Sequence[float]],
) -> str:
    """A version named after the parameters, covariance included: the same numbers, the
    same version; a file is refused whose version is not its parameters' (a model edited
    by hand cannot pass for another).

    >>> parameters_version(["level"], "best", 0.5, [-0.2], [[0.1, 0.0], [0.0, 0.1]])
    'contract-6027e13e'
    """
    return named_version(
        "contract",
        [list(features), trump, intercept, list(coefficients), [list(r) for r in covariance]],
    )


def _sigmoids(z: np.ndarray[Any, np.dtype[np.float64]]) -> np.ndarray[Any, np.dtype[np.float64]]:
    """The logistic function of each of ``z`` (by tanh: no overflow at any size)."""
    out: np.ndarray[Any, np.dtype[np.float64]] = 0.5 * (1.0 + np.tanh(0.5 * z))
    return out


def _deviations(
    covariance: Sequence[Sequence[float]],
) -> np.ndarray[Any, np.dtype[np.float64]]:
    """:data:`DRAWS` draws of the parameters less their means, from the normal law of
    ``covariance`` (its square root by eigenvalues: a semi-definite one is fine), half of
    them the other half mirrored; the same every time (a fixed seed)."""
    values, vectors = np.linalg.eigh(np.array(covariance, dtype=np.float64))
    root = vectors * np.sqrt(np.clip(values, 0.0, None))
    z = np.random.default_rng(0).standard_normal((DRAWS // 2, len(values)))
    half = z @ root.T
    out: np.ndarray[Any, np.dtype[np.float64]] = np.vstack([half, -half])
    return out


def _quadratic(matrix: Sequence[Sequence[float]], x: Sequence[float]) -> float:
    return sum(x[i] * sum(row[j] * x[j] for j in range(len(x))) for i, row in enumerate(matrix))


def _validate(model: ContractModel) -> None:
    if not model.version or not isinstance(model.version, str):
        raise ModelError("the model has no version")
    if not model.features:
        raise ModelError("the model has no features: it would give every call one chance")
    if not all(isinstance(name, str) for name in model.features):
        raise ModelError("features must be a list of feature names")
    unknown = [name for name in model.features if name not in FEATURES]
    if unknown:
        raise ModelError(f"unknown feature {unknown[0]!r} (known: {', '.join(FEATURES)})")
    if len(set(model.features)) != len(model.features):
        raise ModelError("a feature is named twice")
    if len(model.coefficients) != len(model.features):
        raise ModelError(
            f"{len(model.coefficients)} coefficients for {len(model.features)} features"
        )
    size = len(model.features) + 1
    if len(model.covariance) != size or any(len(row) != size for row in model.covariance):
        raise ModelError(f"the covariance must be {size} by {size} (intercept first)")
    values = [model.intercept, *model.coefficients, *(v for r in model.covariance for v in r)]
    if not all(isinstance(v, float) and math.isfinite(v) for v in values):
        raise ModelError("every parameter must be a finite number")
    largest = max(abs(model.intercept), *(abs(b) for b in model.coefficients))
    if largest > MAX_LOG_ODDS:
        raise ModelError(
            f"a parameter of {largest:g} log-odds is not a fitted model's (at most "
            f"{MAX_LOG_ODDS:g}: its chances would all be 0% or 100%)"
        )
    if any(model.covariance[i][i] < 0 for i in range(size)):
        raise ModelError("a variance is negative")
    _check_covariance(model.covariance)
    if model.trump not in ("best", "longest"):
        raise ModelError(f"trump must be 'best' or 'longest', not {model.trump!r}")
    if model.fit is not None:
        if not isinstance(model.fit, Mapping):
            raise ModelError("fit must be an object: the record of the fit")
        calls = model.fit.get("calls")
        if calls is not None and (type(calls) is not int or calls < 0):
            raise ModelError("fit.calls must be a count of calls")


def _check_covariance(covariance: Sequence[Sequence[float]]) -> None:
    """Refuse a covariance that no fit makes: not symmetric, or not positive semi-definite
    (a direction of negative variance), each up to the rounding of a model file's digits."""
    matrix = np.array(covariance, dtype=np.float64)
    with np.errstate(all="ignore"):  # numbers too large: said below
        scale = np.sqrt(np.outer(np.diag(matrix), np.diag(matrix)))
        lopsided = np.any(np.abs(matrix - matrix.T) > 1e-5 * scale + 1e-12)
        values = np.linalg.eigvalsh(matrix)
    if lopsided:
        raise ModelError("the covariance is not symmetric")
    if not np.all(np.isfinite(values)):
        raise ModelError("the covariance's numbers are too large to use")
    if values[0] < -1e-6 * max(float(values[-1]), 0.0) - 1e-12:
        raise ModelError(
            "the covariance is not positive semi-definite (a combination of the parameters "
            f"would have a variance of {values[0]:.3g}): not a fit's"
        )


def model_from_json(body: Any) -> ContractModel:
    """A model from a model file's parsed JSON; :class:`ModelError` says what is wrong
    (one line), as for a key it does not know, a value of the wrong kind, or a version that
    is not its parameters' (:func:`parameters_version`).

    >>> try:
    ...     model_from_json({"format": "x"})
    ... except ModelError as exc:
    ...     print(exc)
    not a contract model (format 'x', expected 'twentynine.contract_model')
    """
    if not isinstance(body, dict):
        raise ModelError("a contract model must be a JSON object")
    if body.get("format") != FORMAT:
        raise ModelError(
            f"not a contract model (format {body.get('format')!r}, expected {FORMAT!r})"
        )
    unknown = [key for key in body if key not in _KEYS]
    if unknown:
        raise ModelError(
            f"unknown key {unknown[0][:40]!r} (a contract model holds: {', '.join(_KEYS)})"
        )
    missing = [key for key in _KEYS if key not in body and key not in ("trump", "fit")]
    if missing:
        raise ModelError(f"the model has no {missing[0]!r}")
    features, covariance, fit = body["features"], body["covariance"], body.get("fit")
    if not isinstance(features, list):
        raise ModelError("features must be a list of feature names")
    if not isinstance(covariance, list):
        raise ModelError("covariance: not a list of rows of numbers")
    if fit is not None and not isinstance(fit, dict):
        raise ModelError(f"fit must be an object: the record of the fit, not a {_kind(fit)}")
    version = body["version"]
    model = ContractModel(
        version=version if isinstance(version, str) else "",
        features=tuple(features),
        intercept=number(body["intercept"], "intercept"),
        coefficients=numbers(body["coefficients"], "coefficients"),
        covariance=tuple(numbers(row, f"covariance[{i}]") for i, row in enumerate(covariance)),
        trump=body.get("trump", "best"),
        fit=fit,
    )
    made = parameters_version(
        model.features, model.trump, model.intercept, model.coefficients, model.covariance
    )
    if model.version != made:
        raise ModelError(
            f"its version is not the one its parameters make ({made}): a model edited by "
            "hand is not taken under another's name; refit it (twentynine calibration --fit)"
        )
    return model


def _kind(value: Any) -> str:
    return {list: "list", str: "string", bool: "true or false"}.get(type(value), "number")


def load_model(path: str | Path) -> ContractModel:
    """The model in a file; :class:`ModelError` (one line naming the file) when it cannot
    be used.

    >>> try:
    ...     load_model("/no/such/model.json")
    ... except ModelError as exc:
    ...     print(exc)
    /no/such/model.json: cannot read the model: No such file or directory
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ModelError(f"{path}: cannot read the model: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ModelError(f"{path}: not a contract model (not UTF-8 text)") from None
    try:
        body = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ModelError(
            f"{path}: not a contract model (not JSON: {exc.msg}, line {exc.lineno})"
        ) from None
    except ValueError:  # an integer of thousands of digits, which Python will not read
        raise ModelError(f"{path}: {TOO_LONG}") from None
    try:
        return model_from_json(body)
    except ModelError as exc:
        raise ModelError(f"{path}: {exc}") from None


def few_calls(model: ContractModel) -> str | None:
    """What is said of ``model`` when its record says it was fitted on fewer than
    :data:`FEW_CALLS` calls (None: enough, or not recorded).

    >>> few_calls(shipped_model()) is None
    True
    """
    calls = (model.fit or {}).get("calls")
    return few_calls_text(calls) if isinstance(calls, int) and calls < FEW_CALLS else None


def few_calls_text(calls: int) -> str:
    """The words for a fit on ``calls`` scored calls, fewer than :data:`FEW_CALLS`.

    >>> few_calls_text(1)
    'fitted on 1 call, fewer than 1,000: its chances are mostly noise'
    """
    return (
        f"fitted on {plural(calls, 'call')}, fewer than {FEW_CALLS:,}: its chances are mostly noise"
    )


@functools.cache
def shipped_model() -> ContractModel:
    """The model the product ships (read once)."""
    return load_model(SHIPPED_PATH)
