"""Judgement of decisions: an exact double-dummy solver and annotations of bids, trump
choices, shows, doubles and cards.

Imports :mod:`schema` and :mod:`replay` only (never ``reports`` or ``importers``).
"""

from twentynine.analysis.solver import Solution, caller_team, can_reach, solve, solve_value

__all__ = ["Solution", "caller_team", "can_reach", "solve", "solve_value"]
