"""The reference solver: plain minimax through the rules engine itself, for tests only.

It asks :meth:`replay.DealState.legal_actions` for the moves and plays them with
:meth:`~replay.DealState.apply` on copies, so it is exact by construction and very slow:
use it on endings of a few tricks, to check the fast solver against.

>>> from twentynine.schema import Rules
>>> from twentynine.analysis.testing import random_ending
>>> state = random_ending(Rules.preset("bhoos"), seed=1, tricks_left=1)
>>> 0 <= brute_force_value(state) <= 28
True
"""

from __future__ import annotations

from twentynine.replay import DealState
from twentynine.schema.cards import Team
from twentynine.schema.log import Action

SEARCHED_TYPES = frozenset({"play", "show"})
"""The moves the solver searches: cards, and asking for (or showing) the trump."""


def searched_actions(state: DealState) -> list[Action]:
    """The engine's legal plays and shows at ``state`` (declarations such as the Pair left out)."""
    return [a for a in state.legal_actions() if a.type in SEARCHED_TYPES]


def _team_of_caller(state: DealState) -> Team:
    caller = state.caller_seat
    if caller is None:
        raise ValueError("the deal has no caller yet: solve a position of the play")
    return caller.team


def brute_force_value(state: DealState) -> int:
    """The caller's side's final card points with best play by both sides (plain minimax)."""
    team = _team_of_caller(state)
    return _minimax(state, team)


def _minimax(state: DealState, team: Team) -> int:
    if state.is_over:
        return state.points_of(team)
    seat = state.current_seat
    moves = searched_actions(state)
    if seat is None or not moves:
        return state.points_of(team)
    values = []
    for action in moves:
        child = state.copy()
        child.apply(action)
        values.append(_minimax(child, team))
    return max(values) if seat.team is team else min(values)


def brute_force_actions(state: DealState) -> list[tuple[Action, int]]:
    """Every searched legal action at ``state`` with its minimax value, in the engine's order."""
    team = _team_of_caller(state)
    out = []
    for action in searched_actions(state):
        child = state.copy()
        child.apply(action)
        out.append((action, _minimax(child, team)))
    return out
