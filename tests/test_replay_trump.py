"""The trump choice in all its forms, throw-ins after the full deal, the doubling ladder,
single hand, and the scoring variants (stakes, under half, revoke penalty)."""

from __future__ import annotations

import random

import pytest

from tests.deal_codes import codes
from tests.test_replay_play import SEED_003_HANDS, SEED_003_PLAY
from twentynine.replay import DealState, audit_match, play_random
from twentynine.replay.script import make_deal, make_match, parse_action, run_script
from twentynine.schema import Rules, Seat, Suit, Team
from twentynine.schema.log import Action, TrumpAction

PAGAT = Rules.preset("pagat")
BANGLADESH = Rules.preset("bangladesh")
CLASSIC = Rules.preset("classic29")

# Counter-clockwise, N deals: W (P1) calls; S and N are the opponents.
HANDS = {
    "W": "JS 9S AS TS JD 9D AD TD",
    "S": "KS QS JH 9H KD QD 8D 7C",
    "E": "AH TH KH QH JC 9C AC 7D",
    "N": "8S 7S 8H 7H KC QC 8C TC",
}
CALL = "W:16 S:p N:p E:p"


def bangladesh(actions: str, rules: Rules = BANGLADESH, hands: dict[str, str] = HANDS) -> DealState:
    return run_script(rules, "N", hands, f"{CALL} {actions}")


# --- the choice ----------------------------------------------------------------------


def test_marker_suit_known_to_the_caller_only() -> None:
    state = bangladesh("W:trump=D")
    assert state.trump_suit == "D"
    assert state.trump_status() == "known to the caller: D"
    assert state.trump_status(Seat.W) == "known to the caller: D"
    assert state.trump_status(Seat.E) == "hidden"


def test_seventh_card_names_the_trump() -> None:
    # W's seventh card (third of the second four) is AD.
    state = bangladesh("W:trump=seventh")
    assert codes(state) == []
    assert (state.trump_suit, state.seventh) == ("D", True)
    assert state.trump_status() == "hidden"  # nobody knows it before the second four
    state.apply(_play("W", "JS"))
    assert state.trump_status() == "known to the caller: D"


def test_seventh_card_is_face_down_until_shown() -> None:
    state = bangladesh("W:trump=seventh W:AD")
    assert codes(state) == [("TRUMP_CARD_PLAYED_EARLY", 5)]


def test_seventh_card_contradicting_suit_and_where_off() -> None:
    state = bangladesh("", hands=HANDS)
    state.apply(TrumpAction(seat=Seat.W, seventh=True, suit=_suit("H")))
    assert codes(state) == [("TRUMP_CHOICE_INVALID", 4)]
    pagat = run_script(
        PAGAT.with_options(direction="counterclockwise"),
        "N",
        HANDS,
        "W:15 S:p E:p N:p W:trump=seventh",
    )
    assert codes(pagat) == [("TRUMP_CHOICE_INVALID", 4)]


def test_seventh_card_without_another_scoring_trump_throws_in() -> None:
    hands = {
        "W": "JS 9S AS TS KD QD 8D 7C",  # seventh card 8D; KD QD score nothing
        "S": "KS QS JH 9H JD 9D AD 7D",
        "E": "AH TH KH QH JC 9C AC TD",
        "N": "8S 7S 8H 7H KC QC 8C TC",
    }
    state = bangladesh("W:trump=seventh", hands=hands)
    assert state.outcome is not None and state.outcome.thrown_in == "seventh_no_scoring_trump"


def test_opponents_without_trump_but_the_seven_throw_in() -> None:
    hands = {
        "W": "JS 9S AS TS JD 9D AD TD",
        "S": "KH QH JH 9H KD QD 8D 7C",
        "E": "KS QS 8S AH TH JC 9C AC",
        "N": "7S 8H 7H 7D KC QC 8C TC",
    }
    state = bangladesh("W:trump=S S:double", hands=hands)  # the double came before the deal
    assert codes(state) == []
    assert state.outcome is not None and state.outcome.thrown_in == "opponents_no_trump"
    state.apply(_play("W", "JS"))
    assert codes(state) == [("ACTION_AFTER_DEAL_END", 6)]
    assert not bangladesh("W:trump=D", hands=hands).is_over


def test_own_card_must_come_from_the_first_four() -> None:
    rules = CLASSIC
    ok = run_script(rules, "N", HANDS, "W:16 S:p E:p N:p W:trump=S/TS")
    assert codes(ok) == []
    assert not [a for a in ok.legal_actions() if isinstance(a, TrumpAction)]
    late = run_script(rules, "N", HANDS, "W:16 S:p E:p N:p W:trump=D/JD")  # second four
    assert codes(late) == [("TRUMP_CHOICE_INVALID", 4)]
    assert "not in its first four" in late.findings[0].message
    wrong = run_script(rules, "N", HANDS, "W:16 S:p E:p N:p W:trump=D/JS")
    assert codes(wrong) == [("TRUMP_CHOICE_INVALID", 4)]
    assert late.findings[0].severity == "error"
    choices = run_script(rules, "N", HANDS, "W:16 S:p E:p N:p").legal_actions()
    assert {a.card.text for a in choices if isinstance(a, TrumpAction) and a.card} == {
        "JS",
        "9S",
        "AS",
        "TS",
    }


def test_own_card_may_be_the_last_card() -> None:
    state = run_script(CLASSIC, "N", HANDS, "W:16 S:p E:p N:p W:trump=S/JS")
    state._played3 = 7  # white-box (W plays for seat 3): one card left, its face-down card
    assert state._rule_face_down(3, 0) is None
    state._played3 = 6
    assert state._rule_face_down(3, 0) is not None


def test_marker_card_is_ignored_with_a_warning() -> None:
    state = bangladesh("W:trump=D/JD")
    assert [(f.code, f.severity) for f in state.findings] == [("IGNORED_FIELD", "warning")]


def test_no_trump_and_reverse() -> None:
    rules = PAGAT.with_options(direction="counterclockwise", no_trump=True, reverse=True)
    play = "W:JS S:KS E:show E:7D N:8S"
    plain = run_script(rules, "N", HANDS, f"W:15 S:p E:p N:p W:trump=D {play}")
    none = run_script(rules, "N", HANDS, f"W:15 S:p E:p N:p W:trump=no_trump {play}")
    rev = run_script(rules, "N", HANDS, f"W:15 S:p E:p N:p W:trump=reverse {play}")
    assert codes(plain) == codes(none) == codes(rev) == []
    assert plain.tricks[0][3] == 1  # E trumps with 7D
    assert none.tricks[0][3] == 3  # no trump: W's jack
    assert rev.tricks[0][3] == 0  # reverse: N's 8S beats KS and JS
    assert none.trump_status() == "shown: no trump"
    off = run_script(PAGAT, "N", None, "E:15 S:p W:p N:p E:trump=no_trump")
    assert codes(off) == [("TRUMP_CHOICE_INVALID", 4)]


# --- the doubling ladder ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("ladder", "found", "doubled"),
    [
        ("S:double", [], 1),
        ("S:double W:redouble", [], 2),
        ("S:double E:redouble", [], 2),
        ("E:double", [("DOUBLE_NOT_ALLOWED", 5)], 0),
        ("S:double N:double", [("DOUBLE_NOT_ALLOWED", 6)], 1),
        ("W:redouble", [("REDOUBLE_NOT_ALLOWED", 5)], 0),
        ("S:double S:redouble", [("REDOUBLE_NOT_ALLOWED", 6)], 1),
        ("S:double W:redouble N:set", [("SET_NOT_ALLOWED", 7)], 2),
        ("W:JS S:double", [("DOUBLE_NOT_ALLOWED", 6)], 0),
    ],
)
def test_bangladesh_ladder(ladder: str, found: list[tuple[str, int]], doubled: int) -> None:
    state = bangladesh(f"W:trump=D {ladder}")
    assert codes(state) == found
    assert state.doubled == doubled


def test_set_where_allowed_and_doubling_where_not() -> None:
    rules = BANGLADESH.with_options(set=True)
    state = bangladesh("W:trump=D S:double W:redouble N:set", rules=rules)
    assert codes(state) == [] and state.doubled == 3
    pagat = run_script(PAGAT, "N", None, "E:15 S:p W:p N:p E:trump=D S:double")
    assert codes(pagat) == [("DOUBLE_NOT_ALLOWED", 5)]
    assert pagat.findings[0].message == "S doubled but these rules have no Double"


@pytest.mark.parametrize(
    ("ladder", "stake"), [("", 1), ("S:double", 2), ("S:double W:redouble", 4)]
)
def test_stake_moves_the_score(ladder: str, stake: int) -> None:
    checked = 0
    for seed in range(12):
        state = bangladesh(f"W:trump=D {ladder}")
        play_random(state, random.Random(seed))
        outcome = state.outcome
        assert outcome is not None
        if state.single >= 0:
            continue  # single hand replaces the bid and the stake
        assert outcome.made is not None
        assert outcome.score_change == {Team.EW: stake if outcome.made else -stake, Team.NS: 0}
        checked += 1
    assert checked >= 3


def test_the_second_four_are_dealt_once_the_doubling_is_over() -> None:
    """Four cards while anyone may still double; eight from then on, before the first card."""
    state = bangladesh("W:trump=seventh")  # W's seventh card, AD, names diamonds
    assert len(state.hand(Seat.W)) == 4 and state.trump_status(Seat.W) == "hidden"
    state.apply(parse_action("S:double"))
    assert len(state.hand(Seat.S)) == 4  # the caller's side may still redouble
    state.end_doubling()  # nobody redoubles: the single-hand decision comes next
    assert [len(state.hand(seat)) for seat in Seat] == [8, 8, 8, 8]
    assert state.trump_status(Seat.W) == "known to the caller: D"
    assert state.trump_status(Seat.S) == "hidden"
    assert [a.type for a in state.legal_actions() if a.type != "play"] == ["single_hand"] * 4
    assert codes(state) == []
    late = state.copy()
    late.apply(parse_action("W:redouble"))
    assert codes(late) == [("REDOUBLE_NOT_ALLOWED", 6)]
    # At the top of the ladder, and under rules without a Double, nobody need say so.
    top = bangladesh("W:trump=seventh S:double W:redouble")
    assert len(top.hand(Seat.N)) == 8 and top.trump_status(Seat.W) == "known to the caller: D"
    pagat = run_script(PAGAT.with_options(seventh_card="pagat"), "E", HANDS, "N:15 W:p S:p E:p")
    assert len(pagat.hand(Seat.N)) == 4
    pagat.apply(parse_action("N:trump=seventh"))
    assert len(pagat.hand(Seat.N)) == 8 and pagat.trump_status(Seat.N) == "known to the caller: C"


def test_a_single_hand_or_a_card_closes_the_doubling() -> None:
    single = run_script(BANGLADESH, "E", SINGLE, f"{SINGLE_CALL} W:single")
    assert len(single.hand(Seat.N)) == 8
    assert codes(run_script(BANGLADESH, "E", SINGLE, f"{SINGLE_CALL} W:single W:double")) == [
        ("DOUBLE_NOT_ALLOWED", 6)
    ]
    card = bangladesh("W:trump=D W:JS")
    assert len(card.hand(Seat.N)) == 8 and not card.ladder_open


# --- single hand --------------------------------------------------------------------

# Counter-clockwise, E deals: N is P1. N's hand wins every trick without trumps.
SINGLE = {
    "N": "JS 9S AS TS JH 9H AH TH",
    "W": "JD KS QS 8S KH QH 8H 7H",
    "S": "9D AD TD KD 7S JC 9C AC",
    "E": "QD 8D 7D TC KC QC 8C 7C",
}
SINGLE_CALL = "N:16 W:p E:p S:p N:trump=S"
SINGLE_WIN = (
    "N:JS W:KS E:QD N:9S W:QS E:8D N:AS W:8S E:7D N:TS W:JD E:TC "
    "N:JH W:KH E:KC N:9H W:QH E:QC N:AH W:8H E:8C N:TH W:7H E:7C"
)


def test_single_hand_won() -> None:
    deal = make_deal("E", SINGLE, f"{SINGLE_CALL} N:single {SINGLE_WIN}")
    audited = audit_match(make_match("bangladesh", [deal]))
    assert audited.findings == ()
    facts = audited.deals[0]
    assert facts.single_hand is Seat.N and len(facts.tricks) == 8
    assert all(len(t.cards) == 3 for t in facts.tricks)
    assert facts.score_change == {Team.NS: 3, Team.EW: 0}


def test_single_hand_lost_at_the_first_trick_lost() -> None:
    state = run_script(BANGLADESH, "E", SINGLE, f"{SINGLE_CALL} S:single S:9D E:QD W:JD")
    assert codes(state) == []
    assert state.is_over and state.outcome is not None
    assert state.outcome.score_change == {Team.NS: -3, Team.EW: 0}


@pytest.mark.parametrize("end_when_decided", [True, False])
def test_a_card_after_the_lost_trick_ends_nothing_more(end_when_decided: bool) -> None:
    """Seed 000 §9: the first trick lost ends the deal, with or without the early end."""
    rules = BANGLADESH.with_options(end_when_decided=end_when_decided)
    lost = f"{SINGLE_CALL} S:single S:9D E:QD W:JD"
    state = run_script(rules, "E", SINGLE, f"{lost} W:KS N:JS E:8D")
    assert codes(state) == [("ACTION_AFTER_DEAL_END", 9)]
    assert "W played KS after the deal was over" in state.findings[0].message
    assert state.outcome is not None
    assert state.outcome.score_change == {Team.NS: -3, Team.EW: 0}


def test_single_hand_rules() -> None:
    state = run_script(BANGLADESH, "E", SINGLE, f"{SINGLE_CALL} N:single S:single N:JS S:7S")
    assert codes(state) == [("SINGLE_HAND_NOT_ALLOWED", 6), ("OUT_OF_TURN", 8)]
    late = run_script(BANGLADESH, "E", SINGLE, f"{SINGLE_CALL} N:JS W:single")
    assert codes(late) == [("SINGLE_HAND_NOT_ALLOWED", 6)]
    show = run_script(BANGLADESH, "E", SINGLE, f"{SINGLE_CALL} N:single N:JS W:KS E:show")
    assert codes(show) == [("SHOW_NOT_ALLOWED", 8)]
    pagat = run_script(PAGAT, "N", None, "E:15 S:p W:p N:p E:trump=D E:single")
    assert codes(pagat) == [("SINGLE_HAND_NOT_ALLOWED", 5)]


# --- under half and the revoke penalty ------------------------------------------------

FLAT = {
    "E": "JS 9S JH 9H JD 9D JC 9C",
    "S": "AS TS AH TH AD TD AC TC",
    "W": "KS QS KH QH KD QD KC QC",
    "N": "8S 7S 8H 7H 8D 7D 8C 7C",
}
FLAT_PLAY = " ".join(
    f"E:{r}{s} S:{o}{s} W:{k}{s} N:{e}{s}"
    for s in "SHDC"
    for r, o, k, e in (("J", "A", "K", "8"), ("9", "T", "Q", "7"))
)


@pytest.mark.parametrize(("under_half", "change"), [(False, -1), (True, -2)])
def test_under_half(under_half: bool, change: int) -> None:
    rules = {"preset": "beginner", "under_half": under_half}
    deal = make_deal("N", FLAT, f"E:p S:p W:p N:16 N:trump=D {FLAT_PLAY}")
    audited = audit_match(make_match(rules, [deal]))
    assert audited.findings == ()
    assert audited.deals[0].score_change == {Team.NS: change, Team.EW: 0}


def test_revoke_loses_the_deal_in_classic29() -> None:
    # The seed 003 deal, with W revoking in trick 6 (8D on a heart lead, holding 7H): the
    # callers EW still take 20 points, but the revoking side loses the deal.
    play = SEED_003_PLAY.replace("E:TH N:8S W:7H", "E:TH N:8S W:8D").replace(
        "E:JH N:KC W:8D", "E:JH N:KC W:7H"
    )
    deal = make_deal("E", SEED_003_HANDS, play)
    audited = audit_match(make_match("classic29", [deal]))
    assert [(f.code, f.action) for f in audited.findings] == [("REVOKE", 28)]
    assert audited.findings[0].message == "W played 8D holding 7H: must follow hearts"
    facts = audited.deals[0]
    assert facts.points == {Team.NS: 9, Team.EW: 20}
    assert (facts.made, facts.score_change) == (False, {Team.NS: 0, Team.EW: -1})
    plain = audit_match(make_match({"preset": "classic29", "revoke_loses_deal": False}, [deal]))
    assert plain.deals[0].score_change == {Team.NS: 0, Team.EW: 1}


def _play(seat: str, card: str) -> Action:
    return parse_action(f"{seat}:{card}")


def _suit(letter: str) -> Suit:
    return Suit(letter)
