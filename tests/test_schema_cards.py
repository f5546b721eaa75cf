"""The card vocabulary: notation, order, points, seats and teams."""

import pytest

from twentynine.schema.cards import (
    ALL_CARDS,
    RANKS,
    TOTAL_CARD_POINTS,
    Card,
    Direction,
    Rank,
    Seat,
    Suit,
    Team,
    cards_in_mask,
    mask_of,
)


def test_every_card_round_trips_through_its_text() -> None:
    texts = [f"{r}{s}" for s in "SHDC" for r in "J9ATKQ87"]
    assert [Card.parse(t).text for t in texts] == texts
    assert len(set(ALL_CARDS)) == 32
    assert [str(card) for card in ALL_CARDS] == texts


@pytest.mark.parametrize("text", ["XS", "10S", "js", "J", "JSS", "", "♠J", "1S"])
def test_not_a_card_is_refused_with_the_text_named(text: str) -> None:
    with pytest.raises(ValueError, match="is not a card"):
        Card.parse(text)


def test_rank_order_and_points_come_from_one_table() -> None:
    assert [r.value for r in RANKS] == list("J9ATKQ87")
    assert [r.strength for r in RANKS] == [7, 6, 5, 4, 3, 2, 1, 0]
    assert {r.value: r.points for r in Rank} == {
        "J": 3,
        "9": 2,
        "A": 1,
        "T": 1,
        "K": 0,
        "Q": 0,
        "8": 0,
        "7": 0,
    }
    assert TOTAL_CARD_POINTS == 28
    assert sum(card.points for card in ALL_CARDS) == 28


def test_card_index_and_masks() -> None:
    assert Card.parse("JS").index == 0
    assert Card.parse("7C").index == 31
    assert Card.from_index(19) is Card.parse("TD")
    hand = [Card.parse("9H"), Card.parse("JS"), Card.parse("7C")]
    assert cards_in_mask(mask_of(hand)) == sorted(hand, key=lambda c: c.index)


def test_cards_are_immutable_and_shared() -> None:
    card = Card.parse("AD")
    assert card is Card.parse("AD")
    with pytest.raises(AttributeError):
        card.points = 5


def test_seats_teams_and_direction() -> None:
    assert [Seat.N.next(Direction.CLOCKWISE), Seat.W.next(Direction.CLOCKWISE)] == [Seat.E, Seat.N]
    assert Seat.N.next(Direction.COUNTERCLOCKWISE) is Seat.W
    assert Seat.E.partner is Seat.W
    assert Seat.S.team is Team.NS and Seat.W.team is Team.EW
    assert Team.NS.other is Team.EW
    assert Seat.N.order_from(Direction.CLOCKWISE) == (Seat.N, Seat.E, Seat.S, Seat.W)
    assert Seat.N.order_from(Direction.COUNTERCLOCKWISE) == (Seat.N, Seat.W, Seat.S, Seat.E)
    assert Suit.HEARTS.symbol == "♥"
