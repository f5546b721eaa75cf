"""From double-dummy values to make-probabilities a real table bears out.

Double dummy is too sure of itself: with every card known the play never guesses. On the
Bhoos archive, calls that double dummy makes 80 to 100% of the time from the caller's four
cards were made 52% of the time, and those it makes under 20% of the time, 58%. The
correction is a shift and a spread of the caller's side's value: on a sampled layout
whose double-dummy value is ``v``, a call of ``target`` is made with probability
``Phi((v - SHIFT - target + 0.5) / SPREAD)``. ``SHIFT`` (card points double dummy gives
the caller too many) and ``SPREAD`` (how far a real result strays from double dummy) were
fitted by maximum likelihood on the real outcomes of the Bhoos archive by
``bench/calibrate.py``; docs/analysis.md gives the method and the figures before and after.

>>> made_probability(20, 18, shift=0.0, spread=0.0), made_probability(17, 18, shift=0, spread=0)
(1.0, 0.0)
>>> 0.0 < made_probability(20, 18) < 1.0
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final, NamedTuple

from schema.log import Deal
from schema.rules import Rules

SHIFT: Final = -0.25
"""Card points double dummy gives the caller's side beyond what a real table takes (fitted:
about none on average, see docs/analysis.md)."""
SPREAD: Final = 10.0
"""The spread (card points) of a real play's result around the shifted double-dummy value
(fitted: wide, so that a call judged from four cards is never near certain)."""


def made_probability(
    value: float, target: int, *, shift: float = SHIFT, spread: float = SPREAD
) -> float:
    """The calibrated probability that a caller's side with double-dummy value ``value`` on
    one layout makes ``target`` (``spread`` 0: the bare double-dummy answer, 0 or 1)."""
    margin = value - shift - target + 0.5
    if spread <= 0:
        return 1.0 if margin > 0 else 0.0
    return 0.5 * (1.0 + math.erf(margin / (spread * math.sqrt(2.0))))


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

    >>> from replay import random_match
    >>> from schema import Rules
    >>> log = random_match(Rules.preset("pagat"), seed=1)
    >>> record = caller_record(log.resolved_rules(), log.deals[0], 1, samples=2)
    >>> record is None or len(record.values) <= 2
    True
    """
    from analysis.auction import contract_value
    from analysis.judging import DealContext
    from analysis.positions import full_play_rules
    from analysis.sampling import replay_actions
    from replay import replay_deal

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


def predicted(record: CallerRecord, shift: float = SHIFT, spread: float = SPREAD) -> float:
    """The make-probability the records' layouts give its call."""
    ps = [made_probability(v, record.target, shift=shift, spread=spread) for v in record.values]
    return sum(ps) / len(ps)


def fit(records: Sequence[CallerRecord]) -> tuple[float, float]:
    """The shift (-2 to 8) and spread (0.25 to 20) that make the real outcomes likeliest, on
    a grid 0.25 apart.

    >>> made = [CallerRecord(18, v - 3 >= 18, (v,)) for v in range(12, 29)]
    >>> fit(made)  # made from 21 on: double dummy gives 3 points too many, nothing random
    (3.0, 0.25)
    """
    best = (0.0, 0.0)
    best_score = -math.inf
    for i in range(-8, 33):
        shift = i * 0.25
        for j in range(1, 81):
            spread = j * 0.25
            score = 0.0
            for record in records:
                p = min(max(predicted(record, shift, spread), 1e-6), 1 - 1e-6)
                score += math.log(p if record.made else 1 - p)
            if score > best_score:
                best, best_score = (shift, spread), score
    return best
