"""The step-by-step view of a deal, for the whole table and for one seat."""

from __future__ import annotations

import pytest

from tests.test_replay_play import SEED_003_HANDS, SEED_003_PLAY
from tests.test_replay_trump import SINGLE, SINGLE_CALL, SINGLE_WIN
from twentynine.replay import deal_steps
from twentynine.replay.script import make_deal, make_match, parse_action, run_script
from twentynine.schema import Card, Rules, Seat, Suit, Team

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
    # the whole trick stays on the table, its winner marked, until the next lead
    assert end.trick == (*steps[9].trick, (Seat.E, Card.parse("7S")))
    assert len(end.trick) == 4 and end.trick_winner is Seat.W
    assert end.tricks[0].cards == end.trick and end.tricks[0].winner is Seat.W
    assert end.tricks[0].points == 6
    lead = next(s for s in steps[11:] if s.trick)
    assert len(lead.trick) == 1 and lead.trick_winner is None
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


def test_the_second_four_show_once_dealt() -> None:
    """At the trump choice a seat holds its first four only; the second four show at the
    single-hand decision (or the opening lead)."""
    alone = make_match("bangladesh", [make_deal("E", SINGLE, f"{SINGLE_CALL} N:single")])
    steps = deal_steps(alone, 1, seat=Seat.N)
    assert steps[5].description == "N chooses the trump: spades"
    assert len(steps[5].hands[Seat.N]) == 4
    assert steps[5].hands[Seat.W] == (None,) * 4
    assert steps[6].description == "N declares single hand"
    assert len(steps[6].hands[Seat.N]) == 8
    assert steps[6].hands[Seat.W] == (None,) * 8
    assert steps[6].single_hand is Seat.N
    doubled = f"{SINGLE_CALL} W:double {SINGLE_WIN}"
    steps = deal_steps(make_match("bangladesh", [make_deal("E", SINGLE, doubled)]), 1)
    assert [len(h) for h in steps[5].hands.values()] == [4, 4, 4, 4]  # W may double
    assert steps[6].description == "W doubles"
    # W doubled on four cards; nobody redoubles, so the lead is made from eight
    assert [len(h) for h in steps[6].hands.values()] == [4, 4, 4, 4]
    assert [len(h) for h in steps[7].hands.values()] == [7, 8, 8, 8]


def test_seat_view_holds_what_a_seat_may_know() -> None:
    classic = Rules.preset("classic29")
    state = run_script(classic, "E", SEED_003_HANDS, " ".join(SEED_003_PLAY.split()[:6]))
    caller, other, onlooker = state.seat_view(Seat.W), state.seat_view(Seat.N), state.seat_view()
    assert caller.phase == "play" and caller.order == (Seat.N, Seat.W, Seat.S, Seat.E)
    assert (caller.caller, caller.call, caller.target, caller.doubled) == (Seat.W, 18, 18, 0)
    assert caller.trump is Suit.HEARTS and caller.face_down == Card.parse("7H")
    assert Card.parse("7H") in caller.hand and len(caller.hand) == 8
    assert (other.trump, other.face_down, len(other.hand)) == (None, None, 7)  # N led JS
    assert (onlooker.seat, onlooker.hand, onlooker.trump) == (None, (), None)
    assert onlooker.trick == ((Seat.N, Card.parse("JS")),) and onlooker.led is Suit.SPADES
    assert onlooker.to_act is Seat.W and not onlooker.doubling_open
    with pytest.raises(AttributeError):  # read-only
        caller.trump = None  # type: ignore[misc]
    state.apply(parse_action("W:show"))
    state.apply(parse_action("W:9H"))
    after = state.seat_view(Seat.N)
    assert (after.trump, after.shown, after.asker) == (Suit.HEARTS, True, Seat.W)
    assert state.seat_view(Seat.W).face_down is None  # an ordinary card once shown
    assert after.trick[-1] == (Seat.W, Card.parse("9H"))
    before = run_script(classic, "E", SEED_003_HANDS, "N:p W:18")
    view = before.seat_view(Seat.S)
    assert (view.phase, view.standing, view.caller, view.call) == (
        "auction",
        (Seat.W, 18),
        None,
        None,
    )
    assert len(view.hand) == 4 and not view.second_dealt


def test_auction_and_stake() -> None:
    doubled = f"{SINGLE_CALL} W:double {SINGLE_WIN}"
    steps = deal_steps(make_match("bangladesh", [make_deal("E", SINGLE, doubled)]), 1)
    bids = list(make_deal("E", SINGLE, doubled).actions[:4])
    assert steps[4].auction == tuple(
        (a.seat, str(a.value) if a.type == "bid" else "pass") for a in bids
    )
    rules = Rules.preset("bangladesh")
    assert (steps[5].doubling, steps[5].stake) == (None, rules.stake)
    assert (steps[6].doubling, steps[6].stake) == ("doubled", 2 * rules.stake)
    assert steps[1].order[3] is Seat.E  # the dealer bids last
