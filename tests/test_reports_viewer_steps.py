"""The HTML viewer shows, at every step and in every seat's view, the hands the replay's step
views give (``replay.deal_steps``): one home for what the table looks like."""

from __future__ import annotations

from pathlib import Path

import pytest

from importers.formats import read_any
from replay import audit_match, deal_steps
from reports.html.viewer import VIEWERS, deal_data, hand_text
from schema.cards import SEATS, Seat
from schema.log import MatchLog

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
        data = deal_data(match, audited, number, [])
        for view in VIEWERS:
            seat = None if view == "all" else Seat(view)
            steps = deal_steps(match, number, seat=seat, rules=audited.rules)
            assert len(steps) == len(data["steps"])
            for step, shown in zip(steps, data["steps"], strict=True):
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
        data = deal_data(match, audited, number, [])
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
