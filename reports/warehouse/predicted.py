"""``deals.predicted_make``: the caller's chance to make its call, from its view at its last
bid, by the contract model (:mod:`twentynine.analysis.models.contract`), the deal taken as a
fair shuffle whatever the preset (the side's expected trumps, ``side_trump``, are 3/7 of the
suit's cards unseen: the warehouse holds no assumption about a server's dealing).

The loader works it out for every deal it stores (:func:`deal_prediction`); a file of
schema 6 gains it for the deals it already holds when a writer opens it
(:func:`stored_predictions`), read from what ``deal_cards`` keeps of the caller's first
four cards and the auction, nothing re-audited.

>>> from twentynine.replay import audit_match, random_match
>>> from twentynine.schema import Rules
>>> log = random_match(Rules.preset("bhoos"), seed=1)
>>> facts = audit_match(log).deals[0]
>>> p, version = deal_prediction(log.deals[0], log.resolved_rules(), facts.caller, None)
>>> 0.0 < p < 1.0, version.startswith("contract-")
(True, True)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

import pyarrow as pa

from twentynine.analysis.models.contract import (
    LEVEL_BASE,
    ContractModel,
    Speech,
    caller_view,
    shipped_model,
    view_at_last_bid,
)
from twentynine.reports.warehouse.ddl import ACTION_CODES
from twentynine.schema.cards import Card, Direction, Seat
from twentynine.schema.rules import Rules, resolve_rules
from twentynine.schema.shapes import DealLike

_AUCTION_CODES: Final = {ACTION_CODES[kind]: kind for kind in ("bid", "pass", "ditto")}
_HAND: Final = 16  # characters of one seat's 8 cards in deal_cards.hand_cards


def deal_prediction(
    deal: DealLike,
    rules: Rules,
    caller: Seat | None,
    single_hand: Seat | None,
    model: ContractModel | None = None,
) -> tuple[float | None, str | None]:
    """``predicted_make`` and ``make_model`` of one deal (None, None without a call, the
    caller's first four or its bid, and for a single hand)."""
    if caller is None or single_hand is not None:
        return None, None
    view = caller_view(deal, rules.direction, caller, rules.min_bid)
    if view is None:
        return None, None
    model = model or shipped_model()
    return model.chance(view), model.version


_STORED: Final = """
SELECT d.match_id, d.deal_no, d.dealer, d.caller, m.direction, m.rules::VARCHAR, c.types,
    c.seats, c.bids, c.hand_seats, c.hand_cards
FROM deals d
JOIN matches m USING (match_id)
JOIN deal_cards c USING (match_id, deal_no)
WHERE d.caller IS NOT NULL AND d.single_hand IS NULL"""


def stored_predictions(con: Any, model: ContractModel | None = None) -> int:
    """Fill ``predicted_make`` and ``make_model`` of the deals stored (in the connection's
    transaction); returns how many deals got a prediction."""
    model = model or shipped_model()
    known_rules: dict[str, int] = {}
    keys: list[str] = []
    numbers: list[int] = []
    chances: list[float] = []
    for row in con.execute(_STORED).fetchall():
        match_id, deal_no, dealer, caller, direction, rules, types, seats, bids, hs, hc = row
        if rules not in known_rules:
            known_rules[rules] = _read_rules(rules)
        min_bid = known_rules[rules]
        position = Seat(dealer).order_from(Direction(direction)).index(Seat(caller)) or 4
        four = _stored_four(Seat(caller), hs, hc)
        if four is None:
            continue
        auction = _stored_auction(types, seats, bids)
        view = view_at_last_bid(four, position, Seat(caller), auction, min_bid)
        if view is None:
            continue
        chances.append(model.chance(view))
        keys.append(match_id)
        numbers.append(deal_no)
    if not keys:
        return 0
    table = pa.table(
        {
            "match_id": pa.array(keys, pa.string()),
            "deal_no": pa.array(numbers, pa.int16()),
            "p": pa.array(chances, pa.float64()),
        }
    )
    con.register("_predicted", table)
    try:
        con.execute(
            "UPDATE deals SET predicted_make = p.p, make_model = ? FROM _predicted p "
            "WHERE deals.match_id = p.match_id AND deals.deal_no = p.deal_no",
            [model.version],
        )
    finally:
        con.unregister("_predicted")
    return len(keys)


def _read_rules(rules: str) -> int:
    """The stored rules' lowest bid."""
    try:
        resolved = resolve_rules(json.loads(rules))
    except ValueError:  # not rules twentynine knows (a file edited by hand): the usual 16
        return LEVEL_BASE
    return resolved.min_bid


def _stored_four(caller: Seat, hand_seats: str, hand_cards: str) -> list[Card] | None:
    """The caller's first four from ``deal_cards`` (None: not recorded, or a card unseen)."""
    k = hand_seats.find(caller.value)
    if k < 0:
        return None
    text = hand_cards[_HAND * k : _HAND * k + 8]
    try:
        return [Card.parse(text[i : i + 2]) for i in range(0, 8, 2)]
    except ValueError:  # ?? for an unseen card
        return None


def _stored_auction(types: str, seats: str, bids: Sequence[int | None] | None) -> list[Speech]:
    """The auction from ``deal_cards``: its types, seats and bids, one per action.

    >>> _stored_auction("bpbt", "ESWE", [16, None, 17])
    [(<Seat.E: 'E'>, 'bid', 16), (<Seat.S: 'S'>, 'pass', None), (<Seat.W: 'W'>, 'bid', 17)]
    """
    auction: list[Speech] = []
    for i, (code, seat) in enumerate(zip(types, seats, strict=False)):
        kind = _AUCTION_CODES.get(code)
        if kind is None:
            if auction:
                break  # the auction is over
            continue
        value = bids[i] if kind == "bid" and bids is not None and i < len(bids) else None
        auction.append((Seat(seat), kind, value))
    return auction
