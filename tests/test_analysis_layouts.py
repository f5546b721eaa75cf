"""Layouts drawn as the auction says: the others' first four cards follow their calls."""

from __future__ import annotations

import math
import pickle
import random
from itertools import combinations

import pytest

from twentynine.analysis.models.others import (
    FEATURES,
    Call,
    Turn,
    free_call,
    shipped_model,
)
from twentynine.analysis.sampling import sample_layouts
from twentynine.replay import DealState, random_match
from twentynine.schema import Rules
from twentynine.schema.cards import ALL_CARDS, Card, Rank, Seat
from twentynine.schema.log import Deal


def _jacks(cards: list[Card | None]) -> int:
    return sum(1 for c in cards[:4] if c is not None and c.rank is Rank.JACK)


def _others_calls(rules: Rules, deal: Deal, at: int, seat: Seat) -> list[Call]:
    state = DealState(rules, deal.dealer, deal.hands)
    calls = []
    for action in deal.actions[:at]:
        call = free_call(state, action)
        state.apply(action)
        if call is not None and action.seat is not seat:
            calls.append(call)
    return calls


def _bidding_deal() -> tuple[Rules, Deal, int, Seat, list[Call], Call]:
    """A bhoos deal whose caller, at its trump choice, heard another seat call at 17 or
    more, with calls the model finds likely of the real cards (the simulator's bots bid
    otherwise than the archive's): (rules, deal, the trump choice's index, the caller,
    the others' calls, the call at 17 or more)."""
    model = shipped_model()
    for seed in range(400):
        log = random_match(Rules.preset("bhoos"), seed=seed)
        rules, deal = log.resolved_rules(), log.deals[0]
        at = next((i for i, a in enumerate(deal.actions) if a.type == "trump"), None)
        if at is None or deal.hands is None:
            continue
        caller = deal.actions[at].seat
        calls = _others_calls(rules, deal, at, caller)
        high = [c for c in calls if c.called and c.need >= 17]
        fours = {s: tuple(c for c in deal.hands[s][:4] if c) for s in deal.hands}
        if high and model.calls_weight(calls, fours) > 0.2:
            return rules, deal, at, caller, calls, high[0]
    raise AssertionError("no deal with a likely call at 17 or more by another seat")


def test_the_weight_is_a_chance_and_some_hand_reaches_the_bound() -> None:
    model = shipped_model()
    for called in (True, False):
        call = Call(Seat.E, 17, partner_holds=False, ditto=False, called=called, jumped=False)
        fours = combinations(ALL_CARDS, 4)
        weights = [model.calls_weight([call], {Seat.E: four}) for four in fours]
        assert min(weights) >= 0.0 and max(weights) == pytest.approx(1.0)


def test_layouts_follow_the_calls_as_weighting_free_layouts_would() -> None:
    """Rejection by the calls' chances draws the layouts importance weighting describes:
    the mean jacks the caller sees in a bidder's first four agree both ways, and exceed
    what a layout blind to the auction gives."""
    rules, deal, at, caller, calls, call = _bidding_deal()
    model = shipped_model()
    count = 300
    kept = sample_layouts(rules, deal, 1, at, caller, random.Random(1), count, auction=model)
    free = sample_layouts(rules, deal, 1, at, caller, random.Random(2), count)
    assert len(kept) == len(free) == count
    drawn = sum(_jacks(layout.hands[call.seat]) for layout in kept) / count
    weights = []
    for layout in free:
        fours = {c.seat: tuple(x for x in layout.hands[c.seat][:4] if x) for c in calls}
        weights.append(model.calls_weight(calls, fours))
    weighted = sum(
        w * _jacks(layout.hands[call.seat]) for w, layout in zip(weights, free, strict=True)
    ) / sum(weights)
    blind = sum(_jacks(layout.hands[call.seat]) for layout in free) / count
    assert abs(drawn - weighted) < 0.25
    assert drawn > blind + 0.2


def test_the_table_of_hands_gives_each_hand_its_own_term() -> None:
    """The table shares a term between hands of one pattern of suits and points: each
    hand's entry is what its own cards give."""
    model = shipped_model()
    rng = random.Random(5)
    for _ in range(300):
        four = tuple(rng.sample(ALL_CARDS, 4))
        turn = Turn(four, 17, partner_holds=rng.random() < 0.5)
        direct = model.intercept + sum(
            b * FEATURES[name](turn)
            for name, b in zip(model.features, model.coefficients, strict=True)
        )
        assert model.call_chance(turn) == pytest.approx(1 / (1 + math.exp(-direct)))


def test_a_model_goes_to_a_worker_without_its_tables() -> None:
    model = shipped_model()
    model.calls_weight([], {})
    sent = pickle.dumps(model)
    assert len(sent) < 4000
    assert pickle.loads(sent) == model
