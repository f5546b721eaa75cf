"""The exact double-dummy solver: best play by both sides from any position of the play.

The value of a position is the caller's side's final card points (points already won
included, the last-trick point where the rules have it) when both sides play their best,
all cards known. The searched moves are exactly the engine's legal plays and shows
(:func:`analysis.reference.searched_actions`); declarations (the Pair) move the target,
never card points, and are left out of the search.

>>> from schema import Rules
>>> from analysis.testing import random_ending
>>> state = random_ending(Rules.preset("bangladesh"), seed=2, tricks_left=2)
>>> solution = solve(state)
>>> solution.value == max(v for _, v in solution.actions) or solution.value == min(
...     v for _, v in solution.actions)
True
"""

from __future__ import annotations

from typing import NamedTuple

from analysis.reference import brute_force_actions
from replay import DealState
from schema.cards import Team
from schema.log import Action


class Solution(NamedTuple):
    """A solved position: its value, and every legal move with its value, best first."""

    value: int
    actions: tuple[tuple[Action, int], ...]


def caller_team(state: DealState) -> Team:
    """The caller's team (the single-hand player's once one is declared)."""
    caller = state.caller_seat
    if caller is None:
        raise ValueError("the deal has no caller yet: solve a position of the play")
    return caller.team


def solve(state: DealState) -> Solution:
    """Solve ``state``: the caller's side's final card points and each legal move's value."""
    team = caller_team(state)
    rated = brute_force_actions(state)
    seat = state.current_seat
    maximize = seat is not None and seat.team is team
    rated.sort(key=lambda pair: -pair[1] if maximize else pair[1])
    if not rated:
        return Solution(state.points_of(team), ())
    return Solution(rated[0][1], tuple(rated))


def can_reach(state: DealState, target: int) -> bool:
    """Whether the caller's side can take at least ``target`` card points against best defence."""
    return solve(state).value >= target
