"""The Bhoos bot protocol's words: requests from what a seat may know, answers to moves.

One home for the protocol of the "Smart Bots" competition, as its starter kit defines it
and the competition's archive shows it: ``GET /hi``; ``POST /bid``, ``/chooseTrump`` and
``/play``, each a JSON object. The importer (:mod:`importers.bhoos_play`) reads logged
requests with it, the arena's referee writes them, ``bot serve`` reads them and writes its
answers. docs/arena.md gives every field; where the sources disagree, the choices are:

- seat order: ``playerIds[FIRST_INDEX]`` (1, the archive's order: index 0 deals) bids and
  leads first; the kit's and the practice sandbox's order (index 0 first) is an option;
- ``bidState`` in every request of the auction, with real ids and bids of 0 or more (the
  first bidder is the defender, the next seat to speak the challenger);
- ``trumpSuit`` and ``trumpRevealed`` are ``false``, never ``null``, when unknown;
- cards as the kit spells them: rank ``1`` the ace, ``T`` the ten (``1S``, ``TS``);
- ``timeRemaining`` an integer number of milliseconds.

Answers are read whatever their Content-Type: ``{"bid": n}`` (0 a pass), ``{"suit": "H"}``,
``{"card": "1S"}``, ``{"revealTrump": true}`` (a second ``/play`` follows, with the trump
shown) or ``{"revealTrump": true, "card": "7H"}``.

>>> from twentynine.schema.cards import Card
>>> card_word(Card.parse("AS")), card_word(Card.parse("TD"))
('1S', 'TD')
>>> read_play({"revealTrump": True})
(None, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal

from twentynine.importers.errors import brief
from twentynine.importers.notation import parse_card
from twentynine.schema.cards import Card, Seat, Suit

Kind = Literal["bid", "chooseTrump", "play"]
"""The three calls, named as the endpoints."""
ENDPOINTS: Final[dict[str, Kind]] = {"/bid": "bid", "/chooseTrump": "chooseTrump", "/play": "play"}
ARCHIVE_FIRST: Final = 1
"""The index in ``playerIds`` of the first speaker in the competition's archive (index 0
deals): the arena's default, and what the importer assumes where nothing shows it."""
KIT_FIRST: Final = 0
"""The index of the first speaker in the starter kit's examples and the practice sandbox."""
HELLO: Final = {"value": "hello"}
"""The answer to ``GET /hi``."""


class AnswerError(ValueError):
    """An answer the protocol cannot read; ``missing`` when the field is absent or null
    (else the answer is garbage: not an object, or a field of the wrong type)."""

    def __init__(self, reason: str, *, missing: bool = False) -> None:
        super().__init__(reason)
        self.missing = missing


def card_word(card: Card) -> str:
    """A card as the protocol spells it (``1`` the ace)."""
    text = card.text
    return "1" + text[1] if text[0] == "A" else text


def seat_order(order: Sequence[Seat], first_index: int = ARCHIVE_FIRST) -> list[Seat]:
    """The seat at each index of ``playerIds``: ``order`` is the play order from the first
    speaker (P1, P2, P3, the dealer), and P1 sits at ``first_index``.

    >>> [s.value for s in seat_order([Seat.E, Seat.S, Seat.W, Seat.N])]
    ['N', 'E', 'S', 'W']
    >>> [s.value for s in seat_order([Seat.E, Seat.S, Seat.W, Seat.N], KIT_FIRST)]
    ['E', 'S', 'W', 'N']
    """
    seats: list[Seat] = list(order)
    for k, seat in enumerate(order):
        seats[(first_index + k) % 4] = seat
    return seats


def bid_state(bids: Sequence[tuple[str, int]], speakers: Sequence[str]) -> dict[str, Any]:
    """``bidState`` after ``bids`` (``[id, number]``, 0 a pass): the defender holds the bid
    (at first the first speaker, with 0), the challenger must go higher; a passer's place
    goes to the next seat that has not spoken. ``speakers`` are the ids from the first.

    >>> bid_state([], ["b", "c", "d", "a"])
    {'defenderId': 'b', 'challengerId': 'c', 'defenderBid': 0, 'challengerBid': 0}
    >>> bid_state([["b", 0]], ["b", "c", "d", "a"])["defenderId"]
    'c'
    >>> bid_state([("b", 16), ("c", 17), ("b", 17)], ["b", "c", "d", "a"])["defenderBid"]
    17
    """
    defender, challenger = speakers[0], speakers[1]
    defender_bid = challenger_bid = 0
    newcomer = 2
    for who, number in bids:
        if who == defender:
            if number == 0:  # the challenger holds the bid now; a newcomer challenges it
                defender, defender_bid = challenger, challenger_bid
                challenger, challenger_bid = speakers[newcomer % 4], 0
                newcomer += 1
            else:
                defender_bid, challenger_bid = number, 0
        elif who == challenger:
            if number == 0:
                challenger, challenger_bid = speakers[newcomer % 4], 0
                newcomer += 1
            else:
                challenger_bid = number
    return {
        "defenderId": defender,
        "challengerId": challenger,
        "defenderBid": defender_bid,
        "challengerBid": challenger_bid,
    }


def auction_request(
    kind: Literal["bid", "chooseTrump"],
    me: str,
    ids: Sequence[str],
    first_index: int,
    cards: Sequence[Card],
    bids: Sequence[tuple[str, int]],
    time_ms: int,
) -> dict[str, Any]:
    """A ``/bid`` (with ``bidState``) or ``/chooseTrump`` request.

    >>> r = auction_request("bid", "E", ["N", "E", "S", "W"], 1, [Card.parse("AS")], [], 1000)
    >>> r["cards"], r["bidState"]["defenderId"]
    (['1S'], 'E')
    """
    request: dict[str, Any] = {
        "playerId": me,
        "playerIds": list(ids),
        "cards": [card_word(c) for c in cards],
        "timeRemaining": int(time_ms),
        "bidHistory": [[who, number] for who, number in bids],
    }
    if kind == "bid":
        speakers = [ids[(first_index + k) % 4] for k in range(4)]
        request["bidState"] = bid_state(bids, speakers)
    return request


def play_request(
    me: str,
    ids: Sequence[str],
    cards: Sequence[Card],
    bids: Sequence[tuple[str, int]],
    tricks: Sequence[tuple[str, Sequence[Card], str]],
    played: Sequence[Card],
    teams: Sequence[tuple[int, int]],
    trump: Suit | None,
    shown: tuple[int, str] | None,
    time_ms: int,
) -> dict[str, Any]:
    """A ``/play`` request. ``tricks`` are ``(leader id, 4 cards, winner id)``; ``teams``
    is ``(bid, won)`` for the team of indices 0 and 2, then 1 and 3 (``bid`` the call for
    the caller's team, else 0; ``won`` card points); ``trump`` the suit where this seat may
    know it; ``shown`` the trick (from 1) and the id of the seat that asked.

    >>> r = play_request("N", "NESW", [], [], [], [], [(0, 0), (16, 0)], None, None, 900)
    >>> r["trumpSuit"], r["trumpRevealed"], r["teams"][1]
    (False, False, {'players': ['E', 'W'], 'bid': 16, 'won': 0})
    """
    return {
        "playerId": me,
        "playerIds": list(ids),
        "timeRemaining": int(time_ms),
        "teams": [
            {"players": [ids[k], ids[k + 2]], "bid": bid, "won": won}
            for k, (bid, won) in enumerate(teams)
        ],
        "cards": [card_word(c) for c in cards],
        "bidHistory": [[who, number] for who, number in bids],
        "played": [card_word(c) for c in played],
        "handsHistory": [
            [leader, [card_word(c) for c in four], winner] for leader, four, winner in tricks
        ],
        "trumpSuit": trump.value if trump is not None else False,
        "trumpRevealed": False if shown is None else {"hand": shown[0], "playerId": shown[1]},
    }


def _field(answer: object, name: str) -> object:
    if not isinstance(answer, dict):
        raise AnswerError(f"{brief(answer)} is not a JSON object")
    value = answer.get(name)
    if value is None:
        raise AnswerError(f"no {name!r} in the answer", missing=True)
    return value


def read_bid(answer: object) -> int:
    """The number of a ``/bid`` answer (0 a pass).

    >>> read_bid({"bid": 17}), read_bid({"bid": 0})
    (17, 0)
    """
    value = _field(answer, "bid")
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # a number written 17.0
    if not isinstance(value, int) or isinstance(value, bool):
        raise AnswerError(f"bid {brief(value)} is not a whole number")
    return value


def read_suit(answer: object) -> Suit:
    """The suit of a ``/chooseTrump`` answer.

    >>> read_suit({"suit": "H"})
    <Suit.HEARTS: 'H'>
    """
    value = _field(answer, "suit")
    if not isinstance(value, str) or value.upper() not in ("S", "H", "D", "C"):
        raise AnswerError(f"suit {brief(value)} is not S, H, D or C")
    return Suit(value.upper())


def read_card(value: object) -> Card:
    """A card as the kit spells it (``1S``); ``AS`` is read too."""
    try:
        return parse_card(value, ace_aliases=("1",))  # type: ignore[arg-type]
    except (ValueError, TypeError):
        raise AnswerError(f"card {brief(value)} is not a card") from None


def read_play(answer: object) -> tuple[Card | None, bool]:
    """The card of a ``/play`` answer (None with a reveal alone) and whether it asks for the
    trump to be shown.

    >>> read_play({"card": "1S"})[0].text, read_play({"revealTrump": True, "card": "TH"})[1]
    ('AS', True)
    """
    if not isinstance(answer, dict):
        raise AnswerError(f"{brief(answer)} is not a JSON object")
    reveal = answer.get("revealTrump", False)
    if reveal is None:
        reveal = False
    if not isinstance(reveal, bool):
        raise AnswerError(f"revealTrump {brief(reveal)} is not true or false")
    card = answer.get("card")
    if card is None:
        if reveal:
            return None, True
        raise AnswerError("no 'card' in the answer", missing=True)
    return read_card(card), reveal


def bid_answer(number: int) -> dict[str, Any]:
    """``/bid``'s answer: ``{"bid": number}``, 0 a pass."""
    return {"bid": number}


def trump_answer(suit: Suit) -> dict[str, Any]:
    """``/chooseTrump``'s answer: ``{"suit": "H"}``."""
    return {"suit": suit.value}


def play_answer(card: Card | None, reveal: bool = False) -> dict[str, Any]:
    """``/play``'s answer: ``{"card": "1S"}``, or ``{"revealTrump": true}`` to ask first.

    >>> play_answer(None, True), play_answer(Card.parse("AS"))
    ({'revealTrump': True}, {'card': '1S'})
    """
    answer: dict[str, Any] = {}
    if reveal:
        answer["revealTrump"] = True
    if card is not None:
        answer["card"] = card_word(card)
    return answer
