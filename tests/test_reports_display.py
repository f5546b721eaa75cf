"""The reports write every card as a player reads it (``10♦``, one form: ``Card.display``):
in the tricks, the findings, the annotations' choices and the viewer's script."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
from typer.testing import CliRunner

from tests.htmlpage import Page
from tests.test_reports_html import COLUMNS
from twentynine.cli import app
from twentynine.importers.formats import read_any
from twentynine.replay import audit_match
from twentynine.reports.html.match import match_report
from twentynine.schema.cards import ALL_CARDS, Card
from twentynine.schema.log import MatchLog, PlayAction, player_name

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
LOG_CARD = re.compile(r"\b[J9ATKQ87][SHDC]\b")


def _sample(name: str) -> MatchLog:
    return next(r.match for r in read_any(SAMPLES / name) if r.match is not None)


def test_findings_name_cards_as_a_player_reads_them() -> None:
    match = _sample("bad/revoke.json")
    audited = audit_match(match)
    page = Page(match_report(match, audited, None))
    first = audited.findings[0].message
    assert "8C" in first  # the audit keeps the log notation (a log is searched for 8C)
    assert first.replace("8C", "8♣").replace("9D", "9♦") in page.text
    messages = [f["message"] for d in page.json("viewer-data")["deals"] for f in d["findings"]]
    assert messages and not [m for m in messages if LOG_CARD.search(m)]
    assert not LOG_CARD.search(" ".join(e.content for e in page.all("div", "finding")))


def test_the_viewer_script_gets_each_card_as_read_from_the_report() -> None:
    match = _sample("pagat.json")
    data = Page(match_report(match, audit_match(match), None)).json("viewer-data")
    assert data["cards"] == {card.text: card.display for card in ALL_CARDS}
    assert data["cards"]["TD"] == "10♦"


def test_annotation_choices_are_written_as_a_player_reads_them(tmp_path: Path) -> None:
    match = _sample("pagat.json")
    deal = match.deals[0]
    k, play = next((k, a) for k, a in enumerate(deal.actions) if isinstance(a, PlayAction))
    other = next(c for c in ALL_CARDS if c is not play.card)
    trump_at = next(k for k, a in enumerate(deal.actions) if a.type == "trump")
    doubler = play.seat.partner  # judged at the first lead though not its player's decision
    db = tmp_path / "w.duckdb"
    loaded = runner.invoke(app, ["load", str(SAMPLES / "pagat.json"), "--db", str(db)])
    assert loaded.exit_code == 0, loaded.output
    with duckdb.connect(str(db)) as con:
        con.execute(
            f"INSERT INTO annotations ({COLUMNS}) VALUES "
            "(?, 1, ?, ?, 'card', 'exact', ?, ?, 10, 12, 2, 'card_points', NULL, NULL, NULL, "
            "NULL, 'a card', '{}', 0), "
            "(?, 1, ?, ?, 'trump', 'sampled', 'trump H', 'trump S (9S)', 0.4, 0.6, 0.2, "
            "'make_probability', 32, 0.1, 0.3, NULL, 'a trump', '{}', 0), "
            "(?, 1, ?, ?, 'double', 'sampled', 'no double', 'no double', 0.1, 0.1, 0, "
            "'game_points', 32, 0, 0, NULL, 'nobody doubled', '{}', 0)",
            [
                match.match_id, k, play.seat.value, play.card.text, other.text,
                match.match_id, trump_at, deal.actions[trump_at].seat.value,
                match.match_id, k, doubler.value,
            ],
        )  # fmt: skip
    out = tmp_path / "m.html"
    result = runner.invoke(
        app, ["report", "match", str(SAMPLES / "pagat.json"), "--db", str(db), "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    page = Page(out.read_text())
    notes = " ".join(e.content for e in page.all("div", "note"))
    assert f"chose {play.card.display}, best {other.display}, lost 2 card points" in notes
    assert "chose ♥ hearts, best ♠ spades (9♠ face down)" in notes
    assert not LOG_CARD.search(notes) and "trump H" not in notes
    who = f"{doubler.value} (\u2068{player_name(match.players[doubler])}\u2069)"  # isolated
    assert f"double by {who} (sampled): chose no double. Nobody doubled" in notes
    assert f"card (exact): chose {play.card.display}" in notes  # the card's own player: no by
    viewer = page.json("viewer-data")["deals"][0]["notes"]
    assert [(n["chosen"], n["best"], n["by"]) for n in viewer] == [  # in action order
        ("♥ hearts", "♠ spades (9♠ face down)", ""),
        (play.card.display, other.display, ""),
        ("no double", "no double", who),
    ]
    assert viewer[1]["text"].startswith(f"chose {play.card.display}, best {other.display}, lost 2 ")
    assert Card.parse("TD").display == "10♦"
