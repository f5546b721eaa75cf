"""Hindsight annotations: every card and show judged with all cards known (double dummy).

For each card played, the points it lost against the best card; at each moment a seat
could ask for the trump, the value of asking and of playing on; per deal the par (the
caller's side's points with best play from the first lead, the trump chosen) with the par
of every other trump the caller could have chosen, and the points each side gave away.
Values are a side's final card points with best play by both sides from there on, seen
from the side that decides (the caller's side's value, or what is left to the defenders:
the total minus it).

>>> from twentynine.replay import random_match
>>> from twentynine.schema import Rules
>>> log = random_match(Rules.preset("bhoos"), seed=4)
>>> notes = hindsight_deal("m", log.resolved_rules(), log.deals[0], 1, from_trick=7)
>>> {n.kind for n in notes} <= {"card", "show"}, all(n.loss >= 0 for n in notes)
(True, True)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from twentynine.analysis.annotate import Alternative, Annotation, detail_json
from twentynine.analysis.judge.words import tell
from twentynine.analysis.positions import (
    LADDER_TYPES,
    Position,
    all_hands_known,
    deal_positions,
    full_play_rules,
    replay_from,
)
from twentynine.analysis.reference import searched_actions
from twentynine.analysis.solver import Solution, caller_team, solve, solve_value
from twentynine.replay import DealState
from twentynine.schema.cards import Team
from twentynine.schema.log import Action, Deal, PlayAction, TrumpAction
from twentynine.schema.rules import Rules

HINDSIGHT_KINDS = frozenset({"card", "show", "par"})


def action_text(action: Action) -> str:
    """A play or show as the annotations write it: the card (``JH``) or ``show``.

    >>> from twentynine.schema.cards import Card, Seat
    >>> from twentynine.schema.log import PlayAction
    >>> action_text(PlayAction(seat=Seat.N, card="JH"))
    'JH'
    """
    if action.type == "play":
        return action.card.text
    if action.type == "trump":
        return trump_text(action)
    return action.type


def trump_text(action: TrumpAction) -> str:
    """A trump choice as the annotations write it: ``trump H``, ``seventh card``, ``no trump``.

    >>> from twentynine.schema.cards import Seat, Suit
    >>> trump_text(TrumpAction(seat=Seat.N, suit=Suit.HEARTS))
    'trump H'
    """
    if action.mode == "no_trump":
        return "no trump"
    if action.seventh:
        return "seventh card"
    text = f"trump {action.suit.value}" if action.suit is not None else "trump ?"
    if action.mode == "reverse":
        text = "reverse " + text
    if action.card is not None:
        text += f" ({action.card.text})"
    return text


def side_value(state: DealState, team: Team, caller_points: int) -> int:
    """A caller's-side value seen from ``team``: itself, or the total minus it."""
    if team is caller_team(state):
        return caller_points
    return state.rules.total_points - caller_points


def hindsight_deal(
    match_id: str,
    rules: Rules,
    deal: Deal,
    number: int,
    *,
    kinds: Collection[str] = HINDSIGHT_KINDS,
    seed: int = 0,
    from_trick: int = 1,
) -> list[Annotation]:
    """The exact annotations of one deal (none when :func:`unjudged` says why not).

    ``from_trick`` (1-based) judges only the cards and shows of that trick on, and leaves
    the par out unless it is 1 (the endings are cheap to solve: tests use that).
    """
    if not all_hands_known(deal):
        return []
    rules = full_play_rules(rules)
    notes: list[Annotation] = []
    losses: dict[Team, float] = {Team.NS: 0.0, Team.EW: 0.0}
    positions = list(deal_positions(rules, deal, number))
    if _trump_unrecorded(positions):
        return []
    solver = _Solver(positions)
    lead: Position | None = None
    for pos in positions:
        state, action = pos.state, pos.action
        if action.type not in ("play", "show") or state.phase_name != "play":
            continue
        if state.is_over or state.caller_seat is None or state.current_seat is not action.seat:
            continue
        if lead is None:
            lead = pos
        if len(state.seat_view().tricks) + 1 < from_trick:
            continue
        solution = solver.at(pos.at)
        if not solution.actions:
            continue
        show = _show_note(match_id, number, pos, solution, seed)
        if show is not None:
            losses[action.seat.team] += show.loss
            if "show" in kinds:
                notes.append(show)
        if action.type == "play":
            card = _card_note(match_id, number, pos, solution, seed)
            if card is not None:
                losses[action.seat.team] += card.loss
                if "card" in kinds:
                    notes.append(card)
    cut = len(positions) < len(deal.actions)  # stopped at an unreal play: no "took"
    if "par" in kinds and from_trick <= 1 and lead is not None and not cut:
        par = _par_note(match_id, number, solver, lead, losses, seed)
        if par is not None:
            notes.append(par)
    return tell(notes)


def unjudged(rules: Rules, deal: Deal, number: int = 1) -> str | None:
    """Why the exact annotations leave ``deal`` out, in words (None when they judge it):
    the solver needs every card, and the trump suit once the play begins (a log may leave it
    out: `"suit": null`, a recorder who did not see it).

    >>> from twentynine.replay import random_match
    >>> from twentynine.schema import Rules
    >>> log = random_match(Rules.preset("bhoos"), seed=4)
    >>> unjudged(log.resolved_rules(), log.deals[0]) is None
    True
    """
    if not all_hands_known(deal):
        return "not every card is recorded"
    if _trump_unrecorded(deal_positions(full_play_rules(rules), deal, number)):
        return "the trump suit is not recorded"
    return None


def _trump_unrecorded(positions: Iterable[Position]) -> bool:
    """Whether the trump suit is unknown at the first lead (the solver cannot play on)."""
    for pos in positions:
        if pos.action.type in ("play", "show") and pos.state.phase_name == "play":
            return pos.state.trump < 0
    return False


class _Solver:
    """Solutions of a deal's positions, each solved once; a forced move (one legal card)
    takes its value from the position after it rather than from a search of its own."""

    def __init__(self, positions: Sequence[Position]) -> None:
        self.positions = positions
        self.solved: dict[int, Solution] = {}

    def at(self, at: int) -> Solution:
        """The solution of the position before action ``at``."""
        if at in self.solved:
            return self.solved[at]
        state = self.positions[at].state
        moves = searched_actions(state)
        if len(moves) == 1:
            solution = Solution(self.value_after(at), ((moves[0], self.value_after(at)),))
        else:
            solution = solve(state)
        self.solved[at] = solution
        return solution

    def value_after(self, at: int) -> int:
        """The caller's side's value once action ``at`` is made."""
        following = at + 1
        if following < len(self.positions):
            after = self.positions[following].state
        else:  # the record stops here: finished, or cut, or ended once decided
            after = self.positions[at].state.copy()
            after.apply(self.positions[at].action)
        if after.is_over or after.current_seat is None:
            return after.points_of(caller_team(after))
        if following < len(self.positions) and searched_actions(after):
            return self.at(following).value
        return solve(after).value


def _values(pos: Position, solution: Solution) -> list[tuple[Action, int]]:
    """The legal moves with their values seen from the side to move, best first."""
    team = pos.action.seat.team
    return [(a, side_value(pos.state, team, v)) for a, v in solution.actions]


def turned(pos: Position, best: int, chosen: int) -> bool:
    """Whether the move turns the double-dummy result against the side that made it (the
    call could be made, or beaten, before it and cannot after): a fact of hindsight, kept in
    the ``detail`` (``turned``), never a label: a label rests on what the seat could know."""
    state = pos.state
    view = state.seat_view()
    if view.single is not None or view.target is None:
        return False
    team = pos.action.seat.team
    caller = caller_team(state)
    total = state.rules.total_points
    target = view.target

    def made(value: int) -> bool:
        caller_points = value if team is caller else total - value
        return caller_points >= target

    goal_best = made(best) if team is caller else not made(best)
    goal_chosen = made(chosen) if team is caller else not made(chosen)
    return goal_best and not goal_chosen


def _exact(
    where: tuple[str, int, int | None, str, str],
    choice: tuple[str, str, float, float],
    detail: str,
    seed: int,
) -> Annotation:
    """An exact (hindsight) annotation in card points: ``where`` is (match id, deal, action,
    seat, kind), ``choice`` (chosen, best, value chosen, value best). No label, and the
    explanation is written by :func:`analysis.judge.words.tell`."""
    match_id, deal, action, seat, kind = where
    chosen, best, value_chosen, value_best = choice
    return Annotation(
        match_id=match_id,
        deal=deal,
        action=action,
        seat=seat,
        kind=kind,
        method="exact",
        chosen=chosen,
        best=best,
        value_chosen=value_chosen,
        value_best=value_best,
        loss=value_best - value_chosen,
        unit="card_points",
        samples=None,
        ci_low=None,
        ci_high=None,
        label=None,
        explanation="",
        detail=detail,
        seed=seed,
    )


def _card_note(
    match_id: str, number: int, pos: Position, solution: Solution, seed: int
) -> Annotation | None:
    action = pos.action
    cards = [(a, v) for a, v in _values(pos, solution) if a.type == "play"]
    if not isinstance(action, PlayAction):
        return None
    chosen = next(
        (v for a, v in cards if isinstance(a, PlayAction) and a.card is action.card), None
    )
    if chosen is None or not cards:
        return None
    best_action, best = max(cards, key=lambda pair: pair[1])
    played = action_text(action)
    best_text = played if chosen == best else action_text(best_action)
    alternatives = [Alternative(action_text(a), float(v)) for a, v in cards]
    return _exact(
        (match_id, number, pos.at, action.seat.value, "card"),
        (played, best_text, float(chosen), float(best)),
        detail_json(alternatives, turned=turned(pos, best, chosen)),
        seed,
    )


def _show_note(
    match_id: str, number: int, pos: Position, solution: Solution, seed: int
) -> Annotation | None:
    """The show decision, when the seat to move could ask for (or show) the trump."""
    values = _values(pos, solution)
    shows = [v for a, v in values if a.type == "show"]
    plays = [v for a, v in values if a.type == "play"]
    if not shows or not plays:
        return None
    show_value, play_value = shows[0], max(plays)
    asked = pos.action.type == "show"
    chosen, other = ("show", "no show") if asked else ("no show", "show")
    value_chosen = show_value if asked else play_value
    value_other = play_value if asked else show_value
    best_value = max(value_chosen, value_other)
    best = chosen if value_chosen >= value_other else other
    alternatives = sorted(
        [Alternative("show", float(show_value)), Alternative("no show", float(play_value))],
        key=lambda a: -a.value,
    )
    return _exact(
        (match_id, number, pos.at, pos.action.seat.value, "show"),
        (chosen, best, float(value_chosen), float(best_value)),
        detail_json(
            alternatives,
            turned=turned(pos, best_value, value_chosen),
            caller=caller.value if (caller := pos.state.caller_seat) is not None else None,
        ),
        seed,
    )


def trump_alternatives(
    positions: Sequence[Position], lead: Position
) -> list[tuple[Action, DealState]]:
    """Every trump choice the caller had, each with the first-lead position it leads to.

    The actions between the trump choice and the first lead (doubling, single hand) are
    replayed where still legal; a choice that throws the deal in is left out.
    """
    at_trump = next((p for p in positions if p.action.type == "trump"), None)
    if at_trump is None:
        return []
    between = [p.action for p in positions[at_trump.at + 1 : lead.at]]
    out: list[tuple[Action, DealState]] = []
    for choice in at_trump.state.legal_actions():
        if choice.type != "trump":
            continue
        state = at_trump.state.copy()
        state.apply(choice)
        for action in between:
            if state.check(action) is None:
                state.apply(action)
            if action.type not in LADDER_TYPES:
                state.end_doubling()
        state.end_doubling()
        if state.is_over or state.phase_name != "play":
            continue
        out.append((choice, state))
    return out


def _par_note(
    match_id: str,
    number: int,
    solver: _Solver,
    lead: Position,
    losses: dict[Team, float],
    seed: int,
) -> Annotation | None:
    state = lead.state
    caller = state.caller_seat
    if caller is None:
        return None
    positions = solver.positions
    par = solver.at(lead.at).value
    chosen_trump = next((p.action for p in positions if p.action.type == "trump"), None)
    chosen_text = action_text(chosen_trump) if chosen_trump is not None else "as played"
    alternatives: list[Alternative] = [Alternative(chosen_text, float(par))]
    if state.seat_view().single is None:
        for choice, alt_state in trump_alternatives(positions, lead):
            text = action_text(choice)
            if text != chosen_text:
                # The value alone: no card of another trump is judged (half a full solve).
                alternatives.append(Alternative(text, float(solve_value(alt_state))))
    alternatives.sort(key=lambda a: -a.value)
    best = alternatives[0]
    if best.value == par:
        best = Alternative(chosen_text, float(par))
    final = _final_points(positions, state)
    gave = {t.value: losses[t] for t in (Team.NS, Team.EW)}
    return _exact(
        (match_id, number, None, caller.value, "par"),
        (chosen_text, best.choice, float(par), best.value),
        detail_json(alternatives, par=par, actual=final, gave_away=gave),
        seed,
    )


def _final_points(positions: Sequence[Position], lead: DealState) -> int:
    """The caller's side's card points at the end of the record."""
    last = positions[-1]
    state = last.state.copy()
    for _ in replay_from(state, [last.action]):
        pass
    return state.points_of(caller_team(lead))
