"""The `annotations` table: replaced whole per match, migrated into older files."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from twentynine.analysis.annotate import Annotation
from twentynine.replay import random_match
from twentynine.reports.warehouse import ddl
from twentynine.reports.warehouse.annotations import replace_annotations
from twentynine.reports.warehouse.errors import AnnotationsRefusedError
from twentynine.reports.warehouse.store import open_warehouse
from twentynine.schema import Rules
from twentynine.schema.log import MatchLog


def _note(match_id: str, action: int | None, kind: str = "card", loss: float = 1.0) -> Annotation:
    return Annotation(
        match_id, 1, action, "N", kind, "exact", "7H", "JH", 10.0, 10.0 + loss, loss,
        "card_points", None, None, None, None, "7H gave away a point", "{}", 0,
    )  # fmt: skip


def _match(match_id: str, seed: int = 1) -> MatchLog:
    log = random_match(Rules.preset("pagat"), seed=seed, max_deals=2)
    return log.model_copy(update={"id": match_id})


def test_a_match_keeps_only_its_latest_set(tmp_path: Path) -> None:
    a, b = _match("a"), _match("b")
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        wh.load([a, b])
        replace_annotations(wh, a, [_note("a", 1), _note("a", 2)])
        replace_annotations(wh, b, [_note("b", 1)])
        replace_annotations(wh, a, [_note("a", 5), _note("a", None, "par")])
        rows = wh.query("SELECT match_id, action, kind FROM annotations ORDER BY ALL").rows
    assert rows == [("a", 5, "card"), ("a", None, "par"), ("b", 1, "card")]


def test_a_set_for_another_match_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    a = _match("a")
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        wh.load([a])
        replace_annotations(wh, a, [_note("a", 1)])
        with pytest.raises(ValueError, match="given for match 'a'"):
            replace_annotations(wh, a, [_note("a", 2), _note("b", 3)])
        assert wh.query("SELECT action FROM annotations").rows == [(1,)]


def test_annotations_of_a_match_not_stored_or_not_the_stored_one_are_refused(
    tmp_path: Path,
) -> None:
    a = _match("a")
    impostor = _match("a", seed=2)  # the same id, other deals
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        with pytest.raises(AnnotationsRefusedError, match="match 'a' is not stored"):
            replace_annotations(wh, a, [_note("a", 1)])
        wh.load([a])
        replace_annotations(wh, a, [_note("a", 1)])
        with pytest.raises(AnnotationsRefusedError, match=r"'a' is stored .* with other content"):
            replace_annotations(wh, impostor, [_note("a", 2)])
        assert wh.query("SELECT action FROM annotations").rows == [(1,)]


def test_a_match_stored_without_a_content_hash_is_compared_as_rebuilt(tmp_path: Path) -> None:
    a = _match("a")
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        wh.load([a])
        wh.con.execute("UPDATE matches SET content_hash = NULL")  # as before schema version 4
        replace_annotations(wh, a, [_note("a", 1)])
        with pytest.raises(AnnotationsRefusedError, match="with other content"):
            replace_annotations(wh, _match("a", seed=2), [_note("a", 2)])
        assert wh.query("SELECT action FROM annotations").rows == [(1,)]


def test_player_analysis_averages_card_losses_per_player(tmp_path: Path) -> None:
    log = random_match(Rules.preset("pagat"), seed=1)
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        wh.load([log])
        notes = [
            _note(log.match_id, 10, loss=0.0),
            _note(log.match_id, 11, loss=3.0),
            _note(log.match_id, 12, "show", loss=2.0),
        ]
        replace_annotations(wh, log, notes)
        rows = wh.query(
            "SELECT cards_judged, average_card_loss, shows_judged, average_show_loss "
            "FROM player_analysis"
        ).rows
    assert rows == [(2, 1.5, 1, 2.0)]


def test_a_schema_4_file_gains_the_table(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    with open_warehouse(db) as wh:
        wh.load([random_match(Rules.preset("bhoos"), seed=2)])
    with duckdb.connect(str(db)) as con:
        con.execute("DROP VIEW player_analysis")
        con.execute("DROP TABLE annotations")
        con.execute("UPDATE warehouse_info SET value = '4' WHERE key = 'schema_version'")
    with open_warehouse(db) as wh:
        assert wh.schema_version == ddl.SCHEMA_VERSION == 8
        assert wh.query("SELECT count(*) FROM annotations").rows == [(0,)]
        assert wh.query("SELECT count(*) FROM player_analysis").rows == [(0,)]
        assert wh.query("SELECT count(*) FROM matches").rows == [(1,)]


def test_a_deal_keeps_one_configuration_in_its_match(tmp_path: Path) -> None:
    from twentynine.reports.warehouse.annotations import StoredRun, stored_run

    a = _match("a")
    seed0 = '{"seed":0}'
    with open_warehouse(tmp_path / "w.duckdb") as wh:
        wh.load([a])
        replace_annotations(wh, a, [_note("a", 1)], record=seed0, deal=1)
        assert stored_run(wh, "a") == StoredRun({"seed": 0}, frozenset({1}))
        second = _note("a", 2)._replace(deal=2)
        replace_annotations(wh, a, [second], record=seed0, deal=2)  # the same: both kept
        assert stored_run(wh, "a") == StoredRun({"seed": 0}, None)  # every deal covered
        replace_annotations(wh, a, [_note("a", 3)], record='{"seed":1}', deal=1)
        kept = wh.query("SELECT deal, action FROM annotations").rows
        assert kept == [(1, 3)]  # another seed: the match's whole analysis replaced
        assert stored_run(wh, "a") == StoredRun({"seed": 1}, frozenset({1}))
