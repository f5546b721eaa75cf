"""The warehouse schema: every table's columns (type and meaning) in one place, and the views.

The column lists here are the single source of the ``CREATE TABLE`` statements, of the Arrow
schemas the loader fills, and of the column tables in ``docs/warehouse.md`` (a test keeps the
page in step). The schema version is stored in ``warehouse_info``; :data:`MIGRATIONS` takes
an older file up one version at a time.

>>> SCHEMA_VERSION, [c.name for c in TABLES["pairs"]][:3]
(8, ['match_id', 'deal_no', 'action_no'])
>>> create_table_sql("pairs").splitlines()[0]
'CREATE TABLE pairs ('
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import pyarrow as pa

SCHEMA_VERSION: Final = 8
"""The schema this code writes and reads; a file with a higher one is refused."""


@dataclass(frozen=True, slots=True)
class Column:
    """One column: its name, DuckDB type, whether it may be NULL, and what it means."""

    name: str
    sql_type: str
    doc: str
    nullable: bool = True

    @property
    def arrow_type(self) -> pa.DataType:
        """The Arrow type the loader builds for this column."""
        return _ARROW_TYPES[self.sql_type]


_ARROW_TYPES: Final[dict[str, pa.DataType]] = {
    "VARCHAR": pa.string(),
    "JSON": pa.string(),
    "INTEGER": pa.int32(),
    "SMALLINT": pa.int16(),
    "BIGINT": pa.int64(),
    "BOOLEAN": pa.bool_(),
    "DOUBLE": pa.float64(),
    "TIMESTAMP": pa.timestamp("us"),
    "VARCHAR[]": pa.list_(pa.string()),
    "BIGINT[]": pa.list_(pa.int64()),
}


def _c(name: str, sql_type: str, doc: str, *, null: bool = True) -> Column:
    return Column(name, sql_type, doc, null)


_MATCH_KEY: Final = _c(
    "match_id", "VARCHAR", "The match: the log's `id`, or its content hash.", null=False
)
_DEAL_NO: Final = _c("deal_no", "SMALLINT", "The deal's number in the match, from 1.", null=False)
# Columns of every action row (plays and other actions alike).
_ACTION_NO: Final = _c(
    "action_no",
    "SMALLINT",
    "Index in the deal's `actions`, from 0 (as findings count).",
    null=False,
)
_TIME: Final = _c("t", "BIGINT", "Milliseconds since the match began, where recorded.")
_NOTE: Final = _c("note", "VARCHAR", "Free commentary, where recorded.")

ACTION_CODES: Final[dict[str, str]] = {
    "bid": "b",
    "pass": "p",
    "ditto": "d",
    "trump": "t",
    "double": "x",
    "redouble": "y",
    "set": "z",
    "single_hand": "h",
    "redeal": "r",
    "show": "s",
    "play": "c",
    "pair": "q",
}
"""The letter ``deal_cards.types`` stores for each action type."""

_MATCH_STATS_COUNTS: Final[tuple[tuple[str, str], ...]] = (
    ("deals", "Deals the key counts (a seat of a deal, under each of its keys)."),
    ("calls", "Of which the seat won the auction."),
    ("calls_made", "Calls won with a known result that were made."),
    ("calls_failed", "Calls won with a known result that failed."),
    ("call_sum", "Sum of the winning bids of those calls."),
    ("call_count", "Calls won with a winning bid (the denominator of `average_call`)."),
    ("defences", "Calls of the other side with a known result."),
    ("defences_broken", "Of which failed."),
    ("caller_points", "Card points of the seat's side in the calls won with a known result."),
    ("defender_points", "Card points of the seat's side in the defences."),
    ("single_hands", "Single hands the seat played."),
    ("single_hands_won", "Of which won."),
    ("show_chances", "Show chances (`show_chances` rows) of the seat."),
    ("shows_asked", "Of which asked (or, as caller, shown)."),
    ("asked_then_trumped", "Asked, then played a trump."),
    ("asked_then_won_trick", "Asked, and the seat's side won the trick."),
    ("not_asked_then_won_trick", "Not asked, and the seat's side won the trick."),
    ("caller_show_chances", "Show chances as the caller."),
    ("caller_shows", "Of which shown."),
    ("caller_shows_won", "Shown, and the trick won."),
    ("caller_not_shown", "Not shown."),
    ("caller_not_shown_won", "Not shown, and the trick won."),
    ("defender_show_chances", "Show chances as a defender."),
    ("defender_asks", "Of which asked."),
    ("defender_asks_won", "Asked, and the trick won."),
    ("defender_not_asked", "Not asked."),
    ("defender_not_asked_won", "Not asked, and the trick won."),
    ("doubles", "`double` actions of the seat."),
    ("doubles_won", "Of which the doubled call failed."),
    ("double_points_won", "Game points those doubles won (the swing where positive)."),
    ("double_points_lost", "Game points those doubles lost."),
    ("redoubles", "`redouble` actions of the seat."),
    ("redoubles_won", "Of which the call was made."),
    ("sets", "`set` actions of the seat."),
    ("sets_won", "Of which the call failed."),
    ("pairs", "Pairs the seat showed that the engine accepted."),
    ("findings", "Findings about the seat's own actions."),
)
"""The counts and sums of ``match_stats`` after ``match_id``, ``counted_by`` and ``key``."""

HAND_FEATURES: Final = (
    "known",
    "f4_points",
    "f4_jacks",
    "f4_nines",
    "f4_aces",
    "f4_tens",
    "f4_longest",
    "f4_longest_suit",
    "f4_suits",
    "f4_trumps",
    "points",
    "trumps",
)
"""The hand features ``deal_cards.hand_features`` keeps for each recorded hand, in order."""

TABLES: Final[dict[str, tuple[Column, ...]]] = {
    "warehouse_info": (
        _c(
            "key",
            "VARCHAR",
            "`schema_version`, `created_at` or `created_by`; `analysed:` and a match id: what "
            "its annotations were worked out with, as JSON (the options of "
            "`analysis.run.RUN_OPTIONS`, and `deals` when they cover only those deals).",
            null=False,
        ),
        _c("value", "VARCHAR", "Its value, as text.", null=False),
    ),
    "matches": (
        _c(
            "match_id",
            "VARCHAR",
            "The log's `id`, or the first 16 hex digits of the SHA-256 of its canonical "
            "JSON when it has none (as `twentynine audit` names it). Primary key.",
            null=False,
        ),
        _c("log_id", "VARCHAR", "The log's own `id` (NULL when `match_id` is the hash)."),
        _c("preset", "VARCHAR", "The rules preset the log names.", null=False),
        _c(
            "rules",
            "JSON",
            "The log's `rules` value as given: a name, or preset + overrides.",
            null=False,
        ),
        _c(
            "direction", "VARCHAR", "`clockwise` or `counterclockwise`, from the rules.", null=False
        ),
        _c(
            "started_at",
            "TIMESTAMP",
            "When the match began, from `meta` (`start`, `started_at`, `start_time`, `date`) "
            "when it holds an ISO 8601 time; UTC.",
        ),
        _c("meta", "JSON", "The log's free `meta` object."),
        _c("deals", "SMALLINT", "Deals in the log, thrown-in ones included.", null=False),
        _c("score_ns", "SMALLINT", "Final match score of NS, as replayed.", null=False),
        _c("score_ew", "SMALLINT", "Final match score of EW, as replayed.", null=False),
        _c("winner", "VARCHAR", "`NS`, `EW`, or NULL when no team reached the target."),
        _c("has_result", "BOOLEAN", "The log records a match `result`.", null=False),
        _c("recorded_score_ns", "INTEGER", "NS score as the log records it."),
        _c("recorded_score_ew", "INTEGER", "EW score as the log records it."),
        _c("recorded_winner", "VARCHAR", "The winner as the log records it."),
        _c("errors", "INTEGER", "Findings of severity `error` in the match.", null=False),
        _c("warnings", "INTEGER", "Findings of severity `warning`.", null=False),
        _c("source", "VARCHAR", "The file it was loaded from (`<stdin>` for standard input)."),
        _c("source_line", "INTEGER", "Its line in that file (JSONL, text), or NULL."),
        _c("loaded_at", "TIMESTAMP", "When it was stored (UTC, as its batch began).", null=False),
        _c(
            "content_hash",
            "VARCHAR",
            "16 hex digits of the SHA-256 of the log's content: a load of the same id with "
            "other content says so (and `--replace` stores it). NULL for matches stored "
            "before schema version 4.",
        ),
    ),
    "match_players": (
        _MATCH_KEY,
        _c("seat", "VARCHAR", "`N`, `E`, `S` or `W`.", null=False),
        _c("team", "VARCHAR", "`NS` or `EW`.", null=False),
        _c(
            "player_id",
            "VARCHAR",
            "The player's `id` where the log gives one, else the name.",
            null=False,
        ),
        _c("name", "VARCHAR", "The display name in this match.", null=False),
        _c("ref_id", "VARCHAR", "The `id` of a `{name, id}` entry; NULL for a bare name."),
    ),
    "players": (
        _c("player_id", "VARCHAR", "As in `match_players`. Primary key.", null=False),
        _c("name", "VARCHAR", "The name the player was first stored with.", null=False),
        _c("first_match_id", "VARCHAR", "The first match stored with the player.", null=False),
        _c("first_loaded_at", "TIMESTAMP", "When that match was stored.", null=False),
    ),
    "deals": (
        _MATCH_KEY,
        _DEAL_NO,
        _c("dealer", "VARCHAR", "The dealer's seat.", null=False),
        _c("caller", "VARCHAR", "Seat that won the auction (NULL: no call, e.g. all passed)."),
        _c("caller_team", "VARCHAR", "The caller's team."),
        _c("call", "SMALLINT", "The winning bid."),
        _c(
            "trump",
            "VARCHAR",
            "Trump suit letter when known (NULL: not chosen, unseen, or no trump).",
        ),
        _c("trump_mode", "VARCHAR", "`no_trump`, `reverse`, or NULL for a trump suit."),
        _c("seventh", "BOOLEAN", "The caller called the seventh card.", null=False),
        _c("show_seat", "VARCHAR", "Seat that asked for (or showed) the trump; NULL: never."),
        _c("show_trick", "SMALLINT", "Trick (from 1) in which the trump was shown."),
        _c(
            "show_action",
            "SMALLINT",
            "Index in `actions` of the show (of the play, when automatic).",
        ),
        _c("target", "SMALLINT", "Points the caller's side needs, after any Pair."),
        _c("stake", "SMALLINT", "Game points at stake (after doubling; single-hand points)."),
        _c("doubling", "VARCHAR", "`double`, `redouble`, `set`, or NULL."),
        _c("pairs", "SMALLINT", "Pairs shown in the deal.", null=False),
        _c("single_hand", "VARCHAR", "Seat that played single hand, or NULL."),
        _c(
            "thrown_in",
            "VARCHAR",
            "Throw-in reason (`all_pass`, `zero_point`, `redeal`, `never_shown`, "
            "`seventh_no_scoring_trump`, `opponents_no_trump`), or NULL.",
        ),
        _c(
            "made",
            "BOOLEAN",
            "Call made (single hand: all tricks won); NULL when thrown in or unfinished.",
        ),
        _c("points_ns", "SMALLINT", "Card points won by NS (as replayed).", null=False),
        _c("points_ew", "SMALLINT", "Card points won by EW.", null=False),
        _c("caller_points", "SMALLINT", "Card points of the caller's team."),
        _c("defender_points", "SMALLINT", "Card points of the other team."),
        _c("score_change_ns", "SMALLINT", "Change of the NS match score.", null=False),
        _c("score_change_ew", "SMALLINT", "Change of the EW match score.", null=False),
        _c("score_ns", "SMALLINT", "NS match score after the deal.", null=False),
        _c("score_ew", "SMALLINT", "EW match score after the deal.", null=False),
        _c("complete", "BOOLEAN", "Played to its end (all tricks) or thrown in.", null=False),
        _c(
            "decided",
            "BOOLEAN",
            "Over: complete, or stopped once decided where the rules allow.",
            null=False,
        ),
        _c("actions", "SMALLINT", "Actions in the log's deal.", null=False),
        _c("tricks", "SMALLINT", "Tricks completed.", null=False),
        _c("findings", "SMALLINT", "Findings about the deal.", null=False),
        _c("errors", "SMALLINT", "Of which errors.", null=False),
        _c("hands_known", "BOOLEAN", "All 32 cards of the deal are recorded.", null=False),
        _c("has_hands", "BOOLEAN", "The log's deal has a `hands` object.", null=False),
        _c("has_result", "BOOLEAN", "The log's deal has a `result` object.", null=False),
        _c("recorded_points_ns", "INTEGER", "NS card points as the log records them."),
        _c("recorded_points_ew", "INTEGER", "EW card points as recorded."),
        _c("recorded_score_ns", "INTEGER", "NS match score after the deal, as recorded."),
        _c("recorded_score_ew", "INTEGER", "EW match score after the deal, as recorded."),
        _c("recorded_thrown_in", "VARCHAR", "Throw-in reason as recorded."),
        _c(
            "predicted_make",
            "DOUBLE",
            "The caller's chance to make the call, from its view at its last bid (its first "
            "four cards, its position, the auction, the call), by the contract model "
            "(docs/analysis.md), the deal taken as a fair shuffle whatever the preset; NULL "
            "without a call or the caller's first four, and for a "
            "single hand (schema 7).",
        ),
        _c("make_model", "VARCHAR", "The version of the contract model behind it."),
    ),
    "deal_cards": (
        _MATCH_KEY,
        _DEAL_NO,
        _c(
            "types",
            "VARCHAR",
            "Each action's type, one letter per action, in order (letter n is action n - 1): "
            + ", ".join(f"`{code}` {name}" for name, code in ACTION_CODES.items())
            + ".",
            null=False,
        ),
        _c("seats", "VARCHAR", "Who made each action, one letter per action.", null=False),
        _c(
            "cards",
            "VARCHAR",
            "Two characters per action: the card of a `play`, or of a `trump` action (the "
            "face-down card), else `--`.",
            null=False,
        ),
        _c(
            "trick_nos",
            "VARCHAR",
            "One character per action: the trick (from 1) as `1` to `8` (code point 48 + the "
            "number), or `0`: of a play, the replayed trick it went to (`0` once the log's "
            "plays part from the replayed tricks); of a `show` or `pair`, the trick in progress.",
            null=False,
        ),
        _c(
            "bids",
            "BIGINT[]",
            "Each action's `bid` value (NULL for other actions), up to the last bid; NULL when "
            "the deal has no bid.",
        ),
        _c(
            "extras",
            "VARCHAR",
            "Three characters per action: the suit of a `trump` or `show` action, a `trump` "
            "action's `seventh` (`y`, `n`) and `mode` (`n` no_trump, `r` reverse); `-` where not "
            "given. NULL when no action gives one.",
        ),
        _c(
            "times",
            "BIGINT[]",
            "Each action's `t`; NULL when no action of the deal records one.",
        ),
        _c("notes", "VARCHAR[]", "Each action's `note`; NULL when no action records one."),
        _c(
            "chances",
            "VARCHAR",
            "Two characters per play where the seat could not follow suit before the trump was "
            "shown, in the order played: the action's index (code point 48 + the index), then "
            "the suit led (upper case: the seat asked; lower case: it did not). NULL when the "
            "deal has no such play.",
        ),
        _c("show_rule", "VARCHAR", "The rules' `show_trump` where `chances` is set."),
        _c(
            "hand_seats",
            "VARCHAR",
            "The seats the log's `hands` names, one letter each (empty without `hands`).",
            null=False,
        ),
        _c(
            "hand_cards",
            "VARCHAR",
            "Their cards: 16 characters per seat, in the order dealt, `??` for an unseen card.",
            null=False,
        ),
        _c("trick_leaders", "VARCHAR", "One letter per completed trick: who led.", null=False),
        _c("trick_winners", "VARCHAR", "One letter per trick: who won it.", null=False),
        _c(
            "trick_points",
            "VARCHAR",
            "One character per trick: its card points (code point 48 + the points).",
            null=False,
        ),
        _c(
            "trick_seats",
            "VARCHAR",
            "Four letters per trick: who played each card, from the leader (`-` pads a "
            "three-card trick; `?` where a file migrated from schema 1 did not record it).",
            null=False,
        ),
        _c(
            "trick_cards",
            "VARCHAR",
            "Eight characters per trick: its cards in the order played (`--` pads a three-card "
            "trick).",
            null=False,
        ),
        _c(
            "hand_features",
            "VARCHAR",
            f"{len(HAND_FEATURES)} characters per seat of `hand_seats`: the features of its hand "
            "that the `hands` view shows (" + ", ".join(f"`{f}`" for f in HAND_FEATURES) + "), "
            "each as code point 48 + the number (`f4_longest_suit`: its letter), `-` for "
            "NULL; worked out once at load (schema 6).",
            null=False,
        ),
    ),
    "pairs": (
        _MATCH_KEY,
        _DEAL_NO,
        _c("action_no", "SMALLINT", "Index of the `pair` action.", null=False),
        _c("seat", "VARCHAR", "Who showed the Pair.", null=False),
        _c("team", "VARCHAR", "Their team.", null=False),
        _c(
            "target_change",
            "SMALLINT",
            "How far it moved the caller's target (negative: lowered).",
            null=False,
        ),
    ),
    "findings": (
        _MATCH_KEY,
        _c("deal_no", "SMALLINT", "The deal, or NULL for a finding about the whole match."),
        _c("action_no", "SMALLINT", "The action, or NULL for the deal as a whole."),
        _c("seat", "VARCHAR", "Who made that action (NULL without one)."),
        _c("code", "VARCHAR", "Stable code from the findings catalogue.", null=False),
        _c("severity", "VARCHAR", "`error` or `warning`.", null=False),
        _c("message", "VARCHAR", "What, naming the seat, card or bid and the rule.", null=False),
    ),
    "annotations": (
        _c("match_id", "VARCHAR", "The match, as `matches.match_id`.", null=False),
        _c("deal", "INTEGER", "The deal's number in the match, from 1.", null=False),
        _c(
            "action",
            "INTEGER",
            "Index of the judged action in the deal's `actions`, from 0; NULL for `par`.",
        ),
        _c("seat", "VARCHAR", "Who decided (the caller for `par`)."),
        _c(
            "kind",
            "VARCHAR",
            "`card`, `show`, `bid` (a bid, pass or ditto), `trump`, `double`, `redouble`, "
            "`set`, `single_hand` or `par`.",
            null=False,
        ),
        _c(
            "method",
            "VARCHAR",
            "`exact` (hindsight, all cards known) or `sampled` (what the seat knew: sampled "
            "layouts, or for a bid the contract model).",
            null=False,
        ),
        _c(
            "chosen",
            "VARCHAR",
            "What was done: `JS`, `show`, `no show`, `bid 18`, `pass`, "
            "`trump H`, `double`, `no double`.",
            null=False,
        ),
        _c(
            "best", "VARCHAR", "The best alternative, same form (= `chosen` when best).", null=False
        ),
        _c("value_chosen", "DOUBLE", "Value of the choice, in `unit`.", null=False),
        _c("value_best", "DOUBLE", "Value of the best alternative, in `unit`.", null=False),
        _c(
            "loss",
            "DOUBLE",
            "`value_best - value_chosen`, seen from the deciding side (0 or more).",
            null=False,
        ),
        _c(
            "unit",
            "VARCHAR",
            "`card_points`, `make_probability` or `game_points` (expected score).",
            null=False,
        ),
        _c(
            "samples",
            "INTEGER",
            "Layouts sampled (sampled annotations only; NULL for a bid, judged by the contract "
            "model without layouts).",
        ),
        _c(
            "ci_low",
            "DOUBLE",
            "Low end of the 95% interval of `loss` (sampled only; for a bid, the contract "
            "model's own uncertainty).",
        ),
        _c("ci_high", "DOUBLE", "High end of that interval (sampled only)."),
        _c(
            "label",
            "VARCHAR",
            "`inaccuracy`, `mistake`, `blunder` (sampled only: the highest threshold `loss` "
            "reaches, at most one above the highest the whole 95% interval reaches; none "
            "unless that interval clears the first; docs/analysis.md, Labels), or NULL.",
        ),
        _c("explanation", "VARCHAR", "One line a player understands.", null=False),
        _c(
            "detail",
            "VARCHAR",
            "JSON text: `alternatives` (each `choice`, `value`, `ci_low`, `ci_high`), best "
            "first, and facts of the kind (`par`: `par`, `actual`, `gave_away`).",
            null=False,
        ),
        _c(
            "seed", "BIGINT", "The seed used: the same seed gives the same annotations.", null=False
        ),
    ),
    "match_stats": (
        _MATCH_KEY,
        _c("counted_by", "VARCHAR", "`player` or `role`: what `key` is.", null=False),
        _c(
            "key",
            "VARCHAR",
            "A player (`player_id`), or a role (`P1` ... `P4`, `caller`, `partner`, "
            "`defender`, as in `role_stats`).",
            null=False,
        ),
        *(_c(name, "BIGINT", doc, null=False) for name, doc in _MATCH_STATS_COUNTS),
    ),
}
"""Every table, its columns in order."""

VIEW_COLUMNS: Final[dict[str, tuple[Column, ...]]] = {
    "other_actions": (
        _MATCH_KEY,
        _DEAL_NO,
        _ACTION_NO,
        _c("seat", "VARCHAR", "Who acted.", null=False),
        _c(
            "type",
            "VARCHAR",
            "`bid`, `pass`, `ditto`, `trump`, `double`, `redouble`, `set`, `single_hand`, "
            "`redeal`, `show` or `pair` (every type but `play`).",
            null=False,
        ),
        _c("bid", "BIGINT", "The value of a `bid`."),
        _c("card", "VARCHAR", "A `trump` action's face-down card."),
        _c("suit", "VARCHAR", "The suit of a `trump` or `show` action."),
        _c("seventh", "BOOLEAN", "A `trump` action's `seventh` flag."),
        _c("mode", "VARCHAR", "A `trump` action's `mode` (`no_trump`, `reverse`)."),
        _c("trick_no", "SMALLINT", "For `show` and `pair`: the trick in progress."),
        _c(
            "standing_bid",
            "BIGINT",
            "For `bid`, `pass`, `ditto`: the highest bid before it (NULL: none yet).",
        ),
        _TIME,
        _NOTE,
    ),
    "plays": (
        _MATCH_KEY,
        _DEAL_NO,
        _ACTION_NO,
        _c("seat", "VARCHAR", "Who played.", null=False),
        _c("card", "VARCHAR", "The card.", null=False),
        _c(
            "trick_no",
            "SMALLINT",
            "The trick (from 1) it went to, as replayed; NULL once the log's plays no "
            "longer match the replayed tricks.",
        ),
        _TIME,
        _NOTE,
    ),
    "tricks": (
        _MATCH_KEY,
        _DEAL_NO,
        _c("trick_no", "SMALLINT", "The trick's number, from 1.", null=False),
        _c("leader", "VARCHAR", "Seat that led.", null=False),
        _c("winner", "VARCHAR", "Seat that won it.", null=False),
        _c("winner_team", "VARCHAR", "The winner's team.", null=False),
        _c("points", "SMALLINT", "Card points in it (with the last-trick bonus).", null=False),
        _c("led_suit", "VARCHAR", "Suit of the card led.", null=False),
        _c(
            "cards", "VARCHAR[]", "The four cards in the order played, from the leader.", null=False
        ),
        _c("winning_card", "VARCHAR", "The winner's card.", null=False),
        _c(
            "trump_counted",
            "BOOLEAN",
            "Trumps counted in this trick (the trump was shown in it or before).",
            null=False,
        ),
        _c("won_by_trump", "BOOLEAN", "Won by a trump on a lead of another suit.", null=False),
    ),
    "hands": (
        _MATCH_KEY,
        _DEAL_NO,
        _c("seat", "VARCHAR", "Whose hand.", null=False),
        _c("team", "VARCHAR", "That seat's team.", null=False),
        _c(
            "cards",
            "VARCHAR[]",
            "The 8 cards in the order dealt (first four: the bidding hand); NULL unseen.",
            null=False,
        ),
        _c("known", "SMALLINT", "How many of the 8 are recorded.", null=False),
        _c("f4_points", "SMALLINT", "Card points in the first four (NULL unless all 4 known)."),
        _c("f4_jacks", "SMALLINT", "Jacks in the first four."),
        _c("f4_nines", "SMALLINT", "Nines in the first four."),
        _c("f4_aces", "SMALLINT", "Aces in the first four."),
        _c("f4_tens", "SMALLINT", "Tens in the first four."),
        _c("f4_longest", "SMALLINT", "Length of the longest suit in the first four."),
        _c(
            "f4_longest_suit",
            "VARCHAR",
            "That suit (on a tie: the one with more points, then S, H, D, C).",
        ),
        _c("f4_suits", "SMALLINT", "Suits present in the first four."),
        _c(
            "f4_trumps",
            "SMALLINT",
            "Cards of the deal's trump suit in the first four (NULL: trump unknown).",
        ),
        _c("points", "SMALLINT", "Card points in all 8 (NULL unless all 8 known)."),
        _c("trumps", "SMALLINT", "Cards of the trump suit in all 8 (NULL: trump or hand unknown)."),
    ),
    "show_chances": (
        _MATCH_KEY,
        _DEAL_NO,
        _c("trick_no", "SMALLINT", "The trick.", null=False),
        _c(
            "action_no", "SMALLINT", "Index of the seat's `play` in the deal's actions.", null=False
        ),
        _c("seat", "VARCHAR", "The seat that could not follow.", null=False),
        _c("team", "VARCHAR", "Its team.", null=False),
        _c(
            "is_caller",
            "BOOLEAN",
            "The seat is the caller (who shows rather than asks).",
            null=False,
        ),
        _c(
            "show_rule",
            "VARCHAR",
            "The rules' `show_trump`: `optional` or `compulsory`.",
            null=False,
        ),
        _c(
            "asked",
            "BOOLEAN",
            "The seat asked for (or showed) the trump before playing.",
            null=False,
        ),
        _c("led_suit", "VARCHAR", "The suit led.", null=False),
        _c("card", "VARCHAR", "The card the seat played.", null=False),
        _c("trumped", "BOOLEAN", "That card is of the trump suit (NULL: trump unknown)."),
        _c("trick_winner", "VARCHAR", "Who won the trick (NULL: the deal stopped first)."),
        _c("trick_won", "BOOLEAN", "The seat's team won the trick."),
        _c("trick_points", "SMALLINT", "Card points in the trick."),
    ),
}
"""The views that unpack ``deal_cards``, their columns in order: one row per play, per
completed trick, per recorded hand, per show chance, as if each were a table."""

PRIMARY_KEYS: Final[dict[str, str]] = {
    "warehouse_info": "key",
    "matches": "match_id",
    "players": "player_id",
}
LOADED_TABLES: Final[tuple[str, ...]] = tuple(
    t for t in TABLES if t not in ("warehouse_info", "annotations")
)
"""The tables a load fills (``annotations`` is filled by ``twentynine analyze``; of these,
``match_stats`` is worked out in SQL from the others, :func:`match_stats_sql`)."""


def create_table_sql(table: str, leave_out: tuple[str, ...] = ()) -> str:
    """The ``CREATE TABLE`` statement of one table (without the columns ``leave_out``, which a
    later migration adds).

    >>> print(create_table_sql("warehouse_info"))
    CREATE TABLE warehouse_info (
        key VARCHAR NOT NULL PRIMARY KEY,
        value VARCHAR NOT NULL
    )
    """
    key = PRIMARY_KEYS.get(table)
    lines = []
    for col in TABLES[table]:
        if col.name in leave_out:
            continue
        line = f"    {col.name} {col.sql_type}"
        if not col.nullable:
            line += " NOT NULL"
        if col.name == key:
            line += " PRIMARY KEY"
        lines.append(line)
    return f"CREATE TABLE {table} (\n" + ",\n".join(lines) + "\n)"


def arrow_schema(table: str) -> pa.Schema:
    """The Arrow schema the loader builds for a table (JSON columns travel as text)."""
    return pa.schema([pa.field(c.name, c.arrow_type, nullable=c.nullable) for c in TABLES[table]])


# ---------------------------------------------------------------------------------- views
# Views stay thin: what SQL cannot easily derive (the moments a seat could not follow) is
# worked out at load time. The actions, tricks, hands and show chances of a deal are stored
# packed in its `deal_cards` row, a few strings instead of some fifty rows (what makes a load
# fast), and unpacked by the views `actions` (with `plays` and `other_actions`), `tricks`,
# `hands` and `show_chances`, whose columns (VIEW_COLUMNS) are those of the tables of
# schema 1. What every query would otherwise work out again over every deal is stored once
# at load (schema 6): the hand features (`hand_features`) and each match's statistics
# (`match_stats`).

_SEAT_POSITION: Final = """
    CASE {direction}
        WHEN 'clockwise' THEN (strpos('NESW', {seat}) - strpos('NESW', {dealer}) + 3) % 4 + 1
        ELSE (strpos('NESW', {dealer}) - strpos('NESW', {seat}) + 3) % 4 + 1
    END"""


def _position(seat: str, dealer: str = "d.dealer", direction: str = "m.direction") -> str:
    """The seat's place in the auction: 1 bids first ... 4 is the dealer."""
    return _SEAT_POSITION.format(seat=seat, dealer=dealer, direction=direction)


_ACTION_COLUMNS: Final = (
    "match_id, deal_no, action_no, seat, type, bid, card, suit, seventh, mode, trick_no, "
    "standing_bid, t, note"
)


_TYPE_NAMES: Final = "[" + ", ".join(f"'{name}'" for name in ACTION_CODES) + "]"
_CODE_LETTERS: Final = "".join(ACTION_CODES.values())
# One row per action (`i` from 0, `code` its type letter, `seat`), with the deal's strings to
# take the rest from; split strings unnest far faster than `substr` over a range.
_ACTION_ROWS: Final = """
    SELECT match_id, deal_no, types, cards, trick_nos, bids, extras, times, notes,
        unnest(range(length(types))) AS i, unnest(string_split(types, '')) AS code,
        unnest(string_split(seats, '')) AS seat
    FROM deal_cards"""


_AUCTION_CODES: Final = "".join(ACTION_CODES[t] for t in ("bid", "pass", "ditto"))
_NOT_AUCTION: Final = "".join(c for c in _CODE_LETTERS if c not in _AUCTION_CODES)
# The highest bid before action `i` of an auction decision made before the first card.
_STANDING_BID: Final = """CASE WHEN code IN ('b', 'p', 'd')
        AND (i + 1 < strpos(types, 'c') OR NOT contains(types, 'c'))
        THEN list_max(bids[1:i]) END"""


def _team(seat: str) -> str:
    return f"CASE WHEN {seat} IN ('N', 'S') THEN 'NS' ELSE 'EW' END"


def _code(text: str, at: str) -> str:
    """The number stored as one character (code point 48 + n) at position ``at``."""
    return f"(unicode(substr({text}, {at}, 1)) - 48)"


# Hand features from `h`, a hand's 16 characters (rank, suit, rank, suit, ...). `f4` packs the
# first four cards into one number: per suit (10 bits each, S H D C from the low end) 64 per
# card plus 4 per card point, so a suit's field orders suits by length, then points.
def _rank_points(i: int) -> str:
    # J 3, 9 2, A 1, T 1, others 0: half (rounded up) of the rank's place in 'TA_9_J'
    return f"((strpos('TA_9_J', substr(h, {2 * i + 1}, 1)) + 1) // 2)"


def _sum(terms: list[str]) -> str:
    return "(" + " + ".join(terms) + ")"


def _suit_field(i: int) -> str:
    return f"(10 * (strpos('SHDC', substr(h, {2 * i + 2}, 1)) - 1))"


_F4_PACKED: Final = _sum(
    [f"((64 + 4 * {_rank_points(i)})::BIGINT << {_suit_field(i)})" for i in range(4)]
)


def _field(k: int) -> str:
    return f"((f4 >> {10 * k}) & 1023)"


def _f4(expr: str) -> str:
    return f"CASE WHEN f4_known THEN ({expr})::SMALLINT END"


# `ranks` counts the ranks of the first four cards, 4 bits each: J, 9, A, T from bit 4 on.
_RANKS_PACKED: Final = _sum(
    [f"(1::BIGINT << (4 * strpos('J9AT', substr(h, {2 * i + 1}, 1))))" for i in range(4)]
)


def _rank_count(k: int) -> str:
    return f"((ranks >> {4 * k}) & 15)"


_F4_POINTS: Final = (
    f"3 * {_rank_count(1)} + 2 * {_rank_count(2)} + {_rank_count(3)} + {_rank_count(4)}"
)
_HAND_FEATURES: Final = f"""
    {_f4(_F4_POINTS)} AS f4_points,
    {_f4(_rank_count(1))} AS f4_jacks,
    {_f4(_rank_count(2))} AS f4_nines,
    {_f4(_rank_count(3))} AS f4_aces,
    {_f4(_rank_count(4))} AS f4_tens,
    {_f4(f"greatest({', '.join(_field(k) for k in range(4))}) // 64")} AS f4_longest,
    CASE WHEN f4_known THEN substr('SHDC', 4 - greatest(
        {", ".join(f"{_field(k)} * 4 + {3 - k}" for k in range(4))}) % 4, 1) END
        AS f4_longest_suit,
    {_f4(" + ".join(f"({_field(k)} > 0)::INT" for k in range(4)))} AS f4_suits,
    {_f4("((f4 >> (10 * (strpos('SHDC', trump) - 1))) & 1023) // 64")} AS f4_trumps,
    CASE WHEN all_known
        THEN ({_F4_POINTS} + {_sum([_rank_points(i) for i in range(4, 8)])})::SMALLINT END
        AS points,
    CASE WHEN all_known THEN (((f4 >> (10 * (strpos('SHDC', trump) - 1))) & 1023) // 64
        + {_sum([f"(substr(h, {2 * i + 2}, 1) = trump)::INT" for i in range(4, 8)])})::SMALLINT
        END AS trumps"""

# One row per recorded hand: `k` its place in `hand_seats` (from 0), `seat`, and the deal's
# strings to take its cards (and features) from.
_HAND_ROWS: Final = """
    SELECT match_id, deal_no, hand_cards,{features} unnest(range(length(hand_seats))) AS k,
        unnest(string_split(hand_seats, '')) AS seat
    FROM deal_cards"""

HANDS_COMPUTED: Final = f"""
SELECT match_id, deal_no, k, seat,
    (8 - (16 - length(replace(h, '?', ''))) // 2)::SMALLINT AS known,{_HAND_FEATURES}
FROM (
    SELECT c.match_id, c.deal_no, c.k, c.seat, c.h, d.trump, c.f4_known, c.all_known,
        -- unnest: computed once, not once per use
        unnest([CASE WHEN c.f4_known THEN {_F4_PACKED} END]) AS f4,
        unnest([CASE WHEN c.f4_known THEN {_RANKS_PACKED} END]) AS ranks
    FROM (
        SELECT match_id, deal_no, k, substr(hand_cards, 16 * k + 1, 16) AS h, seat,
            strpos(substr(h, 1, 8), '?') = 0 AS f4_known, strpos(h, '?') = 0 AS all_known
        FROM ({_HAND_ROWS.format(features="")})
    ) c
    JOIN deals d USING (match_id, deal_no)
)"""
"""The hand features worked out from the cards in SQL, one row per recorded hand (``k``: its
place in ``hand_seats``): what the ``hands`` view computed on every query up to schema 5,
and what the migration to schema 6 stores once (the loader works them out in Python,
``reports.warehouse.rows.hand_features``, to the same values)."""


def _stored_feature(packed: str, j: int) -> str:
    """Feature ``j`` of :data:`HAND_FEATURES` from ``packed``, one hand's characters."""
    char = f"substr({packed}, {j + 1}, 1)"
    if HAND_FEATURES[j] == "f4_longest_suit":
        return f"nullif({char}, '-')"
    return f"(nullif(unicode({char}), 45) - 48)::SMALLINT"


def _bid_feature(name: str) -> str:
    """A feature of the bidding seat's hand (``k``: its place in ``hand_seats``, -1 for none);
    the trumps only for the seat that won the auction, as the trump is its choice."""
    size = len(HAND_FEATURES)
    feature = _stored_feature(
        f"substr(hand_features, {size} * k + 1, {size})", HAND_FEATURES.index(name)
    )
    won = " AND caller = x.seat" if name == "f4_trumps" else ""
    return f"CASE WHEN k >= 0{won} THEN {feature} END AS {name}"


_BID_FEATURES: Final = ",\n    ".join(
    _bid_feature(name) for name in HAND_FEATURES if name.startswith("f4_")
)


def _packed_feature(name: str) -> str:
    """The character ``deal_cards.hand_features`` keeps for a feature of HANDS_COMPUTED."""
    if name == "f4_longest_suit":
        return f"coalesce({name}, '-')"
    return f"coalesce(chr(48 + {name}), '-')"


_CARD_LIST: Final = (
    "[" + ", ".join(f"nullif(substr(h, {2 * i + 1}, 2), '??')" for i in range(8)) + "]"
)
_TRICK_CARDS: Final = (
    "CASE WHEN substr(c, 7, 2) = '--' THEN [substr(c, 1, 2), substr(c, 3, 2), substr(c, 5, 2)] "
    "ELSE [substr(c, 1, 2), substr(c, 3, 2), substr(c, 5, 2), substr(c, 7, 2)] END"
)


# The statistics of `player_stats` and `role_stats`, written once, in two steps. At load,
# `match_stats` gets one row per match and key (a player, or a role) with the counts and sums
# of that match, worked out from the match's rows in `{deals}`, `{deal_cards}`, ... (the
# tables, or the rows of the matches of a batch before it is committed): each seat of each
# deal is counted once, then added up under each of its keys (a player; a role: its position
# and its part in the call). A query then adds up those rows: a few per match instead of
# every seat of every deal, its actions and its show chances.
_SHOW_CHANCES: Final = f"""
SELECT match_id, deal_no, trick_no, action_no, seat, {_team("seat")} AS team,
    coalesce(seat = d.caller, false) AS is_caller, show_rule, mark = upper(mark) AS asked,
    upper(mark) AS led_suit, card,
    CASE WHEN d.trump IS NOT NULL THEN substr(card, 2, 1) = d.trump END AS trumped,
    trick_winner,
    (trick_winner IN ('N', 'S')) = (seat IN ('N', 'S')) AS trick_won,
    trick_points, d.caller_team
FROM (
    SELECT match_id, deal_no, nullif({_code("trick_nos", "i + 1")}, 0)::SMALLINT AS trick_no,
        i::SMALLINT AS action_no, substr(seats, i + 1, 1) AS seat, show_rule, mark,
        substr(cards, 2 * i + 1, 2) AS card,
        nullif(substr(trick_winners, trick_no, 1), '') AS trick_winner,
        CASE WHEN trick_no <= length(trick_points)
            THEN {_code("trick_points", "trick_no")}::SMALLINT END AS trick_points
    FROM (
        SELECT match_id, deal_no, seats, cards, trick_nos, show_rule, trick_winners,
            trick_points, {_code("chances", "2 * j + 1")} AS i,
            substr(chances, 2 * j + 2, 1) AS mark
        FROM (
            SELECT *, unnest(range(length(chances) // 2)) AS j
            FROM {{cards}}
            WHERE chances IS NOT NULL
        )
    )
)
JOIN {{deals}} d USING (match_id, deal_no)"""
"""One row per show chance of the deals in ``{cards}`` (the ``show_chances`` view, and the
caller's team)."""

_LADDER_CODES: Final = {ACTION_CODES[t]: t for t in ("double", "redouble", "set")}

_SEAT_ROLE: Final = """CASE
        WHEN d.caller IS NULL THEN NULL
        WHEN d.caller = mp.seat THEN 'caller'
        WHEN d.caller_team = mp.team THEN 'partner'
        ELSE 'defender'
    END AS role"""
"""A seat's part in the call (``d`` a deal, ``mp`` its seat's player): the ``player_deals``
view and the stored ``match_stats`` say it alike."""

_SEAT_SCORING: Final = """d.single_hand IS NULL AND d.made IS NOT NULL AS scored_call,
    CASE mp.team WHEN 'NS' THEN d.points_ns ELSE d.points_ew END AS own_points"""
"""Whether the deal's call was scored, and the card points of the seat's side."""

# Step one: one row per seat of each deal (`seats`), its own counts beside it; the show
# chances, doubles, Pairs and findings counted per seat of a deal first. Step two adds those
# rows up under each key: the player, the position in the auction and the part in the call.
# One pass over the batch's rows serves every key (a statement per kind of key, joining each
# show chance and action to its keys, cost about twice as much; bench/README.md).
_SEAT_ROWS: Final = f"""
WITH seats AS (
    SELECT d.match_id, d.deal_no, mp.seat, mp.player_id, 'P' || {_position("mp.seat")} AS position,
        {_SEAT_ROLE},
        d.call, d.made, d.single_hand,
        {_SEAT_SCORING}
    FROM {{deals}} d
    JOIN {{matches}} m USING (match_id)
    JOIN {{match_players}} mp USING (match_id)
), shows AS (
    SELECT match_id, deal_no, seat,
        count(*) AS show_chances,
        count(*) FILTER (asked) AS shows_asked,
        count(*) FILTER (asked AND trumped) AS asked_then_trumped,
        count(*) FILTER (asked AND trick_won) AS asked_then_won_trick,
        count(*) FILTER (NOT asked AND trick_won) AS not_asked_then_won_trick,
        count(*) FILTER (is_caller) AS caller_show_chances,
        count(*) FILTER (is_caller AND asked) AS caller_shows,
        count(*) FILTER (is_caller AND asked AND trick_won) AS caller_shows_won,
        count(*) FILTER (is_caller AND NOT asked) AS caller_not_shown,
        count(*) FILTER (is_caller AND NOT asked AND trick_won) AS caller_not_shown_won,
        count(*) FILTER (team <> caller_team) AS defender_show_chances,
        count(*) FILTER (team <> caller_team AND asked) AS defender_asks,
        count(*) FILTER (team <> caller_team AND asked AND trick_won) AS defender_asks_won,
        count(*) FILTER (team <> caller_team AND NOT asked) AS defender_not_asked,
        count(*) FILTER (team <> caller_team AND NOT asked AND trick_won)
            AS defender_not_asked_won
    FROM ({{show_chances}})
    GROUP BY match_id, deal_no, seat
), ladder AS (
    SELECT match_id, deal_no, seat,
        count(*) FILTER (code = 'x') AS doubles,
        count(*) FILTER (code = 'x' AND single_hand IS NULL AND NOT made) AS doubles_won,
        sum(greatest(swing, 0)) FILTER (code = 'x') AS double_points_won,
        sum(greatest(-swing, 0)) FILTER (code = 'x') AS double_points_lost,
        count(*) FILTER (code = 'y') AS redoubles,
        count(*) FILTER (code = 'y' AND single_hand IS NULL AND made) AS redoubles_won,
        count(*) FILTER (code = 'z') AS sets,
        count(*) FILTER (code = 'z' AND single_hand IS NULL AND NOT made) AS sets_won
    FROM (
        -- the game points the deal moved toward the seat's side: its change less the other's
        SELECT a.match_id, a.deal_no, a.seat, a.code, d.single_hand, d.made,
            CASE WHEN a.seat IN ('N', 'S')
                THEN d.score_change_ns - d.score_change_ew
                ELSE d.score_change_ew - d.score_change_ns END AS swing
        FROM (
            SELECT match_id, deal_no, unnest(string_split(types, '')) AS code,
                unnest(string_split(seats, '')) AS seat
            FROM {{deal_cards}}
            WHERE regexp_matches(types, '[{"".join(_LADDER_CODES)}]')
        ) a
        JOIN {{deals}} d USING (match_id, deal_no)
        WHERE a.code IN ({", ".join(f"'{c}'" for c in _LADDER_CODES)})
    )
    GROUP BY match_id, deal_no, seat
), pairs_shown AS (
    SELECT match_id, deal_no, seat, count(*) AS pairs
    FROM {{pairs}}
    GROUP BY match_id, deal_no, seat
), found AS (
    SELECT match_id, deal_no, seat, count(*) AS findings
    FROM {{findings}}
    WHERE deal_no IS NOT NULL AND seat IS NOT NULL
    GROUP BY match_id, deal_no, seat
), seat_rows AS MATERIALIZED (
    SELECT *
    FROM seats s
    LEFT JOIN shows USING (match_id, deal_no, seat)
    LEFT JOIN ladder USING (match_id, deal_no, seat)
    LEFT JOIN pairs_shown USING (match_id, deal_no, seat)
    LEFT JOIN found USING (match_id, deal_no, seat)
)"""

# What a key's rows add up to, in the order of _MATCH_STATS_COUNTS.
_KEY_SUMS: Final = {
    "deals": "count(*)",
    "calls": "count(*) FILTER (role = 'caller')",
    "calls_made": "count(*) FILTER (role = 'caller' AND scored_call AND made)",
    "calls_failed": "count(*) FILTER (role = 'caller' AND scored_call AND NOT made)",
    "call_sum": "sum(call) FILTER (role = 'caller')",
    "call_count": "count(call) FILTER (role = 'caller')",
    "defences": "count(*) FILTER (role = 'defender' AND scored_call)",
    "defences_broken": "count(*) FILTER (role = 'defender' AND scored_call AND NOT made)",
    "caller_points": "sum(own_points) FILTER (role = 'caller' AND scored_call)",
    "defender_points": "sum(own_points) FILTER (role = 'defender' AND scored_call)",
    "single_hands": "count(*) FILTER (single_hand = seat)",
    "single_hands_won": "count(*) FILTER (single_hand = seat AND made)",
}

_KEY_COLUMNS: Final = {"player": ("player_id",), "role": ("position", "role")}
"""The columns of a seat's row that name its keys, by what the keys are."""


SCOPE: Final = "SELECT match_id FROM matches"
"""The matches the statistics count: all of them; :func:`stats_sql` takes a narrower one."""

PLAYER_NAMES: Final = ("pl.name", "JOIN players pl ON pl.player_id = p.key")

ROLE_MEANINGS: Final = (
    "CASE p.key WHEN 'P1' THEN 'first to bid' WHEN 'P2' THEN 'second to bid' "
    "WHEN 'P3' THEN 'third to bid' WHEN 'P4' THEN 'fourth to bid (the dealer)' "
    "WHEN 'caller' THEN 'won the auction' WHEN 'partner' THEN 'partner of the caller' "
    "ELSE 'the other side' END AS meaning",
    "",
)


def match_stats_sql(tables: str = "{}") -> list[str]:
    """The statements that store the ``match_stats`` rows of the matches in the tables that
    ``tables`` names: ``"{}"`` the warehouse's own (every match: the migration), or
    ``"_batch_{}"`` the Arrow tables of one batch the loader has registered.

    >>> [sql.split()[0] for sql in match_stats_sql("_batch_{}")]
    ['SET', 'INSERT', 'RESET']
    >>> "FROM _batch_deals d" in match_stats_sql("_batch_{}")[1]
    True
    """
    sources = {
        t: tables.format(t)
        for t in ("deals", "matches", "match_players", "deal_cards", "pairs", "findings")
    }
    counts = ", ".join(
        f"coalesce({_KEY_SUMS.get(name, f'sum({name})')}, 0)::BIGINT AS {name}"
        for name, _ in _MATCH_STATS_COUNTS
    )
    per_key = [
        f"SELECT match_id, '{by}' AS counted_by, {column} AS key, {counts}\n"
        f"FROM seat_rows WHERE {column} IS NOT NULL GROUP BY match_id, {column}"
        for by, columns in _KEY_COLUMNS.items()
        for column in columns
    ]
    rows = _SEAT_ROWS.format(
        show_chances=_SHOW_CHANCES.format(cards=sources["deal_cards"], deals=sources["deals"]),
        **sources,
    )
    # The joins are written small side last (DuckDB builds its hash table on the right).
    # DuckDB's own join order, with no statistics for a batch's Arrow tables or the rows a
    # transaction has just added, built on the large sides: a minute and out of memory for a
    # batch of 10,000 deals, where this order takes a fraction of a second.
    return [
        "SET disabled_optimizers = 'join_order'",
        f"INSERT INTO match_stats {rows}\n" + "\nUNION ALL\n".join(per_key),
        "RESET disabled_optimizers",
    ]


def _total(name: str) -> str:
    return f"sum({name})::BIGINT"


def _share(numerator: str, denominator: str) -> str:
    return f"{_total(numerator)} / nullif({denominator}, 0)"


_STATS: Final = f"""
SELECT p.key AS {{key}}, {{label}}, count(*) AS matches, {_total("deals")} AS deals,
    {_total("calls")} AS calls, {_total("calls")} / {_total("deals")} AS call_share,
    {_total("calls_made")} AS calls_made, {_total("calls_failed")} AS calls_failed,
    {_share("calls_made", f"{_total('calls_made')} + {_total('calls_failed')}")} AS make_rate,
    sum(call_sum)::DOUBLE / nullif(sum(call_count), 0) AS average_call,
    {_total("defences")} AS defences, {_total("defences_broken")} AS defences_broken,
    {_share("defences_broken", _total("defences"))} AS break_rate,
    sum(caller_points)::DOUBLE / nullif(sum(calls_made) + sum(calls_failed), 0)
        AS caller_points_per_deal,
    sum(defender_points)::DOUBLE / nullif(sum(defences), 0) AS defender_points_per_deal,
    {_total("show_chances")} AS show_chances, {_total("shows_asked")} AS shows_asked,
    {_share("shows_asked", _total("show_chances"))} AS ask_rate,
    {_share("asked_then_trumped", _total("shows_asked"))} AS asked_trump_rate,
    {_share("asked_then_won_trick", _total("shows_asked"))} AS asked_trick_win_rate,
    {_share("not_asked_then_won_trick", f"{_total('show_chances')} - {_total('shows_asked')}")}
        AS not_asked_trick_win_rate,
    {_total("caller_show_chances")} AS caller_show_chances,
    {_total("caller_shows")} AS caller_shows,
    {_share("caller_shows_won", _total("caller_shows"))} AS caller_shown_trick_win_rate,
    {_share("caller_not_shown_won", _total("caller_not_shown"))}
        AS caller_not_shown_trick_win_rate,
    {_total("defender_show_chances")} AS defender_show_chances,
    {_total("defender_asks")} AS defender_asks,
    {_share("defender_asks_won", _total("defender_asks"))} AS defender_asked_trick_win_rate,
    {_share("defender_not_asked_won", _total("defender_not_asked"))}
        AS defender_not_asked_trick_win_rate,
    {_total("doubles")} AS doubles, {_total("doubles_won")} AS doubles_won,
    sum(double_points_won)::HUGEINT AS double_points_won,
    sum(double_points_lost)::HUGEINT AS double_points_lost,
    {_total("redoubles")} AS redoubles, {_total("redoubles_won")} AS redoubles_won,
    {_total("sets")} AS sets, {_total("sets_won")} AS sets_won,
    {_total("pairs")} AS pairs,
    {_total("single_hands")} AS single_hands, {_total("single_hands_won")} AS single_hands_won,
    {_total("findings")} AS findings,
    100 * {_total("findings")} / {_total("deals")} AS findings_per_100_deals
FROM match_stats p
{{labels}}
WHERE p.counted_by = '{{by}}' AND p.match_id IN ({{scope}})
GROUP BY ALL"""

_LABELS: Final = {"player": ("player_id", PLAYER_NAMES), "role": ("role", ROLE_MEANINGS)}


def stats_sql(by: str, scope: str = SCOPE) -> str:
    """The query of the statistics counted by ``player`` or by ``role``, for the matches of
    ``scope``: the ``match_stats`` rows of those matches added up.

    >>> "FROM match_stats" in stats_sql("player")
    True
    """
    key, (label, labels) = _LABELS[by]
    return _STATS.format(key=key, label=label, labels=labels, by=by, scope=scope)


VIEWS: Final[dict[str, str]] = {
    "plays": f"""
SELECT match_id, deal_no, i::SMALLINT AS action_no, seat, substr(cards, 2 * i + 1, 2) AS card,
    nullif({_code("trick_nos", "i + 1")}, 0)::SMALLINT AS trick_no, times[i + 1] AS t,
    notes[i + 1] AS note
FROM ({_ACTION_ROWS})
WHERE code = 'c'""",
    "other_actions": f"""
SELECT match_id, deal_no, i::SMALLINT AS action_no, seat,
    {_TYPE_NAMES}[strpos('{_CODE_LETTERS}', code)] AS type, bids[i + 1] AS bid,
    nullif(substr(cards, 2 * i + 1, 2), '--') AS card,
    nullif(substr(extras, 3 * i + 1, 1), '-') AS suit,
    CASE substr(extras, 3 * i + 2, 1) WHEN 'y' THEN true WHEN 'n' THEN false END AS seventh,
    CASE substr(extras, 3 * i + 3, 1) WHEN 'n' THEN 'no_trump' WHEN 'r' THEN 'reverse' END
        AS mode,
    nullif({_code("trick_nos", "i + 1")}, 0)::SMALLINT AS trick_no,
    {_STANDING_BID} AS standing_bid,
    times[i + 1] AS t, notes[i + 1] AS note
FROM ({_ACTION_ROWS})
WHERE code <> 'c'""",
    "actions": f"""
SELECT {_ACTION_COLUMNS} FROM other_actions
UNION ALL
SELECT match_id, deal_no, action_no, seat, 'play' AS type, NULL::BIGINT AS bid, card,
    NULL::VARCHAR AS suit, NULL::BOOLEAN AS seventh, NULL::VARCHAR AS mode, trick_no,
    NULL::BIGINT AS standing_bid, t, note
FROM plays""",
    "tricks": f"""
SELECT match_id, deal_no, trick_no, leader, winner, {_team("winner")} AS winner_team, points,
    substr(c, 2, 1) AS led_suit, {_TRICK_CARDS} AS cards, winning_card,
    coalesce(trick_no >= d.show_trick AND d.trump IS NOT NULL, false) AS trump_counted,
    coalesce(trick_no >= d.show_trick AND substr(winning_card, 2, 1) = d.trump
        AND substr(c, 2, 1) <> d.trump, false) AS won_by_trump
FROM (
    SELECT *, substr(c, 2 * strpos(s, winner) - 1, 2) AS winning_card
    FROM (
        SELECT match_id, deal_no, (k + 1)::SMALLINT AS trick_no, leader, winner,
            {_code("trick_points", "k + 1")}::SMALLINT AS points,
            substr(trick_seats, 4 * k + 1, 4) AS s, substr(trick_cards, 8 * k + 1, 8) AS c
        FROM (
            SELECT match_id, deal_no, trick_points, trick_seats, trick_cards,
                unnest(range(length(trick_leaders))) AS k,
                unnest(string_split(trick_leaders, '')) AS leader,
                unnest(string_split(trick_winners, '')) AS winner
            FROM deal_cards
        )
    )
)
JOIN deals d USING (match_id, deal_no)""",
    "hands": f"""
SELECT match_id, deal_no, seat, {_team("seat")} AS team, {_CARD_LIST} AS cards,
    {", ".join(f"{_stored_feature('f', j)} AS {name}" for j, name in enumerate(HAND_FEATURES))}
FROM (
    SELECT match_id, deal_no, seat, substr(hand_cards, 16 * k + 1, 16) AS h,
        substr(hand_features, {len(HAND_FEATURES)} * k + 1, {len(HAND_FEATURES)}) AS f
    FROM ({_HAND_ROWS.format(features=" hand_features,")})
)""",
    "show_chances": f"""
SELECT * EXCLUDE (caller_team) FROM ({_SHOW_CHANCES.format(cards="deal_cards", deals="deals")})""",
    "bids": f"""
SELECT x.match_id, x.deal_no, i::SMALLINT AS action_no, x.seat, mp.player_id,
    mp.name AS player, {_position("x.seat", "dealer")} AS position,
    {_TYPE_NAMES}[strpos('{_CODE_LETTERS}', code)] AS decision, bids[i + 1] AS bid,
    {_STANDING_BID} AS standing_bid,
    caller = x.seat AS won_auction, call, trump, made, m.preset,
    {_BID_FEATURES}
FROM (
    SELECT *, strpos(hand_seats, seat) - 1 AS k
    FROM (
        SELECT match_id, deal_no, types, bids, hand_seats, hand_features, dealer, caller, call,
            trump, made, unnest(range(n)) AS i,
            unnest(string_split(left(types, n), '')) AS code,
            unnest(string_split(left(seats, n), '')) AS seat
        FROM (
            -- each deal read with its facts once, up to the last action of the auction
            SELECT c.*, d.dealer, d.caller, d.call, d.trump, d.made,
                length(rtrim(c.types, '{_NOT_AUCTION}')) AS n
            FROM deal_cards c
            JOIN deals d USING (match_id, deal_no)
        )
    )
    WHERE code IN ('b', 'p', 'd')
) x
JOIN matches m ON m.match_id = x.match_id
JOIN match_players mp ON mp.match_id = x.match_id AND mp.seat = x.seat""",
    "show_decisions": """
SELECT c.match_id, c.deal_no, c.trick_no, c.action_no, c.seat, mp.player_id,
    mp.name AS player, c.is_caller, c.show_rule, c.asked, c.led_suit, c.card, c.trumped,
    c.trick_winner, c.trick_won, c.trick_points, d.call, d.made, m.preset
FROM show_chances c
JOIN deals d USING (match_id, deal_no)
JOIN matches m USING (match_id)
JOIN match_players mp ON mp.match_id = c.match_id AND mp.seat = c.seat""",
    "player_deals": f"""
SELECT d.match_id, d.deal_no, mp.seat, mp.team, mp.player_id, mp.name AS player,
    {_SEAT_ROLE},
    d.call, d.made, d.thrown_in, d.single_hand, d.doubling,
    {_SEAT_SCORING},
    CASE mp.team WHEN 'NS' THEN d.score_change_ns ELSE d.score_change_ew END AS score_change
FROM deals d
JOIN match_players mp USING (match_id)""",
    "player_call_levels": """
SELECT player_id, call,
    count(*) AS calls,
    count(*) FILTER (scored_call AND made) AS made,
    count(*) FILTER (scored_call AND NOT made) AS failed,
    count(*) FILTER (scored_call AND made) / nullif(count(*) FILTER (scored_call), 0)
        AS make_rate
FROM player_deals
WHERE role = 'caller'
GROUP BY player_id, call""",
    "player_stats": stats_sql("player"),
    "role_stats": stats_sql("role"),
    "contracts": f"""
SELECT d.match_id, d.deal_no, m.preset, m.started_at, d.caller AS seat, mp.player_id,
    mp.name AS player, {_position("d.caller")} AS position, d.call, d.trump,
    d.trump_mode, d.doubling, d.stake, d.pairs, d.target, d.made,
    d.caller_points, d.defender_points,
    CASE d.caller_team WHEN 'NS' THEN d.score_change_ns ELSE d.score_change_ew END
        AS caller_score_change,
    d.show_seat, d.show_trick, d.predicted_make, d.make_model
FROM deals d
JOIN matches m USING (match_id)
JOIN match_players mp ON mp.match_id = d.match_id AND mp.seat = d.caller
WHERE d.caller IS NOT NULL AND d.single_hand IS NULL AND d.thrown_in IS NULL""",
    "partnership_stats": """
WITH partners AS (
    SELECT a.match_id, a.team,
        least(a.player_id, b.player_id) AS player_a,
        greatest(a.player_id, b.player_id) AS player_b
    FROM match_players a
    JOIN match_players b ON b.match_id = a.match_id AND b.team = a.team AND a.seat < b.seat
), per_deal AS (
    SELECT p.player_a, p.player_b, p.match_id, p.team, m.winner,
        d.caller_team = p.team AS called,
        d.caller_team IS NOT NULL AND d.caller_team <> p.team AS defended,
        d.single_hand IS NULL AND d.made IS NOT NULL AS scored_call,
        d.made,
        CASE p.team WHEN 'NS' THEN d.points_ns ELSE d.points_ew END AS own_points,
        CASE p.team WHEN 'NS' THEN d.score_change_ns ELSE d.score_change_ew END
            AS score_change
    FROM partners p
    JOIN matches m USING (match_id)
    JOIN deals d USING (match_id)
)
SELECT player_a, a.name AS name_a, player_b, b.name AS name_b,
    count(DISTINCT match_id) AS matches,
    count(DISTINCT match_id) FILTER (winner = team) AS matches_won,
    count(*) AS deals,
    count(*) FILTER (called) AS calls,
    count(*) FILTER (called AND scored_call AND made) AS calls_made,
    count(*) FILTER (called AND scored_call AND NOT made) AS calls_failed,
    count(*) FILTER (called AND scored_call AND made)
        / nullif(count(*) FILTER (called AND scored_call), 0) AS make_rate,
    count(*) FILTER (defended AND scored_call) AS defences,
    count(*) FILTER (defended AND scored_call AND NOT made) AS defences_broken,
    avg(own_points) FILTER (scored_call) AS points_per_deal,
    sum(score_change) AS score_change
FROM per_deal
JOIN players a ON a.player_id = player_a
JOIN players b ON b.player_id = player_b
GROUP BY ALL""",
    "player_analysis": """
WITH judged AS (
    SELECT mp.player_id, a.kind, a.method, a.loss, a.label, a.detail
    FROM annotations a
    JOIN match_players mp ON mp.match_id = a.match_id AND mp.seat = a.seat
    WHERE a.kind <> 'par'
)
SELECT j.player_id, pl.name,
    count(*) FILTER (kind = 'card' AND method = 'exact') AS cards_judged,
    avg(loss) FILTER (kind = 'card' AND method = 'exact') AS average_card_loss,
    count(*) FILTER (kind = 'show' AND method = 'exact') AS shows_judged,
    avg(loss) FILTER (kind = 'show' AND method = 'exact') AS average_show_loss,
    count(*) FILTER (method = 'sampled') AS decisions_sampled,
    count(*) FILTER (method = 'sampled' AND label = 'inaccuracy') AS inaccuracies,
    count(*) FILTER (method = 'sampled' AND label = 'mistake') AS mistakes,
    count(*) FILTER (method = 'sampled' AND label = 'blunder') AS blunders,
    -- exact notes carry no label: the detail says whether the move turned the result
    -- (annotations stored before that fact existed kept it as a label)
    count(*) FILTER (
        method = 'exact'
        AND coalesce(json_extract(detail, '$.turned')::BOOLEAN, label = 'blunder')
    ) AS exact_blunders
FROM judged j
JOIN players pl USING (player_id)
GROUP BY ALL""",
}
"""Every view and its query; ``player_deals`` is the building block of the statistics."""


def create_view_sql(view: str) -> str:
    """The ``CREATE OR REPLACE VIEW`` statement of one view."""
    return f"CREATE OR REPLACE VIEW {view} AS{VIEWS[view]}"


ANALYSED_KEY: Final = "analysed:"
"""The ``warehouse_info`` key of a match's run record is this and its id: a row of the
match's, dropped with its annotations."""

MATCH_TABLES: Final[tuple[str, ...]] = tuple(
    name for name, columns in TABLES.items() if columns[0].name == "match_id"
)
"""The tables that hold rows of a stored match (``players`` is shared by all matches)."""


def create_schema_sql() -> list[str]:
    """Every statement that creates the current schema in an empty database, in order."""
    return [create_table_sql(t) for t in TABLES] + [create_view_sql(v) for v in VIEWS]


Migration = Callable[[Any], None]

_V1_VIEWS: Final = (
    "actions",
    "bids",
    "show_decisions",
    "player_deals",
    "player_call_levels",
    "player_stats",
    "partnership_stats",
)

# Schema 1 kept actions, tricks, hands and show chances one row each; pack them per deal.
# Seats of trick cards come from the plays placed in the trick; a trick no play was placed
# in (after the log's plays parted from the replayed tricks) keeps only its winner's seat.
_PACK_V1: Final = f"""
INSERT INTO deal_cards
WITH acts AS (
    SELECT match_id, deal_no, action_no, seat, 'play' AS type, NULL::BIGINT AS bid, card,
        NULL::VARCHAR AS suit, NULL::BOOLEAN AS seventh, NULL::VARCHAR AS mode, trick_no, t,
        note
    FROM plays
    UNION ALL
    SELECT match_id, deal_no, action_no, seat, type, bid, card, suit, seventh, mode, trick_no,
        t, note
    FROM other_actions
), per_action AS (
    SELECT a.match_id, a.deal_no,
        string_agg(CASE a.type {" ".join(f"WHEN '{n}' THEN '{c}'" for n, c in ACTION_CODES.items())}
            END, '' ORDER BY a.action_no) AS types,
        string_agg(a.seat, '' ORDER BY a.action_no) AS seats,
        string_agg(coalesce(a.card, '--'), '' ORDER BY a.action_no) AS cards,
        string_agg(chr(48 + coalesce(a.trick_no, 0)), '' ORDER BY a.action_no) AS trick_nos,
        CASE WHEN count(a.bid) > 0 THEN list(a.bid ORDER BY a.action_no) END AS bids,
        CASE WHEN count(a.suit) + count(a.seventh) + count(a.mode) > 0 THEN string_agg(
            coalesce(a.suit, '-')
            || CASE a.seventh WHEN true THEN 'y' WHEN false THEN 'n' ELSE '-' END
            || CASE a.mode WHEN 'no_trump' THEN 'n' WHEN 'reverse' THEN 'r' ELSE '-' END,
            '' ORDER BY a.action_no) END AS extras,
        CASE WHEN count(a.t) > 0 THEN list(a.t ORDER BY a.action_no) END AS times,
        CASE WHEN count(a.note) > 0 THEN list(a.note ORDER BY a.action_no) END AS notes,
        string_agg(chr(48 + c.action_no)
            || CASE WHEN c.asked THEN upper(c.led_suit) ELSE lower(c.led_suit) END,
            '' ORDER BY a.action_no) AS chances,
        any_value(c.show_rule) AS show_rule
    FROM acts a
    LEFT JOIN show_chances c USING (match_id, deal_no, action_no)
    GROUP BY ALL
), per_hand AS (
    SELECT match_id, deal_no,
        string_agg(seat, '' ORDER BY strpos('NESW', seat)) AS hand_seats,
        string_agg({" || ".join(f"coalesce(cards[{i}], '??')" for i in range(1, 9))}, ''
            ORDER BY strpos('NESW', seat)) AS hand_cards
    FROM hands
    GROUP BY ALL
), placed AS (
    SELECT match_id, deal_no, trick_no, string_agg(seat, '' ORDER BY action_no) AS s
    FROM plays WHERE trick_no IS NOT NULL
    GROUP BY ALL
), per_trick AS (
    SELECT t.match_id, t.deal_no,
        string_agg(t.leader, '' ORDER BY t.trick_no) AS trick_leaders,
        string_agg(t.winner, '' ORDER BY t.trick_no) AS trick_winners,
        string_agg(chr(48 + t.points), '' ORDER BY t.trick_no) AS trick_points,
        string_agg(rpad(CASE WHEN length(p.s) = len(t.cards) THEN p.s ELSE
                repeat('?', list_position(t.cards, t.winning_card) - 1) || t.winner
                || repeat('?', len(t.cards) - list_position(t.cards, t.winning_card)) END,
            4, '-'), '' ORDER BY t.trick_no) AS trick_seats,
        string_agg(rpad(array_to_string(t.cards, ''), 8, '-'), '' ORDER BY t.trick_no)
            AS trick_cards
    FROM tricks t
    LEFT JOIN placed p USING (match_id, deal_no, trick_no)
    GROUP BY ALL
)
SELECT d.match_id, d.deal_no, coalesce(a.types, ''), coalesce(a.seats, ''),
    coalesce(a.cards, ''), coalesce(a.trick_nos, ''), a.bids, a.extras, a.times, a.notes,
    a.chances, a.show_rule, coalesce(h.hand_seats, ''), coalesce(h.hand_cards, ''),
    coalesce(t.trick_leaders, ''), coalesce(t.trick_winners, ''), coalesce(t.trick_points, ''),
    coalesce(t.trick_seats, ''), coalesce(t.trick_cards, '')
FROM deals d
LEFT JOIN per_action a USING (match_id, deal_no)
LEFT JOIN per_hand h USING (match_id, deal_no)
LEFT JOIN per_trick t USING (match_id, deal_no)"""


def _pack_v1(con: Any) -> None:
    """Schema 1 to 2: actions, tricks, hands and show chances packed into `deal_cards`."""
    for view in _V1_VIEWS:
        con.execute(f"DROP VIEW IF EXISTS {view}")
    con.execute(create_table_sql("deal_cards", leave_out=("hand_features",)))
    con.execute(_PACK_V1)
    for table in ("plays", "other_actions", "tricks", "hands", "show_chances"):
        con.execute(f"DROP TABLE {table}")


def _stats_views_v2(con: Any) -> None:
    """Schema 2 to 3: views only (`contracts`, `role_stats`, new `player_stats` columns);
    the tables are unchanged, and the views are re-created after every migration."""


_RECORDED: Final = {
    "matches": ("recorded_score_ns", "recorded_score_ew"),
    "deals": ("recorded_points_ns", "recorded_points_ew", "recorded_score_ns", "recorded_score_ew"),
}
"""What a log records of points and scores, kept as recorded however absurd (version 4)."""


def _content_hash_v3(con: Any) -> None:
    """Version 3 to 4: ``matches.content_hash`` (NULL for the matches already stored), and
    the recorded points and scores widened to INTEGER."""
    con.execute("ALTER TABLE matches ADD COLUMN IF NOT EXISTS content_hash VARCHAR")
    for table, columns in _RECORDED.items():
        for column in columns:
            con.execute(f"ALTER TABLE {table} ALTER COLUMN {column} SET DATA TYPE INTEGER")


def _add_annotations(con: Any) -> None:
    """Version 4 to 5: the `annotations` table (`twentynine analyze`), unless a file whose
    version was set back by hand already has it."""
    exists = con.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'annotations'"
    ).fetchone()
    if not exists or not exists[0]:
        con.execute(create_table_sql("annotations"))


def _store_features(con: Any) -> None:
    """Version 5 to 6: ``deal_cards.hand_features``, worked out once from the cards by the
    SQL the `hands` view ran on every query before (:data:`HANDS_COMPUTED`), and the
    ``match_stats`` of every match (:func:`match_stats_sql`). The deal_cards table is
    written anew beside the old one (DuckDB cannot make a column NOT NULL after updating it
    in the same transaction); the views are re-created afterwards."""
    # a minute on a large file: DuckDB's own progress bar would break into the CLI's lines
    con.execute("SET enable_progress_bar = false")
    for view in VIEWS:
        con.execute(f"DROP VIEW IF EXISTS {view}")
    packed = " || ".join(_packed_feature(name) for name in HAND_FEATURES)
    kept = [c.name for c in TABLES["deal_cards"] if c.name != "hand_features"]
    con.execute(create_table_sql("deal_cards").replace("deal_cards", "deal_cards_6", 1))
    con.execute(
        f"""
        INSERT INTO deal_cards_6
        SELECT {", ".join(f"c.{name}" for name in kept)}, coalesce(f.packed, '')
        FROM deal_cards c
        LEFT JOIN (
            SELECT match_id, deal_no, string_agg({packed}, '' ORDER BY k) AS packed
            FROM ({HANDS_COMPUTED})
            GROUP BY ALL
        ) f USING (match_id, deal_no)"""
    )
    con.execute("DROP TABLE deal_cards")
    con.execute("ALTER TABLE deal_cards_6 RENAME TO deal_cards")
    con.execute("DROP TABLE IF EXISTS match_stats")  # a file whose version was set back by hand
    con.execute(create_table_sql("match_stats"))
    for statement in match_stats_sql():
        con.execute(statement)


def _predicted_make(con: Any) -> None:
    """Version 6 to 7: ``deals.predicted_make`` and ``make_model``, worked out for the deals
    already stored from what ``deal_cards`` keeps of the caller's first four and the auction
    (nothing re-audited), by the shipped contract model."""
    from twentynine.reports.warehouse.predicted import stored_predictions

    con.execute("ALTER TABLE deals ADD COLUMN IF NOT EXISTS predicted_make DOUBLE")
    con.execute("ALTER TABLE deals ADD COLUMN IF NOT EXISTS make_model VARCHAR")
    stored_predictions(con)


def _fair_predictions(con: Any) -> None:
    """Version 7 to 8: ``deals.predicted_make`` worked out again, the deal taken as a fair
    shuffle for every preset (a Bhoos game's took the server's dealing before: issue 33)."""
    from twentynine.reports.warehouse.predicted import stored_predictions

    stored_predictions(con)


MIGRATIONS: Final[dict[int, Migration]] = {
    1: _pack_v1,
    2: _stats_views_v2,
    3: _content_hash_v3,
    4: _add_annotations,
    5: _store_features,
    6: _predicted_make,
    7: _fair_predictions,
}
"""``MIGRATIONS[v]`` takes a connection from schema version ``v`` to ``v + 1`` (in the
loader's transaction); the views are re-created afterwards."""


def markdown_columns(table: str) -> str:
    """The column table of one table (or unpacking view), as ``docs/warehouse.md`` shows it.

    >>> print(markdown_columns("warehouse_info").splitlines()[3])
    | `value` | VARCHAR | no | Its value, as text. |
    """
    lines = ["| column | type | null | meaning |", "|---|---|---|---|"]
    for col in TABLES[table] if table in TABLES else VIEW_COLUMNS[table]:
        null = "yes" if col.nullable else "no"
        lines.append(f"| `{col.name}` | {col.sql_type} | {null} | {col.doc} |")
    return "\n".join(lines)
