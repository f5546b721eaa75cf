"""`twentynine analyze --dealing`: a fair shuffle by default for every preset, the Bhoos
server's dealing only when asked, recorded with the run so that `--resume` never mixes the
two, in a real DuckDB file."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from twentynine.analysis.models.dealing import shipped_model
from twentynine.cli import app
from twentynine.importers.formats import write_matches
from twentynine.replay import random_match
from twentynine.schema import Rules

runner = CliRunner()
ONLY = ["--only", "shows", "--samples", "4"]


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two bhoos matches of two deals each."""
    path = tmp_path_factory.mktemp("dealing") / "two.jsonl"
    matches = []
    for seed in (2, 3):
        log = random_match(Rules.preset("bhoos"), seed=seed)
        matches.append(log.model_copy(update={"deals": log.deals[:2], "result": None}))
    write_matches(iter(matches), str(path))
    return path


def _dealings(db: Path) -> tuple[set[str], set[str]]:
    """The dealings the stored notes and the runs' records name."""
    with duckdb.connect(str(db), read_only=True) as con:
        sql = "SELECT detail FROM annotations WHERE method = 'sampled'"
        notes = {json.loads(d)["dealing"] for (d,) in con.execute(sql).fetchall()}
        records = {
            json.loads(v)["dealing"]
            for (v,) in con.execute(
                "SELECT value FROM warehouse_info WHERE key LIKE 'analysed:%'"
            ).fetchall()
        }
    return notes, records


def test_resume_never_mixes_the_two_dealings(logs: Path, tmp_path: Path) -> None:
    """A run of one dealing never resumes one of the other (docs/analysis.md, "Runs"):
    --resume is refused in one line and nothing changes; analysed again without it, the
    matches' notes are all of the new dealing; a resume of that run skips them."""
    db = tmp_path / "w.duckdb"
    fair = runner.invoke(app, ["analyze", str(logs), *ONLY, "--db", str(db)])
    assert fair.exit_code == 0, fair.output
    assert _dealings(db) == ({"fair"}, {"fair"})
    version = shipped_model().version
    server = ["analyze", str(logs), *ONLY, "--db", str(db), "--dealing", "server"]
    refused = runner.invoke(app, [*server, "--resume"])
    assert refused.exit_code == 2, refused.output
    assert f"--dealing fair stored, --dealing {version} asked" in refused.stderr
    assert _dealings(db) == ({"fair"}, {"fair"})
    again = runner.invoke(app, server)  # without --resume: every match again, replaced
    assert again.exit_code == 0, again.output
    assert "2 matches, 4 deals" in again.stderr and "replaced" in again.stderr
    assert _dealings(db) == ({version}, {version})
    after = runner.invoke(app, [*server, "--resume"])
    assert "2 matches already analysed with these options, skipped" in after.stderr
    back = runner.invoke(app, ["analyze", str(logs), *ONLY, "--db", str(db), "--resume"])
    assert back.exit_code == 2 and f"--dealing {version} stored, --dealing fair" in back.stderr
    assert _dealings(db) == ({version}, {version})


def test_the_server_s_notes_say_so_in_words(logs: Path) -> None:
    result = runner.invoke(app, ["analyze", str(logs), *ONLY, "--dealing", "server"])
    assert result.exit_code == 0, result.output
    notes = [json.loads(line) for line in result.stdout.splitlines()]
    sampled = [n for n in notes if n["method"] == "sampled"]
    assert sampled
    assert all(n["explanation"].endswith("(dealt as the Bhoos server deals)") for n in sampled)
    fair = runner.invoke(app, ["analyze", str(logs), *ONLY])
    assert "Bhoos server" not in fair.stdout


def test_an_unknown_dealing_is_one_line(logs: Path) -> None:
    result = runner.invoke(app, ["analyze", str(logs), *ONLY, "--dealing", "bhoos"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "twentynine: --dealing: unknown dealing 'bhoos' (known: fair, server)"
    ]
