"""Labels that survive a reseed (issue 33 §3): a verdict labelled only when two independent
sets of samples agree, play-outs known closely enough, and "!" only for a sure gain."""

from __future__ import annotations

import json

from twentynine.analysis.annotate import Annotation
from twentynine.analysis.judging import (
    CAP_FACTOR,
    PRECISE_CAP,
    Judgement,
    Outcome,
    judge,
    make_annotation,
)
from twentynine.analysis.labels import MAX_HALF_WIDTH
from twentynine.analysis.positions import deal_positions
from twentynine.replay import random_match
from twentynine.reports.html.judged import decision_mark, note_mark
from twentynine.schema import Rules

SAMPLES = 8


def _note(verdict: Judgement, scale: float = 1.0) -> Annotation:
    log = random_match(Rules.preset("bhoos"), seed=1)
    pos = next(iter(deal_positions(log.resolved_rules(), log.deals[0], 1)))
    return make_annotation("m", 1, pos, "card", "make_probability", verdict, 0, scale)


def test_a_verdict_the_second_set_does_not_repeat_gets_no_label() -> None:
    cap = SAMPLES * CAP_FACTOR

    def first_only(k: int) -> Outcome:  # "b" loses every layout of the first set, none after
        return {"a": (1.0, 0.0), "b": (0.0 if k < cap else 1.0, 0.0)}

    verdict = judge(first_only, "b", SAMPLES)
    assert verdict is not None and not verdict.agreed
    (best_one, label_one, _), (_, label_two, _) = verdict.halves
    assert (best_one, label_one) == ("a", "blunder") and label_two is None
    assert verdict.samples == 2 * cap  # in doubt: both sets were doubled up to the cap
    note = _note(verdict)
    assert note.label is None and json.loads(note.detail)["halves"][1][1] is None
    # on the first set alone the same loss was a blunder
    alone = judge(lambda k: {"a": (1.0, 0.0), "b": (0.0, 0.0)}, "b", SAMPLES)
    assert alone is not None and alone.agreed and _note(alone).label == "blunder"


def test_sets_that_name_another_best_or_labels_two_steps_apart_get_no_label() -> None:
    cap = SAMPLES * CAP_FACTOR

    def other_best(k: int) -> Outcome:  # "a" best on the first set, "c" on the second
        first = k < cap
        return {"a": (1.0 if first else 0.6, 0.0), "c": (0.6 if first else 1.0, 0.0),
                "b": (0.0, 0.0)}  # fmt: skip

    verdict = judge(other_best, "b", SAMPLES)
    assert verdict is not None and not verdict.agreed and _note(verdict).label is None

    def steps_apart(k: int) -> Outcome:  # a blunder on the first set, an inaccuracy after
        lost = 1.0 if k < cap else (0.0 if k % 10 else 1.0)
        return {"a": (lost, 0.0), "b": (0.0, 0.0)}

    apart = judge(steps_apart, "b", SAMPLES)
    assert apart is not None
    labels = [label for _, label, _ in apart.halves]
    assert labels[0] == "blunder" and labels[1] in (None, "inaccuracy")
    assert _note(apart).label is None


def test_play_outs_known_no_closer_than_the_half_width_give_no_label() -> None:
    def noisy(k: int) -> Outcome | None:  # a layout found one time in two
        if k % 2:
            return None
        return {"a": (float(k // 2 % 2), 0.0), "b": (0.0, 0.0)}  # "a" made half the time

    loose = judge(noisy, "b", 32, precise=True)
    assert loose is not None and loose.best == "a"
    low, high = loose.intervals["a"]
    assert (high - low) / 2 > MAX_HALF_WIDTH and _note(loose).label is None
    # drawn to the play-outs' cap all the same, the samples spent where the label is in doubt
    assert loose.samples == 2 * PRECISE_CAP // 2
    # the same loss, a layout found every time: known closely, labelled
    found = judge(lambda k: noisy(2 * k), "b", 32, precise=True)
    assert found is not None and _note(found).label is not None
    for choice in ("a", "b"):
        low, high = found.intervals[choice]
        assert (high - low) / 2 <= MAX_HALF_WIDTH
    # without the rule (a card solved double dummy) the loose one is labelled
    assert _note(judge(noisy, "b", 32)).label is not None  # type: ignore[arg-type]


def test_a_best_move_earns_its_mark_only_when_surely_better_than_the_next() -> None:
    def clear(k: int) -> Outcome:  # "b" made, the runner-up "a" never
        return {"a": (0.0, 0.0), "b": (1.0, 0.0)}

    def close(k: int) -> Outcome:  # "b" made one layout in twenty more than "a"
        return {"a": (0.0 if k % 20 == 0 else 1.0, 0.0), "b": (1.0, 0.0)}

    sure, unsure = judge(clear, "b", 32), judge(close, "b", 32)
    assert sure is not None and unsure is not None
    assert sure.best == unsure.best == "b"
    sure_note, unsure_note = _note(sure), _note(unsure)
    assert json.loads(sure_note.detail)["edge"]["over"] == "a"
    assert note_mark(sure_note) == "!" and decision_mark([sure_note]) == "!"
    assert json.loads(unsure_note.detail)["edge"]["ci_low"] < 0.05
    assert note_mark(unsure_note) == "" and decision_mark([unsure_note]) == ""
    # in game points the threshold is scaled: the same gain of 1 is sure at scale 2 and not
    # at scale 30
    assert note_mark(_note(sure, 2.0)) == "!" and note_mark(_note(sure, 30.0)) == ""
    # a note with all cards known never earns it, as it never carries a label
    assert note_mark(sure_note._replace(method="exact")) == ""
