"""The analysis' annotations as a review shows them: marks, what a move changed, which
judgement is which, the values of every legal card, the summaries per seat.

The annotations are consumed as stored (labels, values, explanations: ``analysis.annotate``);
this module only reads them. A mark is lichess's: ``?!`` inaccuracy, ``?`` mistake, ``??``
blunder, and ``!`` for a best move surely better than the next (judged on samples).

>>> from twentynine.analysis.annotate import Annotation
>>> note = Annotation("m", 1, 9, "N", "card", "exact", "TD", "JD", 14.0, 16.0, 2.0,
...     "card_points", None, None, None, "blunder", "", '{"alternatives": []}', 0)
>>> MARKS[note.label], changed_words(note, target=16, caller=Team.NS, total=28)
('??', 'crossed the target: the call can no longer be made with best play (NS keep 14, 16 needed)')
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from twentynine.analysis.annotate import Annotation, choice_words
from twentynine.analysis.hindsight import hindsight_deal
from twentynine.analysis.labels import GAME_POINT_SCALE, MIN_LABEL_SAMPLES, THRESHOLDS
from twentynine.analysis.positions import UNREAL_FINDINGS, all_hands_known
from twentynine.replay import AuditedMatch, DealFacts, Finding
from twentynine.schema.cards import Seat, Team
from twentynine.schema.log import MatchLog, PlayAction

LABELS: Final[tuple[str, ...]] = ("inaccuracy", "mistake", "blunder")
"""The labels, mildest first (``analysis.labels``)."""

MARKS: Final[dict[str, str]] = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""Each label's mark, as lichess writes it."""

BEST_MARK: Final = "!"
"""The mark of a best move surely better than the next best (:func:`surely_best`)."""

_EPSILON: Final = 1e-9


def method_words(method: str) -> str:
    """How a note was judged, in words: with all cards known, or fairly from what the seat
    knew (by sampling the unseen cards).

    >>> method_words("exact"), method_words("sampled")
    ('exact, all cards known', 'fair, sampled')
    """
    return "exact, all cards known" if method == "exact" else "fair, sampled"


def most_severe(marks: Iterable[str]) -> str:
    """The most severe of some marks (``??`` first, ``!`` last; empty for none).

    >>> most_severe(["!", "?!", "?"]), most_severe([])
    ('?', '')
    """
    order = ("", BEST_MARK, *MARKS.values())
    return max(marks, key=order.index, default="")


def alternatives(note: Annotation) -> list[tuple[str, float]]:
    """The choices a note compared, with their values (``detail``'s ``alternatives``), best
    first; none when the detail holds none.

    >>> from twentynine.analysis.annotate import Annotation
    >>> note = Annotation("m", 1, 9, "N", "card", "exact", "TD", "TD", 9.0, 9.0, 0.0,
    ...     "card_points", None, None, None, None, "", '{"alternatives": '
    ...     '[{"choice": "TD", "value": 9.0}, {"choice": "7D", "value": 7.0}]}', 0)
    >>> alternatives(note)
    [('TD', 9.0), ('7D', 7.0)]
    """
    try:
        found = json.loads(note.detail).get("alternatives", [])
        return [(str(a["choice"]), float(a["value"])) for a in found]
    except (ValueError, TypeError, KeyError, AttributeError):
        return []


def is_best(note: Annotation) -> bool:
    """Whether the choice made was a best one: nothing lost, and no other choice named best
    (a best the first samples picked and the fresh ones did not confirm is not the choice
    made, though nothing was lost)."""
    return note.loss <= _EPSILON and note.best == note.chosen


def is_forced(note: Annotation) -> bool:
    """Whether the choice had no real alternative: one choice, or all of equal value (a
    choice that lost something had one, whatever its detail says)."""
    if not is_best(note):
        return False
    values = [value for _, value in alternatives(note)]
    return len(values) < 2 or max(values) - min(values) <= _EPSILON


def surely_best(note: Annotation) -> bool:
    """Whether a note's choice earns ``!``: judged on samples, best, and the 95% interval of
    its gain over the runner-up wholly past the first label threshold (``sure_best`` in its
    ``detail``: ``analysis.labels.best_mark``). A note with all cards known never does, as
    it never carries a label."""
    if note.method != "sampled" or not is_best(note):
        return False
    try:
        return json.loads(note.detail).get("sure_best") is True
    except (ValueError, AttributeError):
        return False


def note_mark(note: Annotation) -> str:
    """A note's own mark: its label's, ``!`` for a best move surely better than the
    runner-up (:func:`surely_best`), or none."""
    if note.label in MARKS:
        return MARKS[note.label]
    return BEST_MARK if surely_best(note) else ""


def worst_label(notes: Iterable[Annotation]) -> str | None:
    """The most severe label among ``notes`` (None without one)."""
    found = [LABELS.index(n.label) for n in notes if n.label in LABELS]
    return LABELS[max(found)] if found else None


def decision_mark(notes: Sequence[Annotation]) -> str:
    """The mark of one decision judged by one or more notes (a show is judged twice: with
    all cards known and from what the seat knew): the worst label's, else ``!`` when a
    note judged on samples finds it surely best (:func:`surely_best`)."""
    label = worst_label(notes)
    if label is not None:
        return MARKS[label]
    if any(surely_best(n) for n in notes):
        return BEST_MARK
    return ""


def changed_words(note: Annotation, *, target: int | None, caller: Team | None, total: int) -> str:
    """What a choice that lost something changed, in a player's words: whether it crossed the
    target (exact card points), the chance to make or to beat the call it cost (fair), or the
    game points (bids, doubles); empty when it lost nothing."""
    if note.loss <= _EPSILON or note.seat is None or note.kind == "par":
        return ""
    side = Seat(note.seat).team
    if note.unit == "make_probability":
        aim = "make the call" if side is caller else "beat the call"
        return f"{round(note.loss * 100)}% less chance to {aim}"
    if note.unit == "game_points":
        return f"{note.loss:.2f} game points fewer on average"
    kept, best = round(note.value_chosen), round(note.value_best)
    if target is None or caller is None:
        return f"{side.value} keep {kept} card points with best play, not {best}"
    goal = target if side is caller else total - target + 1
    what = "the call" if side is caller else "stopping the call"
    if best >= goal > kept:
        if side is caller:
            return (
                "crossed the target: the call can no longer be made with best play "
                f"({side.value} keep {kept}, {goal} needed)"
            )
        return (
            f"crossed the target: {caller.value} can now make the call with best play "
            f"({side.value} keep {kept}, {goal} needed to stop it)"
        )
    if best < goal:
        return (
            f"{what} was out of reach with best play anyway: {side.value} keep {kept}, not {best}"
        )
    return f"still enough for {what}: {side.value} keep {kept} of the {goal} needed, not {best}"


def stop_words(finding: Finding) -> str:
    """Why the analysis judges nothing from an unreal play on, said at its step.

    >>> stop_words(Finding("CARD_NOT_HELD", "error", 1, 22, "W played TS, which S holds"))[:40]
    'The analysis stops here: after CARD_NOT_'
    """
    why = (
        f"after {finding.code} the recorded play is no real deal (the solver and the engine "
        "would each judge another position)"
    )
    if finding.action is None:
        return f"The analysis judges nothing in this deal: {why}."
    return f"The analysis stops here: {why}, so neither this action nor any after it is judged."


def unreal_finding(findings: Iterable[Finding]) -> Finding | None:
    """The first finding that makes a deal's play unreal (``analysis.positions``)."""
    return next((f for f in findings if f.code in UNREAL_FINDINGS), None)


def kept_notes(notes: Sequence[Annotation], stop: Finding | None) -> list[Annotation]:
    """The notes a deal keeps: all, or those before the unreal play (none of the deal as a
    whole, whose figures reach past it)."""
    if stop is None:
        return list(notes)
    if stop.action is None:
        return []
    return [n for n in notes if n.action is not None and n.action < stop.action]


@dataclass(frozen=True, slots=True)
class Tally:
    """How many decisions of one kind a seat made, and where the first is: (deal, action)."""

    count: int
    first: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat's judged decisions: how many, each label's tally, the average card points
    lost per card judged with all cards known."""

    seat: str
    judged: Tally
    labels: tuple[Tally, ...]
    card_loss: float | None
    cards: int

    def as_data(self) -> dict[str, Any]:
        """The summary for the viewer's script (one deal's: the first of each by action)."""

        def tally(t: Tally) -> list[int | None]:
            return [t.count, t.first[1] if t.first is not None else None]

        return {
            "seat": self.seat,
            "judged": tally(self.judged),
            "labels": [tally(t) for t in self.labels],
            "loss": None if self.card_loss is None else round(self.card_loss, 2),
            "cards": self.cards,
        }


Decision = tuple[int, int, str, str]
"""A decision: its deal, action, seat and kind."""


def decisions(notes: Iterable[Annotation]) -> dict[Decision, list[Annotation]]:
    """The notes of each decision, in the notes' order; the deal's par left out."""
    found: dict[Decision, list[Annotation]] = {}
    for note in notes:
        if note.action is None or note.seat is None or note.kind == "par":
            continue
        found.setdefault((note.deal, note.action, note.seat, note.kind), []).append(note)
    return found


def seat_summaries(notes: Sequence[Annotation], seats: Sequence[str]) -> tuple[SeatSummary, ...]:
    """Per seat, its judged decisions among ``notes`` (of one deal or of a match)."""
    by_decision = decisions(notes)
    out = []
    for seat in seats:
        mine = sorted((d, k, ns) for (d, k, s, _), ns in by_decision.items() if s == seat)
        tallies = []
        for label in LABELS:
            at = [(d, k) for d, k, ns in mine if worst_label(ns) == label]
            tallies.append(Tally(len(at), at[0] if at else None))
        cards = [
            n.loss for n in notes if n.seat == seat and n.kind == "card" and n.method == "exact"
        ]
        out.append(
            SeatSummary(
                seat,
                Tally(len(mine), (mine[0][0], mine[0][1]) if mine else None),
                tuple(tallies),
                sum(cards) / len(cards) if cards else None,
                len(cards),
            )
        )
    return tuple(out)


def disagreement(notes: Sequence[Annotation], name: str) -> str:
    """When a decision judged with all cards known and from what the seat knew has two
    different best choices, which is which (and whose the mark is); else empty."""
    exact = [n for n in notes if n.method == "exact"]
    fair = [n for n in notes if n.method == "sampled"]
    if not exact or not fair or exact[0].best == fair[0].best:
        return ""
    label = worst_label(notes)
    whose = ""
    if label is not None:
        source = "fair" if worst_label(fair) == label else "exact"
        said = "from what the seat knew" if source == "fair" else "with all cards known"
        whose = f" The mark {MARKS[label]} is the judgement {said}."
    return (
        f"Two judgements of this {exact[0].kind.replace('_', ' ')}: with all cards known "
        f"(exact), {choice_words(exact[0].best)} was best; from what {name} could know "
        f"(fair, sampled), {choice_words(fair[0].best)} was.{whose}"
    )


def target_at(facts: DealFacts, action: int) -> int | None:
    """The target in force before ``action``: the final target less the Pairs from there on."""
    if facts.target is None:
        return None
    later = sum(p.target_change for p in facts.pairs if p.action >= action)
    return facts.target - later


def card_values(
    match: MatchLog, audited: AuditedMatch, number: int, notes: Sequence[Annotation]
) -> tuple[dict[int, list[tuple[str, float]]], list[Annotation], str]:
    """Every legal choice's value with all cards known (the side to move's card points with
    best play), per action of a card or a show: from the stored exact annotations, the
    plays they leave out solved now (``analysis.hindsight``, where the log has every card).

    Returns the values by action, the exact card and show notes they come from (stored and
    solved), and where they come from, in words (empty: no value).
    """
    deal = match.deals[number - 1]
    stop = unreal_finding(f for f in audited.findings if f.deal == number)
    exact = [n for n in notes if n.method == "exact" and n.kind in ("card", "show")]
    judged = {n.action for n in exact if n.kind == "card"}
    limit = len(deal.actions) if stop is None else stop.action or 0
    plays = [k for k, a in enumerate(deal.actions[:limit]) if isinstance(a, PlayAction)]
    missing = [k for k in plays if k not in judged]
    solved: list[Annotation] = []
    if missing and all_hands_known(deal):
        found = hindsight_deal(
            match.match_id, audited.rules, deal, number, kinds=frozenset({"card", "show"})
        )
        wanted = set(missing)
        solved = [n for n in kept_notes(found, stop) if n.action in wanted]
    exact = sorted([*exact, *solved], key=lambda n: (n.action or 0, n.kind))
    values: dict[int, list[tuple[str, float]]] = {}
    for note in exact:
        k = note.action
        assert k is not None
        choices = alternatives(note)
        if note.kind == "card":
            values.setdefault(k, [])[:0] = choices
        else:
            asked = dict(choices)
            here = values.setdefault(k, [])
            if "show" in asked:
                here.append(("show", asked["show"]))
            if "no show" in asked and not any(n.action == k and n.kind == "card" for n in exact):
                here.append(("no show", asked["no show"]))
    if not values:
        return {}, exact, ""
    if not solved:
        source = "the stored analysis"
    elif len(solved) == len([n for n in exact if n.kind == "card"]):
        source = "solved for this report"
    else:
        source = "the stored analysis, the cards it left out solved for this report"
    return values, exact, source


@dataclass(frozen=True, slots=True)
class LegendRow:
    """A label of the legend: its mark, its name, the loss at which it starts in make
    chance (fair judgements in percent) and in game points (bids, doubles)."""

    mark: str
    label: str
    chance: str
    game_points: str


@dataclass(frozen=True, slots=True)
class Legend:
    """What the marks, methods, intervals and units mean, with the thresholds in force
    (``analysis.labels``)."""

    rows: tuple[LegendRow, ...]
    best: str
    min_samples: int
    scale: str


def legend() -> Legend:
    """The legend of the marks, from the analysis' own thresholds.

    >>> [(r.mark, r.chance, r.game_points) for r in legend().rows]
    [('?!', '5%', '0.10'), ('?', '12%', '0.24'), ('??', '25%', '0.50')]
    """
    rows = tuple(
        LegendRow(MARKS[name], name, f"{threshold:.0%}", f"{threshold * GAME_POINT_SCALE:.2f}")
        for name, threshold in THRESHOLDS
    )
    return Legend(rows, BEST_MARK, MIN_LABEL_SAMPLES, f"{GAME_POINT_SCALE:g}")
