"""Random positions of the play, for tests and benchmarks.

>>> from twentynine.schema import Rules
>>> state = random_ending(Rules.preset("bangladesh"), seed=3, tricks_left=2)
>>> state.phase_name, state.is_over
('play', False)
>>> lead = first_lead(Rules.preset("bhoos"), seed=3)
>>> lead.trick_no, lead.trick(), lead.is_over
(0, [], False)
"""

from __future__ import annotations

import random

from twentynine.replay import DealState
from twentynine.replay.simulate import deal_cards
from twentynine.schema.cards import Seat
from twentynine.schema.log import Action
from twentynine.schema.rules import Rules


def _random_game(rules: Rules, rng: random.Random) -> tuple[DealState, list[Action]] | None:
    """A random deal played to its end by uniform legal choices (declarations included)."""
    dealer = Seat.N.order_from(rules.direction)[rng.randrange(4)]
    hands = deal_cards(rng, dealer, rules)
    start = DealState(rules, dealer, hands)
    state = start.copy()
    actions: list[Action] = []
    while not state.is_over and len(actions) < 200:
        legal = state.legal_actions()
        if not legal:
            return None
        action = legal[rng.randrange(len(legal))]
        state.apply(action)
        actions.append(action)
    return start, actions


def random_ending(
    rules: Rules, seed: int, tricks_left: int = 8, *, mid_trick: bool | None = None
) -> DealState:
    """A position of the play, all cards known, with at most ``tricks_left`` tricks to play.

    The position is taken from a random legal game at a random action of its play with that
    many tricks (or fewer) left; ``mid_trick`` True or False asks for a position inside a
    trick or at a lead (None: either). Thrown-in and unplayed deals are skipped.
    """
    rng = random.Random(seed)
    for _ in range(1000):
        game = _random_game(rules, rng)
        if game is None:
            continue
        start, actions = game
        state = start.copy()
        candidates: list[int] = []
        for i, action in enumerate(actions):
            if (
                action.type in ("play", "show")
                and state.phase_name == "play"
                and state.caller_seat is not None
                and 8 - len(state.seat_view().tricks) <= tricks_left
                and (mid_trick is None or bool(state.trick()) == mid_trick)
            ):
                candidates.append(i)
            state.apply(action)
        if not candidates:
            continue
        cut = candidates[rng.randrange(len(candidates))]
        state = start.copy()
        for action in actions[:cut]:
            state.apply(action)
        state.end_doubling()
        return state
    raise RuntimeError(f"no position of the play found for seed {seed}")


_DECLARATIONS = frozenset({"double", "redouble", "set", "single_hand", "pair"})


def first_lead(rules: Rules, seed: int) -> DealState:
    """A random deal at its first lead: auction and trump by uniform legal choices, nobody
    doubling or playing alone, all cards known. Thrown-in deals are skipped.
    """
    rng = random.Random(seed)
    for _ in range(1000):
        dealer = Seat.N.order_from(rules.direction)[rng.randrange(4)]
        state = DealState(rules, dealer, deal_cards(rng, dealer, rules))
        while not state.is_over and state.phase_name != "play":
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        if state.is_over:
            continue
        state.end_doubling()
        if state.is_over:
            continue
        return state
    raise RuntimeError(f"no deal reached its first lead for seed {seed}")
