"""Reports that cannot be bent (issue 23 §4): names that are markup or write right to left,
ids that make bad file names, a report name with ``#``, a play that makes the deal unreal."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote

import duckdb
import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests.htmlpage import Element, Page
from tests.test_reports_html import COLUMNS
from twentynine.analysis.hindsight import hindsight_deal
from twentynine.cli import app
from twentynine.importers.canonical import dump_match
from twentynine.importers.formats import read_any
from twentynine.replay import audit_match, random_match
from twentynine.report_commands import match_file_name
from twentynine.reports.html.match import match_report
from twentynine.reports.html.render import bidi_balanced, plotly_text, shown_name
from twentynine.schema import Rules
from twentynine.schema.cards import SEATS, Seat
from twentynine.schema.log import MatchLog, PlayAction

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
MARKUP = '<a href="https://example.invalid">A</a><sup>2</sup><br>B & C'
RLO, PDF, FSI, PDI = "\u202e", "\u202c", "\u2068", "\u2069"
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def _closed(text: str) -> bool:
    """Whether every bidirectional opener of ``text`` is closed, in order, and no closer
    closes what is not open (the Unicode bidirectional algorithm's own matching)."""
    stack: list[str] = []
    for char in text:
        if char in "\u202a\u202b\u202d\u202e":
            stack.append("E")
        elif char in "\u2066\u2067\u2068":
            stack.append("I")
        elif char == PDF:
            if not stack or stack[-1] != "E":
                return False
            stack.pop()
        elif char == PDI:
            if "I" not in stack:
                return False
            while stack.pop() != "I":
                pass
    return not stack


@given(st.text(alphabet=st.sampled_from([*BIDI, "a", "ب"]), max_size=30))
def test_balanced_text_closes_what_it_opens_and_keeps_the_rest(text: str) -> None:
    balanced = bidi_balanced(text)
    assert _closed(balanced)
    assert [c for c in balanced if c not in BIDI] == [c for c in text if c not in BIDI]
    assert bidi_balanced(balanced) == balanced


def _named(names: dict[Seat, str], seed: int = 5) -> MatchLog:
    return random_match(Rules.preset("bangladesh"), seed, names)


def _warehouse(tmp_path: Path, matches: list[MatchLog]) -> Path:
    folder = tmp_path / "logs"
    folder.mkdir()
    for i, match in enumerate(matches):
        (folder / f"{i}.json").write_bytes(dump_match(match))
    db = tmp_path / "w.duckdb"
    loaded = runner.invoke(app, ["load", str(folder), "--db", str(db)])
    assert loaded.exit_code == 0, loaded.output
    return db


def test_player_names_reach_the_charts_as_text(tmp_path: Path) -> None:
    names = {seat: f"{seat.value} {MARKUP}" for seat in SEATS}
    db = _warehouse(tmp_path, [_named(names, seed) for seed in (5, 6)])
    out = tmp_path / "p.html"
    result = runner.invoke(
        app, ["report", "players", "--db", str(db), "--min-deals", "1", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    page = Page(out.read_text())
    shown = []
    for script in page.all("script"):
        if script.attrs.get("id", "").startswith("chart-"):
            for trace in json.loads(script.content)["data"]:
                shown += [trace.get("name", ""), *map(str, trace.get("x", []))]
    named = [text for text in shown if "example.invalid" in text]
    assert named  # the players are in the charts, each name with its tags as entities
    assert all("<" not in text and "&lt;a href" in text for text in named)
    # each as the report shows a name (cut at 40 characters), then escaped for plotly
    assert set(named) <= {plotly_text(shown_name(name)) for name in names.values()}


def test_names_are_isolated_wherever_the_match_report_shows_them() -> None:
    names = {seat: f"{seat.value}{RLO}evil" for seat in SEATS}
    names[Seat.W] = f"W{PDI}{RLO}stray"  # a closer of its own first: dropped, then closed
    match = _named(names)
    page = Page(match_report(match, audit_match(match), None))
    cells = page.all("td", "player-name")
    assert [c.content for c in cells] == [bidi_balanced(names[s]) for s in SEATS]
    for cell in cells:
        assert [e.tag for e in page.elements if e.parent is cell] == ["bdi"]
    options = [e.content for e in page.all("option") if e.parent and e.attrs["value"] in "NESW"]
    assert options and all(FSI in o and o.endswith(PDI) and _closed(o) for o in options)
    texts = [dd.content for dd in page.all("dd")]  # the deals' facts: dealer, call, show
    assert any(FSI in text for text in texts) and all(_closed(text) for text in texts)
    assert all(_closed(n) for n in page.json("viewer-data")["names"].values())


def test_example_file_names_are_short_safe_and_one_per_id() -> None:
    bengali = [f"খেলা-{chr(0x09E6 + d)}{chr(0x09E6 + e)}" for d in range(10) for e in range(10)]
    ids = [*bengali, "x" * 305, "A", "a", "a b", "a_b", "a/b", "match 1#2"]
    names = [match_file_name(i) for i in ids]
    assert len(set(names)) == len(ids)
    assert all(len(n) <= 80 and n.isascii() and "/" not in n and "#" not in n for n in names)
    assert {n.lower() for n in names} == set(names)  # one per id on a case-blind disk too


def _with_ids(ids: list[str]) -> list[MatchLog]:
    return [
        random_match(
            Rules.preset("bangladesh"), seed, {s: f"{s.value}{seed}" for s in SEATS}
        ).model_copy(update={"id": i})
        for seed, i in enumerate(ids, start=11)
    ]


def test_players_report_examples_for_any_id_and_any_report_name(tmp_path: Path) -> None:
    ids = ["খেলা-১", "খেলা-২", "y" * 305]
    db = _warehouse(tmp_path, _with_ids(ids))
    out = tmp_path / "club #1 100%.html"
    result = runner.invoke(
        app,
        ["report", "players", "--db", str(db), "--min-deals", "1", "--examples", "3",
         "-o", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    page = Page(out.read_text())
    links = {a.attrs["href"] for a in page.all("a") if "_matches/" in a.attrs.get("href", "")}
    files = {unquote(href.split("#")[0]) for href in links}
    assert len(files) == 3  # one report per match, each its own file
    opened = set()
    for href in links:
        path, _, step = href.partition("#")
        assert step.startswith("deal=")
        target = tmp_path / unquote(path)
        assert target.is_file(), href
        opened.add(Page(target.read_text()).json("viewer-data")["match"])
    assert opened == set(ids)


def test_players_report_that_cannot_be_written_leaves_nothing(tmp_path: Path) -> None:
    db = _warehouse(tmp_path, _with_ids(["m1", "m2"]))
    out = tmp_path / "taken.html"
    out.mkdir()  # a folder where the report should go: written last, it fails
    result = runner.invoke(app, ["report", "players", "--db", str(db), "--min-deals", "1",
                                 "-o", str(out)])  # fmt: skip
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "cannot write" in result.stderr
    assert not (tmp_path / "taken_matches").exists()
    assert list(out.iterdir()) == []


def _card_not_held() -> MatchLog:
    return next(r.match for r in read_any(SAMPLES / "bad" / "card_not_held.json") if r.match)


def test_the_analysis_judges_nothing_from_a_card_not_held_on() -> None:
    match = _card_not_held()
    finding = audit_match(match).findings[0]
    assert finding.code == "CARD_NOT_HELD" and finding.deal == 1 and finding.action is not None
    notes = hindsight_deal(match.match_id, match.resolved_rules(), match.deals[0], 1)
    assert notes and max(n.action for n in notes if n.action is not None) < finding.action
    assert "par" not in {n.kind for n in notes}  # its "took" would reach past the card


def test_the_report_says_where_the_analysis_stops(tmp_path: Path) -> None:
    match = _card_not_held()
    finding = audit_match(match).findings[0]
    assert finding.action is not None
    db = _warehouse(tmp_path, [match])
    actions = match.deals[0].actions
    plays = [k for k, a in enumerate(actions) if isinstance(a, PlayAction)]
    before = max(k for k in plays if k < finding.action)
    after = finding.action  # the card not held itself (the deal's last action)
    with duckdb.connect(str(db)) as con:  # as an analysis made before the stop would store
        for k in (before, after):
            action = actions[k]
            assert isinstance(action, PlayAction)
            seat, card = action.seat.value, action.card.text
            con.execute(
                f"INSERT INTO annotations ({COLUMNS}) VALUES (?, 1, ?, ?, 'card', 'exact', ?, ?, "
                "10, 10, 0, 'card_points', NULL, NULL, NULL, NULL, 'a card', '{}', 0)",
                [match.match_id, k, seat, card, card],
            )
    out = tmp_path / "m.html"
    result = runner.invoke(app, ["report", "match", "--db", str(db), "-o", str(out)])
    assert result.exit_code == 0, result.output
    deal = Page(out.read_text()).json("viewer-data")["deals"][0]
    assert [n["k"] for n in deal["notes"]] == [before]
    step = next(s for s in deal["steps"] if s["k"] == finding.action)
    assert "The analysis stops here: after CARD_NOT_HELD" in step["stop"]
    assert not any("values" in s for s in deal["steps"][finding.action :])


@pytest.mark.parametrize("name", ["\u05d0\u05d1\u05d2", f"x{RLO}y"])
def test_the_terminal_replay_isolates_a_name(tmp_path: Path, name: str) -> None:
    match = _named(dict.fromkeys(SEATS, name))
    path = tmp_path / "m.json"
    path.write_bytes(dump_match(match))
    output = runner.invoke(app, ["replay", str(path), "--deal", "1", "--at", "0"]).stdout
    assert RLO not in output
    assert f"N {FSI}" in output and f"{PDI}" in output


LONG = "L" * 10_000
ANNES = {Seat.N: LONG, Seat.E: "An\u200bne", Seat.S: "Anne", Seat.W: "Ann\u200de"}
INVISIBLE = "\u200b\u200c\u200d\ufeff"


def test_a_long_name_is_cut_and_invisible_characters_show_in_both_reports(
    tmp_path: Path,
) -> None:
    match = _named(ANNES)
    html = match_report(match, audit_match(match), None)
    assert not any(char in html for char in INVISIBLE)
    assert html.count(LONG) == 1  # in the players table's title, nowhere else
    page = Page(html)
    cells = [c for c in page.elements if c.parent and c.parent.attrs.get("class") == "player-name"]
    assert [c.content for c in cells] == ["L" * 39 + "…", "An\\u200bne", "Anne", "Ann\\u200de"]
    assert cells[0].attrs["title"] == LONG and "title" not in cells[1].attrs
    assert page.json("viewer-data")["names"]["E"] == "An\\u200bne"
    db = _warehouse(tmp_path, [match])
    out = tmp_path / "p.html"
    made = runner.invoke(
        app, ["report", "players", "--db", str(db), "--min-deals", "1", "-o", str(out)]
    )
    assert made.exit_code == 0, made.output
    html = out.read_text()
    assert not any(char in html for char in INVISIBLE)
    page = Page(html)
    first = {cell.content: cell for cell in _first_cells(page, "players")}
    assert set(first) == {"L" * 39 + "…", "An\\u200bne", "Anne", "Ann\\u200de"}
    assert first["L" * 39 + "…"].attrs["title"] == LONG
    assert [d.content for d in page.all("dd", "whole-name")] == [LONG]  # in its section
    pairs = _first_cells(page, "partnerships")
    assert pairs and all(LONG not in p.content and len(p.content) < 100 for p in pairs)


def _first_cells(page: Page, table_id: str) -> list[Element]:
    """The first cell of each body row of a table."""
    rows = [e for e in page.elements if e.tag == "tr" and e.within(table_id)]
    return [
        next(c for c in page.elements if c.parent is row and c.tag == "td")
        for row in rows
        if any(c.parent is row and c.tag == "td" for c in page.elements)
    ]
