"""What the engine relies on from the vocabulary and the log models, kept while making them fast.

``Card`` is an enum (pydantic checks card fields in its compiled core) and actions skip the
per-instance Python hook they had: neither may change the public API or the error wording.
"""

from __future__ import annotations

import copy
import json
import pickle

import pytest
from pydantic import ValidationError

from twentynine.schema import ALL_CARDS, Card, MatchLog, Rank, Seat, Suit
from twentynine.schema.log import BidAction, PassAction, PlayAction, TrumpAction

DOCUMENT = {
    "format": "twentynine.match",
    "version": 1,
    "rules": "pagat",
    "players": {"N": "a", "E": "b", "S": "c", "W": "d"},
    "deals": [{"dealer": "N", "actions": [{"seat": "E", "type": "play", "card": "JS"}]}],
}


def test_a_card_keeps_its_attributes_and_identity() -> None:
    card = Card.parse("TD")
    assert (card.rank, card.suit, card.index, card.points, card.strength) == (
        Rank.TEN,
        Suit.DIAMONDS,
        19,
        1,
        4,
    )
    assert (card.text, str(card), repr(card), f"{card}", card.mask) == (
        "TD",
        "TD",
        "Card('TD')",
        "TD",
        1 << 19,
    )
    assert card is Card.from_index(19) is Card("TD") is Card.TEN_OF_DIAMONDS
    assert pickle.loads(pickle.dumps(card)) is card
    assert copy.deepcopy(card) is card and copy.copy(card) is card
    assert [c.index for c in ALL_CARDS] == list(range(32)) and list(Card) == list(ALL_CARDS)
    assert len({*ALL_CARDS, *ALL_CARDS}) == 32 and card != "TD"
    with pytest.raises(AttributeError, match="immutable"):
        card.points = 5
    with pytest.raises(AttributeError, match="immutable"):
        card.colour = "red"
    with pytest.raises(ValueError, match="'XS' is not a card"):
        Card.parse("XS")


def test_models_hold_cards_and_write_their_text() -> None:
    match = MatchLog.model_validate(DOCUMENT)
    play = match.deals[0].actions[0]
    assert isinstance(play, PlayAction) and play.card is Card.parse("JS")
    assert match.to_canonical() == DOCUMENT
    assert MatchLog.model_validate_json(match.canonical_json()) == match
    assert pickle.loads(pickle.dumps(match)) == match
    assert PlayAction(seat=Seat.E, card=Card.parse("9H")).model_dump() == {
        "seat": Seat.E,
        "t": None,
        "note": None,
        "type": "play",
        "card": "9H",
    }


@pytest.mark.parametrize("bad", ["XS", "js", "10S", 5, None])
@pytest.mark.parametrize("entry", ["python", "json"])
def test_a_bad_card_is_worded_as_before(bad: object, entry: str) -> None:
    hand = ["JS", "9S", bad, "TS", "KS", "QS", "8S", "7S"]
    document = {
        **DOCUMENT,
        "players": {"N": "a", "E": "b", "S": "c"},  # and an error of another kind
        "deals": [
            {
                "dealer": "N",
                "hands": {"N": hand},
                "actions": [{"seat": "E", "type": "play", "card": bad}],
            }
        ],
    }
    with pytest.raises(ValidationError) as caught:
        if entry == "python":
            MatchLog.model_validate(document)
        else:
            MatchLog.model_validate_json(json.dumps(document))
    errors = {(".".join(map(str, e["loc"])), e["type"], e["msg"]) for e in caught.value.errors()}
    assert ("players", "players", "no player for seat W") in errors
    # where a spelling is near, the message says it: 'js' is not a card; write JS
    said = f"{bad!r} is not a card" + {"js": "; write JS", "10S": "; write TS"}.get(str(bad), "")
    if bad is not None:  # a hand may hold null: a card not seen
        assert ("deals.0.hands.N.2", "card", said) in errors
    assert ("deals.0.actions.0.play.card", "card", said) in errors


def test_an_action_always_writes_its_type() -> None:
    made = PassAction(seat=Seat.N)
    validated = PassAction.model_validate({"seat": "N"})
    parsed = BidAction.model_validate_json(b'{"seat": "E", "value": 16}')
    for action in (made, validated, parsed):
        assert "type" in action.model_fields_set
        assert "type" in action.model_dump(exclude_unset=True)
    assert list(TrumpAction(seat=Seat.W, suit=Suit.HEARTS).model_dump(exclude_unset=True)) == [
        "seat",
        "type",
        "suit",
    ]


def test_validating_a_document_never_calls_an_action_init() -> None:
    """Speed: pydantic calls a model's own ``__init__`` for every action of every document
    unless told it only extends pydantic's (``__pydantic_base_init__``)."""
    for action in (PassAction, BidAction, PlayAction, TrumpAction):
        assert not action.__pydantic_custom_init__
