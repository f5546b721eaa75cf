"""The exact solver against the rules engine: the same legal moves everywhere, the same
values as a plain minimax through the engine, values that are the best of their children,
and the compiled and pure-Python paths in agreement."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from analysis import can_reach, solve
from analysis.reference import brute_force_actions, searched_actions
from analysis.solver import caller_team, legal_moves, playable
from analysis.testing import first_lead, random_ending
from replay import DealState
from replay.simulate import deal_cards
from schema.cards import Seat
from schema.log import Action
from schema.rules import PRESET_NAMES, Rules
from tests.strategies import RULE_VARIANTS

VARIANTS = sorted(RULE_VARIANTS)


def _key(action: Action) -> tuple[str, str, str]:
    card = getattr(action, "card", None)
    return (str(action.type), str(action.seat), card.text if card is not None else "")


def _rated(pairs: Iterable[tuple[Action, int]]) -> list[tuple[tuple[str, str, str], int]]:
    return sorted((_key(action), value) for action, value in pairs)


def _random_play_positions(rules: Rules, seed: int) -> list[DealState]:
    """Every position of the play of one random legal game (declarations taken at random)."""
    rng = random.Random(seed)
    dealer = Seat.N.order_from(rules.direction)[rng.randrange(4)]
    state = DealState(rules, dealer, deal_cards(rng, dealer, rules))
    positions = []
    while not state.is_over:
        legal = state.legal_actions()
        if state.phase_name == "play" and state.current_seat is not None:
            positions.append(state.copy())
        state.apply(legal[rng.randrange(len(legal))])
    return positions


@pytest.mark.parametrize("variant", VARIANTS)
def test_legal_moves_are_the_engines(variant: str) -> None:
    rules = RULE_VARIANTS[variant]
    checked = 0
    for seed in range(40):
        for state in _random_play_positions(rules, seed):
            expected = sorted(_key(a) for a in searched_actions(state))
            assert sorted(_key(a) for a in legal_moves(state)) == expected, (variant, seed)
            checked += 1
    assert checked > 300


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("tricks", [1, 2, 3])
def test_values_match_the_engine_minimax(variant: str, tricks: int) -> None:
    rules = RULE_VARIANTS[variant]
    for seed in range(60 if tricks < 3 else 25):
        state = random_ending(rules, seed * 7 + tricks, tricks)
        solution = solve(state)
        assert _rated(solution.actions) == _rated(brute_force_actions(state)), (variant, seed)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_value_is_the_best_of_the_children(preset: str) -> None:
    rules = Rules.preset(preset)
    for seed in range(15):
        state = playable(random_ending(rules, 1000 + seed, 3))
        solution = solve(state)
        caller_side = state.current_seat is not None and state.current_seat.team is caller_team(
            state
        )
        values = [value for _, value in solution.actions]
        assert solution.value == (max(values) if caller_side else min(values))
        for action, value in solution.actions:
            child = state.copy()
            child.apply(action)
            assert solve(child).value == value, (preset, seed, action)


@pytest.mark.parametrize("variant", VARIANTS)
def test_compiled_and_pure_python_agree(variant: str) -> None:
    rules = RULE_VARIANTS[variant]
    for seed in range(8):
        state = random_ending(rules, 500 + seed, 4)
        assert solve(state, engine="python") == solve(state, engine="numba")


def test_can_reach_is_the_value_threshold() -> None:
    for preset in ("bhoos", "bangladesh", "classic29"):
        state = first_lead(Rules.preset(preset), 11)
        value = solve(state).value
        assert can_reach(state, value)
        assert not can_reach(state, value + 1)
        assert can_reach(state, value - 3)


def test_unknown_cards_are_refused() -> None:
    rules = Rules.preset("bhoos")
    rng = random.Random(5)
    hands = deal_cards(rng, Seat.N, rules)
    hands[Seat.E] = [None] * 8
    hands[Seat.W] = [None] * 8  # one seat alone unknown would be inferred
    state = DealState(rules, Seat.N, hands)
    while state.phase_name != "play":
        state.apply(state.legal_actions()[-1])
    with pytest.raises(ValueError, match="unknown cards"):
        solve(state)


def test_unknown_engine_is_refused() -> None:
    state = random_ending(Rules.preset("bhoos"), 3, 1)
    with pytest.raises(ValueError, match="unknown solver engine"):
        solve(state, engine="fortran")
