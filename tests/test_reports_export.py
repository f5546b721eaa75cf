"""Parquet exports, output formats and the progress bar."""

from __future__ import annotations

import io
import json
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest

from twentynine.analysis.annotate import Annotation
from twentynine.loading import load_paths
from twentynine.replay import random_match
from twentynine.reports.warehouse.annotations import replace_annotations
from twentynine.reports.warehouse.errors import ExportFailedError, WarehouseMissingError
from twentynine.reports.warehouse.export import UNPACKED_VIEWS, export_parquet, format_result
from twentynine.reports.warehouse.progress import terminal_progress
from twentynine.reports.warehouse.store import LoadSummary, QueryResult, open_warehouse, run_query
from twentynine.schema import Rules


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "w.duckdb"
    logs = [
        random_match(Rules.preset(preset), seed, max_deals=5).model_copy(
            update={
                "id": f"{preset}-{seed}",
                "meta": {"start": f"2026-{seed:02d}-15T20:00:00+06:00"} if seed < 3 else None,
            }
        )
        for preset in ("bangladesh", "pagat")
        for seed in (1, 2, 3)
    ]
    with open_warehouse(path) as wh:
        wh.load(logs)
    return path


def test_export_is_partitioned_parquet_that_duckdb_reads(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "export"
    summary = export_parquet(out, db=db)
    with duckdb.connect(str(db), read_only=True) as catalog:
        listed = catalog.execute("SELECT table_name FROM duckdb_tables()").fetchall()
    tables = {row[0] for row in listed}
    assert set(summary.rows) == tables | set(UNPACKED_VIEWS)
    assert summary.lines()[-1].endswith(f"-> {out}")
    months = sorted(p.name for p in (out / "deals" / "preset=pagat").iterdir())
    assert months == ["month=2026-01", "month=2026-02", "month=unknown"]
    one = next((out / "deals").rglob("*.parquet"))
    assert "preset" not in pq.read_schema(one).names  # in the folder names only
    con = duckdb.connect()
    for table, rows in summary.rows.items():
        got = con.execute(
            f"SELECT count(*) FROM read_parquet('{out}/{table}/**/*.parquet', "
            "hive_partitioning = true, union_by_name = true)"
        ).fetchone()
        assert got == (rows,), table
        assert rows == run_query(f"SELECT count(*) FROM {table}", db=db).rows[0][0]
    by_partition = con.execute(
        f"SELECT preset, month, count(*) FROM read_parquet('{out}/matches/*/*/*.parquet', "
        "hive_partitioning = true) GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    assert by_partition == [
        ("bangladesh", "2026-01", 1),
        ("bangladesh", "2026-02", 1),
        ("bangladesh", "unknown", 1),
        ("pagat", "2026-01", 1),
        ("pagat", "2026-02", 1),
        ("pagat", "unknown", 1),
    ]
    with pytest.raises(ExportFailedError, match="not an empty folder"):
        export_parquet(out, db=db)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".export")]


def test_the_export_holds_every_table_of_the_catalog_with_its_rows(
    db: Path, tmp_path: Path
) -> None:
    log = random_match(Rules.preset("bhoos"), 4, max_deals=2)
    match_id = log.match_id
    with open_warehouse(db) as wh:
        wh.load([log])
        note = Annotation(
            match_id, 1, 20, "N", "card", "exact", "7H", "JH", 10.0, 14.0, 4.0, "card_points",
            None, None, None, None, "7H gave away 4 points", "{}", 0,
        )  # fmt: skip
        replace_annotations(wh, log, [note, note._replace(action=21)])
    out = tmp_path / "export"
    export_parquet(out, db=db)
    with duckdb.connect(str(db), read_only=True) as con:
        names = [row[0] for row in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()]
        counts = {name: con.execute(f"SELECT count(*) FROM {name}").fetchone() for name in names}
    assert "annotations" in counts and counts["annotations"] == (2,)
    exported = duckdb.connect()
    for name, count in counts.items():
        files = f"{out}/{name}/**/*.parquet"
        got = exported.execute(
            f"SELECT count(*) FROM read_parquet('{files}', hive_partitioning = true, "
            "union_by_name = true)"
        ).fetchone()
        assert got == count, name
    assert {p.name for p in out.iterdir()} == set(names) | set(UNPACKED_VIEWS)


def test_export_refusals(tmp_path: Path, db: Path) -> None:
    with pytest.raises(WarehouseMissingError):
        export_parquet(tmp_path / "x", db=tmp_path / "none.duckdb")
    deep = export_parquet(tmp_path / "no" / "such" / "x", db=db)  # folders made as needed
    assert deep.rows["findings"] == 0 and (tmp_path / "no" / "such" / "x" / "players").is_dir()
    (tmp_path / "file").write_text("")
    with pytest.raises(ExportFailedError, match="cannot write it"):
        export_parquet(tmp_path / "file" / "x", db=db)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert export_parquet(empty, db=db).rows["findings"] == 0
    assert list((empty / "findings").glob("*.parquet"))


RESULT = QueryResult(
    ("name", "rate", "cards", "n"),
    ("VARCHAR", "DOUBLE", "VARCHAR[]", "INTEGER"),
    [("Asha, A.", 0.25, ["JS", None], 3), ("Bikash", None, None, None)],
)


def test_formats() -> None:
    table = format_result(RESULT, "table").splitlines()
    assert table[0].split() == ["name", "rate", "cards", "n"]
    assert table[2].split() == ["Asha,", "A.", "0.250", "JS", "NULL", "3"]
    assert format_result(RESULT, "csv").splitlines() == [
        "name,rate,cards,n",
        '"Asha, A.",0.25,"[""JS"",null]",3',
        "Bikash,,,",
    ]
    lines = format_result(RESULT, "json").splitlines()
    assert json.loads(lines[0]) == {"name": "Asha, A.", "rate": 0.25, "cards": ["JS", None], "n": 3}
    with pytest.raises(ValueError, match="unknown format 'xml'"):
        format_result(RESULT, "xml")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal_only(tmp_path: Path) -> None:
    source = tmp_path / "m.jsonl"
    logs = [
        random_match(Rules.preset("bhoos"), s, max_deals=3).model_copy(update={"id": f"b{s}"})
        for s in range(3)
    ]
    source.write_text("".join(log.model_dump_json() + "\n" for log in logs))
    screen = _Terminal()
    seen: list[int] = []
    with terminal_progress(screen) as progress:
        assert progress is not None

        def both(summary: LoadSummary) -> None:
            seen.append(summary.bytes_read)
            progress(summary)

        summary = load_paths([source], db=tmp_path / "w.duckdb", progress=both)
    assert summary.stored == 3 and summary.bytes_read == summary.bytes_total > 0
    assert seen[-1] == source.stat().st_size
    assert "loading" in screen.getvalue()
    with terminal_progress(io.StringIO()) as none:
        assert none is None
