"""Comparing a decision's alternatives on the same sampled layouts, and labelling the result.

Sample ``k`` of a decision comes from its own seeded generator (:func:`sample_rng`), so
adding samples keeps the first ones, and the same seed gives the same annotations on any
executor. Alternatives are compared on the same layouts (common random numbers): their
difference is measured far more precisely than each value alone.

>>> verdict = judge(lambda k: {"a": (1.0, 0.0), "b": (float(k % 2), 0.0)}, "b", 8)
>>> verdict.best, verdict.loss, verdict.samples  # 20 to settle it, 20 more to check it
('a', 0.5, 40)
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Sequence
from typing import NamedTuple

from twentynine.analysis.annotate import Alternative, Annotation, detail_json
from twentynine.analysis.labels import (
    MAX_HALF_WIDTH,
    MIN_LABEL_SAMPLES,
    THRESHOLDS,
    best_mark,
    estimate,
    label_of,
)
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

PRECISE_CAP = 160
"""A label judged by play-outs (``precise``) may draw up to this many samples in each of its
two sets, whatever the starting samples: 320 layouts know a make-chance within 0.055 at
worst (a layout's value varies by at most 0.25), under the 0.06 the label needs."""

Outcome = dict[str, tuple[float, float]]
"""Per alternative, on one layout: (the value judged, the value that breaks ties)."""


class Judgement(NamedTuple):
    """Alternatives compared on the same samples (``samples`` None: judged by a fitted
    model, nothing sampled; its intervals are the model's). ``agreed`` False: two
    independent sets of samples disagreed on the verdict, so it gets no label; ``halves``
    each set's best choice, label and samples where two were drawn; ``edge`` the best
    choice's gain over the runner-up (its name, the mean and the 95% interval)."""

    chosen: str
    best: str
    means: dict[str, tuple[float, float]]
    intervals: dict[str, tuple[float, float]]
    loss: float
    low: float
    high: float
    samples: int | None
    agreed: bool = True
    halves: tuple[tuple[str, str | None, int], ...] = ()
    edge: tuple[str, float, float, float] | None = None


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
    precise: bool = False,
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

    A verdict that would carry a label is then drawn again on a second, independent set of
    as many samples (``draw(k)`` from ``k`` = the cap on, past any the first set may take),
    and labelled only when both sets agree (:func:`agreement`); while they do not, both sets
    double, up to the cap each. The verdict returned rests on both sets together.
    ``precise`` (play-outs): the make-chance of the choice made and of the best must be
    known within :data:`~analysis.labels.MAX_HALF_WIDTH` too, the cap at least
    :data:`PRECISE_CAP`.

    ``draw(k)`` gives each alternative's values on layout ``k`` (None: no layout found).

    >>> third = lambda k: {"a": (float(k % 3 == 0), 0.0), "b": (0.0, 0.0)}  # "b" loses 1/3
    >>> judge(third, "b", 8).samples, judge(third, "b", 8, cap_factor=8, until_settled=True).samples
    (32, 128)
    """
    cap = samples * cap_factor
    first = _first_set(draw, chosen, samples, cap, scale, until_settled)
    if first is None:
        return None
    outcomes, drawn = first
    result = _compare(outcomes, chosen)
    if label_of(result.loss, result.low, result.high, scale, result.samples) is None:
        return result
    limit = max(cap, PRECISE_CAP) if precise else cap
    return _agreed(draw, chosen, outcomes, drawn, limit, scale, precise)


def _first_set(
    draw: Callable[[int], Outcome | None],
    chosen: str,
    samples: int,
    cap: int,
    scale: float,
    until_settled: bool,
) -> tuple[list[Outcome], int] | None:
    """The first set of samples :func:`judge` draws, and how many draws it took."""
    outcomes: list[Outcome] = []
    k = 0
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
        undecided = could_label(result, k, cap, scale)
        if settled(result, scale) and not undecided:
            return outcomes, k
        if looks or (until_settled and k < cap):
            continue
        if k >= cap or not (undecided or worth_more_samples(result, k, cap, scale)):
            return outcomes, k


def _agreed(
    draw: Callable[[int], Outcome | None],
    chosen: str,
    first: list[Outcome],
    drawn: int,
    cap: int,
    scale: float,
    precise: bool,
) -> Judgement:
    """The verdict on ``first`` (``drawn`` draws) and a second set drawn from ``cap`` on,
    both doubled while they disagree and more could settle it, up to ``cap`` each."""
    one, two = list(first), list[Outcome]()
    taken = [drawn, 0]
    size = drawn
    while True:
        for which, found, offset in ((0, one, 0), (1, two, cap)):
            while taken[which] < size:
                outcome = draw(offset + taken[which])
                taken[which] += 1
                if outcome is not None and chosen in outcome:
                    found.append(outcome)
        verdict, doubt = agreement(one, two, chosen, scale, precise)
        if verdict.agreed or not doubt or size >= cap:
            return verdict
        size = min(2 * size, cap)


def agreement(
    one: Sequence[Outcome],
    two: Sequence[Outcome],
    chosen: str,
    scale: float = 1.0,
    precise: bool = False,
) -> tuple[Judgement, bool]:
    """The verdict on two independent sets of samples together, ``agreed`` only when each
    set alone names the same best choice and a label, the two labels within one step, and
    both together a label (``precise``: the make-chance of the choice made and of the best
    each known within :data:`~analysis.labels.MAX_HALF_WIDTH`); and whether more samples
    could still settle a disagreement (the loss of both together reaches the first
    threshold).

    >>> lose = {"a": (1.0, 0.0), "b": (0.0, 0.0)}  # "b" always loses to "a"
    >>> tie = {"a": (0.0, 0.0), "b": (0.0, 0.0)}
    >>> sure, _ = agreement([lose] * 16, [lose] * 16, "b")
    >>> sure.agreed, sure.halves
    (True, (('a', 'blunder', 16), ('a', 'blunder', 16)))
    >>> split, doubt = agreement([lose] * 16, [lose, tie] * 8, "b")  # 1 against 0.5
    >>> split.agreed, [label for _, label, _ in split.halves], doubt
    (True, ['blunder', 'blunder'], True)
    >>> apart, doubt = agreement([lose] * 16, [tie] * 16, "b")  # the second set sees no loss
    >>> apart.agreed, apart.best, doubt
    (False, 'a', True)
    """
    both = _compare([*one, *two], chosen)
    if not one or not two:
        return both._replace(agreed=False), False
    halves = []
    parts = (_compare(one, chosen), _compare(two, chosen))
    for part in parts:
        label = label_of(part.loss, part.low, part.high, scale, part.samples)
        halves.append((part.best, label, part.samples or 0))
    (_, label_one, _), (_, label_two, _) = halves
    steps = [name for name, _ in THRESHOLDS]
    agreed = (
        _same_best(parts, both.best, THRESHOLDS[0][1] * scale)
        and label_one is not None
        and label_two is not None
        and abs(steps.index(label_one) - steps.index(label_two)) <= 1
        and label_of(both.loss, both.low, both.high, scale, both.samples) is not None
        and not (precise and not known_closely(both))
    )
    doubt = both.loss >= THRESHOLDS[0][1] * scale
    return both._replace(agreed=agreed, halves=tuple(halves)), doubt


def _same_best(parts: Sequence[Judgement], best: str, near: float) -> bool:
    """Whether the sets name the same best choice: the same one, or choices each set rates
    within ``near`` (the first threshold) of its own best, so that neither set would mark
    the other's best even an inaccuracy (bid 16 or bid 17 holding the four top trumps), and
    the pooled best among them."""
    bests = {part.best for part in parts}
    if best not in bests:
        return False
    return all(
        part.means[part.best][0] - part.means[other][0] < near
        for part in parts
        for other in bests
        if other in part.means
    )


def known_closely(verdict: Judgement) -> bool:
    """Whether the values of the choice made and of the best are each known within
    :data:`~analysis.labels.MAX_HALF_WIDTH` (half their 95% interval's width), on enough
    samples that an interval of no width means it too: where every sample agrees, the 95%
    bound on the share that would not is 3 / samples (the rule of three).

    >>> close = Judgement("b", "a", {}, {"a": (0.5, 0.6), "b": (0.2, 0.3)}, 0.3, 0.2, 0.4, 99)
    >>> known_closely(close), known_closely(close._replace(intervals={"a": (0.4, 0.6)}))
    (True, False)
    >>> known_closely(close._replace(samples=20))  # 3 / 20 is more than 0.06
    False
    """
    if (verdict.samples or 0) * MAX_HALF_WIDTH < 3:
        return False
    for choice in (verdict.chosen, verdict.best):
        low, high = verdict.intervals.get(choice, (0.0, 1.0))
        if (high - low) / 2 > MAX_HALF_WIDTH + 1e-12:
            return False
    return True


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


def could_label(result: Judgement, drawn: int, cap: int, scale: float = 1.0) -> bool:
    """Whether a loss not yet confirmed could still be labelled by ``cap`` samples, or left
    unlabelled, as another seed's samples might find: the loss is at least half the first
    threshold (times ``scale``), the threshold is above the interval's low end, and the
    high end reaches it with room for the half-width at the cap. Such a decision draws on:
    stopping it early, on whichever side of the line the first samples happened to fall,
    is what made labels come and go with the seed.

    >>> near = Judgement("b", "a", {}, {}, 0.04, -0.02, 0.10, 32)  # under the line by chance?
    >>> small = Judgement("b", "a", {}, {}, 0.02, -0.06, 0.10, 32)
    >>> could_label(near, 32, 128), could_label(small, 32, 128)
    (True, False)
    """
    first = THRESHOLDS[0][1] * scale
    half = (result.high - result.low) / 2 * math.sqrt(drawn / cap)
    return result.loss >= first / 2 and result.low < first and result.high >= first + half


def _compare(outcomes: Sequence[Outcome], chosen: str) -> Judgement:
    choices = [c for c in outcomes[0] if all(c in o for o in outcomes)]
    n = len(outcomes)
    means = {
        c: (sum(o[c][0] for o in outcomes) / n, sum(o[c][1] for o in outcomes) / n) for c in choices
    }

    def order(c: str) -> tuple[float, float, bool]:
        return (round(means[c][0], 9), round(means[c][1], 9), c == chosen)

    best = max(choices, key=order)
    diffs = [o[best][0] - o[chosen][0] for o in outcomes]
    e = estimate(diffs)
    intervals = {}
    for c in choices:
        each = estimate([o[c][0] for o in outcomes])
        intervals[c] = (each.low, each.high)
    edge = None
    rest = [c for c in choices if c != best]
    if rest:
        runner = max(rest, key=order)
        gain = estimate([o[best][0] - o[runner][0] for o in outcomes])
        edge = (runner, gain.mean, gain.low, gain.high)
    return Judgement(chosen, best, means, intervals, e.mean, e.low, e.high, n, edge=edge)


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
    if verdict.halves:  # the two independent sets a label candidate was drawn on
        extra = {**extra, "halves": [list(h) for h in verdict.halves]}
    if verdict.best == verdict.chosen and verdict.edge is not None:
        runner, gain, low, high = verdict.edge
        extra = {
            **extra,
            "edge": {"over": runner, "gain": round(gain, 6), "ci_low": round(low, 6),
                     "ci_high": round(high, 6)},
        }  # fmt: skip
        if best_mark(low, scale):
            extra = {**extra, "sure_best": True}
    label = label_of(verdict.loss, verdict.low, verdict.high, scale, verdict.samples)
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
        label=label if verdict.agreed else None,
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
