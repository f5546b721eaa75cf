"""What the two Bhoos formats share: seats, cards, bids and tricks as the server records them.

The server names players by id and seats by their index in ``playerIds``: index 0 deals,
index 1 bids first and leads the first trick, play goes up the indices. We map index ``i``
to the ``i``-th seat from North in the bhoos preset's direction (clockwise: N, E, S, W), so
the dealer is North and East speaks first; indices 0 and 2 (North-South) are partners.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import getitem
from typing import Any, Final, TypeGuard

from twentynine.importers.errors import InputProblem, brief
from twentynine.importers.notation import parse_card
from twentynine.schema.cards import Card, Seat, Suit
from twentynine.schema.rules import Rules

BHOOS_RULES: Final = Rules.preset("bhoos")
SEAT_OF_INDEX: Final[tuple[Seat, Seat, Seat, Seat]] = Seat.N.order_from(BHOOS_RULES.direction)
DEALER: Final = SEAT_OF_INDEX[0]
FIRST_LEADER: Final = SEAT_OF_INDEX[1]
SEAT_TEXT_OF_INDEX: Final = tuple(seat.value for seat in SEAT_OF_INDEX)
"""The seats of :data:`SEAT_OF_INDEX` as the log writes them (plain strings: an enum's
``value`` is a property, slow where a game reads it a dozen times)."""
_SEAT_TEXT: Final = {seat: seat.value for seat in Seat}
MAX_BID_VALUE: Final = 99  # far above 28: the engine judges bids, we only refuse absurd numbers
_SUITS: Final[dict[str, Suit]] = {
    "S": Suit.SPADES,
    "H": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "C": Suit.CLUBS,
    "♠": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
}


@dataclass
class Problems:
    """Problems found in one record, each placed under the record's base path.

    >>> p = Problems("a.json", 1, "games[2]")
    >>> p.add("cards[0][1]", "'XS' is not a card")
    >>> str(p.items[0])
    "a.json:1: games[2].cards[0][1]: 'XS' is not a card"
    """

    source: str
    line: int | None
    base: str = ""
    items: list[InputProblem] = field(default_factory=list)

    def path(self, path: str) -> str | None:
        if not self.base:
            return path or None
        if not path:
            return self.base
        return f"{self.base}{path}" if path.startswith("[") else f"{self.base}.{path}"

    def add(self, path: str, reason: str) -> None:
        self.items.append(InputProblem(self.source, self.line, self.path(path), reason))


def is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


_CARDS: Final[dict[str, Card]] = {}
"""Each spelling of a card read so far: an archive spells a few dozen cards thousands of
times. Only spellings that are cards are kept, and there are few of them."""


TEXT: Final[dict[Card, str]] = {card: card.text for card in Card}
"""Each card's text in the log notation (a lookup, quicker than the enum's property)."""


def card(value: object, path: str, problems: Problems) -> Card | None:
    """A Bhoos card (``1`` is the ace) as a Card, or None with a problem.

    >>> card("1S", "hand[0]", Problems("a.json", 1)).text
    'AS'
    """
    known = _CARDS.get(value) if type(value) is str else None
    if known is not None:
        return known
    try:
        found = parse_card(value, ace_aliases=("1",))  # type: ignore[arg-type]
    except ValueError as exc:
        problems.add(path, str(exc))
        return None
    _CARDS[value] = found  # type: ignore[index]  # a card: value is a str
    return found


def known_cards(value: object, size: int | None = None) -> list[Card] | None:
    """The cards of a list (of ``size`` items) whose spellings were all read as cards before,
    in one pass of lookups; None for anything else, which :func:`cards` reads and judges.

    >>> hand = ["1S", "TS"]
    >>> cards(hand, "hand", Problems("a.json", 1)) == known_cards(hand) == [Card.parse("AS"),
    ...                                                                     Card.parse("TS")]
    True
    >>> known_cards(["1S", "XS"]), known_cards(hand, size=8)  # no card; not 8 of them
    (None, None)
    """
    if type(value) is list and (size is None or len(value) == size):
        try:
            return [_CARDS[item] for item in value]
        except (KeyError, TypeError):  # a new or a bad spelling, or one not hashable
            return None
    return None


def cards(value: object, path: str, problems: Problems, *, size: int | None = None) -> list[Card]:
    """A list of Bhoos cards; problems for a wrong shape or a bad card."""
    known = known_cards(value, size)
    if known is not None:  # the common case, cards all read before
        return known
    if not isinstance(value, list):
        problems.add(path, "must be a list of cards")
        return []
    if size is not None and len(value) != size:
        problems.add(path, f"must hold {size} cards, not {len(value)}")
    found: list[Card] = []
    for i, item in enumerate(value):
        # the path is spelled out only for a card not read before (a bad one among them)
        one = _CARDS.get(item) if type(item) is str else None
        one = one if one is not None else card(item, f"{path}[{i}]", problems)
        if one is not None:
            found.append(one)
    return found


def suit(value: object) -> Suit | None:
    """A Bhoos suit letter (or symbol) as a Suit; None when it is not one."""
    if not isinstance(value, str):
        return None
    return _SUITS.get(value.upper())


def player_ids(value: object, path: str, problems: Problems) -> list[str] | None:
    """Four distinct player ids, or None with a problem."""
    if not isinstance(value, list) or len(value) != 4:
        problems.add(path, "must be a list of 4 player ids")
        return None
    if not all(isinstance(item, str) for item in value):
        problems.add(path, "player ids must be strings")
        return None
    if len(set(value)) != 4:
        problems.add(path, "player ids must be distinct")
        return None
    return list(value)


def bid_history(
    value: object, path: str, seats: dict[str, Seat], problems: Problems
) -> list[tuple[Seat, int]]:
    """``[[playerId, bid], ...]`` as (seat, bid) pairs; 0 is a pass."""
    if not isinstance(value, list):
        problems.add(path, "must be a list of [playerId, bid]")
        return []
    try:  # the common case, every entry as the checks below want it: in one pass
        quick = [(seats[who], bid) for who, bid in value if type(bid) is int]
        if len(quick) == len(value) and all(0 <= bid <= MAX_BID_VALUE for _, bid in quick):
            return quick  # (an entry unpacked from a string or an object has no int bid)
    except (KeyError, TypeError, ValueError):
        pass
    entries: list[tuple[Seat, int]] = []
    for i, entry in enumerate(value):
        where = f"{path}[{i}]"
        if not isinstance(entry, list) or len(entry) != 2:
            problems.add(where, "must be [playerId, bid]")
            continue
        who, bid = entry
        if not isinstance(who, str) or who not in seats:
            problems.add(f"{where}[0]", f"{brief(who)} is not one of the playerIds")
            continue
        if not is_int(bid) or not 0 <= bid <= MAX_BID_VALUE:
            problems.add(f"{where}[1]", f"{brief(bid)} is not a bid (a whole number, 0 for pass)")
            continue
        entries.append((seats[who], bid))
    return entries


ActionDict = dict[str, Any]
"""An action as the log writes it: JSON-ready values, the models' keys in their order. What
the archive's games become, written as they are or validated into the models
(:class:`schema.log.Action`): the mapping is said once, here."""


def _action(seat: Seat, kind: str, **fields: object) -> ActionDict:
    return {"seat": _SEAT_TEXT[seat], "type": kind, **fields}


# Built once and shared by every game (nobody changes them): a game is mostly these.
_PASS: Final = {seat: _action(seat, "pass") for seat in Seat}
_DITTO: Final = {seat: _action(seat, "ditto") for seat in Seat}
_PLAY: Final = {(seat, c): _action(seat, "play", card=c.text) for seat in Seat for c in Card}


def bid_actions(history: Sequence[tuple[Seat, int]]) -> tuple[list[ActionDict], Seat | None]:
    """The auction as actions, and the caller (the last holder of the standing bid).

    The server writes every call as a number. The duel has a defender (the first bidder,
    later whoever is left holding the bid when the other duelist passes) and a challenger
    (who must bid higher). A non-zero call by the defender equal to the challenger's
    standing bid is the defender matching it: a Ditto. Anything else non-zero is written
    as the bid it is, legal or not, so that the audit judges it.

    >>> actions, caller = bid_actions([(Seat.E, 16), (Seat.S, 17), (Seat.E, 17), (Seat.S, 0)])
    >>> [a["type"] for a in actions], caller
    (['bid', 'bid', 'ditto', 'pass'], <Seat.E: 'E'>)
    """
    actions: list[ActionDict] = []
    holder: Seat | None = None
    defender: Seat | None = None
    standing = 0
    for seat, value in history:
        if value == 0:
            actions.append(_PASS[seat])
            if seat == defender:
                defender = holder if holder != seat else None
        elif seat == defender and holder != defender and value == standing:
            actions.append(_DITTO[seat])
            holder = seat
        else:
            actions.append(_action(seat, "bid", value=value))
            if holder is None or value > standing:
                holder, standing = seat, value
                if defender is None:
                    defender = seat
    return actions, holder


_TRICK_SEATS: Final = {seat: seat.order_from(BHOOS_RULES.direction) for seat in Seat}
_PLAYS_FROM: Final = {
    leader: tuple({card: _PLAY[seat, card] for card in Card} for seat in seats)
    for leader, seats in _TRICK_SEATS.items()
}
"""By a trick's leader: for each seat in playing order, its play of each card."""


def trick_seats(leader: Seat) -> tuple[Seat, Seat, Seat, Seat]:
    """The seats of a trick in playing order, from its leader."""
    return _TRICK_SEATS[leader]


def play_actions(
    tricks: Sequence[tuple[Seat, Sequence[Card]]],
    show: tuple[int, Seat, Suit | None] | None,
) -> tuple[list[ActionDict], bool]:
    """Plays trick by trick, with the show placed just before the revealer's card.

    ``show`` is (trick number from 1, revealer, suit shown). Returns the actions and
    whether the show found its trick (a revealer who had not yet played in that trick
    shows after the cards recorded so far).

    >>> acts, placed = play_actions([(Seat.E, [Card.parse("JS"), Card.parse("7H")])],
    ...                             (1, Seat.S, Suit.HEARTS))
    >>> [(a["type"], a["seat"]) for a in acts], placed
    ([('play', 'E'), ('show', 'S'), ('play', 'S')], True)
    """
    actions: list[ActionDict] = []
    pending = show  # until it is placed
    for number, (leader, trick) in enumerate(tricks, 1):
        if (pending is None or pending[0] != number) and len(trick) <= 4:
            # each seat's play of each card, in turn from the leader: lookups in C
            actions.extend(map(getitem, _PLAYS_FROM[leader], trick))
            continue
        seats = _TRICK_SEATS[leader]
        for position, played in enumerate(trick):
            seat = seats[position % 4]
            if pending is not None and pending[0] == number and pending[1] == seat:
                actions.append(show_action(seat, pending[2]))
                pending = None
            actions.append(_PLAY[seat, played])
        if pending is not None and pending[0] == number:
            actions.append(show_action(pending[1], pending[2]))
            pending = None
    return actions, show is not None and pending is None


def trump_action(caller: Seat | None, trump: Suit | None) -> ActionDict:
    """The caller's secret choice; with no caller the bhoos dealer holds the call."""
    return _TRUMP[caller if caller is not None else DEALER, trump]


def show_action(seat: Seat, shown: Suit | None) -> ActionDict:
    """A seat's show of the trump (``shown``: the suit, where recorded)."""
    return _SHOW[seat, shown]


def _with_suit(kind: str) -> dict[tuple[Seat, Suit | None], ActionDict]:
    """Each seat's action of ``kind`` naming each suit, or none."""
    suits = (*Suit, None)
    return {(seat, s): _action(seat, kind, suit=s and s.value) for seat in Seat for s in suits}


_TRUMP: Final = _with_suit("trump")
_SHOW: Final = _with_suit("show")
