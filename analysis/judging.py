"""Comparing a decision's alternatives on the same sampled layouts, and labelling the result.

Sample ``k`` of a decision comes from its own seeded generator (:func:`sample_rng`), so
adding samples keeps the first ones, and the same seed gives the same annotations on any
executor. Alternatives are compared on the same layouts (common random numbers): their
difference is measured far more precisely than each value alone.

>>> verdict = judge(lambda k: {"a": (1.0, 0.0), "b": (float(k % 2), 0.0)}, "b", 8)
>>> verdict.best, verdict.loss, verdict.samples  # 8 left the blunder line in doubt
('a', 0.5, 20)
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Sequence
from typing import NamedTuple

from twentynine.analysis.annotate import Alternative, Annotation, detail_json
from twentynine.analysis.labels import MIN_LABEL_SAMPLES, THRESHOLDS, estimate, label_of
from twentynine.analysis.models.contract import ContractModel
from twentynine.analysis.models.dealing import DealingModel, dealing_name, dealt_as
from twentynine.analysis.models.others import AuctionModel
from twentynine.analysis.models.others import shipped_model as shipped_others
from twentynine.analysis.models.table import TableModel
from twentynine.analysis.positions import Position
from twentynine.analysis.sampling import Layout, sample_layouts
from twentynine.schema.cards import Seat
from twentynine.schema.log import Deal
from twentynine.schema.rules import Rules

CAP_FACTOR = 4
"""A decision in doubt gets up to this many times the starting samples."""

Outcome = dict[str, tuple[float, float]]
"""Per alternative, on one layout: (the value judged, the value that breaks ties)."""


class Judgement(NamedTuple):
    """Alternatives compared on the same samples (``samples`` None: judged by a fitted
    model, nothing sampled; its intervals are the model's)."""

    chosen: str
    best: str
    means: dict[str, tuple[float, float]]
    intervals: dict[str, tuple[float, float]]
    loss: float
    low: float
    high: float
    samples: int | None


def sample_rng(
    seed: int, match_id: str, deal: int, action: int, seat: str, k: int
) -> random.Random:
    """The generator of sample ``k`` of one decision (stable across runs and machines).

    >>> sample_rng(0, "m", 1, 5, "N", 0).random() == sample_rng(0, "m", 1, 5, "N", 0).random()
    True
    """
    key = f"{seed}|{match_id}|{deal}|{action}|{seat}|{k}".encode()
    return random.Random(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))


def judge(
    draw: Callable[[int], Outcome | None],
    chosen: str,
    samples: int,
    *,
    scale: float = 1.0,
    cap_factor: int = CAP_FACTOR,
    until_settled: bool = False,
) -> Judgement | None:
    """Compare the alternatives over samples ``draw(0)``, ``draw(1)``, ...

    The first look comes after half of ``samples`` (at least :data:`MIN_LABEL_SAMPLES`):
    a loss whose label more samples could not raise is settled (:func:`settled`: no label
    threshold, times ``scale``, lies between the interval's low end and the loss).
    Otherwise samples are added up to ``samples``, then half as many again at a time while
    the low end could still reach the next threshold by the cap (:func:`worth_more_samples`),
    up to ``cap_factor`` times ``samples``: the samples go to the decisions near a
    threshold. ``until_settled``: past ``samples`` the count doubles at each look while the
    label is in doubt (a threshold between the low end and the loss), up to the cap; fewer
    looks than adding half at a time, so a label found by looking again is rarer by chance.

    ``draw(k)`` gives each alternative's values on layout ``k`` (None: no layout found).

    >>> third = lambda k: {"a": (float(k % 3 == 0), 0.0), "b": (0.0, 0.0)}  # "b" loses 1/3
    >>> judge(third, "b", 8).samples, judge(third, "b", 8, cap_factor=8, until_settled=True).samples
    (16, 64)
    """
    outcomes: list[Outcome] = []
    k = 0
    cap = samples * cap_factor
    looks = sorted({min(samples, max(MIN_LABEL_SAMPLES, samples // 2)), samples})
    while True:
        if looks:
            goal = looks.pop(0)
        else:
            goal = min(2 * k, cap) if until_settled else k + max(1, samples // 2)
        while k < goal:
            outcome = draw(k)
            k += 1
            if outcome is not None and chosen in outcome:
                outcomes.append(outcome)
        if not outcomes:
            if looks:
                continue
            return None
        result = _compare(outcomes, chosen)
        if settled(result, scale):
            return result
        if looks or (until_settled and k < cap):
            continue
        if k >= cap or not worth_more_samples(result, k, cap, scale):
            return result


def confirmed(verdict: Judgement, draw: Callable[[int], Outcome | None], samples: int) -> Judgement:
    """``verdict`` measured again on as many fresh samples (``draw(k)`` from
    ``k = samples * CAP_FACTOR`` on, past any sample :func:`judge` may draw): the loss, its
    interval and so its label, and the values shown, each alternative's mean and interval,
    all from the fresh samples; the best choice kept as the first samples picked it.

    Picking the best of several choices by their sample means favours whichever the noise
    flattered most (the winner's curse): on the Bhoos archive, trump choices the first
    samples preferred by less than a label lost 15 points of make-rate when both suits were
    played out on the real deals. Measured on samples that took no part in the pick, the
    gain is an honest estimate, and a note shows the figures its label rests on. A best
    choice no better than the one made on the fresh samples has a loss of 0 and no label.

    >>> flip = lambda k: {"a": (float(k % 2), 0.0), "b": (0.5, 0.0)}  # "a" no better than "b"
    >>> picked = Judgement("b", "a", {"a": (0.6, 0.0), "b": (0.5, 0.0)}, {}, 0.1, 0.05, 0.15, 8)
    >>> again = confirmed(picked, flip, 8)
    >>> again.best, round(again.loss, 6), again.samples, again.means["a"]
    ('a', 0.0, 8, (0.5, 0.0))
    """
    if verdict.best == verdict.chosen or not verdict.samples:
        return verdict
    start = samples * CAP_FACTOR
    fresh: list[Outcome] = []
    for k in range(start, start + verdict.samples):
        outcome = draw(k)
        if outcome is not None and verdict.chosen in outcome and verdict.best in outcome:
            fresh.append(outcome)
    if not fresh:
        return verdict._replace(loss=0.0, low=0.0, high=0.0)
    again = _compare(fresh, verdict.chosen, verdict.best)
    return again._replace(loss=max(again.loss, 0.0))


def settled(result: Judgement, scale: float = 1.0) -> bool:
    """Whether more samples could not change the label but by moving the loss itself: no
    label threshold (times ``scale``) lies between the interval's low end and the loss
    (the label reads the thresholds each of them reaches, :func:`analysis.labels.label_of`).

    >>> settled(Judgement("b", "a", {}, {}, 0.3, 0.27, 0.33, 32))  # a blunder, confirmed
    True
    >>> settled(Judgement("b", "a", {}, {}, 0.13, 0.03, 0.23, 32))  # no loss confirmed yet
    False
    >>> settled(Judgement("b", "a", {}, {}, 0.03, -0.02, 0.08, 32))  # below every line
    True
    """
    return not any(result.low < t * scale <= result.loss for _, t in THRESHOLDS)


def worth_more_samples(result: Judgement, drawn: int, cap: int, scale: float = 1.0) -> bool:
    """Whether the interval's low end, below a threshold the loss reaches after ``drawn``
    samples, could reach the next threshold above its label by ``cap`` samples: the
    half-width shrinks as the square root of the samples.

    >>> near = Judgement("b", "a", {}, {}, 0.06, -0.04, 0.16, 32)  # 0.01 over the 0.05 line
    >>> far = Judgement("b", "a", {}, {}, 0.18, 0.08, 0.28, 32)  # 0.06 over the 0.12 line
    >>> worth_more_samples(near, 32, 128), worth_more_samples(far, 32, 128)  # width 0.05 then
    (False, True)
    """
    half = (result.high - result.low) / 2 * math.sqrt(drawn / cap)
    above = [t * scale for _, t in THRESHOLDS if result.low < t * scale <= result.loss]
    return bool(above) and result.loss - half >= above[0]


def _compare(outcomes: Sequence[Outcome], chosen: str, best: str | None = None) -> Judgement:
    """The alternatives' means on ``outcomes``, the best among them (``best``: this one,
    as picked elsewhere) and its gain over ``chosen``."""
    choices = [c for c in outcomes[0] if all(c in o for o in outcomes)]
    n = len(outcomes)
    means = {
        c: (sum(o[c][0] for o in outcomes) / n, sum(o[c][1] for o in outcomes) / n) for c in choices
    }
    if best is None:
        best = max(
            choices, key=lambda c: (round(means[c][0], 9), round(means[c][1], 9), c == chosen)
        )
    diffs = [o[best][0] - o[chosen][0] for o in outcomes]
    e = estimate(diffs)
    intervals = {}
    for c in choices:
        each = estimate([o[c][0] for o in outcomes])
        intervals[c] = (each.low, each.high)
    return Judgement(chosen, best, means, intervals, e.mean, e.low, e.high, n)


def make_annotation(
    match_id: str,
    number: int,
    pos: Position,
    kind: str,
    unit: str,
    verdict: Judgement,
    seed: int,
    scale: float = 1.0,
    **extra: object,
) -> Annotation:
    """The record of a sampled judgement; ``extra`` goes into ``detail`` beside the
    alternatives (each with its 95% interval) and ``secondary``, each alternative's
    tie-breaking value. The explanation is written by :func:`analysis.judge.words.tell`."""
    alternatives = sorted(
        (
            Alternative(c, round(v[0], 6), *(round(x, 6) for x in verdict.intervals[c]))
            for c, v in verdict.means.items()
        ),
        key=lambda a: -a.value,
    )
    secondary = {c: round(v[1], 6) for c, v in verdict.means.items()}
    return Annotation(
        match_id=match_id,
        deal=number,
        action=pos.at,
        seat=pos.action.seat.value,
        kind=kind,
        method="sampled",
        chosen=verdict.chosen,
        best=verdict.best,
        value_chosen=round(verdict.means[verdict.chosen][0], 6),
        value_best=round(verdict.means[verdict.best][0], 6),
        loss=round(max(verdict.loss, 0.0), 6),
        unit=unit,
        samples=verdict.samples,
        ci_low=round(verdict.low, 6),
        ci_high=round(verdict.high, 6),
        label=label_of(verdict.loss, verdict.low, verdict.high, scale, verdict.samples),
        explanation="",
        detail=detail_json(alternatives, secondary=secondary, **extra),
        seed=seed,
    )


def seat_has_cards(deal: Deal, pos: Position) -> bool:
    hands = deal.hands or {}
    return None not in hands.get(pos.action.seat, [None])


class DealContext(NamedTuple):
    """One deal under analysis: what every decision of it needs to draw its samples."""

    match_id: str
    rules: Rules
    deal: Deal
    number: int
    samples: int
    seed: int
    model: ContractModel | None = None
    """The contract model the bids are judged by (None: the shipped one)."""
    auction_model: AuctionModel | None = None
    """The model of the others' calls (None: the shipped one)."""
    dealing: DealingModel | None = None
    """The dealing asked for (None: a fair shuffle; ``analyze --dealing server``: the
    server's, for a game under its rules, :func:`~analysis.models.dealing.dealt_as`)."""
    table: TableModel | None = None
    """The correction of a contract's chance by the others' cards that the bids' layouts
    deal (None: the shipped one)."""

    @property
    def dealt_as(self) -> DealingModel | None:
        """The dealing the layouts follow (None: a fair shuffle)."""
        return dealt_as(self.dealing, self.rules)

    @property
    def others(self) -> AuctionModel:
        """The model of the calls this deal's layouts and auction runs follow."""
        return self.auction_model or shipped_others()

    def note(
        self,
        pos: Position,
        kind: str,
        unit: str,
        verdict: Judgement,
        scale: float = 1.0,
        *,
        blind: bool = False,
        **extra: object,
    ) -> Annotation:
        """:func:`make_annotation` for a decision of this deal; its ``detail`` names the
        model of the calls (``others``) the layouts were drawn with, and their dealing
        (``dealing``: ``fair``, or the server's version where they were dealt as a server
        deals; ``blind``: the layouts were :meth:`layout`'s blind ones, dealt fairly)."""
        extra = {**extra, "dealing": dealing_name(None if blind else self.dealt_as)}
        return make_annotation(
            self.match_id,
            self.number,
            pos,
            kind,
            unit,
            verdict,
            self.seed,
            scale,
            **extra,
            others=self.others.version,
        )

    def layout(
        self, index: int, seat: Seat, k: int, *, keep_doubling: bool = False, blind: bool = False
    ) -> Layout | None:
        """Layout ``k`` of ``seat``'s view before action ``index`` (None: none found), the
        others' first four cards drawn as their calls say (the model of the calls), dealt as
        the server deals (:attr:`dealt_as`); ``blind``: a fair shuffle of the unseen cards,
        the calls unread (what the bids are judged on: docs/analysis.md says why)."""
        rng = sample_rng(self.seed, self.match_id, self.number, index, seat.value, k)
        found = sample_layouts(
            self.rules,
            self.deal,
            self.number,
            index,
            seat,
            rng,
            1,
            keep_doubling=keep_doubling,
            auction=None if blind else self.others,
            dealing=None if blind else self.dealt_as,
        )
        return found[0] if found else None
