"""Properties over random legal games (every choice uniform among ``legal_actions()``)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.strategies import RULE_VARIANTS
from twentynine.replay import DealState, audit_match, play_random, random_match
from twentynine.replay._tables import mask_points
from twentynine.replay.deal import STATE_FIELDS
from twentynine.replay.simulate import deal_cards
from twentynine.schema import Card, MatchLog, Rules, Seat, Suit
from twentynine.schema.log import (
    Action,
    BidAction,
    DittoAction,
    DoubleAction,
    PairAction,
    PassAction,
    PlayAction,
    RedealAction,
    RedoubleAction,
    SetAction,
    ShowAction,
    SingleHandAction,
    TrumpAction,
)

VARIANTS = RULE_VARIANTS
names = st.sampled_from(sorted(VARIANTS))


@settings(max_examples=300, deadline=None)
@given(names, st.integers(0, 2**32))
def test_random_games_audit_clean_and_points_add_up(name: str, seed: int) -> None:
    rules = VARIANTS[name]
    log = random_match(rules, seed, max_deals=8)
    log = MatchLog.model_validate_json(log.canonical_json())  # what a reader would get
    audited = audit_match(log)
    assert audited.findings == ()
    for facts, deal in zip(audited.deals, log.deals, strict=True):
        taken = sum(facts.points.values())
        played = sum(card.points for trick in facts.tricks for _, card in trick.cards)
        if len(facts.tricks) == 8 and facts.single_hand is None:
            assert taken == rules.total_points
        else:
            assert taken == played
            unplayed = [c for hand in (deal.hands or {}).values() for c in hand if c is not None]
            seen = {card for trick in facts.tricks for _, card in trick.cards}
            assert taken + sum(c.points for c in unplayed if c not in seen) == 28


def _candidates(state: DealState, rng: random.Random) -> list[Action]:
    out: list[Action] = []
    for seat in Seat:
        out.append(BidAction(seat=seat, value=rng.choice([0, 14, 15, 16, 17, 20, 28, 29])))
        out.append(PassAction(seat=seat))
        out.append(DittoAction(seat=seat))
        out.append(TrumpAction(seat=seat, suit=rng.choice(list(Suit))))
        out.append(DoubleAction(seat=seat))
        out.append(RedoubleAction(seat=seat))
        out.append(SetAction(seat=seat))
        out.append(SingleHandAction(seat=seat))
        out.append(ShowAction(seat=seat))
        out.append(PairAction(seat=seat))
        out.append(PlayAction(seat=seat, card=Card.from_index(rng.randrange(32))))
    rng.shuffle(out)
    return out


@settings(max_examples=300, deadline=None)
@given(names, st.integers(0, 2**32))
def test_an_illegal_action_is_an_error_at_exactly_its_index(name: str, seed: int) -> None:
    rules = VARIANTS[name]
    rng = random.Random(seed)
    log = random_match(rules, seed, max_deals=3)
    number = rng.randrange(len(log.deals)) + 1
    deal = log.deals[number - 1]
    if not deal.actions:
        return
    index = rng.randrange(len(deal.actions))
    state = DealState(rules, deal.dealer, deal.hands, number=number)
    for action in deal.actions[:index]:
        state.apply(action)
    bad = next((a for a in _candidates(state, rng) if state.check(a) is not None), None)
    assert bad is not None  # some action is always illegal
    actions = [*deal.actions[:index], bad, *deal.actions[index + 1 :]]
    deals = list(log.deals)
    deals[number - 1] = deal.model_copy(update={"actions": actions})
    changed = log.model_copy(update={"deals": deals})
    errors = [
        f
        for f in audit_match(changed).findings
        if f.severity == "error" and f.deal == number and f.action is not None
    ]
    assert errors, f"no error for {bad!r} at {index}"
    assert errors[0].action == index
    assert errors[0] == state.check(bad)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32))
def test_a_decided_deal_cannot_change(seed: int) -> None:
    """Bangladesh ends a deal once decided: every continuation keeps the result."""
    rules = Rules.preset("bangladesh")
    open_ended = rules.with_options(end_when_decided=False)
    rng = random.Random(seed)
    log = random_match(rules, seed, max_deals=6)
    for deal in log.deals:
        stopped = DealState(rules, deal.dealer, deal.hands)
        for action in deal.actions:
            stopped.apply(action)
        outcome = stopped.outcome
        if outcome is None or outcome.made is None or stopped.single >= 0:
            continue
        if stopped.played_out:
            continue
        for _ in range(3):
            going = DealState(open_ended, deal.dealer, deal.hands)
            for action in deal.actions:
                going.apply(action)
            play_random(going, rng)
            assert going.outcome is not None
            assert going.outcome.made == outcome.made
            assert mask_points(going.played) >= mask_points(stopped.played)


def _breaches(state: DealState, rng: random.Random) -> list[Action]:
    """Plausible actions of every kind by every seat, in random order (most are illegal)."""
    out: list[Action] = []
    for seat in Seat:
        held = [i for i in range(32) if state.held[seat.index] >> i & 1]
        out += [
            BidAction(seat=seat, value=rng.choice([0, 14, 15, 16, 17, 20, 28, 29])),
            PassAction(seat=seat),
            DittoAction(seat=seat),
            RedealAction(seat=seat),
            TrumpAction(seat=seat, suit=rng.choice([None, *Suit])),
            TrumpAction(seat=seat, seventh=True),
            TrumpAction(seat=seat, mode=rng.choice(["no_trump", "reverse"])),
            DoubleAction(seat=seat),
            RedoubleAction(seat=seat),
            SetAction(seat=seat),
            SingleHandAction(seat=seat),
            ShowAction(seat=seat),
            PairAction(seat=seat),
            PlayAction(seat=seat, card=Card.from_index(rng.randrange(32))),
        ]
        if held:
            out.append(PlayAction(seat=seat, card=Card.from_index(rng.choice(held))))
    rng.shuffle(out)
    return out


@settings(max_examples=300, deadline=None)
@given(names, st.integers(0, 2**32), st.sampled_from([0.03, 0.1, 0.3]))
def test_some_action_is_always_legal_after_breaches(name: str, seed: int, rate: float) -> None:
    """With every card recorded, a seat on turn always has a legal action, whatever breaches
    came before: the table carries on after a breach, so the engine must too."""
    rules = VARIANTS[name]
    rng = random.Random(seed)
    for _ in range(3):
        dealer = rng.choice(list(Seat))
        state = DealState(rules, dealer, deal_cards(rng, dealer, rules))
        for _ in range(200):
            if state.is_over or state.current_seat is None:
                break
            if rng.random() < rate:
                bad = next((a for a in _breaches(state, rng) if state.check(a) is not None), None)
                assert bad is not None
                state.apply(bad)
                continue
            legal = state.legal_actions()
            assert legal, f"no legal action for {state.current_seat} after {state.findings}"
            assert any(a.seat is state.current_seat for a in legal)
            state.apply(legal[rng.randrange(len(legal))])


def _breached_game(rules: Rules, rng: random.Random, rate: float) -> tuple[DealState, list[Action]]:
    """A fresh deal and the actions of one random game with random breaches mixed in."""
    dealer = rng.choice(list(Seat))
    hands = deal_cards(rng, dealer, rules)
    state = DealState(rules, dealer, hands)
    actions: list[Action] = []
    for _ in range(200):
        if state.is_over or state.current_seat is None:
            break
        if rng.random() < rate:
            action = next((a for a in _breaches(state, rng) if state.check(a) is not None), None)
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))] if legal else None
        if action is None:
            break
        state.apply(action)
        actions.append(action)
    if rng.random() < 0.5:  # and sometimes a few actions after the end
        actions.extend(rng.sample(_breaches(state, rng), 3))
    return DealState(rules, dealer, hands), actions


@settings(max_examples=300, deadline=None)
@given(names, st.integers(0, 2**32), st.sampled_from([0.0, 0.05, 0.2]))
def test_the_auditors_fast_loop_agrees_with_apply(name: str, seed: int, rate: float) -> None:
    """``run`` (the auditor's loop, with its shortcuts) ends where ``apply`` one by one does."""
    rules = VARIANTS[name]
    fresh, actions = _breached_game(rules, random.Random(seed), rate)
    one_by_one = fresh.copy()
    for action in actions:
        one_by_one.apply(action)
    fresh.run(actions)
    assert fresh.findings == one_by_one.findings
    for name_ in STATE_FIELDS:
        if name_.startswith("_fast") or name_ == "_viewed_tricks":
            continue
        assert getattr(fresh, name_) == getattr(one_by_one, name_), name_
