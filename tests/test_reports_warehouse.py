"""The warehouse on real DuckDB files: load, reload, read back, and every refusal."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twentynine.importers.formats import read_any
from twentynine.loading import load_paths
from twentynine.replay import audit_match, random_match
from twentynine.reports.warehouse import ddl
from twentynine.reports.warehouse.errors import (
    NotAWarehouseError,
    QueryFailedError,
    QueryRefusedError,
    WarehouseCorruptError,
    WarehouseError,
    WarehouseLockedError,
    WarehouseMissingError,
    WarehouseOutdatedError,
    WarehouseTooNewError,
)
from twentynine.reports.warehouse.readback import read_match
from twentynine.reports.warehouse.store import Warehouse, open_warehouse, run_query
from twentynine.schema import PRESET_NAMES, Rules, Team
from twentynine.schema.log import MatchLog

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_logs"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def one_line(error: BaseException) -> str:
    text = str(error)
    assert "\n" not in text and text
    return text


@pytest.fixture(scope="module")
def logs() -> list[MatchLog]:
    """Two random matches of every preset, each with its own id."""
    return [
        random_match(Rules.preset(p), seed).model_copy(update={"id": f"{p}-{seed}"})
        for p in PRESET_NAMES
        for seed in (1, 2)
    ]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "w.duckdb"


def count(wh: Warehouse, sql: str) -> int:
    return int(wh.query(sql).rows[0][0])


# ---------------------------------------------------------------------------- round trip
def _check_stored(wh: Warehouse, log: MatchLog) -> None:
    """Everything stored about one match agrees with the log and its audit."""
    audited = audit_match(log)
    mid = log.match_id
    assert read_match(wh, mid).model_dump(exclude_none=True) == log.model_dump(exclude_none=True)
    deals = wh.query(
        "SELECT deal_no, actions, tricks, caller, call, made, points_ns, points_ew, thrown_in "
        "FROM deals WHERE match_id = $m ORDER BY deal_no",
        {"m": mid},
    ).rows
    assert len(deals) == len(log.deals)
    actions = dict(
        wh.query(
            "SELECT deal_no, count(*) FROM actions WHERE match_id = $m GROUP BY deal_no", {"m": mid}
        ).rows
    )
    tricks = dict(
        wh.query(
            "SELECT deal_no, count(*) FROM tricks WHERE match_id = $m GROUP BY deal_no", {"m": mid}
        ).rows
    )
    for row, deal, facts in zip(deals, log.deals, audited.deals, strict=True):
        number = row[0]
        assert row[1] == len(deal.actions) == actions.get(number, 0)
        assert row[2] == len(facts.tricks) == tricks.get(number, 0)
        assert row[3] == (facts.caller.value if facts.caller else None)
        assert row[4:9] == (
            facts.call,
            facts.made,
            facts.points[Team.NS],
            facts.points[Team.EW],
            facts.thrown_in,
        )
    stored_findings = count(wh, f"SELECT count(*) FROM findings WHERE match_id = '{mid}'")
    assert stored_findings == len(audited.findings)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(PRESET_NAMES),
    seed=st.integers(0, 10_000),
    keep_id=st.booleans(),
    note_every=st.integers(0, 7),
    start=st.none() | st.datetimes().map(lambda d: d.isoformat()),
)
def test_load_then_query_gives_back_what_was_loaded(
    preset: str, seed: int, keep_id: bool, note_every: int, start: str | None
) -> None:
    log = random_match(Rules.preset(preset), seed, max_deals=6)
    if note_every:  # times and notes on some actions, to store and read back
        deals = [
            d.model_copy(
                update={
                    "actions": [
                        a.model_copy(update={"t": i * 1000, "note": f"n{i}"})
                        if i % note_every == 0
                        else a
                        for i, a in enumerate(d.actions)
                    ]
                }
            )
            for d in log.deals
        ]
        log = log.model_copy(update={"deals": deals})
    log = log.model_copy(
        update={
            "id": log.id if keep_id else None,
            "meta": {"start": start} if start else None,
        }
    )
    log = MatchLog.model_validate(log.model_dump(mode="json", exclude_none=True))
    with tempfile.TemporaryDirectory() as folder, open_warehouse(Path(folder) / "w.duckdb") as wh:
        summary = wh.load([log])
        assert (summary.stored, summary.deals) == (1, len(log.deals))
        _check_stored(wh, log)
        if not keep_id:
            assert wh.query("SELECT log_id, match_id FROM matches").rows == [
                (None, log.content_hash())
            ]


def test_sample_logs_with_findings_read_back_whole(db: Path) -> None:
    summary = load_paths([SAMPLES / "bad", SAMPLES / "formats"], db=db)
    assert summary.stored > 10 and summary.findings > 10 and summary.skipped == 0
    with open_warehouse(db, read_only=True) as wh:
        for path in sorted((SAMPLES / "bad").glob("*.json")):
            for record in read_any(path):
                assert record.match is not None
                _check_stored(wh, record.match)
        kinds = dict(wh.query("SELECT code, count(*) FROM findings GROUP BY code").rows)
        assert kinds.get("REVOKE") and kinds.get("OUT_OF_TURN")
        unseated = count(
            wh, "SELECT count(*) FROM findings WHERE action_no IS NOT NULL AND seat IS NULL"
        )
        assert unseated == 0


# ------------------------------------------------------------------------------- reloads
def test_loading_twice_stores_nothing_new_and_says_so(db: Path, logs: list[MatchLog]) -> None:
    with open_warehouse(db) as wh:
        first = wh.load(logs, batch_deals=50)  # several transactions
        before = {t: count(wh, f"SELECT count(*) FROM {t}") for t in ddl.LOADED_TABLES}
        again = wh.load([*logs, logs[0]])
        after = {t: count(wh, f"SELECT count(*) FROM {t}") for t in ddl.LOADED_TABLES}
    assert first.stored == len(logs) and first.duplicates == 0
    assert (again.stored, again.duplicates, again.deals) == (0, len(logs) + 1, 0)
    assert before == after and before["matches"] == len(logs)
    assert any("nothing new" in line for line in again.lines())
    assert any("is already stored" in line for line in again.lines())


def test_duplicates_within_one_load_and_one_batch(db: Path, logs: list[MatchLog]) -> None:
    hashless = logs[0].model_copy(update={"id": None})
    with open_warehouse(db) as wh:
        summary = wh.load([logs[0], logs[1], logs[0], hashless, hashless])
        assert count(wh, "SELECT count(*) FROM matches") == 3
    assert (summary.stored, summary.duplicates) == (3, 2)
    assert sum("appears again" in line for line in summary.lines()) == 2


def test_bad_records_are_skipped_with_their_lines(db: Path, logs: list[MatchLog]) -> None:
    source = db.parent / "in.jsonl"
    huge = logs[1].model_copy(update={"id": "huge"}).model_dump(mode="json", exclude_none=True)
    bid = next(a for d in huge["deals"] for a in d["actions"] if a["type"] == "bid")
    bid["value"] = 2**70  # legal JSON, beyond 64 bits: refused where read, skipped
    lines = [logs[0].model_dump_json(exclude_none=True), "{not json", json.dumps(huge)]
    source.write_text("\n".join(lines) + "\n")
    summary = load_paths([source], db=db)
    assert (summary.read, summary.stored, summary.skipped, summary.exit_code) == (3, 1, 2, 1)
    text = "\n".join(summary.lines())
    assert f"{source}:2:" in text and f"{source}:3:" in text
    assert "].value: Input should be less than or equal to 9223372036854775807" in text
    assert run_query("SELECT count(*) FROM matches", db=db).rows == [(1,)]


# ------------------------------------------------------------------------------- queries
def test_queries_are_read_only(db: Path, logs: list[MatchLog]) -> None:
    with open_warehouse(db) as wh:
        wh.load(logs[:2])
    before = digest(db)
    result = run_query("SELECT preset, count(*) AS n FROM matches GROUP BY ALL ORDER BY 1", db=db)
    assert result.columns == ("preset", "n") and result.rows[0][1] == 2
    for sql, kind in [
        ("INSERT INTO players VALUES ('x', 'x', 'm', now())", "INSERT"),
        ("DELETE FROM deals", "DELETE"),
        ("SELECT 1; DROP TABLE deals", "DROP"),
        ("CREATE TABLE t AS SELECT 1", "CREATE"),
        ("COPY deals TO 'out.csv'", "COPY"),
        (f"ATTACH '{db.parent / 'other.duckdb'}'", "ATTACH"),
        ("UPDATE deals SET call = 28", "UPDATE"),
        ("INSTALL httpfs", "INSTALL and LOAD"),
        ("LOAD httpfs", "INSTALL and LOAD"),
    ]:
        with pytest.raises(QueryRefusedError) as refused:
            run_query(sql, db=db)
        assert f"{kind} statements are refused" in one_line(refused.value)
    with pytest.raises(QueryFailedError) as failed:
        run_query("SELECT * FROM read_csv('/etc/hostname')", db=db)  # the sandbox holds
    one_line(failed.value)
    with pytest.raises(QueryFailedError, match="no_such_table"):
        run_query("SELECT * FROM no_such_table", db=db)
    assert digest(db) == before
    assert not (db.parent / "other.duckdb").exists()


def test_a_writable_warehouse_answers_selects_only(db: Path) -> None:
    with open_warehouse(db) as wh:
        assert wh.query("SELECT count(*) FROM deals").rows == [(0,)]
        with pytest.raises(QueryRefusedError):
            wh.query("PRAGMA enable_checkpoint_on_shutdown")


# ------------------------------------------------------------------------------ refusals
def test_missing_file_for_reading(db: Path) -> None:
    with pytest.raises(WarehouseMissingError) as missing:
        run_query("SELECT 1", db=db)
    assert str(db) in one_line(missing.value)
    assert not db.exists()


@contextmanager
def _held(db: Path, read_only: bool) -> Iterator[int]:
    """Another process holding ``db`` open (read-only or not) until the block ends: its pid."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, duckdb; con = duckdb.connect(sys.argv[1], read_only=sys.argv[2] == '1'); "
            "print('ready', flush=True); sys.stdin.read()",
            str(db),
            str(int(read_only)),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        yield holder.pid
    finally:
        holder.stdin.close()  # type: ignore[union-attr]
        holder.wait(timeout=30)
        holder.stdout.close()  # type: ignore[union-attr]


def test_locked_by_another_writer(db: Path) -> None:
    open_warehouse(db).close()
    with _held(db, read_only=False) as pid:
        for read_only in (False, True):
            with pytest.raises(WarehouseLockedError) as locked:
                open_warehouse(db, read_only=read_only)
            assert locked.value.pid == pid
            assert f"PID {pid}" in one_line(locked.value)
        with pytest.raises(WarehouseLockedError):
            load_paths([SAMPLES / "pagat.json"], db=db)
    assert run_query("SELECT count(*) FROM matches", db=db).rows == [(0,)]


def test_locked_by_another_reader_is_not_said_to_be_written(db: Path) -> None:
    """A process that only reads the file (a read-only connection) keeps a writer out too;
    the refusal says it has the file open, not that it writes to it."""
    open_warehouse(db).close()
    with _held(db, read_only=True) as pid, pytest.raises(WarehouseLockedError) as locked:
        load_paths([SAMPLES / "pagat.json"], db=db)
    assert one_line(locked.value) == (
        f"{db}: locked by another process (PID {pid}) that has it open; "
        "try again when it has finished"
    )


def _set_version(db: Path, version: int) -> None:
    con = duckdb.connect(str(db))
    con.execute("UPDATE warehouse_info SET value = ? WHERE key = 'schema_version'", [str(version)])
    con.close()


def test_newer_schema_version_is_refused_untouched(db: Path, logs: list[MatchLog]) -> None:
    with open_warehouse(db) as wh:
        wh.load(logs[:1])
        assert wh.schema_version == ddl.SCHEMA_VERSION
    _set_version(db, ddl.SCHEMA_VERSION + 1)
    before = digest(db)
    for read_only in (False, True):
        with pytest.raises(WarehouseTooNewError) as newer:
            open_warehouse(db, read_only=read_only)
        assert f"schema version {ddl.SCHEMA_VERSION + 1} is newer" in one_line(newer.value)
    with pytest.raises(WarehouseTooNewError):
        load_paths([SAMPLES / "pagat.json"], db=db)
    assert digest(db) == before


def test_older_schema_version_is_migrated(
    db: Path, logs: list[MatchLog], monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_warehouse(db) as wh:
        wh.load(logs[:1])
    known = ddl.SCHEMA_VERSION + 1

    def add_column(con: duckdb.DuckDBPyConnection) -> None:
        con.execute("ALTER TABLE matches ADD COLUMN tag VARCHAR")

    monkeypatch.setattr(ddl, "SCHEMA_VERSION", known)
    monkeypatch.setitem(ddl.MIGRATIONS, known - 1, add_column)
    with pytest.raises(WarehouseOutdatedError) as outdated:
        open_warehouse(db, read_only=True)  # a reader may not migrate
    assert "needs migrating" in one_line(outdated.value)
    with open_warehouse(db) as wh:
        assert wh.schema_version == known
        assert wh.query("SELECT tag FROM matches").rows == [(None,)]
        assert count(wh, "SELECT count(*) FROM player_stats") == 4  # views re-created


@pytest.mark.parametrize("content", [b"", b"not a database at all" * 100, "truncated"])
def test_corrupt_files_are_refused_untouched(
    db: Path, logs: list[MatchLog], content: bytes | str
) -> None:
    if content == "truncated":
        with open_warehouse(db) as wh:
            wh.load(logs)
        content = db.read_bytes()[: 3 * 4096 + 100]
    assert isinstance(content, bytes)
    db.write_bytes(content)
    for read_only in (True, False):
        with pytest.raises(WarehouseCorruptError) as corrupt:
            open_warehouse(db, read_only=read_only)
        said = "not a DuckDB database;" if content[:1] == b"n" else "not a readable DuckDB database"
        assert one_line(corrupt.value).startswith(f"{db}: {said}")
    assert db.read_bytes() == content
    assert not db.with_name(db.name + ".wal").exists()


def test_someone_elses_database_is_refused_untouched(db: Path) -> None:
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE sales (x INTEGER)")
    con.close()
    before = digest(db)
    with pytest.raises(NotAWarehouseError) as other:
        open_warehouse(db)
    assert "not a twentynine warehouse" in one_line(other.value)
    assert digest(db) == before


def test_an_empty_duckdb_file_becomes_a_warehouse(db: Path) -> None:
    duckdb.connect(str(db)).close()
    with pytest.raises(WarehouseMissingError):
        open_warehouse(db, read_only=True)
    with open_warehouse(db) as wh:
        assert wh.schema_version == ddl.SCHEMA_VERSION


def test_bad_places(tmp_path: Path) -> None:
    with pytest.raises(WarehouseError, match="no folder"):
        open_warehouse(tmp_path / "no" / "such" / "w.duckdb")
    with pytest.raises(WarehouseError, match="is a folder"):
        open_warehouse(tmp_path)


def test_loading_into_a_read_only_warehouse_is_refused(db: Path, logs: list[MatchLog]) -> None:
    open_warehouse(db).close()
    with open_warehouse(db, read_only=True) as wh, pytest.raises(WarehouseError, match="read-only"):
        wh.load(logs[:1])


@pytest.fixture
def loaded(db: Path, logs: list[MatchLog]) -> Iterator[Warehouse]:
    with open_warehouse(db) as wh:
        wh.load(logs)
        yield wh


def test_every_table_and_view_answers(loaded: Warehouse) -> None:
    for name in [*ddl.TABLES, *ddl.VIEWS]:
        loaded.query(f"SELECT * FROM {name} LIMIT 1")
    plays = count(loaded, "SELECT count(*) FROM plays")
    others = count(loaded, "SELECT count(*) FROM other_actions")
    assert count(loaded, "SELECT count(*) FROM actions") == plays + others
    assert count(loaded, "SELECT count(*) FROM players") == 4
    nulls = loaded.query("SELECT count(*) FROM plays WHERE trick_no IS NULL").rows[0][0]
    assert nulls == 0  # clean random matches: every play is in a replayed trick


CTRL_C_BEFORE_THE_QUERY = """
import _thread, signal, threading, time, duckdb
from twentynine.reports.warehouse.store import _query_thread, interruptible
# Ctrl-C as in a terminal, even where this test runs in a background job (which ignores it)
signal.signal(signal.SIGINT, signal.default_int_handler)
LONG = "SELECT sum(hash(range)) FROM range(1000000000000)"  # hours of work
con = duckdb.connect()
ran = []
def run():
    ran.append(True)
    _thread.interrupt_main()  # Ctrl-C once the work has begun, before its query has
    time.sleep(0.5)
    return con.execute(LONG).fetchall()
try:
    interruptible(con, run)
except KeyboardInterrupt:
    print("stopped after it began:", ran)
# Ctrl-C while the work waits for the query thread, busy with other work: it never begins.
ran.clear()
jobs, release = _query_thread(), threading.Event()
def busy():
    while jobs.qsize() == 0:  # until the work is handed over
        time.sleep(0.01)
    _thread.interrupt_main()
    release.wait()
jobs.put(busy)
try:
    interruptible(con, run)
except KeyboardInterrupt:
    release.set()
    time.sleep(0.5)
    print("stopped before it began:", ran)
"""


def test_ctrl_c_stops_a_query_whenever_it_comes() -> None:
    """Ctrl-C before DuckDB has begun a query was lost: `query` then ran a query of hours to
    its end (seen on a loaded machine). It is sent again until the query stops; and work
    that Ctrl-C finds still waiting for the query thread never begins."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", CTRL_C_BEFORE_THE_QUERY],
            check=False,
            capture_output=True,
            text=True,
            timeout=30,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("the query went on after Ctrl-C")
    assert done.stdout.splitlines() == [
        "stopped after it began: [True]",
        "stopped before it began: []",
    ], done.stderr
