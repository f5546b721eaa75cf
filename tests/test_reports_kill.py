"""A loader killed with SIGKILL mid-load leaves only whole matches, and a reload completes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from twentynine.loading import load_paths
from twentynine.replay import audit_match, random_match
from twentynine.reports.warehouse.store import open_warehouse
from twentynine.schema import Rules
from twentynine.schema.log import MatchLog

COPIES = 60  # of each base match: 300 matches, about 2,500 deals
BATCH_DEALS = 100

LOADER = textwrap.dedent(
    """
    import sys
    from twentynine.loading import load_paths

    def report(summary):
        print(summary.stored, flush=True)

    load_paths(
        [sys.argv[1]],
        db=sys.argv[2],
        progress=report,
        batch_deals=int(sys.argv[3]),
        jobs=int(sys.argv[4]),
    )
    print("done", flush=True)
    """
)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("delay", [0.0, 0.05])  # at a progress report, or somewhere after it
@pytest.mark.parametrize("jobs", [1, 2])  # 2: the writer killed, its reading process orphaned
def test_sigkill_mid_load_then_reload(tmp_path: Path, delay: float, jobs: int) -> None:
    bases = [
        random_match(Rules.preset(preset), seed, max_deals=12)
        for preset, seed in [
            ("bangladesh", 1),
            ("pagat", 2),
            ("bhoos", 3),
            ("classic29", 4),
            ("standard", 5),
        ]
    ]
    logs = [
        base.model_copy(update={"id": f"{base.id}-copy-{k}"})
        for k in range(COPIES)
        for base in bases
    ]
    source = tmp_path / "league.jsonl"
    source.write_text("".join(log.model_dump_json(exclude_none=True) + "\n" for log in logs))
    db = tmp_path / "w.duckdb"

    loader = subprocess.Popen(
        [sys.executable, "-c", LOADER, str(source), str(db), str(BATCH_DEALS), str(jobs)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
    )
    assert loader.stdout is not None
    seen = 0
    for line in loader.stdout:  # the stored count after each commit (and while reading)
        if line.strip() == "done":
            break
        seen = int(line)
        if seen >= 2 * len(bases):  # some batches committed: kill it mid-load
            time.sleep(delay)
            loader.send_signal(signal.SIGKILL)
            break
    loader.wait(timeout=60)
    loader.stdout.close()
    assert loader.returncode == -signal.SIGKILL, "the loader finished before it was killed"
    assert _gone(str(db), within=20.0), "a process of the killed load is still running"

    facts = {base.id: audit_match(base) for base in bases}
    with open_warehouse(db, read_only=True) as wh:
        stored = dict(wh.query("SELECT match_id, deals FROM matches").rows)
        deals = dict(wh.query("SELECT match_id, count(*) FROM deals GROUP BY 1").rows)
        actions = dict(
            wh.query("SELECT match_id || '/' || deal_no, count(*) FROM actions GROUP BY 1").rows
        )
        tricks = dict(
            wh.query("SELECT match_id || '/' || deal_no, count(*) FROM tricks GROUP BY 1").rows
        )
        hands = wh.query("SELECT count(DISTINCT match_id) FROM hands").rows[0][0]
        orphans = wh.query(
            "SELECT count(*) FROM plays WHERE match_id NOT IN (SELECT match_id FROM matches)"
        ).rows[0][0]
    assert seen <= len(stored) < len(logs)
    assert orphans == 0 and hands == len(stored) and set(deals) == set(stored)
    by_id = {log.id: log for log in logs}
    for match_id, deal_count in stored.items():
        log: MatchLog = by_id[match_id]
        base_id = match_id.split("-copy-")[0]
        assert deal_count == deals[match_id] == len(log.deals)
        for deal, fact in zip(log.deals, facts[base_id].deals, strict=True):
            key = f"{match_id}/{fact.number}"
            assert actions.get(key, 0) == len(deal.actions)
            assert tricks.get(key, 0) == len(fact.tricks)

    again = load_paths([source], db=db)
    assert (again.stored, again.duplicates) == (len(logs) - len(stored), len(stored))
    with open_warehouse(db, read_only=True) as wh:
        assert wh.query("SELECT count(*) FROM matches").rows == [(len(logs),)]
        total = sum(len(log.deals) for log in logs)
        assert wh.query("SELECT count(*) FROM deals").rows == [(total,)]


def _gone(argument: str, within: float) -> bool:
    """Whether no process whose command line holds ``argument`` is left (waiting up to
    ``within`` seconds): the reading process of ``--jobs 2`` stops when its writer is gone."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        left = []
        for entry in Path("/proc").iterdir():
            try:
                if entry.name.isdigit() and argument in (entry / "cmdline").read_text():
                    left.append(entry.name)
            except OSError:
                continue
        if not left:
            return True
        time.sleep(0.2)
    return False
