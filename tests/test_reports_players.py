"""The players report (issue 21 §6): a section per player with enough deals, their worst
decisions linked to their steps, honest charts, filters by preset and date."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import duckdb
import pytest
from typer.testing import CliRunner

from tests.analyzed import LABELS, analyzed_match
from tests.htmlpage import Page
from twentynine.cli import app
from twentynine.importers.canonical import dump_match
from twentynine.replay import random_match
from twentynine.reports.warehouse.annotations import replace_annotations
from twentynine.reports.warehouse.store import open_warehouse
from twentynine.schema import Rules
from twentynine.schema.cards import SEATS

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"


def _load(db: Path, *paths: Path) -> None:
    loaded = runner.invoke(app, ["load", *map(str, paths), "--db", str(db)])
    assert loaded.exit_code == 0, loaded.output


@pytest.fixture(scope="module")
def analyzed_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The samples and the league, with the bangladesh sample analyzed (tests/analyzed.py)."""
    folder = tmp_path_factory.mktemp("players")
    db = folder / "w.duckdb"
    _load(db, *sorted(SAMPLES.glob("*.json")), SAMPLES / "league.jsonl")
    match, notes = analyzed_match()
    with open_warehouse(db) as wh:
        replace_annotations(wh, match, list(notes))
    return db


def _report(db: Path, out: Path, *options: str) -> Page:
    result = runner.invoke(app, ["report", "players", "--db", str(db), "-o", str(out), *options])
    assert result.exit_code == 0, result.output
    return Page(out.read_text())


def test_each_player_with_enough_deals_has_a_section_linked_from_the_table(
    analyzed_db: Path, tmp_path: Path
) -> None:
    page = _report(analyzed_db, tmp_path / "p.html", "--min-deals", "1000")
    with duckdb.connect(str(analyzed_db), read_only=True) as con:
        enough = [
            r[0]
            for r in con.execute(
                "SELECT name FROM player_stats WHERE deals >= 1000 ORDER BY deals DESC, player_id"
            ).fetchall()
        ]
    sections = page.all("section", "player")
    assert [page.by_id(s.attrs["id"] + "-h").content for s in sections] == enough
    links = {a.content: a.attrs["href"] for a in page.all("a") if a.within("players")}
    for section, name in zip(sections, enough, strict=True):
        assert links[name] == "#" + section.attrs["id"]


def test_a_section_counts_labels_and_lists_the_worst_decisions_linked_to_their_steps(
    analyzed_db: Path, tmp_path: Path
) -> None:
    match, notes = analyzed_match()
    page = _report(analyzed_db, tmp_path / "p.html", "--examples", "3")
    player = match.players[SEATS[0]]
    seat = SEATS[0].value
    section = next(
        s
        for s in page.all("section", "player")
        if page.by_id(s.attrs["id"] + "-h").content == player
    )
    mine = [n for n in notes if n.seat == seat and n.label in LABELS and n.action is not None]
    assert mine
    worst = [e for e in page.elements if e.tag == "li" and e.within(section.attrs["id"])]
    assert 1 <= len(worst) <= 5
    top = max(LABELS.index(str(n.label)) for n in mine)
    assert LABELS[top] in worst[0].content  # the most severe first
    for item in worst:
        link = next(e for e in page.elements if e.tag == "a" and e.parent is item)
        path, _, step = link.attrs["href"].partition("#")
        where = dict(part.split("=") for part in step.split("&"))
        target = Page((tmp_path / unquote(path)).read_text())
        data = target.json("viewer-data")
        assert data["match"] == match.match_id
        k = int(where["action"])
        deal = data["deals"][int(where["deal"]) - 1]
        at = deal["steps"][k + 1]
        labels = [deal["notes"][i]["label"] for i in at["notes"]]
        assert any(label in LABELS for label in labels), where
    counts = " ".join(
        e.content for e in page.elements if e.tag == "dd" and e.within(section.attrs["id"])
    )
    assert re.search(r"\d+ · \d+ \?!", counts)


def test_the_bhoos_archive_keeps_its_regular_ids_beside_the_roles(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    names = {seat: f"bot-{seat.value}" for seat in SEATS}
    regulars = random_match(Rules.preset("bhoos"), 7, names, max_deals=12)
    path = tmp_path / "regulars.json"
    path.write_bytes(dump_match(regulars))
    _load(db, SAMPLES / "formats" / "bhoos_archive.json", path)
    page = _report(db, tmp_path / "p.html", "--min-deals", "10")
    assert "Reported by role" in page.text
    ids = [row[0] for row in page.table("players")]
    assert sorted(ids) == sorted(names.values())
    assert len(page.all("section", "player")) == 4 and page.table("roles")


def test_charts_keep_counts_and_intervals_and_leave_out_few(
    analyzed_db: Path, tmp_path: Path
) -> None:
    page = _report(analyzed_db, tmp_path / "p.html", "--min-deals", "100")
    levels = page.json("chart-levels-data")["data"]
    assert levels
    for trace in levels:
        assert trace["error_y"]["array"] and len(trace["text"]) == len(trace["y"])
        for text in trace["text"]:
            _, calls = map(int, text.split("/"))
            assert calls >= 100
    show = page.json("chart-show-data")["data"]
    assert all(int(t.split("/")[1]) >= 100 for trace in show for t in trace["text"])
    lost = page.json("chart-lost-data")["data"][0]
    assert lost["error_y"]["array"] and all(t.startswith("n=") for t in lost["text"])
    # nothing to draw: a sentence says why, never an empty frame
    plain = tmp_path / "plain.duckdb"
    _load(plain, SAMPLES / "pagat.json")
    empty = _report(plain, tmp_path / "e.html", "--min-deals", "500")
    captions = {e.attrs["id"]: e.content for e in empty.all("figcaption")}
    assert set(captions) == {"chart-levels", "chart-bid", "chart-show", "chart-time", "chart-lost"}
    assert all("no chart, " in text for text in captions.values())
    assert "not analyzed" in captions["chart-lost"]


def _matches(page: Page) -> int:
    """How many matches the report counts, from its summary line."""
    return int(page.by_id("summary").content.split(" match")[0].replace(",", ""))


def test_filters_by_preset_and_date(analyzed_db: Path, tmp_path: Path) -> None:
    with duckdb.connect(str(analyzed_db), read_only=True) as con:
        pagat = con.execute("SELECT count(*) FROM matches WHERE preset = 'pagat'").fetchone()
    assert pagat is not None
    stored = analyzed_db.read_bytes()
    page = _report(analyzed_db, tmp_path / "p.html", "--preset", "pagat", "--min-deals", "1")
    assert _matches(page) == pagat[0] and "Only pagat matches" in page.text
    assert analyzed_db.read_bytes() == stored  # the narrowing is the connection's own
    dated = tmp_path / "dated"
    dated.mkdir()
    for seed, day in ((1, "2025-03-01"), (2, "2025-06-01"), (3, "2025-06-02")):
        match = random_match(Rules.preset("pagat"), seed)
        match = match.model_copy(update={"meta": {"date": day}, "id": f"m-{day}"})
        (dated / f"{seed}.json").write_bytes(dump_match(match))
    db = tmp_path / "dated.duckdb"
    _load(db, dated)
    june = _report(db, tmp_path / "june.html", "--since", "2025-06-01", "--until", "2025-06-01")
    assert _matches(june) == 1
    assert "begun on or after 2025-06-01 and begun on or before 2025-06-01" in june.text
    assert _matches(_report(db, tmp_path / "all.html", "--since", "2025-05-31")) == 2
    none = _report(db, tmp_path / "none.html", "--preset", "bhoos")
    assert _matches(none) == 0 and "none in this warehouse" in none.text


def test_the_worst_decisions_get_the_example_matches_first(
    analyzed_db: Path, tmp_path: Path
) -> None:
    match, _ = analyzed_match()
    page = _report(analyzed_db, tmp_path / "p.html", "--examples", "1")
    written = list((tmp_path / "p_matches").iterdir())
    assert [p.name for p in written] == [f"match-{match.match_id}.html"]
    worst = [
        e
        for e in page.all("li")
        if e.parent is not None and "worst" in e.parent.attrs.get("class", "")
    ]
    assert worst and all(match.match_id in e.content for e in worst)


def _dated(tmp_path: Path) -> Path:
    """A warehouse of dated matches of two presets, and an undated one."""
    folder = tmp_path / "dated"
    folder.mkdir()
    days = [("pagat", "2025-03-01"), ("pagat", "2025-06-01"), ("standard", "2025-06-02")]
    days.append(("pagat", "2026-01-05"))
    for seed, (preset, day) in enumerate(days, start=1):
        match = random_match(Rules.preset(preset), seed)
        match = match.model_copy(update={"meta": {"date": day}, "id": f"m-{day}"})
        (folder / f"{seed}.json").write_bytes(dump_match(match))
    db = tmp_path / "dated.duckdb"
    _load(db, folder, SAMPLES / "pagat.json")
    return db


def _body(html: str) -> str:
    """The body a players page shows first (all its matches, or those of its options)."""
    found = re.search(r'<div class="scope-body">\n(.*)</div>\n</div>\n', html, re.S)
    assert found is not None
    return found.group(1)


def test_the_page_narrows_itself_to_a_preset_and_a_period_as_the_options_do(
    tmp_path: Path,
) -> None:
    db = _dated(tmp_path)
    common = ("--examples", "0", "--min-deals", "1")
    page = _report(db, tmp_path / "p.html", *common)
    presets = [o.attrs["value"] for o in page.all("option") if o.within("filter-preset")]
    periods = [o.attrs["value"] for o in page.all("option") if o.within("filter-period")]
    assert presets == ["", "pagat", "standard"]
    assert periods == ["", "2025", "2025-03", "2025-06", "2026"]  # 2026 has one month
    bodies = page.json("filter-bodies")
    assert set(bodies) == {f"{p}|{q}" for p in presets for q in periods} - {"|"}
    for key, options in (
        ("pagat|", ("--preset", "pagat")),
        ("|2025-06", ("--since", "2025-06-01", "--until", "2025-06-30")),
        ("pagat|2025", ("--preset", "pagat", "--since", "2025-01-01", "--until", "2025-12-31")),
    ):
        alone = tmp_path / f"{key.replace('|', '_')}.html"
        _report(db, alone, *common, *options)
        assert bodies[key] == _body(alone.read_text()), key  # the options' own figures
    assert _matches(Page(bodies["pagat|2025"])) == 2
    empty = Page(bodies["standard|2026"])
    assert _matches(empty) == 0 and "none in this warehouse" in empty.text
    # the page itself shows every match, the lists hidden without a script
    assert _matches(page) == 5 and "needs-script" in page.by_id("filters").attrs["class"]
    # nothing to choose: no lists
    plain = tmp_path / "plain.duckdb"
    _load(plain, SAMPLES / "pagat.json")
    alone_page = _report(plain, tmp_path / "plain.html", *common)
    assert not [e for e in alone_page.elements if e.attrs.get("id") == "filters"]


def test_a_narrower_page_says_its_matches_were_not_analyzed_not_the_warehouse(
    analyzed_db: Path, tmp_path: Path
) -> None:
    page = _report(analyzed_db, tmp_path / "p.html", "--min-deals", "1")
    assert "not analyzed" not in page.text
    pagat = Page(page.json("filter-bodies")["pagat|"])  # the analyzed match is bangladesh
    lost = next(e for e in pagat.all("figcaption") if e.attrs.get("id") == "chart-lost")
    for said in (lost.content, pagat.text):
        assert "none of these matches was; others in this warehouse were" in said
        assert "run twentynine analyze" not in said
    plain = tmp_path / "plain.duckdb"
    _load(plain, SAMPLES / "pagat.json")
    never = _report(plain, tmp_path / "never.html", "--min-deals", "1")
    assert "run twentynine analyze with --db on this warehouse" in never.text


def test_past_the_pairs_a_page_holds_the_periods_are_years(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from twentynine.reports.html import players

    db = _dated(tmp_path)
    monkeypatch.setattr(players, "MAX_BODIES", 14)  # 3 presets x 5 periods: one pair too many
    page = _report(db, tmp_path / "p.html", "--min-deals", "1", "--examples", "0")
    periods = [o.attrs["value"] for o in page.all("option") if o.within("filter-period")]
    assert periods == ["", "2025", "2026"]
    assert len(page.json("filter-bodies")) == 3 * 3 - 1
    monkeypatch.setattr(players, "MAX_BODIES", 15)
    page = _report(db, tmp_path / "q.html", "--min-deals", "1", "--examples", "0")
    assert len(page.json("filter-bodies")) == 3 * 5 - 1


def test_a_since_after_the_until_is_refused(tmp_path: Path) -> None:
    """No match can begin on or after a day and on or before an earlier one: an empty report
    would look like a warehouse without matches."""
    db = tmp_path / "w.duckdb"
    _load(db, SAMPLES / "pagat.json")
    out = tmp_path / "x.html"
    args = ["report", "players", "--db", str(db), "-o", str(out)]
    reversed_days = runner.invoke(app, [*args, "--since", "2025-06-02", "--until", "2025-06-01"])
    assert reversed_days.exit_code == 2, reversed_days.output
    assert reversed_days.stderr.splitlines() == [
        "twentynine: --since 2025-06-02 is after --until 2025-06-01: no match begins in between"
    ]
    assert not out.exists()


def test_sections_past_the_cap_are_counted_with_the_way_to_see_them(
    analyzed_db: Path, tmp_path: Path
) -> None:
    with duckdb.connect(str(analyzed_db), read_only=True) as con:
        every = con.execute("SELECT count(*) FROM player_stats").fetchone()
    assert every is not None and every[0] > 2
    page = _report(analyzed_db, tmp_path / "p.html", "--min-deals", "1", "--sections", "2")
    assert len(page.all("section", "player")) == 2
    line = page.by_id("sections-left-out").content
    assert line.startswith(f"{every[0] - 2} more players with 1 deal or more have no section")
    assert f"--sections {every[0]} gives each of them one" in line
    linked = [a for a in page.all("a") if a.within("players") and a.attrs["href"][:8] == "#player-"]
    assert len(linked) == 2  # only the names with a section link to one


def test_the_last_day_there_is_and_a_match_dated_9999_make_a_report(tmp_path: Path) -> None:
    """Issue 36 §3: `--until 9999-12-31`, or a match of 9999 beside another preset or period,
    was an OverflowError traceback (the day after the last day there is)."""
    folder = tmp_path / "late"
    folder.mkdir()
    for seed, (preset, day) in enumerate([("pagat", "9999-12-31"), ("standard", "2026-12-01")]):
        match = random_match(Rules.preset(preset), seed + 1)
        match = match.model_copy(update={"meta": {"date": day}, "id": f"m-{day}"})
        (folder / f"{seed}.json").write_bytes(dump_match(match))
    db = tmp_path / "late.duckdb"
    _load(db, folder)
    assert _matches(_report(db, tmp_path / "all.html")) == 2
    assert _matches(_report(db, tmp_path / "until.html", "--until", "9999-12-31")) == 2
    assert _matches(_report(db, tmp_path / "since.html", "--since", "9999-12-31")) == 1
