"""``twentynine solve``: the exact value of a position of a recorded deal, and of each move.

The position is the one before the deal's action K (0-based, the audit's numbering; by
default the first card led). The value is the caller's side's final card points with best
play by both sides, all cards known (see docs/solver.md).
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from typing import Annotated, Any

import typer

from twentynine.analysis import Solution, caller_team, solve
from twentynine.analysis.solver import playable
from twentynine.frames import card_text, hand_text, trump_text
from twentynine.options import MatchOption, at_option
from twentynine.replay import DealState
from twentynine.schema.cards import SEATS, Seat, Suit, Team
from twentynine.schema.log import Action, MatchLog
from twentynine.schema.words import plural
from twentynine.textout import text_table

_RED_SUITS = (Suit.HEARTS.symbol, Suit.DIAMONDS.symbol)


class SolveFormat(StrEnum):
    text = "text"
    json = "json"


def _position(match: MatchLog, deal_number: int, at: int | None) -> tuple[DealState, int]:
    """The state before action ``at`` of the deal (default: the first card played)."""
    deal = match.deals[deal_number - 1]
    actions = deal.actions
    if at is None:
        plays = [i for i, action in enumerate(actions) if action.type == "play"]
        if not plays:
            raise ValueError(f"deal {deal_number} has no card played: give --at")
        at = plays[0]
    if not 0 <= at <= len(actions):
        raise ValueError(
            f"deal {deal_number} has {plural(len(actions), 'action')}: --at must be 0 to "
            f"{len(actions)}, not {at}"
        )
    state = DealState(match.resolved_rules(), deal.dealer, deal.hands, number=deal_number)
    state.run(actions[:at])
    return state, at


def _action_text(action: Action) -> str:
    card = getattr(action, "card", None)
    if card is not None:
        return f"{action.seat.value} plays {card_text(card)}"
    return f"{action.seat.value} asks for the trump"


def _action_json(action: Action, value: int) -> dict[str, Any]:
    out: dict[str, Any] = {"type": str(action.type), "seat": action.seat.value}
    card = getattr(action, "card", None)
    if card is not None:
        out["card"] = card.text
    out["value"] = value
    return out


def _colour(text: str, colour: bool) -> str:
    """Hearts and diamonds in red on a terminal: each suit group of a hand is coloured."""
    if not colour:
        return text
    groups = text.split("  ")
    return "  ".join(
        typer.style(group, fg="red") if group.startswith(_RED_SUITS) else group for group in groups
    )


def render_text(state: DealState, solution: Solution, heading: str, *, colour: bool = False) -> str:
    """The hands, the trick, trump and points, the value and the moves best first."""
    hands = {seat: _colour(hand_text(state.hand(seat)), colour) for seat in SEATS}
    widths = {seat: len(hand_text(state.hand(seat))) for seat in SEATS}
    indent = max(widths[Seat.W] + 3, 26)
    east_at = indent + max(widths[Seat.N], widths[Seat.S], 26) + 3
    west = f"W  {hands[Seat.W]}" + " " * (east_at - 3 - widths[Seat.W])
    team = caller_team(state)
    caller = state.caller_seat
    turn = state.current_seat
    trick = "  ".join(f"{seat.value} {card_text(card)}" for seat, card in state.trick()) or "-"
    early = "; the deal ends once decided" if state.rules.end_when_decided else ""
    lines = [
        heading,
        "",
        " " * indent + f"N  {hands[Seat.N]}",
        f"{west}E  {hands[Seat.E]}",
        " " * indent + f"S  {hands[Seat.S]}",
        "",
        f"trick:   {trick}",
        f"trump:   {trump_text(state.trump_status())}",
        f"caller:  {caller.value if caller else '-'} ({team.value}), {_goal(state)}",
        "points:  " + ", ".join(f"{t.value} {state.points_of(t)}" for t in Team),
        f"to play: {turn.value if turn else '- (the deal is over)'}",
        f"value:   {solution.value} (the card points {team.value} take with best play{early})",
    ]
    if solution.actions:
        rows = [[_action_text(action), str(value)] for action, value in solution.actions]
        lines += ["", text_table(["move", "value"], rows)]
    return "\n".join(lines)


def _goal(state: DealState) -> str:
    """What the caller's side plays for: the target, or a single hand's every trick."""
    if state.single >= 0:
        return f"single hand by {SEATS[state.single].value}: must win every trick"
    return f"target {state.target}"


def solve_command(
    path: Annotated[str, typer.Argument(metavar="PATH", help="A file of match logs; - is stdin.")],
    deal_number: Annotated[
        int | None,
        typer.Option(
            "--deal", min=1, metavar="N", help="The deal, from 1 (needed when there are more)."
        ),
    ] = None,
    match_id: MatchOption = None,
    at: Annotated[
        int | None,
        at_option(
            "Solve the position before this action of the deal (0-based, as the audit numbers "
            "them); default: the first card led."
        ),
    ] = None,
    output: Annotated[SolveFormat, typer.Option("--format", help="text or json.")] = (
        SolveFormat.text
    ),
    from_format: Annotated[
        str | None,
        typer.Option("--from", metavar="FORMAT", help="The input format; detected when not given."),
    ] = None,
) -> None:
    """Solve a position of a recorded deal exactly: the caller's side's card points with
    best play by both sides, all cards known, and the value of each legal move.

    Exit status: 0 solved, 2 the input, the deal or the position cannot be solved.

    \b
    Example: twentynine solve sample_logs/bhoos.json --deal 1 --at 10
    """
    from twentynine.cli import Skipping, _read_inputs, fail
    from twentynine.reports.warehouse.listing import MatchNotFoundError, pick_match

    skipped = Skipping()
    try:
        records = _read_inputs([path], from_format, fast=False)
        chosen = pick_match(match_id, skipped.readable(records))
    except MatchNotFoundError as exc:
        raise skipped.not_found(f"{path}: {exc}") from None
    deals = len(chosen.deals)
    if deal_number is None and deals > 1:
        raise fail(
            f"{path}: match {chosen.match_id} has {plural(deals, 'deal')}: "
            f"say which with --deal N (1 to {deals})"
        )
    deal_number = deal_number or 1
    if deal_number > deals:
        raise fail(f"{path}: match {chosen.match_id} has {plural(deals, 'deal')}")
    try:
        state, index = _position(chosen, deal_number, at)
    except ValueError as exc:
        raise fail(f"{path}: match {chosen.match_id}: {exc}") from None
    try:
        solution = solve(state)
    except ValueError as exc:
        where = f"match {chosen.match_id}, deal {deal_number}, before action {index}"
        raise fail(f"{path}: {where}: {exc}") from None
    state = playable(state)  # the position solved: all eight cards once the doubling is closed
    if output is SolveFormat.json:
        payload = {
            "match": chosen.match_id,
            "deal": deal_number,
            "at": index,
            "to_play": state.current_seat.value if state.current_seat else None,
            "caller_team": caller_team(state).value,
            "points": {team.value: state.points_of(team) for team in Team},
            "value": solution.value,
            "actions": [_action_json(action, value) for action, value in solution.actions],
        }
        typer.echo(json.dumps(payload, indent=2))
    else:
        heading = (
            f"match {chosen.match_id} · deal {deal_number} of {len(chosen.deals)}"
            f" · before action {index}"
        )
        typer.echo(render_text(state, solution, heading, colour=sys.stdout.isatty()))
    skipped.exit()
