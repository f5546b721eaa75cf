"""The players report: each player's and partnership's statistics, with their intervals.

Rates come from the warehouse's statistics views (``reports/warehouse/stats.py``), each shown
with its numerator, denominator and 95% Wilson interval, and "too few deals" for a player
below the minimum. An archive whose player ids change every game (most players seen in a
single deal: the Bhoos archive) is reported by role instead, and the page says why.

>>> low, high = wilson(8, 10)
>>> round(low, 3), round(high, 3)
(0.49, 0.943)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

import plotly.graph_objects as go
from markupsafe import Markup

from reports.html.annotations import has_table
from reports.html.render import figure_json, plotly_bundle, render
from reports.warehouse.stats import call_levels, partnership_stats, player_stats
from reports.warehouse.store import QueryResult, Warehouse

Z95: Final = 1.959963984540054
CHART_PLAYERS: Final = 8
"""Players drawn in the per-player charts: the ones with the most deals."""
SINGLE_DEAL_SHARE: Final = 0.5
"""Above this share of players seen in one deal only, ids are taken to change every game."""


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of ``successes / trials`` (``trials`` > 0).

    >>> wilson(0, 4)[0], round(wilson(0, 4)[1], 3)
    (0.0, 0.49)
    """
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class Cell:
    """One table cell: the text shown, the value it sorts by, and an optional link."""

    text: str
    sort: float | str | None
    title: str = ""
    link: str = ""
    few: bool = False
    detail: str = ""


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
    if n == 0:
        return Cell("-", None, f"no {what}" if what else "")
    low, high = wilson(k, n)
    rate = k / n
    return Cell(
        f"{rate:.0%}",
        rate,
        f"{k} of {n}; 95% interval {low:.1%} to {high:.1%}",
        link,
        detail=f"{k}/{n} · {low:.0%}-{high:.0%}",
    )


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
    >>> from replay import random_match
    >>> from reports.warehouse.store import open_warehouse
    >>> from schema import Rules
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
    if players >= 8 and single_deal > SINGLE_DEAL_SHARE * players:
        return True, (
            f"{single_deal:,} of {players:,} player ids appear in a single deal only: this "
            "archive gives its players new ids every game, so per-player figures would each "
            "rest on one deal. The figures below are by role instead: the caller's auction "
            "position, and caller against defender."
        )
    if players >= 8 and single_match == players:
        return False, "Every player id appears in one match only; per-player figures are thin."
    return False, ""


_PLAYER_HEADINGS: Final = (
    ("player", "name (and id where it differs)"),
    ("deals", "deals played"),
    ("calls", "auctions won"),
    ("make-rate", "calls made / calls with a known result; 95% Wilson interval"),
    ("average call", "sum of winning bids / calls"),
    ("break-rate", "defences broken / defences"),
    ("ask-rate", "shows asked / chances to ask"),
    ("trick won after asking", "tricks won after asking / shows asked"),
    ("trick won without asking", "tricks won without asking / chances not asked"),
    ("doubles won", "doubles whose call failed / doubles"),
    ("findings / 100 deals", "findings about the player's actions per 100 deals"),
    ("points lost / card", "average card points lost per card judged (analysis, exact)"),
    ("mistakes", "mistakes and blunders / decisions judged by sampling (analysis)"),
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
    won = {
        str(r[0]): (int(r[1]), int(r[2]))
        for r in wh.query(
            "SELECT player_id, count(*) FILTER (asked AND trick_won), "
            "count(*) FILTER (NOT asked AND trick_won) FROM show_decisions GROUP BY player_id"
        ).rows
    }
    for p in _rows(player_stats(wh)):
        few = int(p["deals"]) < min_deals
        pid = str(p["player_id"])
        name = str(p["name"]) if p["name"] == pid else f"{p['name']} ({pid})"
        failed = examples.get((pid, "failed"))
        found = examples.get((pid, "finding"))
        lost = analysis.get(pid)
        (few_rows if few else rows).append(
            (
                Cell(name, str(p["name"])),
                _count(p["deals"]),
                _count(p["calls"]),
                _rate(
                    p["calls_made"],
                    int(p["calls_made"]) + int(p["calls_failed"]),
                    few=few,
                    link=(link(*failed) or "") if failed else "",
                    what="call with a result",
                ),
                _mean(p["average_call"], few=few),
                _rate(p["defences_broken"], p["defences"], few=few, what="defence"),
                _rate(p["shows_asked"], p["show_chances"], few=few, what="chance to ask"),
                _rate(won.get(pid, (0, 0))[0], p["shows_asked"], few=few),
                _rate(won.get(pid, (0, 0))[1], p["show_chances"] - p["shows_asked"], few=few),
                _rate(p["doubles_won"], p["doubles"], few=few, what="double"),
                Cell(
                    f"{p['findings_per_100_deals']:.1f}",
                    float(p["findings_per_100_deals"]),
                    f"{p['findings']} findings in {p['deals']} deals",
                    (link(*found) or "") if found else "",
                ),
                _lost(lost, few=few),
                _labels(lost, few=few),
            )
        )
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


def _partnership_table(wh: Warehouse, min_deals: int) -> Table:
    rows: list[tuple[Cell, ...]] = []
    pairs = _rows(partnership_stats(wh))
    pairs.sort(key=lambda p: (-int(p["deals"]), str(p["player_a"]), str(p["player_b"])))
    for p in pairs:  # ties in the view's order broken by both players: the same bytes
        few = int(p["deals"]) < min_deals
        rows.append(
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
    return Table("partnerships", "Partnerships", headings, tuple(rows))


_ROLE_SQL: Final = """
WITH caller_position AS (
    SELECT DISTINCT match_id, deal_no, position FROM bids WHERE won_auction
)
SELECT position, count(*) AS calls,
    count(*) FILTER (d.made) AS made,
    avg(d.call) AS average_call,
    avg(d.caller_points) AS caller_points
FROM deals d JOIN caller_position USING (match_id, deal_no)
WHERE d.made IS NOT NULL AND d.single_hand IS NULL
GROUP BY position ORDER BY position"""


def _position(position: int) -> str:
    """An auction position in words.

    >>> _position(4)
    'P4 (dealer)'
    """
    return f"P{position}" + (" (dealer)" if position == 4 else "")


def _role_tables(wh: Warehouse, link: Linker) -> tuple[Table, ...]:
    positions = []
    examples = _role_examples(wh)
    for r in _rows(wh.query(_ROLE_SQL)):
        example = examples.get(int(r["position"]))
        positions.append(
            (
                Cell(
                    f"P{r['position']}" + (" (dealer)" if r["position"] == 4 else ""), r["position"]
                ),
                _count(r["calls"]),
                _rate(
                    r["made"], r["calls"], few=False, link=(link(*example) or "") if example else ""
                ),
                _mean(r["average_call"], few=False),
                _mean(r["caller_points"], few=False),
            )
        )
    by_position = Table(
        "positions",
        "Calls by the caller's auction position (P1 bids first, P4 is the dealer)",
        (
            ("position", "the caller's place in the auction"),
            ("calls", "calls with a known result"),
            ("make-rate", "made / calls; 95% Wilson interval"),
            ("average call", "the winning bid"),
            ("caller's side points", "card points of the caller's side per deal"),
        ),
        tuple(positions),
    )
    sides = []
    for r in _rows(
        wh.query(
            "SELECT is_caller, count(*) AS chances, count(*) FILTER (asked) AS asked, "
            "count(*) FILTER (asked AND trick_won) AS asked_won, "
            "count(*) FILTER (NOT asked AND trick_won) AS not_asked_won "
            "FROM show_decisions GROUP BY is_caller ORDER BY is_caller DESC"
        )
    ):
        chances, asked = int(r["chances"]), int(r["asked"])
        sides.append(
            (
                Cell("caller" if r["is_caller"] else "defender", str(r["is_caller"])),
                _count(chances),
                _rate(asked, chances, few=False),
                _rate(r["asked_won"], asked, few=False),
                _rate(r["not_asked_won"], chances - asked, few=False),
            )
        )
    by_side = Table(
        "roles",
        "Show-trump decisions by role (the caller shows, a defender asks)",
        (
            ("role", "caller or defender"),
            ("chances", "plays where the seat could not follow suit before the show"),
            ("asked or showed", "asked / chances"),
            ("trick won after asking", "won / asked"),
            ("trick won without asking", "won / not asked"),
        ),
        tuple(sides),
    )
    return by_position, by_side


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


def _role_examples(wh: Warehouse) -> dict[int, tuple[str, int, int | None]]:
    rows = wh.query(
        "SELECT b.position, min_by(d.match_id, (d.match_id, d.deal_no)), "
        "min_by(d.deal_no, (d.match_id, d.deal_no)) FROM deals d "
        "JOIN (SELECT DISTINCT match_id, deal_no, position FROM bids WHERE won_auction) b "
        "USING (match_id, deal_no) WHERE d.made = false AND d.single_hand IS NULL "
        "GROUP BY b.position"
    ).rows
    return {int(p): (m, int(n), None) for p, m, n in rows}


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
                    name=name,
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
    # show-trump outcomes, callers and defenders apart
    shows = wh.query(
        "SELECT is_caller, asked, count(*), count(*) FILTER (trick_won) FROM show_decisions "
        "GROUP BY ALL ORDER BY is_caller DESC, asked DESC"
    ).rows
    show = go.Figure()
    for is_caller in (True, False):
        mine = [r for r in shows if bool(r[0]) is is_caller]
        show.add_trace(
            go.Bar(
                x=["asked / showed" if r[1] else "did not" for r in mine],
                y=[round(int(r[3]) / int(r[2]), 4) if r[2] else 0 for r in mine],
                text=[f"{int(r[3])}/{int(r[2])}" for r in mine],
                textposition="outside",
                textangle=0,
                cliponaxis=False,
                name="callers" if is_caller else "defenders",
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
            timeline.add_trace(go.Scatter(x=xs, y=series[::step], mode="lines", name=name))
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
                x=[name for name, _ in judged],
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
    tables: tuple[Table, ...] = _role_tables(wh, link)
    if not by_role:
        tables = (
            *_player_tables(wh, min_deals, link, analysis or {}),
            _partnership_table(wh, min_deals),
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
