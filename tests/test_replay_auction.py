"""The auction in every style: rotation, open, single round, both duels; throw-ins before play."""

from __future__ import annotations

import pytest

from tests.deal_codes import codes
from twentynine.replay import DealState
from twentynine.replay.script import parse_hand, run_script
from twentynine.schema import Card, Rules, Seat
from twentynine.schema.log import BidAction, DittoAction, PassAction, RedealAction

PAGAT = Rules.preset("pagat")  # rotation, clockwise, 15-28, dealer takes 15
BEGINNER = Rules.preset("beginner")  # open, clockwise, 16
BANGLADESH = Rules.preset("bangladesh")  # duel with partner replacement, counter-clockwise
BHOOS = Rules.preset("bhoos")  # duel with next-seat challenger, clockwise
CLASSIC = Rules.preset("classic29")  # rotation, counter-clockwise


# --- rotation ---------------------------------------------------------------------------


def test_rotation_three_passes_give_the_call() -> None:
    state = run_script(PAGAT, "N", None, "E:15 S:16 W:p N:p E:17 S:p")
    assert codes(state) == []
    assert (state.caller_seat, state.call) == (Seat.E, 17)
    assert state.current_seat is Seat.E  # the caller chooses the trump


def test_rotation_pass_is_final() -> None:
    state = run_script(PAGAT, "N", None, "E:p S:15 E:16")
    assert codes(state) == [("OUT_OF_TURN", 2)]
    assert state.findings[0].message == "E bid 16 but it is W's turn to speak"
    assert state.current_seat is Seat.W


def test_rotation_order_is_counterclockwise_in_classic29() -> None:
    state = run_script(CLASSIC, "N", None, "W:16 S:17 E:p N:p W:p")
    assert codes(state) == []
    assert (state.caller_seat, state.call) == (Seat.S, 17)


@pytest.mark.parametrize(
    ("script", "code", "message"),
    [
        ("E:14", "BID_TOO_LOW", "E bid 14: the lowest bid is 15"),
        ("E:29", "BID_TOO_HIGH", "E bid 29: the highest bid is 28"),
        (
            "E:16 S:16",
            "BID_TOO_LOW",
            "S bid 16 after E's 16: a bid must be higher than the standing bid",
        ),
        (
            "E:15 S:ditto",
            "DITTO_NOT_ALLOWED",
            "S said ditto but Ditto belongs to duel bidding, not rotation",
        ),
    ],
)
def test_rotation_bid_limits(script: str, code: str, message: str) -> None:
    state = run_script(PAGAT, "N", None, script)
    last = len(script.split()) - 1
    assert codes(state) == [(code, last)]
    assert state.findings[0].message == message


def test_rotation_ends_at_max_bid() -> None:
    state = run_script(PAGAT, "N", None, "E:28")
    assert (state.caller_seat, state.call) == (Seat.E, 28)
    more = run_script(PAGAT, "N", None, "E:28 S:p")
    assert codes(more) == [("ACTION_OUT_OF_PHASE", 1)]


def test_first_three_pass_dealer_takes_min_bid() -> None:
    state = run_script(PAGAT, "N", None, "E:p S:p W:p")
    assert state.current_seat is Seat.N
    assert state.legal_actions() == [BidAction(seat=Seat.N, value=15)]
    state.apply(BidAction(seat=Seat.N, value=15))
    assert (state.caller_seat, state.call, state.findings) == (Seat.N, 15, [])


def test_forced_bid_must_be_the_minimum() -> None:
    state = run_script(PAGAT, "N", None, "E:p S:p W:p N:p")
    assert codes(state) == [("FORCED_BID", 3)]
    assert (state.caller_seat, state.call) == (Seat.N, 15)


def test_forced_bid_may_be_left_implicit() -> None:
    state = run_script(PAGAT, "N", None, "E:p S:p W:p N:trump=S")
    assert codes(state) == []
    assert (state.caller_seat, state.call, state.trump_suit) == (Seat.N, 15, "S")


# --- open and single round ------------------------------------------------------------


def test_open_pass_is_not_final() -> None:
    state = run_script(BEGINNER, "N", None, "E:p S:16 W:p N:p E:17 S:p W:p N:p")
    assert codes(state) == []
    assert (state.caller_seat, state.call) == (Seat.E, 17)


def test_open_ends_at_28_and_after_three_consecutive_passes() -> None:
    assert run_script(BEGINNER, "N", None, "E:p S:28").caller_seat is Seat.S
    state = run_script(BEGINNER, "N", None, "E:16 S:p W:p")
    assert state.caller_seat is None
    state.apply(PassAction(seat=Seat.N))
    assert state.caller_seat is Seat.E


def test_open_all_pass_dealer_takes_16() -> None:
    state = run_script(BEGINNER, "N", None, "E:p S:p W:p N:16")
    assert codes(state) == []
    assert (state.caller_seat, state.call) == (Seat.N, 16)


def test_single_round_each_speaks_once() -> None:
    rules = PAGAT.with_options(bidding="single_round")
    state = run_script(rules, "N", None, "E:15 S:p W:17 N:p")
    assert codes(state) == []
    assert (state.caller_seat, state.call) == (Seat.W, 17)
    again = run_script(rules, "N", None, "E:15 S:p W:17 E:18")
    assert codes(again) == [("OUT_OF_TURN", 3)]


# --- the Bangladesh duel --------------------------------------------------------------


def test_duel_log_format_example() -> None:
    # LOG-FORMAT.md's example: W opens, S raises, W says ditto, then three passes.
    state = run_script(BANGLADESH, "N", None, "W:16 S:17 W:ditto S:p N:p E:p")
    assert codes(state) == []
    assert (state.caller_seat, state.call) == (Seat.W, 17)


def test_duel_partner_replaces_a_passer_with_seniority() -> None:
    # S passes: its partner N comes in (as junior) and speaks; W passes: E comes in as
    # senior and may equal N's bid.
    state = run_script(BANGLADESH, "N", None, "W:16 S:p N:17 W:p")
    assert state.current_seat is Seat.E
    assert DittoAction(seat=Seat.E) in state.legal_actions()
    state.apply(BidAction(seat=Seat.E, value=18))
    state.apply(PassAction(seat=Seat.N))
    assert codes(state) == []
    assert (state.caller_seat, state.call) == (Seat.E, 18)


def test_duel_junior_must_bid_higher() -> None:
    state = run_script(BANGLADESH, "N", None, "W:16 S:ditto")
    assert codes(state) == [("DITTO_NOT_ALLOWED", 1)]
    assert "only the senior duelist (W)" in state.findings[0].message
    equal = run_script(BANGLADESH, "N", None, "W:16 S:16")
    assert codes(equal) == [("BID_TOO_LOW", 1)]


def test_duel_senior_equal_bid_is_a_ditto() -> None:
    state = run_script(BANGLADESH, "N", None, "W:16 S:17 W:17 S:p N:p E:p")
    assert codes(state) == []
    assert (state.caller_seat, state.call) == (Seat.W, 17)


def test_duel_first_three_pass_throws_in_and_dealer_never_opens() -> None:
    state = run_script(BANGLADESH, "N", None, "W:p S:p E:p")
    assert state.is_over
    assert state.outcome is not None and state.outcome.thrown_in == "all_pass"
    dealer = run_script(BANGLADESH, "N", None, "W:p S:p N:16")
    assert codes(dealer) == [("OUT_OF_TURN", 2)]
    assert dealer.findings[0].message == "N bid 16 but it is E's turn to speak"


def test_bid_after_throw_in_is_reported_once() -> None:
    state = run_script(BANGLADESH, "N", None, "W:p S:p E:p N:16 N:trump=H")
    assert codes(state) == [("ACTION_AFTER_DEAL_END", 3)]


# --- the Bhoos duel: real auction shapes from the competition's records --------------


@pytest.mark.parametrize(
    ("script", "caller", "call"),
    [
        ("E:16 S:17 E:p W:p N:p", Seat.S, 17),
        ("E:16 S:17 E:17 S:p W:p N:p", Seat.E, 17),  # the defender matches
        ("E:16 S:p W:17 E:p N:p", Seat.W, 17),
        ("E:p S:16 W:17 S:p N:p", Seat.W, 17),
        ("E:p S:16 W:p N:17 S:17 N:18 S:p", Seat.N, 18),
        ("E:16 S:p W:17 E:18 W:p N:p", Seat.E, 18),
        ("E:p S:p W:p N:16", Seat.N, 16),
    ],
)
def test_bhoos_duel(script: str, caller: Seat, call: int) -> None:
    state = run_script(BHOOS, "N", None, script)
    assert codes(state) == []
    assert (state.caller_seat, state.call) == (caller, call)


def test_bhoos_challenger_is_next_seat_not_partner() -> None:
    # E opens, S passes: W (next seat), not N (S's partner), is the new challenger.
    state = run_script(BHOOS, "N", None, "E:16 S:p")
    assert state.current_seat is Seat.W
    state = run_script(BANGLADESH.with_options(direction="clockwise"), "N", None, "E:16 S:p")
    assert state.current_seat is Seat.N


def test_bhoos_legal_bids_for_defender_include_ditto() -> None:
    state = run_script(BHOOS, "N", None, "E:16 S:17")
    legal = state.legal_actions()
    assert DittoAction(seat=Seat.E) in legal
    assert BidAction(seat=Seat.E, value=17) not in legal  # the match is spelt as a Ditto
    assert BidAction(seat=Seat.E, value=18) in legal


# --- throw-ins before the auction -----------------------------------------------------

ZERO_W = {
    "W": "KS QS 8S 7S JH 9H AH TH",
    "S": "JS 9S KH QH JD 9D AD TD",
    "E": "AS TS 8H 7H KD QD 8D 7D",
    "N": "JC 9C AC TC KC QC 8C 7C",
}


def test_zero_point_throw_in_automatic_for_p1() -> None:
    state = DealState(BANGLADESH, Seat.N, _hands(ZERO_W))
    assert state.is_over and state.outcome is not None
    assert state.outcome.thrown_in == "zero_point"
    state.apply(BidAction(seat=Seat.W, value=16))
    assert codes(state) == [("ACTION_AFTER_DEAL_END", 0)]


def test_zero_point_not_for_p3() -> None:
    # E is P3 when N deals counter-clockwise: its pointless first four do not count.
    hands = dict(ZERO_W)
    hands["W"], hands["E"] = ZERO_W["E"], ZERO_W["W"]
    hands["W"] = "AS TS 8H 7H KD QD 8D 7D"
    assert not DealState(BANGLADESH, Seat.N, _hands(hands)).is_over


def test_redeal_on_request() -> None:
    rules = CLASSIC.with_options(zero_point_throw_in="on_request")
    state = DealState(rules, Seat.N, _hands(ZERO_W))
    assert RedealAction(seat=Seat.W) in state.legal_actions()
    state.apply(RedealAction(seat=Seat.W))
    assert state.outcome is not None and state.outcome.thrown_in == "redeal"
    other = DealState(rules, Seat.N, _hands(ZERO_W))
    other.apply(PassAction(seat=Seat.W))
    other.apply(RedealAction(seat=Seat.S))
    assert codes(other) == [("REDEAL_NOT_ALLOWED", 1)]
    assert "holding JS" in other.findings[0].message
    off = DealState(CLASSIC, Seat.N, _hands(ZERO_W))
    off.apply(RedealAction(seat=Seat.W))
    assert codes(off) == [("REDEAL_NOT_ALLOWED", 0)]


# N deals counter-clockwise: W is P1, S P2, E P3, N P4; E and N hold no point in their first four.
ZERO_P3_P4 = {
    "W": "JS 9S KH QH JD 9D AD TD",
    "S": "AS TS 8H 7H KD QD 8D 7D",
    "E": "KS QS 8S 7S JH 9H AH TH",
    "N": "KC QC 8C 7C JC 9C AC TC",
}


@pytest.mark.parametrize("seat", [Seat.E, Seat.N])
def test_redeal_on_request_by_any_player_without_points(seat: Seat) -> None:
    """Seed 003 §7: any player whose first four hold no point may ask (not only P1 and P2)."""
    rules = CLASSIC.with_options(zero_point_throw_in="on_request")
    state = run_script(rules, "N", ZERO_P3_P4, "W:p S:p")
    state.apply(RedealAction(seat=seat))
    assert codes(state) == []
    assert state.outcome is not None and state.outcome.thrown_in == "redeal"


def test_the_forced_dealer_is_offered_the_redeal() -> None:
    rules = CLASSIC.with_options(zero_point_throw_in="on_request")
    state = run_script(rules, "N", ZERO_P3_P4, "W:p S:p E:p")
    assert [a.type for a in state.legal_actions()] == ["redeal", "bid"]
    holding = run_script(rules, "N", ZERO_P3_P4, "W:p")
    holding.apply(RedealAction(seat=Seat.S))
    assert codes(holding) == [("REDEAL_NOT_ALLOWED", 1)]


def _hands(spec: dict[str, str]) -> dict[Seat, list[Card | None]]:
    return {Seat(seat): parse_hand(text) for seat, text in spec.items()}
