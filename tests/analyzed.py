"""An analyzed match for the review's tests, made by the analysis itself (no hand-written
annotation): the bangladesh sample, its first three deals judged in full (every bid, trump
choice, double, show and card), the cards and shows of the others, at 8 samples a decision
throughout (the default 32 takes 2.5 times the CPU and tests nothing more). Tests read what
it holds (which decision got which label) rather than assume it: the judgement may change,
the review must show whatever it says."""

from __future__ import annotations

import functools
from pathlib import Path

from tests.once import once
from twentynine.analysis.annotate import Annotation
from twentynine.analysis.run import AnalysisOptions, DealTask, annotate_deal, annotate_matches
from twentynine.importers.formats import read_any
from twentynine.schema.log import MatchLog

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
FULL_DEALS = 3
LABELS = ("inaccuracy", "mistake", "blunder")


@functools.cache
def analyzed_match() -> tuple[MatchLog, tuple[Annotation, ...]]:
    """The bangladesh sample and its annotations, in deal and action order (made once per
    test run and shared by the workers: tests/once.py)."""
    return once("analyzed-match", _analyze)


def _analyze() -> tuple[MatchLog, tuple[Annotation, ...]]:
    match = next(r.match for r in read_any(SAMPLES / "bangladesh.json") if r.match)
    first = match.model_copy(update={"deals": match.deals[:FULL_DEALS]})
    [(_, notes)] = list(annotate_matches([first], AnalysisOptions(samples=8, seed=0)))
    cards = AnalysisOptions(kinds=frozenset({"card", "show", "par"}), samples=8, seed=0)
    rules = match.resolved_rules()
    for number, deal in enumerate(match.deals[FULL_DEALS:], start=FULL_DEALS + 1):
        notes += annotate_deal(DealTask(match.match_id, rules, deal, number, cards))
    return match, tuple(notes)


def labelled(notes: tuple[Annotation, ...]) -> list[tuple[int, int, str]]:
    """Each decision labelled inaccuracy or worse: (deal, action, seat), in the match's order."""
    found: list[tuple[int, int, str]] = []
    for note in notes:
        if note.label in LABELS and note.action is not None and note.seat is not None:
            key = (note.deal, note.action, note.seat)
            if key not in found:
                found.append(key)
    return sorted(found)
