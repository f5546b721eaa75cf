"""Player and partnership statistics: each defined once, with its numerator and denominator.

The statistics are views in the warehouse (``player_stats``, ``player_call_levels``,
``partnership_stats``, built on ``player_deals``); :data:`PLAYER_STATS` says what every
column of ``player_stats`` counts, and ``docs/warehouse.md`` shows the same table.

>>> import tempfile
>>> from pathlib import Path
>>> from replay import random_match
>>> from reports.warehouse.store import open_warehouse
>>> from schema import Rules
>>> with open_warehouse(Path(tempfile.mkdtemp()) / "w.duckdb") as wh:
...     _ = wh.load([random_match(Rules.preset("pagat"), seed=2)])
...     stats = player_stats(wh, "Bot N")
>>> stats.rows[0][:2], stats.columns[3]
(('Bot N', 'Bot N'), 'deals')
"""

from __future__ import annotations

from pathlib import Path
from typing import Final, NamedTuple

from reports.warehouse.errors import WarehouseError
from reports.warehouse.store import DEFAULT_DB, QueryResult, Warehouse, open_warehouse


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
    Stat("doubles", "Doubles said.", "`double` actions by the player", "-"),
    Stat(
        "doubles_won",
        "Doubles that succeeded: the doubled call failed.",
        "doubles where the call failed",
        "`doubles`",
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
    """``--player NAME`` names no stored player (by id or by name)."""

    def __init__(self, path: str, player: str) -> None:
        super().__init__(path, f"no player {player!r} (by id or any name) in this warehouse")


# A player is found by id, by the name first stored, or by any name a match recorded for that
# id (a Bhoos id may be stored first with no name, and later seen with one).
_MATCHING_IDS: Final = (
    "SELECT player_id FROM players WHERE player_id = $player OR name = $player "
    "UNION SELECT player_id FROM match_players WHERE name = $player"
)


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
            raise PlayerNotFoundError(wh.name, player)
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


def run_stats(*, db: str | Path = DEFAULT_DB, player: str | None = None) -> QueryResult:
    """``twentynine stats [--db FILE] [--player NAME]``: the ``player_stats`` rows.

    With ``--player``, print it with :meth:`QueryResult.transposed` for one column per
    player. Raises the errors of :func:`~reports.warehouse.store.open_warehouse` and
    :class:`PlayerNotFoundError`.
    """
    with open_warehouse(db, read_only=True) as wh:
        return player_stats(wh, player)


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
