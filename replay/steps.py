"""A deal step by step, for the viewer: what the table looks like after each action.

With a ``seat`` given, each step shows only what that seat could know at that moment: its
own cards, the cards played, a shown Pair, and the trump once that seat knows it.

>>> from twentynine.replay.simulate import random_match
>>> from twentynine.schema import Rules, Seat
>>> log = random_match(Rules.preset("pagat"), seed=1)
>>> steps = deal_steps(log, 1, seat=Seat.N)
>>> steps[0].action is None, steps[1].description.split()[1] in ("bids", "passes")
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final, NamedTuple

from twentynine.replay._tables import SUIT_NAME, SUIT_NUM, TEAM_OF, TEAMS
from twentynine.replay.audit import audit_match
from twentynine.replay.deal import DealState
from twentynine.replay.findings import Finding
from twentynine.schema.cards import ALL_CARDS, SEATS, Card, Seat, Team
from twentynine.schema.log import (
    Action,
    BidAction,
    Deal,
    DittoAction,
    DoubleAction,
    MatchLog,
    PairAction,
    PassAction,
    PlayAction,
    RedealAction,
    RedoubleAction,
    SetAction,
    ShowAction,
    SingleHandAction,
    TrumpAction,
)
from twentynine.schema.rules import Rules
from twentynine.schema.words import plural

_LADDER: Final = (DoubleAction, RedoubleAction, SetAction)


class PastTrick(NamedTuple):
    """A completed trick: its cards from the leader, who won it and its card points."""

    cards: tuple[tuple[Seat, Card], ...]
    winner: Seat
    points: int


_LADDER_WORDS: Final = (None, "doubled", "redoubled", "set")


@dataclass(frozen=True, slots=True)
class StepView:
    """The deal at one point: before any action (``action_index`` None) or after one.

    ``trick`` is the trick on the table: the cards of the trick being played, or once its
    fourth card is down the whole trick (``trick_winner`` set) until the next card is led.
    ``auction`` is what each seat said so far (``"15"``, ``"pass"``, ``"ditto 17"``), in order;
    ``doubling`` is ``"doubled"``, ``"redoubled"`` or ``"set"`` and ``stake`` the game points
    the call is worth now.
    """

    step: int
    action_index: int | None
    action: Action | None
    description: str
    hands: dict[Seat, tuple[Card | None, ...]]
    trick: tuple[tuple[Seat, Card], ...]
    bid: tuple[Seat, int] | None
    trump: str
    points: dict[Team, int]
    needs: dict[Team, int] | None
    current_seat: Seat | None
    findings: tuple[Finding, ...]
    auction: tuple[tuple[Seat, str], ...] = ()
    doubling: str | None = None
    stake: int = 0
    trick_winner: Seat | None = None
    tricks: tuple[PastTrick, ...] = ()
    single_hand: Seat | None = None
    order: tuple[Seat, ...] = SEATS
    unshown: bool = False
    """The deal may still be thrown in, the trump never shown (:func:`may_be_thrown_in`)."""


def deal_steps(
    match: MatchLog,
    deal_number: int,
    seat: Seat | None = None,
    rules: Rules | None = None,
) -> list[StepView]:
    """The views of deal ``deal_number`` (1-based): the initial position, then one per action.

    Findings are those of the whole match's audit, shown at their action (findings about the
    deal as a whole at the last step). Raises ``IndexError`` for a deal the match lacks.
    """
    if not 1 <= deal_number <= len(match.deals):
        raise IndexError(f"the match has {plural(len(match.deals), 'deal')}, not {deal_number}")
    rules = rules if rules is not None else match.resolved_rules()
    audited = audit_match(match, rules)
    mine = [f for f in audited.findings if f.deal == deal_number]
    deal = match.deals[deal_number - 1]
    state = DealState(rules, deal.dealer, deal.hands, number=deal_number)
    said: list[tuple[Seat, str]] = []
    steps = [_view(state, 0, None, None, "the deal begins", seat, mine, False, said)]
    last = len(deal.actions) - 1
    for i, action in enumerate(deal.actions):
        before = state.copy()
        state.apply(action)
        text = describe(before, state, action, seat)
        if isinstance(action, BidAction | PassAction | DittoAction):
            said.append((action.seat, _auction_word(action, before)))
        hands = step_hands(before, state, action, seat)
        if _doubling_over(deal, i):
            state.end_doubling()
        steps.append(_view(state, i + 1, i, action, text, seat, mine, i == last, said, hands))
    if not deal.actions:
        steps[0] = _view(state, 0, None, None, "the deal begins", seat, mine, True, said)
    return steps


def _doubling_over(deal: Deal, index: int) -> bool:
    """True when nobody doubles (further) after action ``index``: the log's next action is not
    a Double, Redouble or Set. The second four are then dealt before that next action, so the
    step after ``index`` is where the single-hand decision and the opening lead are made."""
    return index < len(deal.actions) - 1 and not isinstance(deal.actions[index + 1], _LADDER)


def walk_deal(
    rules: Rules, deal: Deal, number: int = 1
) -> Iterator[tuple[int | None, Action | None, DealState | None, DealState]]:
    """The deal as a viewer steps through it: ``(None, None, None, state)`` at the start, then
    ``(index, action, before, state)`` after each action, ``before`` a copy of the state
    before it. ``state`` is one object, changed as the walk goes on: read it before the next.

    Where the log's next action is not a Double, Redouble or Set, the doubling is closed (the
    second four dealt) at once, as :func:`deal_steps` does.

    >>> from twentynine.replay.simulate import random_match
    >>> from twentynine.schema import Rules
    >>> log = random_match(Rules.preset("pagat"), seed=1)
    >>> walked = [index for index, *_ in walk_deal(log.resolved_rules(), log.deals[0])]
    >>> walked[:3], len(walked) == len(log.deals[0].actions) + 1
    ([None, 0, 1], True)
    """
    state = DealState(rules, deal.dealer, deal.hands, number=number)
    yield None, None, None, state
    for i, action in enumerate(deal.actions):
        before = state.copy()
        state.apply(action)
        if _doubling_over(deal, i):
            state.end_doubling()
        yield i, action, before, state


def _auction_word(action: BidAction | PassAction | DittoAction, before: DealState) -> str:
    if isinstance(action, BidAction):
        return str(action.value)
    if isinstance(action, PassAction):
        return "pass"
    return f"ditto {_standing_value(before)}"


def _standing_value(state: DealState) -> int:
    """The standing bid's value, 0 before any bid (what a Ditto equals)."""
    standing = state.standing_bid
    return standing[1] if standing is not None else 0


def _hands(state: DealState, seat: Seat | None) -> dict[Seat, tuple[Card | None, ...]]:
    return {s: tuple(state.hand(s, seat)) for s in SEATS}


def step_hands(
    before: DealState | None, after: DealState, action: Action | None, seat: Seat | None = None
) -> dict[Seat, tuple[Card | None, ...]]:
    """The hands the step of ``action`` shows (as ``seat`` could know them, or all); the
    deal's first step (no action, nothing before it) shows the hands dealt.

    The trump choice and the Double, Redouble and Set are made on the first four cards: the
    second four are dealt once the doubling is over (docs/rules.md), though the engine deals them
    with the action itself where nothing can follow it (rules without a Double, a Redouble
    that nobody can answer). Their steps show the hands from before them; any other step
    shows the hands after its action. The replay and the HTML viewer both show these.

    >>> from twentynine.replay.script import parse_actions, run_script
    >>> from twentynine.schema import Rules
    >>> before = run_script(Rules.preset("pagat"), "N", None, "E:15 S:p W:p N:p")
    >>> after, choice = before.copy(), parse_actions("E:trump=S")[0]
    >>> _ = after.apply(choice)
    >>> len(after.hand(Seat.E)), len(step_hands(before, after, choice)[Seat.E])
    (8, 4)
    """
    if before is not None and isinstance(action, (TrumpAction, *_LADDER)):
        return _hands(before, seat)
    return _hands(after, seat)


def _view(
    state: DealState,
    step: int,
    index: int | None,
    action: Action | None,
    text: str,
    seat: Seat | None,
    findings: list[Finding],
    last: bool,
    said: list[tuple[Seat, str]],
    hands: dict[Seat, tuple[Card | None, ...]] | None = None,
) -> StepView:
    tricks = tuple(
        PastTrick(
            tuple(zip([SEATS[s] for s in seats], [ALL_CARDS[c] for c in cards], strict=True)),
            SEATS[winner],
            pts,
        )
        for _, seats, cards, winner, pts in state.tricks
    )
    trick = tuple(state.trick())
    winner: Seat | None = None
    if not trick and tricks:  # the whole trick stays on the table until the next lead
        trick, winner = tricks[-1].cards, tricks[-1].winner
    points = {TEAMS[0]: state.points[0], TEAMS[1]: state.points[1]}
    needs = side_needs(state)
    here = tuple(f for f in findings if f.action == index or (last and f.action is None))
    return StepView(
        step=step,
        action_index=index,
        action=action,
        description=text,
        hands=hands if hands is not None else _hands(state, seat),
        trick=trick,
        bid=state.standing_bid,
        trump=state.trump_status(seat),
        points=points,
        needs=needs,
        current_seat=state.current_seat,
        findings=here,
        auction=tuple(said),
        doubling=_LADDER_WORDS[state.doubled],
        stake=state.stake,
        trick_winner=winner,
        tricks=tricks,
        single_hand=SEATS[state.single] if state.single >= 0 else None,
        order=state.order,
        unshown=may_be_thrown_in(state),
    )


def may_be_thrown_in(state: DealState) -> bool:
    """Whether reaching (or stopping) the call does not yet settle the deal: the trump not
    shown under rules that throw in a deal that never shows it (``never_shown``).

    >>> from twentynine.replay.script import run_script
    >>> from twentynine.schema import Rules
    >>> may_be_thrown_in(run_script(Rules.preset("pagat"), "N", None, "E:16 S:p W:p N:p"))
    True
    """
    return (
        state.caller >= 0
        and state.single < 0
        and not state.shown
        and state.rules.never_shown == "throw_in"
    )


def side_needs(state: DealState) -> dict[Team, int] | None:
    """Card points each side still needs once there is a call: the caller's side to reach the
    target, the other side to stop it (None before the call). At or below 0: done.

    >>> from twentynine.replay.script import run_script
    >>> from twentynine.schema import Rules
    >>> state = run_script(Rules.preset("pagat"), "N", None, "E:16 S:p W:p N:p")
    >>> side_needs(state)
    {<Team.EW: 'EW'>: 16, <Team.NS: 'NS'>: 13}
    """
    if state.caller < 0:
        return None
    caller = TEAMS[TEAM_OF[state.caller]]
    taken = {TEAMS[0]: state.points[0], TEAMS[1]: state.points[1]}
    return {
        caller: state.target - taken[caller],
        caller.other: state.rules.total_points - state.target + 1 - taken[caller.other],
    }


def describe(
    before: DealState, after: DealState, action: Action, viewer: Seat | None = None
) -> str:
    """One line for an action: ``"W bids 17"``, ``"S plays 9D"``, ``"E asks for the trump: ..."``.

    ``before`` and ``after`` are the states around the action; ``viewer`` hides what that
    seat could not know (the trump chosen by another seat).
    """
    who = action.seat.value
    if isinstance(action, BidAction):
        return f"{who} bids {action.value}"
    if isinstance(action, PassAction):
        return f"{who} passes"
    if isinstance(action, DittoAction):
        return f"{who} says ditto ({_standing_value(before)})"
    if isinstance(action, TrumpAction):
        return _describe_trump(action, after, viewer)
    if isinstance(action, DoubleAction):
        return f"{who} doubles"
    if isinstance(action, RedoubleAction):
        return f"{who} redoubles"
    if isinstance(action, SetAction):
        return f"{who} says set"
    if isinstance(action, SingleHandAction):
        return f"{who} declares single hand"
    if isinstance(action, RedealAction):
        return f"{who} asks for a redeal"
    if isinstance(action, ShowAction):
        shown = after.trump_status(None).removeprefix("shown: ")
        if after.caller >= 0 and SEATS[after.caller] is action.seat:
            return f"{who} shows the trump: {_suit_words(shown)}"
        return f"{who} asks for the trump: {_suit_words(shown)} shown"
    if isinstance(action, PlayAction):
        text = f"{who} plays {action.card.text}"
        if not before.shown and after.shown:
            shown = after.trump_status(None).removeprefix("shown: ")
            text += f" (the trump is shown: {_suit_words(shown)})"
        if len(after.tricks) > len(before.tricks):
            winner, pts = after.tricks[-1][3], after.tricks[-1][4]
            text += (
                f"; {SEATS[winner].value} wins trick {len(after.tricks)} ({plural(pts, 'point')})"
            )
        return text
    if isinstance(action, PairAction):
        return f"{who} shows the Pair: target {after.target}"
    return f"{who} {action.type}"  # pragma: no cover - every action type is handled above


def _describe_trump(action: TrumpAction, after: DealState, viewer: Seat | None) -> str:
    who = action.seat.value
    if action.seventh:
        return f"{who} calls the seventh card"
    if action.mode == "no_trump":
        return f"{who} chooses no trump"
    secret = viewer is not None and viewer is not action.seat
    if action.mode == "reverse":
        return f"{who} chooses reverse"
    suit = after.trump_suit
    if secret or suit is None:
        return f"{who} chooses the trump"
    return f"{who} chooses the trump: {_suit_words(suit)}"


def _suit_words(status: str) -> str:
    """``"H"`` as ``"hearts"``; anything else (``"no trump"``, ``"unknown"``) as it is."""
    for suit, number in SUIT_NUM.items():
        if status == suit.value:
            return SUIT_NAME[number]
    return status
