"""Fair annotations of the auction and what follows it: bids and passes, the trump choice,
doubles and redoubles.

A bid, pass or Ditto is judged by the contract model (:mod:`analysis.models.contract`):
the chance to make each call the seat could make, from what it knew (its first four cards,
its position, the auction so far, the level), with the model's own uncertainty as the
interval; nothing is sampled. The trump choice and the doubling are judged on layouts
sampled from the deciding seat's view (its first four cards and the auction; for the
defenders, the trump is sampled too) and solved double dummy from the first lead;
:mod:`analysis.calibration` turns each layout's value into the probability a real table
makes the call. Bids and doubles are worth game points: a made call wins the stake for the
caller's side, a failed one loses it (the stake doubled by a Double, and so on); the trump
choice is worth make-probability.

>>> from twentynine.schema import Rules
>>> from twentynine.analysis.solver import solve
>>> from twentynine.analysis.testing import first_lead
>>> state = first_lead(Rules.preset("pagat"), 3)
>>> contract_value(state.copy()) == solve(state).value
True
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from twentynine.analysis.annotate import Annotation, choice_words
from twentynine.analysis.calibration import made_probability
from twentynine.analysis.hindsight import action_text
from twentynine.analysis.judging import (
    DealContext,
    Judgement,
    Outcome,
    judge,
    make_annotation,
    seat_has_cards,
)
from twentynine.analysis.labels import GAME_POINT_SCALE
from twentynine.analysis.models.contract import (
    ContractModel,
    ContractView,
    Speech,
    shipped_model,
    view_at_last_bid,
)
from twentynine.analysis.positions import Position
from twentynine.analysis.sampling import replay_actions
from twentynine.analysis.solver import solve_value
from twentynine.replay import DealState
from twentynine.schema.cards import Seat
from twentynine.schema.log import BidAction
from twentynine.schema.words import signed

AUCTION_KINDS = frozenset({"bid", "trump", "double", "redouble", "set"})

PASS_NOT_LABELLED: Final = "no label: the contract model is fitted on calls only"
"""Why a pass that the figures would rather see a bid gets no label (docs/analysis.md)."""


def contract_value(state: DealState) -> int | None:
    """The caller's side's double-dummy points from the first lead of ``state`` (None when
    the deal is over: thrown in). Closes the doubling of ``state`` if still open.

    The value alone (:func:`analysis.solver.solve_value`): a sample needs no move's value,
    and on sampled first leads the value costs about 45% of a full solve's CPU."""
    state.end_doubling()
    if state.is_over or state.phase_name != "play":
        return None
    return solve_value(state)


def auction_notes(
    context: DealContext, positions: Sequence[Position], kinds: Collection[str]
) -> list[Annotation]:
    """The bid, trump and doubling annotations of one deal."""
    notes: list[Annotation] = []
    if "bid" in kinds:
        notes += _bid_notes(context, positions)
    if "trump" in kinds:
        note = _trump_note(context, positions)
        if note is not None:
            notes.append(note)
    if {"double", "redouble", "set"}.intersection(kinds):
        notes += _doubling_notes(context, positions, kinds)
    return notes


# ------------------------------------------------------------------------------- bids
def _bid_notes(context: DealContext, positions: Sequence[Position]) -> list[Annotation]:
    """Each bid, pass and Ditto where the seat had a choice, judged by the contract model
    from the bidder's view: its four cards, its position, the auction so far, the level."""
    model = context.model or shipped_model()
    stake = context.rules.stake
    scale = GAME_POINT_SCALE * stake
    direction = context.rules.direction
    auction: list[Speech] = []
    notes: list[Annotation] = []
    for pos in positions:
        action = pos.action
        if action.type not in ("bid", "pass", "ditto") or pos.state.phase_name != "auction":
            continue
        said = auction.copy()
        auction.append((action.seat, action.type, action.value if action.type == "bid" else None))
        if not seat_has_cards(context.deal, pos):
            continue
        seat = action.seat
        legal = pos.state.legal_actions(seat)
        choices: dict[str, Speech | None] = {}
        for a in legal:
            if isinstance(a, BidAction):
                choices[f"bid {a.value}"] = (seat, "bid", a.value)
            elif a.type == "ditto":
                choices["ditto"] = (seat, "ditto", None)
            elif a.type == "pass":
                choices["pass"] = None
        chosen = f"bid {action.value}" if action.type == "bid" else action.type
        if len(choices) < 2 or chosen not in choices:
            continue  # nothing to choose (a forced call), or a choice the rules refuse
        four = [c for c in (context.deal.hands or {})[seat][:4] if c is not None]
        position = pos.state.dealer_seat.order_from(direction).index(seat) or 4
        views: dict[str, ContractView] = {}
        for text, speech in choices.items():
            if speech is not None:
                view = view_at_last_bid(
                    four, position, seat, [*said, speech], context.rules.min_bid
                )
                if view is not None:
                    views[text] = view
        verdict = _model_verdict(model, chosen, choices, views, stake)
        made = {c: m[1] for c, m in verdict.means.items()}
        levels = sorted(v.level for c, v in views.items() if c.startswith("bid "))
        good = [lv for lv in levels if made[f"bid {lv}"] >= 0.5]
        judgement = None
        if verdict.best != chosen:
            judgement = "underbid" if chosen == "pass" else "overbid"
        explanation = _bid_explanation(verdict, levels)
        # The model is fitted on real calls only (hands someone chose to bid), so it cannot
        # say how a hand nobody bid would fare: such a pass keeps its figures, no label.
        passed_a_bid = chosen == "pass" and verdict.best != "pass"
        if passed_a_bid:
            explanation += f"; {PASS_NOT_LABELLED}"
        notes.append(
            make_annotation(
                context.match_id,
                context.number,
                pos,
                "bid",
                "game_points",
                verdict,
                explanation,
                context.seed,
                scale,
                trump=model.best_suit(next(iter(views.values()))).value,
                recommended=f"bid {good[-1]}" if good else "pass",
                judgement=judgement,
                model=model.version,
                labelled=not passed_a_bid,
            )
        )
    return notes


def _model_verdict(
    model: ContractModel,
    chosen: str,
    choices: dict[str, Speech | None],
    views: dict[str, ContractView],
    stake: int,
) -> Judgement:
    """The alternatives of a bid by the contract model: a call is worth ``stake * (2p - 1)``
    game points (made it wins the stake, failed it loses it), a pass 0; every interval (of
    each value, and of the loss) is the fit's uncertainty, the chances moving together."""

    def terms(choice: str) -> tuple[list[tuple[float, ContractView]], float]:
        view = views.get(choice)
        return ([(2.0 * stake, view)], -float(stake)) if view is not None else ([], 0.0)

    means: dict[str, tuple[float, float]] = {}
    intervals: dict[str, tuple[float, float]] = {}
    for choice, speech in choices.items():
        if speech is not None and choice not in views:
            continue
        weighted, constant = terms(choice)
        value, low, high = model.combination(weighted, constant)
        chance = model.chance(views[choice]) if choice in views else 0.0
        means[choice] = (value, chance)
        intervals[choice] = (low, high)
    best = max(means, key=lambda c: (round(means[c][0], 9), round(means[c][1], 9), c == chosen))
    gain, constant_gain = terms(best)
    lost, constant_lost = terms(chosen)
    loss, low, high = model.combination(
        [*gain, *((-w, v) for w, v in lost)], constant_gain - constant_lost
    )
    return Judgement(chosen, best, means, intervals, loss, low, high, None)


def _bid_explanation(verdict: Judgement, levels: Sequence[int]) -> str:
    means = verdict.means
    good = [lv for lv in levels if means[f"bid {lv}"][1] >= 0.5]
    top = f"bid up to {good[-1]}" if good else "pass"
    chosen, best = verdict.chosen, verdict.best
    lowest = f"bid {levels[0]}" if levels else "ditto"
    if chosen == "pass":
        if best == "pass":
            return f"pass was right: {lowest} would have a chance to make: {means[lowest][1]:.0%}"
        return (
            f"{best} would have a chance to make: {means[best][1]:.0%} "
            f"({signed(means[best][0], 2)} game points against 0 for passing); {top}"
        )
    p = means[chosen][1]
    if best == chosen:
        return f"{chosen} was the best choice, chance to make: {p:.0%} with your 4 cards ({top})"
    if best == "pass":
        return (
            f"{chosen} would have a chance to make: {p:.0%} "
            f"({signed(means[chosen][0], 2)} game points): pass"
        )
    return (
        f"{chosen} had a chance to make: {p:.0%}; {best} was enough, chance to make: "
        f"{means[best][1]:.0%} ({top})"
    )


# ------------------------------------------------------------------------------ trump
def _trump_note(context: DealContext, positions: Sequence[Position]) -> Annotation | None:
    pos = next((p for p in positions if p.action.type == "trump"), None)
    if pos is None or pos.state.phase_name != "trump" or not seat_has_cards(context.deal, pos):
        return None
    seat = pos.action.seat
    choices = [a for a in pos.state.legal_actions(seat) if a.type == "trump"]
    texts = [action_text(a) for a in choices]
    chosen = action_text(pos.action)
    if chosen not in texts or len(texts) < 2:
        return None
    play_rules = context.rules
    target = pos.state.seat_view().call or context.rules.min_bid

    def draw(k: int) -> Outcome | None:
        layout = context.layout(pos.at, seat, k)
        if layout is None:
            return None
        outcome: Outcome = {}
        for text, choice in zip(texts, choices, strict=True):
            state = replay_actions(
                play_rules, context.deal, layout.hands, [*layout.actions, choice]
            )
            value = contract_value(state)
            if value is None:
                continue
            outcome[text] = (made_probability(value, target), float(value))
        return outcome

    verdict = judge(draw, chosen, context.samples)
    if verdict is None:
        return None
    means = verdict.means
    mine, best = choice_words(chosen), choice_words(verdict.best)
    if verdict.best == chosen:
        explanation = (
            f"{mine} was the best choice: the call is made {means[chosen][0]:.0%} of the time"
        )
    else:
        explanation = (
            f"{best} would make the call {means[verdict.best][0]:.0%} of the time, "
            f"{mine} {means[chosen][0]:.0%}"
        )
    return make_annotation(
        context.match_id,
        context.number,
        pos,
        "trump",
        "make_probability",
        verdict,
        explanation,
        context.seed,
    )


# --------------------------------------------------------------------------- doubling
def _doubling_notes(
    context: DealContext, positions: Sequence[Position], kinds: Collection[str]
) -> list[Annotation]:
    rules = context.rules
    if not rules.double:
        return []
    trump_at = next((p.at for p in positions if p.action.type == "trump"), None)
    if trump_at is None or trump_at + 1 >= len(positions):
        return []
    caller = positions[trump_at].action.seat
    ladder = [
        p for p in positions[trump_at + 1 :] if p.action.type in ("double", "redouble", "set")
    ]
    after = (
        positions[trump_at + 1 + len(ladder)]
        if trump_at + 1 + len(ladder) < len(positions)
        else None
    )
    play_rules = rules
    stake = rules.stake
    scale = GAME_POINT_SCALE * stake
    notes: list[Annotation] = []
    hands = context.deal.hands or {}

    def judge_step(
        pos: Position, seat: Seat, kind: str, level: int, yes: str, no: str, chosen: str
    ) -> None:
        if None in hands.get(seat, [None]):
            return
        defending = seat.team is not caller.team

        def draw(k: int) -> Outcome | None:
            layout = context.layout(pos.at, seat, k, keep_doubling=True)
            if layout is None:
                return None
            state = replay_actions(play_rules, context.deal, layout.hands, layout.actions)
            value = contract_value(state)
            if value is None:
                return None
            target = state.seat_view().target or 0
            p = made_probability(value, target)
            sign = -1.0 if defending else 1.0
            now, then = (1, 2, 4, 6)[level - 1], (1, 2, 4, 6)[level]
            return {
                no: (sign * stake * now * (2 * p - 1), 1 - p if defending else p),
                yes: (sign * stake * then * (2 * p - 1), 1 - p if defending else p),
            }

        verdict = judge(draw, chosen, context.samples, scale=scale)
        if verdict is None:
            return
        m = verdict.means
        goal = "beaten" if defending else "made"
        explanation = (
            f"the call is {goal} {m[chosen][1]:.0%} of the time from your view: "
            f"{yes} {signed(m[yes][0], 2)}, {no} {signed(m[no][0], 2)} game points"
        )
        fake = Position(pos.at, pos.action.model_copy(update={"seat": seat}), pos.state)
        notes.append(
            make_annotation(
                context.match_id,
                context.number,
                fake,
                kind,
                "game_points",
                verdict,
                explanation,
                context.seed,
                scale,
            )
        )

    doubled = next((p for p in ladder if p.action.type == "double"), None)
    if "double" in kinds:
        if doubled is not None:
            judge_step(doubled, doubled.action.seat, "double", 1, "double", "no double", "double")
        elif after is not None:
            # Nobody doubled: judge the defender on the caller's left, who speaks first.
            order = after.state.order
            seat = order[(order.index(caller) + 1) % 4]
            judge_step(after, seat, "double", 1, "double", "no double", "no double")
    if "redouble" in kinds and doubled is not None and rules.redouble:
        redoubled = next((p for p in ladder if p.action.type == "redouble"), None)
        if redoubled is not None:
            judge_step(
                redoubled,
                redoubled.action.seat,
                "redouble",
                2,
                "redouble",
                "no redouble",
                "redouble",
            )
        else:
            nxt = positions[doubled.at + 1] if doubled.at + 1 < len(positions) else None
            if nxt is not None:
                judge_step(nxt, caller, "redouble", 2, "redouble", "no redouble", "no redouble")
    redoubled = next((p for p in ladder if p.action.type == "redouble"), None)
    if "set" in kinds and doubled is not None and redoubled is not None and rules.set_:
        said = next((p for p in ladder if p.action.type == "set"), None)
        if said is not None:
            judge_step(said, said.action.seat, "set", 3, "set", "no set", "set")
        elif redoubled.at + 1 < len(positions):  # nobody said Set: the doubler is judged
            seat = doubled.action.seat
            judge_step(positions[redoubled.at + 1], seat, "set", 3, "set", "no set", "no set")
    return notes
