"""The single-hand declaration and the Set, judged on what the seat knew (analysis/)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.htmlpage import Page
from twentynine.analysis.annotate import Annotation
from twentynine.analysis.fair import fair_deal
from twentynine.analysis.judging import DealContext
from twentynine.analysis.positions import first_lead, full_play_rules
from twentynine.analysis.run import AnalysisOptions, annotate_matches, parse_only
from twentynine.analysis.single_hand import (
    SCREEN_SAMPLES,
    single_hand_deal,
    wins_alone,
    wins_every_trick,
)
from twentynine.analysis.solver import solve
from twentynine.cli import app
from twentynine.replay.script import make_deal, make_match, run_script
from twentynine.schema import Rules
from twentynine.schema.cards import ALL_CARDS, Seat
from twentynine.schema.log import MatchLog

runner = CliRunner()
AUCTION = "E:15 S:p W:p N:p E:trump=H"
"""Standard rules, dealer N: East calls 15 with hearts; everyone else passes."""
STRONG = {  # South holds the top four of spades and hearts: every lead wins
    "S": "JS 9S JH 9H AS TS AH TH",
    "W": "JD 9D AD TD KD QD 8D 7D",
    "N": "JC 9C AC TC KC QC 8C 7C",
    "E": "KS QS 8S 7S KH QH 8H 7H",
}
WEAK = {  # the same cards, South's and East's swapped: South wins nothing alone
    "S": STRONG["E"],
    "W": STRONG["W"],
    "N": STRONG["N"],
    "E": STRONG["S"],
}


def _match(hands: dict[str, str], after_trump: str, rules: str | dict[str, object]) -> MatchLog:
    return make_match(rules, [make_deal("N", hands, f"{AUCTION} {after_trump}")])


def _single_hand(log: MatchLog, seed: int = 0) -> list[Annotation]:
    return single_hand_deal(
        log.match_id, log.resolved_rules(), log.deals[0], 1, samples=16, seed=seed
    )


def test_the_search_agrees_with_the_solver_on_random_single_hands() -> None:
    """The solver plays a single hand to its first lost trick: winning every trick is taking
    every card point in play."""
    rng = random.Random(5)
    rules = Rules.preset("standard")
    outcomes = {True: 0, False: 0}
    for _ in range(60):
        # the top cards of a few suits, with a card or two swapped out: near misses
        suits = rng.sample(range(4), rng.randrange(2, 4))
        lone = [ALL_CARDS[8 * suit + place] for suit in suits for place in range(8)]
        lone = sorted(lone, key=lambda c: c.index % 8)[:8]
        rest = [c for c in ALL_CARDS if c not in lone]
        rng.shuffle(rest)
        for _ in range(rng.randrange(3)):
            out = rng.randrange(8)
            lone[out], rest[0] = rest[0], lone[out]
            rng.shuffle(rest)
        hands = {"S": lone, "W": rest[:8], "N": rest[8:16], "E": rest[16:]}
        text = {s: " ".join(c.text for c in cards) for s, cards in hands.items()}
        trump = hands["E"][0].suit.value
        state = run_script(rules, "N", text, f"E:15 S:p W:p N:p E:trump={trump} S:single")
        assert state.seat_view().single is Seat.S and not state.findings
        won = wins_every_trick(hands["S"], hands["W"], hands["E"])
        in_play = 28 - sum(c.points for c in hands["N"])  # the partner's cards sit out
        # every point in play without every trick needs a lost trick of no points: none here
        assert won == (solve(state).value == in_play)
        outcomes[won] += 1
    assert outcomes[True] >= 5 and outcomes[False] >= 5


def test_a_long_suit_forces_out_the_opponents_guards() -> None:
    lone = [c for c in ALL_CARDS if c.text in ("JS", "9S", "7S", "JH", "9H", "AH", "TH", "KH")]
    guard = [c for c in ALL_CARDS if c.text in ("AS", "QD", "KD", "8D", "7D", "QC", "KC", "8C")]
    other = [c for c in ALL_CARDS if c.text in ("TS", "9D", "AD", "TD", "7H", "8H", "QH", "7C")]
    # J and 9 of spades draw the A and the 10 (each opponent holds one): the 7 then wins
    assert wins_every_trick(lone, guard, other)
    two_guards = [
        c for c in ALL_CARDS if c.text in ("AS", "TS", "KS", "QS", "7D", "QC", "KC", "8C")
    ]
    rest = [c for c in ALL_CARDS if c.text in ("9D", "AD", "TD", "7H", "8H", "QH", "7C", "JD")]
    assert not wins_every_trick(lone, two_guards, rest)  # four spades out over three


def test_a_hand_holding_the_top_cards_is_told_to_play_alone() -> None:
    declared = _single_hand(_match(STRONG, "S:single S:JS", "standard"))
    missed = _single_hand(_match(STRONG, "E:7S", "standard"))
    for notes, chosen, action in ((declared, "single hand", 5), (missed, "no single hand", 5)):
        assert len(notes) == 1
        note = notes[0]
        assert (note.seat, note.action, note.kind, note.unit) == (
            "S",
            action,
            "single_hand",
            "game_points",
        )
        assert (note.chosen, note.best) == (chosen, "single hand")
        values = {a["choice"]: a["value"] for a in json.loads(note.detail)["alternatives"]}
        assert values["single hand"] == 3.0  # wins every trick on every layout: +3
        assert values["no single hand"] < 1.0  # a contract at stake 1 is worth at most 1
    assert declared[0].loss == 0 and declared[0].label is None
    assert missed[0].label == "blunder" and missed[0].loss > 2.0
    assert "you could play alone" in missed[0].explanation


def test_a_weak_hand_is_never_told_to_play_alone() -> None:
    declared = _single_hand(_match(WEAK, "S:single S:7S", "standard"))
    assert len(declared) == 1
    note = declared[0]
    assert (note.chosen, note.best, note.label) == ("single hand", "no single hand", "blunder")
    assert json.loads(note.detail)["secondary"]["single hand"] == 0.0  # never wins every trick
    assert note.explanation.startswith("playing alone loses")
    # nobody declared: East, who holds the top cards, is the seat judged, and South is not
    missed = _single_hand(_match(WEAK, "E:JS", "standard"))
    assert [(n.seat, n.chosen, n.best) for n in missed] == [("E", "no single hand", "single hand")]


def test_the_same_seed_gives_the_same_judgement_and_rules_without_single_hand_none() -> None:
    log = _match(STRONG, "S:single S:JS", "standard")
    assert _single_hand(log, seed=3) == _single_hand(log, seed=3)
    assert _single_hand(_match(STRONG, "E:7S", {"preset": "standard", "single_hand": False})) == []


def test_the_run_and_only_route_single_hands_and_sets() -> None:
    assert parse_only("singles") == {"single_hand"}
    assert parse_only("doubles") == {"double", "redouble", "set"}
    log = _match(STRONG, "S:single S:JS", "standard")
    options = AnalysisOptions(kinds=parse_only("singles"), samples=8)
    [(match_id, notes)] = list(annotate_matches([log], options))
    assert match_id == log.match_id and [n.kind for n in notes] == ["single_hand"]


SET_RULES = {"preset": "standard", "set": True}


def test_the_set_answer_to_a_redouble_is_judged_in_game_points() -> None:
    said = _match(STRONG, "S:double E:redouble N:set E:KS", SET_RULES)
    notes = _fair(said, {"set"})
    assert [(n.kind, n.seat, n.action, n.chosen) for n in notes] == [("set", "N", 7, "set")]
    values = {a["choice"]: a["value"] for a in json.loads(notes[0].detail)["alternatives"]}
    made = json.loads(notes[0].detail)["secondary"]["set"]  # the defenders' chance
    # a set deal is worth 6 stakes, a redoubled one 4: for the defenders, -(2p - 1) times that
    assert values["set"] == pytest.approx(6 / 4 * values["no set"], rel=1e-4)
    assert values["set"] != 0
    assert (values["set"] > 0) == (made > 0.5)
    # nobody said Set: the doubler (South) is judged at the first card
    silent = _fair(_match(STRONG, "S:double E:redouble E:KS", SET_RULES), {"set"})
    assert [(n.seat, n.action, n.chosen) for n in silent] == [("S", 7, "no set")]
    # rules without Set, or a deal not redoubled: no Set to judge
    assert _fair(_match(STRONG, "S:double E:redouble E:KS", "standard"), {"set"}) == []
    assert _fair(_match(STRONG, "S:double E:KS", SET_RULES), {"set"}) == []


def _fair(log: MatchLog, kinds: set[str]) -> list[Annotation]:
    return fair_deal(log.match_id, log.resolved_rules(), log.deals[0], 1, kinds=kinds, samples=4)


def _played_out(hands: dict[str, str], actions: str) -> str:
    """``actions`` and then the engine's first legal card (or show) until the deal is over."""
    state = run_script(Rules.preset("standard"), "N", hands, f"{AUCTION} {actions}")
    tokens = [actions]
    while not state.is_over:
        action = next(a for a in state.legal_actions() if a.type in ("play", "show"))
        tokens.append(
            f"{action.seat.value}:{action.card.text if action.type == 'play' else 'show'}"
        )
        state.apply(action)
    return " ".join(tokens)


def test_single_hand_notes_are_stored_and_shown_in_the_match_report(tmp_path: Path) -> None:
    source = tmp_path / "alone.json"
    deals = [
        make_deal("N", STRONG, f"{AUCTION} {_played_out(STRONG, 'E:7S')}"),  # a missed one
        make_deal("N", WEAK, f"{AUCTION} S:single S:7S"),  # declared, and lost at once
    ]
    source.write_text(json.dumps(make_match("standard", deals).to_canonical()))
    db = tmp_path / "w.duckdb"
    args = ["analyze", str(source), "--only", "singles", "--samples", "8", "--db", str(db)]
    analyzed = runner.invoke(app, args)
    assert analyzed.exit_code == 0, analyzed.output
    out = tmp_path / "m.html"
    shown = runner.invoke(app, ["report", "match", str(source), "--db", str(db), "-o", str(out)])
    assert shown.exit_code == 0, shown.output
    page = Page(out.read_text())
    assert "You could play alone" in page.text and "Playing alone loses" in page.text
    assert [e.content for e in page.all("span", "label")] == ["blunder", "blunder"]
    deals_data = page.json("viewer-data")["deals"]
    notes = [(n["k"], n["kind"], n["seat"]) for d in deals_data for n in d["notes"]]
    assert notes == [(5, "single_hand", "S"), (5, "single_hand", "S")]


def test_a_seat_nobody_declared_for_is_judged_on_fresh_layouts() -> None:
    """The screened layouts pick the seat whose single hand looked likeliest; judged on them
    again it would look likelier than it is (the winner's curse), so it is judged on the
    layouts after them."""
    hands = {  # South alone loses its 9 of clubs wherever an opponent holds the jack
        "S": "JS 9S AS TS JH 9H AH 9C",
        "W": "JD 9D AD TD TH QC 8C 7C",
        "N": "KD QD 8D 7D JC AC TC KC",
        "E": "KS QS 8S 7S KH QH 8H 7H",
    }
    log = _match(hands, "E:7S", "standard")
    rules, deal = full_play_rules(log.resolved_rules()), log.deals[0]
    pos = first_lead(rules, deal, 1)
    assert pos is not None
    context = DealContext(log.match_id, rules, deal, 1, 16, 1)

    def wins(k: int) -> float:
        layout = context.layout(pos.at, Seat.S, k)
        assert layout is not None
        return float(wins_alone(layout.hands, Seat.S))

    (note,) = _single_hand(log, seed=1)
    assert note.seat == "S" and note.samples is not None
    chance = json.loads(note.detail)["secondary"]["single hand"]
    fresh = [wins(SCREEN_SAMPLES + k) for k in range(note.samples)]
    screened = [wins(k) for k in range(note.samples)]
    assert chance == pytest.approx(sum(fresh) / len(fresh), abs=1e-6)
    assert 0 < chance < 1 and sum(screened) != sum(fresh)  # the two sets tell apart
