"""Fair annotations of the auction and what follows it: bids and passes, the trump choice,
doubles and redoubles.

Each is judged on layouts sampled from the deciding seat's view (its first four cards and
the auction; for the defenders, the trump is sampled too) and solved double dummy from the
first lead; :func:`analysis.judge.chance.contract_chance`, the one seam, turns what the
caller knew and each layout's value into the probability a real table makes the call. Bids
and doubles are worth game points: a made call wins the stake for the caller's side, a
failed one loses it (the stake doubled by a Double, and so on); the trump choice is worth
make-probability.

>>> from twentynine.schema import Rules
>>> from twentynine.analysis.solver import solve
>>> from twentynine.analysis.testing import first_lead
>>> state = first_lead(Rules.preset("pagat"), 3)
>>> contract_value(state.copy()) == solve(state).value
True
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from twentynine.analysis.annotate import Annotation
from twentynine.analysis.hindsight import action_text
from twentynine.analysis.judge.chance import call_view, caller_view, contract_chance
from twentynine.analysis.judging import (
    DealContext,
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
from twentynine.schema.log import Action, BidAction, PassAction
from twentynine.schema.rules import Rules

AUCTION_KINDS = frozenset({"bid", "trump", "double", "redouble", "set"})


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
    stake = rules.stake
    first_turn: dict[Seat, Position] = {}
    found: dict[tuple[Seat, int], tuple[Layout, int | None] | None] = {}
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
        can_pass = any(a.type == "pass" for a in legal)
        if len(levels) + can_ditto + can_pass < 2:
            continue  # forced (the dealer given the minimum, or a pass all that is left)
        standing = pos.state.standing_bid
        ditto_level = standing[1] if can_ditto and standing is not None else None
        chosen = _bid_text(action)
        auction = [p.action for p in positions[: pos.at]]

        def layout_value(
            k: int, seat: Seat = seat, anchor: Position = anchor
        ) -> tuple[Layout, int | None] | None:
            key = (seat, k)
            if key not in found:
                layout = context.layout(anchor.at, seat, k)
                found[key] = (
                    None if layout is None else (layout, _bidder_value(rules, layout, seat))
                )
            return found[key]

        def draw(
            k: int,
            seat: Seat = seat,
            levels: list[int] = levels,
            ditto: int | None = ditto_level,
            can_pass: bool = can_pass,
            auction: list[Action] = auction,
        ) -> Outcome | None:
            pair = layout_value(k)
            if pair is None:
                return None
            layout, value = pair
            outcome: Outcome = {"pass": (0.0, 0.0)} if can_pass else {}
            calls = [(f"bid {lv}", lv) for lv in levels]
            if ditto is not None:
                calls.append(("ditto", ditto))
            for text, level in calls:
                view = call_view(
                    layout.hands, context.deal.dealer, rules.direction, auction, seat, level
                )
                p = contract_chance(view, lambda: value)
                if p is None:
                    return None
                outcome[text] = (stake * (2 * p - 1), p)
            return outcome

        scale = GAME_POINT_SCALE * stake
        verdict = judge(draw, chosen, context.samples, scale=scale)
        if verdict is None:
            continue
        made = {c: m[1] for c, m in verdict.means.items()}
        four = [c for c in (context.deal.hands or {})[seat][:4] if c is not None]
        notes.append(
            make_annotation(
                context.match_id,
                context.number,
                pos,
                "bid",
                "game_points",
                verdict,
                context.seed,
                scale,
                trump=likely_trump(four).value,
                recommended=_recommended(made, levels, ditto_level, can_pass),
                judgement=_judgement(chosen, verdict.best, ditto_level),
            )
        )
    return notes


def _bid_text(action: Action) -> str:
    if isinstance(action, BidAction):
        return f"bid {action.value}"
    return "ditto" if action.type == "ditto" else "pass"


def _level(choice: str, ditto: int | None) -> int:
    if choice == "ditto":
        return ditto or 0
    return int(choice.split()[1]) if choice.startswith("bid ") else 0


def _judgement(chosen: str, best: str, ditto: int | None) -> str | None:
    """``underbid`` when the best choice called higher than the one made (a pass lowest of
    all), ``overbid`` when lower, None when the choice made was best.

    >>> _judgement("pass", "bid 16", None), _judgement("bid 18", "ditto", 17)
    ('underbid', 'overbid')
    """
    if best == chosen:
        return None
    return "underbid" if _level(best, ditto) > _level(chosen, ditto) else "overbid"


def _recommended(
    made: dict[str, float], levels: Sequence[int], ditto: int | None, can_pass: bool
) -> str:
    """The highest call made at least half the time should it end the auction (a Ditto
    counts as its level); a pass when there is none (the lowest bid when passing is not
    allowed)."""
    good = [(lv, f"bid {lv}") for lv in levels if made.get(f"bid {lv}", 0.0) >= 0.5]
    if ditto is not None and made.get("ditto", 0.0) >= 0.5:
        good.append((ditto, "ditto"))
    if good:
        return max(good)[1]
    if can_pass or not levels:
        return "pass"
    return f"bid {levels[0]}"


def _bidder_value(rules: Rules, layout: Layout, seat: Seat) -> int | None:
    """The bidder's side's double-dummy value on a layout of its view, as the caller."""
    state = _as_caller(rules, layout, seat, rules.min_bid)
    if state is None:
        return None
    return contract_value(state)


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
    rules = context.rules
    target = pos.state.seat_view().call or rules.min_bid

    def draw(k: int) -> Outcome | None:
        layout = context.layout(pos.at, seat, k)
        if layout is None:
            return None
        outcome: Outcome = {}
        for text, choice in zip(texts, choices, strict=True):
            state = replay_actions(rules, context.deal, layout.hands, [*layout.actions, choice])
            view = caller_view(
                rules, layout.hands, context.deal.dealer, layout.actions, seat, target
            )
            value = contract_value(state)
            p = None if value is None else contract_chance(view, _known(value))
            if p is None or value is None:
                continue
            outcome[text] = (p, float(value))
        return outcome

    verdict = judge(draw, chosen, context.samples)
    if verdict is None:
        return None
    return make_annotation(
        context.match_id,
        context.number,
        pos,
        "trump",
        "make_probability",
        verdict,
        context.seed,
    )


def _known(value: float | None) -> Callable[[], float | None]:
    """A value already computed, as the seam asks for it."""
    return lambda: value


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
            state = replay_actions(rules, context.deal, layout.hands, layout.actions)
            value = contract_value(state)
            if value is None:
                return None
            target = state.seat_view().target or 0
            view = caller_view(
                rules, layout.hands, context.deal.dealer, layout.actions, caller, target
            )
            p = contract_chance(view, lambda: value)
            if p is None:
                return None
            sign = -1.0 if defending else 1.0
            now, then = (1, 2, 4, 6)[level - 1], (1, 2, 4, 6)[level]
            return {
                no: (sign * stake * now * (2 * p - 1), 1 - p if defending else p),
                yes: (sign * stake * then * (2 * p - 1), 1 - p if defending else p),
            }

        verdict = judge(draw, chosen, context.samples, scale=scale)
        if verdict is None:
            return
        fake = Position(pos.at, pos.action.model_copy(update={"seat": seat}), pos.state)
        notes.append(
            make_annotation(
                context.match_id,
                context.number,
                fake,
                kind,
                "game_points",
                verdict,
                context.seed,
                scale,
                goal="beat" if defending else "make",
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
