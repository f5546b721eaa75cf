"""The HTML viewer shows, at every step and in every seat's view, the hands the replay's step
views give (``replay.deal_steps``): one home for what the table looks like."""

from __future__ import annotations

from pathlib import Path

import pytest

from twentynine.importers.formats import read_any
from twentynine.replay import audit_match, deal_steps
from twentynine.replay.script import make_deal, make_match
from twentynine.reports.html.viewer import VIEWERS, deal_data, hand_text
from twentynine.schema.cards import SEATS, Seat
from twentynine.schema.log import MatchLog

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
LADDER = ("double", "redouble", "set")


def _sample(name: str) -> MatchLog:
    return next(r.match for r in read_any(SAMPLES / name) if r.match is not None)


def _doubled_deals(match: MatchLog) -> list[int]:
    return [
        number
        for number, deal in enumerate(match.deals, start=1)
        if any(action.type in LADDER for action in deal.actions)
    ]


@pytest.mark.parametrize("name", ["bangladesh.json", "standard.json", "pagat.json"])
def test_the_viewer_shows_the_hands_of_the_replay_steps(name: str) -> None:
    match = _sample(name)
    audited = audit_match(match)
    numbers = sorted({1, 2, *_doubled_deals(match)})
    for number in numbers:
        data = deal_data(match, audited, number, None)
        for view in VIEWERS:
            seat = None if view == "all" else Seat(view)
            steps = deal_steps(match, number, seat=seat, rules=audited.rules)
            assert len(steps) == len(data["steps"]) - 1  # then the result (the last table)
            assert data["steps"][-1]["hands"] == data["steps"][-2]["hands"]
            for step, shown in zip(steps, data["steps"][:-1], strict=True):
                expected = [hand_text(list(step.hands[s])) for s in SEATS]
                assert shown["hands"][view] == expected, (number, step.action_index, view)


@pytest.mark.parametrize("name", ["bangladesh.json", "standard.json"])
def test_a_double_redouble_or_set_is_made_on_the_first_four_cards(name: str) -> None:
    """docs/rules.md: the doubling comes after the trump choice, before the second four cards are
    dealt; the step of each Double, Redouble or Set shows four cards a hand."""
    match = _sample(name)
    audited = audit_match(match)
    checked = 0
    for number in _doubled_deals(match):
        deal = match.deals[number - 1]
        data = deal_data(match, audited, number, None)
        steps = deal_steps(match, number, rules=audited.rules)
        for k, action in enumerate(deal.actions):
            if action.type in LADDER or action.type == "trump":
                assert [len(steps[k + 1].hands[s]) for s in SEATS] == [4, 4, 4, 4], (number, k)
                counts = [len(h.split()) for h in data["steps"][k + 1]["hands"]["all"]]
                assert counts == [4, 4, 4, 4], (number, k)
                checked += action.type != "trump"
        # the first card is led from eight
        first = next(k for k, a in enumerate(deal.actions) if a.type == "play")
        assert sorted(len(steps[first + 1].hands[s]) for s in SEATS) == [7, 8, 8, 8]
    assert checked > 0


HANDS = {  # dealer N; East calls 15 with hearts
    "S": "JS 9S JH 9H AS TS AH TH",
    "W": "JD 9D AD TD KD QD 8D 7D",
    "N": "JC 9C AC TC KC QC 8C 7C",
    "E": "KS QS 8S 7S KH QH 8H 7H",
}


@pytest.mark.parametrize(
    ("rules", "ladder"),
    [
        ({"preset": "standard", "redouble": False}, "S:double"),  # nobody can answer it
        ("standard", "S:double E:redouble"),  # the top of the ladder without Set
        ({"preset": "standard", "set": True}, "S:double E:redouble N:set"),
        ({"preset": "standard", "set": True}, "S:double E:redouble"),  # nobody said Set
    ],
)
def test_every_doubling_step_shows_the_first_four_in_the_replay_and_the_viewer(
    rules: str | dict[str, object], ladder: str
) -> None:
    match = make_match(rules, [make_deal("N", HANDS, f"E:15 S:p W:p N:p E:trump=H {ladder} E:KS")])
    audited = audit_match(match)
    assert audited.errors == 0
    data = deal_data(match, audited, 1, None)
    for view in VIEWERS:
        steps = deal_steps(match, 1, seat=None if view == "all" else Seat(view))
        shown = [s["hands"][view] for s in data["steps"][:-1]]  # the last: the result
        assert shown == [[hand_text(list(st.hands[s])) for s in SEATS] for st in steps]
    steps = deal_steps(match, 1)
    ladder_steps = range(5, len(steps) - 1)  # the trump choice (action 4) and the ladder
    assert [[len(steps[k].hands[s]) for s in SEATS] for k in ladder_steps] == [[4] * 4] * len(
        ladder_steps
    )
    assert sorted(len(steps[-1].hands[s]) for s in SEATS) == [7, 8, 8, 8]  # E leads from 8


def test_a_deal_thrown_in_with_the_trump_never_shown_never_says_the_call_is_made() -> None:
    """Issue 36 §3: deal 15 of the bhoos sample (the trump never shown, thrown in) said "NS
    reached it, the call is made" from trick 5 on, then "Thrown in ... Nobody scores"."""
    from twentynine.frames import _standing

    match = _sample("bhoos.json")
    audited = audit_match(match)
    assert audited.deals[14].thrown_in == "never_shown"
    data = deal_data(match, audited, 15, None)
    said = [step["standing"] for step in data["steps"]]
    said += [" ".join(_standing(step)) for step in deal_steps(match, 15, rules=audited.rules)]
    assert not any("the call is made" in words for words in said)
    assert any("NS reached it; unless the trump is shown the deal is thrown in" in w for w in said)
    # where the trump is shown, reaching the target still makes the call
    shown = next(
        n
        for n, facts in enumerate(audited.deals, start=1)
        if facts.made and facts.thrown_in is None and facts.single_hand is None
    )
    steps = deal_data(match, audited, shown, None)["steps"]
    assert any("the call is made" in step["standing"] for step in steps)
