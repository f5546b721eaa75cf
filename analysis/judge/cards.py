"""Card labels that are fair: a card's hindsight loss confirmed, or not, on what its seat knew.

With all 32 cards known (:mod:`analysis.hindsight`) a card can lose points for a reason its
player could not see: a defender's opening lead that runs into the hidden trump. Such a loss
stays, worded "with all cards known", and never earns a label. A card that lost points in
hindsight is judged again here on layouts of what its seat knew (:mod:`analysis.sampling`:
its own cards, every card played, the voids shown, the trump once it knew it, a sampled
trump before), every legal card solved double dummy on the same layouts: its value is the
chance its side reaches its goal (the caller's side makes the call, the defenders beat it).
The label, if any, is this judgement's: inaccuracy, mistake or blunder when the chance lost
clears 0.05, 0.12, 0.25 (:mod:`analysis.labels`).

>>> from twentynine.replay import random_match
>>> from twentynine.schema import Rules
>>> log = random_match(Rules.preset("bhoos"), seed=4)
>>> fair_cards("m", log.resolved_rules(), log.deals[0], 1, [], samples=4)
[]
"""

from __future__ import annotations

from collections.abc import Sequence

from twentynine.analysis.annotate import Annotation
from twentynine.analysis.judging import DealContext, Outcome, judge
from twentynine.analysis.models.dealing import DealingModel
from twentynine.analysis.models.others import AuctionModel
from twentynine.analysis.positions import Position, deal_positions, full_play_rules
from twentynine.analysis.solver import caller_team, solve
from twentynine.schema.log import Deal, PlayAction
from twentynine.schema.rules import Rules


def fair_cards(
    match_id: str,
    rules: Rules,
    deal: Deal,
    number: int,
    hindsight: Sequence[Annotation],
    *,
    samples: int = 32,
    seed: int = 0,
    auction_model: AuctionModel | None = None,
    dealing: DealingModel | None = None,
) -> list[Annotation]:
    """A sampled ``card`` annotation for each card whose exact annotation in ``hindsight``
    lost points (the others have nothing to confirm), judged on what its seat knew (the
    layouts drawn by ``auction_model`` and ``dealing``, None: the shipped ones)."""
    suspects = sorted(
        n.action
        for n in hindsight
        if n.kind == "card" and n.method == "exact" and n.loss > 0 and n.action is not None
    )
    if not suspects:
        return []
    rules = full_play_rules(rules)
    positions = list(deal_positions(rules, deal, number))
    context = DealContext(
        match_id, rules, deal, number, samples, seed, auction_model=auction_model, dealing=dealing
    )
    hands = deal.hands or {}
    notes = []
    for at in suspects:
        pos = positions[at]
        if None in hands.get(pos.action.seat, [None]):
            continue
        note = judge_card(context, pos)
        if note is not None:
            notes.append(note)
    return notes


def judge_card(context: DealContext, pos: Position) -> Annotation | None:
    """The card played at ``pos`` against every legal card, on layouts of its seat's view
    (None when the position is not a card of a contract, or no layout could be found)."""
    action = pos.action
    view = pos.state.seat_view()
    if not isinstance(action, PlayAction) or view.single is not None or view.target is None:
        return None
    seat = action.seat
    caller = pos.state.caller_seat
    if caller is None:
        return None
    mine = seat.team is caller.team

    def draw(k: int) -> Outcome | None:
        layout = context.layout(pos.at, seat, k)
        if layout is None:
            return None
        state = layout.state
        target = state.seat_view().target or 0
        total = state.rules.total_points
        ours = seat.team is caller_team(state)
        outcome: Outcome = {}
        for move, value in solve(state).actions:
            if isinstance(move, PlayAction):
                made = value >= target
                outcome[move.card.text] = (
                    1.0 if made == ours else 0.0,
                    float(value if ours else total - value),
                )
        return outcome

    verdict = judge(draw, action.card.text, context.samples)
    if verdict is None:
        return None
    return context.note(
        pos,
        "card",
        "make_probability",
        verdict,
        goal="make" if mine else "beat",
    )
