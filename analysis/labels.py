"""Labels in the manner of lichess, and the sampling interval they must clear.

A sampled decision's loss is the make-probability (the chance the deciding side reaches its
goal: the caller's side makes the contract, the defenders beat it) the best alternative had
over the choice made, measured on the same samples. Its 95% interval comes from the
per-sample differences (a paired comparison: common random numbers). A decision is
labelled only when the whole interval clears the first threshold: the sampling confirms a
loss. The label is then the highest threshold the loss reaches, at most one above the
highest the whole interval clears (while the interval straddles a threshold, more samples
are drawn first, up to a cap).

>>> label_of(0.30, 0.27, 0.33), label_of(0.13, 0.10, 0.16), label_of(0.30, 0.06, 0.54)
('blunder', 'mistake', 'mistake')
>>> label_of(0.13, 0.03, 0.23), label_of(0.02, 0.0, 0.04)  # no loss confirmed
(None, None)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final, NamedTuple

THRESHOLDS: Final[tuple[tuple[str, float], ...]] = (
    ("inaccuracy", 0.05),
    ("mistake", 0.12),
    ("blunder", 0.25),
)
"""Make-probability lost at which each label starts (docs/analysis.md says why these)."""

GAME_POINT_SCALE: Final = 2.0
"""Game points lost per unit of make-probability lost at stake 1 (a made call wins the
stake, a failed one loses it): labels of decisions judged in game points use the thresholds
times this."""

Z95: Final = 1.959964
MIN_LABEL_SAMPLES: Final = 8
"""Fewer samples than this give no label: their interval is not worth trusting."""


MAX_HALF_WIDTH: Final = 0.06
"""A label judged by play-outs (the trump choice, the shows) needs the make-chance of the
choice made and of the best each known within this (half their 95% interval's width)."""


def best_mark(gain_low: float, scale: float = 1.0) -> bool:
    """Whether a best choice earns "!": the low end of the 95% interval of its gain over
    the runner-up clears the first label threshold (times ``scale``), so the choice was
    surely better, not best by the noise of the samples.

    >>> best_mark(0.06), best_mark(0.02), best_mark(0.06, scale=2.0)
    (True, False, False)
    """
    return gain_low >= THRESHOLDS[0][1] * scale


class Estimate(NamedTuple):
    """A mean over samples with its 95% interval."""

    mean: float
    low: float
    high: float
    n: int


def estimate(values: Sequence[float]) -> Estimate:
    """Mean and normal-approximation 95% interval of ``values`` (one per sample).

    >>> e = estimate([1.0, 0.0, 1.0, 1.0])
    >>> round(e.mean, 2), round(e.low, 2), round(e.high, 2), e.n
    (0.75, 0.26, 1.24, 4)
    """
    n = len(values)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0)
    mean = sum(values) / n
    if n == 1:
        return Estimate(mean, mean, mean, 1)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, n)


def straddles(low: float, high: float, scale: float = 1.0) -> bool:
    """Whether the interval [low, high] has a label threshold (times ``scale``) strictly inside.

    >>> straddles(0.10, 0.14), straddles(0.13, 0.2)
    (True, False)
    """
    return any(low < t * scale < high for _, t in THRESHOLDS)


def label_of(
    loss: float, low: float, high: float, scale: float = 1.0, samples: int | None = None
) -> str | None:
    """The label of a loss with its interval (thresholds times ``scale``): none unless both
    the loss and the interval's low end reach the first threshold, or, given ``samples``,
    with fewer than :data:`MIN_LABEL_SAMPLES`; else the highest threshold the loss reaches,
    at most one above the highest both reach (a mistake is a confirmed inaccuracy whose
    loss is a mistake's)."""
    if samples is not None and samples < MIN_LABEL_SAMPLES:
        return None
    confirmed = sum(min(loss, low) >= threshold * scale for _, threshold in THRESHOLDS)
    if confirmed == 0:
        return None
    reached = sum(loss >= threshold * scale for _, threshold in THRESHOLDS)
    return THRESHOLDS[min(reached, confirmed + 1) - 1][0]
