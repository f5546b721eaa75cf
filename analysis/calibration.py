"""From double-dummy values to make-probabilities a real table bears out.

Double dummy overrates the caller: with every card known the play never guesses, and real
calls of 16 to 19 are made 55 to 61% of the time where double dummy says more. The
correction is a shift and a spread of the caller's side's value: on a sampled layout
whose double-dummy value is ``v``, a call of ``target`` is made with probability
``Phi((v - SHIFT - target + 0.5) / SPREAD)``. ``SHIFT`` (card points double dummy gives
the caller too many) and ``SPREAD`` (how far a real play strays from double dummy) were
fitted by maximum likelihood on the real outcomes of the Bhoos archive by
``bench/calibrate.py``; docs/analysis.md gives the method and the figures before and after.

>>> made_probability(20, 18, shift=0.0, spread=0.0), made_probability(17, 18, shift=0.0, spread=0.0)
(1.0, 0.0)
>>> 0.0 < made_probability(20, 18) < 1.0
True
"""

from __future__ import annotations

import math
from typing import Final

SHIFT: Final = 2.0
"""Card points double dummy gives the caller's side beyond what a real table takes."""
SPREAD: Final = 3.0
"""The spread (card points) of a real play's result around the shifted double-dummy value."""


def made_probability(
    value: float, target: int, *, shift: float = SHIFT, spread: float = SPREAD
) -> float:
    """The calibrated probability that a caller's side with double-dummy value ``value`` on
    one layout makes ``target`` (``spread`` 0: the bare double-dummy answer, 0 or 1)."""
    margin = value - shift - target + 0.5
    if spread <= 0:
        return 1.0 if margin > 0 else 0.0
    return 0.5 * (1.0 + math.erf(margin / (spread * math.sqrt(2.0))))
