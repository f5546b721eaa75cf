"""The Pair with each timing and its target limits, and ending a deal once it is decided."""

from __future__ import annotations

import pytest

from tests.deal_codes import codes
from twentynine.replay import DealState, audit_match
from twentynine.replay.script import make_deal, make_match, run_script
from twentynine.schema import Rules, Seat, Team
from twentynine.schema.log import PairAction

BANGLADESH = Rules.preset("bangladesh")

# Counter-clockwise, N deals: W calls; S (a defender) holds KD QD, E (W's partner) KH QH.
HANDS = {
    "W": "JS 9S AS TS JD 9D AD TD",
    "S": "KS QS JH 9H KD QD 8D 7C",
    "E": "AH TH KH QH JC 9C AC 7D",
    "N": "8S 7S 8H 7H KC QC 8C TC",
}
# E asks in trick 1 and wins it with 7D; trick 2: E leads clubs, S's turn comes last.
TWO_TRICKS = "W:JS S:KS E:show E:7D N:8S E:JC N:8C W:9S"


def bangladesh(actions: str) -> DealState:
    return run_script(BANGLADESH, "N", HANDS, actions)


def test_defenders_pair_on_holders_turn_raises_the_target() -> None:
    state = bangladesh(f"W:16 S:p N:p E:p W:trump=D {TWO_TRICKS}")
    assert PairAction(seat=Seat.S) in state.legal_actions()
    state.apply(PairAction(seat=Seat.S))
    assert codes(state) == []
    assert state.target == 20
    assert state.pairs == ((2, 13, 4),)
    assert state.hand(Seat.S, viewer=Seat.N)[:2] == [
        card for card in state.hand(Seat.S) if card is not None and card.text in ("KD", "QD")
    ]


@pytest.mark.parametrize(
    ("actions", "code", "words"),
    [
        ("W:JS S:pair", "PAIR_NOT_ALLOWED", "the trump has not been shown"),
        ("W:JS S:KS E:show E:7D S:pair", "PAIR_NOT_ALLOWED", "out of turn"),
        ("W:JS S:KS E:show E:7D N:8S E:JC N:pair", "PAIR_NOT_HELD", "S holds KD"),
        (f"{TWO_TRICKS} S:pair S:7C W:pair", "PAIR_NOT_ALLOWED", "S already showed it"),
    ],
)
def test_pair_rules(actions: str, code: str, words: str) -> None:
    state = bangladesh(f"W:16 S:p N:p E:p W:trump=D {actions}")
    assert [c for c, _ in codes(state)] == [code]
    assert codes(state)[0][1] == len(actions.split()) + 4
    assert words in state.findings[0].message


def test_pair_in_the_show_trick_waits_for_the_next_trick() -> None:
    # N holds the pair here and is last to play in the show trick.
    hands = dict(HANDS)
    hands["S"], hands["N"] = "KS QS JH 9H 8S 7S 8D 7C", "KD QD 8H 7H KC QC 8C TC"
    state = run_script(BANGLADESH, "N", hands, "W:16 S:p N:p E:p W:trump=D W:JS S:KS E:show E:7D")
    assert state.current_seat is Seat.N
    state.apply(PairAction(seat=Seat.N))
    assert codes(state) == [("PAIR_NOT_ALLOWED", 9)]
    assert "from the next trick" in state.findings[0].message


@pytest.mark.parametrize(("call", "target"), [(19, 16), (20, 16), (24, 20), (18, 18)])
def test_callers_pair_lowers_only_from_19_and_never_below_16(call: int, target: int) -> None:
    state = bangladesh(f"W:{call} S:p N:p E:p W:trump=H W:JS S:KS E:show E:AH N:8S E:pair")
    assert codes(state) == []
    assert state.target == target


def test_defenders_pair_never_above_28() -> None:
    state = bangladesh(f"W:26 S:p N:p E:p W:trump=D {TWO_TRICKS} S:pair")
    assert (codes(state), state.target) == ([], 28)


# Clockwise, N deals, E calls diamonds; S holds KD QD and wins trick 3 with 7D.
CLOCKWISE = {
    "E": "JS 9S AS TS JD 9D AD TD",
    "S": "KS QS JH 9H KD QD 8D 7D",
    "W": "AH TH KH QH JC 9C AC TC",
    "N": "8S 7S 8H 7H KC QC 8C 7C",
}
THREE_TRICKS = "E:JS S:KS W:show W:AH N:8S E:9S S:QS W:TH N:7S E:AS S:7D W:KH N:8H"


@pytest.mark.parametrize(
    ("preset", "actions", "found", "target"),
    [
        ("standard", f"{THREE_TRICKS} S:pair", [], 19),
        ("standard", f"{THREE_TRICKS} S:JH W:QH S:pair", [], 19),
        ("standard", "E:JS S:KS W:show W:AH N:8S S:pair", [("PAIR_NOT_ALLOWED", 10)], 19),
        ("pagat", f"{THREE_TRICKS} S:pair", [], 19),
        ("pagat", f"{THREE_TRICKS} S:JH S:pair", [("PAIR_NOT_ALLOWED", 19)], 19),
        ("classic29", f"{THREE_TRICKS} S:pair", [], 20),
        ("beginner", f"{THREE_TRICKS} S:pair", [("PAIR_NOT_ALLOWED", 18)], 16),
    ],
)
def test_pair_timings(preset: str, actions: str, found: list[tuple[str, int]], target: int) -> None:
    # the same table for every preset: clockwise, the trump under a separate marker
    rules = Rules.preset(preset).with_options(direction="clockwise", trump_marker="marker")
    call = "E:15" if rules.min_bid == 15 else "E:16"
    state = run_script(rules, "N", CLOCKWISE, f"{call} S:p W:p N:p E:trump=D {actions}")
    assert codes(state) == found
    assert state.target == target


# --- ending once decided ----------------------------------------------------------------

# After five tricks (the trump shown in trick 2) the callers EW hold 19 points: enough for
# 16, but S could still show KD QD and raise the target to 20.
FIVE_TRICKS = (
    "W:16 S:p N:p E:p W:trump=D "
    "W:TS S:KS E:9C N:8S W:9S S:QS E:show E:7D N:7S E:QH N:7H W:AD S:9H "
    "W:AS S:7C E:KH N:TC W:JS S:JH E:JC N:8H"
)


def test_not_decided_while_a_pair_could_change_the_target() -> None:
    state = bangladesh(FIVE_TRICKS)
    assert codes(state) == []
    assert state.points == (0, 19) and not state.is_over
    no_pair = run_script(
        BANGLADESH.with_options(pair="off", pair_lowers_from_call=0), "N", HANDS, FIVE_TRICKS
    )
    assert codes(no_pair) == [] and no_pair.is_over  # decided at 16: play on is tolerated
    assert no_pair.outcome is not None and no_pair.outcome.made


def test_decided_once_the_pair_is_broken() -> None:
    state = bangladesh(f"{FIVE_TRICKS} W:9D S:KD E:AC N:KC")
    assert codes(state) == [] and state.is_over
    assert state.current_seat is None and state.legal_actions() == []
    deal = make_deal("N", HANDS, f"{FIVE_TRICKS} W:9D S:KD E:AC N:KC")
    audited = audit_match(make_match("bangladesh", [deal]))
    assert audited.findings == ()
    facts = audited.deals[0]
    assert facts.decided and not facts.complete and len(facts.tricks) == 6
    assert facts.score_change == {Team.NS: 0, Team.EW: 1}


@pytest.mark.parametrize(("cards", "decided"), [("W:9D", False), ("W:9D S:KD", True)])
def test_the_auditors_loop_decides_when_the_trump_king_falls_mid_trick(
    cards: str, decided: bool
) -> None:
    """``run`` (the auditor's loop) looks again mid-trick only when a King or Queen of
    trumps falls: S's KD ends the Pair, and with it the deal, before the trick is over."""
    deal = make_deal("N", HANDS, f"{FIVE_TRICKS} {cards}")
    state = DealState(BANGLADESH, Seat.N, deal.hands)
    state.run(deal.actions)
    assert state._fast  # white-box: the cards went by the loop's fast path
    assert state.trick_cards and state.decided is decided
    assert state.decided is bangladesh(f"{FIVE_TRICKS} {cards}").decided  # as apply says


def test_deals_without_end_when_decided_must_be_played_out() -> None:
    rules = {"preset": "bangladesh", "end_when_decided": False}
    deal = make_deal("N", HANDS, f"{FIVE_TRICKS} W:9D S:KD E:AC N:KC")
    audited = audit_match(make_match(rules, [deal, make_deal("W", None, "")]))
    assert [(f.code, f.deal) for f in audited.findings if f.severity == "error"] == [
        ("DEAL_INCOMPLETE", 1)
    ]
