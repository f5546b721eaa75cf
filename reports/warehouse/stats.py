"""Player and partnership statistics: each defined once, with its numerator and denominator.

The statistics are views in the warehouse (``player_stats``, ``player_call_levels``,
``partnership_stats``, built on ``player_deals``); :data:`PLAYER_STATS` says what every
column of ``player_stats`` counts, and ``docs/warehouse.md`` shows the same table.

>>> import tempfile
>>> from pathlib import Path
>>> from twentynine.replay import random_match
>>> from twentynine.reports.warehouse.store import open_warehouse
>>> from twentynine.schema import Rules
>>> with open_warehouse(Path(tempfile.mkdtemp()) / "w.duckdb") as wh:
...     _ = wh.load([random_match(Rules.preset("pagat"), seed=2)])
...     stats = player_stats(wh, "Bot N")
>>> stats.rows[0][:2], stats.columns[3]
(('Bot N', 'Bot N'), 'deals')
"""

from __future__ import annotations

import datetime as dt
import difflib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, NamedTuple

import numpy as np

from twentynine.reports.warehouse import ddl
from twentynine.reports.warehouse.errors import WarehouseError
from twentynine.reports.warehouse.store import DEFAULT_DB, QueryResult, Warehouse, open_warehouse
from twentynine.schema.words import part_of


class Stat(NamedTuple):
    """One statistic: its column, what it counts, and its numerator over denominator."""

    column: str
    meaning: str
    numerator: str
    denominator: str


_CALLS: Final = "calls the player won whose result is known (not thrown in, no single hand)"
_DEFENCES: Final = "deals whose call the player defended, with a known result"

PLAYER_STATS: Final[tuple[Stat, ...]] = (
    Stat("matches", "Matches played.", "matches with the player at a seat", "-"),
    Stat("deals", "Deals played, thrown-in ones included.", "deals of those matches", "-"),
    Stat(
        "calls", "Calls won: auctions the player won.", "deals where the player is the caller", "-"
    ),
    Stat("call_share", "Share of deals the player called.", "`calls`", "`deals`"),
    Stat("calls_made", "Calls made: the caller's side reached the target.", "made calls", "-"),
    Stat("calls_failed", "Calls failed.", "failed calls", "-"),
    Stat("make_rate", "Make-rate.", "`calls_made`", _CALLS),
    Stat("average_call", "Average call.", "sum of the player's winning bids", "`calls`"),
    Stat("defences", "Defences: calls of the other side with a known result.", _DEFENCES, "-"),
    Stat(
        "defences_broken",
        "Defences broken: the other side's call failed.",
        "defended calls that failed",
        "-",
    ),
    Stat("break_rate", "Share of defences broken.", "`defences_broken`", "`defences`"),
    Stat(
        "caller_points_per_deal",
        "Card points of the player's side per deal as caller.",
        "card points of the player's team in those deals",
        _CALLS,
    ),
    Stat(
        "defender_points_per_deal",
        "Card points of the player's side per deal as defender.",
        "card points of the player's team in those deals",
        _DEFENCES,
    ),
    Stat(
        "show_chances",
        "Chances to ask for the trump: plays before the show where the "
        "player could not follow suit (optional or compulsory show).",
        "such plays (`show_decisions` rows)",
        "-",
    ),
    Stat(
        "shows_asked", "Shows asked (or, as caller, made).", "chances where the player asked", "-"
    ),
    Stat("ask_rate", "Share of chances asked.", "`shows_asked`", "`show_chances`"),
    Stat(
        "asked_trump_rate",
        "After asking: share where the player then played a trump.",
        "asked chances where the card played was a trump",
        "`shows_asked`",
    ),
    Stat(
        "asked_trick_win_rate",
        "After asking: share of those tricks the player's side won.",
        "asked chances whose trick the player's team won",
        "`shows_asked`",
    ),
    Stat(
        "not_asked_trick_win_rate",
        "Without asking: share of those tricks the player's side won.",
        "unasked chances whose trick the player's team won",
        "`show_chances` - `shows_asked`",
    ),
    Stat(
        "caller_show_chances",
        "Show chances as the caller (who shows the trump rather than asks for it).",
        "`show_chances` where the player is the caller",
        "-",
    ),
    Stat("caller_shows", "Shows made as the caller.", "those where the player showed", "-"),
    Stat(
        "caller_shown_trick_win_rate",
        "As caller, after showing: share of those tricks the player's side won.",
        "caller's shows whose trick the player's team won",
        "`caller_shows`",
    ),
    Stat(
        "caller_not_shown_trick_win_rate",
        "As caller, without showing: share of those tricks the player's side won.",
        "caller's unshown chances whose trick the player's team won",
        "`caller_show_chances` - `caller_shows`",
    ),
    Stat(
        "defender_show_chances",
        "Show chances as a defender (the side that did not call).",
        "`show_chances` of the player as a defender",
        "-",
    ),
    Stat("defender_asks", "Shows asked as a defender.", "those where the player asked", "-"),
    Stat(
        "defender_asked_trick_win_rate",
        "As defender, after asking: share of those tricks the player's side won.",
        "defender's asks whose trick the player's team won",
        "`defender_asks`",
    ),
    Stat(
        "defender_not_asked_trick_win_rate",
        "As defender, without asking: share of those tricks the player's side won.",
        "defender's unasked chances whose trick the player's team won",
        "`defender_show_chances` - `defender_asks`",
    ),
    Stat("doubles", "Doubles said.", "`double` actions by the player", "-"),
    Stat(
        "doubles_won",
        "Doubles that succeeded: the doubled call failed.",
        "doubles where the call failed",
        "`doubles`",
    ),
    Stat(
        "double_points_won",
        "Game points the player's doubles won: in each deal the player doubled, the change of "
        "the player's side's match score less the other side's, where positive.",
        "sum of those swings",
        "-",
    ),
    Stat(
        "double_points_lost",
        "Game points the player's doubles lost: the same swing, where negative, as a loss.",
        "sum of those losses",
        "-",
    ),
    Stat("redoubles", "Redoubles said.", "`redouble` actions by the player", "-"),
    Stat(
        "redoubles_won",
        "Redoubles that succeeded: the call was made.",
        "redoubles where the call was made",
        "`redoubles`",
    ),
    Stat("sets", "Sets said.", "`set` actions by the player", "-"),
    Stat(
        "sets_won", "Sets that succeeded: the call failed.", "sets where the call failed", "`sets`"
    ),
    Stat(
        "pairs",
        "Pairs shown (King and Queen of trumps).",
        "`pair` actions by the player that the engine accepted",
        "-",
    ),
    Stat(
        "single_hands", "Single hands played.", "deals where the player declared single hand", "-"
    ),
    Stat(
        "single_hands_won",
        "Single hands won (all tricks).",
        "those where the player won every trick",
        "`single_hands`",
    ),
    Stat(
        "findings",
        "Findings about the player's own actions.",
        "findings whose action is the player's",
        "-",
    ),
    Stat("findings_per_100_deals", "Findings per 100 deals played.", "100 x `findings`", "`deals`"),
)
"""Every ``player_stats`` column after ``player_id`` and ``name``; ``-`` marks a count."""


class PlayerNotFoundError(WarehouseError):
    """``--player NAME`` names no stored player (by id or by name), with the nearest names."""

    def __init__(self, path: str, player: str, nearest: Sequence[str] = ()) -> None:
        reason = f"no player {player!r} (by id or any name) in this warehouse"
        if nearest:
            reason += "; did you mean " + " or ".join(repr(name) for name in nearest) + "?"
        super().__init__(path, reason)


class StatsOptionError(WarehouseError):
    """An option of ``twentynine stats`` that names no column (or asks two things at once)."""


# A player is found by id, by the name first stored, or by any name a match recorded for that
# id (a Bhoos id may be stored first with no name, and later seen with one), in any case.
_MATCHING_IDS: Final = (
    "SELECT player_id FROM players WHERE lower(player_id) = lower($player) "
    "OR lower(name) = lower($player) "
    "UNION SELECT player_id FROM match_players WHERE lower(name) = lower($player)"
)


def _unknown_player(wh: Warehouse, player: str) -> PlayerNotFoundError:
    known = wh.query("SELECT player_id FROM players UNION SELECT name FROM match_players")
    names = [str(row[0]) for row in known.rows]
    by_lower = {name.lower(): name for name in names}
    close = difflib.get_close_matches(player.lower(), list(by_lower), n=3, cutoff=0.6)
    return PlayerNotFoundError(wh.name, player, [by_lower[name] for name in close])


def _filtered(wh: Warehouse, view: str, player: str | None, order: str) -> QueryResult:
    if player is None:
        return wh.query(f"SELECT * FROM {view} ORDER BY {order}")
    result = wh.query(
        f"SELECT v.* FROM {view} v WHERE v.player_id IN ({_MATCHING_IDS}) ORDER BY {order}",
        {"player": player},
    )
    if not result.rows:
        known = wh.query(f"SELECT count(*) FROM ({_MATCHING_IDS})", {"player": player})
        if not known.rows[0][0]:
            raise _unknown_player(wh, player)
    return result


def player_stats(wh: Warehouse, player: str | None = None) -> QueryResult:
    """One row per player (or the players with that id or name), most deals first.

    Raises :class:`PlayerNotFoundError` when ``player`` names nobody.
    """
    return _filtered(wh, "player_stats", player, "deals DESC, player_id")


def call_levels(wh: Warehouse, player: str | None = None) -> QueryResult:
    """Make-rate by call level: one row per player and call."""
    return _filtered(wh, "player_call_levels", player, "player_id, call")


def partnership_stats(wh: Warehouse, player: str | None = None) -> QueryResult:
    """One row per pair of partners, most deals first (``player`` in either seat)."""
    if player is None:
        return wh.query("SELECT * FROM partnership_stats ORDER BY deals DESC, player_a")
    result = wh.query(
        "SELECT * FROM partnership_stats WHERE $player IN (player_a, player_b, name_a, name_b) "
        "ORDER BY deals DESC, player_a",
        {"player": player},
    )
    if not result.rows:
        player_stats(wh, player)  # raises when the player is unknown
    return result


RATE_DENOMINATORS: Final[dict[str, tuple[str, ...]]] = {
    "call_share": ("deals",),
    "make_rate": ("calls_made", "calls_failed"),
    "break_rate": ("defences",),
    "ask_rate": ("show_chances",),
    "asked_trump_rate": ("shows_asked",),
    "asked_trick_win_rate": ("shows_asked",),
    "not_asked_trick_win_rate": ("show_chances", "-shows_asked"),
    "caller_shown_trick_win_rate": ("caller_shows",),
    "caller_not_shown_trick_win_rate": ("caller_show_chances", "-caller_shows"),
    "defender_asked_trick_win_rate": ("defender_asks",),
    "defender_not_asked_trick_win_rate": ("defender_show_chances", "-defender_asks"),
}
"""Each rate of ``player_stats`` and the columns whose sum (``-``: less) is its denominator."""

_Z95: Final = 1.959964


def wilson_interval(successes: int, trials: int) -> tuple[float, float] | None:
    """The 95% Wilson score interval of a rate, or None without trials.

    >>> [round(x, 3) for x in wilson_interval(7, 10)]
    [0.397, 0.892]
    >>> wilson_interval(0, 0) is None, wilson_interval(1, 1)[1]
    (True, 1.0)
    """
    if trials <= 0:
        return None
    p = successes / trials
    z2 = _Z95 * _Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = _Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    # at 0 and at every trial a bound is the rate itself; rounding would move it a hair off
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return low, high


def with_intervals(result: QueryResult) -> QueryResult:
    """``result`` with columns ``RATE_low`` and ``RATE_high`` after each rate: its 95% Wilson
    interval (the rate's denominator columns must be in ``result``).

    >>> r = QueryResult(("deals", "calls", "call_share"), ("BIGINT",) * 2 + ("DOUBLE",),
    ...                 [(10, 7, 0.7)])
    >>> wide = with_intervals(r)
    >>> wide.columns[2:], [round(x, 3) for x in wide.rows[0][3:]]
    (('call_share', 'call_share_low', 'call_share_high'), [0.397, 0.892])
    """
    at = {name: i for i, name in enumerate(result.columns)}
    columns: list[str] = []
    types: list[str] = []
    for name, kind in zip(result.columns, result.types, strict=True):
        columns.append(name)
        types.append(kind)
        if name in RATE_DENOMINATORS:
            columns += [f"{name}_low", f"{name}_high"]
            types += ["DOUBLE", "DOUBLE"]
    bounds = {name: _intervals(result.rows, at, name) for name in at if name in RATE_DENOMINATORS}
    rows = []
    for r, row in enumerate(result.rows):
        cells: list[Any] = []
        for name, value in zip(result.columns, row, strict=True):
            cells.append(value)
            if name in bounds:
                cells += (bounds[name][0][r], bounds[name][1][r])
        rows.append(tuple(cells))
    return QueryResult(tuple(columns), tuple(types), rows)


def intervals_beside(result: QueryResult) -> QueryResult:
    """Each rate of :func:`with_intervals` and its interval as one text cell, for a table.

    >>> r = QueryResult(("call_share", "call_share_low", "call_share_high"), ("DOUBLE",) * 3,
    ...                 [(0.7, 0.3966, 0.8922), (None, None, None)])
    >>> intervals_beside(r).rows
    [('0.700 [0.40, 0.89]',), (None,)]
    """
    bounds = {f"{rate}_{end}" for rate in RATE_DENOMINATORS for end in ("low", "high")}
    at = {name: i for i, name in enumerate(result.columns)}
    keep = [i for i, name in enumerate(result.columns) if name not in bounds]
    rows = []
    for row in result.rows:
        cells: list[Any] = []
        for i in keep:
            name, value = result.columns[i], row[i]
            low, high = at.get(f"{name}_low"), at.get(f"{name}_high")
            if value is None or low is None or high is None:
                cells.append(value)
            elif row[low] is None or row[high] is None:
                cells.append(f"{value:.3f}")
            else:
                cells.append(f"{value:.3f} [{row[low]:.2f}, {row[high]:.2f}]")
        rows.append(tuple(cells))
    types = tuple(
        "VARCHAR" if result.columns[i] in RATE_DENOMINATORS else result.types[i] for i in keep
    )
    return QueryResult(tuple(result.columns[i] for i in keep), types, rows)


def _intervals(
    rows: Sequence[tuple[Any, ...]], at: dict[str, int], rate: str
) -> tuple[list[float | None], list[float | None]]:
    """The low and high ends of :func:`wilson_interval` for one rate of every row (None where
    a term of its denominator or the rate is missing, or there are no trials), worked out a
    column at a time with the same arithmetic: the thousands of rows of a large warehouse."""
    nothing: list[float | None] = [None] * len(rows)
    trials = np.zeros(len(rows))
    known = np.ones(len(rows), dtype=bool)
    for term in RATE_DENOMINATORS[rate]:
        name = term.lstrip("-")
        if name not in at:
            return nothing, nothing
        values = [row[at[name]] for row in rows]
        known &= np.array([v is not None for v in values], dtype=bool)
        counts = np.array([v or 0 for v in values], dtype=np.float64)
        trials += -counts if term.startswith("-") else counts
    rates = [row[at[rate]] for row in rows]
    known &= np.array([v is not None for v in rates], dtype=bool) & (trials > 0)
    t = np.where(known, trials, 1.0)
    successes = np.round(np.array([v or 0.0 for v in rates], dtype=np.float64) * t)
    p = successes / t
    z2 = _Z95 * _Z95
    centre = (p + z2 / (2 * t)) / (1 + z2 / t)
    half = _Z95 * np.sqrt(p * (1 - p) / t + z2 / (4 * t * t)) / (1 + z2 / t)
    low = np.where(successes <= 0, 0.0, np.maximum(0.0, centre - half)).tolist()
    high = np.where(successes >= t, 1.0, np.minimum(1.0, centre + half)).tolist()
    return (
        [x if k else None for x, k in zip(low, known.tolist(), strict=True)],
        [x if k else None for x, k in zip(high, known.tolist(), strict=True)],
    )


@dataclass(frozen=True)
class StatsRequest:
    """What ``twentynine stats`` asks for: the rows, their scope, order and columns."""

    player: str | None = None
    by_role: bool = False
    min_deals: int = 1
    preset: str | None = None
    since: dt.date | None = None
    sort: str | None = None
    columns: tuple[str, ...] = ()


@dataclass(frozen=True)
class StatsReport:
    """The rows (each rate followed by its interval, as :func:`with_intervals` gives them),
    and notes for the reader (said on standard error)."""

    result: QueryResult
    notes: tuple[str, ...] = ()


ONE_DEAL_SHARE: Final = 0.5
"""The share of one-deal players above which per-player figures are said to mean little
(the players report then reports by role)."""


def stats_report(wh: Warehouse, request: StatsRequest) -> StatsReport:
    """The statistics of ``request`` on an open warehouse.

    Raises :class:`PlayerNotFoundError` and :class:`StatsOptionError`.
    """
    if request.by_role and request.player is not None:
        raise StatsOptionError(wh.name, "--player and --by role ask two things: give one")
    scope = ddl.SCOPE
    in_scope: dict[str, Any] = {}
    conditions = []
    if request.preset is not None:
        conditions.append("preset = $preset")
        in_scope["preset"] = request.preset
    if request.since is not None:
        conditions.append("started_at >= $since")
        in_scope["since"] = dt.datetime.combine(request.since, dt.time())
    if conditions:
        scope += " WHERE " + " AND ".join(conditions)
    sql = ddl.stats_sql("role" if request.by_role else "player", scope)
    key = "role" if request.by_role else "player_id"
    names = (key, "meaning" if request.by_role else "name", *(s.column for s in PLAYER_STATS))
    for column in (request.sort, *request.columns):
        if column is not None and column not in names:
            raise StatsOptionError(wh.name, _no_column(column, names))
    where = "deals >= $min_deals"
    params = {**in_scope, "min_deals": request.min_deals}
    if request.player is not None:
        where += f" AND player_id IN ({_MATCHING_IDS})"
        params["player"] = request.player
    if request.sort is None and request.by_role:
        order = "strpos('P1 P2 P3 P4 caller partner defender', role)"
    elif request.sort is None:
        order = f"deals DESC, {key}"
    elif request.sort in (key, "name", "meaning"):
        order = request.sort
    else:
        order = f"{request.sort} DESC NULLS LAST, {key}"
    result = wh.query(f"SELECT * FROM ({sql}) WHERE {where} ORDER BY {order}", params)
    if request.player is not None and not result.rows:
        known = wh.query(f"SELECT count(*) FROM ({_MATCHING_IDS})", {"player": request.player})
        if not known.rows[0][0]:
            raise _unknown_player(wh, request.player)
    notes: list[str] = []
    if not request.by_role and request.player is None:
        notes.extend(_one_deal_note(wh, scope, in_scope))
    if request.since is not None:
        notes.extend(_undated_note(wh, request.preset))
    result = with_intervals(result)
    if request.columns:
        wanted = [*names[:2]]
        for column in request.columns:
            wanted.append(column)
            if column in RATE_DENOMINATORS:
                wanted += [f"{column}_low", f"{column}_high"]
        keep = [result.columns.index(c) for c in dict.fromkeys(wanted)]
        result = QueryResult(
            tuple(result.columns[i] for i in keep),
            tuple(result.types[i] for i in keep),
            [tuple(row[i] for i in keep) for row in result.rows],
        )
    return StatsReport(result, tuple(notes))


def _no_column(column: str, names: Sequence[str]) -> str:
    close = difflib.get_close_matches(column, list(names), n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    return f"no statistic {column!r}; {hint}the columns are " + ", ".join(names)


def _one_deal_note(wh: Warehouse, scope: str, params: dict[str, Any]) -> list[str]:
    counts = wh.query(
        "SELECT count(*), count(*) FILTER (deals = 1) FROM (SELECT key, sum(deals) AS deals "
        f"FROM match_stats WHERE counted_by = 'player' AND match_id IN ({scope}) GROUP BY key)",
        params,
    ).rows[0]
    players, single = int(counts[0]), int(counts[1])
    if not players or single / players <= ONE_DEAL_SHARE:
        return []
    return [
        f"{part_of(single, players, 'player')} {'has' if single == 1 else 'have'} played a "
        "single deal (does the source give "
        "players a new id every game?): per-player rates say little here; "
        "`twentynine stats --by role` counts the same deals by auction position (P1-P4) and "
        "by caller, partner and defender"
    ]


def _undated_note(wh: Warehouse, preset: str | None) -> list[str]:
    """What ``--since`` leaves out without a word otherwise: the matches with no date."""
    where = "" if preset is None else " WHERE preset = $preset"
    params = {} if preset is None else {"preset": preset}
    undated, total = wh.query(
        f"SELECT count(*) FILTER (started_at IS NULL), count(*) FROM matches{where}", params
    ).rows[0]
    if not undated:
        return []
    return [
        f"{part_of(undated, total, 'match')} "
        + (
            "has no date (no start or date in its meta) and is"
            if undated == 1
            else "have no date (no start or date in their meta) and are"
        )
        + " left out by --since"
    ]


def run_stats(*, db: str | Path = DEFAULT_DB, player: str | None = None) -> QueryResult:
    """``twentynine stats [--db FILE] [--player NAME]``: the ``player_stats`` rows.

    With ``--player``, print it with :meth:`QueryResult.transposed` for one column per
    player. Raises the errors of :func:`~reports.warehouse.store.open_warehouse` and
    :class:`PlayerNotFoundError`.
    """
    with open_warehouse(db, read_only=True) as wh:
        return player_stats(wh, player)


def run_stats_report(request: StatsRequest, *, db: str | Path = DEFAULT_DB) -> StatsReport:
    """``twentynine stats`` with its options: :func:`stats_report` on a read-only warehouse."""
    with open_warehouse(db, read_only=True) as wh:
        return stats_report(wh, request)


def markdown_stats() -> str:
    """The statistics table of ``docs/warehouse.md``.

    >>> markdown_stats().splitlines()[2]
    '| `matches` | Matches played. | matches with the player at a seat | - |'
    """
    lines = ["| column | meaning | numerator | denominator |", "|---|---|---|---|"]
    lines.extend(
        f"| `{s.column}` | {s.meaning} | {s.numerator} | {s.denominator} |" for s in PLAYER_STATS
    )
    return "\n".join(lines)
