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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

import plotly.graph_objects as go
from markupsafe import Markup

from twentynine.reports.html.annotations import has_table
from twentynine.reports.html.render import figure_json, plotly_bundle, plotly_text, render
from twentynine.reports.warehouse.stats import (
    ONE_DEAL_SHARE,
    RATE_DENOMINATORS,
    call_levels,
    partnership_stats,
    player_stats,
    wilson_interval,
)
from twentynine.reports.warehouse.store import QueryResult, Warehouse

CHART_PLAYERS: Final = 8
"""Players drawn in the per-player charts: the ones with the most deals."""


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


@dataclass(frozen=True, slots=True)
class Chart:
    chart_id: str
    title: str
    figure: Markup | None
    empty: str


@dataclass(frozen=True, slots=True)
class PlayersContext:
    title: str
    summary: str
    by_role: bool
    why_by_role: str
    min_deals: int
    analyzed: bool
    tables: tuple[Table, ...]
    charts: tuple[Chart, ...]
    plotly: str


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
    return Cell(f"{value:.1f}{suffix}", float(value))


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
            f"{p['findings_per_100_deals']:.1f}",
            float(p["findings_per_100_deals"]),
            f"{p['findings']} findings in {p['deals']} deals",
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
    wh: Warehouse, min_deals: int, link: Linker, analysis: dict[str, Analysis]
) -> tuple[Table, ...]:
    """The players with at least ``min_deals`` deals, then (folded) those with fewer."""
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
        row = (Cell(name, str(p["name"])), *cells, _lost(judged, few=few), _labels(judged, few=few))
        (few_rows if few else rows).append(row)
    tables = [
        Table(
            "players",
            f"Players with {min_deals} deals or more (a heading sorts; a linked figure opens "
            "an example deal)",
            _PLAYER_HEADINGS,
            tuple(rows),
        )
    ]
    if few_rows:
        tables.append(
            Table(
                "players-few",
                f"{len(few_rows)} players with fewer than {min_deals} deals: too few deals",
                _PLAYER_HEADINGS,
                tuple(few_rows),
                collapsed=True,
            )
        )
    return tuple(tables)


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
                Cell(f"{p['name_a']} & {p['name_b']}", f"{p['name_a']} & {p['name_b']}"),
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
    tables = [Table("partnerships", "Partnerships", headings, tuple(rows))]
    if few_rows:
        caption = f"{len(few_rows)} partnerships with fewer than {min_deals} deals together"
        tables.append(Table("partnerships-few", caption, headings, tuple(few_rows), True))
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


def _charts(
    wh: Warehouse, by_role: bool, analysis: dict[str, Analysis] | None
) -> tuple[Chart, ...]:
    top = [
        (str(r[0]), str(r[1]))
        for r in wh.query(
            f"SELECT player_id, name FROM player_stats ORDER BY deals DESC, player_id "
            f"LIMIT {CHART_PLAYERS}"
        ).rows
    ]
    layout = {"height": 380, "margin": {"l": 55, "r": 20, "t": 50, "b": 45}, "autosize": True}
    charts = []
    # make-rate by call level
    levels = go.Figure()
    overall = wh.query(
        "SELECT call, sum(made) AS made, sum(made + failed) AS n FROM player_call_levels "
        "GROUP BY call HAVING sum(made + failed) > 0 ORDER BY call"
    ).rows
    levels.add_trace(
        go.Scatter(
            x=[int(r[0]) for r in overall],
            y=[round(int(r[1]) / int(r[2]), 4) for r in overall],
            text=[f"{int(r[1])}/{int(r[2])}" for r in overall],
            mode="lines+markers",
            name="everyone",
            line={"width": 4},
        )
    )
    if not by_role:
        for pid, name in top:
            rows = [r for r in _rows(call_levels(wh, pid)) if (r["made"] + r["failed"]) > 0]
            levels.add_trace(
                go.Scatter(
                    x=[int(r["call"]) for r in rows],
                    y=[round(float(r["make_rate"]), 4) for r in rows],
                    text=[f"{r['made']}/{r['made'] + r['failed']}" for r in rows],
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
    charts.append(Chart("chart-levels", "Make-rate by call level", figure_json(levels), ""))
    # bid against points taken
    points = wh.query(
        "SELECT call, avg(caller_points), count(*) FROM deals "
        "WHERE made IS NOT NULL AND single_hand IS NULL GROUP BY call ORDER BY call"
    ).rows
    bid = go.Figure()
    bid.add_trace(
        go.Bar(
            x=[int(r[0]) for r in points],
            y=[round(float(r[1]), 2) for r in points],
            hovertext=[f"{int(r[2])} deals" for r in points],
            name="caller's side took (average)",
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
    charts.append(Chart("chart-bid", "Call against points taken", figure_json(bid), ""))
    # show-trump outcomes, callers and defenders apart (a defender: of the side that did not
    # call, as the statistics count them)
    shows = wh.query(
        "SELECT CASE WHEN s.is_caller THEN 'caller' WHEN s.team = d.caller_team THEN 'partner' "
        "ELSE 'defender' END AS part, s.asked, count(*), count(*) FILTER (s.trick_won) "
        "FROM show_chances s JOIN deals d USING (match_id, deal_no) "
        "GROUP BY 1, 2 ORDER BY strpos('caller partner defender', part), s.asked DESC"
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
        show.add_trace(
            go.Bar(
                x=["asked / showed" if r[1] else "did not" for r in mine],
                y=[round(int(r[3]) / int(r[2]), 4) if r[2] else 0 for r in mine],
                text=[f"{int(r[3])}/{int(r[2])}" for r in mine],
                textposition="outside",
                textangle=0,
                cliponaxis=False,
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
    empty = "no show-trump decisions (no optional or compulsory show in these rules)"
    charts.append(
        Chart("chart-show", "Show-trump outcomes", figure_json(show) if shows else None, empty)
    )
    # score over time
    if by_role:
        charts.append(
            Chart("chart-time", "Score over time", None, "not drawn: player ids change every game")
        )
    else:
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
            timeline.add_trace(
                go.Scatter(x=xs, y=series[::step], mode="lines", name=plotly_text(name))
            )
        timeline.update_layout(
            title="Game points won minus lost",
            xaxis_title="deals played",
            yaxis_title="cumulative game points",
            **layout,
        )
        charts.append(Chart("chart-time", "Score over time", figure_json(timeline), ""))
    # average points lost per card
    if analysis and not by_role:
        shown = [(pid, name, analysis[pid]) for pid, name in top if pid in analysis]
        judged = [(name, a) for _, name, a in shown if a.average_card_loss is not None]
        lost = go.Figure(
            go.Bar(
                x=[plotly_text(name) for name, _ in judged],
                y=[round(float(a.average_card_loss or 0), 3) for _, a in judged],
                hovertext=[f"{a.cards_judged} cards judged" for _, a in judged],
            )
        )
        lost.update_layout(
            title="Card points lost per card (analysis)", yaxis_title="card points", **layout
        )
        charts.append(Chart("chart-lost", "Points lost per card", figure_json(lost), ""))
    else:
        why = "player ids change every game" if analysis else "not analyzed: run twentynine "
        why += "" if analysis else "analyze with --db on this warehouse"
        charts.append(Chart("chart-lost", "Points lost per card", None, why))
    return tuple(charts)


def players_context(wh: Warehouse, min_deals: int, link: Linker) -> PlayersContext:
    """The players report's context from an open warehouse."""
    by_role, why = ids_change(wh)
    analysis = _analysis(wh)
    totals = wh.query("SELECT count(*), sum(deals) FROM matches").rows[0]
    players = wh.query("SELECT count(*) FROM players").rows[0][0]
    summary = f"{int(totals[0]):,} matches, {int(totals[1] or 0):,} deals, {int(players):,} players"
    tables: tuple[Table, ...] = (_role_table(wh, link),)
    if not by_role:
        tables = (
            *_player_tables(wh, min_deals, link, analysis or {}),
            *_partnership_tables(wh, min_deals),
            *tables,
        )
    return PlayersContext(
        title="Players",
        summary=summary,
        by_role=by_role,
        why_by_role=why,
        min_deals=min_deals,
        analyzed=analysis is not None,
        tables=tables,
        charts=_charts(wh, by_role, analysis),
        plotly=plotly_bundle(),
    )


def players_report(wh: Warehouse, min_deals: int, link: Linker) -> str:
    """The players report's HTML; the same warehouse gives the same bytes."""
    return render("players.html", page=players_context(wh, min_deals, link))
