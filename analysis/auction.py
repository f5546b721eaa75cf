"""Fair annotations of the auction and what follows it: bids and passes, the trump choice,
doubles and redoubles.

Each is judged on layouts sampled from the deciding seat's view (its first four cards and
the auction; for the defenders, the trump is sampled too) and solved double dummy from the
first lead; :mod:`analysis.calibration` turns each layout's value into the probability a
real table makes the call. Bids and doubles are worth game points: a made call wins the
stake for the caller's side, a failed one loses it (the stake doubled by a Double, and so
on); the trump choice is worth make-probability.

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
from twentynine.analysis.positions import Position
from twentynine.analysis.sampling import Layout, likely_trump, replay_actions, trump_choice
from twentynine.analysis.solver import solve_value
from twentynine.replay import DealState
from twentynine.schema.cards import Seat
from twentynine.schema.log import BidAction, PassAction
from twentynine.schema.rules import Rules

AUCTION_KINDS = frozenset({"bid", "trump", "double", "redouble", "set"})

PASS_NOT_LABELLED: Final = "no label: the calibration is fitted on calls only"
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


def _as_caller(rules: Rules, layout: Layout, bidder: Seat, level: int) -> DealState | None:
    """The layout's deal with ``bidder`` winning the auction (at ``level`` where the rules
    let it) and choosing the trump its first four suggest.

    The auction is driven afresh (what the others said does not bind a layout): the others
    pass; where the rules would then never give the bidder the call (a dealer who speaks
    only once a duel is open), the first other seat opens at the minimum and the bidder
    overcalls. The call does not change the layout's value: every deal is played out.
    """
    for opening in (False, True):
        state = DealState(rules, layout.state.dealer_seat, layout.hands)
        opened = False
        for _ in range(60):
            if state.phase_name != "auction" or state.is_over:
                break
            seat = state.current_seat
            legal = state.legal_actions()
            bids = [a for a in legal if isinstance(a, BidAction)]
            if seat is bidder:
                wanted = [a for a in bids if a.value >= level] or bids
                state.apply(wanted[0] if wanted else PassAction(seat=seat))
            elif opening and not opened and bids:
                state.apply(bids[0])
                opened = True
            else:
                passing = next((a for a in legal if a.type == "pass"), None)
                state.apply(passing if passing is not None else legal[0])
        if state.caller_seat is bidder and state.phase_name == "trump":
            four = [c for c in layout.hands[bidder][:4] if c is not None]
            state.apply(trump_choice(rules, bidder, four, likely_trump(four)))
            return state
    return None


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
    rules = context.rules
    play_rules = rules
    stake = rules.stake
    first_turn: dict[Seat, Position] = {}
    values: dict[tuple[Seat, int], int | None] = {}
    notes: list[Annotation] = []
    for pos in positions:
        action = pos.action
        if action.type not in ("bid", "pass", "ditto") or pos.state.phase_name != "auction":
            continue
        if not seat_has_cards(context.deal, pos):
            continue
        seat = action.seat
        anchor = first_turn.setdefault(seat, pos)
        legal = pos.state.legal_actions(seat)
        levels = sorted(a.value for a in legal if isinstance(a, BidAction))
        can_ditto = any(a.type == "ditto" for a in legal)
        if len(levels) + can_ditto == 0:
            continue  # nothing to choose: a pass is all the rules allow
        standing = pos.state.standing_bid
        ditto_level = standing[1] if can_ditto and standing is not None else None
        if action.type == "bid":
            chosen = f"bid {action.value}"
        elif action.type == "ditto":
            chosen = "ditto"
        else:
            chosen = "pass"

        def layout_value(k: int, seat: Seat = seat, anchor: Position = anchor) -> int | None:
            key = (seat, k)
            if key not in values:
                values[key] = _bidder_value(context, play_rules, anchor, seat, k)
            return values[key]

        def draw(
            k: int,
            levels: list[int] = levels,
            level: int | None = ditto_level,
        ) -> Outcome | None:
            value = layout_value(k)
            if value is None:
                return None
            outcome: Outcome = {"pass": (0.0, 0.0)}
            for bid in levels:
                p = made_probability(value, bid)
                outcome[f"bid {bid}"] = (stake * (2 * p - 1), p)
            if level is not None:
                p = made_probability(value, level)
                outcome["ditto"] = (stake * (2 * p - 1), p)
            return outcome

        scale = GAME_POINT_SCALE * stake
        verdict = judge(draw, chosen, context.samples, scale=scale)
        if verdict is None:
            continue
        explanation = _bid_explanation(verdict, levels, ditto_level)
        made = {c: m[1] for c, m in verdict.means.items()}
        good = [lv for lv in levels if made[f"bid {lv}"] >= 0.5]
        four = [c for c in (context.deal.hands or {})[seat][:4] if c is not None]
        judgement = None
        if verdict.best != chosen:
            judgement = "underbid" if chosen == "pass" else "overbid"
        # The calibration is fitted on real calls only (hands someone chose to bid), so it
        # cannot say how a hand nobody bid would fare: such a pass keeps its figures, no label.
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
                trump=likely_trump(four).value,
                recommended=f"bid {good[-1]}" if good else "pass",
                judgement=judgement,
                labelled=not passed_a_bid,
            )
        )
    return notes


def _bidder_value(
    context: DealContext, play_rules: Rules, anchor: Position, seat: Seat, k: int
) -> int | None:
    """The bidder's side's double-dummy value on layout ``k`` of its view, as the caller."""
    layout = context.layout(anchor.at, seat, k)
    if layout is None:
        return None
    state = _as_caller(play_rules, layout, seat, play_rules.min_bid)
    if state is None:
        return None
    return contract_value(state)


def _bid_explanation(verdict: Judgement, levels: Sequence[int], ditto: int | None) -> str:
    means = verdict.means
    good = [lv for lv in levels if means[f"bid {lv}"][1] >= 0.5]
    top = f"bid up to {good[-1]}" if good else "pass"
    chosen, best = verdict.chosen, verdict.best
    lowest = f"bid {levels[0]}" if levels else "ditto"
    lowest_level = levels[0] if levels else ditto
    if chosen == "pass":
        if best == "pass":
            return (
                f"pass was right: even {lowest_level} is made only "
                f"{means[lowest][1]:.0%} of the time"
            )
        return (
            f"{best} would be made {means[best][1]:.0%} of the time "
            f"({means[best][0]:+.2f} game points against 0 for passing); {top}"
        )
    p = means[chosen][1]
    if best == chosen:
        return f"{chosen}: made {p:.0%} of the time with your 4 cards ({top})"
    if best == "pass":
        return (
            f"{chosen} is made only {p:.0%} of the time ({means[chosen][0]:+.2f} game points): pass"
        )
    return (
        f"{chosen} is made {p:.0%} of the time; {best} was enough to bid and is made "
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
            f"{yes} {m[yes][0]:+.2f}, {no} {m[no][0]:+.2f} game points"
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
