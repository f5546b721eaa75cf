"""Counts and signs in words (issue 23 §7): `1 deal`, `1 point`, never `-0.00`; no call name
used as a label mid-sentence; a defender's chance is of beating the contract; the link beside
a finding is not called "show"."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from twentynine.analysis.annotate import Alternative, Annotation, detail_json
from twentynine.analysis.judge.words import explain, note_text
from twentynine.cli import app
from twentynine.importers.formats import read_any
from twentynine.replay import audit_match, deal_steps, random_match
from twentynine.reports.html.viewer import deal_data
from twentynine.schema import Rules
from twentynine.schema.log import MatchLog

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"
runner = CliRunner()


def first_match(path: Path) -> MatchLog:
    return next(r.match for r in read_any(path) if r.match is not None)


def one_deal_file(tmp_path: Path) -> Path:
    """The first deal of a sample match, as a match of its own."""
    match = first_match(SAMPLES / "bhoos.json")
    one = match.model_copy(update={"deals": match.deals[:1], "result": None})
    path = tmp_path / "one.json"
    path.write_text(one.model_dump_json(exclude_none=True))
    return path


def test_one_deal_and_one_point_are_said_in_the_singular(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    loaded = runner.invoke(app, ["load", str(one_deal_file(tmp_path)), "--db", str(db)])
    assert "1 stored (1 deal, " in loaded.stderr, loaded.stderr
    match = first_match(SAMPLES / "bhoos.json")
    said = [
        step.description
        for number in range(1, len(match.deals) + 1)
        for step in deal_steps(match, number)
    ]
    assert any("(1 point)" in words for words in said)
    assert not any(re.search(r"\b1 points\b", words) for words in said)


def _bid_note(chosen: str, best: str, values: dict[str, float]) -> Annotation:
    alternatives = [Alternative(c, v) for c, v in values.items()]
    detail = detail_json(alternatives, secondary={c: 0.5 for c in values if c != "pass"})
    return Annotation(
        "m", 1, 4, "N", "bid", "sampled", chosen, best, values[chosen], values[best],
        values[best] - values[chosen], "game_points", 32, 0.0, 0.0, None, "", detail, 0,
    )  # fmt: skip


def test_no_negative_zero_and_no_call_name_as_a_label() -> None:
    text = explain(_bid_note("ditto", "pass", {"ditto": -0.001, "pass": 0.0}))
    assert "-0.00" not in text and "0.00 game points" in text, text
    note = _bid_note("ditto", "ditto", {"ditto": 0.2, "pass": 0.0})
    note = note._replace(explanation=explain(note))
    # the viewer writes "bid (sampled): <text>": no "Ditto:" inside that sentence
    assert not re.search(r"(?i)ditto:", note_text(note)), note_text(note)


def test_a_defenders_lost_chance_is_of_beating_the_contract() -> None:
    match = random_match(Rules.preset("bangladesh"), 3)
    audited = audit_match(match)
    number, deal = next((i, d) for i, d in enumerate(match.deals, 1) if d.actions)
    caller = next(a.seat for a in deal.actions if a.type == "trump")
    at = next(k for k, a in enumerate(deal.actions) if a.type == "play")
    fields = ("sampled", "no show", "show", 0.4, 0.6, 0.2, "make_probability", 32, 0.1, 0.3)
    notes = [
        Annotation(match.match_id, number, at, seat.value, "show", *fields, "", "", "{}", 0)
        for seat in (caller, caller.next(Rules.preset("bangladesh").direction))
    ]
    texts = [note["text"] for note in deal_data(match, audited, number, notes)["notes"]]
    assert "20% make chance" in texts[0]
    assert "20% chance to beat the contract" in texts[1] and "make chance" not in texts[1]


def test_the_link_beside_a_finding_is_not_called_show(tmp_path: Path) -> None:
    out = tmp_path / "mixed.html"
    made = runner.invoke(
        app, ["report", "match", str(SAMPLES / "bad" / "mixed.json"), "-o", str(out)]
    )
    assert made.exit_code == 0, made.output
    page = out.read_text(encoding="utf-8")
    assert '">go to step</a>' in page and '">show</a>' not in page


def test_a_one_deal_match_report_says_1_deal(tmp_path: Path) -> None:
    out = tmp_path / "one.html"
    made = runner.invoke(app, ["report", "match", str(one_deal_file(tmp_path)), "-o", str(out)])
    assert made.exit_code == 0, made.output
    page = out.read_text(encoding="utf-8")
    assert "· 1 deal ·" in page and "1 deals" not in page
