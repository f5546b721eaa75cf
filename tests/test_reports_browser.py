"""The HTML reports in a real headless Chromium (Debian's, driven by playwright).

Each report opens with no console error; the viewer steps forward and back and shows the
trick and the hands the engine computed; it jumps to a finding; a seat's view shows none of
the other seats' cards. Screenshots go to the test's temporary folder. Without Chromium the
tests are skipped, except in CI (CI=true), where they fail.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from twentynine.cli import app
from twentynine.importers.canonical import dump_match
from twentynine.importers.formats import read_any
from twentynine.replay import audit_match, deal_steps, random_match, walk_deal
from twentynine.reports.html.match import CardView, match_report
from twentynine.reports.html.render import shown_name
from twentynine.schema import Rules
from twentynine.schema.cards import SEATS, Card, Seat, as_held
from twentynine.schema.log import MatchLog, PlayAction

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
runner = CliRunner()


def _chromium() -> str | None:
    return os.environ.get("TWENTYNINE_CHROMIUM") or shutil.which("chromium")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = _chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - the test extra installs it
        executable = None
    if executable is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI needs Chromium and playwright for the browser tests (.ci/run)")
        pytest.skip("no chromium on this machine")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        _CONTEXTS[id(chromium)] = chromium.new_context()
        yield chromium
        del _CONTEXTS[id(chromium)]
        chromium.close()


# The context each test's page opens in, one for the browser: a page opened in a context that
# already held one costs the browser about a quarter less CPU (measured on the analyzed match
# report). Each test still opens its own page and loads its report afresh; the reports keep no
# state in the browser (pages of one context would share it), which Opened checks on each page
# once it has drawn: no local storage, database or cookie. So a page begins as in a context of
# its own.
_CONTEXTS: dict[int, Any] = {}
_NO_STATE = """async () => [localStorage.length, (await indexedDB.databases()).length,
                           document.cookie]"""


class Opened:
    """A page with the console's errors and the page's uncaught exceptions collected."""

    def __init__(self, browser: Any, url: str, width: int = 1280, height: int = 1000) -> None:
        self.page = _CONTEXTS[id(browser)].new_page()
        self.page.set_viewport_size({"width": width, "height": height})
        self.errors: list[str] = []
        self.page.on(
            "console",
            lambda m: self.errors.append(m.text) if m.type in ("error", "warning") else None,
        )
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", self._request)
        self.page.goto(url)
        self.page.wait_for_selector("body[data-charts=drawn]", timeout=60_000)
        assert self.page.evaluate(_NO_STATE) == [0, 0, ""]  # nothing left for the next page

    def _request(self, request: Any) -> None:
        if not request.url.startswith(("file:", "data:", "blob:", "about:")):
            self.errors.append(f"fetched {request.url}")

    def text(self, selector: str) -> str:
        return str(self.page.inner_text(selector))

    def cards(self, selector: str) -> list[str]:
        found = self.page.eval_on_selector_all(
            selector + " [data-card]", "els => els.map(e => e.dataset.card)"
        )
        return [str(c) for c in found]


def _sample(name: str) -> MatchLog:
    return next(r.match for r in read_any(SAMPLES / name) if r.match is not None)


@pytest.fixture(scope="module")
def match_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("match") / "mixed.html"
    result = runner.invoke(
        app, ["report", "match", str(SAMPLES / "bad" / "mixed.json"), "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    return out


def _states(match: MatchLog, number: int) -> list[tuple[list[list[str]], list[str]]]:
    """Per step of a deal, as the engine has it: each seat's cards and the trick's cards."""
    out = []
    for step in deal_steps(match, number):  # the replay's step views: the one home
        held = [[c for c in step.hands[seat] if c is not None] for seat in SEATS]
        hands = [[c.text for c in as_held(cards)] for cards in held]  # as a player holds them
        out.append((hands, [card.text for _, card in step.trick]))
    return out


def test_match_report_steps_forward_and_back(
    browser: Any, match_page: Path, tmp_path: Path
) -> None:
    match = _sample("bad/mixed.json")
    opened = Opened(browser, match_page.as_uri() + "#deal=2")
    page = opened.page
    engine = _states(match, 2)
    assert "deal 2 of" in opened.text("#step-label") and "start" in opened.text("#step-label")
    for step in range(1, 16):
        page.keyboard.press("ArrowRight")
        hands, trick = engine[step]
        for seat_no, seat in enumerate(SEATS):
            assert opened.cards(f"#seat-{seat.value} .hand") == hands[seat_no], (step, seat)
        if trick:
            assert sorted(opened.cards("#trick")) == sorted(trick)
        assert f"action {step - 1}" in opened.text("#step-label")
    assert page.url.endswith(f"#deal=2&action={step - 1}")
    page.screenshot(path=str(tmp_path / "forward.png"))
    page.click("button[data-go=back]")
    assert f"action {step - 2}" in opened.text("#step-label")
    page.keyboard.press("Home")
    assert "start" in opened.text("#step-label")
    page.keyboard.press("End")  # the deal's result, after its last action
    assert "result" in opened.text("#step-label") and page.url.endswith("#deal=2&end")
    page.keyboard.press("ArrowLeft")
    last = len(match.deals[1].actions) - 1
    assert f"action {last}" in opened.text("#step-label")
    # the last trick stays on the table, whole, after its fourth card
    assert len(opened.cards("#trick")) == 4 and "won by" in opened.text("#trick")
    assert opened.errors == []


def test_jump_to_the_next_finding_and_open_a_step_by_its_address(
    browser: Any, match_page: Path, tmp_path: Path
) -> None:
    match = _sample("bad/mixed.json")
    first = audit_match(match).findings[0]
    assert first.deal is not None
    # a finding about the whole deal is shown at the deal's result, after its last action
    step = f"action={first.action}" if first.action is not None else "end"
    opened = Opened(browser, match_page.as_uri())
    page = opened.page
    page.click("button[data-go=next-finding]")
    assert page.url.endswith(f"#deal={first.deal}&{step}")
    assert first.code in opened.text("#judged")
    page.screenshot(path=str(tmp_path / "finding.png"))
    linked = Opened(browser, match_page.as_uri() + "#deal=3&action=5")
    assert "deal 3 of" in linked.text("#step-label")
    assert "action 5 " in linked.text("#step-label") + " "
    assert opened.errors == [] and linked.errors == []


def test_next_finding_says_when_there_is_none(browser: Any, match_page: Path) -> None:
    match = _sample("bad/mixed.json")
    last = len(match.deals)
    end = f"#deal={last}&action={len(match.deals[-1].actions) - 1}"
    opened = Opened(browser, match_page.as_uri() + end)
    page = opened.page
    assert opened.text("#seek-note") == ""
    page.click("button[data-go=next-finding]")
    assert opened.text("#seek-note") == "no finding after this step"
    assert page.url.endswith(end)  # it stays where it was
    page.click("button[data-go=next-note]")
    assert opened.text("#seek-note") == "no annotation after this step"
    page.keyboard.press("Home")
    assert opened.text("#seek-note") == ""  # said once, gone at the next step
    assert opened.errors == []


def test_a_seat_view_hides_the_other_hands(browser: Any, match_page: Path, tmp_path: Path) -> None:
    match = _sample("bad/mixed.json")
    opened = Opened(browser, match_page.as_uri() + "#deal=2&action=12")
    page = opened.page
    rules = match.resolved_rules()
    state = next(s for k, _, _, s in walk_deal(rules, match.deals[1], 2) if k == 12)
    held = {seat: [c for c in state.hand(seat) if c is not None] for seat in SEATS}
    everyone = page.inner_text("body")
    assert all(CardView.of(c).label in everyone for c in held[SEATS[0]])
    page.select_option("#view-select", "S")
    # the count names the masters still out, which every seat knows, and only S's own holder
    count = page.inner_text("#count")
    masters = count.split(";")[0].removeprefix("masters out: ").split(", ")
    assert all(m.endswith("yours") or " " not in m for m in masters), count
    visible = page.inner_text("body").replace(count, "")
    south = [CardView.of(c).label for c in held[SEATS[2]]]
    assert all(label in visible for label in south)
    for seat in (SEATS[0], SEATS[1], SEATS[3]):
        for card in held[seat]:
            assert CardView.of(card).label not in visible, (seat, card)
            assert card.text not in opened.cards("#table")
    assert page.is_hidden("#deals-h")
    page.screenshot(path=str(tmp_path / "seat-south.png"))
    page.select_option("#view-select", "all")
    assert page.is_visible("#deals-h")
    assert opened.errors == []


def test_the_callers_chance_to_make_shows_only_where_its_cards_are_known(
    browser: Any, match_page: Path
) -> None:
    from twentynine.reports.warehouse.predicted import deal_prediction

    match = _sample("bad/mixed.json")
    audited = audit_match(match)
    number, facts = next(
        (i, f)
        for i, f in enumerate(audited.deals, 1)
        if f.caller is not None and f.made is not None
    )
    assert facts.caller is not None
    chance, _ = deal_prediction(match.deals[number - 1], audited.rules, facts.caller, None)
    assert chance is not None
    trump_at = next(k for k, a in enumerate(match.deals[number - 1].actions) if a.type == "trump")
    opened = Opened(browser, match_page.as_uri() + f"#deal={number}&action={trump_at}")
    page = opened.page
    assert opened.text("#chance").startswith(f"{chance:.0%}, from {facts.caller.value}'s")
    other = next(s for s in SEATS if s is not facts.caller)
    page.select_option("#view-select", other.value)
    assert opened.text("#chance") == f"known to {facts.caller.value} only"
    page.select_option("#view-select", facts.caller.value)
    assert opened.text("#chance").startswith(f"{chance:.0%}")
    page.goto(match_page.as_uri() + f"#deal={number}&action=0")
    assert opened.text("#chance") == "-"  # nobody has called yet
    assert opened.errors == []


@pytest.fixture(scope="module")
def players_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The players report of the league sample, loaded into a new warehouse, as a user makes it
    (the tests read it and never change the file)."""
    folder = tmp_path_factory.mktemp("players")
    db = folder / "w.duckdb"
    loaded = runner.invoke(app, ["load", str(SAMPLES / "league.jsonl"), "--db", str(db)])
    assert loaded.exit_code == 0, loaded.output
    out = folder / "players.html"
    result = runner.invoke(app, ["report", "players", "--db", str(db), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_players_report_sorts_and_draws_its_charts(
    browser: Any, players_page: Path, tmp_path: Path
) -> None:
    opened = Opened(browser, players_page.as_uri())
    page = opened.page
    drawn = page.eval_on_selector_all(".chart[data-drawn=yes] .main-svg", "els => els.length")
    assert drawn >= 4
    names = "#players tbody tr td:first-child"
    before = page.eval_on_selector_all(names, "els => els.map(e => e.textContent)")
    page.click("#players thead th:first-child button")
    after = page.eval_on_selector_all(names, "els => els.map(e => e.textContent)")
    assert after == sorted(before) != before
    page.click("#players thead th:first-child button")
    again = page.eval_on_selector_all(names, "els => els.map(e => e.textContent)")
    assert again == sorted(before, reverse=True)
    page.screenshot(path=str(tmp_path / "players.png"), full_page=True)
    assert opened.errors == []


def test_card_view_labels() -> None:
    assert CardView.of(Card.parse("TD")).label == "10♦" and CardView.of(Card.parse("JS")).label


def test_jump_to_the_next_annotation_and_hide_it_from_other_seats(
    browser: Any, tmp_path: Path
) -> None:
    from tests.test_reports_html import _with_annotations

    match = _sample("pagat.json")
    db = _with_annotations(tmp_path, SAMPLES / "pagat.json", match.match_id)
    out = tmp_path / "annotated.html"
    result = runner.invoke(
        app, ["report", "match", str(SAMPLES / "pagat.json"), "--db", str(db), "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    opened = Opened(browser, out.as_uri())
    page = opened.page
    page.click("button[data-go=next-note]")
    assert page.url.endswith("#deal=1&action=0")
    judged = opened.text("#judged").lower()  # the label is shown in capitals
    assert "mistake" in judged and "bid 16" in judged and "<script>alert(1)</script>" in judged
    page.screenshot(path=str(tmp_path / "annotation.png"))
    page.select_option("#view-select", "S")  # the bid was E's: not shown in South's view
    assert "mistake" not in opened.text("#judged").lower()
    assert "1 more about other seats" in opened.text("#judged")
    page.select_option("#view-select", "E")
    assert "mistake" in opened.text("#judged").lower()
    assert opened.errors == []


def _widths(page: Any) -> dict[str, Any]:
    """The page's width and each statistics table's box: its width and its content's."""
    return dict(
        page.evaluate(
            """() => ({
              page: document.documentElement.scrollWidth,
              boxes: Array.from(document.querySelectorAll('.scroll')).map(
                e => [e.querySelector('table').id, e.clientWidth, e.scrollWidth])
            })"""
        )
    )


def test_players_report_fits_a_laptop_and_a_phone(
    browser: Any, players_page: Path, tmp_path: Path
) -> None:
    out = players_page
    opened = Opened(browser, out.as_uri(), 1280, 800)
    laptop = _widths(opened.page)
    assert laptop["page"] <= 1280
    assert [b for b in laptop["boxes"] if b[2] > b[1]] == []  # no table scrolls sideways
    opened.page.screenshot(path=str(tmp_path / "players-1280.png"))
    small = Opened(browser, out.as_uri(), 390, 844)
    page = small.page
    phone = _widths(page)
    assert phone["page"] <= 390  # only a table's own box scrolls, never the page
    box = page.locator(".scroll").first
    first = page.locator("#players tbody tr:first-child td:first-child")
    at = first.bounding_box()
    box.evaluate("e => { e.scrollLeft = 300; }")
    moved = first.bounding_box()
    assert at is not None and moved is not None
    assert abs(moved["x"] - at["x"]) <= 1  # the names stay (the table's own border scrolls)
    second = page.locator("#players tbody tr:first-child td:nth-child(2)").bounding_box()
    assert second is not None and second["x"] < at["x"]  # the rest scrolled under them
    page.screenshot(path=str(tmp_path / "players-390.png"))
    assert opened.errors == [] and small.errors == []


def test_match_report_fits_a_phone_with_every_deal_open(
    browser: Any, match_page: Path, tmp_path: Path
) -> None:
    for width in (1280, 390):
        opened = Opened(browser, match_page.as_uri(), width, 844)
        page = opened.page
        page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
        assert _widths(page)["page"] <= width, width  # nothing makes the page scroll sideways
        page.screenshot(path=str(tmp_path / f"match-{width}.png"), full_page=True)
        assert opened.errors == []


MARKUP = '<a href="https://example.invalid">A</a><sup>2</sup><br>B & C'


def _load(tmp_path: Path, matches: list[MatchLog]) -> Path:
    folder = tmp_path / "logs"
    folder.mkdir()
    for i, match in enumerate(matches):
        (folder / f"{i}.json").write_bytes(dump_match(match))
    db = tmp_path / "w.duckdb"
    loaded = runner.invoke(app, ["load", str(folder), "--db", str(db)])
    assert loaded.exit_code == 0, loaded.output
    return db


def test_markup_in_a_name_is_text_in_the_charts(browser: Any, tmp_path: Path) -> None:
    names = {seat: f"{seat.value} {MARKUP}" for seat in SEATS}
    matches = [random_match(Rules.preset("bangladesh"), seed, names) for seed in (5, 6)]
    db = _load(tmp_path, matches)
    out = tmp_path / "p.html"
    result = runner.invoke(
        app, ["report", "players", "--db", str(db), "--min-deals", "1", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    opened = Opened(browser, out.as_uri())
    page = opened.page
    legend = page.eval_on_selector_all(".chart .legendtext", "els => els.map(e => e.textContent)")
    ticks = page.eval_on_selector_all(".chart .xtick text", "els => els.map(e => e.textContent)")
    shown = [t for t in [*legend, *ticks] if "example.invalid" in t]
    # the tags as text, in one line (the name cut at 40 characters, as the report shows one)
    assert shown and all(any(shown_name(n) in t for n in names.values()) for t in shown)
    assert all('<a href="https://example.invalid">' in t for t in shown)
    assert page.eval_on_selector_all(".chart svg a, .chart svg sup", "els => els.length") == 0
    assert opened.errors == []


def test_a_name_of_ten_thousand_letters_widens_neither_report(browser: Any, tmp_path: Path) -> None:
    """A 10,000-letter name made the players page 129,907 px wide and the match page 109,191:
    each is cut to 40 characters (whole in its title) and breaks anywhere."""
    names = {seat: f"{seat.value} Asha" for seat in SEATS}
    names[Seat.N] = "L" * 10_000
    match = random_match(Rules.preset("bangladesh"), 5, names, max_deals=3)
    db = _load(tmp_path, [match])
    pages = [tmp_path / "p.html", tmp_path / "m.html"]
    for args in (["players", "--min-deals", "1"], ["match"]):
        out = pages[len(args) == 1]
        made = runner.invoke(app, ["report", *args, "--db", str(db), "-o", str(out)])
        assert made.exit_code == 0, made.output
    for out in pages:  # on a phone: what fits 390 px fits any wider window
        opened = Opened(browser, out.as_uri(), 390, 800)
        opened.page.evaluate(
            "document.querySelectorAll('details').forEach(d => { d.open = true; })"
        )
        assert _widths(opened.page)["page"] <= 390, out.name
        assert opened.errors == []


_ORDER = """seat => {
  /* the left edge of the first and of the last character of the seat's role, 'N · NS' */
  const text = document.querySelector('#seat-' + seat + ' .role').firstChild;
  const range = document.createRange();
  range.setStart(text, 0); range.setEnd(text, 1);
  const first = range.getBoundingClientRect().left;
  range.setStart(text, text.length - 1); range.setEnd(text, text.length);
  return [first, range.getBoundingClientRect().left];
}"""


def test_a_right_to_left_name_reorders_nothing_after_it(browser: Any, tmp_path: Path) -> None:
    names = {seat: f"{seat.value} \u202eevil" for seat in SEATS}
    names[Seat.E] = "\u05d0\u05d1\u05d2 12"  # Hebrew letters and a number
    match = random_match(Rules.preset("bangladesh"), 5, names)
    out = tmp_path / "rtl.html"
    out.write_text(match_report(match, audit_match(match), None))
    opened = Opened(browser, out.as_uri() + "#deal=1&action=0")
    page = opened.page
    for seat in SEATS:
        first, last = page.evaluate(_ORDER, seat.value)
        assert first < last, seat  # 'N · NS' reads left to right after the name
    said = page.evaluate(
        """() => { const nodes = Array.from(document.getElementById('say').childNodes);
          const range = document.createRange();
          const edge = n => { range.setStart(n, 0); range.setEnd(n, 1);
                              return range.getBoundingClientRect().left; };
          return [edge(nodes[0]), edge(nodes[nodes.length - 1]), nodes.length]; }"""
    )
    assert said[2] >= 2 and said[0] < said[1]  # 'S (name)' before 'bids 16'
    assert opened.errors == []


def test_with_javascript_off_the_reports_say_so_and_read(
    browser: Any, match_page: Path, players_page: Path, tmp_path: Path
) -> None:
    viewport = {"width": 1280, "height": 900}
    context = browser.new_context(java_script_enabled=False, viewport=viewport)
    page = context.new_page()
    page.goto(match_page.as_uri())
    assert page.is_visible("#no-script") and "JavaScript is off" in page.inner_text("#no-script")
    assert not page.is_visible(".toolbar button") and not page.is_visible("#table")
    page.click("#deal-1 summary")  # the deals open and read without a script
    assert page.is_visible("#deal-1 table.auction")
    page.screenshot(path=str(tmp_path / "no-script.png"))
    page.goto(players_page.as_uri())
    assert page.is_visible("#no-script") and page.is_visible("#players")
    assert not page.is_visible(".chart")
    context.close()


@pytest.fixture(scope="module")
def review_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The analyzed bangladesh sample's match report (tests/analyzed.py)."""
    from tests.analyzed import analyzed_match

    match, notes = analyzed_match()
    out = tmp_path_factory.mktemp("review") / "review.html"
    out.write_text(match_report(match, audit_match(match), list(notes)))
    return out


def _where(opened: Opened) -> tuple[int, str]:
    """The deal and the step (``action=K``, ``end`` or the start) of the page's address."""
    params = dict(p.partition("=")[::2] for p in opened.page.url.split("#", 1)[1].split("&"))
    return int(params["deal"]), params.get("action", "end" if "end" in params else "start")


def _arrive(opened: Opened, want: tuple[int, str]) -> None:
    """Wait (10 s at most) until the page's address is at ``want``: a key or a click moves it
    in the page's own time, which a loaded machine stretches."""
    deadline = time.monotonic() + 10
    while _where(opened) != want and time.monotonic() < deadline:
        opened.page.wait_for_timeout(50)
    assert _where(opened) == want


def test_marks_stand_beside_the_decisions(browser: Any, review_page: Path) -> None:
    from tests.analyzed import analyzed_match, labelled

    match, notes = analyzed_match()
    deal, action, seat = labelled(notes)[0]
    opened = Opened(browser, review_page.as_uri() + f"#deal={deal}&action={action}")
    page = opened.page
    header = page.eval_on_selector_all("#step-label .mark", "els => els.map(e => e.textContent)")
    said = page.eval_on_selector_all("#say .mark", "els => els.map(e => e.textContent)")
    glyphs = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
    label = max(
        (n.label for n in notes if (n.deal, n.action, n.seat) == (deal, action, seat) and n.label),
        key=list(glyphs).index,
    )
    assert any(glyphs[label] in text for text in header) and said
    colours = page.eval_on_selector_all(
        "#step-label .mark", "els => els.map(e => getComputedStyle(e).backgroundColor)"
    )
    assert colours[0] in ("rgb(86, 180, 233)", "rgb(230, 159, 0)", "rgb(219, 48, 49)")
    # A call stands in the auction's list at once; a card in the tricks' list once its
    # trick is over: at the deal's last action every trick is.
    actions = match.deals[deal - 1].actions
    if isinstance(actions[action], PlayAction):
        page.goto(review_page.as_uri() + f"#deal={deal}&action={len(actions) - 1}")
        page.reload()
        listed = "#history .mark"
    else:
        listed = "#auction .mark"
    assert page.eval_on_selector_all(listed, "els => els.length") >= 1
    assert opened.errors == []


def test_previous_and_next_mistake_by_button_key_and_filter(
    browser: Any, review_page: Path
) -> None:
    from tests.analyzed import analyzed_match, labelled

    _, notes = analyzed_match()
    found = labelled(notes)
    assert len(found) >= 2
    opened = Opened(browser, review_page.as_uri() + "#deal=1")
    page = opened.page
    page.click("button[data-go=next-mistake]")
    _arrive(opened, (found[0][0], str(found[0][1])))
    page.keyboard.press("m")
    _arrive(opened, (found[1][0], str(found[1][1])))
    page.keyboard.press("Shift+M")
    _arrive(opened, (found[0][0], str(found[0][1])))
    page.click("button[data-go=prev-mistake]")
    assert opened.text("#seek-note") == "no inaccuracy or worse before this step"
    seat = found[-1][2]
    page.select_option("#mistake-filter", seat)
    page.goto(review_page.as_uri() + "#deal=1")
    page.select_option("#mistake-filter", seat)
    page.keyboard.press("m")  # the list gave the focus back: the key goes to the viewer
    first = next(d for d in found if d[2] == seat)
    _arrive(opened, (first[0], str(first[1])))
    side = "EW" if seat in "NS" else "NS"
    page.goto(review_page.as_uri() + "#deal=1")
    page.select_option("#mistake-filter", side)
    page.click("button[data-go=next-mistake]")
    other = next((d for d in found if d[2] in side), None)
    if other is None:
        assert opened.text("#seek-note") == f"no inaccuracy or worse of {side} after this step"
    else:
        _arrive(opened, (other[0], str(other[1])))
    assert opened.errors == []


def test_next_annotation_skips_best_and_forced_moves_unless_asked(
    browser: Any, review_page: Path
) -> None:
    from tests.analyzed import analyzed_match

    _, notes = analyzed_match()
    lost = next(n for n in notes if n.loss > 0 and n.action is not None)
    opened = Opened(browser, review_page.as_uri() + "#deal=1")
    page = opened.page
    page.click("button[data-go=next-note]")
    _arrive(opened, (lost.deal, str(lost.action)))
    page.goto(review_page.as_uri() + "#deal=1")
    page.check("#with-best")
    page.keyboard.press("a")
    first = next(n for n in notes if n.action is not None)
    _arrive(opened, (first.deal, str(first.action)))
    assert opened.errors == []


def test_the_graph_is_drawn_and_a_click_goes_to_the_step(
    browser: Any, review_page: Path, tmp_path: Path
) -> None:
    opened = Opened(browser, review_page.as_uri() + "#deal=9")
    page = opened.page
    page.wait_for_selector("#deal-graph[data-deal='9'] .scatterlayer .point")
    points = page.locator("#deal-graph .scatterlayer .trace:first-child .point")
    assert points.count() > 10
    target = points.nth(points.count() // 2)
    box = target.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function("!location.hash.endsWith('deal=9')")
    deal, where = _where(opened)
    assert deal == 9 and where not in ("start", "end")
    label = opened.text("#step-label")
    step = int(label.split("· step ")[1].split(" ")[0])
    x = page.evaluate("document.getElementById('deal-graph').layout.shapes.slice(-1)[0].x0")
    assert x == step  # the graph marks the step the viewer now shows
    page.locator("#deal-graph").screenshot(path=str(tmp_path / "graph.png"))
    page.keyboard.press("PageDown")
    page.wait_for_selector("#deal-graph[data-deal='10']")
    assert opened.errors == []


def test_values_on_the_cards_with_all_cards_known_and_none_in_a_seat_view(
    browser: Any, review_page: Path
) -> None:
    from tests.analyzed import analyzed_match
    from twentynine.reports.html.judged import alternatives

    match, notes = analyzed_match()
    deal = match.deals[8]
    k = [i for i, a in enumerate(deal.actions) if a.type == "play"][4]
    card = next(n for n in notes if (n.deal, n.action, n.kind) == (9, k, "card"))
    opened = Opened(browser, review_page.as_uri() + f"#deal=9&action={k - 1}")
    page = opened.page
    seat = deal.actions[k].seat.value
    shown = page.eval_on_selector_all(
        f"#seat-{seat} .hand [data-card]",
        """els => els.filter(e => e.querySelector('.value'))
                     .map(e => [e.dataset.card, Number(e.querySelector('.value').textContent)])""",
    )
    assert sorted(shown) == sorted([c, v] for c, v in alternatives(card))
    assert "Values with all cards known" in opened.text("#judged")
    page.select_option("#view-select", seat)
    assert page.eval_on_selector_all(".hand .value", "els => els.length") == 0
    assert "hidden in a seat's view" in opened.text("#judged")
    assert opened.errors == []


def test_the_legend_is_one_click_away(browser: Any, review_page: Path) -> None:
    from twentynine.analysis.labels import THRESHOLDS

    opened = Opened(browser, review_page.as_uri())
    page = opened.page
    assert not page.is_visible("#legend .legend-body")
    page.click("#legend summary")
    body = opened.text("#legend .legend-body")
    assert all(f"{t:.0%}" in body for _, t in THRESHOLDS)
    assert "all cards known" in body and "interval" in body and "game points" in body
    assert opened.errors == []


def test_the_result_step_and_the_score_in_the_header(browser: Any, review_page: Path) -> None:
    from tests.analyzed import analyzed_match
    from twentynine.reports.html.words import result_words
    from twentynine.schema.cards import Team

    match, _ = analyzed_match()
    audited = audit_match(match)
    opened = Opened(browser, review_page.as_uri() + "#deal=3")
    page = opened.page
    before = audited.deals[1].score_after
    assert f"score NS {before[Team.NS]}, EW {before[Team.EW]}" in opened.text("#step-label")
    page.keyboard.press("End")
    assert opened.text("#say") == result_words(audited.deals[2], before)
    after = audited.deals[2].score_after
    assert f"score now NS {after[Team.NS]}, EW {after[Team.EW]}" in opened.text("#step-label")
    assert "Judged decisions of this deal" in opened.text("#judged")
    assert page.url.endswith("#deal=3&end")
    assert opened.errors == []


def test_keys_step_after_a_choice_in_the_seat_list(browser: Any, review_page: Path) -> None:
    opened = Opened(browser, review_page.as_uri() + "#deal=2&action=3")
    page = opened.page
    page.select_option("#view-select", "E")
    page.keyboard.press("ArrowRight")
    assert "action 4 " in opened.text("#step-label") + " "
    assert page.eval_on_selector("#view-select", "e => e.value") == "E"  # the view stayed
    page.keyboard.press("ArrowLeft")
    assert "action 3 " in opened.text("#step-label") + " "
    assert opened.errors == []


@pytest.fixture(scope="module")
def analyzed_players(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The players report of the samples and the league, the bangladesh sample analyzed."""
    from tests.analyzed import analyzed_match
    from twentynine.reports.warehouse.annotations import replace_annotations
    from twentynine.reports.warehouse.store import open_warehouse

    folder = tmp_path_factory.mktemp("analyzed-players")
    db = folder / "w.duckdb"
    paths = [*map(str, sorted(SAMPLES.glob("*.json"))), str(SAMPLES / "league.jsonl")]
    loaded = runner.invoke(app, ["load", *paths, "--db", str(db)])
    assert loaded.exit_code == 0, loaded.output
    match, notes = analyzed_match()
    with open_warehouse(db) as wh:
        replace_annotations(wh, match, list(notes))
    out = folder / "players.html"
    result = runner.invoke(app, ["report", "players", "--db", str(db), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_three_clicks_from_the_players_page_to_a_worst_mistake_and_why(
    browser: Any, analyzed_players: Path, tmp_path: Path
) -> None:
    from tests.analyzed import LABELS, analyzed_match

    match, notes = analyzed_match()
    name = match.players[SEATS[2]]  # South of the analyzed match
    opened = Opened(browser, analyzed_players.as_uri())
    page = opened.page
    clicks = 0
    page.click(f"#players tbody a:text-is('{name}')")  # 1: the player's name in the table
    clicks += 1
    anchor = page.url.split("#")[1]
    assert page.is_visible(f"#{anchor} ol.worst")
    link = page.locator(f"#{anchor} ol.worst li:first-child a")
    href = str(link.get_attribute("href"))
    link.click()  # 2: their worst decision, in the match report written beside the page
    clicks += 1
    page.wait_for_selector("body[data-charts=drawn]", timeout=60_000)
    step = dict(p.split("=") for p in href.split("#")[1].split("&"))
    deal, action = int(step["deal"]), int(step["action"])
    judged = page.inner_text("#judged")
    worst = [
        n for n in notes
        if (n.deal, n.action, n.seat) == (deal, action, SEATS[2].value) and n.label in LABELS
    ]  # fmt: skip
    assert worst and any(n.explanation[:40].lower() in judged.lower() for n in worst)
    assert "What it changed" in judged  # why it was one, in a player's words
    assert clicks <= 3
    page.screenshot(path=str(tmp_path / "worst.png"))
    assert opened.errors == []


def test_a_click_anywhere_in_a_heading_sorts_numbers_from_the_largest(
    browser: Any, analyzed_players: Path
) -> None:
    opened = Opened(browser, analyzed_players.as_uri())
    page = opened.page
    heading = page.locator("#players thead th").nth(1)  # deals
    box = heading.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 3, box["y"] + box["height"] - 3)  # the cell's corner
    cells = "#players tbody tr td:nth-child(2)"
    deals = [
        int(t.replace(",", ""))
        for t in page.eval_on_selector_all(cells, "els => els.map(e => e.dataset.sort)")
    ]
    assert deals == sorted(deals, reverse=True) and len(set(deals)) > 1
    assert heading.get_attribute("aria-sort") == "descending"
    heading.click()
    again = [
        int(t) for t in page.eval_on_selector_all(cells, "els => els.map(e => e.dataset.sort)")
    ]
    assert again == sorted(deals)
    assert opened.errors == []


ROOT = Path(__file__).resolve().parent.parent


def _axe() -> str:
    """axe-core's script, as .ci/run installs it (npm, into .ci/axe; TWENTYNINE_AXE names
    another copy). Without it the accessibility tests are skipped, except in CI."""
    default = ROOT / ".ci" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
    path = Path(os.environ.get("TWENTYNINE_AXE") or default)
    if not path.is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs axe-core at {path} for the accessibility tests (.ci/run)")
        pytest.skip(f"no axe-core at {path} (npm install --prefix .ci/axe axe-core)")
    return path.read_text(encoding="utf-8")


def _violations(opened: Opened, within: str | None = None) -> list[tuple[str, str, list[str]]]:
    """axe-core's violations of the page as it stands, every folded section opened; with
    ``within`` (a CSS selector), of that part of it only.

    Every rule runs on every element as by default; ``resultTypes`` only spares axe the
    record of each element that passes (a quarter of its time on the match report), which
    is never read here."""
    page = opened.page
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(content=_axe())
    found = page.evaluate(
        """async (within) => (await axe.run(within === null ? document : within,
             {resultTypes: ['violations']})).violations.map(
             v => [v.id, v.help, v.nodes.slice(0, 3).map(n => n.target.join(' '))])""",
        within,
    )
    return [(str(v[0]), str(v[1]), list(v[2])) for v in found]


_OUTSIDE_THE_VIEWER = """() => {
  const body = document.body.cloneNode(true);
  body.querySelector('#viewer').remove();
  return body.innerHTML;
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_axe_finds_no_violation_in_the_match_report(
    browser: Any, review_page: Path, width: int
) -> None:
    """The whole page at a reviewed step; then, in a seat's view at the deal's result, the
    step viewer again: nothing outside it changed (checked), so the rest need not be
    scanned twice (the page's deals are most of axe's work)."""
    opened = Opened(browser, review_page.as_uri() + "#deal=9&action=23", width, 900)
    opened.page.wait_for_selector("#deal-graph .main-svg")
    assert _violations(opened) == []
    outside = opened.page.evaluate(_OUTSIDE_THE_VIEWER)
    opened.page.select_option("#view-select", "S")  # a seat's view, and the result step
    opened.page.keyboard.press("End")
    assert opened.page.evaluate(_OUTSIDE_THE_VIEWER) == outside
    assert _violations(opened, within="#viewer") == []
    assert opened.errors == []


@pytest.mark.parametrize("width", [1280, 390])
def test_axe_finds_no_violation_in_the_players_report(
    browser: Any, analyzed_players: Path, width: int
) -> None:
    opened = Opened(browser, analyzed_players.as_uri(), width, 900)
    assert _violations(opened) == []
    assert opened.errors == []


@pytest.fixture(scope="module")
def dated_players(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The players report of every match of tests/test_reports_players.py's dated warehouse,
    as a user makes it (made once: the tests read it and never change the file)."""
    from tests.test_reports_players import _dated

    folder = tmp_path_factory.mktemp("dated-players")
    out = folder / "players.html"
    made = runner.invoke(
        app,
        ["report", "players", "--db", str(_dated(folder)), "--min-deals", "1", "-o", str(out)],
    )
    assert made.exit_code == 0, made.output
    return out


@pytest.mark.parametrize("width", [1280, 390])
def test_the_players_page_narrows_itself_to_a_preset_and_a_period(
    browser: Any, dated_players: Path, tmp_path: Path, width: int
) -> None:
    opened = Opened(browser, dated_players.as_uri(), width, 900)
    page = opened.page

    def matches() -> int:
        return int(opened.text("#summary").split(" match")[0])

    first = page.eval_on_selector_all(".chart[data-drawn=yes]", "els => els.length")
    assert matches() == 5 and first >= 2
    page.select_option("#filter-preset", "pagat")
    assert matches() == 4 and "Only pagat matches" in opened.text("#scope")
    assert "4 matches" in opened.text("#filter-status")
    drawn = page.eval_on_selector_all("#scoped .chart[data-drawn=yes] .main-svg", "e => e.length")
    assert drawn >= 2  # the new body's charts drawn
    page.select_option("#filter-period", "2025")
    assert matches() == 2 and "on or before 2025-12-31" in opened.text("#scope")
    # the new body sorts: a click anywhere in a heading, numbers from the largest
    heading = page.locator("#players thead th").nth(2)  # calls
    box = heading.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 3, box["y"] + box["height"] - 3)
    calls = [
        int(v)
        for v in page.eval_on_selector_all(
            "#players tbody tr td:nth-child(3)", "els => els.map(e => e.dataset.sort)"
        )
    ]
    assert calls == sorted(calls, reverse=True) and len(set(calls)) > 1
    # a name still opens its section, in this body
    name = page.locator("#players tbody a").first
    target = str(name.get_attribute("href"))
    name.click()
    assert page.is_visible(target) and opened.text(target + "-h") == name.inner_text()
    assert _violations(opened) == []
    page.screenshot(path=str(tmp_path / f"players-narrowed-{width}.png"))
    page.select_option("#filter-preset", "standard")
    page.select_option("#filter-period", "2026")
    assert matches() == 0 and "none in this warehouse" in opened.text("#scope")
    page.select_option("#filter-preset", "")
    page.select_option("#filter-period", "")
    assert matches() == 5  # every match again, its charts as they were
    assert page.eval_on_selector_all(".chart[data-drawn=yes]", "els => els.length") == first
    assert page.evaluate("document.querySelectorAll('#players, #summary').length") == 2
    assert opened.errors == []


def test_without_a_script_the_players_page_shows_every_match(
    browser: Any, dated_players: Path
) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(dated_players.as_uri())
    assert not page.is_visible("#filters") and page.is_visible("#players")
    assert page.inner_text("#summary").startswith("5 matches")
    assert "narrowing them to a preset or a period" in page.inner_text("#no-script")
    context.close()
