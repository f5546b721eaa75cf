"""Schema 6 stores the hand features (`deal_cards.hand_features`) and each match's statistics
(`match_stats`) once at load: the `hands`, `bids`, `player_stats` and `role_stats` views give
what the SQL of schema 5 computed on every query, and a schema 5 file is migrated in place to
the same rows."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import duckdb
import pytest

from twentynine.loading import load_paths
from twentynine.replay import random_match
from twentynine.reports.warehouse import ddl
from twentynine.reports.warehouse.stats import (
    RATE_DENOMINATORS,
    StatsRequest,
    stats_report,
    wilson_interval,
    with_intervals,
)
from twentynine.reports.warehouse.store import Warehouse, open_warehouse
from twentynine.schema import PRESET_NAMES, Rules
from twentynine.schema.log import MatchLog

ROOT = Path(__file__).resolve().parents[1]
FEATURES = ", ".join(ddl.HAND_FEATURES)

# `bids` as schema 5 defined it: the auction's actions joined to the hands worked out in SQL.
BIDS_SCHEMA_5 = f"""
SELECT a.match_id, a.deal_no, a.action_no, a.seat, mp.player_id, mp.name AS player,
    CASE m.direction
        WHEN 'clockwise' THEN (strpos('NESW', a.seat) - strpos('NESW', d.dealer) + 3) % 4 + 1
        ELSE (strpos('NESW', d.dealer) - strpos('NESW', a.seat) + 3) % 4 + 1
    END AS position,
    a.type AS decision, a.bid, a.standing_bid,
    d.caller = a.seat AS won_auction, d.call, d.trump, d.made, m.preset,
    h.f4_points, h.f4_jacks, h.f4_nines, h.f4_aces, h.f4_tens,
    h.f4_longest, h.f4_longest_suit, h.f4_suits,
    CASE WHEN d.caller = a.seat THEN h.f4_trumps END AS f4_trumps
FROM other_actions a
JOIN deals d USING (match_id, deal_no)
JOIN matches m USING (match_id)
JOIN match_players mp ON mp.match_id = a.match_id AND mp.seat = a.seat
LEFT JOIN ({ddl.HANDS_COMPUTED}) h
    ON h.match_id = a.match_id AND h.deal_no = a.deal_no AND h.seat = a.seat
WHERE a.type IN ('bid', 'pass', 'ditto')"""


def _with_unseen_cards(log: MatchLog, seed: int) -> MatchLog:
    """The log with some recorded hands dropped and some cards unseen (`null`)."""
    rng = random.Random(seed)
    deals = []
    for deal in log.deals:
        hands: dict[Any, Any] = dict(deal.hands or {})
        for seat in list(hands):
            roll = rng.random()
            if roll < 0.15:
                del hands[seat]
            elif roll < 0.45:
                cards = list(hands[seat])
                for i in rng.sample(range(8), rng.randint(1, 8)):
                    cards[i] = None
                hands[seat] = cards
        deals.append(deal.model_copy(update={"hands": hands or None}))
    return MatchLog.model_validate(
        log.model_copy(update={"deals": deals}).model_dump(mode="json", exclude_none=True)
    )


@pytest.fixture(scope="module")
def logs() -> list[MatchLog]:
    out = []
    for k, preset in enumerate(PRESET_NAMES):
        for seed in (k, 50 + k):
            log = random_match(Rules.preset(preset), seed, max_deals=8)
            log = log.model_copy(update={"id": f"{preset}-{seed}"})
            out.append(_with_unseen_cards(log, seed) if seed >= 50 else log)
    return out


def _rows(wh: Warehouse, sql: str) -> list[tuple[Any, ...]]:
    return sorted(wh.query(sql).rows, key=repr)


def test_stored_features_are_those_the_cards_give(tmp_path: Path, logs: list[MatchLog]) -> None:
    db = tmp_path / "w.duckdb"
    load_paths(sorted((ROOT / "sample_logs").glob("*.json")), db=db)
    with open_warehouse(db) as wh:
        wh.load(logs)
        stored = _rows(wh, f"SELECT match_id, deal_no, seat, {FEATURES} FROM hands")
        computed = _rows(
            wh, f"SELECT match_id, deal_no, seat, {FEATURES} FROM ({ddl.HANDS_COMPUTED})"
        )
        bids = _rows(wh, "SELECT * FROM bids")
        bids_5 = _rows(wh, BIDS_SCHEMA_5)
    assert stored == computed
    assert bids == bids_5
    # the logs have hands of every kind: all known, some cards unseen, none recorded
    known = {row[3] for row in stored}
    assert 8 in known and known - {8}
    assert any(row[-1] is None for row in bids) and any(row[-1] is not None for row in bids)


def _schema_5_stats(view: str, scope: str = ddl.SCOPE) -> str:
    sql = (ROOT / "tests" / "fixtures" / f"schema5_{view}.sql").read_text(encoding="utf-8")
    return sql.replace(ddl.SCOPE, scope)


def test_stored_statistics_add_up_to_those_of_schema_5(
    tmp_path: Path, logs: list[MatchLog]
) -> None:
    db = tmp_path / "w.duckdb"
    load_paths(
        [*sorted((ROOT / "sample_logs").glob("*.json")), ROOT / "sample_logs" / "bad"], db=db
    )
    with open_warehouse(db) as wh:
        wh.load(logs)
        for view in ("player_stats", "role_stats"):
            assert wh.query(f"SELECT * FROM {view} LIMIT 0").types == (
                wh.query(f"SELECT * FROM ({_schema_5_stats(view)}) LIMIT 0").types
            )
            assert _rows(wh, f"SELECT * FROM {view}") == _rows(wh, _schema_5_stats(view))
        counted = wh.query(
            "SELECT sum(doubles), sum(redoubles), sum(show_chances), sum(findings) "
            "FROM player_stats"
        ).rows[0]
        assert all(counted), counted  # the logs have each kind to count
        # match by match too: each match's own `match_stats` rows, not only their sums
        for (match_id,) in wh.query("SELECT match_id FROM matches ORDER BY 1 LIMIT 6").rows:
            one = f"SELECT match_id FROM matches WHERE match_id = '{match_id}'"
            for view in ("player_stats", "role_stats"):
                stored = _rows(wh, ddl.stats_sql(view.split("_")[0], one))
                assert stored == _rows(wh, _schema_5_stats(view, one)), (match_id, view)
        scope = "SELECT match_id FROM matches WHERE preset = 'pagat'"
        for by_role, view in ((False, "player_stats"), (True, "role_stats")):
            report = stats_report(wh, StatsRequest(by_role=by_role, preset="pagat"))
            rows = _rows(wh, f"SELECT * FROM ({_schema_5_stats(view, scope)}) WHERE deals >= 1")
            width = len(rows[0])
            assert sorted((row[:width] for row in _strip(report)), key=repr) == rows


def test_intervals_of_every_row_are_each_rates_wilson_interval(
    tmp_path: Path, logs: list[MatchLog]
) -> None:
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        wh.load(logs)
        result = wh.query("SELECT * FROM player_stats")
    wide = with_intervals(result)
    at = {name: i for i, name in enumerate(wide.columns)}
    checked = 0
    for row in wide.rows:
        for rate, terms in RATE_DENOMINATORS.items():
            counts = [row[at[term.lstrip("-")]] for term in terms]
            trials = sum(-c if t.startswith("-") else c for c, t in zip(counts, terms, strict=True))
            value = row[at[rate]]
            want = wilson_interval(round(value * trials), trials) if value is not None else None
            assert (row[at[f"{rate}_low"]], row[at[f"{rate}_high"]]) == (want or (None, None))
            checked += want is not None
    assert checked > 20


def _strip(report: Any) -> list[tuple[Any, ...]]:
    """The report's rows without the interval columns it adds after each rate."""
    keep = [i for i, c in enumerate(report.result.columns) if not c.endswith(("_low", "_high"))]
    return [tuple(row[i] for i in keep) for row in report.result.rows]


VIEWS = (
    "hands",
    "bids",
    "tricks",
    "plays",
    "other_actions",
    "show_chances",
    "player_stats",
    "role_stats",
)


def _as_schema_5(db: Path) -> None:
    """Turn a file of the current schema into the layout of schema 5: no stored features."""
    with duckdb.connect(str(db)) as con:
        for view in ddl.VIEWS:
            con.execute(f"DROP VIEW {view}")
        con.execute("ALTER TABLE deal_cards DROP COLUMN hand_features")
        con.execute("DROP TABLE match_stats")
        con.execute("UPDATE warehouse_info SET value = '5' WHERE key = 'schema_version'")


def test_a_schema_5_file_is_migrated_in_place(tmp_path: Path, logs: list[MatchLog]) -> None:
    db = tmp_path / "w.duckdb"
    with open_warehouse(db) as wh:
        wh.load(logs)
        before = {view: _rows(wh, f"SELECT * FROM {view}") for view in VIEWS}
        packed = _rows(wh, "SELECT match_id, deal_no, hand_features FROM deal_cards")
        partials = _rows(wh, "SELECT * FROM match_stats")
    _as_schema_5(db)
    with open_warehouse(db) as wh:
        assert wh.schema_version == ddl.SCHEMA_VERSION == 8
        after = {view: _rows(wh, f"SELECT * FROM {view}") for view in VIEWS}
        assert _rows(wh, "SELECT match_id, deal_no, hand_features FROM deal_cards") == packed
        assert _rows(wh, "SELECT * FROM match_stats") == partials
        described = wh.query("DESCRIBE deal_cards").rows
    assert [(r[0], r[1], r[2]) for r in described] == [
        (c.name, c.sql_type, "YES" if c.nullable else "NO") for c in ddl.TABLES["deal_cards"]
    ]
    for view, rows in before.items():
        assert after[view] == rows, view
    assert len(before["hands"]) > 0
