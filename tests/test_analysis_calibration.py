"""The calibration's fit, on outcomes drawn from a known model (analysis/calibration.py)."""

from __future__ import annotations

import random

from twentynine.analysis.calibration import (
    BEFORE_REFIT,
    DOUBLE_DUMMY,
    CallerRecord,
    Model,
    brier,
    fit,
    log_loss,
    made_probability,
    predicted,
)

TRUE = Model(0.3, 0.15, -0.2)


def _records(model: Model, count: int, seed: int) -> list[CallerRecord]:
    """Calls of 16 to 19 with 4 layouts each, made with the probability ``model`` gives."""
    rng = random.Random(seed)
    records = []
    for _ in range(count):
        target = rng.randrange(16, 20)
        centre = target + rng.uniform(-8, 8)
        values = tuple(round(centre + rng.gauss(0, 3)) for _ in range(4))
        record = CallerRecord(target, False, values)
        records.append(record._replace(made=rng.random() < predicted(record, model)))
    return records


def test_the_fit_recovers_the_model_the_outcomes_were_drawn_from() -> None:
    records = _records(TRUE, 3000, seed=1)
    found = fit(records, level=True)
    assert abs(found.intercept - TRUE.intercept) < 0.15
    assert abs(found.slope - TRUE.slope) < 0.04
    assert abs(found.level_slope - TRUE.level_slope) < 0.08
    assert fit(records).level_slope == 0.0  # without the level term it stays out


def test_held_out_the_true_model_scores_best() -> None:
    train, test = _records(TRUE, 1500, seed=2), _records(TRUE, 1500, seed=3)
    fitted = fit(train, level=True)
    scores = {m: (log_loss(test, m), brier(test, m)) for m in (fitted, BEFORE_REFIT, DOUBLE_DUMMY)}
    assert scores[fitted][0] < scores[BEFORE_REFIT][0] < scores[DOUBLE_DUMMY][0]
    assert scores[fitted][1] < scores[BEFORE_REFIT][1]


def test_made_probability_rises_with_the_margin_and_falls_with_the_level() -> None:
    assert made_probability(25, 18) > made_probability(15, 18)
    assert made_probability(20, 17) > made_probability(21, 18)  # same margin, higher call
    assert made_probability(18, 18, DOUBLE_DUMMY) == 1.0
    assert made_probability(17, 18, DOUBLE_DUMMY) == 0.0
