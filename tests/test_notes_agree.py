"""Every note of a real analysis agrees with itself (issue 33 §4): read whole, not sampled.

A note shows the figures of the samples its label rests on; "about as good" never beside a
label and only when the interval holds 0; "better" never beside equal figures; the caller
shows the trump and the others ask; a bid's ``recommended`` is its best.
"""

from __future__ import annotations

import functools
import json
import re

from tests.analyzed import SAMPLES, analyzed_match
from twentynine.analysis.annotate import Annotation, choice_words
from twentynine.analysis.judge.reasons import wants_reason, with_reasons
from twentynine.analysis.judge.words import note_text
from twentynine.analysis.run import AnalysisOptions, DealTask, annotate_deal, annotate_matches
from twentynine.importers.formats import read_any
from twentynine.replay import audit_match
from twentynine.reports.html.match import match_report
from twentynine.reports.html.viewer import deal_data
from twentynine.schema.cards import Suit
from twentynine.schema.log import MatchLog

_PERCENT = re.compile(r"(\d+(?:\.\d)?)%")
_GAME_POINTS = re.compile(r"([+-]\d+\.\d\d) game points")


@functools.cache
def _bhoos() -> tuple[MatchLog, tuple[Annotation, ...]]:
    """The bhoos sample's first five deals, every kind judged, at 8 samples (about 3 s)."""
    match = next(r.match for r in read_any(SAMPLES / "bhoos.json") if r.match)
    first = match.model_copy(update={"deals": match.deals[:5]})
    [(_, notes)] = list(annotate_matches([first], AnalysisOptions(samples=8, seed=0)))
    return match, tuple(notes)


def _caller(match: MatchLog, deal: int) -> str | None:
    return next((a.seat.value for a in match.deals[deal - 1].actions if a.type == "trump"), None)


def disagreements(match: MatchLog, notes: tuple[Annotation, ...]) -> list[str]:
    """What each note says against its own figures, one line a fault (none: all agree)."""
    faults: list[str] = []
    for note in notes:
        text = note.explanation
        where = f"deal {note.deal} action {note.action} {note.kind} ({note.method}): {text}"
        detail = json.loads(note.detail)
        values = {a["choice"]: a["value"] for a in detail.get("alternatives", [])}
        if note.method != "sampled":
            if note.label is not None:
                faults.append(f"an exact note with a label: {where}")
            continue
        if "about as good" in text:
            if note.label is not None:
                faults.append(f"'about as good' beside a label: {where}")
            if not (note.ci_low is not None and note.ci_low <= 0 <= (note.ci_high or 0)):
                faults.append(f"'about as good' with an interval clear of 0: {where}")
        # the figures shown are those the loss (and so the label) rests on
        if note.chosen in values and note.best in values:
            if abs(values[note.chosen] - note.value_chosen) > 1e-6:
                faults.append(f"value_chosen is not the detail's: {where}")
            if abs(values[note.best] - note.value_best) > 1e-6:
                faults.append(f"value_best is not the detail's: {where}")
        gap = max(note.value_best - note.value_chosen, 0.0)
        if note.unit == "make_probability" and abs(note.loss - gap) > 1e-5:
            faults.append(f"the loss is not the figures' difference: {where}")
        if re.search(r"\bbetter\b", text) and "about as good" not in text:
            figures = (
                _GAME_POINTS.findall(text)
                if note.unit == "game_points"
                else _PERCENT.findall(text)[:2]
            )
            if len(figures) >= 2 and len(set(figures)) < 2:
                faults.append(f"'better' beside equal figures: {where}")
        if "kept -" in text or "kept 0.0 more" in text:
            faults.append(f"a tie-break that is none: {where}")
        if note.kind == "bid" and detail.get("recommended") != note.best:
            faults.append(f"recommended {detail.get('recommended')} is not the best: {where}")
        if note.kind == "show":
            caller = _caller(match, note.deal)
            if note.seat == caller and "asking" in text:
                faults.append(f"the caller 'asks': {where}")
            if note.seat != caller and "showing" in text:
                faults.append(f"a seat not the caller 'shows': {where}")
    return faults


def test_every_note_of_the_bangladesh_analysis_agrees_with_itself() -> None:
    match, notes = analyzed_match()
    assert len(notes) > 300
    assert disagreements(match, notes) == []


def test_every_note_of_the_bhoos_analysis_agrees_with_itself() -> None:
    match, notes = _bhoos()
    kinds = {n.kind for n in notes if n.method == "sampled"}
    assert {"bid", "trump", "show", "card"} <= kinds
    # the checks bite: choices judged on two independent sets of samples are among them
    assert any(json.loads(n.detail).get("halves") and n.best != n.chosen for n in notes)
    assert disagreements(match, notes) == []


def test_each_label_and_each_best_trump_or_call_has_a_reason_in_card_terms() -> None:
    match, notes = _bhoos()
    wanted = [n for n in notes if wants_reason(n)]
    assert {n.kind for n in wanted} >= {"card", "trump", "bid"}
    for note in wanted:
        reason = json.loads(note.detail).get("reason", "")
        assert reason, note
        assert note_text(note).endswith(f". Why: {reason}")
        if note.kind == "card":
            assert reason.startswith("on the real deal, all cards known")
            # the lines that part are named by their cards, the best first
            apart = reason[reason.index("the lines part") :] if "the lines part" in reason else ""
            assert not apart or f"after {choice_words(note.best)}" in apart
            assert "(a sample" in reason or "all cards known (the lines part)" in reason
        if note.kind == "trump":
            suit = note.best.split()[1]
            assert Suit(suit).display in reason and "you held" in reason
        if note.kind == "bid":
            assert "jack" in reason and "nine" in reason and "longest suit" in reason
    # a labelled call also says what the model of the calls reads into the calls heard
    bid = next(n for n in wanted if n.kind == "bid" and "heard:" in json.loads(n.detail)["reason"])
    rules = match.resolved_rules()
    assert bid.action is not None
    (labelled,) = with_reasons(
        match.match_id,
        rules,
        match.deals[bid.deal - 1],
        bid.deal,
        [bid._replace(label="mistake", detail=bid.detail)],
        samples=8,
    )
    assert "as the model of the calls reads them" in json.loads(labelled.detail)["reason"]


def test_the_viewer_says_which_estimate_a_chance_is_where_two_differ() -> None:
    match, notes = _bhoos()
    audited = audit_match(match)
    told = 0
    for number in sorted({n.deal for n in notes}):
        data = deal_data(match, audited, number, notes)
        chance = data["chance"]
        trump = next(
            (n for n in notes if n.deal == number and n.kind == "trump" and n.method == "sampled"),
            None,
        )
        if chance is None or trump is None:
            continue
        said = [text for step in data["steps"] for _, text in step.get("estimates", [])]
        gap = abs(trump.value_chosen - float(chance["value"]))
        at_trump = [t for t in said if "this trump note's" in t]
        assert bool(at_trump) == (gap >= 0.05), (number, gap, said)
        for text in at_trump:
            assert "contract model's estimate" in text and "play-outs' estimate" in text
            told += 1
    assert told > 0


def test_the_legend_promises_only_what_happens() -> None:
    match, notes = analyzed_match()
    html = match_report(match, audit_match(match), list(notes))
    legend = html[html.index('<details class="legend"') : html.index("</details>")]
    # exact judgements never carry a label, and the legend says so (it promised ?? on them)
    assert all(n.label is None for n in notes if n.method == "exact")
    assert "never carries a label" in legend
    assert "marked ??" not in legend
    # every label the legend lists is one the analysis gives, and labels are fair notes'
    assert {n.label for n in notes if n.label} <= {"inaccuracy", "mistake", "blunder"}
    assert all(label in legend for label in ("inaccuracy", "mistake", "blunder"))


def test_a_labelled_double_says_what_the_doubler_held() -> None:
    match = next(r.match for r in read_any(SAMPLES / "standard.json") if r.match)
    options = AnalysisOptions(kinds=frozenset({"double"}), samples=4, seed=0)
    rules = match.resolved_rules()
    double = next(
        n
        for number, deal in enumerate(match.deals[:6], start=1)
        for n in annotate_deal(DealTask(match.match_id, rules, deal, number, options))
    )
    (told,) = with_reasons(
        match.match_id,
        rules,
        match.deals[double.deal - 1],
        double.deal,
        [double._replace(label="mistake")],
        samples=4,
    )
    reason = json.loads(told.detail)["reason"]
    assert reason.startswith("your four: ") and "heard: " in reason
