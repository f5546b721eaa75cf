"""Statistics and analysis views, checked against counts made here from the logs."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from statistics import mean

import pytest

from twentynine.replay import AuditedMatch, DealFacts, audit_match, random_match
from twentynine.reports.warehouse import ddl
from twentynine.reports.warehouse.stats import (
    PLAYER_STATS,
    PlayerNotFoundError,
    StatsOptionError,
    StatsRequest,
    call_levels,
    markdown_stats,
    partnership_stats,
    player_stats,
    run_stats,
    stats_report,
    wilson_interval,
)
from twentynine.reports.warehouse.store import Warehouse, open_warehouse
from twentynine.schema import PRESET_NAMES, Card, Rules, Seat
from twentynine.schema.log import MatchLog

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
    double_points = {True: 0, False: 0}
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
                    swing = f.score_change[seat.team] - f.score_change[seat.team.other]
                    double_points[swing > 0] += abs(swing)
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
        "double_points_won": double_points[True],
        "double_points_lost": double_points[False],
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


def _deal_facts(matches: list[tuple[MatchLog, AuditedMatch]]) -> list[tuple[MatchLog, DealFacts]]:
    return [(log, f) for log, audited in matches for f in audited.deals]


def test_role_stats_count_each_deal_once_per_position(
    wh: Warehouse, matches: list[tuple[MatchLog, AuditedMatch]]
) -> None:
    result = stats_report(wh, StatsRequest(by_role=True)).result
    rows = {row[0]: dict(zip(result.columns, row, strict=True)) for row in result.rows}
    assert list(rows) == ["P1", "P2", "P3", "P4", "caller", "partner", "defender"]
    facts = _deal_facts(matches)
    called = [f for _, f in facts if f.caller is not None]
    scored = [f for f in called if f.single_hand is None and f.made is not None]
    for position in ("P1", "P2", "P3", "P4"):
        assert rows[position]["deals"] == len(facts)
    assert sum(rows[p]["calls"] for p in ("P1", "P2", "P3", "P4")) == len(called)
    assert rows["caller"]["deals"] == rows["partner"]["deals"] == len(called)
    assert rows["defender"]["deals"] == 2 * len(called)
    made = sum(1 for f in scored if f.made)
    assert rows["caller"]["calls_made"] == made
    assert rows["defender"]["defences_broken"] == 2 * (len(scored) - made)
    low, high = rows["caller"]["make_rate_low"], rows["caller"]["make_rate_high"]
    assert low < made / len(scored) < high
    # the dealer bids last: P4's calls are the dealer's own
    dealer_calls = sum(1 for f in called if f.caller is f.dealer)
    assert rows["P4"]["calls"] == dealer_calls


def test_show_outcomes_of_callers_and_defenders_apart(wh: Warehouse) -> None:
    result = stats_report(wh, StatsRequest()).result
    for row in result.rows:
        stats = dict(zip(result.columns, row, strict=True))
        chances = wh.query(
            "SELECT count(*) FILTER (c.is_caller), count(*) FILTER (c.is_caller AND c.asked), "
            "count(*) FILTER (c.team <> d.caller_team), "
            "count(*) FILTER (c.team <> d.caller_team AND c.asked) "
            "FROM show_chances c JOIN deals d USING (match_id, deal_no) "
            "JOIN match_players mp ON mp.match_id = c.match_id AND mp.seat = c.seat "
            "WHERE mp.player_id = $p",
            {"p": stats["player_id"]},
        ).rows[0]
        assert (
            stats["caller_show_chances"],
            stats["caller_shows"],
            stats["defender_show_chances"],
            stats["defender_asks"],
        ) == chances
        assert (
            stats["caller_show_chances"] + stats["defender_show_chances"] <= stats["show_chances"]
        )


def test_stats_options_scope_sort_and_columns(
    wh: Warehouse, matches: list[tuple[MatchLog, AuditedMatch]]
) -> None:
    pagat = stats_report(wh, StatsRequest(preset="pagat")).result
    deals = sum(len(log.deals) for log, _ in matches if log.rules == "pagat")
    assert {row[pagat.columns.index("deals")] for row in pagat.rows} == {deals}
    everyone = stats_report(wh, StatsRequest()).result
    most = max(row[3] for row in everyone.rows)
    assert len(stats_report(wh, StatsRequest(min_deals=most)).result.rows) >= 1
    assert not stats_report(wh, StatsRequest(min_deals=most + 1)).result.rows
    shown = stats_report(wh, StatsRequest(sort="make_rate", columns=("calls", "make_rate")))
    assert shown.result.columns == (
        "player_id", "name", "calls", "make_rate", "make_rate_low", "make_rate_high"
    )  # fmt: skip
    rates = [row[3] for row in shown.result.rows]
    assert rates == sorted(rates, reverse=True)
    assert stats_report(wh, StatsRequest(player="aSHA")).result.rows[0][0] == "Asha"
    with pytest.raises(PlayerNotFoundError, match="did you mean 'Asha'"):
        stats_report(wh, StatsRequest(player="Ashaa"))
    with pytest.raises(StatsOptionError, match="did you mean 'make_rate'"):
        stats_report(wh, StatsRequest(sort="make_rat"))
    none_since = stats_report(wh, StatsRequest(since=dt.date(2000, 1, 1))).result
    assert not none_since.rows  # the random matches record no start


def test_a_note_when_most_players_have_one_deal(tmp_path: Path) -> None:
    logs = [
        random_match(
            Rules.preset("bhoos"), seed, {s: f"id{seed}{s.value}" for s in Seat}
        ).model_copy(update={"deals": random_match(Rules.preset("bhoos"), seed).deals[:1]})
        for seed in range(3)
    ]
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        wh.load(logs)
        report = stats_report(wh, StatsRequest())
        by_role = stats_report(wh, StatsRequest(by_role=True))
    assert report.notes and report.notes[0].startswith("all 12 players have played a single")
    assert "--by role" in report.notes[0]
    assert not by_role.notes and by_role.result.rows[0][2] == 3


def test_contracts_has_one_row_per_scored_call(
    wh: Warehouse, matches: list[tuple[MatchLog, AuditedMatch]]
) -> None:
    rows = wh.query("SELECT match_id, deal_no, seat, call, made FROM contracts").rows
    expected = {
        (log.id, f.number, f.caller.value, f.call, f.made)
        for log, f in _deal_facts(matches)
        if f.caller is not None and f.single_hand is None and f.thrown_in is None
    }
    assert len(rows) == len(set(rows)) and set(rows) == expected
    per_bid = wh.query("SELECT count(*) FROM bids WHERE won_auction").rows[0][0]
    assert per_bid >= len(rows)  # `bids` repeats a caller's deal once per bid


@pytest.mark.parametrize("rate", [0.0, 0.3, 1.0])
def test_wilson_interval_holds_the_rate(rate: float) -> None:
    widths = []
    for trials in (10, 40, 1000):
        successes = round(rate * trials)
        interval = wilson_interval(successes, trials)
        assert interval is not None
        assert 0 <= interval[0] <= successes / trials <= interval[1] <= 1
        widths.append(interval[1] - interval[0])
    assert widths == sorted(widths, reverse=True) and widths[-1] < 0.06
    assert wilson_interval(0, 0) is None
