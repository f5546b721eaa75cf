"""``twentynine load`` reads canonical logs through the fast decoder: the stored data is the same.

Each test loads the same inputs twice into real DuckDB files, once with every canonical
document read by the pydantic models (as the load read before) and once as ``load_paths``
reads now (the fast decoder where it is sure, the models otherwise), then compares every
table and every view row for row, leaving out only the columns that say when a load ran.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, Final

import duckdb
import orjson
import pytest

from tests.strategies import RULE_VARIANTS
from twentynine.importers.canonical import Match, Record, write_jsonl
from twentynine.importers.formats import FORMATS, Reader
from twentynine.loading import load_paths
from twentynine.replay import random_match
from twentynine.replay.selfplay import simulate_matches
from twentynine.reports.warehouse.store import LoadSummary, open_warehouse
from twentynine.schema import PRESET_NAMES, MatchLike, Rules
from twentynine.schema.fastlog import decode_match, is_decoded
from twentynine.schema.log import MatchLog

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_logs"

PER_LOAD: Final[dict[str, tuple[str, ...]]] = {
    "matches": ("loaded_at",),
    "players": ("first_loaded_at",),
}
"""The columns that say when a load ran (each load has its own time): never compared."""
PER_DATABASE_KEYS: Final = ("created_at",)
"""The ``warehouse_info`` rows that say when the file was made: never compared."""


# ------------------------------------------------------------------------------- helpers
_READERS: Final = dict(FORMATS)  # as they are, before a test wraps them


def _kind(record: Record[Match]) -> str:
    """What the reader made of a document: the fast decoder's match, or the models' reading."""
    return "decoded" if record.match is not None and is_decoded(record.match) else "models"


def load(
    paths: list[Path], db: Path, monkeypatch: pytest.MonkeyPatch, *, fast: bool
) -> tuple[LoadSummary, Counter[tuple[str, str]]]:
    """``load_paths`` with canonical logs read fast (as it does) or by the models; also how
    many records of each kind the reader gave for each format."""
    kinds: Counter[tuple[str, str]] = Counter()

    def counted(name: str, read: Reader) -> Reader:
        def reader(
            stream: BinaryIO,
            source: str,
            path: Path | None,
            may_be_fast: bool,
            keys_checked: bool = False,
            first_seat: int | None = None,
            /,
        ) -> Iterator[Record[Match]]:
            fast_here = may_be_fast and fast
            for record in read(stream, source, path, fast_here, keys_checked, first_seat):
                kinds[name, _kind(record)] += 1
                yield record

        return reader

    for name, form in _READERS.items():
        monkeypatch.setitem(FORMATS, name, dataclasses.replace(form, read=counted(name, form.read)))
    return load_paths(paths, db=db), kinds


def contents(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table and view: its rows in order of all columns, the per-load ones left out."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        names = [
            row[0]
            for row in con.execute(
                "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()"
                " UNION ALL SELECT view_name FROM duckdb_views() "
                "WHERE database_name = current_database() AND NOT internal ORDER BY 1"
            ).fetchall()
        ]
        out: dict[str, list[tuple[Any, ...]]] = {}
        for name in names:
            columns = [
                row[0]
                for row in con.execute(
                    "SELECT column_name FROM information_schema.columns "
                    "WHERE table_name = $t ORDER BY ordinal_position",
                    {"t": name},
                ).fetchall()
            ]
            skipped = PER_LOAD.get(name, ())
            assert set(skipped) <= set(columns), f"{name} has no column {skipped}"
            kept = ", ".join(f'"{c}"' for c in columns if c not in skipped)
            where = ""
            if name == "warehouse_info":
                where = " WHERE key NOT IN (SELECT unnest($keys::VARCHAR[]))"
            params = {"keys": list(PER_DATABASE_KEYS)} if where else None
            sql = f'SELECT {kept} FROM "{name}"{where} ORDER BY ALL'
            out[name] = con.execute(sql, params).fetchall()
        return out
    finally:
        con.close()


def assert_same_contents(models_db: Path, fast_db: Path) -> dict[str, list[tuple[Any, ...]]]:
    slow, fast = contents(models_db), contents(fast_db)
    assert list(slow) == list(fast)
    assert {"matches", "deals", "deal_cards", "plays", "tricks", "player_stats"} <= set(slow)
    for name in slow:
        if slow[name] != fast[name]:
            only_slow = list((Counter(slow[name]) - Counter(fast[name])).elements())
            only_fast = list((Counter(fast[name]) - Counter(slow[name])).elements())
            raise AssertionError(
                f"{name}: {len(slow[name])} rows by the models, {len(fast[name])} fast; "
                f"first only by the models: {only_slow[:1]}, first only fast: {only_fast[:1]}"
            )
    return slow


def assert_same_summary(slow: LoadSummary, fast: LoadSummary) -> None:
    assert fast.to_dict() | {"database": ""} == slow.to_dict() | {"database": ""}
    assert (fast.bytes_total, fast.bytes_read) == (slow.bytes_total, slow.bytes_read)
    assert fast.dropped_lines == slow.dropped_lines


def _dump(match: MatchLog) -> bytes:
    return orjson.dumps(match.to_canonical())


def _varied(match: MatchLog, k: int) -> dict[str, Any]:
    """A match as a recorder other than ours might write it: deal results without
    ``thrown_in``, some players as ``{name, id}``, a time on every action, a card unseen."""
    document = match.to_canonical()
    document["id"] = f"varied-{k}"
    document["meta"] = {"date": f"2026-11-{k % 28 + 1:02d}", "k": [k, {"x": k / 3}]}
    document["players"] = {
        seat: {"name": f"Player {seat}", "id": f"p-{seat}-{k % 2}"} if seat in "NS" else name
        for seat, name in document["players"].items()
    }
    for n, deal in enumerate(document["deals"]):
        result = deal.get("result")
        if result is not None and result.get("thrown_in") is None:
            del result["thrown_in"]
        for i, action in enumerate(deal["actions"]):
            action["t"] = 1000 * (n * 100 + i)
        if n == 1 and deal.get("hands"):
            next(iter(deal["hands"].values()))[7] = None
    return document


# ---------------------------------------------------------------------------- the inputs
@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Every sample log (all formats), random matches of every preset with their own ids,
    and matches of every preset with injected breaches."""
    folder = tmp_path_factory.mktemp("inputs")
    random_logs = [
        random_match(Rules.preset(p), seed).model_copy(update={"id": f"{p}-{seed}"})
        for p in PRESET_NAMES
        for seed in (1, 2, 3)
    ]
    with (folder / "random.jsonl").open("wb") as out:
        write_jsonl(random_logs, out)
    varied = [
        _varied(random_match(rules, k, max_deals=6), k)
        for k, rules in enumerate(RULE_VARIANTS.values())
    ]
    (folder / "varied.jsonl").write_bytes(b"".join(orjson.dumps(d) + b"\n" for d in varied))
    (folder / "random.json").write_text(
        random_match(Rules.preset("pagat"), 7).model_dump_json(indent=2, exclude_unset=True)
    )
    injected = [
        log
        for i, p in enumerate(PRESET_NAMES)
        for k, rate in enumerate((0.5, 1.0))
        for log in simulate_matches(
            Rules.preset(p), 2, 100 + 2 * i + k, inject_rate=rate, notes=True, max_deals=5
        )
    ]
    assert any(log.meta and log.meta.get("injected") for log in injected)
    with (folder / "injected.jsonl").open("wb") as out:
        write_jsonl(injected, out)
    return [SAMPLES, folder]


# ------------------------------------------------------------------------------ the tests
def test_the_fast_load_stores_exactly_what_the_models_store(
    inputs: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    slow, slow_kinds = load(inputs, tmp_path / "models.duckdb", monkeypatch, fast=False)
    fast, fast_kinds = load(inputs, tmp_path / "fast.duckdb", monkeypatch, fast=True)
    # the models read everything the first time; the second, the fast decoder reads every
    # canonical log (the samples' writer and ours give each an id) and every archive game's
    # canonical line (the archive gives each an id), the models the rest
    assert {kind for _, kind in slow_kinds} == {"models"}
    assert fast_kinds["canonical", "decoded"] >= 120
    for name in ("canonical", "bhoos-archive"):
        assert fast_kinds[name, "models"] == 0
        assert fast_kinds[name, "decoded"] == slow_kinds[name, "models"]
    decoded = ("canonical", "bhoos-archive")
    others = {key: n for key, n in fast_kinds.items() if key[0] not in decoded}
    assert others == {key: n for key, n in slow_kinds.items() if key[0] not in decoded}
    assert {name for name, _ in others} == {"bhoos-play", "text"}
    assert_same_summary(slow, fast)
    assert slow.stored >= 140 and not slow.skipped and not slow.duplicates
    stored = assert_same_contents(tmp_path / "models.duckdb", tmp_path / "fast.duckdb")
    for table in ("matches", "match_players", "players", "deals", "deal_cards", "pairs"):
        assert stored[table], f"nothing in {table}: the comparison would prove little"
    with open_warehouse(tmp_path / "fast.duckdb", read_only=True) as wh:
        found = wh.query(
            "SELECT count(*) FILTER (severity = 'error'), "
            "(SELECT count(*) FROM deals WHERE recorded_thrown_in IS NOT NULL), "
            "(SELECT count(*) FROM deals WHERE has_result AND recorded_thrown_in IS NULL), "
            "(SELECT count(*) FROM match_players WHERE ref_id IS NOT NULL), "
            "(SELECT count(*) FROM deal_cards WHERE times IS NOT NULL), "
            "(SELECT count(*) FROM deal_cards WHERE notes IS NOT NULL), "
            "(SELECT count(*) FROM deal_cards WHERE hand_cards LIKE '%??%'), "
            "(SELECT count(*) FROM matches WHERE rules LIKE '{%') "
            "FROM findings"
        ).rows[0]
    # breaches found; deals that record a thrown-in reason, and deals whose result has none;
    # players as {name, id}; times; notes; an unseen card; rules with overrides
    assert all(found), found


MATCH_DOC: Final = random_match(Rules.preset("pagat"), 11, max_deals=3)


def _lax(document: dict[str, Any]) -> dict[str, Any]:
    """The first bid's value as a string, which only the models read ("16" is 16)."""
    deal = document["deals"][0]
    bid = next(a for a in deal["actions"] if a["type"] == "bid")
    bid["value"] = str(bid["value"])
    return document


def mixed_lines() -> list[bytes]:
    """A JSONL file of lines the fast decoder reads, lines it leaves to the models (a lax
    value, no id), bad lines, duplicates, and a match that cannot be stored."""
    base = MATCH_DOC.to_canonical()

    def doc(match_id: str | None, **changes: Any) -> dict[str, Any]:
        document: dict[str, Any] = json.loads(json.dumps(base)) | changes
        document.pop("id", None)
        if match_id is not None:
            document["id"] = match_id
        return document

    huge_time = doc("mix-huge")
    huge_time["deals"][0]["actions"][0]["t"] = 2**63  # beyond 64 bits signed: not stored
    other = random_match(Rules.preset("bhoos"), 12, max_deals=2).to_canonical()
    lines = [
        json.dumps(doc("mix-fast")),
        json.dumps(_lax(doc("mix-lax"))),
        json.dumps(doc(None, meta={"note": "no id"})),
        "",
        '{"format": "twentynine.match", "version": 1, "rules": "pagat"}',
        "{not json",
        json.dumps(doc("mix-fast")),  # the same id again, fast
        json.dumps(_lax(doc("mix-fast"))),  # and again, through the models
        json.dumps(doc("mix-lax")),  # the lax one's id, now fast
        json.dumps(huge_time),
        json.dumps(other | {"id": "mix-other", "meta": {"start": "2026-11-29T19:30:00+06:00"}}),
        json.dumps(doc("mix-empty-id") | {"id": ""}),
    ]
    return [line.encode() for line in lines]


def test_a_mixed_file_loads_alike_both_ways(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(mixed_lines()) + b"\n")
    # the fast reader really mixes: some lines decoded fast, the rest left to the models
    with path.open("rb") as stream:
        records = list(FORMATS["canonical"].read(stream, str(path), path, True))
    assert [_kind(r) for r in records] == [
        "decoded",  # mix-fast
        "models",  # lax
        "models",  # no id
        "models",  # missing fields
        "models",  # not JSON
        "decoded",
        "models",
        "decoded",
        "decoded",  # the huge time: read, then refused by the rows
        "decoded",
        "models",  # an empty id: the models hash the document
    ]
    summaries = []
    for reading_fast in (False, True):
        db = tmp_path / f"{'fast' if reading_fast else 'models'}.duckdb"
        first, _ = load([path], db, monkeypatch, fast=reading_fast)
        again, _ = load([path], db, monkeypatch, fast=reading_fast)  # all already stored
        summaries.append((first, again))
    (slow, slow_again), (fast, fast_again) = summaries
    assert_same_summary(slow, fast)
    assert_same_summary(slow_again, fast_again)
    assert (slow.read, slow.stored, slow.duplicates, slow.skipped) == (11, 5, 3, 3)
    # the line without players, the one that is not JSON, the time beyond 64 bits
    assert {p.split(": ")[0].rsplit(":", 1)[1] for p in slow.problems} == {"5", "6", "10"}
    assert any("64 bits" in p for p in slow.problems)
    assert len(slow.duplicate_lines) == 3
    assert (slow_again.stored, slow_again.duplicates, slow_again.skipped) == (0, 8, 3)
    stored = assert_same_contents(tmp_path / "models.duckdb", tmp_path / "fast.duckdb")
    assert len(stored["matches"]) == 5


def test_warehouse_load_takes_structs_and_records_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    logs = [
        random_match(Rules.preset(p), 5).model_copy(update={"id": f"direct-{p}"})
        for p in PRESET_NAMES
    ]
    structs: list[MatchLike] = []
    models: list[MatchLog] = []
    for log in logs:
        data = _dump(log)
        struct = decode_match(data)
        assert struct is not None
        structs.append(struct)
        models.append(MatchLog.model_validate_json(data))
    summaries = []
    with open_warehouse(tmp_path / "models.duckdb") as wh:
        summaries.append(wh.load(models[:3]))
        summaries.append(wh.load(models))
    with open_warehouse(tmp_path / "fast.duckdb") as wh:
        summaries.append(wh.load(structs[:3]))
        summaries.append(wh.load([*structs[3:5], *models[5:], *structs[:1]]))
    assert [(s.read, s.stored, s.duplicates) for s in summaries] == [
        (3, 3, 0),
        (len(logs), len(logs) - 3, 3),
        (3, 3, 0),
        (len(logs) - 2, len(logs) - 3, 1),
    ]
    assert_same_contents(tmp_path / "models.duckdb", tmp_path / "fast.duckdb")
