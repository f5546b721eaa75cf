"""The step-by-step view of a deal, for the whole table and for one seat."""

from __future__ import annotations

import pytest

from replay import deal_steps
from replay.script import make_deal, make_match
from schema import Card, Seat, Team
from tests.test_replay_play import SEED_003_HANDS, SEED_003_PLAY

LOG = make_match("classic29", [make_deal("E", SEED_003_HANDS, SEED_003_PLAY)])


def test_one_view_per_point_of_the_deal() -> None:
    steps = deal_steps(LOG, 1)
    assert len(steps) == len(LOG.deals[0].actions) + 1
    first = steps[0]
    assert (first.step, first.action_index, first.action) == (0, None, None)
    assert first.description == "the deal begins"
    assert all(len(hand) == 4 for hand in first.hands.values())  # the bidding hands only
    assert (first.bid, first.trump, first.needs) == (None, "not chosen", None)
    assert first.current_seat is Seat.N
    assert [s.description for s in steps[1:6]] == [
        "N passes",
        "W bids 18",
        "S passes",
        "E passes",
        "W chooses the trump: hearts",
    ]
    assert steps[2].bid == (Seat.W, 18)


def test_the_show_trick() -> None:
    steps = deal_steps(LOG, 1)
    assert steps[7].description == "W shows the trump: hearts"
    assert steps[7].trump == "shown: H"
    assert steps[6].trick == ((Seat.N, Card.parse("JS")),)
    end = steps[10]
    assert end.description == "E plays 7S; W wins trick 1 (6 points)"
    assert end.trick == ()
    assert end.points == {Team.NS: 0, Team.EW: 6}
    # the callers need 18 - 6; the defenders 29 - 18 + 1
    assert end.needs == {Team.EW: 12, Team.NS: 12}
    assert end.current_seat is Seat.W


def test_a_seat_sees_only_what_it_could_know() -> None:
    steps = deal_steps(LOG, 1, seat=Seat.N)
    chosen = steps[5]
    assert chosen.description == "W chooses the trump"
    assert chosen.trump == "hidden"
    assert deal_steps(LOG, 1, seat=Seat.W)[5].trump == "known to the caller: H"
    after_lead = steps[6]
    assert after_lead.hands[Seat.N][:2] == (Card.parse("9S"), Card.parse("KC"))
    assert len(after_lead.hands[Seat.N]) == 7
    assert after_lead.hands[Seat.W] == (None,) * 8
    assert steps[7].trump == "shown: H"  # shown to everyone


def test_findings_at_their_step() -> None:
    bad = SEED_003_PLAY.replace("W:show W:9H", "W:show W:JD", 1)
    log = make_match("classic29", [make_deal("E", SEED_003_HANDS, bad)])
    steps = deal_steps(log, 1)
    assert [f.code for f in steps[8].findings] == ["MUST_TRUMP_AFTER_SHOW"]
    for step in steps[:-1]:
        assert all(f.action == step.action_index for f in step.findings)
    assert not steps[7].findings


def test_deal_level_findings_on_the_last_step() -> None:
    stop = make_deal("E", SEED_003_HANDS, " ".join(SEED_003_PLAY.split()[:7]))
    steps = deal_steps(make_match("classic29", [stop]), 1)
    assert [f.code for f in steps[-1].findings] == ["MATCH_ABANDONED"]
    with pytest.raises(IndexError):
        deal_steps(LOG, 2)
