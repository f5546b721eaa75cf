"""Fitting the contract model on recorded matches, and measuring any model on them.

The rows: one per scored contract (a caller, a known result, not thrown in, no single hand,
the caller's first four cards in the log), each the caller's view at its last bid
(:func:`~twentynine.analysis.models.contract.caller_view`) and whether its side made the call.
A deal recorded twice (the same cards and actions, whatever the match's id) counts once.

The fit: a logistic regression with an L2 penalty on the coefficients (not the intercept),
by iteratively reweighted least squares; under the ``best`` trump rule the features are
first taken against the longest suit, then twice against the suit the fitted model rates
highest. No randomness: the same rows give the same model.

The measure: five equal-count bands of the prediction (mean predicted, observed, count),
the expected calibration error (their count-weighted mean gap) and the largest gap, the
Brier score against the base rate's with a 95% bootstrap interval of the difference
(resampling deals, ``seed`` fixing the draws), and the AUC; by level and by trump length too.
Out of fold, each group (a file) is predicted by the model fitted on the others.

>>> from twentynine.replay import random_match
>>> from twentynine.schema import Rules
>>> logs = [random_match(Rules.preset("bhoos"), seed=s) for s in range(4)]
>>> rows = contract_rows(logs)
>>> len(rows) > 10 and all(r.view.level >= 16 for r in rows)
True
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

import numpy as np
import numpy.typing as npt

from twentynine.analysis.models.contract import (
    ContractModel,
    ContractView,
    TrumpRule,
    caller_view,
    feature_vector,
    longest_suit,
    parameters_version,
)
from twentynine.analysis.models.dealing import DealingModel, server_dealing
from twentynine.replay import audit_match
from twentynine.schema.cards import Suit
from twentynine.schema.log import MatchLog
from twentynine.schema.rules import Rules

Floats = npt.NDArray[np.float64]

MODEL_FEATURES: Final = (
    "trump_jack",
    "trump_nine",
    "trump_ace_ten",
    "trump_low",
    "side_jacks",
    "level",
    "side_trump",
)
"""The shipped model's features (docs/analysis.md says why these)."""

BASELINE: Final = ("jacks", "nines", "points", "trump_length", "trump_points")
"""The four-card baseline's features (against the longest suit)."""

L2: Final = 5.0
"""The penalty on the squared coefficients: small against a few thousand rows, enough to
keep a feature that a club's few hundred calls hardly see near 0 rather than at +-10."""

_SUIT_LETTERS: Final = frozenset(s.value for s in Suit)

BANDS: Final = 5
BOOTSTRAP: Final = 2000


class ContractRow(NamedTuple):
    """One scored contract: the caller's view at its last bid, whether its side made the
    call, the group it is held out with (its file), the deal it belongs to (rows of the
    same cards resample together), where it is, and the trump the caller then chose (None:
    not recorded)."""

    view: ContractView
    made: bool
    group: str
    deal: str
    match_id: str
    number: int
    trump: Suit | None = None


def _deal_key(match: MatchLog, number: int) -> str:
    deal = match.deals[number - 1]
    hands = deal.hands or {}
    return "|".join(
        sorted("".join(sorted(c.text if c else "??" for c in cards)) for cards in hands.values())
    )


def _record_key(match: MatchLog, number: int) -> str:
    deal = match.deals[number - 1]
    actions = ";".join(
        f"{a.seat}{a.type}{getattr(a, 'value', '')}{getattr(a, 'card', '')}{getattr(a, 'suit', '')}"
        for a in deal.actions
    )
    hands = deal.hands or {}
    cards = ";".join(f"{s}{''.join(c.text if c else '??' for c in h)}" for s, h in hands.items())
    return f"{deal.dealer}|{cards}|{actions}"


def contract_rows(
    matches: Iterable[MatchLog],
    groups: Sequence[str] | None = None,
    dealing: Callable[[Rules], DealingModel | None] = server_dealing,
) -> list[ContractRow]:
    """The scored contracts of ``matches`` (``groups``: each match's group, its file; by
    default each match its own), a deal recorded twice counted once; each caller's view
    knows how ``dealing`` says its match's rules deal (by default the server's dealing for
    the Bhoos rules, a fair shuffle for the others)."""
    rows: list[ContractRow] = []
    seen: set[str] = set()
    for i, match in enumerate(matches):
        rules = match.resolved_rules()
        dealt_as = dealing(rules)
        audited = audit_match(match)
        for facts in audited.deals:
            if (
                facts.caller is None
                or facts.made is None
                or facts.thrown_in is not None
                or facts.single_hand is not None
            ):
                continue
            deal = match.deals[facts.number - 1]
            view = caller_view(deal, rules.direction, facts.caller, rules.min_bid, dealt_as)
            if view is None:
                continue
            key = _record_key(match, facts.number)
            if key in seen:
                continue
            seen.add(key)
            group = groups[i] if groups is not None else match.match_id
            rows.append(
                ContractRow(
                    view,
                    facts.made,
                    group,
                    _deal_key(match, facts.number),
                    match.match_id,
                    facts.number,
                    Suit(facts.trump) if facts.trump in _SUIT_LETTERS else None,
                )
            )
    return rows


# ------------------------------------------------------------------------------ fit
def _matrix(features: Sequence[str], views: Sequence[ContractView], suits: Sequence[Any]) -> Floats:
    return np.array(
        [feature_vector(features, v, s) for v, s in zip(views, suits, strict=True)], dtype=float
    )


def _irls(x: Floats, y: Floats, l2: float) -> tuple[Floats, Floats]:
    """The penalised maximum-likelihood parameters (intercept first) and their covariance."""
    z = np.column_stack([np.ones(len(x)), x])
    penalty = l2 * np.eye(z.shape[1])
    penalty[0, 0] = 0.0
    beta = np.zeros(z.shape[1])
    rate = min(max(y.mean(), 1e-3), 1 - 1e-3)
    beta[0] = math.log(rate / (1 - rate))
    hessian = penalty
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(z @ beta)))
        w = p * (1 - p)
        hessian = z.T @ (z * w[:, None]) + penalty + 1e-9 * np.eye(z.shape[1])
        step = np.linalg.solve(hessian, z.T @ (y - p) - penalty @ beta)
        beta = beta + step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    p = 1.0 / (1.0 + np.exp(-(z @ beta)))
    hessian = z.T @ (z * (p * (1 - p))[:, None]) + penalty + 1e-9 * np.eye(z.shape[1])
    return beta, np.linalg.inv(hessian)


def fit_model(
    rows: Sequence[ContractRow],
    features: Sequence[str] = MODEL_FEATURES,
    *,
    trump: TrumpRule = "best",
    l2: float = L2,
    rounds: int = 2,
    fit: Mapping[str, Any] | None = None,
) -> ContractModel:
    """The model fitted on ``rows`` (its version named after its parameters).

    >>> from twentynine.analysis.models.contract import cards
    >>> strong, weak = cards("JH 9H AH TH"), cards("7S 8C 7D QH")
    >>> rows = [ContractRow(ContractView(h, 1, 16), m, "a", str(i), "m", 1)
    ...         for i, (h, m) in enumerate([(strong, True)] * 30 + [(weak, False)] * 30
    ...                                      + [(strong, False)] * 5 + [(weak, True)] * 5)]
    >>> model = fit_model(rows, ("trump_jack", "trump_length"))
    >>> chance = lambda four: model.chance(ContractView(four, 1, 16))
    >>> chance(strong) > 0.7 > 0.3 > chance(weak)
    True
    """
    if not rows:
        raise ValueError("no scored contract with the caller's cards to fit on")
    views = [r.view for r in rows]
    y = np.array([float(r.made) for r in rows])
    suits = [v.trump if v.trump is not None else longest_suit(v.four) for v in views]
    beta, cov = _irls(_matrix(features, views, suits), y, l2)
    for _ in range(rounds if trump == "best" else 0):
        model = _model(features, trump, beta, cov, None)
        suits = [model.best_suit(v) for v in views]
        beta, cov = _irls(_matrix(features, views, suits), y, l2)
    return _model(features, trump, beta, cov, fit)


def _model(
    features: Sequence[str],
    trump: TrumpRule,
    beta: Floats,
    cov: Floats,
    fit: Mapping[str, Any] | None,
) -> ContractModel:
    intercept = round(float(beta[0]), 6)
    coefficients = tuple(round(float(b), 6) for b in beta[1:])
    covariance = tuple(tuple(float(f"{v:.6g}") for v in row) for row in cov)
    return ContractModel(
        version=parameters_version(features, trump, intercept, coefficients, covariance),
        features=tuple(features),
        intercept=intercept,
        coefficients=coefficients,
        covariance=covariance,
        trump=trump,
        fit=fit,
    )


# -------------------------------------------------------------------------- measure
class Band(NamedTuple):
    """Calls grouped (by their prediction, level or trump length): mean predicted, observed
    make-rate, number of calls."""

    label: str
    predicted: float
    observed: float
    calls: int


@dataclass(frozen=True, slots=True)
class Evaluation:
    """How well predictions matched outcomes (see the module's docstring)."""

    count: int
    made: float
    auc: float
    brier: float
    base_brier: float
    brier_gain: float
    """``brier - base_brier``: negative is better than the base rate."""
    gain_low: float
    gain_high: float
    ece: float
    max_gap: float
    bands: tuple[Band, ...]
    by_level: tuple[Band, ...]
    by_trump_length: tuple[Band, ...]
    folds: tuple[tuple[str, int, float], ...] = ()
    """Out of fold: each held-out group, its calls and its AUC."""

    def as_json(self) -> dict[str, Any]:
        """The figures as the model file's ``fit.metrics`` keeps them (``auc`` null when
        every call was made, or every call failed: no pair to rank)."""
        return {
            "calls": self.count,
            "made": round(self.made, 4),
            "auc": round(self.auc, 4) if math.isfinite(self.auc) else None,
            "brier": round(self.brier, 4),
            "base_brier": round(self.base_brier, 4),
            "brier_gain": [round(v, 4) for v in (self.brier_gain, self.gain_low, self.gain_high)],
            "ece": round(self.ece, 4),
            "max_gap": round(self.max_gap, 4),
            "bands": [
                [b.label, round(b.predicted, 4), round(b.observed, 4), b.calls] for b in self.bands
            ],
        }


def auc(p: Floats, y: Floats) -> float:
    """The chance that a made call was given more than a failed one (ties count half).

    >>> made = np.array([0.0, 1.0, 1.0])
    >>> auc(np.array([0.2, 0.8, 0.5]), made), auc(np.array([0.5, 0.5, 0.5]), made)
    (1.0, 0.5)
    """
    made = y > 0.5
    n1, n0 = int(made.sum()), int((~made).sum())
    if n1 == 0 or n0 == 0:
        return math.nan
    order = np.argsort(p, kind="mergesort")
    ranks = np.empty(len(p))
    ranks[order] = np.arange(1, len(p) + 1)
    sorted_p = p[order]
    # ties share the mean of their ranks
    _, start, counts = np.unique(sorted_p, return_index=True, return_counts=True)
    for s, c in zip(start, counts, strict=True):
        if c > 1:
            ranks[order[s : s + c]] = s + (c + 1) / 2
    return float((ranks[made].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def reliability(p: Floats, y: Floats, bands: int = BANDS) -> tuple[Band, ...]:
    """Equal-count bands of the prediction, lowest first.

    >>> reliability(np.array([0.1, 0.2, 0.7, 0.9]), np.array([0.0, 1.0, 1.0, 1.0]), 2)[1]
    Band(label='2', predicted=0.8, observed=1.0, calls=2)
    """
    order = np.argsort(p, kind="mergesort")
    return tuple(
        Band(str(i + 1), float(p[chunk].mean()), float(y[chunk].mean()), len(chunk))
        for i, chunk in enumerate(np.array_split(order, bands))
        if len(chunk)
    )


def _groups(labels: Sequence[str], p: Floats, y: Floats) -> tuple[Band, ...]:
    out = []
    for label in sorted(set(labels), key=lambda t: (len(t), t)):
        mask = np.array([x == label for x in labels])
        out.append(Band(label, float(p[mask].mean()), float(y[mask].mean()), int(mask.sum())))
    return tuple(out)


def evaluate(
    rows: Sequence[ContractRow],
    p: Sequence[float] | Floats,
    base: Sequence[float] | Floats | None = None,
    *,
    seed: int = 0,
    folds: Sequence[tuple[str, int, float]] = (),
) -> Evaluation:
    """The figures of predictions ``p`` for ``rows`` against the base rate ``base`` (by
    default the rows' own make-rate). By trump length: the length in the caller's first
    four of the trump it chose (the longest suit where the log does not say)."""
    if not rows:
        raise ValueError("no scored contract to measure")
    pred = np.asarray(p, dtype=float)
    y = np.array([float(r.made) for r in rows])
    rate = np.full(len(y), y.mean()) if base is None else np.asarray(base, dtype=float)
    loss = (pred - y) ** 2 - (rate - y) ** 2
    low, high = _bootstrap(loss, [r.deal for r in rows], seed)
    bands = reliability(pred, y)
    gaps = [abs(b.predicted - b.observed) for b in bands]
    levels = [str(r.view.level) if r.view.level < 19 else "19+" for r in rows]
    lengths = []
    for r in rows:
        suit = r.trump if r.trump is not None else longest_suit(r.view.four)
        lengths.append(str(sum(1 for c in r.view.four if c.suit is suit)))
    return Evaluation(
        count=len(rows),
        made=float(y.mean()),
        auc=auc(pred, y),
        brier=float(np.mean((pred - y) ** 2)),
        base_brier=float(np.mean((rate - y) ** 2)),
        brier_gain=float(loss.mean()),
        gain_low=low,
        gain_high=high,
        ece=sum(g * b.calls for g, b in zip(gaps, bands, strict=True)) / len(rows),
        max_gap=max(gaps),
        bands=bands,
        by_level=_groups(levels, pred, y),
        by_trump_length=_groups(lengths, pred, y),
        folds=tuple(folds),
    )


def _bootstrap(loss: Floats, deals: Sequence[str], seed: int) -> tuple[float, float]:
    """The 95% interval of the mean of ``loss``, resampling deals (rows of one deal together)."""
    index: dict[str, int] = {}
    which = np.array([index.setdefault(d, len(index)) for d in deals])
    k = len(index)
    sums = np.bincount(which, weights=loss, minlength=k)
    counts = np.bincount(which, minlength=k).astype(float)
    rng = np.random.default_rng(seed)
    stats = np.empty(BOOTSTRAP)
    for i in range(BOOTSTRAP):
        picked = np.bincount(rng.integers(0, k, k), minlength=k)
        stats[i] = (picked @ sums) / (picked @ counts)
    return float(np.percentile(stats, 2.5)), float(np.percentile(stats, 97.5))


def predict(model: ContractModel, rows: Sequence[ContractRow]) -> Floats:
    """The model's chance for each row."""
    return np.array([model.chance(r.view) for r in rows])


class CrossValidation(NamedTuple):
    """Out-of-fold predictions: each row's chance from the model not fitted on its group,
    the base rate of those other groups, and each group's fold."""

    predicted: Floats
    base: Floats
    folds: tuple[tuple[str, int, float], ...]


def cross_validate(
    rows: Sequence[ContractRow],
    features: Sequence[str] = MODEL_FEATURES,
    *,
    trump: TrumpRule = "best",
    l2: float = L2,
    fold_rows: Mapping[str, Sequence[ContractRow]] | None = None,
) -> CrossValidation:
    """Leave one group out: every group predicted by the model fitted on the others (at
    least two groups). ``fold_rows``: for a group held out, the same rows in the same order
    with the views that fold should see (how the server deals, fitted without that group)."""
    groups = sorted({r.group for r in rows})
    if len(groups) < 2:
        raise ValueError("cross-validation needs at least two groups (files)")
    predicted = np.zeros(len(rows))
    base = np.zeros(len(rows))
    y = np.array([float(r.made) for r in rows])
    folds = []
    for group in groups:
        held = np.array([r.group == group for r in rows])
        seen = fold_rows[group] if fold_rows is not None else rows
        train = [r for r, h in zip(seen, held, strict=True) if not h]
        test = [r for r, h in zip(seen, held, strict=True) if h]
        model = fit_model(train, features, trump=trump, l2=l2)
        predicted[held] = predict(model, test)
        base[held] = y[~held].mean()
        folds.append((group, len(test), auc(predicted[held], y[held])))
    return CrossValidation(predicted, base, tuple(folds))


def fit_record(
    rows: Sequence[ContractRow],
    sources: Sequence[str],
    l2: float,
    out_of_fold: Evaluation | None,
    baseline: Evaluation | None = None,
    *,
    how: str = "leave one file out",
    today: dt.date | None = None,
    dealing: str | None = None,
) -> dict[str, Any]:
    """The ``fit`` entry of a model file: when, on what, how, and how well out of fold
    (``how``: the folds; ``dealing``: the version of the server's dealing its views knew)."""
    record: dict[str, Any] = {
        "date": (today or dt.date.today()).isoformat(),
        "files": list(sources),
        "calls": len(rows),
        "made": round(sum(r.made for r in rows) / len(rows), 4),
        "l2": l2,
        "method": "logistic regression, L2 on the coefficients, IRLS",
    }
    if dealing is not None:
        record["dealing"] = dealing
    if out_of_fold is not None:
        record["out_of_fold"] = how
        record["metrics"] = out_of_fold.as_json()
    if baseline is not None:
        record["baseline"] = {"features": list(BASELINE), "metrics": baseline.as_json()}
    return record


__all__ = [
    "BASELINE",
    "L2",
    "MODEL_FEATURES",
    "Band",
    "ContractRow",
    "CrossValidation",
    "Evaluation",
    "auc",
    "contract_rows",
    "cross_validate",
    "evaluate",
    "fit_model",
    "fit_record",
    "predict",
    "reliability",
]
