"""Tricks: following suit, holding the card, the show in its three forms, what the asker must
play, trick winners (the show trick included), the seed 003 worked example, the last trick."""

from __future__ import annotations

import pytest

from tests.deal_codes import codes
from twentynine.replay import DealState, audit_match
from twentynine.replay.script import make_deal, make_match, parse_action, run_script
from twentynine.schema import Card, Rules, Seat, Team
from twentynine.schema.log import PlayAction, ShowAction

PAGAT = Rules.preset("pagat")
STANDARD = Rules.preset("standard")
BANGLADESH = Rules.preset("bangladesh")
BEGINNER = Rules.preset("beginner")
BHOOS = Rules.preset("bhoos")
CLASSIC = Rules.preset("classic29")

# Clockwise, N deals: E leads. E holds the trump (diamonds) and leads spades; S can follow,
# W cannot.
CLOCKWISE_HANDS = {
    "E": "JS 9S AS TS JD 9D AD TD",
    "S": "KS QS JH 9H KD QD 8D 7D",
    "W": "AH TH KH QH JC 9C AC TC",
    "N": "8S 7S 8H 7H KC QC 8C 7C",
}
PAGAT_CALL = "E:15 S:p W:p N:p E:trump=D"


def pagat(actions: str) -> DealState:
    return run_script(PAGAT, "N", CLOCKWISE_HANDS, f"{PAGAT_CALL} {actions}")


# --- following and holding -----------------------------------------------------------


def test_clean_trick_and_winner() -> None:
    state = pagat("E:JS S:KS W:show W:AH N:8S")
    assert codes(state) == []
    assert state.tricks[0][3] == 1  # E (seat number 1) wins with the jack
    assert state.points == (0, 4)  # JS 3 + AH 1 to EW
    assert state.current_seat is Seat.E


def test_revoke_names_seat_card_and_rule() -> None:
    state = pagat("E:JS S:JH")
    assert codes(state) == [("REVOKE", 6)]
    assert state.findings[0].message == "S played JH holding KS: must follow spades"


def test_card_not_held_and_already_played() -> None:
    state = pagat("E:JS S:8S")
    assert codes(state) == [("CARD_NOT_HELD", 6)]
    assert state.findings[0].message == "S played 8S, which N holds"
    again = pagat("E:JS S:KS W:show W:AH N:8S E:JS")
    assert ("CARD_ALREADY_PLAYED", 10) in codes(again)


def test_out_of_turn_play_is_reported_and_kept() -> None:
    state = pagat("E:JS W:show")
    assert codes(state) == [("OUT_OF_TURN", 6)]
    assert state.findings[0].message == "W asked for the trump but it is S's turn to play"
    played = pagat("E:JS N:8S S:KS")
    assert codes(played) == [("OUT_OF_TURN", 6)]
    assert played.current_seat is Seat.W  # the table goes on: W still to play


def test_legal_plays_follow_suit() -> None:
    state = pagat("E:JS")
    assert state.legal_actions() == [
        PlayAction(seat=Seat.S, card=Card.parse("KS")),
        PlayAction(seat=Seat.S, card=Card.parse("QS")),
    ]


def test_play_before_the_trump_is_out_of_phase() -> None:
    state = run_script(PAGAT, "N", CLOCKWISE_HANDS, "E:15 S:p W:p N:p E:JS")
    assert codes(state) == [("ACTION_OUT_OF_PHASE", 4)]


# --- the show ------------------------------------------------------------------------


def test_compulsory_show_required() -> None:
    state = pagat("E:JS S:KS W:AH")
    assert codes(state) == [("SHOW_REQUIRED", 7)]
    assert state.findings[0].message == (
        "W played AH on a spades lead without asking for the trump: the first player who "
        "cannot follow must ask"
    )
    assert pagat("E:JS S:KS").legal_actions() == [ShowAction(seat=Seat.W)]


def test_show_while_able_to_follow_and_by_leader() -> None:
    state = pagat("E:JS S:show")
    assert codes(state) == [("SHOW_WHILE_ABLE_TO_FOLLOW", 6)]
    assert state.findings[0].message == (
        "S asked for the trump holding KS: only a player who cannot follow may ask"
    )
    leader = pagat("E:show")
    assert codes(leader) == [("SHOW_NOT_ALLOWED", 5)]
    twice = pagat("E:JS S:KS W:show W:AH N:8S E:9S S:QS W:show")
    assert ("SHOW_NOT_ALLOWED", 12) in codes(twice)


def test_show_suit_mismatch() -> None:
    state = pagat("E:JS S:KS W:show=H")
    assert codes(state) == [("SHOW_SUIT_MISMATCH", 7)]


def test_optional_show_may_be_skipped() -> None:
    rules = PAGAT.with_options(show_trump="optional")
    state = run_script(rules, "N", CLOCKWISE_HANDS, f"{PAGAT_CALL} E:JS S:KS W:AH N:8S")
    assert codes(state) == []
    assert not state.shown


def test_automatic_show_on_first_failure_to_follow() -> None:
    state = run_script(
        BEGINNER, "N", CLOCKWISE_HANDS, "E:16 S:p W:p N:p E:trump=D E:JS S:KS W:AH N:8S"
    )
    assert codes(state) == []
    assert state.shown and state.asker == 3 and state.show_trick == 0
    assert state.trump_status() == "shown: D"


# --- what the asker must play ----------------------------------------------------------

# Counter-clockwise, N deals: W leads and calls; E cannot follow spades and holds 7D.
BANGLADESH_HANDS = {
    "W": "JS 9S AS TS JD 9D AD TD",
    "S": "KS QS JH 9H KD QD 8D 7C",
    "E": "AH TH KH QH JC 9C AC 7D",
    "N": "8S 7S 8H 7H KC QC 8C TC",
}
BANGLADESH_CALL = "W:16 S:p N:p E:p W:trump=D"


def bangladesh(actions: str) -> DealState:
    return run_script(BANGLADESH, "N", BANGLADESH_HANDS, f"{BANGLADESH_CALL} {actions}")


def test_must_trump_after_asking() -> None:
    state = bangladesh("W:JS S:KS E:show E:AH")
    assert codes(state) == [("MUST_TRUMP_AFTER_SHOW", 8)]
    assert state.findings[0].message == (
        "E played AH after asking, holding 7D: must play a trump after asking"
    )
    ok = bangladesh("W:JS S:KS E:show E:7D N:8S")
    assert codes(ok) == []
    assert ok.tricks[0][3] == 1  # E's 7D wins the show trick


def test_an_illegal_show_does_not_oblige_the_asker_to_trump() -> None:
    """Following suit comes first: N asked holding spades, so N follows, trump or no trump."""
    hands = {
        "E": "JH 9H AH TH 7S 8C 7D 8D",
        "W": "JC 9C AC TC AS QS JD 9D",
        "S": "AD KC QC 7C KD QD 8S TD",
        "N": "JS 9S KS 7H 8H KH QH TS",
    }
    call = "W:16 S:p N:p E:p W:trump=H W:AS S:8S E:7S N:show"
    state = run_script(BANGLADESH, "N", hands, call)
    assert codes(state) == [("SHOW_WHILE_ABLE_TO_FOLLOW", 8)]
    legal = {a.card.text for a in state.legal_actions() if isinstance(a, PlayAction)}
    assert legal == {"JS", "9S", "KS", "TS"}
    follows = run_script(BANGLADESH, "N", hands, f"{call} N:KS")
    assert codes(follows) == [("SHOW_WHILE_ABLE_TO_FOLLOW", 8)]
    trumps = run_script(BANGLADESH, "N", hands, f"{call} N:7H")
    assert codes(trumps) == [("SHOW_WHILE_ABLE_TO_FOLLOW", 8), ("REVOKE", 9)]


def test_a_leaders_show_does_not_oblige_a_trump_lead() -> None:
    state = bangladesh("W:show")
    assert codes(state) == [("SHOW_NOT_ALLOWED", 5)]
    assert {a.card.text for a in state.legal_actions() if isinstance(a, PlayAction)} == {
        "JS",
        "9S",
        "AS",
        "TS",
        "JD",
        "9D",
        "AD",
        "TD",
    }


def test_pagat_seventh_card_turned_up_while_able_to_follow() -> None:
    """The caller who turns up the seventh card holding the suit led follows suit."""
    rules = PAGAT.with_options(seventh_card="pagat")
    hands = dict(CLOCKWISE_HANDS)
    hands["S"] = "KS QS JH 9H KD QD AC 7D"  # the seventh card, AC, names clubs
    hands["W"] = "AH TH KH QH JC 9C 8D TC"
    call = "E:p S:15 W:p N:p S:trump=seventh E:JS S:show"
    turned = run_script(rules, "N", hands, call)
    assert turned.face_down == Card.parse("AC").index
    assert codes(turned) == [("SHOW_WHILE_ABLE_TO_FOLLOW", 6)]
    legal = {a.card.text for a in turned.legal_actions() if isinstance(a, PlayAction)}
    assert legal == {"KS", "QS"}
    assert codes(run_script(rules, "N", hands, f"{call} S:KS")) == codes(turned)
    # Unable to follow, the caller who turns it up plays it.
    hands["S"] = "AH TH JH 9H KD QD AC 7D"
    hands["W"] = "KS QS KH QH JC 9C 8D TC"
    unable = run_script(rules, "N", hands, call)
    assert codes(unable) == []
    assert [a.card.text for a in unable.legal_actions() if isinstance(a, PlayAction)] == ["AC"]


def test_the_face_down_card_as_the_only_card_of_the_suit_led_after_the_show() -> None:
    """The caller whose only card of the suit led is its face-down card asks, then plays
    another suit: a revoke, and the duty the show left broken too (two findings)."""
    hands = {
        "W": "7D JS 9S AS TS JC 9C AC",  # 7D, face down, is W's only diamond
        "S": "KD QD JH 9H KS QS 8D 8C",
        "E": "AH TH KH QH JD 9D 7C TC",
        "N": "8S 7S 8H 7H AD TD KC QC",
    }
    call = "S:p E:p N:p W:16 W:trump=D/7D S:KD E:JD N:AD W:show"
    state = run_script(CLASSIC, "W", hands, f"{call} W:JS")
    assert [(f.code, f.message) for f in state.findings] == [
        ("REVOKE", "W played JS holding 7D: must follow diamonds"),
        (
            "MUST_TRUMP_AFTER_SHOW",
            "W played JS after asking, holding 7D: must play a trump after asking",
        ),
    ]
    assert codes(run_script(CLASSIC, "W", hands, f"{call} W:7D")) == []
    # Pagat's seventh card turned up is that card: playing another suit also leaves it unplayed.
    rules = PAGAT.with_options(seventh_card="pagat")
    hands = {
        "E": "JC 9S AS TS JD 9D AD TD",
        "S": "AH TH JH 9H KD QD AC 7D",  # the seventh card, AC, is S's only club
        "W": "KS QS KH QH JS 9C 8D TC",
        "N": "8S 7S 8H 7H KC QC 8C 7C",
    }
    call = "E:p S:15 W:p N:p S:trump=seventh E:JC S:show"
    state = run_script(rules, "N", hands, f"{call} S:AH")
    assert [(f.code, f.message) for f in state.findings] == [
        ("REVOKE", "S played AH holding AC: must follow clubs"),
        (
            "SEVENTH_CARD_NOT_PLAYED",
            "S played AH after turning up the seventh card: turning it up plays it (AC)",
        ),
    ]
    assert codes(run_script(rules, "N", hands, f"{call} S:AC")) == []


def test_a_face_down_card_played_early_is_no_longer_face_down() -> None:
    rules = PAGAT.with_options(seventh_card="pagat")
    hands = {
        **CLOCKWISE_HANDS,
        "S": "AH TH JH 9H KD QD AC 7D",  # the seventh card, AC, names clubs
        "W": "KS QS KH QH JC 9C 8D TC",
    }
    state = run_script(rules, "N", hands, "E:p S:15 W:p N:p S:trump=seventh E:JS S:AC")
    assert codes(state) == [("TRUMP_CARD_PLAYED_EARLY", 6)]
    assert state.seat_view(Seat.S).face_down is None
    state = run_script(rules, "N", hands, "E:p S:15 W:p N:p S:trump=seventh E:JS S:AC W:KS N:8S")
    for token in ("E:9S", "S:show"):
        state.apply(parse_action(token))
    # Turning up the seventh card would play it, but it is already on the table.
    assert {a.card.text for a in state.legal_actions() if isinstance(a, PlayAction)} == {
        "AH",
        "TH",
        "JH",
        "9H",
        "KD",
        "QD",
        "7D",
    }


def test_no_must_trump_in_pagat() -> None:
    hands = dict(BANGLADESH_HANDS)
    rules = PAGAT.with_options(direction="counterclockwise")
    state = run_script(rules, "N", hands, "W:15 S:p E:p N:p W:trump=D W:JS S:KS E:show E:AH")
    assert codes(state) == []


# Clockwise, N deals, E calls hearts: S trumps spades before the show; W then asks.
BHOOS_HANDS = {
    "E": "JS 9S AS TS JD 9D AD TD",
    "S": "JC 9C AC TC 9H KD QD 8D",
    "W": "AH KH JH 7H KC QC 8C 7C",
    "N": "KS QS 8S 7S TH QH 8H 7D",
}
BHOOS_CALL = "E:16 S:p W:p N:p E:trump=H"


def bhoos(actions: str) -> DealState:
    return run_script(BHOOS, "N", BHOOS_HANDS, f"{BHOOS_CALL} {actions}")


def test_bhoos_must_overtrump_an_opponents_trump() -> None:
    state = bhoos("E:JS S:9H W:show W:7H")
    assert codes(state) == [("MUST_OVERTRUMP_AFTER_SHOW", 8)]
    assert state.findings[0].message == (
        "W played 7H after asking, holding JH, while S's 9H wins: must beat an opponent's "
        "winning trump"
    )
    legal = {a.card.text for a in bhoos("E:JS S:9H W:show").legal_actions() if a.type == "play"}
    assert legal == {"JH"}
    ok = bhoos("E:JS S:9H W:show W:JH N:KS")
    assert codes(ok) == []
    assert ok.tricks[0][3] == 3  # W: the trump played before the show counts in its trick


def test_bhoos_must_trump_when_no_higher() -> None:
    state = bhoos("E:JS S:9H W:show W:KC")
    assert codes(state) == [("MUST_TRUMP_AFTER_SHOW", 8)]


def test_trump_before_the_show_is_an_ordinary_card() -> None:
    rules = BHOOS
    state = run_script(rules, "N", BHOOS_HANDS, f"{BHOOS_CALL} E:JS S:9H W:AH N:KS")
    assert codes(state) == []
    assert state.tricks[0][3] == 1  # E's JS: S's 9H counts for nothing yet


# --- trick winners, the seed 003 worked example and the last trick ------------------

SEED_003_HANDS = {
    # counter-clockwise, E deals: N (player 3) leads; W is player 1, S player 2, E player 4
    "W": "9H 7H JD 9D AH KD QD 8D",
    "N": "JS 9S KC QC 8S TC 7D AD",
    "S": "AS TS JC 9C KS QS AC 8C",
    "E": "7S TH KH QH 8H JH TD 7C",
}
SEED_003_PLAY = (
    "N:p W:18 S:p E:p W:trump=H/7H "
    "N:JS W:show W:9H S:AS E:7S "
    "W:AH S:TS E:KH N:7D W:KD S:JC E:TD N:AD N:QC W:9D S:9C E:7C S:QS E:QH N:9S W:JD "
    "E:TH N:8S W:7H S:8C E:JH N:KC W:8D S:KS E:8H N:TC W:QD S:AC"
)


def test_seed_003_worked_example() -> None:
    """Seed 003: player 1 calls 18 with hearts hidden; 3 leads JS, 1 asks and must trump
    with 9H, 2 plays AS, 4 the 7S; player 1 wins 6 points; 1 and 4 end with 20: +1."""
    deal = make_deal("E", SEED_003_HANDS, SEED_003_PLAY)
    audited = audit_match(make_match("classic29", [deal]))
    assert audited.findings == ()
    facts = audited.deals[0]
    first = facts.tricks[0]
    assert [(s.value, c.text) for s, c in first.cards] == [
        ("N", "JS"),
        ("W", "9H"),
        ("S", "AS"),
        ("E", "7S"),
    ]
    assert (first.winner, first.points) == (Seat.W, 6)
    assert facts.show is not None and (facts.show.seat, facts.show.trick) == (Seat.W, 1)
    assert facts.points == {Team.NS: 9, Team.EW: 20}  # 29 with the last-trick point
    assert (facts.caller, facts.call, facts.made) == (Seat.W, 18, True)
    assert facts.score_change == {Team.NS: 0, Team.EW: 1}


def test_seed_003_asker_must_trump() -> None:
    bad = SEED_003_PLAY.replace("W:show W:9H S:AS", "W:show W:JD S:AS", 1)
    audited = audit_match(make_match("classic29", [make_deal("E", SEED_003_HANDS, bad)]))
    assert (audited.findings[0].code, audited.findings[0].action) == ("MUST_TRUMP_AFTER_SHOW", 7)


def test_own_card_marker_may_not_be_played_before_the_show() -> None:
    state = run_script(CLASSIC, "E", SEED_003_HANDS, "N:p W:18 S:p E:p W:trump=H/7H N:JS W:7H")
    assert codes(state) == [("TRUMP_CARD_PLAYED_EARLY", 6)]
    # after W's show, the face-down 7H is an ordinary trump
    shown = run_script(
        CLASSIC, "E", SEED_003_HANDS, "N:p W:18 S:p E:p W:trump=H/7H N:JS W:show W:7H"
    )
    assert codes(shown) == []


def test_last_trick_bonus_only_where_the_rules_give_it() -> None:
    deal = make_deal("E", SEED_003_HANDS, SEED_003_PLAY)
    plain = audit_match(make_match({"preset": "classic29", "last_trick_bonus": 0}, [deal]))
    bonus = audit_match(make_match("classic29", [deal]))
    assert sum(plain.deals[0].points.values()) == 28
    assert sum(bonus.deals[0].points.values()) == 29
    assert plain.deals[0].tricks[-1].points == 2  # 8H TC QD AC
    assert bonus.deals[0].tricks[-1].points == 3


# --- trump never shown ---------------------------------------------------------------

# Every seat holds two of each suit and E the two best: everyone always follows.
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


@pytest.mark.parametrize(
    ("rules", "call", "thrown_in", "change"),
    [
        ("pagat", "E:15 S:p W:p N:p E:trump=D", "never_shown", 0),
        ("beginner", "E:16 S:p W:p N:p E:trump=D", None, 1),
    ],
)
def test_trump_never_shown(rules: str, call: str, thrown_in: str | None, change: int) -> None:
    deal = make_deal("N", FLAT, f"{call} {FLAT_PLAY}")
    audited = audit_match(make_match(rules, [deal]))
    assert audited.findings == ()
    facts = audited.deals[0]
    assert facts.show is None and facts.thrown_in == thrown_in
    assert facts.points == {Team.NS: 0, Team.EW: 28}
    assert facts.score_change[Team.EW] == change


def test_end_of_deal_then_more_actions() -> None:
    state = run_script(BEGINNER, "N", FLAT, f"E:16 S:p W:p N:p E:trump=D {FLAT_PLAY} E:JS")
    assert codes(state) == [("ACTION_AFTER_DEAL_END", 37)]
