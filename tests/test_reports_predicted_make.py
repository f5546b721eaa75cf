"""`contracts.predicted_make` (schema 7): the caller's chance to make its call from its view at
its last bid, by the shipped contract model, in a real DuckDB file, and a schema 6 file
migrated to the same figures."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest

from twentynine.analysis.models.contract import caller_view, shipped_model
from twentynine.replay import audit_match, random_match
from twentynine.reports.warehouse import ddl
from twentynine.reports.warehouse.store import Warehouse, open_warehouse
from twentynine.schema import Rules
from twentynine.schema.log import MatchLog

PREDICTED = "SELECT match_id, deal_no, predicted_make, make_model FROM deals"


@pytest.fixture(scope="module")
def logs() -> list[MatchLog]:
    out = []
    for preset in ("bhoos", "bangladesh", "pagat"):
        for seed in range(2):
            log = random_match(Rules.preset(preset), seed, max_deals=6)
            out.append(log.model_copy(update={"id": f"{preset}-{seed}"}))
    return out


def _rows(wh: Warehouse, sql: str) -> list[tuple[Any, ...]]:
    return sorted(wh.query(sql).rows, key=repr)


def test_every_contract_gets_the_models_chance(tmp_path: Path, logs: list[MatchLog]) -> None:
    db = tmp_path / "w.duckdb"
    with open_warehouse(db) as wh:
        wh.load(logs)
        stored = {
            (r[0], r[1]): (r[2], r[3])
            for r in wh.query(
                "SELECT match_id, deal_no, predicted_make, make_model FROM contracts"
            ).rows
        }
    model = shipped_model()
    expected = {}
    for log in logs:
        rules = log.resolved_rules()
        for facts in audit_match(log).deals:
            if facts.caller is None or facts.single_hand or facts.thrown_in:
                continue
            deal = log.deals[facts.number - 1]
            # a fair shuffle for every preset (the server's dealing only when asked)
            view = caller_view(deal, rules.direction, facts.caller, rules.min_bid)
            assert view is not None  # the simulator records every hand
            expected[(log.match_id, facts.number)] = (model.chance(view), model.version)
    assert len(expected) > 10
    assert stored.keys() == expected.keys()
    for key, (p, version) in expected.items():
        assert stored[key][0] == pytest.approx(p, abs=1e-12)
        assert stored[key][1] == version
    chances = [p for p, _ in stored.values()]
    assert all(0 < p < 1 for p in chances) and len(set(chances)) > 5


def test_a_schema_6_file_gains_the_same_predictions(tmp_path: Path, logs: list[MatchLog]) -> None:
    db = tmp_path / "w.duckdb"
    with open_warehouse(db) as wh:
        wh.load(logs)
        loaded = _rows(wh, PREDICTED)
        contracts = _rows(wh, "SELECT * FROM contracts")
    with duckdb.connect(str(db)) as con:  # the layout schema 6 wrote
        for view in ddl.VIEWS:
            con.execute(f"DROP VIEW {view}")
        con.execute("ALTER TABLE deals DROP COLUMN make_model")
        con.execute("ALTER TABLE deals DROP COLUMN predicted_make")
        con.execute("UPDATE warehouse_info SET value = '6' WHERE key = 'schema_version'")
    with open_warehouse(db) as wh:
        assert wh.schema_version == ddl.SCHEMA_VERSION
        migrated = _rows(wh, PREDICTED)
        assert _rows(wh, "SELECT * FROM contracts") == contracts
        described = [tuple(r[:3]) for r in wh.query("DESCRIBE deals").rows]
    assert described == [
        (c.name, c.sql_type, "YES" if c.nullable else "NO") for c in ddl.TABLES["deals"]
    ]
    assert sum(r[2] is not None for r in loaded) > 10
    assert [r[:2] for r in migrated] == [r[:2] for r in loaded]
    for after, before in zip(migrated, loaded, strict=True):
        assert after[3] == before[3]
        if before[2] is None:
            assert after[2] is None
        else:
            assert after[2] == pytest.approx(before[2], abs=1e-12)


def test_a_schema_7_file_gets_fair_predictions(tmp_path: Path, logs: list[MatchLog]) -> None:
    """Schema 7 took a Bhoos game's deals as the server deals: a writer opening such a file
    works the predictions out again, as a fair shuffle (issue 33)."""
    db = tmp_path / "w.duckdb"
    with open_warehouse(db) as wh:
        wh.load(logs)
        fair = _rows(wh, PREDICTED)
    with duckdb.connect(str(db)) as con:  # what schema 7 stored for the Bhoos games
        con.execute(
            "UPDATE deals SET predicted_make = 0.5 WHERE predicted_make IS NOT NULL "
            "AND match_id LIKE 'bhoos-%'"
        )
        con.execute("UPDATE warehouse_info SET value = '7' WHERE key = 'schema_version'")
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM deals WHERE predicted_make = 0.5").fetchone() != (
            0,
        )
    with open_warehouse(db) as wh:
        assert wh.schema_version == ddl.SCHEMA_VERSION == 8
        migrated = _rows(wh, PREDICTED)
    assert [r[:2] for r in migrated] == [r[:2] for r in fair]
    for after, before in zip(migrated, fair, strict=True):
        assert after[3] == before[3]
        assert (after[2] is None) is (before[2] is None)
        if before[2] is not None:
            assert after[2] == pytest.approx(before[2], abs=1e-12)
