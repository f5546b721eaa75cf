"""A deal's evaluation graph, as series the viewer's script draws with plotly: the caller's
side's standing after each action, one unit per axis.

- ``points``: the card points the caller's side keeps with best play, every card known
  (double dummy), from the exact card and show notes; before the first card, the par.
- ``chance``: the caller's side's chance to make the call, from the fair judgements (the
  notes in make-probability: the trump choice, the shows), in percent.
- ``marks``: the labelled decisions, each with its mark, at its step.

Steps are indices into the deal's steps (0: the deal begins; ``k + 1``: after action ``k``).

>>> graph_data(None, [], [], 28)
{'why': 'nothing in this deal was judged'}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from twentynine.analysis.annotate import Annotation, choice_words
from twentynine.replay import DealFacts
from twentynine.reports.html.judged import MARKS, decisions, worst_label
from twentynine.reports.html.words import THROWN_IN_WORDS
from twentynine.schema.cards import Seat


def graph_data(
    facts: DealFacts | None,
    notes: Sequence[Annotation],
    exact: Sequence[Annotation],
    total: int,
) -> dict[str, Any]:
    """The series of one deal's graph, or ``{"why": ...}`` when there is nothing to draw.

    ``notes`` are the deal's annotations, ``exact`` its exact card and show notes (stored or
    solved for the report), ``total`` the card points in play.
    """
    caller = None if facts is None else facts.single_hand or facts.caller
    why = "nothing in this deal was judged"
    if facts is not None and facts.thrown_in is not None:
        why = f"the deal was thrown in ({THROWN_IN_WORDS.get(facts.thrown_in, facts.thrown_in)})"
    if caller is None:
        return {"why": why}
    side = caller.team

    def for_caller(note: Annotation, value: float) -> float:
        mover = Seat(note.seat).team if note.seat is not None else side
        return value if mover is side else total - value

    points: list[list[float]] = []
    for note in sorted((n for n in exact if n.kind == "card"), key=lambda n: n.action or 0):
        k = note.action or 0
        if not points:
            points.append([k, for_caller(note, note.value_best)])
        points.append([k + 1, for_caller(note, note.value_chosen)])
    chance: list[list[float]] = []
    for note in notes:
        if note.unit != "make_probability" or note.action is None or note.method != "sampled":
            continue
        mover = Seat(note.seat).team if note.seat is not None else side
        share = note.value_chosen if mover is side else 1 - note.value_chosen
        chance.append([note.action + 1, round(100 * share, 1)])
    marks = []
    for (_, k, seat, kind), judged in sorted(decisions(notes).items()):
        label = worst_label(judged)
        if label is None:
            continue
        chosen = choice_words(judged[0].chosen)
        marks.append([k + 1, MARKS[label], label, f"{seat} {kind.replace('_', ' ')}: {chosen}"])
    if not points and not chance and not marks:
        return {"why": why}
    return {
        "side": side.value,
        "target": facts.target if facts is not None and facts.single_hand is None else None,
        "total": total,
        "points": points,
        "chance": chance,
        "marks": marks,
    }
