"""Bids that hear the auction (issue 33 §2): a bid, pass or Ditto is judged on layouts drawn
as the calls before it say, and a contract's chance counts what its caller's partner and the
opponents hold there."""

from __future__ import annotations

import json

from tests.test_analysis_judge import _deal, _hands
from twentynine.analysis.fair import fair_deal
from twentynine.analysis.judging import DealContext
from twentynine.analysis.models.contract import ContractView, cards
from twentynine.analysis.models.contract import shipped_model as shipped_contract
from twentynine.analysis.models.table import shipped_model as shipped_table
from twentynine.schema import Rules
from twentynine.schema.cards import Card, Rank, Seat

WEAK = "7S 8D 7C QH"
"""Four cards no seat bids on."""


def _high(cards: list[Card | None]) -> int:
    return sum(1 for c in cards[:4] if c is not None and c.rank in (Rank.JACK, Rank.NINE))


def test_a_weak_pass_behind_partners_bid_is_not_told_to_outbid_partner() -> None:
    # N deals, E opens 17, S passes, and W, E's partner, passes with one jack and nothing
    # beside it. On layouts blind to the calls, E's 17 said nothing of E's cards, and
    # "bid 18" came out best.
    rules = Rules.preset("bhoos")
    deal = _deal(rules, Seat.N, _hands(11, W="JS 8D 7D 7S"), ["17", "pass", "pass", "pass"])
    notes = fair_deal("m", rules, deal, 1, kinds={"bid"}, samples=16)
    (note,) = [n for n in notes if n.action == 2]
    assert note.seat == "W" and note.chosen == "pass"
    assert note.best == "pass" and note.label is None
    assert json.loads(note.detail)["judgement"] is None


def test_partners_bid_gives_partner_more_high_cards_in_the_bid_layouts() -> None:
    rules = Rules.preset("bhoos")
    hands = _hands(12, W=WEAK)
    counts = []
    for script in (["16", "pass", "pass", "pass"], ["pass", "pass", "16", "pass"]):
        deal = _deal(rules, Seat.N, hands, script)
        context = DealContext("m", rules, deal, 1, 8, 0)
        layouts = [context.layout(2, Seat.W, k) for k in range(120)]
        counts.append(sum(_high(lay.hands[Seat.E]) for lay in layouts if lay) / len(layouts))
    bid, passed = counts
    assert bid > passed + 0.3, counts


def test_a_contract_s_chance_counts_the_partners_and_the_opponents_trumps() -> None:
    view = ContractView(cards("JH 7H AS 7C"), 1, 16)
    contract, table = shipped_contract(), shipped_table()
    rest = cards("8S 8C KD QD 7D KS QS QC")
    helped = table.chance(contract, view, cards("9H AH TH 8D"), rest)
    hurt = table.chance(contract, view, rest[:4], (*cards("9H AH TH 8D"), *rest[4:]))
    assert hurt + 0.1 < contract.chance(view) < helped - 0.1
