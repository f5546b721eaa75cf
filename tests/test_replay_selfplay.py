"""Self-play: complete, legal, repeatable matches; players, seats and leagues."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, islice

import pytest

from twentynine.replay.audit import audit_match
from twentynine.replay.bots import SeatView
from twentynine.replay.deal import DealState
from twentynine.replay.selfplay import (
    Player,
    parse_players,
    rules_label,
    seating,
    simulate_match,
    simulate_matches,
)
from twentynine.schema import PRESET_NAMES, MatchLog, Rules, Seat
from twentynine.schema.cards import SEATS
from twentynine.schema.log import dump_json
from twentynine.schema.rules import resolve_rules


def dump(matches: list[MatchLog]) -> bytes:
    return b"\n".join(dump_json(m.to_canonical()) for m in matches)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_matches_are_complete_and_audit_clean(preset: str) -> None:
    rules = Rules.preset(preset)
    for match in simulate_matches(rules, 2, seed=8):
        audited = audit_match(match)
        assert audited.findings == ()
        assert match.result is not None and match.result.winner is not None
        assert audited.winner == match.result.winner
        score = match.result.score
        assert max(score.NS, score.EW) >= rules.match_target or min(score.NS, score.EW) <= -6
        assert match.rules == preset
        assert all(d.hands is not None and len(d.hands) == 4 for d in match.deals)


def test_same_arguments_give_the_same_bytes() -> None:
    rules = Rules.preset("bangladesh")
    args = {"players": ["Rahim:aggressive", "Karim", "Mitu", "Joy"], "notes": True}
    first = dump(list(simulate_matches(rules, 3, 42, **args)))  # type: ignore[arg-type]
    again = dump(list(simulate_matches(rules, 3, 42, **args)))  # type: ignore[arg-type]
    assert first == again
    other = dump(list(simulate_matches(rules, 3, 43, **args)))  # type: ignore[arg-type]
    assert other != first
    # the n-th match does not depend on how many are asked for
    assert dump(list(simulate_matches(rules, 1, 42, **args))) == first.split(b"\n")[0]  # type: ignore[arg-type]


def test_ids_meta_and_players() -> None:
    rules = Rules.preset("classic29")
    matches = list(simulate_matches(rules, 2, 5, players=["A", "B:aggressive", "C", "D"]))
    assert [m.id for m in matches] == ["sim-classic29-5-1", "sim-classic29-5-2"]
    meta = matches[0].meta
    assert meta is not None
    assert meta["seed"] == 5 and meta["match"] == 1
    assert meta["styles"] == {
        "N": "balanced",
        "E": "aggressive",
        "S": "aggressive",
        "W": "balanced",
    }
    assert "injected" not in meta
    assert matches[0].players == {Seat.N: "A", Seat.E: "B", Seat.S: "C", Seat.W: "D"}


def test_it_is_a_generator() -> None:
    rules = Rules.preset("pagat")
    stream = simulate_matches(rules, 10**9, 1)
    assert [m.id for m in islice(stream, 2)] == ["sim-pagat-1-1", "sim-pagat-1-2"]


def test_custom_rules_are_kept_and_followed() -> None:
    rules = resolve_rules(
        {
            "preset": "standard",
            "set": True,
            "bidding": "single_round",
            "zero_point_throw_in": "on_request",
            "seventh_card": "pagat",
            "match_target": 3,
        }
    )
    label = rules_label(rules)
    assert label.startswith("standard+")
    kinds: Counter[str] = Counter()
    for match in simulate_matches(rules, 4, 2, players=["a:aggressive", "b", "c", "d:aggressive"]):
        assert match.id is not None and match.id.startswith(f"sim-{label}-2-")
        assert isinstance(match.rules, dict) and match.rules["bidding"] == "single_round"
        assert audit_match(match).findings == ()
        kinds.update(a.type for d in match.deals for a in d.actions)
    assert kinds["bid"] and kinds["play"] and kinds["show"]


def test_max_deals_and_notes() -> None:
    rules = Rules.preset("standard")
    match = next(simulate_matches(rules, 1, 9, max_deals=3, notes=True))
    assert len(match.deals) == 3
    assert match.result is not None
    audited = audit_match(match)
    assert audited.errors == 0
    if match.result.winner is None:
        assert max(abs(match.result.score.NS), abs(match.result.score.EW)) < 6
    notes = [
        a.note
        for m in simulate_matches(rules, 3, 9, notes=True)
        for d in m.deals
        for a in d.actions
        if a.note
    ]
    assert notes and all(isinstance(n, str) and n for n in notes)
    plain = next(simulate_matches(rules, 1, 9))
    assert not any(a.note for d in plain.deals for a in d.actions)


def test_league_rotates_partnerships() -> None:
    players = parse_players([f"P{i}" for i in range(8)])
    partners: Counter[frozenset[str]] = Counter()
    for number in range(14):  # one cycle: 7 rounds of 2 tables
        seats = seating(players, number, 1)
        names = [p.name for p in seats.values()]
        assert len(set(names)) == 4
        partners[frozenset((seats[Seat.N].name, seats[Seat.S].name))] += 1
        partners[frozenset((seats[Seat.E].name, seats[Seat.W].name))] += 1
    assert set(partners) == {frozenset(p) for p in combinations([p.name for p in players], 2)}
    assert set(partners.values()) == {1}


def test_odd_sized_league_draws_tables_from_the_seed() -> None:
    players = parse_players(["a", "b", "c", "d", "e"])
    tables = [tuple(p.name for p in seating(players, n, 3).values()) for n in range(20)]
    assert tables == [tuple(p.name for p in seating(players, n, 3).values()) for n in range(20)]
    assert len(set(tables)) > 5
    match = next(simulate_matches(Rules.preset("bhoos"), 1, 3, players=["a", "b", "c", "d", "e"]))
    assert set(match.players.values()) <= {"a", "b", "c", "d", "e"}


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["a", "b", "c"], "four players"),
        (["a", "b", "c", "a"], "named twice"),
        (["a:wild", "b", "c", "d"], "unknown style 'wild'"),
        (["", "b", "c", "d"], "no name"),
    ],
)
def test_bad_players_are_refused(names: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        simulate_matches(Rules.preset("pagat"), 1, 1, players=names)  # at the call


def test_bad_numbers_and_styles_are_refused() -> None:
    pagat = Rules.preset("pagat")
    with pytest.raises(ValueError, match="negative"):
        simulate_matches(pagat, -1, 1)
    with pytest.raises(ValueError, match="between 0 and 1"):
        simulate_matches(pagat, 1, 1, inject_rate=1.5)
    with pytest.raises(ValueError, match="at least one deal"):
        simulate_matches(pagat, 1, 1, max_deals=0)
    with pytest.raises(ValueError, match="'Zed', who is not playing"):
        simulate_matches(pagat, 1, 1, players=["a", "b", "c", "d"], styles={"Zed": "cautious"})


def test_styles_may_be_given_by_name() -> None:
    players = parse_players(["a", "b", "c", "d"], {"c": "cautious", "a": "aggressive"})
    assert [p.style for p in players] == ["aggressive", "cautious", "cautious", "balanced"]


@pytest.mark.parametrize("preset", ["bangladesh", "standard"])
def test_the_state_deals_the_second_four_before_the_single_hand_decision(preset: str) -> None:
    """The state itself (not only the bot's view) shows eight cards when single hand is asked."""
    asked: Counter[tuple[str, int]] = Counter()

    def record(state: DealState, view: SeatView, choice: object) -> None:
        mine = state.seat_view(view.seat)
        asked[(view.stage, len(state.hand(view.seat)))] += 1
        assert mine.hand == view.hand
        assert mine.second_dealt == (view.stage not in ("auction", "trump", "double"))
        if view.stage == "single_hand":
            assert not mine.doubling_open and view.legal
            caller = state.caller_seat
            if caller is view.seat:
                assert state.trump_status(view.seat).startswith("known to the caller")
        elif view.stage == "double":
            assert mine.doubling_open and not mine.second_dealt

    seats = {seat: Player(f"P{i}", "aggressive") for i, seat in enumerate(SEATS)}
    simulate_match(Rules.preset(preset), 11, 0, seats, observer=record)
    assert asked[("single_hand", 8)] > 0 and asked[("double", 4)] > 0
    assert asked[("single_hand", 4)] == 0
