"""Card labels that are fair: a card's hindsight loss confirmed, or not, on what its seat knew.

With all 32 cards known (:mod:`analysis.hindsight`) a card can lose points for a reason its
player could not see: a defender's opening lead that runs into the hidden trump. Such a loss
stays, worded "with all cards known", and never earns a label. A card that lost points in
hindsight is judged again here on layouts of what its seat knew (:mod:`analysis.sampling`:
its own cards, every card played, the voids shown, the trump once it knew it, a sampled
trump before), every legal card solved double dummy on the same layouts: its value is the
chance its side reaches its goal (the caller's side makes the call, the defenders beat it).
The label, if any, is this judgement's: inaccuracy, mistake or blunder when the chance lost
clears 0.05, 0.12, 0.25 (:mod:`analysis.labels`). A card from the third trick on, cheap to
solve, gets more samples (:data:`CHEAP_FROM_TRICK`).

>>> from twentynine.replay import random_match
>>> from twentynine.schema import Rules
>>> log = random_match(Rules.preset("bhoos"), seed=4)
>>> fair_cards("m", log.resolved_rules(), log.deals[0], 1, [], samples=4)
[]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from twentynine.analysis.annotate import Annotation
from twentynine.analysis.judging import DealContext, Outcome, judge
from twentynine.analysis.models.dealing import DealingModel
from twentynine.analysis.models.others import AuctionModel
from twentynine.analysis.positions import Position, deal_positions, full_play_rules
from twentynine.analysis.solver import caller_team, solve
from twentynine.replay import DealState
from twentynine.schema.cards import Card, Rank, Seat
from twentynine.schema.log import Deal, PlayAction
from twentynine.schema.rules import Rules

CHEAP_FROM_TRICK: Final = 3
"""From this trick on (six cards a hand or fewer) a layout is drawn and solved in 0.2 to 0.6
ms of CPU (6 ms at the first trick, 1.6 at the second): such a card is judged on
:data:`CHEAP_SAMPLES` times the samples, and while its label is in doubt on twice as many
at each look, up to :data:`CHEAP_CAP_FACTOR` times that."""
CHEAP_SAMPLES: Final = 4
CHEAP_CAP_FACTOR: Final = 8


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
    layouts drawn by ``auction_model``, None: the shipped one, and ``dealing``, None: a fair
    shuffle)."""
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
    draw = card_draw(context, pos)
    if draw is None:
        return None
    action = pos.action
    assert isinstance(action, PlayAction)
    caller = pos.state.caller_seat
    mine = caller is not None and action.seat.team is caller.team
    if len(pos.state.seat_view().tricks) + 1 >= CHEAP_FROM_TRICK:
        verdict = judge(
            draw,
            action.card.text,
            context.samples * CHEAP_SAMPLES,
            cap_factor=CHEAP_CAP_FACTOR,
            until_settled=True,
        )
    else:
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


def card_draw(context: DealContext, pos: Position) -> Callable[[int], Outcome | None] | None:
    """The outcomes of every legal card on layout ``k`` of the seat's view at ``pos``: per
    card, (1.0 if its side then reaches its goal with best play, else 0.0; its side's card
    points); None when ``pos`` is not a card of a contract."""
    action = pos.action
    view = pos.state.seat_view()
    if not isinstance(action, PlayAction) or view.single is not None or view.target is None:
        return None
    seat = action.seat
    if pos.state.caller_seat is None:
        return None

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

    return draw


def card_classes(state: DealState, seat: Seat) -> list[list[Card]]:
    """``seat``'s legal cards at ``state`` in classes that are the same card from its view:
    two cards of a suit are when they score alike and every card ranked between them is its
    own or already gone in a finished trick (whoever holds the rest, either wins the same
    tricks). Under the Pair rules a king or queen of the trump (of any suit, while the seat
    does not know the trump) goes with no eight or seven. A real choice has two classes or
    more.

    >>> from twentynine.schema import Rules, Seat
    >>> from twentynine.replay.script import run_script
    >>> hands = {"E": "JH 9H AH TH 7S 8C 7D 8D"}
    >>> state = run_script(Rules.preset("pagat"), "N", hands, "E:15 S:p W:p N:p E:trump=H")
    >>> [" ".join(c.text for c in group) for group in card_classes(state, Seat.E)]
    ['7S', 'JH', '9H', 'AH TH', '8D 7D', '8C']
    """
    view = state.seat_view(seat)
    legal = [a.card for a in state.legal_actions(seat) if isinstance(a, PlayAction)]
    gone = {card for trick in view.tricks for _, card in trick} | set(view.hand)
    pair = state.rules.pair != "off"
    classes: list[list[Card]] = []
    for card in sorted(legal, key=lambda c: c.index):
        last = classes[-1][-1] if classes else None
        paired = pair and view.trump in (None, card.suit)  # a Pair is of the trump's K and Q
        if last is not None and _same(last, card, gone, paired):
            classes[-1].append(card)
        else:
            classes.append([card])
    return classes


def _same(higher: Card, lower: Card, gone: set[Card], pair: bool) -> bool:
    if higher.suit is not lower.suit or higher.rank.points != lower.rank.points:
        return False
    if pair and (higher.rank in _PAIR) != (lower.rank in _PAIR):
        return False
    between = range(higher.index + 1, lower.index)
    return all(Card.from_index(i) in gone for i in between)


_PAIR = frozenset({Rank.KING, Rank.QUEEN})
