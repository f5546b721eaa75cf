"""The terminal replay reviews an analyzed match as the HTML does (issue 21 §5): the marks
?! ? ?? ! beside the judged calls, cards and actions, what a marked decision was, only a
seat's own in its view, and none for a match that was not analyzed."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.analyzed import LABELS, analyzed_match, labelled
from twentynine.cli import app
from twentynine.frames import card_text
from twentynine.reports.html.judged import MARKS, decision_mark, decisions
from twentynine.reports.warehouse.annotations import replace_annotations
from twentynine.reports.warehouse.store import open_warehouse
from twentynine.schema.cards import Team
from twentynine.schema.log import BidAction, PlayAction

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


@pytest.fixture(scope="module")
def analyzed_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A warehouse holding the analyzed bangladesh sample and its annotations."""
    match, notes = analyzed_match()
    db = tmp_path_factory.mktemp("replay-review") / "w.duckdb"
    with open_warehouse(db) as wh:
        wh.load([match])
        replace_annotations(wh, match, list(notes))
    return db


def _frames(output: str) -> list[str]:
    shown = output.replace("\u2068", "").replace("\u2069", "")
    return [f for f in shown.split("\n\nmatch ") if f.strip()]


def _replay(*args: str) -> list[str]:
    result = runner.invoke(app, ["replay", *args])
    assert result.exit_code == 0, result.output
    return _frames(result.stdout)


def test_a_labelled_card_is_marked_and_said_at_its_step_and_in_the_tricks(
    analyzed_db: Path,
) -> None:
    match, notes = analyzed_match()
    deal, action, seat = next(
        (d, a, s)
        for d, a, s in labelled(notes)
        if isinstance(match.deals[d - 1].actions[a], PlayAction)
    )
    here = [n for n in notes if (n.deal, n.action, n.seat) == (deal, action, seat)]
    worst = max((n for n in here if n.label in LABELS), key=lambda n: LABELS.index(str(n.label)))
    mark = MARKS[str(worst.label)]
    frames = _replay("--db", str(analyzed_db), "--deal", str(deal))
    frame = frames[action + 1]
    header, *rest = frame.splitlines()[1:]
    assert header.startswith(f"action {action} of") and f"  {mark}  (to play" in header
    said = " ".join(" ".join(rest[:6]).split())
    why = worst.explanation[:30].lower()  # the notes' words begin with a capital here
    assert f"{mark} {seat} {worst.kind}" in said and why in said.lower()
    card = match.deals[deal - 1].actions[action]
    assert isinstance(card, PlayAction)
    cell = f"{seat} {card_text(card.card)}"
    tricks = frames[-1][frames[-1].index("Tricks") :]  # the result's list of every trick
    found = tricks[tricks.index(cell) + len(cell) :][:3]
    assert found in (f"*{mark}".ljust(3), f" {mark}".ljust(3))
    # the same step from another seat's view: not this seat's decision, no mark, no words
    other = next(s for s in "NESW" if s != seat)
    [seen] = _replay("--db", str(analyzed_db), "--deal", str(deal), "--at", str(action),
                     "--seat", other)  # fmt: skip
    assert mark not in seen.splitlines()[1] and why not in seen.lower()
    [own] = _replay("--db", str(analyzed_db), "--deal", str(deal), "--at", str(action),
                    "--seat", seat)  # fmt: skip
    assert f"  {mark}  (to play" in own.splitlines()[1]


def test_the_calls_carry_their_marks_in_the_auction(tmp_path: Path) -> None:
    """Each judged call's mark beside it in the auction grid. Which calls the analysis
    labels is its business (at the tests' 8 samples it may label none of these deals'):
    deal 1's first judged bid is stored here with a label, the other notes as the analysis
    left them, so the grid has a mark to show whatever the judgement."""
    match, notes = analyzed_match()
    actions = match.deals[0].actions
    first_bid = next(
        n
        for n in notes
        if n.deal == 1 and n.kind == "bid" and isinstance(actions[n.action or 0], BidAction)
    )
    stored = [n._replace(label="mistake") if n is first_bid else n for n in notes]
    db = tmp_path / "w.duckdb"
    with open_warehouse(db) as wh:
        wh.load([match])
        replace_annotations(wh, match, stored)
    deal = match.deals[0]
    judged = {k: decision_mark(ns) for (d, k, _, kind), ns in decisions(tuple(stored)).items()
              if d == 1 and kind == "bid"}  # fmt: skip
    bids = [k for k, a in enumerate(deal.actions) if isinstance(a, BidAction) and judged.get(k)]
    assert first_bid.action in bids
    frames = _replay("--db", str(db), "--deal", "1")
    for k in bids:
        action = deal.actions[k]
        assert isinstance(action, BidAction)
        grid = frames[k + 1].split("Auction", 1)[1].split("Contract", 1)[0]
        assert f"{action.value}{judged[k]}" in grid.split(), k


def test_a_match_that_was_not_analyzed_has_no_marks() -> None:
    sample = SAMPLES / "bangladesh.json"
    frames = _replay(str(sample), "--deal", "12")
    assert all(not line.rstrip().endswith(tuple(MARKS.values())) for f in frames
               for line in f.splitlines()[1:2])  # fmt: skip
    tricks = frames[-1][frames[-1].index("Tricks") :]
    assert "?" not in tricks and "!" not in tricks


@pytest.mark.parametrize(
    ("deal", "starts"),
    [(4, "Thrown in: "), (1, ""), (6, "")],  # a throw-in, an early end, eight tricks
)
def test_each_deal_ends_on_a_result_frame_in_the_viewer_s_words(deal: int, starts: str) -> None:
    from twentynine.importers.formats import read_any
    from twentynine.replay import audit_match
    from twentynine.reports.html.words import result_words

    sample = SAMPLES / "bangladesh.json"
    match = next(r.match for r in read_any(sample) if r.match)
    audited = audit_match(match)
    facts = audited.deals[deal - 1]
    before = audited.deals[deal - 2].score_after if deal > 1 else dict.fromkeys(Team, 0)
    said = result_words(facts, before)
    assert said.startswith(starts)
    if deal == 1:
        assert "once decided" in said and len(facts.tricks) < 8
    if deal == 6:
        assert len(facts.tricks) == 8 and (": made" in said or ": failed" in said)
    frames = _replay(str(sample), "--deal", str(deal))
    assert len(frames) == len(match.deals[deal - 1].actions) + 2
    result = frames[-1]
    assert result.splitlines()[1].startswith("the result (")
    assert " ".join(result.split("Result: ", 1)[1].split()) == said
    assert all("Result: " not in frame for frame in frames[:-1])


def test_a_file_replayed_with_the_warehouse_that_analyzed_it_has_its_marks(
    analyzed_db: Path, tmp_path: Path
) -> None:
    _, notes = analyzed_match()
    deal, _, _ = labelled(notes)[0]
    sample = str(SAMPLES / "bangladesh.json")
    stored = _replay("--db", str(analyzed_db), "--deal", str(deal))
    assert _replay(sample, "--db", str(analyzed_db), "--deal", str(deal)) == stored
    assert _replay(sample, "--deal", str(deal)) != stored  # the file alone: no marks
    missing = runner.invoke(app, ["replay", sample, "--db", str(tmp_path / "none.duckdb")])
    assert missing.exit_code == 2 and len(missing.stderr.splitlines()) == 1
    assert "Traceback" not in missing.output
