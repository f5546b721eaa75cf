"""Injected breaches: the auditor finds each one, at its action, with its code."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from twentynine.replay.audit import audit_match
from twentynine.replay.deal import DealState
from twentynine.replay.findings import CATALOGUE, Finding
from twentynine.replay.inject import KINDS, RESULT_KINDS, applicable_kinds, breach_action
from twentynine.replay.script import parse_actions, run_script
from twentynine.replay.selfplay import simulate_matches
from twentynine.schema import PRESET_NAMES, MatchLog, Rules, Seat
from twentynine.schema.log import BidAction, PlayAction, ShowAction


def check_contract(match: MatchLog) -> Counter[str]:
    """The first error of each injected deal is the breach; other deals have no error."""
    assert match.meta is not None
    injected = {entry["deal"]: entry for entry in match.meta["injected"]}
    by_deal: dict[int | None, list[Finding]] = defaultdict(list)
    for finding in audit_match(match).findings:
        if finding.severity == "error":
            by_deal[finding.deal].append(finding)
    kinds: Counter[str] = Counter()
    for deal, entry in injected.items():
        first = by_deal[deal][0] if by_deal[deal] else None
        assert first is not None, entry
        assert (first.action, first.code) == (entry["action"], KINDS[entry["kind"]]), entry
        kinds[entry["kind"]] += 1
    for deal, findings in by_deal.items():
        if deal is None:
            assert [f.code for f in findings] == ["MATCH_SCORE_MISMATCH"]
            assert kinds["wrong_score"]
        else:
            assert deal in injected, findings[0]
    return kinds


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_kind_is_found_where_it_was_put(preset: str) -> None:
    rules = Rules.preset(preset)
    kinds: Counter[str] = Counter()
    for match in simulate_matches(rules, 10, 11, inject_rate=0.4):
        kinds += check_contract(match)
    assert set(kinds) == set(applicable_kinds(rules)), kinds


def test_one_kind_at_a_time_and_a_high_rate() -> None:
    rules = Rules.preset("bangladesh")
    for kind in ("no_trump_after_show", "wrong_score"):
        matches = list(simulate_matches(rules, 2, 4, inject_rate=1.0, inject_kinds=[kind]))
        kinds: Counter[str] = Counter()
        for match in matches:
            kinds += check_contract(match)
        assert set(kinds) == {kind}


def test_no_rate_no_breach() -> None:
    match = next(simulate_matches(Rules.preset("pagat"), 1, 2))
    assert match.meta is not None and "injected" not in match.meta
    zero = next(simulate_matches(Rules.preset("pagat"), 1, 2, inject_rate=0.0))
    assert zero == match


def test_kinds_name_catalogue_codes_and_impossible_kinds_are_refused() -> None:
    assert set(KINDS.values()) <= set(CATALOGUE)
    assert set(KINDS) >= RESULT_KINDS
    assert "no_trump_after_show" not in applicable_kinds(Rules.preset("standard"))
    assert "no_trump_after_show" in applicable_kinds(Rules.preset("bhoos"))
    with pytest.raises(ValueError, match="no_trump_after_show"):
        next(
            simulate_matches(
                Rules.preset("pagat"), 1, 1, inject_rate=0.5, inject_kinds=["no_trump_after_show"]
            )
        )
    with pytest.raises(ValueError, match="'nonsense'"):
        next(
            simulate_matches(
                Rules.preset("pagat"), 1, 1, inject_rate=0.5, inject_kinds=["nonsense"]
            )
        )


HANDS = {
    "E": "JH 9H AH TH 7S 8C 7D 8D",
    "W": "JC 9C AC TC AS QS JD 9D",
    "S": "AD KC QC 7C KD QD 8S TD",
    "N": "JS 9S KS 7H 8H KH QH TS",
}


def state_after(script: str, preset: str = "bangladesh") -> DealState:
    # bangladesh, N deals: W is P1 against S; S's partner N comes in when S passes
    state = run_script(Rules.preset(preset), "N", HANDS, script)
    assert state.findings == []
    return state


def test_breach_actions_are_the_breaches_they_name() -> None:
    state = state_after("W:16")
    bid = breach_action("bad_bid", state, Seat.S, [])
    assert isinstance(bid, BidAction) and bid.value <= 16
    play = "W:16 S:p N:p E:p W:trump=C W:AS S:8S E:7S"
    state = state_after(play)
    revoke = breach_action("revoke", state, Seat.N, parse_actions(play))
    assert isinstance(revoke, PlayAction) and revoke.card.suit.value != "S"
    show = breach_action("show_while_able", state, Seat.N, parse_actions(play))
    assert isinstance(show, ShowAction)
    stolen = breach_action("card_not_held", state, Seat.N, parse_actions(play))
    assert isinstance(stolen, PlayAction) and stolen.card.suit.value == "S"
    early = breach_action("out_of_turn", state_after("W:16 S:p N:p E:p W:trump=C W:AS"), Seat.S, [])
    assert isinstance(early, PlayAction) and early.seat is Seat.E
    # Not an opportunity: nobody can be out of turn after the last card of a trick is due.
    assert breach_action("out_of_turn", state, Seat.N, parse_actions(play)) is None
    # After a proper show, the asker plays a non-trump although it holds one.
    shown = "W:16 S:p N:p E:p W:trump=H W:JD S:QD E:7D N:show"
    wrong = breach_action("no_trump_after_show", state_after(shown), Seat.N, parse_actions(shown))
    assert isinstance(wrong, PlayAction) and wrong.card.suit.value != "H"
    shown = shown.replace("trump=H", "trump=C")
    wrong = breach_action("no_trump_after_show", state_after(shown), Seat.N, parse_actions(shown))
    assert wrong is None  # N holds no club: it could not trump anyway
