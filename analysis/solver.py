"""The exact double-dummy solver: best play by both sides from any position of the play.

The value of a position is the caller's side's final card points (points already won
included, the last-trick point where the rules have it) when both sides play their best,
all cards known; where the rules end a deal once it is decided, the deal ends there, as the
engine ends it. The searched moves are exactly the engine's legal plays and shows
(:func:`analysis.reference.searched_actions`); declarations (the Pair) move the target,
never card points, and are left out of the search (the early end still allows for a Pair
that may come, as :meth:`replay.DealState.result_fixed` does).

The search runs in :mod:`analysis._ckernel`, the kernel in C that setup.py builds (the
default), or in :mod:`analysis._kernel`, the pure-Python path: ``engine="python"`` or
``TWENTYNINE_SOLVER=python`` in the environment, and wherever the install built no kernel.

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

import functools
import hashlib
import os
import sys
import threading
from pathlib import Path
from typing import Any, Literal, NamedTuple, Protocol

from twentynine.analysis import _kernel as k
from twentynine.replay import DealState
from twentynine.replay._engine import COMPILED, PURE_PYTHON, UNVERIFIED, stale
from twentynine.replay._tables import NO_SUIT, TEAM_NUM
from twentynine.schema.cards import ALL_CARDS, SEATS, Direction, Team
from twentynine.schema.log import Action, PlayAction, ShowAction
from twentynine.schema.rules import Rules

Engine = Literal["compiled", "python"]
ENGINES: tuple[Engine, ...] = ("compiled", "python")
ENGINE_VARIABLE = "TWENTYNINE_SOLVER"
"""The environment variable that picks the solver's engine when a call names none."""
PURE_NOTE = (
    "twentynine: the solver's kernel is not compiled (the install found no C compiler, or"
    " TWENTYNINE_PURE_PYTHON=1): solving in pure Python, 150 to 200 times slower; install"
    " again with a C compiler for the compiled kernel"
)
"""What the first solve of a process says on stderr when the compiled kernel is missing."""

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
    name = engine if engine is not None else os.environ.get(ENGINE_VARIABLE, "compiled")
    for known in ENGINES:
        if name == known:
            return known
    raise ValueError(f"unknown solver engine {name!r} (known: {', '.join(ENGINES)})")


class _Kernel(Protocol):
    """A search kernel as :func:`solve` and the rest call it: the compiled one
    (:mod:`analysis._ckernel`, built by setup.py) or :class:`_PurePython`."""

    def table_size(self) -> int: ...

    def generations(self) -> int: ...

    def legal_moves(self, row: list[int], rules: list[int]) -> list[int]: ...

    def solve_root(
        self, row: list[int], rules: list[int], table: Any
    ) -> tuple[list[int], list[int], int]: ...

    def exact_value(self, row: list[int], rules: list[int], table: Any) -> tuple[int, int]: ...

    def probe(
        self, row: list[int], rules: list[int], table: Any, target: int
    ) -> tuple[bool, int]: ...


class _PurePython:
    """:mod:`analysis._kernel` behind the compiled kernel's calls: the same answers, slower.
    Its table is a list of ints (:func:`table_size` of them), the compiled kernel's a
    bytearray."""

    @staticmethod
    def table_size() -> int:
        return k.new_table_size()

    @staticmethod
    def generations() -> int:
        return k.GENERATIONS

    @staticmethod
    def _buffers(row: list[int]) -> tuple[list[int], list[int], list[int]]:
        stack = k.new_buffer(k.W * k.MAX_DEPTH)
        stack[: k.W] = row
        return stack, k.new_buffer(k.MAX_MOVES * k.MAX_DEPTH), k.new_buffer(k.new_frames_size())

    def legal_moves(self, row: list[int], rules: list[int]) -> list[int]:
        stack, moves, _ = self._buffers(row)
        return moves[: k.legal_moves(stack, 0, rules, moves, 0)]

    def solve_root(
        self, row: list[int], rules: list[int], table: Any
    ) -> tuple[list[int], list[int], int]:
        stack, moves, frames = self._buffers(row)
        values = k.new_buffer(k.MAX_MOVES)
        n = k.solve_root(stack, rules, moves, table, frames, values)
        return moves[:n], values[:n], frames[k.NODES]

    def exact_value(self, row: list[int], rules: list[int], table: Any) -> tuple[int, int]:
        stack, moves, frames = self._buffers(row)
        value = k.exact_value(stack, 0, rules, moves, table, frames, -1)
        return value, frames[k.NODES]

    def probe(self, row: list[int], rules: list[int], table: Any, target: int) -> tuple[bool, int]:
        stack, moves, frames = self._buffers(row)
        return bool(k.probe(stack, rules, moves, table, frames, target)), frames[k.NODES]


_PURE = _PurePython()


def compiled_kernel() -> _Kernel | None:
    """The compiled kernel setup.py built, or None where the install left it out.

    >>> compiled_kernel() is None or compiled_kernel().table_size() > 0
    True
    """
    try:
        from twentynine.analysis import _ckernel
    except ImportError:
        return None
    return _ckernel


def solver_build() -> str:
    """Which kernel the solver runs unless told otherwise, in the words of
    :func:`replay.engine_build`: ``"compiled"`` (the C kernel setup.py built from
    ``analysis/_ckernel.c``), ``"pure Python"`` (the install built none), or ``"compiled
    (stale: ...)"`` when the source changed after the build.

    >>> solver_build().split(" (")[0] in ("compiled", "pure Python")
    True
    """
    try:
        from twentynine.analysis import _ckernel
    except ImportError:
        return PURE_PYTHON
    return kernel_build_of(_ckernel.source_sha256(), Path(str(_ckernel.__file__)))


def kernel_build_of(built: str, extension: Path) -> str:
    """What :func:`solver_build` says of a kernel built from a source of SHA-256 ``built``
    (empty: not recorded), imported from ``extension``: stale when ``_ckernel.c`` beside it
    no longer has that hash; compiled when it matches, or the install has no source."""
    if not built:
        return UNVERIFIED
    source = extension.with_name("_ckernel.c")
    if source.is_file() and hashlib.sha256(source.read_bytes()).hexdigest() != built:
        return stale("analysis/_ckernel.c")
    return COMPILED


def _backend(engine: str | None) -> tuple[Engine, _Kernel]:
    """The engine that runs and its kernel: the compiled one unless ``engine`` names
    python, or it is missing (then the first such call of the process says so on stderr)."""
    name = _engine_name(engine)
    if name == "compiled":
        kernel = compiled_kernel()
        if kernel is not None:
            return name, kernel
        _note_pure()
    return "python", _PURE


@functools.cache
def _note_pure() -> None:
    print(PURE_NOTE, file=sys.stderr, flush=True)


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

    @staticmethod
    def _new(engine: str, kernel: _Kernel) -> Any:
        size = kernel.table_size()
        return k.new_buffer(size) if engine == "python" else bytearray(size)

    def take(self, engine: str, kernel: _Kernel, deal: tuple[int, ...]) -> tuple[Any, int]:
        if engine not in self.tables:
            self.tables[engine] = self._new(engine, kernel)
        generation = self.generations.get(deal)
        if generation is None:
            limit = kernel.generations()
            if self.last + 1 >= limit or len(self.generations) >= self._KEPT_DEALS:
                self.generations.clear()
                if self.last + 1 >= limit:
                    self.tables = {engine: self._new(engine, kernel)}
                    self.last = 0
            self.last += 1
            generation = self.generations[deal] = self.last
        return self.tables[engine], generation

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
    """One search's inputs: the position's row, the rules' row with the deal's generation,
    the kernel and its table."""

    def __init__(self, state: DealState, engine: str | None) -> None:
        name, self.kernel = _backend(engine)
        self.row = position_row(state)
        self.rules = rules_row(state.rules)
        fixed = [self.row[i] for i in _FIXED_IN_A_DEAL]
        deal = (*state.known, *fixed, *self.rules)
        self.table, generation = _TABLES.take(name, self.kernel, deal)
        self.rules[k.R_GENERATION] = generation


@functools.cache
def _action(seat: int, move: int) -> Action:
    # Built as the engine builds its legal actions, so that they compare equal; once for
    # each seat and move (frozen models, the same one each time: every solve of a play-out
    # layout asked for several).
    if move == k.SHOW:
        return ShowAction.model_construct(seat=SEATS[seat], type="show")
    return PlayAction.model_construct(seat=SEATS[seat], card=ALL_CARDS[move], type="play")


def solve(state: DealState, engine: str | None = None) -> Solution:
    """Solve ``state``: the caller's side's final card points and each legal move's value.

    ``engine`` is ``"compiled"`` or ``"python"``; None reads ``TWENTYNINE_SOLVER`` (default
    compiled). Raises ValueError for a position with unknown cards.
    """
    state = playable(state)
    _TABLES.nodes = 0
    team = caller_team(state)
    if state.is_over or state.current_seat is None:
        return Solution(state.points_of(team), ())
    search = _Search(state, engine)
    moves, values, _TABLES.nodes = search.kernel.solve_root(search.row, search.rules, search.table)
    seat = state.to_play
    rated = [(_action(seat, move), value) for move, value in zip(moves, values, strict=True)]
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
    value, _TABLES.nodes = search.kernel.exact_value(search.row, search.rules, search.table)
    return value


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
    _, kernel = _backend(engine)
    moves = kernel.legal_moves(position_row(state), rules_row(state.rules))
    return [_action(state.to_play, move) for move in moves]


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
    reached, _TABLES.nodes = search.kernel.probe(search.row, search.rules, search.table, target)
    return reached
