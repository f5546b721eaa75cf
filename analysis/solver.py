"""The exact double-dummy solver: best play by both sides from any position of the play.

The value of a position is the caller's side's final card points (points already won
included, the last-trick point where the rules have it) when both sides play their best,
all cards known; where the rules end a deal once it is decided, the deal ends there, as the
engine ends it. The searched moves are exactly the engine's legal plays and shows
(:func:`analysis.reference.searched_actions`); declarations (the Pair) move the target,
never card points, and are left out of the search (the early end still allows for a Pair
that may come, as :meth:`replay.DealState.result_fixed` does).

The search runs in :mod:`analysis._kernel`, compiled with numba (the default), or the same
functions uncompiled: ``engine="python"`` or ``TWENTYNINE_SOLVER=python`` in the environment.

>>> from twentynine.schema import Rules
>>> from twentynine.analysis.testing import random_ending
>>> state = random_ending(Rules.preset("bangladesh"), seed=2, tricks_left=2)
>>> solution = solve(state)
>>> solution.value == max(v for _, v in solution.actions) or solution.value == min(
...     v for _, v in solution.actions)
True
>>> solve(state, engine="python") == solution
True
"""

from __future__ import annotations

import os
import threading
from types import ModuleType
from typing import Any, Literal, NamedTuple

from twentynine.analysis import _kernel as k
from twentynine.replay import DealState
from twentynine.replay._tables import NO_SUIT, TEAM_NUM
from twentynine.schema.cards import ALL_CARDS, SEATS, Direction, Team
from twentynine.schema.log import Action, PlayAction, ShowAction
from twentynine.schema.rules import Rules

Engine = Literal["numba", "python"]
ENGINES: tuple[Engine, ...] = ("numba", "python")
ENGINE_VARIABLE = "TWENTYNINE_SOLVER"
"""The environment variable that picks the solver's engine when a call names none."""

_MODE_REVERSE = 2  # replay.deal's trump_mode for reverse
_SHOW_MODES = {"optional": k.SHOW_OPTIONAL, "compulsory": k.SHOW_COMPULSORY}


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


def _engine_name(engine: str | None) -> Engine:
    name = engine if engine is not None else os.environ.get(ENGINE_VARIABLE, "numba")
    for known in ENGINES:
        if name == known:
            return known
    raise ValueError(f"unknown solver engine {name!r} (known: {', '.join(ENGINES)})")


def _backend(engine: str | None) -> tuple[ModuleType, Any]:
    """The kernel module and its buffer maker for ``engine``."""
    if _engine_name(engine) == "python":
        return k, k.new_buffer
    from twentynine.analysis import _kernel_jit

    return _kernel_jit.kernel, _kernel_jit.new_buffer


def rules_row(rules: Rules) -> list[int]:
    """The rules of play as the kernel reads them."""
    row = [0] * k.RW
    row[k.R_SHOW] = _SHOW_MODES.get(rules.show_trump, k.SHOW_AUTOMATIC)
    row[k.R_MUST_TRUMP] = int(rules.must_trump_after_show)
    row[k.R_MUST_OVERTRUMP] = int(rules.must_overtrump_after_show)
    row[k.R_PAGAT] = int(rules.seventh_card == "pagat")
    row[k.R_END_DECIDED] = int(rules.end_when_decided)
    row[k.R_TOTAL] = rules.total_points
    row[k.R_BONUS] = rules.last_trick_bonus
    row[k.R_PAIR_LOWERS_FROM] = rules.pair_lowers_from_call
    row[k.R_PAIR_POINTS] = rules.pair_points
    row[k.R_MIN_BID] = rules.min_bid
    row[k.R_MAX_BID] = rules.max_bid
    row[k.R_UNDER_HALF] = int(rules.under_half)
    row[k.R_DIR] = 1 if rules.direction is Direction.CLOCKWISE else 3
    return row


def playable(state: DealState) -> DealState:
    """``state`` ready to search: a copy with the doubling closed if it is still open.

    Raises ValueError for a position the solver cannot take: not yet in the play, a card
    not known, or a trump suit shown but not recorded.
    """
    caller_team(state)
    if state.phase_name != "play":
        raise ValueError("the trump is not chosen yet: solve a position of the play")
    unknown = [f"{SEATS[s]} {n}" for s, n in enumerate(state.unknown) if n]
    if unknown:
        raise ValueError(
            f"the position has unknown cards ({', '.join(unknown)}): solving needs every hand"
        )
    if state.trump < 0 or state.winner_pending:
        raise ValueError("the trump suit is not recorded: solving needs it")
    if state.ladder_open:
        state = state.copy()
        state.end_doubling()
    return state


def position_row(state: DealState) -> list[int]:
    """The position as the kernel's row of ints (see :mod:`analysis._kernel`)."""
    row = [0] * k.W
    for seat in range(4):
        row[k.HELD + seat] = state.held[seat]
    row[k.TO_PLAY] = state.to_play
    row[k.LED] = state.led
    row[k.N_TRICK] = len(state.trick_cards)
    for i, (seat, card) in enumerate(zip(state.trick_seats, state.trick_cards, strict=True)):
        row[k.TRICK_SEATS + i] = seat
        row[k.TRICK_CARDS + i] = card
    row[k.TRUMP] = state.trump
    row[k.REVERSE] = int(state.trump_mode == _MODE_REVERSE)
    row[k.SHOWN] = int(state.shown)
    row[k.ASKER] = state.asker
    row[k.ASKER_MUST] = int(state.asker_must)
    row[k.FACE_DOWN] = state.face_down
    row[k.CALLER] = state.caller
    row[k.SEVENTH] = int(state.seventh)
    row[k.SEVENTH_TURN] = int(state.seventh_turn)
    row[k.SINGLE] = state.single
    row[k.POINTS] = state.points[0]
    row[k.POINTS + 1] = state.points[1]
    row[k.TRICK_NO] = state.trick_no
    row[k.OVER] = int(state.is_over)
    row[k.TEAM] = TEAM_NUM[caller_team(state)]
    row[k.TARGET] = state.target
    row[k.CALL] = state.call
    row[k.PAIR_OPEN] = int(
        state.rules.pair != "off" and state.pair_seat < 0 and state.trump != NO_SUIT
    )
    return row


class _Tables(threading.local):
    """Per thread and engine: the transposition table, reused from search to search.

    Each entry is stamped with a generation: one per deal (its 32 cards, trump, caller,
    target and rules), so that solving position after position of one deal reuses what the
    earlier searches learnt, while another deal's entries never match. Nothing is cleared
    between searches.
    """

    _KEPT_DEALS = 4096

    def __init__(self) -> None:
        self.tables: dict[str, Any] = {}
        self.generations: dict[tuple[int, ...], int] = {}
        self.last = 0
        self.nodes = 0  # visited by this thread's last search

    def take(self, engine: str, new_buffer: Any, deal: tuple[int, ...]) -> tuple[Any, int]:
        if engine not in self.tables:
            self.tables[engine] = new_buffer(k.new_table_size())
        table = self.tables[engine]
        generation = self.generations.get(deal)
        if generation is None:
            if self.last + 1 >= k.GENERATIONS or len(self.generations) >= self._KEPT_DEALS:
                self.generations.clear()
                if self.last + 1 >= k.GENERATIONS:
                    for name, old in self.tables.items():
                        self.tables[name] = new_buffer(len(old))
                    table = self.tables[engine]
                    self.last = 0
            self.last += 1
            generation = self.generations[deal] = self.last
        return table, generation

    def forget(self) -> None:
        # Old generations are never handed out again, so their entries never match.
        self.generations.clear()


_TABLES = _Tables()


def nodes_searched() -> int:
    """The nodes this thread's last :func:`solve`, :func:`solve_value` or :func:`can_reach`
    visited (0 if it needed no search): its work, the same on any machine, for benchmarks.
    The plain loops of the last tricks after the show count no nodes.

    >>> from twentynine.schema import Rules
    >>> from twentynine.analysis.testing import first_lead
    >>> state = first_lead(Rules.preset("bhoos"), seed=1)
    >>> forget_deals()
    >>> _ = solve_value(state)
    >>> value_only = nodes_searched()
    >>> forget_deals()
    >>> _ = solve(state)
    >>> 0 < value_only < nodes_searched()
    True
    """
    return _TABLES.nodes


def forget_deals() -> None:
    """Make this thread's tables forget every deal solved so far, as in a fresh process:
    for timing searches that must learn nothing from earlier ones (benchmarks)."""
    _TABLES.forget()


_FIXED_IN_A_DEAL = (
    k.TRUMP,
    k.REVERSE,
    k.CALLER,
    k.SEVENTH,
    k.SINGLE,
    k.TEAM,
    k.TARGET,
    k.CALL,
    k.PAIR_OPEN,
)
"""What a deal's play never changes (besides its cards): with them and the rules, the
table's entries of one search hold for any other position of the deal."""


class _Search:
    """The buffers of one search, filled from a position."""

    def __init__(self, state: DealState, engine: str | None) -> None:
        name = _engine_name(engine)
        self.kernel, new_buffer = _backend(name)
        self.stack = new_buffer(k.W * k.MAX_DEPTH)
        row = position_row(state)
        for i, value in enumerate(row):
            self.stack[i] = value
        rules = rules_row(state.rules)
        fixed = [row[i] for i in _FIXED_IN_A_DEAL]
        deal = (*state.known, *fixed, *rules)
        self.table, generation = _TABLES.take(name, new_buffer, deal)
        self.rules = new_buffer(k.RW)
        for i, value in enumerate(rules):
            self.rules[i] = value
        self.rules[k.R_GENERATION] = generation
        self.moves = new_buffer(k.MAX_MOVES * k.MAX_DEPTH)
        self.frames = new_buffer(k.new_frames_size())

    def done(self) -> None:
        """Keep the count of nodes searched (:func:`nodes_searched`)."""
        _TABLES.nodes = int(self.frames[k.NODES])


def _action(seat: int, move: int) -> Action:
    # Built as the engine builds its legal actions, so that they compare equal.
    if move == k.SHOW:
        return ShowAction.model_construct(seat=SEATS[seat], type="show")
    return PlayAction.model_construct(seat=SEATS[seat], card=ALL_CARDS[move], type="play")


def solve(state: DealState, engine: str | None = None) -> Solution:
    """Solve ``state``: the caller's side's final card points and each legal move's value.

    ``engine`` is ``"numba"`` (compiled) or ``"python"``; None reads ``TWENTYNINE_SOLVER``
    (default numba). Raises ValueError for a position with unknown cards.
    """
    state = playable(state)
    _TABLES.nodes = 0
    team = caller_team(state)
    if state.is_over or state.current_seat is None:
        return Solution(state.points_of(team), ())
    search = _Search(state, engine)
    values = [0] * k.MAX_MOVES
    kv = search.kernel
    out = _backend(engine)[1](k.MAX_MOVES)
    n = kv.solve_root(
        search.stack,
        search.rules,
        search.moves,
        search.table,
        search.frames,
        out,
    )
    search.done()
    for i in range(n):
        values[i] = int(out[i])
    seat = state.to_play
    rated = [(_action(seat, int(search.moves[i])), values[i]) for i in range(n)]
    if not rated:
        return Solution(state.points_of(team), ())
    maximize = TEAM_NUM[team] == seat & 1
    rated.sort(key=lambda pair: -pair[1] if maximize else pair[1])
    return Solution(rated[0][1], tuple(rated))


def solve_value(state: DealState, engine: str | None = None) -> int:
    """The caller's side's final card points with best play: :func:`solve`'s value without
    each move's, by null-window searches from the middle of what is still possible (a few
    searches where a full solve takes about 23).

    >>> from twentynine.schema import Rules
    >>> from twentynine.analysis.testing import first_lead
    >>> state = first_lead(Rules.preset("bhoos"), seed=1)
    >>> solve_value(state) == solve(state).value
    True
    """
    state = playable(state)
    _TABLES.nodes = 0
    if state.is_over or state.current_seat is None:
        return state.points_of(caller_team(state))
    search = _Search(state, engine)
    value = search.kernel.exact_value(
        search.stack, 0, search.rules, search.moves, search.table, search.frames, -1
    )
    search.done()
    return int(value)


def legal_moves(state: DealState, engine: str | None = None) -> list[Action]:
    """The moves the kernel searches at ``state``, in the engine's order (for checking it
    against :meth:`replay.DealState.legal_actions`).

    >>> from twentynine.schema import Rules
    >>> from twentynine.analysis.testing import first_lead
    >>> len(legal_moves(first_lead(Rules.preset("bhoos"), seed=1)))  # any card may lead
    8
    """
    state = playable(state)
    if state.is_over or state.current_seat is None:
        return []
    search = _Search(state, engine)
    n = search.kernel.legal_moves(search.stack, 0, search.rules, search.moves, 0)
    return [_action(state.to_play, int(search.moves[i])) for i in range(n)]


def can_reach(state: DealState, target: int, engine: str | None = None) -> bool:
    """Whether the caller's side can take at least ``target`` card points against best
    defence: one null-window search, cheaper than :func:`solve`.

    >>> from twentynine.schema import Rules
    >>> from twentynine.analysis.testing import random_ending
    >>> state = random_ending(Rules.preset("bhoos"), seed=4, tricks_left=3)
    >>> value = solve(state).value
    >>> can_reach(state, value), can_reach(state, value + 1)
    (True, False)
    """
    state = playable(state)
    _TABLES.nodes = 0
    if state.is_over or state.current_seat is None:
        return state.points_of(caller_team(state)) >= target
    search = _Search(state, engine)
    reached = search.kernel.probe(
        search.stack, search.rules, search.moves, search.table, search.frames, target
    )
    search.done()
    return bool(reached)
