"""From double-dummy values to make-probabilities a real table bears out.

Double dummy is too sure of itself: with every card known the play never guesses, and a
layout sampled from the caller's four cards knows nothing of what the auction said. On a
sampled layout where the caller's side's double-dummy value is ``v``, a call of ``target``
is made with probability ``Phi(INTERCEPT + SLOPE * (v - target + 0.5) + LEVEL_SLOPE *
(target - 16))``: a probit of the double-dummy margin and of the call's level, its three
constants fitted by maximum likelihood on the real outcomes of the Bhoos archive by
``bench/calibrate.py`` and kept only because they predict held-out calls better than the
constants before them; docs/analysis.md ("Calibration") gives the method and the figures.
It serves the decisions judged on sampled layouts (the trump choice, the doubling, the
single hand's contract); the bids are judged by the contract model of
:mod:`analysis.models.contract`, from the bidder's cards without layouts.

>>> made_probability(20, 18, DOUBLE_DUMMY), made_probability(17, 18, DOUBLE_DUMMY)
(1.0, 0.0)
>>> 0.0 < made_probability(20, 18) < 1.0
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

from twentynine.schema.log import Deal
from twentynine.schema.rules import Rules

LEVEL_BASE: Final = 16
"""The call whose level term is 0."""


class Model(NamedTuple):
    """A calibration: ``Phi(intercept + slope * margin + level_slope * (target - 16))``
    on a layout whose double-dummy margin is ``value - target + 0.5`` card points; an
    infinite slope is the bare double-dummy answer (made exactly when the margin is
    positive)."""

    intercept: float
    slope: float
    level_slope: float = 0.0


DOUBLE_DUMMY: Final = Model(0.0, math.inf)
"""No calibration: a layout's call is made when its double-dummy value reaches the target."""

BEFORE_REFIT: Final = Model(0.025, 0.1)
"""The constants shipped before the refit (a shift of -0.25 card points and a spread of 10
card points), kept for the comparison bench/calibrate.py prints."""

CALIBRATION: Final = Model(0.2637, 0.0101, -0.1316)
"""The constants :func:`made_probability` uses: fitted on the 667 scored calls of the Bhoos
archive, 6 layouts each (docs/analysis.md, "Calibration"): the double-dummy margin hardly
counts (0.01 a card point), the call's level does (-0.13 a bid point)."""


def made_probability(value: float, target: int, model: Model = CALIBRATION) -> float:
    """The calibrated probability that a caller's side with double-dummy value ``value`` on
    one layout makes ``target``."""
    margin = value - target + 0.5
    if math.isinf(model.slope):
        return 1.0 if margin > 0 else 0.0
    z = model.intercept + model.slope * margin + model.level_slope * (target - LEVEL_BASE)
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


class CallerRecord(NamedTuple):
    """One real call: its target, whether it was made, and the double-dummy values of the
    caller's side on layouts sampled from the caller's view at its trump choice."""

    target: int
    made: bool
    values: tuple[int, ...]


def caller_record(
    rules: Rules, deal: Deal, number: int, samples: int, seed: int = 0, match_id: str = ""
) -> CallerRecord | None:
    """The calibration record of a recorded deal (None without a scored call: thrown in,
    single hand, unfinished, or the caller's first four not recorded).

    >>> from twentynine.replay import random_match
    >>> from twentynine.schema import Rules
    >>> log = random_match(Rules.preset("pagat"), seed=1)
    >>> record = caller_record(log.resolved_rules(), log.deals[0], 1, samples=2)
    >>> record is None or len(record.values) <= 2
    True
    """
    from twentynine.analysis.auction import contract_value
    from twentynine.analysis.judging import DealContext
    from twentynine.analysis.positions import full_play_rules
    from twentynine.analysis.sampling import replay_actions
    from twentynine.replay import replay_deal

    final = replay_deal(rules, deal, number)
    outcome = final.outcome
    view = final.seat_view()
    if outcome is None or outcome.made is None or view.single is not None or view.target is None:
        return None
    trump_at = next((i for i, a in enumerate(deal.actions) if a.type == "trump"), None)
    if trump_at is None:
        return None
    choice = deal.actions[trump_at]
    hands = deal.hands or {}
    if None in list(hands.get(choice.seat, [None]))[:4]:
        return None
    context = DealContext(match_id, full_play_rules(rules), deal, number, samples, seed)
    values: list[int] = []
    for k in range(samples):
        layout = context.layout(trump_at, choice.seat, k)
        if layout is None:
            continue
        state = replay_actions(context.rules, deal, layout.hands, [*layout.actions, choice])
        value = contract_value(state)
        if value is not None:
            values.append(value)
    if not values:
        return None
    return CallerRecord(view.target, bool(outcome.made), tuple(values))


def predicted(record: CallerRecord, model: Model = CALIBRATION) -> float:
    """The make-probability the record's layouts give its call."""
    ps = [made_probability(v, record.target, model) for v in record.values]
    return sum(ps) / len(ps)


def _normal_cdf(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Phi, vectorised (Abramowitz and Stegun 7.1.26: within 1.5e-7 of ``math.erf``'s)."""
    z = np.abs(x) / math.sqrt(2.0)
    t = 1.0 / (1.0 + 0.3275911 * z)
    poly = t * (
        0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))
    )
    erf = 1.0 - poly * np.exp(-z * z)
    return np.asarray(0.5 * (1.0 + np.sign(x) * erf), dtype=np.float64)


class _Columns(NamedTuple):
    """The records as arrays: one row a layout, and the call each belongs to."""

    margin: npt.NDArray[np.float64]  # value - target + 0.5
    level: npt.NDArray[np.float64]  # target - LEVEL_BASE
    call: npt.NDArray[np.intp]
    made: npt.NDArray[np.float64]
    layouts: npt.NDArray[np.float64]


def _columns(records: Sequence[CallerRecord]) -> _Columns:
    return _Columns(
        np.array([v - r.target + 0.5 for r in records for v in r.values], dtype=np.float64),
        np.array([r.target - LEVEL_BASE for r in records for _ in r.values], dtype=np.float64),
        np.array([i for i, r in enumerate(records) for _ in r.values], dtype=np.intp),
        np.array([float(r.made) for r in records], dtype=np.float64),
        np.array([len(r.values) for r in records], dtype=np.float64),
    )


def _probabilities(cols: _Columns, model: Model) -> npt.NDArray[np.float64]:
    """Each call's predicted make-probability under ``model`` (clipped off 0 and 1)."""
    if math.isinf(model.slope):
        per_layout = (cols.margin > 0).astype(np.float64)
    else:
        z = model.intercept + model.slope * cols.margin + model.level_slope * cols.level
        per_layout = _normal_cdf(z)
    total = np.bincount(cols.call, weights=per_layout, minlength=len(cols.made))
    return np.asarray(np.clip(total / cols.layouts, 1e-3, 1 - 1e-3), dtype=np.float64)


def call_log_losses(
    records: Sequence[CallerRecord], model: Model = CALIBRATION
) -> npt.NDArray[np.float64]:
    """Each call's negative log-likelihood of its real outcome under ``model`` (a prediction
    of 0 or 1 counts as 0.001 or 0.999).

    >>> made = [CallerRecord(18, True, (20,)), CallerRecord(18, False, (12,))]
    >>> call_log_losses(made, DOUBLE_DUMMY).round(4).tolist()
    [0.001, 0.001]
    """
    cols = _columns(records)
    p = _probabilities(cols, model)
    return np.asarray(-(cols.made * np.log(p) + (1 - cols.made) * np.log(1 - p)))


def log_loss(records: Sequence[CallerRecord], model: Model = CALIBRATION) -> float:
    """The mean of :func:`call_log_losses` (lower is better; 0.693 is a coin's).

    >>> log_loss([CallerRecord(18, True, (20,)), CallerRecord(18, False, (12,))], Model(0, 0))
    0.6931471805599453
    """
    return float(np.mean(call_log_losses(records, model)))


def brier(records: Sequence[CallerRecord], model: Model = CALIBRATION) -> float:
    """The mean squared difference between the predicted probability and the outcome (0 or 1).

    >>> brier([CallerRecord(18, True, (20, 10))], DOUBLE_DUMMY)
    0.25
    """
    cols = _columns(records)
    p = _probabilities(cols, model)
    return float(np.mean((p - cols.made) ** 2))


def fit(records: Sequence[CallerRecord], *, level: bool = False) -> Model:
    """The constants that make the real outcomes likeliest: a coarse grid (intercept -3 to
    3, slope 0 to 3 per card point, and with ``level`` a level slope of -1 to 1 per bid
    point), then finer grids around the best point (a slope of 0 is the base rate alone).

    >>> made = [CallerRecord(18, v - 3 >= 18, (v,)) for v in range(12, 29)]
    >>> model = fit(made)  # made from 21 on: the margin is 3.5 and more
    >>> model.slope > 1 and 2.5 < -model.intercept / model.slope < 3.5
    True
    """
    cols = _columns(records)

    def score(model: Model) -> float:
        p = _probabilities(cols, model)
        return float(np.sum(cols.made * np.log(p) + (1 - cols.made) * np.log(1 - p)))

    intercepts = np.linspace(-3.0, 3.0, 25)
    slopes = np.concatenate(([0.0], np.geomspace(0.005, 3.0, 24)))
    levels = np.linspace(-1.0, 1.0, 21) if level else np.zeros(1)
    best = max(
        (Model(float(a), float(b), float(c)) for a in intercepts for b in slopes for c in levels),
        key=score,
    )
    steps = (0.25, 0.01 + best.slope / 2, 0.1 if level else 0.0)
    for _ in range(8):  # each round: a 5-point grid a side, half as wide
        steps = (steps[0] / 2, steps[1] / 2, steps[2] / 2)
        candidates = [
            Model(
                best.intercept + i * steps[0],
                max(best.slope + j * steps[1], 0.0),
                best.level_slope + k * steps[2],
            )
            for i in range(-2, 3)
            for j in range(-2, 3)
            for k in range(-2, 3)
        ]
        best = max(candidates, key=score)
    return Model(round(best.intercept, 4), round(best.slope, 4), round(best.level_slope, 4))
