"""Seats, teams, suits, ranks and cards: the vocabulary every room shares.

Rank order and card points come from one table, :data:`RANK_TABLE`. A card also has a
small integer ``index`` (0..31) so the engine can keep a hand as a 32-bit mask.

>>> card = Card.parse("JS")
>>> card.rank, card.suit, card.points, str(card)
(<Rank.JACK: 'J'>, <Suit.SPADES: 'S'>, 3, 'JS')
"""

from __future__ import annotations

import re
from enum import Enum, StrEnum
from typing import Final


class Direction(StrEnum):
    """Which way the deal, the bidding and the play pass round the table."""

    CLOCKWISE = "clockwise"
    COUNTERCLOCKWISE = "counterclockwise"


class Team(StrEnum):
    """A partnership: North-South or East-West.

    >>> Team.NS.other
    <Team.EW: 'EW'>
    """

    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> Team:
        return Team.EW if self is Team.NS else Team.NS


class Seat(StrEnum):
    """A seat at the table, named by compass point.

    >>> Seat.N.next(Direction.CLOCKWISE), Seat.N.next(Direction.COUNTERCLOCKWISE)
    (<Seat.E: 'E'>, <Seat.W: 'W'>)
    """

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def index(self) -> int:  # type: ignore[override]
        """Position in clockwise order N, E, S, W (0..3)."""
        return _SEAT_INDEX[self]

    @property
    def team(self) -> Team:
        return _SEAT_TEAM[self]  # a table: the bots ask it at every card of every play-out

    @property
    def partner(self) -> Seat:
        return _PARTNER[self]

    def next(self, direction: Direction) -> Seat:
        """The seat that plays after this one in the given direction."""
        step = 1 if direction is Direction.CLOCKWISE else 3
        return SEATS[(self.index + step) % 4]

    def order_from(self, direction: Direction) -> tuple[Seat, Seat, Seat, Seat]:
        """The four seats in playing order, starting with this one.

        >>> [str(s) for s in Seat.S.order_from(Direction.COUNTERCLOCKWISE)]
        ['S', 'E', 'N', 'W']
        """
        step = 1 if direction is Direction.CLOCKWISE else 3
        i = self.index
        return (
            SEATS[i],
            SEATS[(i + step) % 4],
            SEATS[(i + 2 * step) % 4],
            SEATS[(i + 3 * step) % 4],
        )


SEATS: Final[tuple[Seat, Seat, Seat, Seat]] = (Seat.N, Seat.E, Seat.S, Seat.W)
_SEAT_INDEX: Final[dict[Seat, int]] = {seat: i for i, seat in enumerate(SEATS)}
_SEAT_TEAM: Final[dict[Seat, Team]] = {
    seat: Team.NS if seat in (Seat.N, Seat.S) else Team.EW for seat in SEATS
}
_PARTNER: Final[dict[Seat, Seat]] = {seat: SEATS[(i + 2) % 4] for i, seat in enumerate(SEATS)}


class Suit(StrEnum):
    """A suit, by its letter in the log notation. No suit outranks another."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def index(self) -> int:  # type: ignore[override]
        """Position in the order S, H, D, C (0..3)."""
        return _SUIT_INDEX[self]

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]

    @property
    def display(self) -> str:
        """The suit as a player reads it: its symbol and its name.

        >>> Suit.HEARTS.display
        '♥ hearts'
        """
        return f"{_SUIT_SYMBOL[self]} {self.name.lower()}"


SUITS: Final[tuple[Suit, ...]] = tuple(Suit)
_SUIT_INDEX: Final[dict[Suit, int]] = {suit: i for i, suit in enumerate(SUITS)}
_SUIT_SYMBOL: Final[dict[Suit, str]] = {
    Suit.SPADES: "♠",
    Suit.HEARTS: "♥",
    Suit.DIAMONDS: "♦",
    Suit.CLUBS: "♣",
}


class Rank(StrEnum):
    """A rank, by its letter in the log notation (``T`` is the ten)."""

    JACK = "J"
    NINE = "9"
    ACE = "A"
    TEN = "T"
    KING = "K"
    QUEEN = "Q"
    EIGHT = "8"
    SEVEN = "7"

    @property
    def strength(self) -> int:
        """7 for the jack (highest) down to 0 for the seven, in every suit."""
        return RANK_TABLE[self][0]

    @property
    def points(self) -> int:
        """Card points: J 3, 9 2, A 1, T 1, the rest 0."""
        return RANK_TABLE[self][1]

    @property
    def display(self) -> str:
        """The rank as a player reads it: ``10`` for the ten, else its letter or digit."""
        return "10" if self is Rank.TEN else self.value


# The one table of rank order and points: rank -> (strength, points), highest first.
RANK_TABLE: Final[dict[Rank, tuple[int, int]]] = {
    Rank.JACK: (7, 3),
    Rank.NINE: (6, 2),
    Rank.ACE: (5, 1),
    Rank.TEN: (4, 1),
    Rank.KING: (3, 0),
    Rank.QUEEN: (2, 0),
    Rank.EIGHT: (1, 0),
    Rank.SEVEN: (0, 0),
}
RANKS: Final[tuple[Rank, ...]] = tuple(RANK_TABLE)  # highest first
TOTAL_CARD_POINTS: Final[int] = 4 * sum(points for _, points in RANK_TABLE.values())
SCORING_RANKS: Final[frozenset[Rank]] = frozenset(r for r in RANKS if r.points > 0)


class Card(Enum):
    """One of the 32 cards, an enum member: ``Card.parse("JS") is Card.JACK_OF_SPADES``.

    The value is the card's text in the log notation, so pydantic validates a card field in
    its compiled core. ``index`` is ``suit.index * 8 + position of the rank from the top``
    (JS is 0, 7C is 31), so ``mask`` (``1 << index``) is the card's bit in a hand mask.
    Members are immutable, shared, hashable and pickle to themselves.

    >>> Card.parse("TD").points, Card.parse("TD").index, Card.from_index(19)
    (1, 19, Card('TD'))
    >>> str(Card.NINE_OF_HEARTS), Card("9H") is Card.NINE_OF_HEARTS
    ('9H', True)
    """

    JACK_OF_SPADES = "JS"
    NINE_OF_SPADES = "9S"
    ACE_OF_SPADES = "AS"
    TEN_OF_SPADES = "TS"
    KING_OF_SPADES = "KS"
    QUEEN_OF_SPADES = "QS"
    EIGHT_OF_SPADES = "8S"
    SEVEN_OF_SPADES = "7S"
    JACK_OF_HEARTS = "JH"
    NINE_OF_HEARTS = "9H"
    ACE_OF_HEARTS = "AH"
    TEN_OF_HEARTS = "TH"
    KING_OF_HEARTS = "KH"
    QUEEN_OF_HEARTS = "QH"
    EIGHT_OF_HEARTS = "8H"
    SEVEN_OF_HEARTS = "7H"
    JACK_OF_DIAMONDS = "JD"
    NINE_OF_DIAMONDS = "9D"
    ACE_OF_DIAMONDS = "AD"
    TEN_OF_DIAMONDS = "TD"
    KING_OF_DIAMONDS = "KD"
    QUEEN_OF_DIAMONDS = "QD"
    EIGHT_OF_DIAMONDS = "8D"
    SEVEN_OF_DIAMONDS = "7D"
    JACK_OF_CLUBS = "JC"
    NINE_OF_CLUBS = "9C"
    ACE_OF_CLUBS = "AC"
    TEN_OF_CLUBS = "TC"
    KING_OF_CLUBS = "KC"
    QUEEN_OF_CLUBS = "QC"
    EIGHT_OF_CLUBS = "8C"
    SEVEN_OF_CLUBS = "7C"

    rank: Rank
    suit: Suit
    index: int
    points: int
    strength: int
    text: str
    mask: int

    def __init__(self, text: str) -> None:
        of_rank, of_suit = Rank(text[0]), Suit(text[1])
        number = of_suit.index * 8 + RANKS.index(of_rank)
        for name, value in (
            ("rank", of_rank),
            ("suit", of_suit),
            ("index", number),
            ("points", of_rank.points),
            ("strength", of_rank.strength),
            ("text", text),
            ("mask", 1 << number),
        ):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        if not name.startswith("_"):  # the enum machinery sets its own _private_ names
            raise AttributeError("Card is immutable")
        super().__setattr__(name, value)

    @staticmethod
    def parse(text: str) -> Card:
        """The card written as rank then suit, exactly as LOG-FORMAT.md spells it.

        Raises ``ValueError`` naming the text when it is not a card.

        >>> Card.parse("9H").rank
        <Rank.NINE: '9'>
        """
        try:
            return _CARD_BY_TEXT[text]
        except (KeyError, TypeError):
            raise ValueError(not_a_card(text)) from None

    @staticmethod
    def from_index(index: int) -> Card:
        """The card whose ``index`` is the given number (0..31)."""
        return ALL_CARDS[index]

    @property
    def display(self) -> str:
        """The card as a player reads it, the one form every report and explanation shows:
        the rank (``10`` for the ten) then the suit symbol. Logs keep ``text`` (``TD``).

        >>> Card.parse("TD").display, Card.parse("JS").display
        ('10♦', 'J♠')
        """
        return _CARD_DISPLAY[self.index]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text!r})"

    # Members are unique, so identity is equality: hash them as objects, in C, rather than
    # by name in Python as Enum does (cards go into sets and dict keys in the hot paths).
    __hash__ = object.__hash__


# Members are defined in index order: ALL_CARDS[card.index] is card.
ALL_CARDS: Final[tuple[Card, ...]] = tuple(Card)
_CARD_BY_TEXT: Final[dict[str, Card]] = {card.text: card for card in ALL_CARDS}
_CARD_DISPLAY: Final[tuple[str, ...]] = tuple(c.rank.display + c.suit.symbol for c in ALL_CARDS)
_CARD_IN_TEXT: Final = re.compile(r"\b[J9ATKQ87][SHDC]\b")


def cards_as_read(text: str) -> str:
    """A text (a finding, a step's words) with each card written in the log notation
    (``TD``) turned into the form a player reads (:attr:`Card.display`, ``10♦``).

    >>> cards_as_read("W played 8C holding TD: must follow diamonds")
    'W played 8♣ holding 10♦: must follow diamonds'
    """
    return _CARD_IN_TEXT.sub(lambda m: _CARD_BY_TEXT[m.group(0)].display, text)


_SUIT_SYMBOLS: Final = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D"}


def nearest_card(text: object) -> Card | None:
    """The card a person most likely meant by a text that is not one, or None.

    Read leniently: any case, ``10`` for the ten, ``1`` for the ace (as Bhoos writes it), the
    suit symbols, the suit first.

    >>> [nearest_card(t) for t in ("10H", "jh", "H9", "a♦", "XS")]
    [Card('TH'), Card('JH'), Card('9H'), Card('AD'), None]
    """
    if not isinstance(text, str):
        return None
    spelt = text.strip().upper().replace("10", "T")
    for symbol, letter in _SUIT_SYMBOLS.items():
        spelt = spelt.replace(symbol, letter)
    if len(spelt) == 2 and spelt[0] in "SHDC" and spelt[1] not in "SHDC":
        spelt = spelt[1] + spelt[0]
    if spelt.startswith("1"):
        spelt = "A" + spelt[1:]
    return _CARD_BY_TEXT.get(spelt)


def not_a_card(text: object) -> str:
    """Why a text is not a card, and the spelling to write where one is near.

    >>> not_a_card("10H"), not_a_card("XS")
    ("'10H' is not a card; write TH", "'XS' is not a card")
    """
    near = nearest_card(text)
    message = f"{text!r} is not a card"
    return f"{message}; write {near.text}" if near is not None else message


HAND_SUIT_ORDER: Final[tuple[Suit, ...]] = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
"""The order a hand is shown in, suit by suit: black and red alternate, as card apps do."""


def as_held(cards: list[Card] | tuple[Card, ...]) -> list[Card]:
    """Cards in the order a player holds them: suit by suit (:data:`HAND_SUIT_ORDER`),
    highest first.

    >>> [c.display for c in as_held([Card.parse(t) for t in ("8C", "TD", "JS", "9D", "QH")])]
    ['J♠', 'Q♥', '8♣', '9♦', '10♦']
    """
    return sorted(cards, key=lambda c: (HAND_SUIT_ORDER.index(c.suit), -c.strength))


def cards_in_mask(mask: int) -> list[Card]:
    """The cards whose bits are set in a 32-bit hand mask, in index order.

    >>> [str(c) for c in cards_in_mask(Card.parse("JS").mask | Card.parse("7C").mask)]
    ['JS', '7C']
    """
    return [ALL_CARDS[i] for i in range(32) if mask >> i & 1]


def mask_of(cards: list[Card] | tuple[Card, ...] | frozenset[Card]) -> int:
    """The 32-bit mask of a collection of cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask
