"""Partial information: missing hands and cards, a trump recorded only when shown. The
auditor infers what it can, proves breaches from later plays, warns about the rest, and
never raises on a log that validates."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.strategies import match_documents
from tests.test_replay_play import CLOCKWISE_HANDS, SEED_003_HANDS, SEED_003_PLAY
from twentynine.replay import audit_match, random_match
from twentynine.replay.script import make_deal, make_match
from twentynine.schema import MatchLog, Rules, Seat, Team
from twentynine.schema.log import ACTION_TYPES

PAGAT_CALL = "E:15 S:p W:p N:p E:trump=D"


def found(log: MatchLog) -> list[tuple[str, int | None]]:
    return [(f.code, f.action) for f in audit_match(log).findings]


def hide(hands: dict[str, str], *seats: str, cards: int = 8) -> dict[str, str]:
    """The hands with the last ``cards`` cards of each named seat unknown."""
    out = dict(hands)
    for seat in seats:
        known = hands[seat].split()[: 8 - cards]
        out[seat] = " ".join([*known, *["?"] * cards])
    return out


def test_no_hands_at_all_gives_one_warning() -> None:
    deal = make_deal("E", None, SEED_003_PLAY)
    audited = audit_match(make_match("classic29", [deal]))
    assert [(f.code, f.severity) for f in audited.findings] == [("PARTIAL_HANDS", "warning")]
    assert audited.deals[0].points == {Team.NS: 9, Team.EW: 20}
    assert audited.deals[0].score_change == {Team.NS: 0, Team.EW: 1}


def test_one_missing_hand_is_the_cards_nobody_else_holds() -> None:
    hands = {seat: text for seat, text in SEED_003_HANDS.items() if seat != "S"}
    deal = make_deal("E", hands, SEED_003_PLAY)
    assert found(make_match("classic29", [deal])) == []


def test_revoke_proved_when_the_seat_later_plays_the_suit() -> None:
    # S (hand unknown) discards JH on E's spade lead, then plays KS in trick 2.
    hands = hide(CLOCKWISE_HANDS, "S", "N")
    play = f"{PAGAT_CALL} E:JS S:JH W:show W:AH N:8S E:9S S:KS"
    log = make_match("pagat", [make_deal("N", hands, play)])
    audited = audit_match(log)
    revoke = [f for f in audited.findings if f.code == "REVOKE"]
    assert [(f.action, f.severity) for f in revoke] == [(6, "error")]
    assert revoke[0].message == (
        "S played JH on a spades lead while holding spades (it later played KS): must follow spades"
    )


def test_unproved_failure_to_follow_is_no_error() -> None:
    hands = hide(CLOCKWISE_HANDS, "S", "N")
    play = f"{PAGAT_CALL} E:JS S:JH W:show W:AH N:8S E:9S S:9H"
    codes = [c for c, _ in found(make_match("pagat", [make_deal("N", hands, play)]))]
    assert "REVOKE" not in codes


def test_card_known_elsewhere_is_not_held() -> None:
    hands = hide(hide(CLOCKWISE_HANDS, "S"), "W", cards=2)
    play = f"{PAGAT_CALL} E:JS S:8S"
    assert ("CARD_NOT_HELD", 6) in found(make_match("pagat", [make_deal("N", hands, play)]))


def test_trump_recorded_only_at_the_show() -> None:
    hands = dict(SEED_003_HANDS)
    play = SEED_003_PLAY.replace("W:trump=H/7H", "W:trump=?").replace("W:show", "W:show=H")
    audited = audit_match(
        make_match({"preset": "classic29", "trump_marker": "marker"}, [make_deal("E", hands, play)])
    )
    assert audited.findings == ()
    facts = audited.deals[0]
    assert facts.trump == "H" and facts.points == {Team.NS: 9, Team.EW: 20}


def test_trump_never_recorded_winners_follow_the_log() -> None:
    play = SEED_003_PLAY.replace("W:trump=H/7H", "W:trump=?")
    audited = audit_match(
        make_match({"preset": "classic29", "trump_marker": "marker"}, [make_deal("E", None, play)])
    )
    assert audited.errors == 0
    assert {f.code for f in audited.findings} == {"PARTIAL_HANDS", "TRUMP_UNKNOWN"}
    # the first trick's winner (W, who leads next) tells that hearts are trumps
    assert audited.deals[0].tricks[0].winner is Seat.W


def test_show_while_able_proved_later() -> None:
    hands = hide(CLOCKWISE_HANDS, "S", "N")
    play = f"{PAGAT_CALL} E:JS S:show S:KS"
    codes = found(make_match("pagat", [make_deal("N", hands, play)]))
    assert ("SHOW_WHILE_ABLE_TO_FOLLOW", 6) in codes


def test_must_trump_proved_later() -> None:
    hands = {
        "W": "JS 9S AS TS JD 9D AD TD",
        "S": "KS QS JH 9H KD QD 8D 7C",
        "E": "? ? ? ? ? ? ? ?",
        "N": "8S 7S 8H 7H KC QC 8C TC",
    }
    # E (unknown hand, in fact AH TH KH QH JC 9C AC 7D) asks, discards AH, later plays 7D
    play = "W:16 S:p N:p E:p W:trump=D W:JS S:KS E:show E:AH N:8S E:7D"
    codes = found(make_match("bangladesh", [make_deal("N", hands, play)]))
    assert ("MUST_TRUMP_AFTER_SHOW", 8) in codes


def test_stopped_deal_may_have_been_thrown_in() -> None:
    # bangladesh: the opponents' cards are not recorded, so a throw-in cannot be ruled out
    hands = {"W": "JS 9S AS TS JD 9D AD TD", "S": "KH QH JH 9H ? ? ? ?"}
    deal = make_deal("N", hands, "W:16 S:p N:p E:p W:trump=S", {"thrown_in": "opponents_no_trump"})
    audited = audit_match(make_match("bangladesh", [deal, make_deal("W", None, "")]))
    assert audited.errors == 0
    assert audited.deals[0].thrown_in == "opponents_no_trump"


# --- never a crash --------------------------------------------------------------------


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(match_documents)
def test_any_valid_log_audits_without_raising(document: dict[str, Any]) -> None:
    log = MatchLog.model_validate(document)
    audited = audit_match(log)
    assert all(f.code and f.message for f in audited.findings)
    assert len(audited.deals) == len(log.deals)


FUZZ_RULES = {
    "bangladesh": Rules.preset("bangladesh"),
    "pagat": Rules.preset("pagat"),
    "classic29": Rules.preset("classic29"),
    "bhoos": Rules.preset("bhoos"),
    "everything": Rules.preset("pagat").with_options(
        seventh_card="pagat",
        no_trump=True,
        reverse=True,
        double=True,
        redouble=True,
        set=True,
        single_hand=True,
        under_half=True,
        end_when_decided=True,
        zero_point_throw_in="on_request",
    ),
    "own-card-seventh": Rules.preset("classic29").with_options(
        seventh_card="on", reverse=True, seventh_card_no_scoring_trump_throw_in=True
    ),
}


def _random_action(rng: random.Random) -> dict[str, Any]:
    seat = rng.choice("NESW")
    kind = rng.choice(ACTION_TYPES)
    action: dict[str, Any] = {"seat": seat, "type": kind}
    if kind == "bid":
        action["value"] = rng.randrange(10, 32)
    elif kind == "play":
        action["card"] = rng.choice("J9ATKQ87") + rng.choice("SHDC")
    elif kind == "show" and rng.random() < 0.5:
        action["suit"] = rng.choice("SHDC")
    elif kind == "trump":
        action.update(
            rng.choice(
                [
                    {"suit": rng.choice("SHDC")},
                    {"suit": None},
                    {"seventh": True},
                    {"mode": "reverse"},
                    {"mode": "no_trump"},
                    {"suit": rng.choice("SHDC"), "card": rng.choice("J9ATKQ87") + "S"},
                ]
            )
        )
    return action


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(sorted(FUZZ_RULES)))
def test_mangled_games_audit_without_raising(seed: int, name: str) -> None:
    """Legal games with actions swapped, dropped, re-seated, invented, and cards hidden."""
    rng = random.Random(seed)
    log = random_match(FUZZ_RULES[name], seed, max_deals=3)
    data = log.to_canonical()
    for deal in data["deals"]:
        actions = deal["actions"]
        for _ in range(rng.randrange(5)):
            if len(actions) < 2:
                actions.append(_random_action(rng))
                continue
            i, j = rng.randrange(len(actions)), rng.randrange(len(actions))
            kind = rng.randrange(5)
            if kind == 0:
                actions[i], actions[j] = actions[j], actions[i]
            elif kind == 1:
                del actions[i]
            elif kind == 2:
                actions[i] = {**actions[i], "seat": rng.choice("NESW")}
            elif kind == 3:
                actions.insert(i, dict(actions[j]))
            else:
                actions.insert(i, _random_action(rng))
        for hand in deal.get("hands", {}).values():
            for k in range(8):
                if rng.random() < 0.2:
                    hand[k] = None
        if rng.random() < 0.2:
            deal.pop("hands", None)
    audited = audit_match(MatchLog.model_validate(data))
    assert len(audited.deals) == len(data["deals"])
    if audited.errors == 0:  # a card played twice is reported, and counted as played
        for facts in audited.deals:
            assert sum(facts.points.values()) <= 29
