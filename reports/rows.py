"""Turning matches and their audits into Arrow tables: the loader's Python half, built for speed.

Python touches every action, card and trick of a match, so this is where a load spends its
time. A :class:`Batch` therefore keeps the busy tables (the plays, the tricks, the hands)
column by column, as plain lists that C code turns into Arrow arrays without looking at each
value twice: seats and cards as one joined string with fixed-width offsets, small integers
through :mod:`array`, and ``match_id``/``deal_no`` by ``take`` from the deals. Sparse rows
(bids, findings, show chances) stay tuples. Team columns are derived from seats in Arrow.

Hand features and the moments a seat could not follow suit are computed here because SQL
cannot easily derive them.

>>> from replay import audit_match, random_match
>>> from schema import Rules
>>> log = random_match(Rules.preset("pagat"), seed=3)
>>> batch = Batch(dt.datetime(2026, 1, 1))
>>> batch.add(log, audit_match(log), "x.jsonl", 1) == len(log.deals)
True
>>> tables = batch.arrow_tables()
>>> tables["deals"].num_rows == len(log.deals), tables["matches"]["match_id"][0].as_py()
(True, 'random-3')
"""

from __future__ import annotations

import array
import datetime as dt
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import accumulate
from typing import Any, Final

import pyarrow as pa
import pyarrow.compute as pc

from replay import AuditedMatch, DealFacts, Finding, TrickFacts
from reports.ddl import TABLES
from schema.cards import SUITS, Card, Seat, Suit, Team
from schema.log import Deal, MatchLog, dump_json

INT64_MIN: Final = -(2**63)
INT64_MAX: Final = 2**63 - 1

_AUCTION: Final = frozenset({"bid", "pass", "ditto"})
# Seat.team is a property that tests membership each time; a dict is several times faster.
_TEAM: Final[dict[Seat | None, Team | None]] = {seat: seat.team for seat in Seat} | {None: None}
_SUIT_INDEX: Final[dict[str | None, int]] = {suit.value: i for i, suit in enumerate(SUITS)}
_START_KEYS: Final = ("start", "started_at", "start_time", "started", "date")
_TRICK_OF_PLAY: Final = {
    size: tuple(p // size + 1 for p in range(size * 9)) for size in (3, 4)
}  # a deal's plays in order go to tricks 1, 1, 1, 1, 2, ...
_UNSEEN: Final = "??"  # an unrecorded card in the joined card strings; NULL in the tables
_TYPES: Final[dict[str, pa.DataType]] = {
    f"{table}.{c.name}": c.arrow_type for table, cols in TABLES.items() for c in cols
}


class RowError(ValueError):
    """A match that cannot be stored as it is (e.g. a number beyond 64 bits)."""


HandFeatures = tuple[int, int, int, int, int, int, str, int, tuple[int, int, int, int]]
"""points, jacks, nines, aces, tens, longest, longest suit, suits, count per suit (S H D C)."""


@lru_cache(maxsize=1 << 16)
def four_card_features(cards: tuple[Card, ...]) -> HandFeatures:
    """Features of four cards (a bidding hand), cached: there are only 35,960 such hands.

    >>> four_card_features(tuple(Card.parse(c) for c in ("JS", "9S", "AH", "7S")))
    (6, 1, 1, 1, 0, 3, 'S', 2, (3, 1, 0, 0))
    """
    counts = [0, 0, 0, 0]
    suit_points = [0, 0, 0, 0]
    ranks = [c.rank.value for c in cards]
    for card in cards:
        i = card.suit.index
        counts[i] += 1
        suit_points[i] += card.points
    # a tie goes to the suit with more points, then to the first in S, H, D, C
    best = min(range(4), key=lambda i: (-counts[i], -suit_points[i], i))
    return (
        sum(suit_points),
        ranks.count("J"),
        ranks.count("9"),
        ranks.count("A"),
        ranks.count("T"),
        max(counts),
        SUITS[best].value,
        sum(1 for n in counts if n),
        (counts[0], counts[1], counts[2], counts[3]),
    )


def started_at(meta: Mapping[str, Any] | None) -> dt.datetime | None:
    """When the match began, from ``meta``'s first ISO 8601 time under a known key (UTC).

    >>> started_at({"start": "2026-11-29T19:30:00+06:00"})
    datetime.datetime(2026, 11, 29, 13, 30)
    >>> started_at({"date": "2026-11-29"}), started_at({"start": 17}), started_at(None)
    (datetime.datetime(2026, 11, 29, 0, 0), None, None)
    """
    if not meta:
        return None
    for key in _START_KEYS:
        value = meta.get(key)
        if not isinstance(value, str):
            continue
        try:
            moment = dt.datetime.fromisoformat(value.strip())
        except ValueError:
            continue
        if moment.tzinfo is not None:
            moment = moment.astimezone(dt.UTC).replace(tzinfo=None)
        return moment
    return None


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


# ------------------------------------------------------------------------- Arrow helpers
_OFFSETS: dict[int, array.array[int]] = {}


def _offsets(width: int, count: int) -> pa.Buffer:
    """Offsets 0, width, 2*width, ... (count + 1 of them), from a cache grown by doubling."""
    cached = _OFFSETS.get(width)
    if cached is None or len(cached) <= count:
        size = max(count + 1, 2 * len(cached) if cached is not None else 4096)
        cached = _OFFSETS[width] = array.array("i", range(0, width * size, width))
    return pa.py_buffer(cached)


def fixed_text(values: list[str], width: int) -> pa.Array:
    """A string array from values that all have ``width`` ASCII characters, in one join.

    >>> fixed_text(["JS", "9H"], 2).to_pylist()
    ['JS', '9H']
    """
    data = "".join(values).encode()
    if len(data) != width * len(values):
        raise ValueError(f"not all values are {width} ASCII characters")
    return pa.Array.from_buffers(
        pa.string(), len(values), [None, _offsets(width, len(values)), pa.py_buffer(data)]
    )


_INT16: Final = pa.int16()
_ARRAY_CODES: Final = {pa.int16(): "h", pa.int32(): "i", pa.int8(): "b"}


def small_ints(values: list[int], kind: pa.DataType = _INT16) -> pa.Array:
    """An integer array (no NULLs) through :mod:`array`, without a Python check per value."""
    code = _ARRAY_CODES[kind]
    return pa.Array.from_buffers(kind, len(values), [None, pa.py_buffer(array.array(code, values))])


def _nulls_where(values: pa.Array, marker: Any) -> pa.Array:
    return pc.if_else(pc.equal(values, marker), pa.scalar(None, values.type), values)


def _teams(seats: pa.Array) -> pa.Array:
    north_south = pc.is_in(seats, value_set=pa.array(["N", "S"]))
    return pc.if_else(north_south, pa.scalar("NS"), pa.scalar("EW"))


DealFindings = Sequence[tuple[int | None, str, str]]
"""A deal's findings as (action, code, severity)."""


class Batch:
    """The rows of many matches for one transaction.

    Lists named ``*_dk`` hold each row's deal as its index in :attr:`deal_rows`; the Arrow
    tables get ``match_id`` and ``deal_no`` from there. Tricks are kept as the engine's
    :class:`~replay.TrickFacts` tuples and taken apart in bulk.
    """

    def __init__(self, loaded_at: dt.datetime) -> None:
        self.loaded_at = loaded_at
        self.match_ids: list[str] = []
        self.deals = 0
        self.findings = 0
        self.match_rows: list[tuple[Any, ...]] = []
        self.player_rows: list[tuple[Any, ...]] = []
        self.deal_rows: list[tuple[Any, ...]] = []
        self.finding_rows: list[tuple[Any, ...]] = []
        self.other_rows: list[tuple[Any, ...]] = []  # every action but the plays; dk first
        self.chance_rows: list[tuple[Any, ...]] = []  # dk first
        self.pair_rows: list[tuple[Any, ...]] = []  # dk first
        self.hand_rows: list[tuple[Any, ...]] = []  # dk, seat, known, then the features
        self.hand_cards: list[str] = []  # 8 per hand, "??" unseen
        self.play_dk: list[int] = []
        self.play_no: list[int] = []
        self.play_seat: list[Seat] = []
        self.play_card: list[str] = []
        self.play_trick: list[int] = []  # 0: not placed in a replayed trick
        self.play_t: list[int | None] = []
        self.play_note: list[str | None] = []
        self.trick_dk: list[int] = []
        self.trick_facts: list[TrickFacts] = []

    def __len__(self) -> int:
        return len(self.match_ids)

    def _lists(self) -> list[list[Any]]:
        return [v for v in vars(self).values() if isinstance(v, list)]

    def add(
        self, match: MatchLog, audited: AuditedMatch, source: str | None, line: int | None
    ) -> int:
        """Add one match and its audit; returns its number of deals.

        Raises :class:`RowError` (and adds nothing) when the match cannot be stored.
        """
        marks = [(values, len(values)) for values in self._lists()]
        try:
            self._match(match, audited, source, line)
        except RowError:
            for values, mark in marks:
                del values[mark:]
            raise
        self.match_ids.append(audited.match_id)
        self.deals += len(match.deals)
        self.findings += len(audited.findings)
        return len(match.deals)

    def _match(
        self, match: MatchLog, audited: AuditedMatch, source: str | None, line: int | None
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
        for deal, facts in zip(match.deals, audited.deals, strict=True):
            self._deal(mid, deal, facts, by_deal.get(facts.number, ()), asking, show_rule)

    def _findings(
        self, mid: str, match: MatchLog, findings: Sequence[Finding]
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
        deal: Deal,
        f: DealFacts,
        findings: DealFindings,
        asking: bool,
        show_rule: str,
    ) -> None:
        dk = len(self.deal_rows)
        caller = f.caller
        caller_team = _TEAM[caller]
        trump = f.trump
        show = f.show
        points = f.points
        errors = sum(1 for x in findings if x[2] == "error") if findings else 0
        hands = deal.hands
        known = self._hands(dk, hands, _SUIT_INDEX.get(trump, -1)) if hands else 0
        result = deal.result
        rpoints = result.points if result is not None else None
        rscore = result.score if result is not None else None
        tricks = f.tricks
        self.deal_rows.append(
            (
                mid,
                f.number,
                f.dealer,
                caller,
                caller_team,
                _checked(f.call, "the call"),
                trump,
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
                known == 32,
                hands is not None,
                result is not None,
                rpoints.NS if rpoints is not None else None,
                rpoints.EW if rpoints is not None else None,
                rscore.NS if rscore is not None else None,
                rscore.EW if rscore is not None else None,
                result.thrown_in if result is not None else None,
            )
        )
        if tricks:
            self.trick_facts.extend(tricks)
            self.trick_dk.extend([dk] * len(tricks))
        for pair in f.pairs:
            self.pair_rows.append(
                (dk, pair.action, pair.seat, _TEAM[pair.seat], pair.target_change)
            )
        chances = asking and f.single_hand is None and f.trump_mode != "no_trump"
        trump_suit = Suit(trump) if trump is not None else None
        self._actions(dk, deal, f, findings, errors > 0, chances, show_rule, trump_suit)

    def _hands(self, dk: int, hands: Mapping[Seat, Sequence[Card | None]], trump: int) -> int:
        known = 0
        for seat, cards in hands.items():
            texts = [_UNSEEN if c is None else c.text for c in cards]
            self.hand_cards.extend(texts)
            seen = 8 - texts.count(_UNSEEN)
            known += seen
            first = tuple(cards[:4])
            if None in first:
                self.hand_rows.append((dk, seat, seen, *(None,) * 11))
                continue
            f4 = four_card_features(first)
            all_points = all_trumps = None
            if seen == 8:
                f8 = four_card_features(tuple(cards[4:]))
                all_points = f4[0] + f8[0]
                if trump >= 0:
                    all_trumps = f4[8][trump] + f8[8][trump]
            self.hand_rows.append(
                (
                    dk,
                    seat,
                    seen,
                    f4[0],
                    f4[1],
                    f4[2],
                    f4[3],
                    f4[4],
                    f4[5],
                    f4[6],
                    f4[7],
                    f4[8][trump] if trump >= 0 else None,
                    all_points,
                    all_trumps,
                )
            )
        return known

    def _other(
        self, dk: int, i: int, g: dict[str, Any], trick: int | None, standing: int | None = None
    ) -> None:
        card = g.get("card")
        value = g.get("value")
        t = g["t"]
        if value is not None and not INT64_MIN <= value <= INT64_MAX:
            raise RowError(f"the bid {value} does not fit in 64 bits")
        if t is not None and not INT64_MIN <= t <= INT64_MAX:
            raise RowError(f"the time {t} does not fit in 64 bits")
        self.other_rows.append(
            (
                dk,
                i,
                g["seat"],
                g["type"],
                value,
                card.text if card is not None else None,
                g.get("suit"),
                g.get("seventh"),
                g.get("mode"),
                trick,
                standing,
                t,
                g["note"],
            )
        )

    def _actions(
        self,
        dk: int,
        deal: Deal,
        f: DealFacts,
        findings: DealFindings,
        check: bool,
        chances: bool,
        show_rule: str,
        trump: Suit | None,
    ) -> None:
        """The deal's actions, each play's trick, and the seats that could not follow.

        Everything before the first card goes through one loop. A deal without errors,
        where only the show and Pairs come between the cards, has its plays taken in bulk;
        any other deal goes through :meth:`_walk`, which also compares each play with the
        replayed trick and stops numbering tricks where the two part.
        """
        actions = deal.actions
        count = len(actions)
        standing: int | None = None
        first = 0
        for first in range(count):
            g = actions[first].__dict__
            kind = g["type"]
            if kind == "play":
                break
            if kind in _AUCTION:
                self._other(dk, first, g, None, standing)
                value = g.get("value")
                if value is not None and (standing is None or value > standing):
                    standing = value
            else:
                self._other(dk, first, g, 1 if kind in ("show", "pair") else None)
        else:
            return  # no card was played
        tricks = f.tricks
        show = f.show.action if f.show is not None else -1
        # an automatic show happens at a play: then it is no action of its own
        between = sorted(
            ([show] if show > first and actions[show].type != "play" else [])
            + [pair.action for pair in f.pairs if pair.action > first]
        )
        size = 3 if f.single_hand is not None else 4
        plays = count - first - len(between)
        placed = sum(map(len, [tr.cards for tr in tricks]))
        if check or not placed <= plays < placed + size:
            self._walk(dk, deal, f, first, findings, chances, show_rule, trump)
            return
        if between:
            skip = set(between)
            numbers = [i for i in range(first, count) if i not in skip]
        else:
            numbers = list(range(first, count))
        moves = [actions[i] for i in numbers]
        if [a.type for a in moves].count("play") != plays:
            self._walk(dk, deal, f, first, findings, chances, show_rule, trump)
            return
        for i in between:
            trick = len([n for n in numbers if n < i]) // size + 1
            self._other(dk, i, actions[i].__dict__, trick)
        self.play_dk.extend([dk] * plays)
        self.play_no.extend(numbers)
        self.play_seat.extend([a.seat for a in moves])
        self.play_card.extend([a.card.text for a in moves])  # type: ignore[union-attr]
        self.play_trick.extend(_TRICK_OF_PLAY[size][:plays])
        times = [a.t for a in moves]
        if times.count(None) != plays:
            for t in times:
                _checked(t, "the time")
        self.play_t.extend(times)
        self.play_note.extend([a.note for a in moves])
        if chances:
            self._chances(dk, f, numbers, moves, size, findings, show_rule, trump)

    def _chances(
        self,
        dk: int,
        f: DealFacts,
        numbers: list[int],
        moves: list[Any],
        size: int,
        findings: DealFindings,
        show_rule: str,
        trump: Suit | None,
    ) -> None:
        """The plays where a seat could not follow before the trump was shown."""
        show = f.show
        show_at = show.action if show is not None else 1 << 30
        asker = show.seat if show is not None else None
        revokes = {x[0] for x in findings if x[1] == "REVOKE"}
        tricks = f.tricks
        caller = f.caller
        led: Suit | None = None
        for p, (i, a) in enumerate(zip(numbers, moves, strict=True)):
            asked = i > show_at and a.seat is asker
            if i > show_at and not asked:
                break
            k, place = divmod(p, size)
            card = a.card
            if place == 0:
                led = card.suit
                continue
            if not asked and (card.suit is led or i in revokes):
                continue
            seat = a.seat
            tr = tricks[k] if k < len(tricks) else None
            won = tr.winner if tr is not None else None
            self.chance_rows.append(
                (
                    dk,
                    k + 1,
                    i,
                    seat,
                    _TEAM[seat],
                    seat is caller,
                    show_rule,
                    asked,
                    led,
                    card.text,
                    card.suit is trump if trump is not None else None,
                    won,
                    _TEAM[won] is _TEAM[seat] if won is not None else None,
                    tr.points if tr is not None else None,
                )
            )
            if asked:
                break

    def _walk(
        self,
        dk: int,
        deal: Deal,
        f: DealFacts,
        first: int,
        findings: DealFindings,
        chances: bool,
        show_rule: str,
        trump: Suit | None,
    ) -> None:
        """Actions from the first card on, one by one (a deal with errors, or an odd one)."""
        tricks = f.tricks
        n_tricks = len(tricks)
        show_at = f.show.action if f.show is not None else 1 << 30
        revokes = {x[0] for x in findings if x[1] == "REVOKE"}
        caller = f.caller
        size = 3 if f.single_hand is not None else 4
        k = place = 0  # the trick in progress (0-based) and the next card's place in it
        trick_size = len(tricks[0].cards) if n_tricks else size
        tracking = True  # False once the log's plays part from the replayed tricks
        asked_by: Seat | None = None
        led: Suit | None = None
        actions = deal.actions
        for i in range(first, len(actions)):
            g = actions[i].__dict__
            kind = g["type"]
            seat = g["seat"]
            if kind != "play":
                if kind == "show" and i == show_at and chances:
                    asked_by = seat
                self._other(dk, i, g, k + 1 if tracking and kind in ("show", "pair") else None)
                continue
            card = g["card"]
            self.play_dk.append(dk)
            self.play_no.append(i)
            self.play_seat.append(seat)
            self.play_card.append(card.text)
            self.play_t.append(_checked(g["t"], "the time"))
            self.play_note.append(g["note"])
            if tracking and k < n_tricks and tricks[k].cards[place] != (seat, card):
                tracking = False
            if not tracking:
                self.play_trick.append(0)
                continue
            self.play_trick.append(k + 1)
            if place == 0:
                led = card.suit
                asked_by = None
            elif chances and (i < show_at or asked_by is seat):
                asked = asked_by is seat
                if asked or (card.suit is not led and i not in revokes):
                    tr = tricks[k] if k < n_tricks else None
                    won = tr.winner if tr is not None else None
                    self.chance_rows.append(
                        (
                            dk,
                            k + 1,
                            i,
                            seat,
                            _TEAM[seat],
                            seat is caller,
                            show_rule,
                            asked,
                            led,
                            card.text,
                            card.suit is trump if trump is not None else None,
                            won,
                            _TEAM[won] is _TEAM[seat] if won is not None else None,
                            tr.points if tr is not None else None,
                        )
                    )
                if asked:
                    asked_by = None
            place += 1
            if place == trick_size:
                k += 1
                place = 0
                trick_size = len(tricks[k].cards) if k < n_tricks else size

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

        def keys(dk: list[int]) -> dict[str, pa.Array]:
            index = small_ints(dk, pa.int32())
            return {"match_id": match_ids.take(index), "deal_no": deal_nos.take(index)}

        def keyed(table: str, rows: list[tuple[Any, ...]]) -> pa.Table:
            names = [c.name for c in TABLES[table]][2:]
            return _table(
                table, {**keys([r[0] for r in rows]), **_columns(table, names, rows, skip=1)}
            )

        out["show_chances"] = keyed("show_chances", self.chance_rows)
        out["pairs"] = keyed("pairs", self.pair_rows)
        out["other_actions"] = keyed("other_actions", self.other_rows)
        out["plays"] = _table(
            "plays",
            {
                **keys(self.play_dk),
                "action_no": small_ints(self.play_no),
                "seat": fixed_text(self.play_seat, 1),  # type: ignore[arg-type]
                "card": fixed_text(self.play_card, 2),
                "trick_no": _nulls_where(small_ints(self.play_trick), 0),
                "t": pa.array(self.play_t, pa.int64()),
                "note": pa.array(self.play_note, pa.string()),
            },
        )
        out["tricks"] = self._tricks_table(keys(self.trick_dk), deals)
        hands = len(self.hand_rows)
        hand_seats = pa.array([r[1] for r in self.hand_rows], pa.string())
        names = [c.name for c in TABLES["hands"]][6:]
        out["hands"] = _table(
            "hands",
            {
                **keys([r[0] for r in self.hand_rows]),
                "seat": hand_seats,
                "team": _teams(hand_seats),
                "cards": pa.ListArray.from_arrays(
                    pa.Array.from_buffers(pa.int32(), hands + 1, [None, _offsets(8, hands)]),
                    _nulls_where(fixed_text(self.hand_cards, 2), _UNSEEN),
                ),
                **_columns("hands", ["known", *names], self.hand_rows, skip=2),
            },
        )
        return out

    def _tricks_table(self, keys: dict[str, pa.Array], deals: pa.Table) -> pa.Table:
        """The tricks, taken apart in bulk; the rest is vector arithmetic in Arrow."""
        if self.trick_facts:
            numbers, leaders, cards, winners, points = zip(*self.trick_facts, strict=True)
        else:
            numbers = leaders = cards = winners = points = ()
        flat = [pair for trick in cards for pair in trick]
        offsets = [0, *accumulate(map(len, cards))]
        card_list = pa.ListArray.from_arrays(
            small_ints(offsets, pa.int32()), fixed_text([c.text for _, c in flat], 2)
        )
        winner = fixed_text(list(winners), 1)
        # each trick has exactly one card of its winner: pick it out
        owner = fixed_text([s for s, _ in flat], 1)
        parent = pc.list_parent_indices(card_list)
        winning = pc.filter(card_list.flatten(), pc.equal(owner, winner.take(parent)))
        led = pc.utf8_slice_codeunits(pc.list_element(card_list, 0), 1, 2)
        deal_of = small_ints(self.trick_dk, pa.int32())
        trump = deals["trump"].combine_chunks().take(deal_of)
        show_trick = deals["show_trick"].combine_chunks().take(deal_of)
        number = small_ints(list(numbers))
        counted = pc.fill_null(
            pc.and_(pc.greater_equal(number, show_trick), pc.is_valid(trump)), False
        )
        by_trump = pc.fill_null(
            pc.and_(
                counted,
                pc.and_(
                    pc.equal(pc.utf8_slice_codeunits(winning, 1, 2), trump),
                    pc.not_equal(led, trump),
                ),
            ),
            False,
        )
        return _table(
            "tricks",
            {
                **keys,
                "trick_no": number,
                "leader": fixed_text(list(leaders), 1),
                "winner": winner,
                "winner_team": _teams(winner),
                "points": small_ints(list(points)),
                "led_suit": led,
                "cards": card_list,
                "winning_card": winning,
                "trump_counted": counted,
                "won_by_trump": by_trump,
            },
        )


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
