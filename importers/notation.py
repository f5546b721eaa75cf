"""Lenient card notation for importers of foreign formats.

The canonical log accepts exactly ``"JS"``; other formats may write ``10`` for the ten,
lower case, or the suit symbols. :func:`parse_card` accepts all of these and returns the
shared :class:`~schema.cards.Card`.

>>> [str(parse_card(text)) for text in ("JS", "10h", "a♦", "T♣")]
['JS', 'TH', 'AD', 'TC']
"""

from __future__ import annotations

from typing import Final

from twentynine.importers.errors import brief
from twentynine.schema.cards import Card

_SUIT_ALIASES: Final[dict[str, str]] = {
    "♠": "S",
    "♤": "S",
    "♥": "H",
    "♡": "H",
    "♦": "D",
    "♢": "D",
    "♣": "C",
    "♧": "C",
}


def parse_card(text: str, *, ace_aliases: tuple[str, ...] = ()) -> Card:
    """A card written rank then suit, in any of the spellings importers accept.

    ``ace_aliases`` names extra spellings of the ace's rank (the Bhoos server writes ``1``).
    Raises ``ValueError`` naming the text when it is not a card.

    >>> parse_card("1S", ace_aliases=("1",)).text
    'AS'
    """
    if not isinstance(text, str) or not 2 <= len(text) <= 3:
        raise ValueError(f"{brief(text)} is not a card")
    rank, suit = text[:-1].upper(), text[-1]
    suit = _SUIT_ALIASES.get(suit, suit.upper())
    if rank == "10":
        rank = "T"
    elif rank in ace_aliases:
        rank = "A"
    try:
        return Card.parse(rank + suit)
    except ValueError:
        raise ValueError(f"{brief(text)} is not a card") from None
