"""Schema 2 keeps a deal's actions, tricks, hands and show chances packed in `deal_cards`:
the views that unpack them give what the log and the engine say, the loader's bulk path and
its one-by-one path agree, and a schema 1 file is migrated to the same rows."""

from __future__ import annotations

import random
import tempfile
from enum import Enum
from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twentynine.replay import AuditedMatch, audit_match, random_match
from twentynine.reports.warehouse import ddl
from twentynine.reports.warehouse.rows import Batch
from twentynine.reports.warehouse.store import Warehouse, open_warehouse
from twentynine.schema import PRESET_NAMES, Card, Rules
from twentynine.schema.cards import SUITS
from twentynine.schema.log import MatchLog

ROOT = Path(__file__).resolve().parents[1]
COMPARED = ("actions", "plays", "other_actions", "tricks", "hands", "show_chances", "bids")


def four_card_features(cards: list[Card]) -> tuple[Any, ...]:
    """The definition the `hands` view follows: points, jacks, nines, aces, tens, longest,
    longest suit (a tie goes to more points, then S, H, D, C), suits present."""
    counts = [sum(c.suit is s for c in cards) for s in SUITS]
    points = [sum(c.points for c in cards if c.suit is s) for s in SUITS]
    ranks = [c.rank.value for c in cards]
    best = min(range(4), key=lambda i: (-counts[i], -points[i], i))
    return (
        sum(points),
        ranks.count("J"),
        ranks.count("9"),
        ranks.count("A"),
        ranks.count("T"),
        max(counts),
        SUITS[best].value,
        sum(1 for n in counts if n),
    )


def _mutated(log: MatchLog, seed: int) -> MatchLog:
    """The log with some plays swapped, dropped or doubled: deals with errors, whose plays
    part from the replayed tricks."""
    rng = random.Random(seed)
    deals = []
    for deal in log.deals:
        actions = list(deal.actions)
        plays = [i for i, a in enumerate(actions) if a.type == "play"]
        if plays and rng.random() < 0.5:
            i = rng.choice(plays)
            move = rng.choice(("swap", "drop", "double"))
            if move == "swap" and i + 1 < len(actions):
                actions[i], actions[i + 1] = actions[i + 1], actions[i]
            elif move == "drop":
                del actions[i]
            else:
                actions.insert(i, actions[i])
        deals.append(deal.model_copy(update={"actions": actions}))
    return MatchLog.model_validate(
        log.model_copy(update={"deals": deals}).model_dump(mode="json", exclude_none=True)
    )


def _logs(seed: int, messy: bool) -> list[MatchLog]:
    out = []
    for k, preset in enumerate(PRESET_NAMES):
        log = random_match(Rules.preset(preset), seed + k, max_deals=6)
        log = log.model_copy(update={"id": f"{preset}-{seed}"})
        out.append(_mutated(log, seed + k) if messy else log)
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_plain(v) for v in value)
    return value.value if isinstance(value, Enum) else value


def _set(rows: list[tuple[Any, ...]]) -> set[tuple[Any, ...]]:
    return {_plain(row) for row in rows}


def _rows(wh: Warehouse, view: str) -> list[tuple[Any, ...]]:
    return sorted(wh.query(f"SELECT * FROM {view}").rows, key=repr)


def _check_views(wh: Warehouse, logs: list[MatchLog]) -> None:
    """Every play, other action, trick and hand, as the log and the engine give them."""
    audits: dict[str, AuditedMatch] = {log.match_id: audit_match(log) for log in logs}
    plays = _set(
        wh.query("SELECT match_id, deal_no, action_no, seat, card, t, note FROM plays").rows
    )
    others = _set(
        wh.query(
            "SELECT match_id, deal_no, action_no, seat, type, bid, card, suit, seventh, mode, "
            "t, note FROM other_actions"
        ).rows
    )
    tricks = _set(
        wh.query(
            "SELECT match_id, deal_no, trick_no, leader, winner, points, cards FROM tricks"
        ).rows
    )
    winning = _set(
        wh.query("SELECT match_id, deal_no, trick_no, winning_card, led_suit FROM tricks").rows
    )
    hands = _set(
        wh.query(
            "SELECT match_id, deal_no, seat, cards, known, f4_points, f4_jacks, f4_nines, "
            "f4_aces, f4_tens, f4_longest, f4_longest_suit, f4_suits, points FROM hands"
        ).rows
    )
    want_plays, want_others, want_tricks, want_won, want_hands = set(), set(), set(), set(), set()
    for log in logs:
        mid = log.match_id
        for number, (deal, facts) in enumerate(zip(log.deals, audits[mid].deals, strict=True), 1):
            for i, a in enumerate(deal.actions):
                g = a.__dict__
                card = g.get("card")
                text = card.text if card is not None else None
                if a.type == "play":
                    want_plays.add((mid, number, i, a.seat, text, a.t, a.note))
                else:
                    value = (g.get("value"), text, g.get("suit"), g.get("seventh"), g.get("mode"))
                    want_others.add((mid, number, i, a.seat, a.type, *value, a.t, a.note))
            for trick in facts.tricks:
                cards = tuple(c.text for _, c in trick.cards)
                won = next(c.text for s, c in trick.cards if s is trick.winner)
                first = trick.cards[0][1].suit
                want_tricks.add(
                    (mid, number, trick.number, trick.leader, trick.winner, trick.points, cards)
                )
                want_won.add((mid, number, trick.number, won, first))
            for seat, hand in (deal.hands or {}).items():
                seen = [c for c in hand if c is not None]
                f4 = four_card_features(hand[:4]) if None not in hand[:4] else (None,) * 8  # type: ignore[arg-type]
                total = sum(c.points for c in seen) if len(seen) == 8 else None
                texts = tuple(c.text if c is not None else None for c in hand)
                want_hands.add((mid, number, seat, texts, len(seen), *f4, total))
    assert plays == _set(list(want_plays))
    assert others == _set(list(want_others))
    assert tricks == _set(list(want_tricks))
    assert winning == _set(list(want_won))
    assert hands == _set(list(want_hands))


@pytest.fixture(scope="module")
def messy() -> list[MatchLog]:
    return _logs(7, messy=True)


def test_messy_logs_have_deals_whose_plays_part_from_the_tricks(
    messy: list[MatchLog], tmp_path: Path
) -> None:
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        wh.load(messy)
        assert wh.query("SELECT count(*) FROM deals WHERE errors > 0").rows[0][0] > 5
        assert wh.query("SELECT count(*) FROM plays WHERE trick_no IS NULL").rows[0][0] > 0
        _check_views(wh, messy)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), messy=st.booleans(), notes=st.booleans())
def test_views_give_the_log_and_the_engine(seed: int, messy: bool, notes: bool) -> None:
    logs = _logs(seed, messy)
    if notes:  # times and notes on some actions
        logs = [
            log.model_copy(
                update={
                    "deals": [
                        d.model_copy(
                            update={
                                "actions": [
                                    a.model_copy(update={"t": 10 * i, "note": f"n{i}"})
                                    if i % 3 == 0
                                    else a
                                    for i, a in enumerate(d.actions)
                                ]
                            }
                        )
                        for d in log.deals
                    ]
                }
            )
            for log in logs
        ]
    with tempfile.TemporaryDirectory() as folder, open_warehouse(Path(folder) / "w.duckdb") as wh:
        wh.load(logs)
        _check_views(wh, logs)


def test_bulk_and_one_by_one_paths_agree(
    tmp_path: Path, messy: list[MatchLog], monkeypatch: pytest.MonkeyPatch
) -> None:
    logs = [*_logs(3, messy=False), *messy]
    with open_warehouse(tmp_path / "bulk.duckdb") as wh:
        wh.load(logs)
        bulk = {view: _rows(wh, view) for view in COMPARED}
    actions = Batch._actions

    def one_by_one(
        self: Batch, dk: int, deal: Any, f: Any, tricks: Any, found: Any, _: bool, rule: Any
    ) -> None:
        actions(self, dk, deal, f, tricks, found, True, rule)  # as if it had errors: _walk

    monkeypatch.setattr(Batch, "_actions", one_by_one)
    with open_warehouse(tmp_path / "walk.duckdb") as wh:
        wh.load(logs)
        for view in COMPARED:
            assert _rows(wh, view) == bulk[view], view


def test_view_columns_are_the_documented_ones(tmp_path: Path) -> None:
    page = (ROOT / "docs" / "warehouse.md").read_text(encoding="utf-8")
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        for view, columns in ddl.VIEW_COLUMNS.items():
            described = wh.query(f"DESCRIBE {view}").rows
            assert [(r[0], r[1]) for r in described] == [(c.name, c.sql_type) for c in columns]
            assert ddl.markdown_columns(view) in page, f"docs/warehouse.md: {view} is stale"


def _as_schema_1(db: Path) -> None:
    """Turn a file of the current schema into the layout of schema 1: one row per play,
    other action, trick, hand and show chance, in tables, and no content hashes."""
    con = duckdb.connect(str(db))
    con.begin()
    for view in ddl.VIEWS:
        if view not in ddl.VIEW_COLUMNS and view != "actions":
            con.execute(f"DROP VIEW {view}")
    for view in ddl.VIEW_COLUMNS:
        con.execute(f"CREATE TABLE v1_{view} AS SELECT * FROM {view}")
    for view in ("plays", "other_actions", "tricks", "hands", "show_chances", "actions"):
        con.execute(f"DROP VIEW {view}")
    for view in ddl.VIEW_COLUMNS:
        con.execute(f"ALTER TABLE v1_{view} RENAME TO {view}")
    con.execute("DROP TABLE deal_cards")
    con.execute("ALTER TABLE matches DROP COLUMN content_hash")
    con.execute("DROP TABLE annotations")
    con.execute("UPDATE warehouse_info SET value = '1' WHERE key = 'schema_version'")
    con.commit()
    con.close()


def test_a_schema_1_file_is_migrated_to_the_same_rows(
    tmp_path: Path, messy: list[MatchLog]
) -> None:
    db = tmp_path / "w.duckdb"
    logs = messy + _logs(5, messy=False)
    with open_warehouse(db) as wh:
        wh.load(logs)
        before = {view: _rows(wh, view) for view in (*COMPARED, "player_stats", "show_decisions")}
    _as_schema_1(db)
    with open_warehouse(db) as wh:
        assert wh.schema_version == ddl.SCHEMA_VERSION == 8
        after = {view: _rows(wh, view) for view in before}
        tables = {r[0] for r in wh.query("SELECT table_name FROM duckdb_tables()").rows}
    assert tables == set(ddl.TABLES)
    for view, rows in before.items():
        assert after[view] == rows, view
