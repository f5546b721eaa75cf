"""A Bhoos bot's log of the requests it received: one JSON payload a line.

The competition server asks a bot ``/bid``, ``/chooseTrump`` and ``/play``; each request
carries what that seat may know: ``playerId`` and ``playerIds``, its ``cards`` (still in
hand), the ``bidHistory``, and for ``/play`` the finished tricks (``handsHistory``: leader,
four cards, winner), the cards ``played`` so far in the current trick, ``teams`` (bid and
points won), ``trumpSuit`` (``false`` until the seat may know it) and ``trumpRevealed``
(``false``, or ``{"hand": trick from 1, "playerId": who showed}``).

The payloads of one game merge into one match from that seat's view: its own hand (the
others unknown), the auction, the trump (unknown until shown, unless the seat called it),
the show and every card seen played. A payload that fits the current game, even one logged
out of order, joins it; one that does not starts a new game. A bad line is reported and
skipped; the game goes on without it.

Servers differ on who speaks first: the competition's archive has ``playerIds[1]`` bid and
lead first (index 0 deals), its starter kit and practice sandbox ``playerIds[0]``. Each
game's order is read from its payloads (:func:`first_shown`); ``first_seat`` is the index
assumed for a game whose payloads do not show it, and the record's note says so.

>>> import io
>>> line = b'{"playerId": "b", "playerIds": ["a", "b", "c", "d"], "cards": ["JS"]}'
>>> [str(p) for r in read_stream(io.BytesIO(line), "bot.log") for p in r.problems]
['bot.log:1: bidHistory: missing required field']
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Final

import orjson

from twentynine.importers import _bhoos
from twentynine.importers._bhoos import Problems
from twentynine.importers.bhoos_protocol import ARCHIVE_FIRST, Kind
from twentynine.importers.canonical import Record
from twentynine.importers.errors import InputProblem, brief
from twentynine.schema.cards import Card, Seat, Suit
from twentynine.schema.log import MatchLog, PlayerRef

FORMAT = "bhoos-play"
STALE_LINES = 200  # a game with no request in this many lines is over
_PHASE: Final[dict[Kind, int]] = {"bid": 0, "chooseTrump": 1, "play": 2}


@dataclass(frozen=True)
class Payload:
    """One request, checked and converted; ``kind`` says which endpoint it was for."""

    line: int
    kind: Kind
    player_id: str
    player_ids: tuple[str, ...]
    cards: tuple[Card, ...]
    bids: tuple[tuple[Seat, int], ...]
    tricks: tuple[tuple[Seat, tuple[Card, ...]], ...] = ()
    played: tuple[Card, ...] = ()
    trump: Suit | None = None
    revealed: tuple[int, Seat] | None = None
    teams: Any = None

    @property
    def index(self) -> int:
        """This seat's index in ``playerIds``."""
        return self.player_ids.index(self.player_id)

    @property
    def seat(self) -> Seat:
        return _bhoos.SEAT_OF_INDEX[self.index]

    def seen_plays(self) -> list[tuple[Seat, Card]]:
        """Every card seen played so far, with its seat, in order."""
        seen: list[tuple[Seat, Card]] = []
        for leader, trick in self.tricks:
            seen.extend(zip(_bhoos.trick_seats(leader), trick, strict=False))
        seen.extend(zip(_bhoos.trick_seats(self.current_leader), self.played, strict=False))
        return seen

    @property
    def current_leader(self) -> Seat:
        """Who led the current trick: the request comes on this seat's turn, so the seat
        ``len(played)`` places before it."""
        return _bhoos.SEAT_OF_INDEX[(self.index - len(self.played)) % 4]

    @property
    def progress(self) -> tuple[int, int, int, int, bool]:
        """How far into the game the request comes, for putting a game's requests in order."""
        phase = _PHASE[self.kind]
        return phase, len(self.bids), len(self.tricks), len(self.played), self.revealed is not None


def first_shown(payload: Payload) -> tuple[int, str] | None:
    """The index in ``playerIds`` of the seat that bids and leads first, as the payload shows
    it, and the field that shows it; None when it does not.

    The first bid says it, else the first trick's leader, else (a ``/play`` in the first
    trick) the cards ``played`` before this seat's turn; a ``/bid`` with no bid before it
    comes to the first speaker.

    >>> ids = ("A1", "B1", "A2", "B2")
    >>> first_shown(Payload(1, "play", "A2", ids, (), (), played=(Card.parse("7H"),)))
    (1, 'played')
    >>> first_shown(Payload(1, "chooseTrump", "A2", ids, (), ())) is None
    True
    """
    if payload.bids:
        return _bhoos.SEAT_OF_INDEX.index(payload.bids[0][0]), "bidHistory"
    if payload.tricks:
        return _bhoos.SEAT_OF_INDEX.index(payload.tricks[0][0]), "handsHistory"
    if payload.kind == "play":
        return (payload.index - len(payload.played)) % 4, "played"
    if payload.kind == "bid":
        return payload.index, "bidHistory"
    return None


@dataclass
class _Game:
    """The requests of one game in the game's order, and the line of the latest one read."""

    payloads: list[Payload]
    latest: int

    def place(self, payload: Payload) -> int | None:
        """Where the payload goes among the game's requests, or None when it is no part of
        it. A request that repeats one already placed (the same point of the game) is a
        part only as the latest, a retry; otherwise it is the same game logged again."""
        game = self.payloads
        if continues(game[-1], payload):
            return len(game)
        progress = payload.progress
        if any(p.progress == progress for p in game):
            return None
        at = next((i for i, p in enumerate(game) if p.progress > progress), None)
        if at is None:  # later than every request, yet no continuation of the latest
            return None
        if (at == 0 or continues(game[at - 1], payload)) and continues(payload, game[at]):
            return at
        return None


def read_stream(
    stream: Iterable[bytes], source: str, first_seat: int | None = None
) -> Iterator[Record[MatchLog]]:
    """Read a payload log: one record per game found, and one per bad line.

    Requests of several games (a server that plays two seats, or several tables at once)
    may be interleaved: each (seat, table) has its own game, closed when a request is no
    part of it or when no request came for it in ``STALE_LINES`` lines. ``first_seat`` is
    the index in ``playerIds`` of the first speaker for a game whose payloads do not show
    it (:data:`ARCHIVE_FIRST` when None, with a note).

    >>> import io
    >>> [r.problems[0].reason for r in read_stream(io.BytesIO(b"\\n"), "empty.log")]
    ['empty input']
    """
    games: dict[tuple[str, tuple[str, ...]], _Game] = {}  # least recently fed first
    empty = True
    for number, raw in enumerate(stream, 1):
        if not raw.strip():
            continue
        empty = False
        problems = Problems(source, number)
        payload = parse_payload(raw, problems)
        if payload is None:
            yield Record(source, number, None, tuple(problems.items))
            continue
        key = (payload.player_id, payload.player_ids)
        game = games.pop(key, None)
        at = None if game is None else game.place(payload)
        if game is not None and at is not None:
            game.payloads.insert(at, payload)
            game.latest = number
        else:
            if game is not None:
                yield build(game.payloads, source, first_seat)
            game = _Game([payload], number)
        games[key] = game
        while number - next(iter(games.values())).latest > STALE_LINES:
            yield build(games.pop(next(iter(games))).payloads, source, first_seat)
    for game in sorted(games.values(), key=lambda g: min(p.line for p in g.payloads)):
        yield build(game.payloads, source, first_seat)
    if empty:
        yield Record(source, None, None, (InputProblem(source, None, None, "empty input"),))


def parse_payload(raw: bytes, problems: Problems) -> Payload | None:
    """Check one line and turn it into a :class:`Payload`, or add problems and give None."""
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        problems.add("", f"invalid JSON: {exc.msg} (column {exc.colno})")
        return None
    if not isinstance(data, dict):
        problems.add("", "a payload must be a JSON object")
        return None
    for key in ("playerId", "playerIds", "cards", "bidHistory"):
        if key not in data:
            problems.add(key, "missing required field")
    if problems.items:
        return None
    ids = _bhoos.player_ids(data["playerIds"], "playerIds", problems)
    me = data["playerId"]
    if ids is not None and me not in ids:
        problems.add("playerId", f"{brief(me)} is not one of the playerIds")
    if ids is None or problems.items:
        return None
    seat_of = {player: _bhoos.SEAT_OF_INDEX[i] for i, player in enumerate(ids)}
    cards = _bhoos.cards(data["cards"], "cards", problems)
    if len(cards) > 8:
        problems.add("cards", f"a hand holds at most 8 cards, not {len(cards)}")
    bids = _bhoos.bid_history(data["bidHistory"], "bidHistory", seat_of, problems)
    kind: Kind
    if "handsHistory" in data or "played" in data:
        kind = "play"
    elif "bidState" in data:
        kind = "bid"
    else:
        kind = "chooseTrump"
    common: dict[str, Any] = {
        "line": problems.line,
        "kind": kind,
        "player_id": me,
        "player_ids": tuple(ids),
        "cards": tuple(cards),
        "bids": tuple(bids),
    }
    if kind != "play":
        return None if problems.items else Payload(**common)
    for key in ("handsHistory", "played"):
        if key not in data:
            problems.add(key, "missing required field")
    if problems.items:
        return None
    tricks = _tricks(data["handsHistory"], seat_of, problems)
    played = _bhoos.cards(data["played"], "played", problems)
    if len(played) > 3:
        problems.add("played", f"at most 3 cards come before a seat's turn, not {len(played)}")
    trump = _trump_suit(data.get("trumpSuit", False), problems)
    revealed = _revealed(data.get("trumpRevealed", False), seat_of, problems)
    teams = data.get("teams")
    try:
        orjson.dumps(teams)
    except TypeError:
        problems.add("teams", "cannot be kept: nested too deeply or numbers too large")
    if problems.items:
        return None
    return Payload(
        **common,
        tricks=tuple(tricks),
        played=tuple(played),
        trump=trump,
        revealed=revealed,
        teams=teams,
    )


def _tricks(
    value: object, seat_of: dict[str, Seat], problems: Problems
) -> list[tuple[Seat, tuple[Card, ...]]]:
    if not isinstance(value, list) or len(value) > 8:
        problems.add("handsHistory", "must be a list of up to 8 [leaderId, [4 cards], winnerId]")
        return []
    tricks: list[tuple[Seat, tuple[Card, ...]]] = []
    for i, trick in enumerate(value):
        where = f"handsHistory[{i}]"
        if not isinstance(trick, list) or len(trick) != 3:
            problems.add(where, "must be [leaderId, [4 cards], winnerId]")
            continue
        leader, cards, won_by = trick
        for position, who in ((0, leader), (2, won_by)):
            if not isinstance(who, str) or who not in seat_of:
                problems.add(f"{where}[{position}]", f"{brief(who)} is not one of the playerIds")
        found = _bhoos.cards(cards, f"{where}[1]", problems, size=4)
        if isinstance(leader, str) and leader in seat_of:
            # the winner is not kept: the engine works it out, and the next leader is known
            tricks.append((seat_of[leader], tuple(found)))
    return tricks


def _trump_suit(value: object, problems: Problems) -> Suit | None:
    if value is False or value is None:
        return None
    found = _bhoos.suit(value)
    if found is None:
        problems.add("trumpSuit", f"{brief(value)} is not a suit (S, H, D or C) or false")
    return found


def _revealed(
    value: object, seat_of: dict[str, Seat], problems: Problems
) -> tuple[int, Seat] | None:
    if value is False or value is None:
        return None
    if not isinstance(value, dict):
        problems.add("trumpRevealed", "must be false or {hand, playerId}")
        return None
    number, who = value.get("hand"), value.get("playerId")
    if not _bhoos.is_int(number) or not 1 <= number <= 8:
        problems.add("trumpRevealed.hand", f"{brief(number)} is not a trick number from 1 to 8")
        return None
    if not isinstance(who, str) or who not in seat_of:
        problems.add("trumpRevealed.playerId", f"{brief(who)} is not one of the playerIds")
        return None
    return number, seat_of[who]


def continues(last: Payload, payload: Payload) -> bool:
    """Whether the payload is a later request of the same game than ``last``, from the same
    seat (or the same request again)."""
    if (payload.player_id, payload.player_ids) != (last.player_id, last.player_ids):
        return False
    if payload.bids[: len(last.bids)] != last.bids:
        return False
    if payload.kind != "play":
        # Bidding requests come before play, with the same first four cards.
        return last.kind != "play" and payload.cards == last.cards
    if last.kind != "play":
        mine = {card for seat, card in payload.seen_plays() if seat == payload.seat}
        return set(last.cards) <= set(payload.cards) | mine
    if payload.bids != last.bids or payload.tricks[: len(last.tricks)] != last.tricks:
        return False
    same_trick = len(payload.tricks) == len(last.tricks)
    if same_trick and payload.played[: len(last.played)] != last.played:
        return False
    return set(payload.cards) <= set(last.cards)


def build(game: list[Payload], source: str, first_seat: int | None = None) -> Record[MatchLog]:
    """The match one seat saw, from the payloads of one game in the game's order.

    The dealer sits before the first speaker, whose index the payloads show
    (:func:`first_shown`) or else is ``first_seat`` (:data:`ARCHIVE_FIRST` when None, with a
    note that says it was assumed); ``meta["first_speaker"]`` says which and why.
    """
    last = game[-1]
    lines = [min(p.line for p in game), max(p.line for p in game)]
    me = last.seat
    problems = Problems(source, lines[0])
    shown = next((found for p in game if (found := first_shown(p)) is not None), None)
    notes: tuple[InputProblem, ...] = ()
    if shown is not None:
        first, shown_by = shown
    elif first_seat is not None:
        first, shown_by = first_seat, "--first-seat"
    else:
        first, shown_by = ARCHIVE_FIRST, "assumed"
        reason = (
            f"nothing in this game shows who speaks first: assumed playerIds[{first}], the "
            "competition archive's order (--first-seat sets it)"
        )
        notes = (InputProblem(source, lines[0], None, reason),)
    dealer = _bhoos.SEAT_OF_INDEX[(first - 1) % 4]
    plays = [p for p in game if p.kind == "play"]
    bidding = [p for p in game if p.kind != "play"]

    hand: list[Card] = []
    for known in (
        bidding[0].cards if bidding else (),
        plays[0].cards if plays else (),
        [card for seat, card in last.seen_plays() if seat == me],
        last.cards,
    ):
        hand.extend(card for card in known if card not in hand)
    if len(hand) > 8:
        problems.add("cards", f"the seat's cards add up to {len(hand)}, more than 8")
        return Record(source, lines[0], None, tuple(problems.items))

    auction, caller = _bhoos.bid_actions(last.bids)
    actions = list(auction)
    if plays:
        trump = next((p.trump for p in plays if p.trump is not None), None)
        actions.append(_bhoos.trump_action(caller if caller is not None else dealer, trump))
        tricks = [*last.tricks, (last.current_leader, last.played)] if last.played else last.tricks
        show = None if last.revealed is None else (*last.revealed, trump)
        cards_played, placed = _bhoos.play_actions(tricks, show)
        actions.extend(cards_played)
        if show is not None and not placed:
            if show[0] != len(tricks) + 1:
                problems.add("trumpRevealed.hand", f"names trick {show[0]}, which was not seen")
                return Record(source, lines[0], None, tuple(problems.items))
            # Shown by this seat on its turn, before the card it has yet to play.
            actions.append(_bhoos.show_action(show[1], show[2]))

    hands: dict[Seat, list[Card | None]] = {seat: [None] * 8 for seat in _bhoos.SEAT_OF_INDEX}
    hands[me] = [*hand, *[None] * (8 - len(hand))]
    digest = hashlib.sha256(
        orjson.dumps([last.player_ids, last.player_id, sorted(c.text for c in hand)])
    ).hexdigest()[:12]
    meta: dict[str, Any] = {
        "importer": FORMAT,
        "seat": me.value,
        "player_id": last.player_id,
        "lines": lines,
        "payloads": len(game),
        "first_speaker": {"index": first, "shown_by": shown_by},
    }
    if plays and last.teams is not None:
        meta["teams"] = last.teams
    match = MatchLog.model_validate(
        {
            "format": "twentynine.match",
            "version": 1,
            "id": f"bhoos-play-{digest}",
            "rules": "bhoos",
            "players": {
                _bhoos.SEAT_OF_INDEX[i]: PlayerRef(name=player, id=player)
                for i, player in enumerate(last.player_ids)
            },
            "meta": meta,
            "deals": [{"dealer": dealer, "hands": hands, "actions": actions}],
        }
    )
    return Record(source, lines[0], match, notes=notes)
