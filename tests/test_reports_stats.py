"""Statistics and analysis views, checked against counts made here from the logs."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from statistics import mean

import pytest

from replay import AuditedMatch, audit_match, random_match
from reports.warehouse import ddl
from reports.warehouse.stats import (
    PLAYER_STATS,
    PlayerNotFoundError,
    call_levels,
    markdown_stats,
    partnership_stats,
    player_stats,
    run_stats,
)
from reports.warehouse.store import Warehouse, open_warehouse
from schema import PRESET_NAMES, Card, Rules, Seat
from schema.log import MatchLog

ROOT = Path(__file__).resolve().parents[1]
NAMES = {Seat.N: "Asha", Seat.E: "Bikash", Seat.S: "Chandra", Seat.W: "Deepa"}


@pytest.fixture(scope="module")
def matches() -> list[tuple[MatchLog, AuditedMatch]]:
    out = []
    for i, preset in enumerate(PRESET_NAMES):
        for seed in (11, 12):
            # the same four people, in a different seating each match
            order = [Seat.N, Seat.E, Seat.S, Seat.W]
            names = {seat: NAMES[order[(k + i + seed) % 4]] for k, seat in enumerate(order)}
            log = random_match(Rules.preset(preset), seed, names).model_copy(
                update={"id": f"{preset}-{seed}"}
            )
            out.append((log, audit_match(log)))
    return out


@pytest.fixture(scope="module")
def wh(
    matches: list[tuple[MatchLog, AuditedMatch]], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Warehouse]:
    db = tmp_path_factory.mktemp("stats") / "w.duckdb"
    with open_warehouse(db) as warehouse:
        warehouse.load([log for log, _ in matches])
    with open_warehouse(db, read_only=True) as warehouse:
        yield warehouse


def test_every_stat_is_defined_in_the_docs(wh: Warehouse) -> None:
    columns = wh.query("SELECT * FROM player_stats LIMIT 0").columns
    assert columns == ("player_id", "name", *(s.column for s in PLAYER_STATS))
    page = (ROOT / "docs" / "warehouse.md").read_text(encoding="utf-8")
    assert markdown_stats() in page
    for table in ddl.TABLES:
        assert ddl.markdown_columns(table) in page, f"docs/warehouse.md: {table} is stale"
    for view in ddl.VIEWS:
        assert f"`{view}`" in page


def _expected(matches: list[tuple[MatchLog, AuditedMatch]], name: str) -> dict[str, object]:
    deals = calls = made = failed = defences = broken = doubles = doubles_won = 0
    pairs = singles = 0
    call_values: list[int] = []
    caller_points: list[int] = []
    for log, audited in matches:
        seat = next(s for s, n in log.players.items() if n == name)
        for deal, f in zip(log.deals, audited.deals, strict=True):
            deals += 1
            scored = f.single_hand is None and f.made is not None
            if f.caller is seat:
                calls += 1
                call_values.append(f.call)  # type: ignore[arg-type]
                made += scored and bool(f.made)
                failed += scored and f.made is False
                if scored:
                    caller_points.append(f.points[seat.team])
            elif f.caller is not None and f.caller.team is not seat.team and scored:
                defences += 1
                broken += f.made is False
            for action in deal.actions:
                if action.seat is seat and action.type == "double":
                    doubles += 1
                    doubles_won += scored and f.made is False
            pairs += sum(1 for p in f.pairs if p.seat is seat)
            singles += f.single_hand is seat
    return {
        "deals": deals,
        "calls": calls,
        "calls_made": made,
        "calls_failed": failed,
        "average_call": mean(call_values) if call_values else None,
        "defences": defences,
        "defences_broken": broken,
        "caller_points_per_deal": mean(caller_points) if caller_points else None,
        "doubles": doubles,
        "doubles_won": doubles_won,
        "pairs": pairs,
        "single_hands": singles,
    }


@pytest.mark.parametrize("name", sorted(NAMES.values()))
def test_player_stats_agree_with_the_logs(
    wh: Warehouse, matches: list[tuple[MatchLog, AuditedMatch]], name: str
) -> None:
    result = player_stats(wh, name)
    row = dict(zip(result.columns, result.rows[0], strict=True))
    for column, value in _expected(matches, name).items():
        assert row[column] == pytest.approx(value), column
    assert row["matches"] == len(matches)
    if row["calls_made"] + row["calls_failed"]:
        assert row["make_rate"] == pytest.approx(
            row["calls_made"] / (row["calls_made"] + row["calls_failed"])
        )
    levels = call_levels(wh, name)
    assert sum(r[2] for r in levels.rows) == row["calls"]


def test_partnerships_and_unknown_players(wh: Warehouse) -> None:
    everyone = partnership_stats(wh)
    assert {(r[0], r[2]) for r in everyone.rows} <= {
        (a, b) for a in NAMES.values() for b in NAMES.values() if a < b
    }
    mine = partnership_stats(wh, "Asha")
    assert mine.rows and all("Asha" in (r[0], r[2]) for r in mine.rows)
    with pytest.raises(PlayerNotFoundError, match="no player 'Nobody'"):
        player_stats(wh, "Nobody")
    with pytest.raises(PlayerNotFoundError):
        partnership_stats(wh, "Nobody")
    assert len(player_stats(wh).rows) == 4


def test_run_stats_opens_read_only(wh: Warehouse) -> None:
    result = run_stats(db=wh.path, player="Deepa")
    assert result.transposed().rows[1] == ("name", "Deepa")


def test_bids_view_has_each_auction_decision_with_hand_features(
    wh: Warehouse, matches: list[tuple[MatchLog, AuditedMatch]]
) -> None:
    auction = sum(
        1
        for log, _ in matches
        for d in log.deals
        for a in d.actions
        if a.type in ("bid", "pass", "ditto")
    )
    rows = wh.query(
        "SELECT b.match_id, b.deal_no, b.seat, b.decision, b.position, f4_points, f4_jacks, "
        "f4_longest, f4_longest_suit FROM bids b"
    ).rows
    assert len(rows) == auction
    logs = {log.id: log for log, _ in matches}
    for match_id, deal_no, seat, _decision, position, points, jacks, longest, suit in rows:
        deal = logs[match_id].deals[deal_no - 1]
        hand: list[Card] = deal.hands[Seat(seat)][:4]
        assert points == sum(c.points for c in hand)
        assert jacks == sum(c.rank.value == "J" for c in hand)
        counts = Counter(c.suit.value for c in hand)
        assert longest == max(counts.values()) and counts[suit] == longest
        rules = logs[match_id].resolved_rules()
        order = deal.dealer.next(rules.direction).order_from(rules.direction)
        assert order[position - 1] is Seat(seat)


def _chances(log: MatchLog, audited: AuditedMatch) -> set[tuple[str, int, int, bool]]:
    """The plays where a seat held no card of the suit led, before the show, from the hands."""
    rules = audited.rules
    found: set[tuple[str, int, int, bool]] = set()
    if rules.show_trump == "automatic":
        return found
    for deal, f in zip(log.deals, audited.deals, strict=True):
        if f.single_hand is not None or f.trump_mode == "no_trump" or deal.hands is None:
            continue
        held = {seat: set(cards) for seat, cards in deal.hands.items()}
        face_down: Card | None = None
        for action in deal.actions:
            if action.type == "trump" and action.seat is f.caller:
                if action.seventh:
                    face_down = deal.hands[action.seat][6]
                elif rules.trump_marker == "own_card" and action.card is not None:
                    face_down = action.card
        shown = False
        asker: Seat | None = None
        led = None
        place = 0
        for i, action in enumerate(deal.actions):
            if action.type == "show" and f.show is not None and i == f.show.action:
                asker = action.seat
            if action.type != "play":
                continue
            seat, card = action.seat, action.card
            if place == 0:
                led = card.suit
            elif not shown:
                usable = held[seat]
                if seat is f.caller and face_down is not None and len(usable) > 1:
                    usable = usable - {face_down}
                if asker is seat or not any(c.suit is led for c in usable):  # type: ignore[union-attr]
                    found.add((log.id, f.number, i, asker is seat))  # type: ignore[arg-type]
            if asker is seat:
                shown = True
            held[seat].discard(card)
            place = (place + 1) % 4
    return found


def test_show_decisions_are_the_moments_a_seat_could_not_follow(
    wh: Warehouse, matches: list[tuple[MatchLog, AuditedMatch]]
) -> None:
    expected: set[tuple[str, int, int, bool]] = set()
    for log, audited in matches:
        expected |= _chances(log, audited)
    stored = wh.query("SELECT match_id, deal_no, action_no, asked FROM show_decisions").rows
    assert len(stored) == len(set(stored))
    assert set(stored) == expected
    assert any(asked for *_, asked in stored) and not all(asked for *_, asked in stored)


def test_findings_per_100_deals(tmp_path: Path) -> None:
    bad = ROOT / "sample_logs" / "bad" / "revoke.json"
    log = MatchLog.model_validate_json(bad.read_bytes())
    audited = audit_match(log)
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        wh.load([log])
        rows = dict(wh.query("SELECT player_id, findings FROM player_stats").rows)
        per = wh.query("SELECT sum(findings_per_100_deals * deals / 100) FROM player_stats")
    seated = [f for f in audited.findings if f.action is not None]
    assert sum(rows.values()) == len(seated) > 0
    assert per.rows[0][0] == pytest.approx(len(seated))
    assert re.fullmatch(r"\| `findings_per_100_deals` .*", markdown_stats().splitlines()[-1])
