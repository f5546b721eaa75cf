"""The players report: each player's and partnership's statistics, with their intervals.

Rates come from the warehouse's statistics views (``reports/warehouse/stats.py``), each shown
with its numerator, denominator and 95% Wilson interval, and "too few deals" for a player
below the minimum. An archive whose player ids change every game (most players seen in a
single deal: the Bhoos archive) is reported by role instead, and the page says why.

>>> cell = rate_cell({"make_rate": 0.8, "calls_made": 8, "calls_failed": 2}, "make_rate", few=False)
>>> cell.text, cell.detail
('80%', ('8/10', '49%-94%'))
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

import plotly.graph_objects as go
from markupsafe import Markup

from twentynine.analysis.annotate import FIELDS, Annotation
from twentynine.analysis.judge.words import note_text
from twentynine.analysis.labels import GAME_POINT_SCALE
from twentynine.analysis.models.dealing import FAIR, dealing_words, note_dealing
from twentynine.analysis.run import config_differences
from twentynine.reports.html.annotations import Configuration, configurations, has_table
from twentynine.reports.html.judged import MARKS, Legend, legend, method_words
from twentynine.reports.html.render import (
    figure_json,
    plotly_bundle,
    plotly_text,
    render,
    script_json,
    shown_name,
    whole_name,
)
from twentynine.reports.warehouse.stats import (
    ONE_DEAL_SHARE,
    RATE_DENOMINATORS,
    call_levels,
    partnership_stats,
    player_stats,
    wilson_interval,
)
from twentynine.reports.warehouse.store import QueryResult, Warehouse
from twentynine.schema.names import visible
from twentynine.schema.words import decimal, plural

CHART_PLAYERS: Final = 8
"""Players drawn in the per-player charts: the ones with the most deals."""

SECTIONS_SHOWN: Final = 100
"""Players given a section by default (``report players --sections``): those with the most
deals. An archive whose every id plays once has thousands with ``--min-deals 1``: a section
each made a page of 56 MB that took 18 s to open."""

ROWS_SHOWN: Final = 1000
"""Rows of a players or partnerships table at most: those with the most deals; a line under
the table counts the others (``twentynine stats`` lists every player)."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One table cell: the text shown, the value it sorts by, and an optional link; a rate's
    ``detail`` lines (numerator/denominator, interval) go in small print under it."""

    text: str
    sort: float | str | None
    title: str = ""
    link: str = ""
    few: bool = False
    detail: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Table:
    """A sortable table: its id, caption, column headings (with what each counts) and rows."""

    table_id: str
    caption: str
    headings: tuple[tuple[str, str], ...]
    rows: tuple[tuple[Cell, ...], ...]
    collapsed: bool = False
    left_out: str = ""


@dataclass(frozen=True, slots=True)
class Chart:
    """A chart (None when there is nothing to draw: ``empty`` says why) and what its bars
    and whiskers are (``note``, under it: a plotly title does not wrap on a phone)."""

    chart_id: str
    title: str
    figure: Markup | None
    empty: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Worst:
    """One of a player's worst decisions: where, what, and the link to its step (empty when
    no match report was written for it)."""

    where: str
    mark: str
    label: str
    what: str
    link: str


@dataclass(frozen=True, slots=True)
class PlayerSection:
    """A player with enough deals: their label counts, average loss, make-rate and worst
    decisions, each linked to its step; ``name`` as the report shows one
    (:func:`render.shown_name`), ``whole`` the whole name when that one is cut."""

    anchor: str
    name: str
    deals: str
    make_rate: Cell
    judged: str
    labels: tuple[tuple[str, str, int], ...]
    card_loss: str
    worst: tuple[Worst, ...]
    why_no_worst: str
    whole: str = ""


@dataclass(frozen=True, slots=True)
class Scope:
    """The matches the report counts: a preset, a first and a last day (each optional);
    ``run``: the id of the one configuration whose annotations the judged figures count
    (:class:`~reports.html.annotations.Configuration`; None: the annotations of every
    match in scope, which must then share one)."""

    preset: str | None = None
    since: dt.date | None = None
    until: dt.date | None = None
    run: str | None = None

    def words(self) -> str:
        """The scope in words, empty for every match.

        >>> Scope("pagat", dt.date(2026, 1, 1)).words()
        'pagat matches begun on or after 2026-01-01'
        """
        parts = []
        if self.since is not None:
            parts.append(f"begun on or after {self.since}")
        if self.until is not None:
            parts.append(f"begun on or before {self.until}")
        if self.preset is None and not parts:
            return ""
        return f"{self.preset or 'all'} matches" + (" " + " and ".join(parts) if parts else "")

    def within(self, preset: str, period: str) -> Scope:
        """This scope narrowed to a preset (empty: any) and a period: empty (any), a year
        ``YYYY`` or a month ``YYYY-MM``.

        >>> Scope(since=dt.date(2025, 6, 10)).within("pagat", "2025-06").words()
        'pagat matches begun on or after 2025-06-10 and begun on or before 2025-06-30'
        """
        first, last = period_days(period) if period else (None, None)
        since = max((d for d in (self.since, first) if d is not None), default=None)
        until = min((d for d in (self.until, last) if d is not None), default=None)
        return Scope(preset or self.preset, since, until, self.run)


def period_days(period: str) -> tuple[dt.date, dt.date]:
    """The first and last day of a year ``YYYY`` or a month ``YYYY-MM``.

    >>> period_days("2024-02"), period_days("2025")[1]
    ((datetime.date(2024, 2, 1), datetime.date(2024, 2, 29)), datetime.date(2025, 12, 31))
    >>> period_days("9999-12")[1]
    datetime.date(9999, 12, 31)
    """
    year, _, month = period.partition("-")
    if not month:
        return dt.date(int(year), 1, 1), dt.date(int(year), 12, 31)
    first = dt.date(int(year), int(month), 1)
    return first, first.replace(day=calendar.monthrange(first.year, first.month)[1])


@dataclass(frozen=True, slots=True)
class PlayersContext:
    title: str
    summary: str
    scope: str
    by_role: bool
    why_by_role: str
    min_deals: int
    analyzed: bool
    unanalyzed: str
    dealing: str
    """How the layouts of the sampled notes in scope were dealt, in words."""
    tables: tuple[Table, ...]
    sections: tuple[PlayerSection, ...]
    charts: tuple[Chart, ...]
    legend: Legend
    plotly: str
    runs: tuple[Configuration, ...] = ()
    """The configurations the annotations in scope were worked out with
    (:func:`~reports.html.annotations.configurations`)."""
    run: Configuration | None = None
    """The one whose annotations the judged figures count (``--run``); None: the only one."""
    sections_left_out: str = ""


Linker = Callable[[str, int, int | None], str | None]
"""Gives the address of an example deal (match id, deal, action) in a match report, or None."""


def _count(value: Any) -> Cell:
    number = int(value or 0)
    return Cell(f"{number:,}", number)


def _rate(
    successes: int | None, trials: int | None, *, few: bool, link: str = "", what: str = ""
) -> Cell:
    """A rate with its denominator and interval; ``few``: below the minimum of deals."""
    n = int(trials or 0)
    k = int(successes or 0)
    if few:
        return Cell("too few deals", None, f"{k} of {n}", few=True)
    interval = wilson_interval(k, n)
    if interval is None:
        return Cell("-", None, f"no {what}" if what else "")
    low, high = interval
    rate = k / n
    return Cell(
        f"{rate:.0%}",
        rate,
        f"{k} of {n}; 95% interval {low:.1%} to {high:.1%}",
        link,
        detail=(f"{k}/{n}", f"{low:.0%}-{high:.0%}"),
    )


def rate_cell(row: dict[str, Any], rate: str, *, few: bool, link: str = "") -> Cell:
    """A rate of the statistics views, over the denominator the warehouse defines for it
    (``RATE_DENOMINATORS``), its numerator recovered from the rate."""
    trials = 0
    for term in RATE_DENOMINATORS[rate]:
        value = int(row[term.lstrip("-")] or 0)
        trials += -value if term.startswith("-") else value
    share = row[rate]
    successes = round(share * trials) if share is not None else 0
    return _rate(successes, trials, few=few, link=link)


def _mean(value: float | None, *, few: bool, count: int | None = None) -> Cell:
    if few:
        return Cell("too few deals", None, few=True)
    if value is None:
        return Cell("-", None)
    suffix = f" (n={count})" if count is not None else ""
    return Cell(f"{decimal(value, 1)}{suffix}", float(value))


def _rows(result: QueryResult) -> list[dict[str, Any]]:
    return [dict(zip(result.columns, row, strict=True)) for row in result.rows]


def ids_change(wh: Warehouse) -> tuple[bool, str]:
    """Whether player ids look new every game, and the sentence that says why.

    >>> import tempfile
    >>> from pathlib import Path
    >>> from twentynine.replay import random_match
    >>> from twentynine.reports.warehouse.store import open_warehouse
    >>> from twentynine.schema import Rules
    >>> with open_warehouse(Path(tempfile.mkdtemp()) / "w.duckdb") as wh:
    ...     _ = wh.load([random_match(Rules.preset("pagat"), seed=2)])
    ...     ids_change(wh)[0]
    False
    """
    row = wh.query(
        "SELECT count(*), count(*) FILTER (deals = 1), count(*) FILTER (matches = 1) "
        "FROM player_stats"
    ).rows[0]
    players, single_deal, single_match = int(row[0]), int(row[1]), int(row[2])
    if players >= 8 and single_deal > ONE_DEAL_SHARE * players:
        return True, (
            f"{single_deal:,} of {players:,} player ids appear in a single deal only: this "
            "archive gives its players new ids every game, so per-player figures would each "
            "rest on one deal. The figures below are by role instead: each auction position, "
            "and each part in the call (caller, partner, defender)."
        )
    if players >= 8 and single_match == players:
        return False, "Every player id appears in one match only; per-player figures are thin."
    return False, ""


_RATE_HEADINGS: Final = (
    ("deals", "deals played"),
    ("calls", "auctions won"),
    ("make-rate", "calls made / calls with a known result; 95% Wilson interval"),
    ("average call", "sum of winning bids / calls"),
    ("break-rate", "defences broken / defences"),
    ("ask-rate", "shows asked (or made) / chances to ask"),
    ("caller: trick won after showing", "as caller, tricks won after showing / shows"),
    ("defender: trick won after asking", "as defender, tricks won after asking / asks"),
    ("defender: trick won without asking", "as defender, tricks won without asking / not asked"),
    ("doubles won", "doubles whose call failed / doubles"),
    ("findings / 100 deals", "findings about the player's actions per 100 deals"),
)
_PLAYER_HEADINGS: Final = (
    ("player", "name (and id where it differs)"),
    *_RATE_HEADINGS,
    ("points lost / card", "average card points lost per card judged (analysis, exact)"),
    ("mistakes", "mistakes and blunders / decisions judged by sampling (analysis)"),
)


def _stat_cells(
    p: dict[str, Any], few: bool, make_link: str = "", findings_link: str = ""
) -> tuple[Cell, ...]:
    """The cells of :data:`_RATE_HEADINGS` for one row of ``player_stats`` or ``role_stats``."""
    return (
        _count(p["deals"]),
        _count(p["calls"]),
        rate_cell(p, "make_rate", few=few, link=make_link),
        _mean(p["average_call"], few=few),
        rate_cell(p, "break_rate", few=few),
        rate_cell(p, "ask_rate", few=few),
        rate_cell(p, "caller_shown_trick_win_rate", few=few),
        rate_cell(p, "defender_asked_trick_win_rate", few=few),
        rate_cell(p, "defender_not_asked_trick_win_rate", few=few),
        _rate(p["doubles_won"], p["doubles"], few=few, what="double"),
        Cell(
            decimal(p["findings_per_100_deals"], 1),
            float(p["findings_per_100_deals"]),
            f"{plural(p['findings'], 'finding')} in {plural(p['deals'], 'deal')}",
            findings_link,
        ),
    )


def _lost(judged: Analysis | None, *, few: bool) -> Cell:
    if judged is None or judged.average_card_loss is None:
        return Cell("-", None, "not analyzed")
    return _mean(judged.average_card_loss, few=few, count=judged.cards_judged)


def _labels(judged: Analysis | None, *, few: bool) -> Cell:
    if judged is None:
        return Cell("-", None, "not analyzed")
    bad = judged.mistakes + judged.blunders
    return _rate(bad, judged.decisions_sampled, few=few, what="decision sampled")


def _player_tables(
    wh: Warehouse,
    min_deals: int,
    link: Linker,
    analysis: dict[str, Analysis],
    anchors: dict[str, str],
    enough_only: bool,
) -> tuple[Table, ...]:
    """The players with at least ``min_deals`` deals (each name a link to the player's
    section), then, unless ``enough_only``, (folded) those with fewer."""
    rows: list[tuple[Cell, ...]] = []
    few_rows: list[tuple[Cell, ...]] = []
    examples = _examples(wh)
    for p in _rows(player_stats(wh)):
        few = int(p["deals"]) < min_deals
        pid = str(p["player_id"])
        name = str(p["name"]) if p["name"] == pid else f"{p['name']} ({pid})"
        failed = examples.get((pid, "failed"))
        found = examples.get((pid, "finding"))
        judged = analysis.get(pid)
        cells = _stat_cells(
            p,
            few,
            (link(*failed) or "") if failed else "",
            (link(*found) or "") if found else "",
        )
        who = Cell(
            shown_name(name),
            visible(str(p["name"])),
            whole_name(name),
            link=f"#{anchors[pid]}" if pid in anchors else "",
        )
        row = (who, *cells, _lost(judged, few=few), _labels(judged, few=few))
        (few_rows if few else rows).append(row)
    every = "twentynine stats --db FILE lists every player"
    shown, left_out = _capped(rows, "player", every)
    tables = [
        Table(
            "players",
            f"Players with {plural(min_deals, 'deal')} or more (a name opens the player's "
            "section; a heading sorts; a linked figure opens an example deal)",
            _PLAYER_HEADINGS,
            shown,
            left_out=left_out,
        )
    ]
    if enough_only:
        return tuple(tables) if rows else ()
    if few_rows:
        shown, left_out = _capped(few_rows, "player", every)
        tables.append(
            Table(
                "players-few",
                f"{plural(len(few_rows), 'player')} with fewer than {plural(min_deals, 'deal')}: "
                "too few deals",
                _PLAYER_HEADINGS,
                shown,
                collapsed=True,
                left_out=left_out,
            )
        )
    return tuple(tables)


def _capped(
    rows: list[tuple[Cell, ...]], noun: str, every: str
) -> tuple[tuple[tuple[Cell, ...], ...], str]:
    """A table's rows (most deals first) cut to :data:`ROWS_SHOWN`, and the line that says
    how many were left out and where ``every`` one is.

    >>> _capped([(Cell("a", "a"),)] * (ROWS_SHOWN + 2), "player", "stats lists them")[1]
    '2 more players, with as many deals or fewer, are left out of this table: stats lists them.'
    """
    if len(rows) <= ROWS_SHOWN:
        return tuple(rows), ""
    left = plural(len(rows) - ROWS_SHOWN, f"more {noun}")
    return (
        tuple(rows[:ROWS_SHOWN]),
        f"{left}, with as many deals or fewer, are left out of this table: {every}.",
    )


def _pair(a: str, b: str) -> Cell:
    """Two partners' names, each as a report shows a name; both whole on hover if one is cut.

    >>> _pair("Asha", "L" * 50).text == "Asha & " + "L" * 39 + "…"
    True
    """
    whole = f"{visible(a)} & {visible(b)}" if whole_name(a) or whole_name(b) else ""
    return Cell(f"{shown_name(a)} & {shown_name(b)}", f"{visible(a)} & {visible(b)}", whole)


def _partnership_tables(wh: Warehouse, min_deals: int) -> tuple[Table, ...]:
    """The pairs with at least ``min_deals`` deals together, then (folded) the others."""
    rows: list[tuple[Cell, ...]] = []
    few_rows: list[tuple[Cell, ...]] = []
    pairs = _rows(partnership_stats(wh))
    pairs.sort(key=lambda p: (-int(p["deals"]), str(p["player_a"]), str(p["player_b"])))
    for p in pairs:  # ties in the view's order broken by both players: the same bytes
        few = int(p["deals"]) < min_deals
        (few_rows if few else rows).append(
            (
                _pair(str(p["name_a"]), str(p["name_b"])),
                _count(p["matches"]),
                _rate(p["matches_won"], p["matches"], few=few),
                _count(p["deals"]),
                _rate(p["calls_made"], int(p["calls_made"]) + int(p["calls_failed"]), few=few),
                _rate(p["defences_broken"], p["defences"], few=few),
                _mean(p["points_per_deal"], few=few),
                _count(p["score_change"]),
            )
        )
    headings = (
        ("partners", "the two players"),
        ("matches", "matches played together"),
        ("matches won", "matches won / matches"),
        ("deals", "deals together"),
        ("make-rate", "calls made / calls with a result"),
        ("break-rate", "defences broken / defences"),
        ("points / deal", "card points of the pair's side per deal with a result"),
        ("score change", "game points won minus lost"),
    )
    every = "twentynine query on the partnership_stats view lists every pair"
    shown, left_out = _capped(rows, "pair", every)
    tables = [Table("partnerships", "Partnerships", headings, shown, left_out=left_out)]
    if few_rows:
        caption = (
            f"{plural(len(few_rows), 'partnership')} with fewer than {plural(min_deals, 'deal')} "
            "together"
        )
        capped, left_out = _capped(few_rows, "pair", every)
        tables.append(Table("partnerships-few", caption, headings, capped, True, left_out))
    return tuple(tables)


def _role_table(wh: Warehouse, link: Linker) -> Table:
    """The statistics by role (``role_stats``): auction positions P1 to P4, then caller,
    partner and defender; a position's make-rate links to a failed call from there."""
    examples = _role_examples(wh)
    rows = []
    order = "strpos('P1 P2 P3 P4 caller partner defender', role)"
    for r in _rows(wh.query(f"SELECT * FROM role_stats ORDER BY {order}")):
        role = str(r["role"])
        example = examples.get(role)
        rows.append(
            (
                Cell(f"{role}: {r['meaning']}", role),
                *_stat_cells(r, False, (link(*example) or "") if example else ""),
            )
        )
    return Table(
        "roles",
        "By role: the auction position (P1 bids first, P4 is the dealer), and the part in the call",
        (("role", "position in the auction, or part in the call"), *_RATE_HEADINGS),
        tuple(rows),
    )


def _examples(wh: Warehouse) -> dict[tuple[str, str], tuple[str, int, int | None]]:
    """An example deal per player: its first failed call, its first finding."""
    found: dict[tuple[str, str], tuple[str, int, int | None]] = {}
    for pid, match, deal in wh.query(
        "SELECT player_id, min_by(match_id, (match_id, deal_no)), "
        "min_by(deal_no, (match_id, deal_no)) FROM player_deals "
        "WHERE role = 'caller' AND scored_call AND NOT made GROUP BY player_id"
    ).rows:
        found[(pid, "failed")] = (match, int(deal), None)
    for pid, match, deal, action in wh.query(
        "SELECT mp.player_id, min_by(f.match_id, (f.match_id, f.deal_no, f.action_no)), "
        "min_by(f.deal_no, (f.match_id, f.deal_no, f.action_no)), "
        "min_by(f.action_no, (f.match_id, f.deal_no, f.action_no)) "
        "FROM findings f JOIN match_players mp ON mp.match_id = f.match_id AND mp.seat = f.seat "
        "GROUP BY mp.player_id"
    ).rows:
        found[(pid, "finding")] = (match, int(deal), action)
    return found


def _role_examples(wh: Warehouse) -> dict[str, tuple[str, int, int | None]]:
    """An example failed call from each auction position (``P1`` ... ``P4``)."""
    rows = wh.query(
        "SELECT b.position, min_by(d.match_id, (d.match_id, d.deal_no)), "
        "min_by(d.deal_no, (d.match_id, d.deal_no)) FROM deals d "
        "JOIN (SELECT DISTINCT match_id, deal_no, position FROM bids WHERE won_auction) b "
        "USING (match_id, deal_no) WHERE d.made = false AND d.single_hand IS NULL "
        "GROUP BY b.position"
    ).rows
    return {f"P{p}": (m, int(n), None) for p, m, n in rows}


class Analysis(NamedTuple):
    """A player's judged decisions, from the warehouse's ``player_analysis`` view."""

    cards_judged: int
    average_card_loss: float | None
    decisions_sampled: int
    mistakes: int
    blunders: int


def _analysis(wh: Warehouse) -> dict[str, Analysis] | None:
    """Per player id, what the analysis judged; None when nothing was analyzed."""
    if not has_table(wh, "player_analysis"):
        return None
    fields = ", ".join(Analysis._fields)
    rows = wh.query(f"SELECT player_id, {fields} FROM player_analysis ORDER BY player_id").rows
    found = {
        str(pid): Analysis(int(cards or 0), loss, int(sampled or 0), int(m or 0), int(b or 0))
        for pid, cards, loss, sampled, m, b in rows
    }
    return found or None


def _wilson_bars(made: list[int], totals: list[int]) -> tuple[list[float], dict[str, Any]]:
    """Rates and their 95% Wilson intervals as plotly error bars."""
    rates, low, high = [], [], []
    for k, n in zip(made, totals, strict=True):
        rate = k / n
        interval = wilson_interval(k, n) or (rate, rate)
        rates.append(round(rate, 4))
        low.append(round(rate - interval[0], 4))
        high.append(round(interval[1] - rate, 4))
    bars = {"type": "data", "symmetric": False, "array": high, "arrayminus": low, "thickness": 1}
    return rates, bars


def _mean_bars(
    means: list[float], spreads: list[float | None], counts: list[int]
) -> dict[str, Any]:
    """95% intervals of means (normal approximation) as plotly error bars."""
    halves = [
        round(1.959964 * (spread or 0.0) / n**0.5, 3) if n > 1 else 0.0
        for spread, n in zip(spreads, counts, strict=True)
    ]
    return {"type": "data", "array": halves, "thickness": 1}


_NOT_ANALYZED: Final = "not analyzed: run twentynine analyze with --db on this warehouse"
_NONE_IN_SCOPE: Final = "not analyzed: none of these matches was; others in this warehouse were"
_NONE_IN_RUN: Final = (
    "not analyzed: none of these matches was with the configuration picked (--run)"
)


def _dealing(wh: Warehouse) -> str:
    """How the layouts of the sampled notes in scope were dealt (``analyze --dealing``)."""
    rows = wh.query(
        "SELECT DISTINCT json_extract_string(detail, '$.dealing'), "
        "json_extract_string(detail, '$.model_dealing') FROM annotations "
        "WHERE method = 'sampled' ORDER BY ALL"
    ).rows
    return dealing_words(
        note_dealing({"dealing": d or FAIR, "model_dealing": m or FAIR}) for d, m in rows
    )


def _unanalyzed(wh: Warehouse) -> str:
    """Why a page or a narrower one has no judgement: the warehouse was never analyzed, or
    none of the matches in scope was (the connection's views narrow the table)."""
    if not has_table(wh, "annotations"):
        return _NOT_ANALYZED
    if has_table(wh, _IN_RUN):
        return _NONE_IN_RUN
    database = str(wh.query("SELECT current_database()").rows[0][0]).replace('"', '""')
    anywhere = wh.query(f'SELECT count(*) FROM "{database}".main.annotations').rows[0][0]
    return _NONE_IN_SCOPE if anywhere else _NOT_ANALYZED


def _charts(
    wh: Warehouse, by_role: bool, analysis: dict[str, Analysis] | None, min_deals: int
) -> tuple[Chart, ...]:
    """The charts: every rate with its count and 95% interval, none on fewer than
    ``min_deals`` cases (the threshold of the tables), and a sentence in place of a chart
    with nothing to draw."""
    top = [
        (str(r[0]), shown_name(str(r[1])))  # a long name cut: a chart's label has no title
        for r in wh.query(
            "SELECT player_id, name FROM player_stats WHERE deals >= $n "
            f"ORDER BY deals DESC, player_id LIMIT {CHART_PLAYERS}",
            {"n": min_deals},
        ).rows
    ]
    few = f"fewer than {min_deals} deals (--min-deals)"
    layout = {"height": 380, "margin": {"l": 55, "r": 20, "t": 50, "b": 45}, "autosize": True}
    charts = []
    # make-rate by call level, each point over min_deals calls or more
    levels = go.Figure()
    overall = wh.query(
        "SELECT call, sum(made), sum(made + failed) FROM player_call_levels "
        "GROUP BY call HAVING sum(made + failed) >= $n ORDER BY call",
        {"n": max(min_deals, 1)},
    ).rows
    if overall:
        rates, bars = _wilson_bars([int(r[1]) for r in overall], [int(r[2]) for r in overall])
        levels.add_trace(
            go.Scatter(
                x=[int(r[0]) for r in overall],
                y=rates,
                error_y=bars,
                text=[f"{int(r[1])}/{int(r[2])}" for r in overall],
                hovertemplate="call %{x}: made %{text} (%{y:.0%})<extra>everyone</extra>",
                mode="lines+markers",
                name="everyone",
                line={"width": 4},
            )
        )
        for pid, name in top if not by_role else []:
            rows = [
                r for r in _rows(call_levels(wh, pid)) if (r["made"] + r["failed"]) >= min_deals
            ]
            if not rows:
                continue
            made = [int(r["made"]) for r in rows]
            totals = [int(r["made"] + r["failed"]) for r in rows]
            rates, bars = _wilson_bars(made, totals)
            levels.add_trace(
                go.Scatter(
                    x=[int(r["call"]) for r in rows],
                    y=rates,
                    error_y=bars,
                    text=[f"{k}/{n}" for k, n in zip(made, totals, strict=True)],
                    hovertemplate="call %{x}: made %{text} (%{y:.0%})",
                    mode="lines+markers",
                    name=plotly_text(name),
                )
            )
        levels.update_layout(
            title="Make-rate by call level",
            xaxis_title="call",
            yaxis_title="make-rate",
            yaxis_tickformat=".0%",
            **layout,
        )
    charts.append(
        Chart(
            "chart-levels",
            "Make-rate by call level",
            figure_json(levels) if overall else None,
            f"no call level has {min_deals} calls or more with a result (--min-deals)",
            f"Each point: calls made / calls at that level, with its 95% Wilson interval; only "
            f"levels with {min_deals} calls or more (--min-deals), for everyone and for each of "
            f"the {CHART_PLAYERS} players with the most deals.",
        )
    )
    # the call against the card points the caller's side took
    points = wh.query(
        "SELECT call, avg(caller_points), stddev_samp(caller_points), count(*) FROM deals "
        "WHERE made IS NOT NULL AND single_hand IS NULL GROUP BY call HAVING count(*) >= $n "
        "ORDER BY call",
        {"n": max(min_deals, 1)},
    ).rows
    bid = go.Figure()
    if points:
        counts = [int(r[3]) for r in points]
        bid.add_trace(
            go.Bar(
                x=[int(r[0]) for r in points],
                y=[round(float(r[1]), 2) for r in points],
                error_y=_mean_bars(
                    [float(r[1]) for r in points],
                    [float(r[2]) if r[2] is not None else None for r in points],
                    counts,
                ),
                text=[f"n={n}" for n in counts],
                textposition="inside",
                insidetextanchor="start",
                hovertemplate="call %{x}: took %{y} on average (%{text})<extra></extra>",
                name="caller's side took (average, 95% interval)",
            )
        )
        bid.add_trace(
            go.Scatter(
                x=[int(r[0]) for r in points],
                y=[int(r[0]) for r in points],
                mode="lines",
                name="the call",
                line={"dash": "dot"},
            )
        )
        bid.update_layout(
            title="Call against card points taken",
            xaxis_title="call",
            yaxis_title="card points",
            **layout,
        )
    charts.append(
        Chart(
            "chart-bid",
            "Call against points taken",
            figure_json(bid) if points else None,
            f"no call level was played {min_deals} times or more to a result (--min-deals)",
            "Each bar: the card points the caller's side took on average at that call, with the "
            f"95% interval of the mean and the number of deals (n); levels with {min_deals} "
            "deals or more.",
        )
    )
    # show-trump outcomes, callers and defenders apart (a defender: of the side that did not
    # call, as the statistics count them)
    shows = wh.query(
        "SELECT CASE WHEN s.is_caller THEN 'caller' WHEN s.team = d.caller_team THEN 'partner' "
        "ELSE 'defender' END AS part, s.asked, count(*), count(*) FILTER (s.trick_won) "
        "FROM show_chances s JOIN deals d USING (match_id, deal_no) "
        "GROUP BY 1, 2 HAVING count(*) >= $n "
        "ORDER BY strpos('caller partner defender', part), s.asked DESC",
        {"n": max(min_deals, 1)},
    ).rows
    show = go.Figure()
    for part, label in (
        ("caller", "callers"),
        ("partner", "callers' partners"),
        ("defender", "defenders"),
    ):
        mine = [r for r in shows if r[0] == part]
        if not mine:
            continue
        rates, bars = _wilson_bars([int(r[3]) for r in mine], [int(r[2]) for r in mine])
        show.add_trace(
            go.Bar(
                x=["asked / showed" if r[1] else "did not" for r in mine],
                y=rates,
                error_y=bars,
                text=[f"{int(r[3])}/{int(r[2])}" for r in mine],
                textposition="inside",
                insidetextanchor="start",
                textangle=0,
                name=label,
            )
        )
    show.update_layout(
        title="Show-trump: trick won by the side",
        yaxis_title="tricks won",
        yaxis_tickformat=".0%",
        barmode="group",
        **layout,
    )
    charts.append(
        Chart(
            "chart-show",
            "Show-trump outcomes",
            figure_json(show) if shows else None,
            f"no show-trump decision was met {min_deals} times or more (or these rules have "
            "no show)",
            "Each bar: tricks the side won / times, with its 95% Wilson interval; only with "
            f"{min_deals} times or more.",
        )
    )
    # score over time
    timeline = go.Figure()
    for pid, name in top:
        changes = [
            int(r[0])
            for r in wh.query(
                "SELECT pd.score_change FROM player_deals pd JOIN matches m USING (match_id) "
                "WHERE pd.player_id = $p ORDER BY m.started_at NULLS LAST, pd.match_id, "
                "pd.deal_no",
                {"p": pid},
            ).rows
        ]
        total, series = 0, []
        for change in changes:
            total += change
            series.append(total)
        step = max(1, len(series) // 400)  # at most ~400 points a player: a light page
        xs = list(range(1, len(series) + 1))[::step]
        timeline.add_trace(go.Scatter(x=xs, y=series[::step], mode="lines", name=plotly_text(name)))
    timeline.update_layout(
        title="Game points won minus lost",
        xaxis_title="deals played",
        yaxis_title="cumulative game points",
        **layout,
    )
    charts.append(
        Chart(
            "chart-time",
            "Score over time",
            figure_json(timeline) if top else None,
            f"every player has {few}",
        )
    )
    # average card points lost per card, with its interval
    judged = _judged(wh) if analysis else {}
    shown = [(name, judged[pid]) for pid, name in top if pid in judged and judged[pid].cards]
    if shown:
        lost = go.Figure(
            go.Bar(
                x=[plotly_text(name) for name, _ in shown],
                y=[round(float(j.card_loss or 0), 3) for _, j in shown],
                error_y=_mean_bars(
                    [float(j.card_loss or 0) for _, j in shown],
                    [j.spread for _, j in shown],
                    [j.cards for _, j in shown],
                ),
                text=[f"n={j.cards}" for _, j in shown],
                textposition="inside",
                insidetextanchor="start",
                hovertemplate="%{x}: %{y} card points lost a card (%{text})<extra></extra>",
            )
        )
        lost.update_layout(
            title="Card points lost a card",
            yaxis_title="card points",
            **layout,
        )
        charts.append(
            Chart(
                "chart-lost",
                "Points lost per card",
                figure_json(lost),
                "",
                "Each bar: the card points a player's cards lost on average with all cards "
                "known, with the 95% interval of the mean and the cards judged (n).",
            )
        )
    else:
        if not analysis:
            why = _unanalyzed(wh)
        elif not top:
            why = f"every player has {few}"
        else:
            why = f"no card of the players with {min_deals} deals or more was judged"
        charts.append(Chart("chart-lost", "Points lost per card", None, why))
    return tuple(charts)


def scope_to(wh: Warehouse, scope: Scope) -> int:
    """Narrow this connection's view of the warehouse to the matches of ``scope``: each
    table with a ``match_id`` gets a temporary view of the same name (DuckDB resolves the
    temporary schema first, the statistics views included) holding only those matches'
    rows. The file is not written. Returns how many matches are in scope. An empty scope
    drops the views a narrower one made: every match again. A scope's ``run`` narrows the
    ``annotations`` further, to the matches of that configuration.
    """
    conditions: list[str] = []
    params: dict[str, Any] = {}
    if scope.preset is not None:
        conditions.append("preset = $preset")
        params["preset"] = scope.preset
    if scope.since is not None:
        conditions.append("started_at >= $since")
        params["since"] = dt.datetime.combine(scope.since, dt.time())
    if scope.until is not None and scope.until < dt.date.max:  # nothing begins after 9999
        conditions.append("started_at < $until")
        params["until"] = dt.datetime.combine(scope.until + dt.timedelta(days=1), dt.time())
    database = str(wh.query("SELECT current_database()").rows[0][0])
    catalog = database.replace('"', '""')
    tables = [  # the file's own tables: not the temporary ones a narrower scope made
        str(row[0])
        for row in wh.query(
            "SELECT DISTINCT table_name FROM information_schema.columns "
            "WHERE column_name = 'match_id' AND table_schema = 'main' "
            "AND table_catalog = $db AND table_name IN (SELECT table_name FROM "
            "information_schema.tables WHERE table_type = 'BASE TABLE' AND table_catalog = $db) "
            "ORDER BY 1",
            {"db": database},
        ).rows
    ]
    if not conditions:
        for table in tables:
            wh.con.execute(f'DROP VIEW IF EXISTS temp.main."{table}"')
        _run_to(wh, scope.run, catalog)
        return int(wh.query("SELECT count(*) FROM matches").rows[0][0])
    where = " AND ".join(conditions)
    chosen = f'SELECT match_id FROM "{catalog}".main.matches WHERE {where}'
    ids = [row[0] for row in wh.con.execute(chosen, params).fetchall()]
    wh.con.execute("CREATE OR REPLACE TEMP TABLE _in_scope (match_id VARCHAR)")
    if ids:
        wh.con.executemany("INSERT INTO _in_scope VALUES (?)", [[i] for i in ids])
    for table in tables:
        wh.con.execute(
            f'CREATE OR REPLACE TEMP VIEW "{table}" AS SELECT * FROM "{catalog}".main."{table}" '
            "WHERE match_id IN (SELECT match_id FROM _in_scope)"
        )
    _run_to(wh, scope.run, catalog)
    return len(ids)


_IN_RUN: Final = "_in_run"
"""The temporary table of the matches of the configuration a scope picked (``--run``)."""


def _run_to(wh: Warehouse, run: str | None, catalog: str) -> None:
    """Narrow the connection's ``annotations`` (already narrowed to the scope's matches) to
    the matches of configuration ``run``; None: drop what an earlier run narrowed."""
    wh.con.execute(f"DROP TABLE IF EXISTS temp.main.{_IN_RUN}")
    if run is None or not has_table(wh, "annotations"):
        return
    ids = next((c.match_ids for c in configurations(wh) if c.key == run), ())
    wh.con.execute(f"CREATE TEMP TABLE {_IN_RUN} (match_id VARCHAR)")
    if ids:
        wh.con.executemany(f"INSERT INTO {_IN_RUN} VALUES (?)", [[i] for i in ids])
    wh.con.execute(  # the scope's matches are among the run's ids: configurations() saw them
        f'CREATE OR REPLACE TEMP VIEW annotations AS SELECT * FROM "{catalog}".main.annotations '
        f"WHERE match_id IN (SELECT match_id FROM {_IN_RUN})"
    )


_SEVERITY: Final = (
    "CASE label WHEN 'blunder' THEN 3 WHEN 'mistake' THEN 2 WHEN 'inaccuracy' THEN 1 ELSE 0 END"
)


class Judged(NamedTuple):
    """A player's judged decisions (a decision judged twice counts once, at its worse
    label), and the card points lost per card judged exactly: mean, spread, count."""

    decisions: int
    inaccuracies: int
    mistakes: int
    blunders: int
    card_loss: float | None
    spread: float | None
    cards: int


def _judged(wh: Warehouse) -> dict[str, Judged]:
    """Per player id, what the analysis judged of their decisions."""
    if not has_table(wh, "annotations"):
        return {}
    rows = wh.query(
        f"""WITH decisions AS (
            SELECT match_id, deal, action, seat, kind, max({_SEVERITY}) AS severity
            FROM annotations WHERE kind <> 'par' AND action IS NOT NULL AND seat IS NOT NULL
            GROUP BY ALL
        ), cards AS (
            SELECT mp.player_id, avg(a.loss) AS loss, stddev_samp(a.loss) AS spread,
                count(*) AS cards
            FROM annotations a
            JOIN match_players mp ON mp.match_id = a.match_id AND mp.seat = a.seat
            WHERE a.kind = 'card' AND a.method = 'exact' GROUP BY ALL
        )
        SELECT mp.player_id, count(*), count(*) FILTER (severity = 1),
            count(*) FILTER (severity = 2), count(*) FILTER (severity = 3),
            any_value(c.loss), any_value(c.spread), coalesce(any_value(c.cards), 0)
        FROM decisions d JOIN match_players mp ON mp.match_id = d.match_id AND mp.seat = d.seat
        LEFT JOIN cards c ON c.player_id = mp.player_id
        GROUP BY mp.player_id ORDER BY mp.player_id"""
    ).rows
    return {
        str(r[0]): Judged(int(r[1]), int(r[2]), int(r[3]), int(r[4]), r[5], r[6], int(r[7]))
        for r in rows
    }


def mean_interval(mean: float, spread: float | None, count: int) -> str:
    """A mean with its 95% interval (normal approximation), as the page writes it.

    >>> mean_interval(0.25, 0.8, 64)
    '0.25 (95%: 0.05 to 0.45, n=64)'
    """
    if spread is None or count < 2:
        return f"{mean:.2f} (n={count})"
    half = 1.959964 * spread / count**0.5
    return f"{mean:.2f} (95%: {max(mean - half, 0):.2f} to {mean + half:.2f}, n={count})"


WORST_SHOWN: Final = 5
"""Worst decisions listed in a player's section."""


def _worst(wh: Warehouse, player_id: str, link: Linker) -> tuple[Worst, ...]:
    """A player's worst decisions: the most severe label first; among equals the fair
    judgements first, then the larger loss (game points counted at the labels' scale)."""
    columns = ", ".join(f"a.{name}" for name in FIELDS)
    rows = wh.query(
        f"""SELECT {columns} FROM annotations a
        JOIN match_players mp ON mp.match_id = a.match_id AND mp.seat = a.seat
        WHERE mp.player_id = $p AND a.label IN ('inaccuracy', 'mistake', 'blunder')
            AND a.action IS NOT NULL
        ORDER BY {_SEVERITY.replace("label", "a.label")} DESC, a.method = 'exact',
            CASE a.unit WHEN 'game_points' THEN a.loss / {GAME_POINT_SCALE} ELSE a.loss END DESC,
            a.match_id, a.deal, a.action, a.kind
        LIMIT {WORST_SHOWN}""",
        {"p": player_id},
    ).rows
    out = []
    for row in rows:
        note = Annotation(*row)
        assert note.action is not None and note.label is not None
        how = method_words(note.method)
        out.append(
            Worst(
                f"match {note.match_id}, deal {note.deal}, action {note.action} ({note.seat})",
                MARKS[note.label],
                note.label,
                f"{note.kind.replace('_', ' ')} ({how}): {note_text(note)}",
                link(note.match_id, note.deal, note.action) or "",
            )
        )
    return tuple(out)


def player_anchors(wh: Warehouse, min_deals: int, sections: int | None = None) -> dict[str, str]:
    """The page anchor of each player with a section: ``min_deals`` deals or more, at most
    ``sections`` of them (those with the most deals; None: all)."""
    limit = "" if sections is None else f" LIMIT {int(sections)}"
    rows = wh.query(
        "SELECT player_id FROM player_stats WHERE deals >= $n ORDER BY deals DESC, player_id"
        + limit,
        {"n": min_deals},
    ).rows
    return {str(r[0]): f"player-{i}" for i, r in enumerate(rows, start=1)}


def sections_left_out(wh: Warehouse, min_deals: int, shown: int) -> str:
    """The line that counts the players with ``min_deals`` deals or more left without a
    section (``shown`` have one, those with the most deals) and says how to give them one;
    empty when none is left out."""
    query = "SELECT count(*) FROM player_stats WHERE deals >= $n"
    every = int(wh.query(query, {"n": min_deals}).rows[0][0])
    if every <= shown:
        return ""
    which = f" (the {shown:,} with the most deals have one)" if shown else ""
    return (
        f"{plural(every - shown, 'more player' if shown else 'player')} with "
        f"{plural(min_deals, 'deal')} or more {'has' if every - shown == 1 else 'have'} no "
        f"section here{which}: "
        f"--sections {every} gives each of them one; a higher --min-deals, fewer players."
    )


def _sections(
    wh: Warehouse, anchors: dict[str, str], link: Linker, analyzed: bool
) -> tuple[PlayerSection, ...]:
    """A section per player of ``anchors``, in their order."""
    judged = _judged(wh) if analyzed else {}
    stats = {str(p["player_id"]): p for p in _rows(player_stats(wh))}
    unanalyzed = "" if analyzed or not anchors else _unanalyzed(wh)  # once: a query or two
    sections = []
    for pid, anchor in anchors.items():
        p = stats[pid]
        name = str(p["name"]) if p["name"] == pid else f"{p['name']} ({pid})"
        counts = judged.get(pid)
        worst = _worst(wh, pid, link) if counts else ()
        if not analyzed:
            why = unanalyzed
        elif not counts:
            why = "none of this player's decisions was judged"
        elif not worst:
            why = "no decision judged an inaccuracy or worse"
        else:
            why = ""
        loss = "-"
        if counts and counts.card_loss is not None:
            loss = mean_interval(float(counts.card_loss), counts.spread, counts.cards)
        sections.append(
            PlayerSection(
                anchor=anchor,
                name=shown_name(name),
                whole=whole_name(name),
                deals=f"{int(p['deals']):,}",
                make_rate=rate_cell(p, "make_rate", few=False),
                judged=f"{counts.decisions:,}" if counts else "0",
                labels=(
                    (MARKS["inaccuracy"], "inaccuracy", counts.inaccuracies if counts else 0),
                    (MARKS["mistake"], "mistake", counts.mistakes if counts else 0),
                    (MARKS["blunder"], "blunder", counts.blunders if counts else 0),
                ),
                card_loss=loss,
                worst=worst,
                why_no_worst=why,
            )
        )
    return tuple(sections)


def players_context(
    wh: Warehouse,
    min_deals: int,
    link: Linker,
    scope: Scope | None = None,
    *,
    section_cap: int = SECTIONS_SHOWN,
) -> PlayersContext:
    """The players report's context from an open warehouse (narrowed to ``scope``), with a
    section for at most ``section_cap`` players."""
    scope = scope or Scope()
    in_scope = scope_to(wh, scope)
    by_role, why = ids_change(wh)
    analysis = _analysis(wh)
    totals = wh.query("SELECT count(*), sum(deals) FROM matches").rows[0]
    players = wh.query("SELECT count(DISTINCT player_id) FROM match_players").rows[0][0]
    summary = ", ".join(
        (
            plural(int(totals[0]), "match"),
            plural(int(totals[1] or 0), "deal"),
            plural(int(players), "player"),
        )
    )
    anchors = player_anchors(wh, min_deals, section_cap)
    # the sections' links first: each player's worst decisions get the example matches first
    sections = _sections(wh, anchors, link, analysis is not None)
    tables: tuple[Table, ...] = (_role_table(wh, link),)
    if by_role:
        tables = (*_player_tables(wh, min_deals, link, analysis or {}, anchors, True), *tables)
    else:
        tables = (
            *_player_tables(wh, min_deals, link, analysis or {}, anchors, False),
            *_partnership_tables(wh, min_deals),
            *tables,
        )
    scope_words = scope.words()
    if scope_words and not in_scope:
        scope_words += ": none in this warehouse"
    runs = tuple(configurations(wh))
    return PlayersContext(
        title="Players",
        summary=summary,
        scope=scope_words,
        by_role=by_role,
        why_by_role=why,
        min_deals=min_deals,
        analyzed=analysis is not None,
        unanalyzed="" if analysis is not None else _unanalyzed(wh).partition(": ")[2],
        dealing=_dealing(wh) if analysis is not None else "",
        tables=tables,
        sections=sections,
        charts=_charts(wh, by_role, analysis, min_deals),
        legend=legend(),
        plotly=plotly_bundle(),
        runs=runs,
        run=_picked(runs, scope.run),
        sections_left_out=sections_left_out(wh, min_deals, len(anchors)),
    )


def _picked(runs: tuple[Configuration, ...], key: str | None) -> Configuration | None:
    """The configuration ``key`` picked (``--run``) among ``runs``, those of the matches in
    scope; one of no match when none of them holds it (a narrower body of the page).

    >>> _picked((), "0a1b2c3d").match_ids, _picked((), None)
    ((), None)
    """
    if key is None:
        return None
    found = next((run for run in runs if run.key == key), None)
    return found or Configuration(0, key, "the configuration picked", ())


MAX_MONTHS: Final = 24
"""Months offered by the page's period filter; with more, only the years."""

MAX_BODIES: Final = 64
"""Pairs of a preset and a period the page holds at most: past it, the years without their
months (each pair is a page's worth of figures)."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of a filter: its key (empty: all) and its words."""

    key: str
    label: str


@dataclass(frozen=True, slots=True)
class Filters:
    """The page's own filters: the presets and periods of the matches in the report's scope,
    and the body of the page for each other pair, as JSON keyed ``preset|period`` (the
    page's script puts one in place of the shown body; without a script: all matches)."""

    presets: tuple[Choice, ...]
    periods: tuple[Choice, ...]
    bodies: Markup


def _choices(wh: Warehouse) -> tuple[tuple[Choice, ...], tuple[Choice, ...]]:
    """The presets and periods (years, then months unless more than :data:`MAX_MONTHS`) of
    the matches the connection sees, each list after its "all" choice; a list with a single
    choice besides "all" has nothing to narrow and is left empty."""
    presets = [str(r[0]) for r in wh.query("SELECT DISTINCT preset FROM matches ORDER BY 1").rows]
    months = [
        str(r[0])
        for r in wh.query(
            "SELECT DISTINCT strftime(started_at, '%Y-%m') FROM matches "
            "WHERE started_at IS NOT NULL ORDER BY 1"
        ).rows
    ]
    years = sorted({month[:4] for month in months})
    periods = [Choice(year, year) for year in years]
    if len(months) <= MAX_MONTHS:  # a year's only month would be the year again
        many = {year for year in years if sum(m.startswith(year) for m in months) > 1}
        periods += [Choice(month, month) for month in months if month[:4] in many]
        periods.sort(key=lambda choice: choice.key)  # each year, then its months
    undated = int(wh.query("SELECT count(*) FROM matches WHERE started_at IS NULL").rows[0][0])
    if len(periods) == 1 and not undated:  # every match in one year's one month: all dates
        periods = []
    shown = [Choice(p, p) for p in presets] if len(presets) > 1 else []
    return (
        (Choice("", "all presets"), *shown) if shown else (),
        (Choice("", "all dates"), *periods) if periods else (),
    )


def _filters(
    wh: Warehouse, min_deals: int, link: Linker, scope: Scope, section_cap: int = SECTIONS_SHOWN
) -> Filters | None:
    """The page's filters within ``scope`` (the connection narrowed to it), and a body for
    each preset and period but the first pair (the page shows that one); None when there
    is nothing to choose."""
    presets, periods = _choices(wh)
    if not presets and not periods:
        return None
    if max(len(presets), 1) * max(len(periods), 1) > MAX_BODIES:
        periods = tuple(choice for choice in periods if "-" not in choice.key)
    bodies: dict[str, str] = {}
    for preset in presets or (Choice("", ""),):
        for period in periods or (Choice("", ""),):
            if preset.key == period.key == "":
                continue
            narrowed = scope.within(preset.key, period.key)
            key = f"{preset.key}|{period.key}"
            if not scope_to(wh, narrowed):
                bodies[key] = render("_players_none.html", scope=narrowed.words())
                continue
            page = players_context(wh, min_deals, link, narrowed, section_cap=section_cap)
            bodies[key] = render("_players_body.html", page=page)
    scope_to(wh, scope)
    return Filters(presets, periods, script_json(bodies))


def players_report(
    wh: Warehouse,
    min_deals: int,
    link: Linker,
    scope: Scope | None = None,
    *,
    section_cap: int = SECTIONS_SHOWN,
    run: str | None = None,
) -> str:
    """The players report's HTML; the same warehouse and scope give the same bytes.

    Its judged figures count the annotations of one configuration: ``run`` (a number or an
    id, :func:`pick_run`), or the only one in scope; several and none picked raise
    :class:`RunChoiceError`.

    The page can narrow itself to a preset and a period of its matches (:class:`Filters`):
    each pair's figures are made here, with the same queries as the whole page's. At most
    ``section_cap`` players (most deals first) get a section, and a table at most
    :data:`ROWS_SHOWN` rows: a line says how many were left out.
    """
    scope = pick_run(wh, scope or Scope(), run)
    page = players_context(wh, min_deals, link, scope, section_cap=section_cap)
    filters = _filters(wh, min_deals, link, scope, section_cap)
    return render("players.html", page=page, filters=filters)


class RunChoiceError(ValueError):
    """The annotations in a report's scope come from several configurations and none was
    picked, or the one asked for is not among them: the message says which there are."""


def pick_run(wh: Warehouse, scope: Scope, choice: str | None = None) -> Scope:
    """``scope`` with the configuration whose annotations its judged figures count: the
    one ``choice`` names (its number in :func:`~reports.html.annotations.configurations`
    over the scope's matches, or its id), else None when the scope holds at most one.
    Raises :class:`RunChoiceError` rather than pool several: its message numbers them.

    >>> import tempfile
    >>> from pathlib import Path
    >>> from twentynine.reports.warehouse.store import open_warehouse
    >>> with open_warehouse(Path(tempfile.mkdtemp()) / "w.duckdb") as wh:
    ...     pick_run(wh, Scope("pagat")).run is None
    True
    """
    scope_to(wh, Scope(scope.preset, scope.since, scope.until))
    runs = configurations(wh)
    differ = config_differences([run.config for run in runs if run.config is not None])
    named = "; ".join(run.named(differ or None) for run in runs)
    if len(runs) > 1:
        named += ", alike in their other options"
    if choice is None:
        if len(runs) <= 1:
            return Scope(scope.preset, scope.since, scope.until)
        raise RunChoiceError(  # only the options that differ: one line a person can read
            f"the annotations of these matches were worked out with {len(runs)} "
            f"configurations, and the report does not pool them: {named}; pick one with "
            "--run N (its number here) or --run ID (its id in brackets)"
        )
    picked = next((run for run in runs if choice in (str(run.number), run.key)), None)
    if picked is None:
        there = f"the matches in scope hold {named}" if runs else "no match in scope is analysed"
        raise RunChoiceError(f"--run {choice}: no such configuration; {there}")
    return Scope(scope.preset, scope.since, scope.until, picked.key)
