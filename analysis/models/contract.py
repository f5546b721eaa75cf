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
import hashlib
import json
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, NamedTuple

from twentynine.schema.cards import Card, Direction, Rank, Seat, Suit
from twentynine.schema.shapes import DealLike

FORMAT: Final = "twentynine.contract_model"
"""The ``format`` every model file names."""

SHIPPED_PATH: Final = Path(__file__).resolve().parent / "contract_model.json"
"""The model the product uses unless told otherwise."""

LEVEL_BASE: Final = 16
"""The call whose ``level`` feature is 0."""

Z95: Final = 1.959964

TrumpRule = Literal["best", "longest"]


class ModelError(ValueError):
    """A model file that cannot be used: says what is wrong, in one line."""


class ContractView(NamedTuple):
    """What a bidder knew at a bid: its first four cards, its position from the dealer (1
    bids first, 4 is the dealer), the level it bid (a Ditto: the level it matched), the
    standing bid before it (None: nobody had bid), whether its partner or an opponent had
    bid, whether the call was forced on it (the dealer given the minimum after three
    passes), and the trump when it is chosen (None: the suit the model rates highest)."""

    four: tuple[Card, ...]
    position: int
    level: int
    standing: int | None = None
    partner_bid: bool = False
    opponent_bid: bool = False
    forced: bool = False
    trump: Suit | None = None


def cards(text: str) -> tuple[Card, ...]:
    """Cards from their log notation, separated by spaces.

    >>> cards("JH 9H")
    (Card('JH'), Card('9H'))
    """
    return tuple(Card.parse(t) for t in text.split())


_ACE_TEN: Final = frozenset({Rank.ACE, Rank.TEN})


def _count(four: Sequence[Card], test: Callable[[Card], bool]) -> float:
    return float(sum(1 for c in four if test(c)))


Feature = Callable[[ContractView, Suit], float]

FEATURES: Final[dict[str, Feature]] = {
    # the four cards against a trump suit
    "trump_jack": lambda v, t: _count(v.four, lambda c: c.suit is t and c.rank is Rank.JACK),
    "trump_nine": lambda v, t: _count(v.four, lambda c: c.suit is t and c.rank is Rank.NINE),
    "trump_ace_ten": lambda v, t: _count(v.four, lambda c: c.suit is t and c.rank in _ACE_TEN),
    "trump_low": lambda v, t: _count(v.four, lambda c: c.suit is t and c.points == 0),
    "trump_length": lambda v, t: _count(v.four, lambda c: c.suit is t),
    "trump_points": lambda v, t: float(sum(c.points for c in v.four if c.suit is t)),
    "side_jacks": lambda v, t: _count(v.four, lambda c: c.suit is not t and c.rank is Rank.JACK),
    "side_nines": lambda v, t: _count(v.four, lambda c: c.suit is not t and c.rank is Rank.NINE),
    "side_ace_ten": lambda v, t: _count(v.four, lambda c: c.suit is not t and c.rank in _ACE_TEN),
    # the four cards whatever the trump
    "jacks": lambda v, t: _count(v.four, lambda c: c.rank is Rank.JACK),
    "nines": lambda v, t: _count(v.four, lambda c: c.rank is Rank.NINE),
    "points": lambda v, t: float(sum(c.points for c in v.four)),
    "void_suits": lambda v, t: float(4 - len({c.suit for c in v.four})),
    # the call and the auction
    "level": lambda v, t: float(v.level - LEVEL_BASE),
    "position_1": lambda v, t: float(v.position == 1),
    "position_2": lambda v, t: float(v.position == 2),
    "position_3": lambda v, t: float(v.position == 3),
    "contested": lambda v, t: float(v.opponent_bid),
    "partner_bid": lambda v, t: float(v.partner_bid),
    "forced": lambda v, t: float(v.forced),
}
"""Every feature a model file may name: a number from the view and a trump suit."""

SUIT_ORDER: Final = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
"""The order that breaks ties between suits."""


def feature_vector(names: Sequence[str], view: ContractView, suit: Suit) -> tuple[float, ...]:
    """The named features of ``view`` against trump ``suit``.

    >>> view = ContractView(cards("JH JS 7H 8C"), position=2, level=17)
    >>> feature_vector(["trump_jack", "trump_low", "side_jacks", "level"], view, Suit.HEARTS)
    (1.0, 1.0, 1.0, 1.0)
    """
    return tuple(FEATURES[name](view, suit) for name in names)


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


def caller_view(
    deal: DealLike, direction: Direction, caller: Seat, min_bid: int = LEVEL_BASE
) -> ContractView | None:
    """The caller's view at its last bid (or Ditto) of a recorded deal: None when the log
    lacks one of its first four cards or it never bid.

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
    # the auction as the caller saw it at its last bid: the standing bid, who had bid
    last: tuple[int | None, bool, bool] | None = None
    level = 0
    standing: int | None = None
    partner = opponent = False
    for action in deal.actions:
        if action.type not in ("bid", "pass", "ditto"):
            if last is not None:
                break
            continue
        if action.type == "pass":
            continue
        value = action.value if action.type == "bid" else standing
        if value is None:
            continue  # a Ditto with nothing to match: the auditor's finding, not a call
        if action.seat is caller:
            last, level = (standing, partner, opponent), value
        elif action.seat is caller.partner:
            partner = True
        else:
            opponent = True
        standing = max(standing or 0, value)
    if last is None:
        return None
    order = deal.dealer.order_from(direction)
    position = order.index(caller) or 4
    before, partner_bid, opponent_bid = last
    forced = position == 4 and before is None and level == min_bid
    return ContractView(four, position, level, before, partner_bid, opponent_bid, forced)


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

    def __post_init__(self) -> None:
        _validate(self)

    # ---------------------------------------------------------------- predictions
    def vector(self, view: ContractView, suit: Suit) -> tuple[float, ...]:
        """The features of ``view`` against trump ``suit``, in the model's order."""
        return feature_vector(self.features, view, suit)

    def logit(self, view: ContractView, suit: Suit) -> float:
        """The log-odds of making the call with ``suit`` as trump."""
        x = self.vector(view, suit)
        return self.intercept + sum(b * v for b, v in zip(self.coefficients, x, strict=True))

    def best_suit(self, view: ContractView) -> Suit:
        """The trump the view's chance is taken against: the chosen one when the view has
        it, else the one the model's rule picks (ties: the order S, H, D, C)."""
        if view.trump is not None:
            return view.trump
        if self.trump == "longest":
            return longest_suit(view.four)
        return max(SUIT_ORDER, key=lambda s: (self.logit(view, s), -SUIT_ORDER.index(s)))

    def chance(self, view: ContractView) -> float:
        """The chance that the caller's side makes the call, from the bidder's view."""
        return _sigmoid(self.logit(view, self.best_suit(view)))

    def chances_by_suit(self, view: ContractView) -> dict[Suit, float]:
        """The chance with each suit as trump (the view's own trump set aside).

        >>> by = shipped_model().chances_by_suit(ContractView(cards("JH 9H AS 7C"), 1, 16))
        >>> max(by, key=by.__getitem__).value
        'H'
        """
        return {s: _sigmoid(self.logit(view, s)) for s in SUIT_ORDER}

    def interval(self, view: ContractView) -> tuple[float, float]:
        """The 95% interval of :meth:`chance` from the fit's uncertainty (on the log-odds
        scale, then mapped back)."""
        suit = self.best_suit(view)
        x = (1.0, *self.vector(view, suit))
        eta = self.logit(view, suit)
        half = Z95 * math.sqrt(max(_quadratic(self.covariance, x), 0.0))
        return _sigmoid(eta - half), _sigmoid(eta + half)

    def combination(
        self, terms: Iterable[tuple[float, ContractView]], constant: float = 0.0
    ) -> tuple[float, float, float]:
        """``constant + sum(weight * chance(view))`` with its 95% interval from the fit's
        uncertainty (the delta method: the chances of the terms move together).

        A bid worth ``stake * (2p - 1)`` game points is ``((2 * stake, view),)`` with
        constant ``-stake``; the gain of one bid over another is a difference of two terms.

        >>> model = shipped_model()
        >>> view = ContractView(cards("JH 9H AS 7C"), 1, 16)
        >>> mean, low, high = model.combination([(1.0, view), (-1.0, view._replace(level=17))])
        >>> 0 < low < mean < high
        True
        """
        mean = constant
        gradient = [0.0] * (len(self.features) + 1)
        for weight, view in terms:
            suit = self.best_suit(view)
            p = _sigmoid(self.logit(view, suit))
            mean += weight * p
            slope = weight * p * (1 - p)
            for i, v in enumerate((1.0, *self.vector(view, suit))):
                gradient[i] += slope * v
        half = Z95 * math.sqrt(max(_quadratic(self.covariance, gradient), 0.0))
        return mean, mean - half, mean + half

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
    features: Sequence[str], trump: str, intercept: float, coefficients: Sequence[float]
) -> str:
    """A version named after the parameters: the same numbers, the same version.

    >>> parameters_version(["level"], "best", 0.5, [-0.2])
    'contract-7094eeb6'
    """
    text = json.dumps([list(features), trump, intercept, list(coefficients)])
    return "contract-" + hashlib.sha256(text.encode()).hexdigest()[:8]


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def _quadratic(matrix: Sequence[Sequence[float]], x: Sequence[float]) -> float:
    return sum(x[i] * sum(row[j] * x[j] for j in range(len(x))) for i, row in enumerate(matrix))


def _validate(model: ContractModel) -> None:
    if not model.version or not isinstance(model.version, str):
        raise ModelError("the model has no version")
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
    numbers = [model.intercept, *model.coefficients, *(v for r in model.covariance for v in r)]
    if not all(isinstance(v, float) and math.isfinite(v) for v in numbers):
        raise ModelError("every parameter must be a finite number")
    if any(model.covariance[i][i] < 0 for i in range(size)):
        raise ModelError("a variance is negative")
    if model.trump not in ("best", "longest"):
        raise ModelError(f"trump must be 'best' or 'longest', not {model.trump!r}")


def model_from_json(body: Any) -> ContractModel:
    """A model from a model file's parsed JSON; :class:`ModelError` says what is wrong.

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
    try:
        fit = body.get("fit")
        return ContractModel(
            version=body["version"],
            features=tuple(body["features"]),
            intercept=float(body["intercept"]),
            coefficients=tuple(float(v) for v in body["coefficients"]),
            covariance=tuple(tuple(float(v) for v in row) for row in body["covariance"]),
            trump=body.get("trump", "best"),
            fit=fit if isinstance(fit, dict) else None,
        )
    except KeyError as exc:
        raise ModelError(f"the model has no {exc.args[0]!r}") from None
    except (TypeError, ValueError) as exc:
        if isinstance(exc, ModelError):
            raise
        raise ModelError(f"a parameter is not a number or list of numbers ({exc})") from None


def load_model(path: str | Path) -> ContractModel:
    """The model in a file; :class:`ModelError` (one line) when it cannot be used."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ModelError(f"cannot read the model {str(path)!r}: {exc.strerror}") from None
    try:
        body = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ModelError(f"{path}: not JSON ({exc.msg}, line {exc.lineno})") from None
    return model_from_json(body)


@functools.cache
def shipped_model() -> ContractModel:
    """The model the product ships (read once)."""
    return load_model(SHIPPED_PATH)
