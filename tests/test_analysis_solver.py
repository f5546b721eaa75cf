"""The exact solver against the rules engine: the same legal moves everywhere, the same
values as a plain minimax through the engine, values that are the best of their children,
and the compiled and pure-Python paths in agreement."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterable

import pytest

from tests.strategies import RULE_VARIANTS
from twentynine.analysis import Solution, can_reach, solve, solve_value
from twentynine.analysis import _kernel as kernel
from twentynine.analysis.reference import brute_force_actions, searched_actions
from twentynine.analysis.solver import (
    caller_team,
    compiled_kernel,
    forget_deals,
    legal_moves,
    playable,
    position_row,
    rules_row,
)
from twentynine.analysis.testing import first_lead, random_ending
from twentynine.replay import DealState
from twentynine.replay.simulate import deal_cards
from twentynine.schema.cards import Seat
from twentynine.schema.log import Action
from twentynine.schema.rules import PRESET_NAMES, Rules

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
    inside_a_trick = before_the_show = 0
    for seed in range(60 if tricks < 3 else 25):
        state = random_ending(rules, seed * 7 + tricks, tricks)
        inside_a_trick += bool(state.trick())
        before_the_show += not state.shown
        solution = solve(state)
        assert _rated(solution.actions) == _rated(brute_force_actions(state)), (variant, seed)
    assert inside_a_trick > 0
    # Where the show is optional, endings before it are common; elsewhere it comes early.
    assert before_the_show > 0 or rules.show_trump != "optional"


def plain_minimax(state: DealState) -> list[tuple[Action, int]]:
    """Every move's value by a minimax without pruning, table or merged cards, over the
    pure kernel's move generator: independent of the search, and quicker than the engine's
    brute force on endings of four tricks."""
    position = playable(state)
    stack = kernel.new_buffer(kernel.W * kernel.MAX_DEPTH)
    stack[: kernel.W] = position_row(position)
    rules = rules_row(position.rules)
    moves = kernel.new_buffer(kernel.MAX_MOVES * kernel.MAX_DEPTH)

    def value(d: int) -> int:
        b = d * kernel.W
        mine = stack[b + kernel.POINTS + stack[b + kernel.TEAM]]
        if stack[b + kernel.OVER]:
            return mine
        o = d * kernel.MAX_MOVES
        n = kernel.legal_moves(stack, b, rules, moves, o)
        if n == 0:
            return mine
        values = []
        for i in range(n):
            kernel.copy_row(stack, b, b + kernel.W)
            kernel.apply_move(stack, b + kernel.W, rules, moves[o + i])
            values.append(value(d + 1))
        mover = stack[b + kernel.TO_PLAY] & 1
        return max(values) if mover == stack[b + kernel.TEAM] else min(values)

    out = []
    for move, action in zip(stack_moves(stack, rules, moves), legal_moves(position), strict=True):
        kernel.copy_row(stack, 0, kernel.W)
        kernel.apply_move(stack, kernel.W, rules, move)
        out.append((action, value(1)))
    return out


def stack_moves(stack: list[int], rules: list[int], moves: list[int]) -> list[int]:
    n = kernel.legal_moves(stack, 0, rules, moves, 0)
    return moves[:n]


@pytest.mark.parametrize("variant", VARIANTS)
def test_plain_minimax_is_the_engines_on_short_endings(variant: str) -> None:
    rules = RULE_VARIANTS[variant]
    for seed in range(30):
        state = random_ending(rules, 7000 + seed, 2)
        assert _rated(plain_minimax(state)) == _rated(brute_force_actions(state)), seed


@pytest.mark.parametrize("variant", VARIANTS)
def test_values_match_a_plain_minimax_on_four_tricks(variant: str) -> None:
    rules = RULE_VARIANTS[variant]
    for seed in range(20):
        state = random_ending(rules, 9000 + seed, 4)
        assert _rated(solve(state).actions) == _rated(plain_minimax(state)), (variant, seed)


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
        assert solve(state, engine="python") == solve(state, engine="compiled")


def test_can_reach_is_the_value_threshold() -> None:
    for preset in ("bhoos", "bangladesh", "classic29"):
        state = first_lead(Rules.preset(preset), 11)
        value = solve(state).value
        assert can_reach(state, value)
        assert not can_reach(state, value + 1)
        assert can_reach(state, value - 3)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_solve_value_is_the_solutions_value(preset: str) -> None:
    # Every position of random games, each value asked before any full solve of its deal.
    rules = Rules.preset(preset)
    for seed in range(2):
        positions = _random_play_positions(rules, 700 + seed)
        values = [solve_value(position) for position in positions]
        assert values == [solve(position).value for position in positions]
    for seed in range(4):
        state = random_ending(rules, 800 + seed, 4)
        value = solve_value(state, engine="python")
        assert value == solve_value(state, engine="compiled") == solve(state).value


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


@pytest.mark.parametrize("preset", ["bhoos", "bangladesh", "classic29"])
def test_the_table_kept_from_position_to_position_of_a_deal_changes_no_value(
    preset: str,
) -> None:
    # Solving the positions of one deal in turn reuses the table: the values must not depend
    # on the order in which they are asked, and the last tricks match the brute force.
    rules = Rules.preset(preset)
    for seed in range(3):
        state = first_lead(rules, 300 + seed)
        walk = []
        while not state.is_over:
            walk.append(state.copy())
            rng_move = searched_actions(state)[seed % len(searched_actions(state))]
            state.apply(rng_move)
        forward = [solve(position) for position in walk]
        backward = [solve(position) for position in reversed(walk)][::-1]
        assert forward == backward
        for position, solution in zip(walk, forward, strict=True):
            if position.trick_no >= 6:
                assert _rated(solution.actions) == _rated(brute_force_actions(position))


def _trumps_held(state: DealState) -> bool:
    """Whether a card of the trump suit is still in a hand."""
    return any(held >> (8 * state.trump) & 0xFF for held in state.held)


def _bhoos_endings(
    seed: int, tricks: int, wanted: int, keep: Callable[[DealState], bool]
) -> list[DealState]:
    rules = Rules.preset("bhoos")
    found: list[DealState] = []
    while len(found) < wanted:
        state = playable(random_ending(rules, seed, tricks))
        seed += 1
        if not state.is_over and keep(state):
            found.append(state)
        assert seed < 100_000, "too few endings of that kind"
    return found


@pytest.mark.parametrize("tricks", [3, 4])
def test_bhoos_inside_a_trick_after_the_show_matches_a_plain_minimax(tricks: int) -> None:
    # The compiled kernel plays the rest of such a trick by plain loops (then the last tricks
    # as its loops and cached endings take them): every move's value as a plain minimax.
    endings = _bhoos_endings(
        11_000 * tricks, tricks, 60, lambda state: state.shown and bool(state.trick_cards)
    )
    for state in endings:
        assert _rated(solve(state).actions) == _rated(plain_minimax(state)), state.trick_no


def _trump_discarded(state: DealState) -> bool:
    """Whether a trump lies on the table in a trick led in another suit."""
    cards = state.trick_cards
    return (
        bool(cards) and cards[0] >> 3 != state.trump and any(c >> 3 == state.trump for c in cards)
    )


@pytest.mark.parametrize("discarded", [False, True])
def test_bhoos_before_the_show_with_no_trump_held_matches_a_plain_minimax(discarded: bool) -> None:
    # With no trump left in any hand or on the table, the compiled kernel plays the position
    # as if the trump were shown (showing changes nothing); with a trump discarded on the
    # table it must not (shown, it would win the trick): the values stay the minimax's.
    def kind(state: DealState) -> bool:
        if state.shown or _trumps_held(state):
            return False
        on_table = any(card >> 3 == state.trump for card in state.trick_cards)
        return _trump_discarded(state) if discarded else not on_table

    for state in _bhoos_endings(13_000, 3, 30, kind):
        assert _rated(solve(state).actions) == _rated(plain_minimax(state))


def test_bhoos_longer_endings_inside_a_trick_agree_with_the_pure_path() -> None:
    # Tricks three and four inside a trick after the show: the rest of the trick by loops,
    # then four or five tricks through the table, against the pure-Python search.
    endings = _bhoos_endings(
        17_000,
        6,
        20,
        lambda state: state.shown and bool(state.trick_cards) and state.trick_no in (2, 3),
    )
    for state in endings:
        assert solve(state) == solve(state, engine="python")


@pytest.mark.parametrize("preset", ["bhoos", "bangladesh"])
def test_compiled_and_pure_python_agree_from_the_first_lead(preset: str) -> None:
    # Whole deals: the compiled kernel searches them with its own move ordering and caches.
    state = first_lead(Rules.preset(preset), 60)
    assert solve_value(state, engine="python") == solve_value(state, engine="compiled")


def test_answers_do_not_depend_on_the_deals_solved_before() -> None:
    """The table is reused from search to search (its entries stamped with their deal) and
    the two-trick endings are cached across deals: whatever a thread solved before, and in
    whatever order, each position gets the same solution as in a fresh thread."""
    positions = [
        *(first_lead(Rules.preset(name), seed) for name in PRESET_NAMES for seed in (30, 31)),
        *(random_ending(Rules.preset(name), 70, 4) for name in PRESET_NAMES),
    ]
    alone: list[Solution] = []
    for position in positions:
        worker = threading.Thread(target=lambda p=position: alone.append(solve(p)))
        worker.start()  # a thread of its own: tables that have seen nothing
        worker.join()
    forget_deals()
    in_turn = [solve(position) for position in positions]
    backwards = [solve(position) for position in reversed(positions)][::-1]
    assert in_turn == backwards == alone


def test_the_compiled_kernels_caches_tell_the_trumps_apart() -> None:
    """The same cards, held alike, with each suit in turn as the trump: solved one after the
    other with one table (where endings cached under one trump must not answer for another)
    and each with a fresh table, the values agree."""
    compiled = compiled_kernel()
    if compiled is None:
        pytest.skip("the install built no compiled kernel")
    rules = Rules.preset("bhoos")
    checked = 0
    for seed in range(40):
        state = playable(random_ending(rules, 400 + seed, 4, mid_trick=False))
        if not state.shown or state.is_over:
            continue
        row, rules_list = position_row(state), rules_row(state.rules)
        shared = bytearray(compiled.table_size())
        for generation, trump in enumerate(range(4), start=1):
            row[kernel.TRUMP] = trump
            rules_list[kernel.R_GENERATION] = generation
            fresh = compiled.exact_value(row, rules_list, bytearray(compiled.table_size()))[0]
            assert compiled.exact_value(row, rules_list, shared)[0] == fresh, (seed, trump)
        checked += 1
    assert checked >= 10
