"""The match: score, dealer rotation (thrown-in deals too), the end at the target, recorded
results recomputed, strict audits and unfinished deals."""

from __future__ import annotations

import copy
import pickle

import pytest

from tests.test_replay_play import SEED_003_HANDS, SEED_003_PLAY
from twentynine.replay import AuditError, DealOutcome, MatchState, audit_match, random_match
from twentynine.replay.script import make_deal, make_match
from twentynine.schema import MatchLog, Rules, Seat, Team

ALL_PASS = "W:p S:p E:p"  # bangladesh, N dealing: thrown in


def codes(log: MatchLog, rules: Rules | None = None) -> list[tuple[str, int | None, int | None]]:
    return [(f.code, f.deal, f.action) for f in audit_match(log, rules).findings]


def test_dealer_rotation_counts_thrown_in_deals() -> None:
    deals = [
        make_deal("N", None, ALL_PASS),
        make_deal("W", None, "S:p E:p N:p"),
        make_deal("S", None, "E:p N:p W:p"),
    ]
    audited = audit_match(make_match("bangladesh", deals))
    assert audited.findings == ()
    assert [d.thrown_in for d in audited.deals] == ["all_pass"] * 3
    assert audited.score == {Team.NS: 0, Team.EW: 0}


def test_dealer_out_of_turn() -> None:
    deals = [make_deal("N", None, ALL_PASS), make_deal("E", None, "N:p W:p S:p")]
    found = audit_match(make_match("bangladesh", deals)).findings
    assert [(f.code, f.deal, f.action) for f in found] == [("DEALER_OUT_OF_TURN", 2, None)]
    assert found[0].message == "the dealer is E but after N's deal the deal passes to W"


def test_match_score_and_winner_from_a_random_match() -> None:
    for preset in ("pagat", "bangladesh"):
        log = random_match(Rules.preset(preset), seed=11)
        audited = audit_match(log)
        assert audited.errors == 0
        assert log.result is not None
        assert audited.winner == log.result.winner is not None
        total = {Team.NS: 0, Team.EW: 0}
        for facts in audited.deals:
            for team in Team:
                total[team] += facts.score_change[team]
            assert facts.score_after == total
        assert audited.score == total
        target = Rules.preset(preset).match_target
        assert max(total.values()) >= target or min(total.values()) <= -target


def test_match_state_ends_at_minus_target() -> None:
    table = MatchState(Rules.preset("pagat"))
    assert table.decide({Team.NS: -6, Team.EW: 0}) is Team.EW
    assert table.decide({Team.NS: 5, Team.EW: -5}) is None
    assert table.decide({Team.NS: 0, Team.EW: 6}) is Team.EW
    assert (
        MatchState(Rules.preset("pagat").with_options(match_target=2)).decide(
            {Team.NS: 2, Team.EW: 0}
        )
        is Team.NS
    )


def test_a_match_state_and_a_deal_outcome_survive_pickle_and_copy() -> None:
    """Compiled, neither class can be rebuilt without its arguments: both say how."""
    deal = random_match(Rules.preset("pagat"), 3, max_deals=1).deals[0]
    table = MatchState(Rules.preset("pagat").with_options(match_target=1), deal.dealer)
    state = table.new_deal(deal.hands)
    for action in deal.actions:
        state.apply(action)
    outcome = state.result()
    table.record(state, outcome)
    again = pickle.loads(pickle.dumps(table))
    assert (again.rules, again.next_dealer, again.score, again.winner, again.deals_played) == (
        table.rules,
        table.next_dealer,
        table.score,
        table.winner,
        table.deals_played,
    )
    assert again.score is not table.score
    assert pickle.loads(pickle.dumps(outcome)) == outcome
    assert copy.copy(outcome) == outcome
    assert copy.copy(outcome) != DealOutcome(outcome.thrown_in, outcome.points, None, {})


def test_play_after_the_match_is_won() -> None:
    rules = {"preset": "classic29", "match_target": 1}
    won = make_deal("E", SEED_003_HANDS, SEED_003_PLAY)
    extra = make_deal("N", None, "W:p S:p E:p N:16")
    found = codes(make_match(rules, [won, extra]))
    assert ("PLAY_AFTER_MATCH_END", 2, None) in found


def test_recorded_results_are_recomputed() -> None:
    good = {"points": {"NS": 9, "EW": 20}, "score": {"NS": 0, "EW": 1}, "thrown_in": None}
    deal = make_deal("E", SEED_003_HANDS, SEED_003_PLAY, good)
    log = make_match("classic29", [deal], {"score": {"NS": 0, "EW": 1}, "winner": None})
    assert codes(log) == []
    bad = {"points": {"NS": 10, "EW": 19}, "score": {"NS": 0, "EW": -1}, "thrown_in": "never_shown"}
    log = make_match(
        "classic29",
        [make_deal("E", SEED_003_HANDS, SEED_003_PLAY, bad)],
        {"score": {"NS": 0, "EW": 2}, "winner": "EW"},
    )
    found = audit_match(log).findings
    assert [(f.code, f.deal) for f in found] == [
        ("THROWN_IN_MISMATCH", 1),
        ("POINTS_MISMATCH", 1),
        ("SCORE_MISMATCH", 1),
        ("MATCH_SCORE_MISMATCH", None),
        ("WINNER_MISMATCH", None),
    ]
    assert found[1].message == "recorded points NS 10 EW 19, replayed NS 9 EW 20"
    assert all(f.severity == "error" and f.action is None for f in found)


def test_score_mismatch_is_judged_deal_by_deal() -> None:
    # One wrong recorded score does not make every later deal wrong.
    first = make_deal("N", None, ALL_PASS, {"score": {"NS": 1, "EW": 0}})
    second = make_deal("W", None, "S:p E:p N:p", {"score": {"NS": 1, "EW": 0}})
    found = codes(make_match("bangladesh", [first, second]))
    assert found == [("SCORE_MISMATCH", 1, None)]


def test_thrown_in_reason_spellings() -> None:
    alias = make_deal("N", None, ALL_PASS, {"thrown_in": "All passed"})
    assert codes(make_match("bangladesh", [alias])) == []
    odd = make_deal("N", None, ALL_PASS, {"thrown_in": "misdeal"})
    found = audit_match(make_match("bangladesh", [odd])).findings
    assert [(f.code, f.severity) for f in found] == [("THROWN_IN_REASON", "warning")]
    wrong = make_deal("N", None, ALL_PASS, {"thrown_in": "never_shown"})
    assert codes(make_match("bangladesh", [wrong])) == [("THROWN_IN_MISMATCH", 1, None)]


def test_unfinished_deals() -> None:
    stop = make_deal("E", SEED_003_HANDS, " ".join(SEED_003_PLAY.split()[:12]))
    last = audit_match(make_match("classic29", [stop])).findings
    assert [(f.code, f.severity) for f in last] == [("MATCH_ABANDONED", "warning")]
    assert last[0].message == "the last deal stops after 1 trick with no recorded result"
    middle = codes(make_match("classic29", [stop, make_deal("S", None, "")]))
    assert ("DEAL_INCOMPLETE", 1, None) in middle


def test_rules_override_and_strict() -> None:
    deal = make_deal("E", SEED_003_HANDS, SEED_003_PLAY)
    log = make_match("classic29", [deal])
    assert audit_match(log).errors == 0
    # Under pagat's rules the same play breaks the compulsory show, the bidding floor, ...
    audited = audit_match(log, Rules.preset("pagat"))
    assert audited.rules == Rules.preset("pagat") and audited.errors > 0
    with pytest.raises(AuditError) as caught:
        audit_match(log, Rules.preset("pagat"), strict=True)
    assert caught.value.finding == next(f for f in audited.findings if f.severity == "error")
    assert audit_match(log, strict=True).errors == 0


def test_audited_match_fields() -> None:
    log = make_match("classic29", [make_deal("E", SEED_003_HANDS, SEED_003_PLAY)], match_id=None)
    audited = audit_match(log)
    assert audited.match_id == log.content_hash()
    facts = audited.deals[0]
    assert (facts.number, facts.dealer, facts.caller, facts.trump) == (1, Seat.E, Seat.W, "H")
    assert (facts.target, facts.stake, facts.doubling, facts.thrown_in) == (18, 1, None, None)
    assert facts.complete and facts.decided and facts.made
    assert len(facts.tricks) == 8 and facts.tricks[-1].number == 8
    assert audited.findings == () and (audited.errors, audited.warnings) == (0, 0)
    assert audited.findings == tuple(sorted(audited.findings, key=lambda f: f.action or 0))
