"""Turning matches and their audits into Arrow tables: the loader's Python half, built for speed.

Python touches every action, card and trick of a match, and DuckDB pays for every row it
stores, so this is where a load spends its time. A deal's plays, tricks, hands and show
chances therefore go into one ``deal_cards`` row of a few strings
(reports/warehouse/ddl.py says how; the views ``plays``, ``tricks``, ``hands`` and
``show_chances`` unpack them), made with joins and slices of strings rather than a value at a
time: a deal replayed without errors, where
the tricks are its plays in order, takes its trick cards and seats straight from the plays.
The other rows (matches, deals, auction and other actions, findings) stay tuples that become
Arrow columns in bulk.

The moments a seat could not follow suit are worked out here because SQL cannot easily
derive them; the hand features (:func:`hand_features`) here once, for the ``hands`` and
``bids`` views not to work them out on every query.

A match comes as the pydantic models of :mod:`schema.log` or as the fast decoder's structs
(what ``twentynine load`` reads canonical logs into), typed as :mod:`schema.shapes`: both
give the same rows. Only the reading of each action's type, seat, time and note differs, as
the quickest way for each kind (a model's ``__dict__``, a struct's slots); an action's other
fields are read after its ``type``, never after pydantic's ``isinstance``, which runs in
Python.

>>> from twentynine.replay import audit_match, random_match
>>> from twentynine.schema import Rules
>>> log = random_match(Rules.preset("pagat"), seed=3)
>>> batch = Batch(dt.datetime(2026, 1, 1))
>>> batch.add(log, audit_match(log), "x.jsonl", 1) == len(log.deals)
True
>>> tables = batch.arrow_tables()
>>> tables["deal_cards"].num_rows == len(log.deals), tables["matches"]["match_id"][0].as_py()
(True, 'random-3')
"""

from __future__ import annotations

import array
import datetime as dt
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from itertools import chain, product
from operator import attrgetter, itemgetter
from typing import Any, Final

import numpy as np
import pyarrow as pa

from twentynine.replay import AuditedMatch, DealFacts, Finding, TrickFacts
from twentynine.reports.warehouse.ddl import ACTION_CODES, HAND_FEATURES, TABLES
from twentynine.reports.warehouse.predicted import deal_prediction
from twentynine.schema.cards import RANKS, SUITS, Card, Seat, Team
from twentynine.schema.dates import started_at
from twentynine.schema.fastlog import content_fingerprint, recorded_thrown_in
from twentynine.schema.log import INT64_MAX, INT64_MIN, Deal, dump_json
from twentynine.schema.rules import Rules
from twentynine.schema.shapes import ActionLike, DealLike, MatchLike
from twentynine.schema.words import plural

_AUCTION: Final = frozenset({"bid", "pass", "ditto"})
# Seat.team is a property that tests membership each time; a dict is several times faster.
_TEAM: Final[dict[Seat | None, Team | None]] = {seat: seat.team for seat in Seat} | {None: None}
# Small numbers (trick numbers, trick points) are stored as one character: code point 48 + n.
_CODES: Final = tuple(chr(48 + n) for n in range(256))
_TRICK_RUN: Final = {
    size: "".join(_CODES[p // size + 1] for p in range(size * 9)) for size in (3, 4)
}  # a deal's plays in order go to tricks 1, 1, 1, 1, 2, ...
_SEAT: Final = attrgetter("seat")
# The places in a trick (given as the suits played, from the leader) whose seat did not follow.
_NOT_FOLLOWED: Final = {
    "".join(suits): tuple(p for p, suit in enumerate(suits) if suit != suits[0])
    for n in range(1, 5)
    for suits in product("SHDC", repeat=n)
}
_SLICES: Final = {size: [slice(k, k + size) for k in range(0, 64, size)] for size in (3, 4)}
_TEXT: Final = attrgetter("text")
_CARD: Final = attrgetter("card")
# A struct's fields are slots, quick to read; its ``type`` is a class variable.
_TYPE: Final = attrgetter("type")
_TIME: Final = attrgetter("t")
_NOTE: Final = attrgetter("note")
_DICT: Final = attrgetter("__dict__")  # a model's fields: faster to read than its attributes
_ISEAT: Final = itemgetter("seat")
_ITYPE: Final = itemgetter("type")
_ITIME: Final = itemgetter("t")
_INOTE: Final = itemgetter("note")

_SEVENTH: Final[dict[bool | None, str]] = {True: "y", False: "n", None: "-"}
_MODE: Final[dict[str | None, str]] = {"no_trump": "n", "reverse": "r", None: "-"}
_TYPES: Final[dict[str, pa.DataType]] = {
    f"{table}.{c.name}": c.arrow_type for table, cols in TABLES.items() for c in cols
}


_ACTION_CODES: Final = ACTION_CODES
_TRUMP_AT: Final = [c.name for c in TABLES["deals"]].index("trump")


def _code(n: int) -> str:
    return chr(48 + n)


# Hand features, worked out for a whole batch of hands at once: a card's points and its
# suit's place in SHDC (4: unseen), looked up by the character's byte.
_POINTS = np.zeros(256, np.int64)
for _rank in RANKS:
    _POINTS[ord(_rank.value)] = _rank.points
_SUIT_AT = np.full(256, 4, np.int64)
for _at, _suit in enumerate(SUITS):
    _SUIT_AT[ord(_suit.value)] = _at
_SUIT_LETTERS = np.frombuffer("".join(s.value for s in SUITS).encode("ascii"), np.uint8)
_UNSEEN: Final = ord("?")
_NULL: Final = ord("-")


def hand_features(
    hand_cards: Sequence[str], hand_seats: Sequence[str], trumps: Sequence[str | None]
) -> list[str]:
    """Each deal's ``deal_cards.hand_features``: per recorded hand (16 characters of
    ``hand_cards``) the :data:`~reports.warehouse.ddl.HAND_FEATURES`, one character each
    (code point 48 + the number, ``-`` for NULL), given the deal's trump.

    >>> hand_features(["JS9SAHTC7D8DQCKC", ""], ["N", ""], ["S", None])
    ['8711112S3272', '']
    >>> hand_features(["JS9S????7D8DQCKC"], ["E"], [None])
    ['6-----------']
    """
    size = len(HAND_FEATURES)
    seats = [len(s) for s in hand_seats]
    if not sum(seats):
        return ["" for _ in hand_seats]
    cards = np.frombuffer("".join(hand_cards).encode("ascii"), np.uint8).reshape(-1, 8, 2)
    ranks, suits = cards[:, :, 0], _SUIT_AT[cards[:, :, 1]]
    points = _POINTS[ranks]
    seen = ranks != _UNSEEN
    first4, all8 = seen[:, :4].all(axis=1), seen.all(axis=1)
    trump = np.repeat([_SUIT_AT[ord(t)] if t else -1 for t in trumps], seats)
    in_suit = suits[:, :4, None] == np.arange(4)  # hand, card, suit
    lengths = in_suit.sum(axis=1)
    suit_points = (in_suit * points[:, :4, None]).sum(axis=1)
    # the longest suit; on a tie the one with more points, then the first of S, H, D, C
    longest_at = (lengths * 256 + suit_points * 16 + (3 - np.arange(4))).argmax(axis=1)
    has_trump = trump >= 0
    f4_trumps = np.where(has_trump, lengths[np.arange(len(trump)), np.maximum(trump, 0)], 0)
    trumps_of_8 = f4_trumps + (suits[:, 4:] == trump[:, None]).sum(axis=1)
    f4 = first4[:, None]
    out = np.full((len(ranks), size), _NULL, np.int64)
    out[:, 0] = 48 + seen.sum(axis=1)
    out[:, 1:7] = np.where(
        f4,
        48
        + np.stack(
            [
                points[:, :4].sum(axis=1),
                *((ranks[:, :4] == ord(rank)).sum(axis=1) for rank in "J9AT"),
                lengths.max(axis=1),
            ],
            axis=1,
        ),
        _NULL,
    )
    out[:, 7] = np.where(first4, _SUIT_LETTERS[longest_at], _NULL)
    out[:, 8] = np.where(first4, 48 + (lengths > 0).sum(axis=1), _NULL)
    out[:, 9] = np.where(first4 & has_trump, 48 + f4_trumps, _NULL)
    out[:, 10] = np.where(all8, 48 + points.sum(axis=1), _NULL)
    out[:, 11] = np.where(all8 & has_trump, 48 + trumps_of_8, _NULL)
    text = out.astype(np.uint8).tobytes().decode("ascii")
    packed, at = [], 0
    for count in seats:
        packed.append(text[at : at + size * count])
        at += size * count
    return packed


class RowError(ValueError):
    """A match that cannot be stored as it is (e.g. a number beyond 64 bits)."""


_RANGES: Final = {"SMALLINT": (-(2**15), 2**15 - 1), "INTEGER": (-(2**31), 2**31 - 1)}


Bound = tuple[int, str, int, int]
"""An integer column narrower than Python's: its place in a row, its name and its range."""


def _bounds(table: str, skip: int = 0) -> tuple[Bound, ...]:
    """The bounded columns of ``table``'s rows (which leave out its first ``skip`` columns and
    start with one value of their own instead, when ``skip``)."""
    offset = 1 - skip if skip else 0
    return tuple(
        (place + offset, f"{table}.{column.name}", *_RANGES[column.sql_type])
        for place, column in enumerate(TABLES[table])
        if column.sql_type in _RANGES and place >= skip
    )


_BOUNDED: Final = (
    ("match_rows", _bounds("matches")),
    ("player_rows", _bounds("match_players")),
    ("deal_rows", _bounds("deals")),
    ("finding_rows", _bounds("findings")),
    ("pair_rows", _bounds("pairs", skip=2)),  # a pair row starts with its deal's index
)


def check_ranges(rows: Sequence[tuple[Any, ...]], bounds: Sequence[Bound]) -> None:
    """Raise :class:`RowError` when a value does not fit its column (a SMALLINT holds up to
    32,767): only a log no real match gives holds such a number, and it must not stop a load.

    >>> check_ranges([(1, 40_000)], [(1, "deals.points_ns", -32_768, 32_767)])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    twentynine.reports.warehouse.rows.RowError: deals.points_ns 40000 is out of range (-32768 ...
    """
    for row in rows:
        for place, name, low, high in bounds:
            value = row[place]
            if value is not None and not low <= value <= high:
                raise RowError(f"{name} {value} is out of range ({low} to {high})")


def preset_of(rules: str | dict[str, Any]) -> str:
    """The preset a log's ``rules`` value names.

    >>> preset_of("pagat"), preset_of({"preset": "bangladesh", "set": True})
    ('pagat', 'bangladesh')
    """
    return rules if isinstance(rules, str) else str(rules["preset"])


def _checked(value: int | None, what: str) -> int | None:
    if value is not None and not INT64_MIN <= value <= INT64_MAX:
        raise RowError(f"{what} {value} does not fit in 64 bits")
    return value


def _json(value: Any) -> str:
    return dump_json(value, sort_keys=True).decode()


_ARRAY_CODES: Final = {pa.int16(): "h", pa.int32(): "i", pa.int8(): "b"}


def small_ints(values: list[int], kind: pa.DataType = pa.int16()) -> pa.Array:  # noqa: B008
    """An integer array (no NULLs) through :mod:`array`, without a Python check per value.

    >>> small_ints([3, 1, 2], pa.int32()).to_pylist()
    [3, 1, 2]
    """
    code = _ARRAY_CODES[kind]
    return pa.Array.from_buffers(kind, len(values), [None, pa.py_buffer(array.array(code, values))])


DealFindings = Sequence[tuple[int | None, str, str]]
"""A deal's findings as (action, code, severity)."""

Actions = Sequence[ActionLike]
"""A deal's actions, models or structs."""


def _read_actions(
    deal: DealLike,
) -> tuple[list[str], str, list[int | None], list[str | None]]:
    """Each action's type, the seats as one string, each action's time and note."""
    if type(deal) is not Deal:  # the fast decoder's structs (pydantic's isinstance is slow)
        actions = deal.actions
        return (
            list(map(_TYPE, actions)),
            "".join(map(_SEAT, actions)),
            list(map(_TIME, actions)),
            list(map(_NOTE, actions)),
        )
    dicts = list(map(_DICT, deal.actions))
    return (
        list(map(_ITYPE, dicts)),
        "".join(map(_ISEAT, dicts)),
        list(map(_ITIME, dicts)),
        list(map(_INOTE, dicts)),
    )


class _Details:
    """What the actions other than bids and plays add to a deal's strings: the card of a
    ``trump`` action, the trick of a ``show`` or ``pair``, the suit, seventh and mode of a
    ``trump`` or ``show``. Few deals have more than one or two such actions."""

    __slots__ = ("card_at", "count", "extra_at", "trick_at")

    def __init__(self, count: int) -> None:
        self.count = count
        self.card_at: dict[int, str] = {}
        self.trick_at: dict[int, int] = {}
        self.extra_at: dict[int, str] = {}

    def add(self, i: int, action: ActionLike, trick: int | None) -> None:
        if action.type == "trump":
            card = action.card
            if card is not None:
                self.card_at[i] = card.text
            suit = action.suit or "-"
            self.extra_at[i] = suit + _SEVENTH[action.seventh] + _MODE[action.mode]
        elif action.type == "show":
            if trick is not None:
                self.trick_at[i] = trick
            if action.suit is not None:
                self.extra_at[i] = action.suit + "--"
        elif action.type == "pair" and trick is not None:
            self.trick_at[i] = trick

    def cards(self, first: int) -> str:
        """The card characters of actions ``0 .. first - 1``."""
        if not self.card_at:
            return "--" * first
        out = ["--"] * first
        for i, text in self.card_at.items():
            out[i] = text
        return "".join(out)

    def tricks(self, first: int) -> str:
        """The trick characters of actions ``0 .. first - 1``."""
        out = "0" * first
        for i, trick in self.trick_at.items():
            if i < first:
                out = out[:i] + _code(trick) + out[i + 1 :]
        return out

    def trick_of(self, i: int) -> str:
        return _code(self.trick_at.get(i, 0))

    def extras(self) -> str | None:
        if not self.extra_at:
            return None
        out = "---" * self.count
        for i, text in self.extra_at.items():
            out = out[: 3 * i] + text + out[3 * i + 3 :]
        return out


class Batch:
    """The rows of many matches for one transaction.

    The ``deal_cards`` columns are lists with one value per deal, in the order of the deals.
    ``pair_rows`` hold their deal first, as its index in :attr:`deal_rows`.
    """

    def __init__(self, loaded_at: dt.datetime) -> None:
        self.loaded_at = loaded_at
        self.match_ids: list[str] = []
        self.replaced: list[str] = []  # ids stored before, whose old rows this batch replaces
        self.deals = 0
        self.findings = 0
        self.match_rows: list[tuple[Any, ...]] = []
        self.player_rows: list[tuple[Any, ...]] = []
        self.deal_rows: list[tuple[Any, ...]] = []
        self.finding_rows: list[tuple[Any, ...]] = []
        self.pair_rows: list[tuple[Any, ...]] = []  # dk first
        # deal_cards, one value per deal
        self.types: list[str] = []
        self.seats: list[str] = []
        self.cards: list[str] = []
        self.trick_nos: list[str] = []
        self.bids: list[list[int | None] | None] = []
        self.extras: list[str | None] = []
        self.times: list[list[int | None] | None] = []
        self.notes: list[list[str | None] | None] = []
        self.chances: list[str | None] = []
        self.show_rules: list[str | None] = []
        self.hand_seats: list[str] = []
        self.hand_cards: list[str] = []
        self.trick_leaders: list[str] = []
        self.trick_winners: list[str] = []
        self.trick_points: list[str] = []
        self.trick_seats: list[str] = []
        self.trick_cards: list[str] = []
        self._lists: tuple[list[Any], ...] = tuple(
            v for v in vars(self).values() if isinstance(v, list)
        )

    def __len__(self) -> int:
        return len(self.match_ids)

    def add(
        self,
        match: MatchLike,
        audited: AuditedMatch,
        source: str | None,
        line: int | None,
        *,
        fingerprint: str | None = None,
    ) -> int:
        """Add one match and its audit; returns its number of deals. ``fingerprint``: the
        match's :func:`~schema.fastlog.content_fingerprint`, where it was worked out before.

        Raises :class:`RowError` (and adds nothing) when the match cannot be stored.
        """
        marks = list(map(len, self._lists))
        starts = [len(getattr(self, name)) for name, _ in _BOUNDED]
        try:
            self._match(match, audited, source, line, fingerprint)
            for (name, bounds), start in zip(_BOUNDED, starts, strict=True):
                check_ranges(getattr(self, name)[start:], bounds)
        except RowError:
            for values, mark in zip(self._lists, marks, strict=True):
                del values[mark:]
            raise
        self.match_ids.append(audited.match_id)
        self.deals += len(match.deals)
        self.findings += len(audited.findings)
        return len(match.deals)

    def _match(
        self,
        match: MatchLike,
        audited: AuditedMatch,
        source: str | None,
        line: int | None,
        fingerprint: str | None,
    ) -> None:
        mid = audited.match_id
        rules = audited.rules
        result = match.result
        errors = audited.errors
        meta = match.meta
        self.match_rows.append(
            (
                mid,
                match.id,
                preset_of(match.rules),
                _json(match.rules),
                rules.direction,
                started_at(meta),
                _json(meta) if meta is not None else None,
                len(match.deals),
                audited.score[Team.NS],
                audited.score[Team.EW],
                audited.winner,
                result is not None,
                result.score.NS if result is not None else None,
                result.score.EW if result is not None else None,
                result.winner if result is not None else None,
                errors,
                len(audited.findings) - errors,
                source,
                line,
                self.loaded_at,
                fingerprint if fingerprint is not None else content_fingerprint(match),
            )
        )
        for seat, entry in match.players.items():
            if isinstance(entry, str):
                self.player_rows.append((mid, seat, _TEAM[seat], entry, entry, None))
            else:
                self.player_rows.append((mid, seat, _TEAM[seat], entry.id, entry.name, entry.id))
        by_deal = self._findings(mid, match, audited.findings)
        show_rule = rules.show_trump
        asking = show_rule != "automatic"
        deals: Sequence[DealLike] = match.deals
        for deal, facts in zip(deals, audited.deals, strict=True):
            self._deal(mid, deal, facts, by_deal.get(facts.number, ()), asking, show_rule, rules)

    def _findings(
        self, mid: str, match: MatchLike, findings: Sequence[Finding]
    ) -> dict[int, list[tuple[int | None, str, str]]]:
        by_deal: dict[int, list[tuple[int | None, str, str]]] = {}
        deals = match.deals
        for finding in findings:
            deal_no, action_no = finding.deal, finding.action
            seat = None
            if deal_no is not None and action_no is not None and 0 < deal_no <= len(deals):
                actions = deals[deal_no - 1].actions
                if 0 <= action_no < len(actions):
                    seat = actions[action_no].seat
            self.finding_rows.append(
                (mid, deal_no, action_no, seat, finding.code, finding.severity, finding.message)
            )
            if deal_no is not None:
                by_deal.setdefault(deal_no, []).append((action_no, finding.code, finding.severity))
        return by_deal

    def _deal(
        self,
        mid: str,
        deal: DealLike,
        f: DealFacts,
        findings: DealFindings,
        asking: bool,
        show_rule: str,
        rules: Rules,
    ) -> None:
        dk = len(self.deal_rows)
        caller = f.caller
        caller_team = _TEAM[caller]
        show = f.show
        points = f.points
        errors = sum(1 for x in findings if x[2] == "error") if findings else 0
        hands = deal.hands
        known = self._hands(hands) if hands else self._no_hands()
        result = deal.result
        rpoints = result.points if result is not None else None
        rscore = result.score if result is not None else None
        tricks = tuple(f.tricks)  # built once: the engine's TrickList is built on first use
        predicted, make_model = deal_prediction(deal, rules, caller, f.single_hand)
        self.deal_rows.append(
            (
                mid,
                f.number,
                f.dealer,
                caller,
                caller_team,
                _checked(f.call, "the call"),
                f.trump,
                f.trump_mode,
                f.seventh,
                show.seat if show is not None else None,
                show.trick if show is not None else None,
                show.action if show is not None else None,
                f.target,
                f.stake,
                f.doubling,
                len(f.pairs),
                f.single_hand,
                f.thrown_in,
                f.made,
                points[Team.NS],
                points[Team.EW],
                points[caller_team] if caller_team is not None else None,
                points[caller_team.other] if caller_team is not None else None,
                f.score_change[Team.NS],
                f.score_change[Team.EW],
                f.score_after[Team.NS],
                f.score_after[Team.EW],
                f.complete,
                f.decided,
                len(deal.actions),
                len(tricks),
                len(findings),
                errors,
                known,
                hands is not None,
                result is not None,
                rpoints.NS if rpoints is not None else None,
                rpoints.EW if rpoints is not None else None,
                rscore.NS if rscore is not None else None,
                rscore.EW if rscore is not None else None,
                recorded_thrown_in(result)[1] if result is not None else None,
                predicted,
                make_model,
            )
        )
        for pair in f.pairs:
            self.pair_rows.append(
                (dk, pair.action, pair.seat, _TEAM[pair.seat], pair.target_change)
            )
        chances = asking and f.single_hand is None and f.trump_mode != "no_trump"
        self._actions(dk, deal, f, tricks, findings, errors > 0, show_rule if chances else None)

    def _hands(self, hands: Mapping[Seat, Sequence[Card | None]]) -> bool:
        """The recorded hands as two strings; whether all 32 cards are known."""
        try:
            text = "".join(map(_TEXT, chain.from_iterable(hands.values())))
        except AttributeError:  # an unseen card
            text = "".join(
                [c.text if c is not None else "??" for c in chain.from_iterable(hands.values())]
            )
        seats = "".join(hands)
        self.hand_seats.append(seats)
        self.hand_cards.append(text)
        return len(seats) == 4 and "?" not in text

    def _no_hands(self) -> bool:
        self.hand_seats.append("")
        self.hand_cards.append("")
        return False

    def _actions(
        self,
        dk: int,
        deal: DealLike,
        f: DealFacts,
        tricks: tuple[TrickFacts, ...],
        findings: DealFindings,
        check: bool,
        show_rule: str | None,
    ) -> None:
        """The deal's actions, each play's trick, the tricks, and the seats that could not
        follow (``show_rule`` is None where there is nothing to decide).

        Everything before the first card is looked at once. A deal without errors, where
        only the show and Pairs come between the cards, has its plays taken in bulk; any
        other deal goes through :meth:`_walk`, which also compares each play with the
        replayed trick and stops numbering tricks where the two part.
        """
        actions: Actions = deal.actions
        count = len(actions)
        types, all_seats, times, notes = _read_actions(deal)
        self.types.append("".join(map(_ACTION_CODES.__getitem__, types)))
        self.seats.append(all_seats)
        self._times_notes(times, notes)
        first = types.index("play") if "play" in types else count
        size = 3 if f.single_hand is not None else 4
        show = f.show.action if f.show is not None else -1
        # an automatic show happens at a play: then it is no action of its own
        between = sorted(
            ([show] if show > first and types[show] != "play" else [])
            + [pair.action for pair in f.pairs if pair.action > first]
        )
        plays = count - first - len(between)
        if tricks:
            _, leaders, trick_cards, winners, points = zip(*tricks)  # noqa: B905
            placed = sum(map(len, trick_cards))
        else:
            leaders = trick_cards = winners = points = ()
            placed = 0
        if (
            check
            or first == count
            or not placed <= plays < placed + size
            or types[first:].count("play") != plays
        ):
            self._walk(f, tricks, actions, types, first, findings, show_rule)
            return
        # the auction and whatever else comes before the first card
        self._bids(actions[:first])
        details = _Details(count)
        for i in [i for i in range(first) if types[i] not in _AUCTION]:
            details.add(i, actions[i], 1)
        numbers = list(range(first, count))
        moves = list(actions[first:])
        if between:
            for i in reversed(between):
                del numbers[i - first]
                del moves[i - first]
            for i in between:
                details.add(i, actions[i], bisect_right(numbers, i) // size + 1)
        play_cards = "".join(map(_TEXT, map(_CARD, moves)))
        play_seats = all_seats[first:]
        for i in reversed(between):
            play_seats = play_seats[: i - first] + play_seats[i - first + 1 :]
        cards = details.cards(first) + play_cards
        trick_nos = details.tricks(first) + _TRICK_RUN[size][:plays]
        for i in between:  # in order: each lands where the actions before it end
            cards = cards[: 2 * i] + "--" + cards[2 * i :]
            trick_nos = trick_nos[:i] + details.trick_of(i) + trick_nos[i:]
        self.cards.append(cards)
        self.trick_nos.append(trick_nos)
        self.extras.append(details.extras())
        if show_rule is not None:
            self._chances(self._marks(f, numbers, play_seats, play_cards, size), show_rule)
        else:
            self._chances(None, None)
        # the tricks are the plays in order: take their seats and cards from there
        n = len(tricks)
        if placed != size * n or (
            n and trick_cards[-1][-1][1].text != play_cards[2 * placed - 2 : 2 * placed]
        ):
            self._tricks(tricks)
            return
        seats = play_seats[:placed]
        cards = play_cards[: 2 * placed]
        if size == 3:
            seats = "".join([seats[k : k + 3] + "-" for k in range(0, placed, 3)])
            cards = "".join([cards[2 * k : 2 * k + 6] + "--" for k in range(0, placed, 3)])
        self.trick_leaders.append("".join(leaders))
        self.trick_winners.append("".join(winners))
        self.trick_points.append("".join(map(_CODES.__getitem__, points)))
        self.trick_seats.append(seats)
        self.trick_cards.append(cards)

    def _times_notes(self, times: list[int | None], notes: list[str | None]) -> None:
        count = len(times)
        if times.count(None) == count:
            self.times.append(None)
        else:
            for t in times:
                _checked(t, "the time")
            self.times.append(times)
        self.notes.append(None if notes.count(None) == count else notes)

    def _bids(self, actions: Actions) -> None:
        values = [a.value if a.type == "bid" else None for a in actions]
        while values and values[-1] is None:
            values.pop()
        for value in values:
            if value is not None and not INT64_MIN <= value <= INT64_MAX:
                raise RowError(f"the bid {value} does not fit in 64 bits")
        self.bids.append(values or None)

    def _chances(self, marks: str | None, show_rule: str | None) -> None:
        self.chances.append(marks)
        self.show_rules.append(show_rule if marks is not None else None)

    @staticmethod
    def _marks(f: DealFacts, numbers: list[int], seats: str, cards: str, size: int) -> str | None:
        """The plays where a seat could not follow before the trump was shown, two characters
        each: the action and the suit led, upper case if the seat asked (a deal without errors:
        every trick has ``size`` plays)."""
        show = f.show
        # plays up to the show are chances; after it, only the asker's own play
        before = bisect_right(numbers, show.action) if show is not None else len(numbers)
        suits = cards[1::2]
        head = suits[:before]
        tricks = list(map(head.__getitem__, _SLICES[size][: -(-before // size)]))
        missed = list(map(_NOT_FOLLOWED.__getitem__, tricks))
        marks = []
        if missed.count(()) != len(missed):
            for k, places in enumerate(missed):
                led = tricks[k][0].lower()
                for place in places:
                    marks.append(_code(numbers[k * size + place]) + led)
        p = before
        if show is not None and p < len(numbers) and p % size and seats[p] == show.seat:
            marks.append(_code(numbers[p]) + suits[p - p % size])
        return "".join(marks) if marks else None

    def _tricks(self, tricks: Sequence[TrickFacts]) -> None:
        """The tricks one by one, each padded to four cards."""
        seats = []
        cards = []
        for trick in tricks:
            pad = 4 - len(trick.cards)
            if pad < 0:
                raise RowError(f"trick {trick.number} has {plural(len(trick.cards), 'card')}")
            seats.append("".join([s for s, _ in trick.cards]) + "-" * pad)
            cards.append("".join([c.text for _, c in trick.cards]) + "--" * pad)
        self.trick_leaders.append("".join([t.leader for t in tricks]))
        self.trick_winners.append("".join([t.winner for t in tricks]))
        self.trick_points.append("".join([_code(t.points) for t in tricks]))
        self.trick_seats.append("".join(seats))
        self.trick_cards.append("".join(cards))

    def _walk(
        self,
        f: DealFacts,
        tricks: tuple[TrickFacts, ...],
        actions: Actions,
        types: list[str],
        first: int,
        findings: DealFindings,
        show_rule: str | None,
    ) -> None:
        """The actions one by one (a deal with errors, or an odd one)."""
        self._bids(actions)
        n_tricks = len(tricks)
        show_at = f.show.action if f.show is not None else 1 << 30
        revokes = {x[0] for x in findings if x[1] == "REVOKE"}
        chances = show_rule is not None
        size = 3 if f.single_hand is not None else 4
        k = place = 0  # the trick in progress (0-based) and the next card's place in it
        trick_size = len(tricks[0].cards) if n_tricks else size
        tracking = True  # False once the log's plays part from the replayed tricks
        asked_by: Seat | None = None
        led: str | None = None
        count = len(actions)
        details = _Details(count)
        for i in range(first):
            if types[i] not in _AUCTION:
                details.add(i, actions[i], 1)
        cards = ["--"] * count
        trick_nos = ["0"] * count
        marks = []
        for i in range(first, count):
            action = actions[i]
            kind = types[i]
            seat = action.seat
            if action.type != "play":
                if kind == "show" and i == show_at and chances:
                    asked_by = seat
                if kind not in _AUCTION:
                    in_trick = tracking and kind in ("show", "pair")
                    details.add(i, action, k + 1 if in_trick else None)
                continue
            card = action.card
            cards[i] = card.text
            if tracking and k < n_tricks and tricks[k].cards[place] != (seat, card):
                tracking = False
            if not tracking:
                continue
            trick_nos[i] = _code(k + 1)
            if place == 0:
                led = card.suit
                asked_by = None
            elif chances and (i < show_at or asked_by is seat):
                asked = asked_by is seat
                if led is not None and (asked or (card.suit != led and i not in revokes)):
                    marks.append(_code(i) + (led if asked else led.lower()))
                if asked:
                    asked_by = None
            place += 1
            if place == trick_size:
                k += 1
                place = 0
                trick_size = len(tricks[k].cards) if k < n_tricks else size
        for i, text in details.card_at.items():
            cards[i] = text
        for i, trick in details.trick_at.items():
            trick_nos[i] = _code(trick)
        self.cards.append("".join(cards))
        self.trick_nos.append("".join(trick_nos))
        self.extras.append(details.extras())
        self._chances("".join(marks) if marks else None, show_rule)
        self._tricks(tricks)

    # ------------------------------------------------------------------------------ Arrow
    def arrow_tables(self) -> dict[str, pa.Table]:
        """One Arrow table per stored table, typed as the DDL says."""
        out: dict[str, pa.Table] = {
            "matches": _from_rows("matches", self.match_rows),
            "match_players": _from_rows("match_players", self.player_rows),
            "deals": _from_rows("deals", self.deal_rows),
            "findings": _from_rows("findings", self.finding_rows),
        }
        deals = out["deals"]
        match_ids = deals["match_id"].combine_chunks()
        deal_nos = deals["deal_no"].combine_chunks()

        def keyed(table: str, rows: list[tuple[Any, ...]]) -> pa.Table:
            index = small_ints([r[0] for r in rows], pa.int32())
            names = [c.name for c in TABLES[table]][2:]
            return _table(
                table,
                {
                    "match_id": match_ids.take(index),
                    "deal_no": deal_nos.take(index),
                    **_columns(table, names, rows, skip=1),
                },
            )

        out["pairs"] = keyed("pairs", self.pair_rows)
        packed = {
            "types": self.types,
            "seats": self.seats,
            "cards": self.cards,
            "trick_nos": self.trick_nos,
            "bids": self.bids,
            "extras": self.extras,
            "times": self.times,
            "notes": self.notes,
            "chances": self.chances,
            "show_rule": self.show_rules,
            "hand_seats": self.hand_seats,
            "hand_cards": self.hand_cards,
            "trick_leaders": self.trick_leaders,
            "trick_winners": self.trick_winners,
            "trick_points": self.trick_points,
            "trick_seats": self.trick_seats,
            "trick_cards": self.trick_cards,
            "hand_features": hand_features(
                self.hand_cards, self.hand_seats, [row[_TRUMP_AT] for row in self.deal_rows]
            ),
        }
        out["deal_cards"] = _table(
            "deal_cards",
            {
                "match_id": match_ids,
                "deal_no": deal_nos,
                **{
                    name: pa.array(values, _TYPES[f"deal_cards.{name}"])
                    for name, values in packed.items()
                },
            },
        )
        return out


def _columns(
    table: str, names: Sequence[str], rows: list[tuple[Any, ...]], *, skip: int = 0
) -> dict[str, pa.Array]:
    values = list(zip(*rows, strict=True))[skip:] if rows else [()] * len(names)
    return {
        name: pa.array(col, _TYPES[f"{table}.{name}"])
        for name, col in zip(names, values, strict=True)
    }


def _from_rows(table: str, rows: list[tuple[Any, ...]]) -> pa.Table:
    names = [c.name for c in TABLES[table]]
    return _table(table, _columns(table, names, rows))


def _table(table: str, columns: dict[str, pa.Array]) -> pa.Table:
    fields = [pa.field(name, _TYPES[f"{table}.{name}"]) for name in columns]
    return pa.Table.from_arrays(
        [
            values.cast(field.type) if values.type != field.type else values
            for values, field in zip(columns.values(), fields, strict=True)
        ],
        schema=pa.schema(fields),
    )
