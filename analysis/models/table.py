"""The chance a contract is made given the first four cards of every seat: the contract model
(:mod:`analysis.models.contract`, the caller's own view) corrected by what its partner and
the opponents hold of the caller's trump.

The contract model reads the caller's four cards alone: what a bidder knows of its own call.
A seat judging someone else's contract knows more: its own four cards, and, on a layout
drawn as the calls say, the others' too (a partner that bid holds the cards a bid needs).
A partner holding the jack of the caller's suit makes the call likelier; an opponent holding
it, less likely. This model adds those counts to the contract model's log-odds (an offset):
a logistic regression on the partner's and the opponents' first four cards against the trump
the contract model picks for the caller, fitted on the archive's real deals, all four hands
known. Its parameters are data, ``table_model.json`` beside this module, written by
``bench/bids_hear_auction.py --write`` (docs/analysis.md, "Bids that hear the auction").

>>> from twentynine.analysis.models.contract import ContractView, cards
>>> from twentynine.analysis.models.contract import shipped_model as shipped_contract
>>> view = ContractView(cards("JH 7H AS 7C"), 1, 16)
>>> table, contract = shipped_model(), shipped_contract()
>>> helped = table.chance(contract, view, cards("9H AH 8S 8D"), cards("7S 8C KD QD 7D KS QS QC"))
>>> hurt = table.chance(contract, view, cards("7S 8C KD QD"), cards("9H AH 8S 8D 7D KS QS QC"))
>>> hurt < contract.chance(view) < helped
True
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np

from twentynine.analysis.models.contract import ContractModel, ContractView
from twentynine.analysis.models.files import (
    MAX_LOG_ODDS,
    ModelFileError,
    named_version,
    number,
    numbers,
    read_body,
    sigmoid,
)
from twentynine.analysis.models.fit import ContractRow
from twentynine.schema.cards import Card, Rank, Suit
from twentynine.schema.log import MatchLog

FORMAT: Final = "twentynine.table_model"
"""The ``format`` every file of this model names."""

SHIPPED_PATH: Final = Path(__file__).resolve().parent / "table_model.json"
"""The parameters the product uses."""

FEATURES: Final = (
    "partner_trump_jack",
    "partner_trump_nine",
    "partner_trump_ace_ten",
    "partner_trump_low",
    "partner_side_jacks",
    "opponents_trump_jack",
    "opponents_trump_nine",
    "opponents_trump_ace_ten",
    "opponents_trump_low",
    "opponents_side_jacks",
)
"""The partner's four cards, then the opponents' eight, counted against the caller's trump:
its jack, nine, ace and ten, other cards, and the jacks of the other suits."""

L2: Final = 2.0
"""The penalty on the squared coefficients (not the intercept)."""


TableModelError = ModelFileError
"""A table model file that cannot be used: the one error class of every model file."""


def counts(suit: Suit, cards: Iterable[Card]) -> tuple[float, float, float, float, float]:
    """The trump's jack, nine, aces and tens, other cards, and the side jacks of ``cards``.

    >>> from twentynine.analysis.models.contract import cards
    >>> counts(Suit.HEARTS, cards("JH AH TH 7H JS"))
    (1.0, 0.0, 2.0, 1.0, 1.0)
    """
    jack = nine = high = low = side = 0.0
    for card in cards:
        if card.suit is not suit:
            side += card.rank is Rank.JACK
        elif card.rank is Rank.JACK:
            jack += 1
        elif card.rank is Rank.NINE:
            nine += 1
        elif card.rank in (Rank.ACE, Rank.TEN):
            high += 1
        else:
            low += 1
    return jack, nine, high, low, side


def features(suit: Suit, partner: Iterable[Card], opponents: Iterable[Card]) -> tuple[float, ...]:
    """:data:`FEATURES` of a table against trump ``suit``."""
    return (*counts(suit, partner), *counts(suit, opponents))


@dataclass(frozen=True, slots=True)
class TableModel:
    """``P(made) = 1 / (1 + exp(-(contract log-odds + intercept + coefficients . x)))`` with
    ``x`` the :data:`FEATURES` against the trump the contract model picks for the caller.

    Frozen and made of tuples: it is sent as it is to worker processes."""

    version: str
    intercept: float
    coefficients: tuple[float, ...]
    fit: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        if len(self.coefficients) != len(FEATURES):
            raise TableModelError(f"{len(FEATURES)} coefficients are needed")

    def chance(
        self,
        contract: ContractModel,
        view: ContractView,
        partner: Iterable[Card],
        opponents: Iterable[Card],
    ) -> float:
        """The chance the caller of ``view`` makes its call, its partner's first four being
        ``partner`` and the opponents' ``opponents``."""
        suit = contract.best_suit(view)
        z = contract.logit(view, suit) + self.shift(suit, partner, opponents)
        return sigmoid(z)

    def shift(self, suit: Suit, partner: Iterable[Card], opponents: Iterable[Card]) -> float:
        """What the others' cards add to the contract model's log-odds."""
        x = features(suit, partner, opponents)
        return self.intercept + sum(b * v for b, v in zip(self.coefficients, x, strict=True))

    def as_json(self) -> dict[str, Any]:
        """The file's content (what :func:`load_model` reads back)."""
        body: dict[str, Any] = {
            "format": FORMAT,
            "version": self.version,
            "features": list(FEATURES),
            "intercept": self.intercept,
            "coefficients": list(self.coefficients),
        }
        if self.fit is not None:
            body["fit"] = dict(self.fit)
        return body

    def dumps(self) -> str:
        """The file's text: JSON with a two-space indent and a newline at the end."""
        return json.dumps(self.as_json(), indent=2) + "\n"


def model_version(intercept: float, coefficients: Sequence[float]) -> str:
    """A version named after the parameters: the same numbers, the same version.

    >>> model_version(0.0, [0.0] * 10)
    'table-8b5464e9'
    """
    return named_version("table", [list(FEATURES), intercept, list(coefficients)])


_KEYS: Final = frozenset({"format", "version", "features", "intercept", "coefficients", "fit"})


def load_model(path: Path) -> TableModel:
    """The model in ``path``, checked as every model file is (docs/analysis.md, "The
    contract model"): its version must be the one its parameters make, every parameter a
    finite number within :data:`~analysis.models.files.MAX_LOG_ODDS`, no key the format
    does not have; :class:`~analysis.models.files.ModelFileError` says in one line what is
    wrong."""
    body = read_body(path, FORMAT)
    unknown = sorted(set(body) - _KEYS)
    if unknown:
        raise ModelFileError(f"{path}: {unknown[0]!r} is not a key of a table model")
    if body.get("features") != list(FEATURES):
        raise ModelFileError(f"{path}: the features must be {', '.join(FEATURES)}")
    try:
        intercept = number(body.get("intercept"), "intercept")
        coefficients = numbers(body.get("coefficients"), "coefficients")
    except ModelFileError as exc:
        raise ModelFileError(f"{path}: {exc}") from None
    if len(coefficients) != len(FEATURES):
        raise ModelFileError(f"{path}: {len(FEATURES)} coefficients are needed")
    if any(abs(value) > MAX_LOG_ODDS for value in (intercept, *coefficients)):
        raise ModelFileError(f"{path}: a parameter beyond {MAX_LOG_ODDS:g} log-odds")
    fit = body.get("fit")
    if fit is not None and not isinstance(fit, dict):
        raise ModelFileError(f"{path}: 'fit' must be an object")
    version = model_version(intercept, coefficients)
    if body.get("version") != version:
        raise ModelFileError(
            f"{path}: its version is not its parameters' ({version}): edited by hand?"
        )
    return TableModel(version, intercept, coefficients, fit)


@functools.cache
def shipped_model() -> TableModel:
    """The shipped model (read once)."""
    return load_model(SHIPPED_PATH)


# ------------------------------------------------------------------------------- the fit
TableRow = tuple[ContractView, Sequence[Card], Sequence[Card], bool]
"""A scored contract: the caller's view, its partner's first four, the opponents' first
fours, and whether the call was made."""


def fit_model(
    contract: ContractModel,
    rows: Sequence[TableRow],
    *,
    l2: float = L2,
    fit: Mapping[str, Any] | None = None,
) -> TableModel:
    """Maximum likelihood, the contract model's log-odds an offset, with an L2 penalty on the
    coefficients (not the intercept), by iteratively reweighted least squares.

    >>> from twentynine.analysis.models.contract import ContractView, cards
    >>> from twentynine.analysis.models.contract import shipped_model as shipped_contract
    >>> view = ContractView(cards("JH 7H AS 7C"), 1, 16)
    >>> rows = [(view, cards("9H" if i % 2 else "8S"), (), i % 2 == 1 or i % 5 == 0)
    ...         for i in range(80)]
    >>> fit_model(shipped_contract(), rows).coefficients[1] > 1.0  # the partner's nine
    True
    """
    if not rows:
        raise ValueError("no scored contract to fit on")
    offsets, xs = [], []
    for view, partner, opponents, _ in rows:
        suit = contract.best_suit(view)
        offsets.append(contract.logit(view, suit))
        xs.append((1.0, *features(suit, partner, opponents)))
    z = np.array(xs, dtype=float)
    offset = np.array(offsets, dtype=float)
    y = np.array([float(r[3]) for r in rows])
    penalty = l2 * np.eye(z.shape[1])
    penalty[0, 0] = 0.0
    beta = np.zeros(z.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(offset + z @ beta)))
        hessian = z.T @ (z * (p * (1 - p))[:, None]) + penalty + 1e-9 * np.eye(z.shape[1])
        step = np.linalg.solve(hessian, z.T @ (y - p) - penalty @ beta)
        beta = beta + step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    intercept = round(float(beta[0]), 6)
    coefficients = tuple(round(float(b), 6) for b in beta[1:])
    return TableModel(model_version(intercept, coefficients), intercept, coefficients, fit)


def table_rows(matches: Iterable[MatchLog], rows: Iterable[ContractRow]) -> list[TableRow]:
    """Each scored contract of ``rows`` (:func:`analysis.models.fit.contract_rows` of
    ``matches``) with the first four cards of its caller's partner and of the opponents (a
    row whose log lacks one of them is left out)."""
    deals = {(m.match_id, i + 1): (m, d) for m in matches for i, d in enumerate(m.deals)}
    out: list[TableRow] = []
    for row in rows:
        match, deal = deals[(row.match_id, row.number)]
        order = deal.dealer.order_from(match.resolved_rules().direction)
        caller = order[row.view.position % 4]
        hands = deal.hands or {}
        fours = {s: [c for c in list(hands.get(s, ()))[:4] if c is not None] for s in order}
        if any(len(four) < 4 for four in fours.values()):
            continue
        partner = fours[caller.partner]
        opponents = [c for s in order if s.team is not caller.team for c in fours[s]]
        out.append((row.view, partner, opponents, row.made))
    return out
