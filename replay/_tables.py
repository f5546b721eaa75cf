"""Integer tables for the engine's hot path: seats and suits as 0..3, cards as 0..31, masks.

Seat numbers follow :data:`schema.cards.SEATS` (N 0, E 1, S 2, W 3, clockwise); suit numbers
follow :data:`schema.cards.SUITS` (S 0, H 1, D 2, C 3); a card's number is ``Card.index``
(``suit * 8 + place``, place 0 the jack, the strongest, down to 7 the seven).

>>> CARD_POINTS[Card.parse("JS").index], SUIT_MASK[1] == 0xFF00
(3, True)
"""

from __future__ import annotations

from typing import Final

from twentynine.schema.cards import ALL_CARDS, SEATS, SUITS, Card, Seat, Suit, Team

SEAT_NUM: Final[dict[Seat, int]] = {seat: i for i, seat in enumerate(SEATS)}
SUIT_NUM: Final[dict[Suit, int]] = {suit: i for i, suit in enumerate(SUITS)}
TEAM_OF: Final[tuple[int, int, int, int]] = (0, 1, 0, 1)  # 0 is NS, 1 is EW
TEAMS: Final[tuple[Team, Team]] = (Team.NS, Team.EW)
TEAM_NUM: Final[dict[Team, int]] = {Team.NS: 0, Team.EW: 1}

SUIT_MASK: Final[tuple[int, int, int, int]] = (0xFF, 0xFF00, 0xFF0000, 0xFF000000)
ALL_MASK: Final = 0xFFFFFFFF
CARD_POINTS: Final[tuple[int, ...]] = tuple(card.points for card in ALL_CARDS)
SCORING_MASK: Final[tuple[int, ...]] = tuple(0x0F << (8 * s) for s in range(4))  # J 9 A T
KING_PLACE: Final = 4
QUEEN_PLACE: Final = 5
SEVEN_PLACE: Final = 7
SUIT_NAME: Final[tuple[str, str, str, str]] = ("spades", "hearts", "diamonds", "clubs")
NO_SUIT: Final = 4  # the trump "suit" of a no-trump deal
UNKNOWN_SUIT: Final = -1


def card_text(index: int) -> str:
    """The log notation of a card number."""
    return ALL_CARDS[index].text


def mask_text(mask: int) -> str:
    """The cards of a mask in log notation, strongest first per suit: ``"JS 9S AH"``."""
    return " ".join(ALL_CARDS[i].text for i in range(32) if mask >> i & 1)


def mask_points(mask: int) -> int:
    """The card points of the cards in a mask."""
    total = 0
    while mask:
        low = mask & -mask
        total += CARD_POINTS[low.bit_length() - 1]
        mask ^= low
    return total


def card_of(index: int) -> Card:
    return ALL_CARDS[index]
