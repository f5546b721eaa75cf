"""replay.summary.AuditSummary: the counts and rows of an audit, through its public API.

The known-bad samples and their pinned ``.expected`` findings are the reference: a summary
of a bad log must hold exactly those findings, as rows that place them in the file.
"""

from __future__ import annotations

import gc
from pathlib import Path

import orjson
import pytest

from twentynine.importers.formats import read_any
from twentynine.replay import Finding, audit_match, random_match
from twentynine.replay.summary import AuditSummary, FindingRow, finding_row, seldom_collected
from twentynine.schema import PRESET_NAMES, MatchLog, Rules

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
BAD = sorted((SAMPLES / "bad").glob("*.json"))


def _matches(path: Path) -> list[MatchLog]:
    matches = [record.match for record in read_any(path)]
    assert all(match is not None for match in matches)
    return [match for match in matches if match is not None]


@pytest.mark.parametrize("path", BAD, ids=lambda path: path.stem)
def test_rows_are_the_pinned_findings_of_each_bad_sample(path: Path) -> None:
    summary = AuditSummary()
    rows: list[FindingRow] = []
    for match in _matches(path):
        rows.extend(summary.add(str(path), audit_match(match)))
    expected = [
        orjson.loads(line) for line in path.with_suffix(".expected").read_bytes().splitlines()
    ]
    assert [{k: row.to_dict()[k] for k in expected[0]} for row in rows] == expected
    assert {row.source for row in rows} == {str(path)}
    errors = sum(1 for row in expected if row["severity"] == "error")
    assert (summary.errors, summary.warnings) == (errors, len(expected) - errors)
    assert summary.exit_code == (1 if errors else 0)


def test_counts_add_up_over_files_and_matches() -> None:
    summary = AuditSummary()
    deals = 0
    for name in PRESET_NAMES:
        for match in _matches(SAMPLES / f"{name}.json"):
            assert summary.add(f"{name}.json", audit_match(match)) == []
            deals += len(match.deals)
    league = _matches(SAMPLES / "league.jsonl")
    for match in league:
        summary.add("league.jsonl", audit_match(match))
        deals += len(match.deals)
    assert summary.files == {f"{name}.json" for name in PRESET_NAMES} | {"league.jsonl"}
    assert summary.matches == len(PRESET_NAMES) + len(league)
    assert summary.deals == deals
    assert (summary.errors, summary.warnings, summary.unreadable) == (0, 0, 0)
    assert summary.exit_code == 0


def test_an_unreadable_document_outranks_errors() -> None:
    summary = AuditSummary()
    for match in _matches(SAMPLES / "bad" / "revoke.json"):
        summary.add("revoke.json", audit_match(match))
    assert summary.exit_code == 1
    summary.add_unreadable("broken.json")
    summary.add_unreadable("broken.json")
    assert summary.unreadable == 2
    assert summary.files == {"revoke.json", "broken.json"}
    assert summary.matches == 1
    assert summary.exit_code == 2


def test_a_random_legal_match_adds_its_deals_and_no_rows() -> None:
    log = random_match(Rules.preset("bangladesh"), seed=11, max_deals=7)
    summary = AuditSummary()
    assert summary.add("sim.jsonl", audit_match(log)) == []
    assert (summary.matches, summary.deals) == (1, len(log.deals))


def test_rows_take_the_line_that_line_of_gives() -> None:
    finding = Finding("REVOKE", "error", 3, 17, "S played 9D holding JS: must follow spades")
    placed = finding_row(
        "c.29", "m1", finding, lambda deal, action: 100 * (deal or 0) + (action or 0)
    )
    assert placed.line == 317
    assert placed.text() == "c.29:317:3:17: REVOKE S played 9D holding JS: must follow spades"
    assert placed.to_dict() == {"file": "c.29", "line": 317, "match": "m1", **finding.to_dict()}
    unplaced = finding_row("c.json", "m1", finding)
    assert unplaced.line is None
    assert unplaced.location() == "c.json:3:17"


def test_a_finding_about_the_whole_match_or_deal_has_dashes() -> None:
    whole = FindingRow("x.jsonl", 4, "m", Finding("WRONG_WINNER", "error", None, None, "m"))
    deal = FindingRow("x.jsonl", None, "m", Finding("WRONG_SCORE", "error", 2, None, "m"))
    assert (whole.location(), deal.location()) == ("x.jsonl:4:-:-", "x.jsonl:2:-")


def test_seldom_collected_restores_the_thresholds_after_an_error() -> None:
    before = gc.get_threshold()
    with pytest.raises(ZeroDivisionError), seldom_collected(12_345):
        assert gc.get_threshold() == (12_345, *before[1:])
        _ = 1 / 0
    assert gc.get_threshold() == before


def test_seldom_collected_still_collects_cycles() -> None:
    collections: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == 0:
            collections.append(info["collected"])

    gc.collect()
    gc.callbacks.append(count)
    try:
        with seldom_collected(1_000):
            for _ in range(5_000):  # pairs that refer to each other: only the collector frees them
                pair: list[object] = []
                pair.append([pair])
    finally:
        gc.callbacks.remove(count)
    assert collections and sum(collections) > 0
