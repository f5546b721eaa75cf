"""The HTML reports, parsed: what they show, that they escape, that they repeat byte for byte."""

from __future__ import annotations

import base64
import gzip
import re
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from tests.htmlpage import Page
from twentynine.cli import app
from twentynine.importers.formats import read_any
from twentynine.replay import audit_match, deal_steps
from twentynine.reports.html.match import match_report
from twentynine.reports.html.players import rate_cell
from twentynine.reports.html.render import plotly_bundle
from twentynine.reports.html.viewer import VIEWERS
from twentynine.reports.warehouse.stats import wilson_interval
from twentynine.schema.cards import SEATS, as_held
from twentynine.schema.log import MatchLog, PlayAction, player_name

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
EVIL = "<script>alert(1)</script>"
COLUMNS = (
    "match_id, deal, action, seat, kind, method, chosen, best, value_chosen, value_best, loss, "
    "unit, samples, ci_low, ci_high, label, explanation, detail, seed"
)


def _sample(name: str) -> MatchLog:
    return next(r.match for r in read_any(SAMPLES / name) if r.match is not None)


def _renamed(match: MatchLog, name: str) -> MatchLog:
    document = match.to_canonical()
    document["players"]["N"] = name
    document["deals"][0]["actions"][0]["note"] = name + " \u2028 & </script>"
    return MatchLog.model_validate(document)


def test_match_report_shows_players_deals_and_the_score() -> None:
    match = _sample("pagat.json")
    page = Page(match_report(match, audit_match(match), None))
    names = [e.content for e in page.all("td", "player-name")]
    assert names == [match.players[seat] for seat in SEATS]
    assert "not analyzed" in page.text
    assert len(page.all("details", "deal")) == len(match.deals)
    viewer = page.json("viewer-data")
    assert [d["number"] for d in viewer["deals"]] == list(range(1, len(match.deals) + 1))
    for deal, data in zip(match.deals, viewer["deals"], strict=True):
        assert [s["k"] for s in data["steps"]] == [None, *range(len(deal.actions)), None]
        assert data["steps"][-1]["end"] and "end" not in data["steps"][-2]  # the result step
    figure = page.json("score-figure")
    audited = audit_match(match)
    assert figure["data"][0]["y"][-1] == audited.score[SEATS[0].team]


def test_plotly_is_embedded_once_and_inflates_to_the_installed_library() -> None:
    from plotly.offline import get_plotlyjs

    match = _sample("pagat.json")
    html = match_report(match, audit_match(match), None)
    page = Page(html)
    packed = page.by_id("plotly-gz").content.strip()
    assert gzip.decompress(base64.b64decode(packed)).decode() == get_plotlyjs()
    assert html.count(plotly_bundle()) == 1
    # nothing fetched: no script, style sheet, image or frame from elsewhere
    assert not [e for e in page.elements if "src" in e.attrs or e.tag == "link"]


def test_twenty_deals_stay_under_five_megabytes() -> None:
    match = _sample("pagat.json")
    assert len(match.deals) == 20
    assert len(match_report(match, audit_match(match), None).encode()) < 5_000_000


def test_names_and_notes_are_text_and_the_json_cannot_leave_its_script() -> None:
    match = _renamed(_sample("pagat.json"), EVIL)
    html = match_report(match, audit_match(match), None)
    page = Page(html)
    assert EVIL in page.text  # shown as text
    scripts = page.all("script")
    assert all(EVIL not in s.content for s in scripts if s.attrs.get("type") != "text/plain")
    assert "\u2028" not in page.by_id("viewer-data").content
    assert page.json("viewer-data")["names"]["N"] == EVIL
    # one JSON block, one viewer script, plotly's data and loader, one figure: no more
    kinds = sorted(s.attrs.get("id", s.attrs.get("type", "code")) for s in scripts)
    assert kinds == ["code", "code", "plotly-gz", "score-figure", "viewer-data"]


def test_the_same_match_gives_the_same_bytes() -> None:
    match = _sample("standard.json")
    first = match_report(match, audit_match(match), None)
    assert match_report(match, audit_match(match), None) == first


def test_a_seat_sees_only_its_own_cards_and_the_trump_once_it_may_know_it() -> None:
    match = _sample("bangladesh.json")
    audited = audit_match(match)
    viewer = Page(match_report(match, audited, None)).json("viewer-data")
    deal = match.deals[0]
    steps = viewer["deals"][0]["steps"]
    replayed = deal_steps(match, 1, rules=audited.rules)  # the replay's step views
    for replay_step, step in zip(replayed, steps[:-1], strict=True):  # the last: the result
        for viewer_seat in VIEWERS[1:]:
            for other_no, other in enumerate(SEATS):
                shown = step["hands"][viewer_seat][other_no]
                dealt = replay_step.hands[other]
                if other.value == viewer_seat:
                    held = " ".join(c.text for c in as_held([c for c in dealt if c]))
                    assert shown == step["hands"]["all"][other_no] == held
                else:  # no Pair in this deal: nothing of another hand is known
                    assert shown == len(dealt), (viewer_seat, other, shown)
    caller = audited.deals[0].caller
    assert caller is not None
    trump_step = next(i for i, a in enumerate(deal.actions, 1) if a.type == "trump")
    defender = caller.next(audited.rules.direction)
    assert "hidden" in steps[trump_step]["trump"][defender.value]
    assert "known to the caller" in steps[trump_step]["trump"][caller.value]


def test_a_completed_trick_is_kept_for_the_viewer_until_the_next_lead() -> None:
    match = _sample("pagat.json")
    viewer = Page(match_report(match, audit_match(match), None)).json("viewer-data")
    deal = viewer["deals"][0]
    plays = [k for k, a in enumerate(match.deals[0].actions) if isinstance(a, PlayAction)]
    fourth = deal["steps"][plays[3] + 1]
    assert fourth["trick"] == [] and fourth["tricks"] == 1
    assert len(deal["tricks"][0]["cards"]) == 4  # what the page shows at that step


def _with_annotations(tmp_path: Path, match_file: Path, match_id: str) -> Path:
    db = tmp_path / "w.duckdb"
    loaded = runner.invoke(app, ["load", str(match_file), "--db", str(db)])
    assert loaded.exit_code == 0, loaded.output
    with duckdb.connect(str(db)) as con:  # the table as the annotations contract defines it
        con.execute(
            "CREATE TABLE IF NOT EXISTS annotations (match_id VARCHAR, deal INTEGER, "
            "action INTEGER, seat VARCHAR, kind VARCHAR, method VARCHAR, chosen VARCHAR, "
            "best VARCHAR, "
            "value_chosen DOUBLE, value_best DOUBLE, loss DOUBLE, unit VARCHAR, "
            "samples INTEGER, ci_low DOUBLE, ci_high DOUBLE, label VARCHAR, "
            "explanation VARCHAR, detail VARCHAR, seed BIGINT)"
        )
        con.execute(
            f"INSERT INTO annotations ({COLUMNS}) VALUES "
            "(?, 1, 0, 'E', 'bid', 'sampled', 'bid 16', 'pass', 0.3, 0.6, 0.3, "
            "'make_probability', 200, 0.2, 0.4, 'mistake', ?, '{}', 7), "
            "(?, 1, NULL, NULL, 'par', 'exact', 'NS 18', 'NS 18', 18, 18, 0, "
            "'card_points', NULL, NULL, NULL, NULL, 'par: NS take 18', '{}', 7)",
            [match_id, "Passing keeps the partner's 17 open " + EVIL, match_id],
        )
    return db


def test_annotations_from_the_warehouse_are_shown_with_labels(tmp_path: Path) -> None:
    match = _sample("pagat.json")
    db = _with_annotations(tmp_path, SAMPLES / "pagat.json", match.match_id)
    out = tmp_path / "m.html"
    result = runner.invoke(
        app, ["report", "match", str(SAMPLES / "pagat.json"), "--db", str(db), "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    page = Page(out.read_text())
    assert "not analyzed (run twentynine analyze" not in page.text
    # written without a run record: the deals with annotations are the ones analysed
    assert "deal 1 analyzed, the others not analyzed; options not recorded" in page.text
    assert "judged on layouts dealt as fair shuffles" in page.text  # the default dealing
    assert "Passing keeps the partner's 17 open " + EVIL in page.text
    labels = [e.content for e in page.all("span", "label")]
    assert labels == ["mistake"]
    stored = runner.invoke(app, ["report", "match", "--db", str(db), "-o", str(out)])
    assert stored.exit_code == 0, stored.output  # the match read back from the warehouse
    assert Page(out.read_text()).json("viewer-data") == page.json("viewer-data")
    notes = page.json("viewer-data")["deals"][0]["notes"]
    assert [(n["k"], n["kind"], n["label"]) for n in notes] == [
        (0, "bid", "mistake"),
        (None, "par", None),
    ]
    assert 0 in page.json("viewer-data")["deals"][0]["steps"][1]["notes"]


def test_report_match_errors_are_one_line(tmp_path: Path) -> None:
    missing = runner.invoke(
        app,
        ["report", "match", str(SAMPLES / "pagat.json"), "--match", "nope", "-o", "x.html"],
    )
    assert missing.exit_code == 2
    lines = missing.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(
        f"twentynine: {SAMPLES / 'pagat.json'}: no match with id 'nope' among 1 match"
    )
    second = runner.invoke(
        app, ["report", "match", str(SAMPLES), "--match", "2", "-o", str(tmp_path / "2.html")]
    )
    assert second.exit_code == 0, second.output  # the number `twentynine matches` gives
    listed = runner.invoke(app, ["matches", str(SAMPLES)])
    second_id = listed.stdout.splitlines()[3].split()[1]
    assert Page((tmp_path / "2.html").read_text()).json("viewer-data")["match"] == second_id
    no_db = runner.invoke(
        app,
        [
            "report",
            "match",
            str(SAMPLES / "pagat.json"),
            "--db",
            str(tmp_path / "none.duckdb"),
            "-o",
            str(tmp_path / "m.html"),
        ],
    )
    assert no_db.exit_code == 2 and "no such warehouse" in no_db.stderr
    assert not (tmp_path / "m.html").exists()


def test_a_rate_shows_its_numerator_denominator_and_interval() -> None:
    row = {"ask_rate": 0.25, "show_chances": 8, "shows_asked": 2}
    cell = rate_cell(row, "ask_rate", few=False)
    assert (cell.text, cell.detail, cell.sort) == ("25%", ("2/8", "7%-59%"), 0.25)
    assert rate_cell(row, "ask_rate", few=True).text == "too few deals"
    assert rate_cell({"ask_rate": None, "show_chances": 0}, "ask_rate", few=False).text == "-"


@pytest.fixture(scope="module")
def league_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("league") / "w.duckdb"
    loaded = runner.invoke(
        app,
        ["load", str(SAMPLES / "league.jsonl"), str(SAMPLES / "pagat.json"), "--db", str(db)],
    )
    assert loaded.exit_code == 0, loaded.output
    return db


def test_players_report_tables_intervals_and_links(league_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "players.html"
    result = runner.invoke(
        app, ["report", "players", "--db", str(league_db), "--min-deals", "100", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    page = Page(out.read_text())
    with duckdb.connect(str(league_db), read_only=True) as con:
        stats = con.execute(
            "SELECT name, deals, calls_made, calls_made + calls_failed FROM player_stats"
        ).fetchall()
    main = [r for r in stats if r[1] >= 100]
    few = [r for r in stats if r[1] < 100]
    rows = page.by_id("players").content
    for name, _, made, known in main:
        assert name in rows
        assert f"{made}/{known}" in rows
        interval = wilson_interval(made, known)
        assert interval is not None
        low, high = interval
        assert f"{low:.0%}-{high:.0%}" in rows
    assert few and all(name in page.by_id("players-few").content for name, *_ in few)
    assert "too few deals" in page.by_id("players-few").content
    assert "Reported by role" not in page.text
    pair_deals = [int(row[3].replace(",", "")) for row in page.table("partnerships")]
    assert pair_deals and min(pair_deals) >= 100
    assert all("too few deals" in " ".join(r) for r in page.table("partnerships-few"))
    links = [a.attrs["href"] for a in page.all("a") if "_matches/" in a.attrs.get("href", "")]
    assert links
    for href in links:
        target = tmp_path / href.split("#")[0]
        assert target.is_file(), href
        assert "#deal=" in href


def test_players_report_is_the_same_twice(league_db: Path, tmp_path: Path) -> None:
    pages = []
    for name in ("a.html", "b.html"):
        out = tmp_path / name
        runner.invoke(app, ["report", "players", "--db", str(league_db), "-o", str(out)])
        pages.append(out.read_text().replace("b_matches", "a_matches"))
    assert pages[0] == pages[1]


def test_an_archive_with_new_ids_every_game_is_reported_by_role(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    loaded = runner.invoke(
        app, ["load", str(SAMPLES / "formats" / "bhoos_archive.json"), "--db", str(db)]
    )
    assert loaded.exit_code == 0, loaded.output
    out = tmp_path / "p.html"
    result = runner.invoke(app, ["report", "players", "--db", str(db), "-o", str(out)])
    assert result.exit_code == 0, result.output
    page = Page(out.read_text())
    assert "Reported by role" in page.text and "new ids every game" in page.text
    assert [t.attrs["id"] for t in page.all("table")] == ["roles"]
    roles = [row[0] for row in page.table("roles")]
    assert roles[:4] == [
        "P1: first to bid",
        "P2: second to bid",
        "P3: third to bid",
        "P4: fourth to bid (the dealer)",
    ]
    assert roles[4:] == [
        "caller: won the auction",
        "partner: partner of the caller",
        "defender: the other side",
    ]


def test_each_played_card_links_to_its_own_play_even_in_a_bad_log() -> None:
    match = _sample("bad/mixed.json")
    page = Page(match_report(match, audit_match(match), None))
    links = [a for a in page.all("a") if " plays " in a.attrs.get("aria-label", "")]
    assert len(links) > 100
    for link in links:
        seat, _, card = link.attrs["aria-label"].split(" ")
        params = dict(part.split("=") for part in link.attrs["href"].lstrip("#").split("&"))
        action = match.deals[int(params["deal"]) - 1].actions[int(params["action"])]
        assert isinstance(action, PlayAction)
        assert (action.seat.value, action.card.text) == (seat, card)


def test_players_report_shows_what_the_analysis_judged(tmp_path: Path) -> None:
    match = _sample("pagat.json")
    db = _with_annotations(tmp_path, SAMPLES / "pagat.json", match.match_id)
    with duckdb.connect(str(db)) as con:
        con.execute(
            f"INSERT INTO annotations ({COLUMNS}) VALUES "
            "(?, 2, 10, 'N', 'card', 'exact', 'JS', 'JS', 10, 10, 0, 'card_points', "
            "NULL, NULL, NULL, NULL, 'best', '{}', 7), "
            "(?, 2, 14, 'N', 'card', 'exact', '7H', 'AH', 8, 11, 3, 'card_points', "
            "NULL, NULL, NULL, 'blunder', 'the ace took the trick', '{}', 7)",
            [match.match_id, match.match_id],
        )
        # the view as the analysis defines it, where the warehouse has none of its own
        con.execute(
            "CREATE VIEW IF NOT EXISTS player_analysis AS SELECT mp.player_id, "
            "count(*) FILTER (kind = 'card' AND method = 'exact') AS cards_judged, "
            "avg(loss) FILTER (kind = 'card' AND method = 'exact') AS average_card_loss, "
            "count(*) FILTER (method = 'sampled') AS decisions_sampled, "
            "count(*) FILTER (method = 'sampled' AND label = 'mistake') AS mistakes, "
            "count(*) FILTER (method = 'sampled' AND label = 'blunder') AS blunders "
            "FROM annotations a JOIN match_players mp "
            "ON mp.match_id = a.match_id AND mp.seat = a.seat GROUP BY ALL"
        )
    out = tmp_path / "p.html"
    result = runner.invoke(
        app, ["report", "players", "--db", str(db), "--min-deals", "1", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    page = Page(out.read_text())
    rows = {row[0]: row for row in page.table("players")}
    north, east = (rows[player_name(match.players[seat])] for seat in SEATS[:2])
    assert north[-2:] == ["1.5 (n=2)", "-"]  # (0 + 3) / 2 cards; no sampled decision
    assert east[-2:] == ["-", "100% 1/1 21%-100%"]  # E's sampled bid, labelled a mistake
    assert "not analyzed" not in page.text
    assert "judged on layouts dealt as fair shuffles" in page.text
    assert page.json("chart-lost-data")["data"][0]["y"]
    with duckdb.connect(str(db)) as con:  # analysed with --dealing server
        con.execute(
            'UPDATE annotations SET detail = \'{"dealing": "dealing-0a1b2c3d"}\' '
            "WHERE method = 'sampled'"
        )
    server = "judged on layouts dealt as the Bhoos server deals (dealing-0a1b2c3d)"
    for args in (["players", "--min-deals", "1"], ["match", str(SAMPLES / "pagat.json")]):
        again = runner.invoke(app, ["report", *args, "--db", str(db), "-o", str(out)])
        assert again.exit_code == 0, again.output
        assert server in Page(out.read_text()).text, args


@pytest.mark.parametrize("command", ["match", "players"])
def test_report_help_has_an_example_and_no_raw_types(command: str) -> None:
    text = runner.invoke(app, ["report", command, "--help"], terminal_width=100).stdout
    assert f"Example: twentynine report {command}" in text
    assert not re.findall(r"<(?:str|int|float|bool|path|[a-z]+ range)>", text)


def test_a_short_match_s_score_chart_ticks_whole_deals() -> None:
    """Issue 36 §3: a one-deal match's chart had its x axis in fifths of a deal."""
    import json

    from twentynine.reports.html.match import match_context

    match = _sample("bhoos.json")
    one = match.model_copy(update={"deals": match.deals[:1]})
    layout = json.loads(str(match_context(one, audit_match(one), None).score_figure))["layout"]
    assert layout["xaxis"]["tickmode"] == "linear"
    assert (layout["xaxis"]["tick0"], layout["xaxis"]["dtick"]) == (0, 1)
    whole = json.loads(str(match_context(match, audit_match(match), None).score_figure))
    assert "dtick" not in whole["layout"]["xaxis"]  # 23 deals: plotly's ticks, on whole deals
