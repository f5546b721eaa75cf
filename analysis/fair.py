"""Fair annotations: each decision judged on what the deciding seat could know.

For a decision, :mod:`analysis.sampling` deals the cards the seat could not see, many
times; every alternative is valued on every layout, and :mod:`analysis.judging` compares
the alternatives on the same layouts. This module judges the show decisions, by play-outs
in which each seat sees only its own cards (:mod:`analysis.judge.playout`);
:mod:`analysis.auction` the bids, trump choice and doubling.

>>> from twentynine.replay import random_match
>>> from twentynine.schema import Rules
>>> log = random_match(Rules.preset("bhoos"), seed=4)
>>> fair_deal("m", log.resolved_rules(), log.deals[0], 1, kinds={"card"}, samples=4)
[]
"""

from __future__ import annotations

from collections.abc import Collection

from twentynine.analysis.annotate import Annotation
from twentynine.analysis.auction import AUCTION_KINDS, auction_notes
from twentynine.analysis.judge.playout import PLAYOUTS, POLICY, bot_card, play_out, reached
from twentynine.analysis.judge.words import tell
from twentynine.analysis.judging import (
    DealContext,
    Outcome,
    judge,
    sample_rng,
    seat_has_cards,
)
from twentynine.analysis.models.contract import ContractModel
from twentynine.analysis.models.dealing import DealingModel
from twentynine.analysis.models.others import AuctionModel
from twentynine.analysis.models.table import TableModel
from twentynine.analysis.positions import Position, deal_positions, full_play_rules
from twentynine.schema.log import Deal
from twentynine.schema.rules import Rules

FAIR_KINDS = frozenset({"show"}) | AUCTION_KINDS
"""The kinds judged on samples of what the deciding seat knew."""


def fair_deal(
    match_id: str,
    rules: Rules,
    deal: Deal,
    number: int,
    *,
    kinds: Collection[str] = FAIR_KINDS,
    samples: int = 32,
    seed: int = 0,
    from_trick: int = 1,
    model: ContractModel | None = None,
    auction_model: AuctionModel | None = None,
    dealing: DealingModel | None = None,
    table: TableModel | None = None,
) -> list[Annotation]:
    """The sampled annotations of one deal (a seat's decisions need its own cards in the log).

    ``from_trick`` (1-based) judges only the show decisions of that trick on, and leaves the
    auction out unless it is 1 (tests use endings, cheap to solve). ``model``: the contract
    model that gives each call's chance to make, ``auction_model``: the model of the others'
    calls that bids are judged with and the layouts drawn by (None: the shipped ones);
    ``dealing``: the dealing asked for (None: a fair shuffle; DealContext.dealing).
    ``table``: the correction of a contract's chance by the others' cards (None: shipped).
    """
    notes: list[Annotation] = []
    rules = full_play_rules(rules)
    positions = list(deal_positions(rules, deal, number))
    context = DealContext(
        match_id, rules, deal, number, samples, seed, model, auction_model, dealing, table
    )
    for pos in positions:
        if not seat_has_cards(deal, pos):
            continue
        tricks_done = len(pos.state.seat_view().tricks)
        if "show" in kinds and tricks_done + 1 >= from_trick and _could_show(pos):
            note = _show_decision(context, pos)
            if note is not None:
                notes.append(note)
    if AUCTION_KINDS.intersection(kinds) and from_trick <= 1:
        notes += auction_notes(context, positions, kinds)
    return tell(notes)


def _could_show(pos: Position) -> bool:
    state = pos.state
    if state.phase_name != "play" or state.is_over or state.current_seat is not pos.action.seat:
        return False
    if pos.action.type not in ("play", "show"):
        return False
    return any(a.type == "show" for a in state.legal_actions(pos.action.seat))


def _show_decision(context: DealContext, pos: Position) -> Annotation | None:
    """Asking for the trump against playing on, judged by play-outs
    (:mod:`analysis.judge.playout`): on layouts of the seat's view, the seat asks (then its
    bot plays on) or plays the card its bot would play without asking, and the deal is played
    to the end by players who see only their own cards."""
    seat = pos.action.seat
    chosen = "show" if pos.action.type == "show" else "no show"

    def draw(k: int) -> Outcome | None:
        layout = context.layout(pos.at, seat, k)
        if layout is None:
            return None
        state = layout.state
        show = next((a for a in state.legal_actions(seat) if a.type == "show"), None)
        if show is None or not any(a.type == "play" for a in state.legal_actions(seat)):
            return None
        totals = {"show": [0.0, 0.0], "no show": [0.0, 0.0]}
        for j in range(PLAYOUTS):
            for text, total in totals.items():
                rng = sample_rng(
                    context.seed, context.match_id, context.number, pos.at, f"{seat}:{j}", k
                )
                start = state.copy()
                move = show if text == "show" else bot_card(start, seat, layout.actions, rng)
                start.apply(move)
                goal, points = reached(play_out(start, [*layout.actions, move], rng), seat)
                total[0] += goal
                total[1] += points
        return {text: (v[0] / PLAYOUTS, v[1] / PLAYOUTS) for text, v in totals.items()}

    verdict = judge(draw, chosen, context.samples, precise=True)
    if verdict is None:
        return None
    caller = pos.state.caller_seat
    mine = caller is not None and seat.team is caller.team
    return context.note(
        pos,
        "show",
        "make_probability",
        verdict,
        goal="make" if mine else "beat",
        caller=caller.value if caller is not None else None,
        policy=POLICY,
        playouts=PLAYOUTS,
    )
