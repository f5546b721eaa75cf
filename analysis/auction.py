"""Fair annotations of the auction and what follows it: bids and passes, the trump choice,
doubles and redoubles.

Each is judged on layouts sampled from the deciding seat's view (its first four cards and
the auction; for the defenders, the trump is sampled too). A bid, pass or Ditto: on each
layout the auction runs on to its end, the others calling as the archive's players do
(:mod:`analysis.judge.others`), and the contract it ends in is worth what the contract
model gives its caller from the caller's view (:func:`analysis.judge.chance.contract_chance`,
the one seam; nothing is solved). The trump choice: each suit played out by players who
see only their own cards (:mod:`analysis.judge.playout`). A Double, Redouble or Set: the
layout solved double dummy from the first lead, its value calibrated to the chance a real
table makes the call. Bids and doubles are worth game points: a made call wins the stake
for the caller's side, a failed one loses it (the stake doubled by a Double, and so on);
the trump choice is worth make-probability.

>>> from twentynine.schema import Rules
>>> from twentynine.analysis.solver import solve
>>> from twentynine.analysis.testing import first_lead
>>> state = first_lead(Rules.preset("pagat"), 3)
>>> contract_value(state.copy()) == solve(state).value
True
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence

from twentynine.analysis.annotate import Annotation
from twentynine.analysis.hindsight import action_text
from twentynine.analysis.judge.chance import around, caller_view, contract_chance
from twentynine.analysis.judge.others import Replayed, contract_worth, run_auction
from twentynine.analysis.judge.playout import PLAYOUTS, POLICY, play_out, reached
from twentynine.analysis.judging import (
    DealContext,
    Judgement,
    Outcome,
    judge,
    sample_rng,
    seat_has_cards,
)
from twentynine.analysis.labels import GAME_POINT_SCALE
from twentynine.analysis.models.contract import ContractModel, ContractView
from twentynine.analysis.models.contract import shipped_model as shipped_contract_model
from twentynine.analysis.models.others import shipped_model as shipped_others
from twentynine.analysis.models.table import shipped_model as shipped_table
from twentynine.analysis.positions import Position
from twentynine.analysis.sampling import likely_trump, replay_actions
from twentynine.analysis.solver import solve_value
from twentynine.replay import DealState
from twentynine.schema.cards import SEATS, Seat
from twentynine.schema.log import Action, BidAction

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
CONSIDERED_BIDS = 4
"""Bids weighed at a turn: the lowest legal ones (and the bid made, when higher)."""

AUCTION_RUNS = 8
"""Runs of the others' calls on each layout, for each alternative (the same runs for all)."""


def _bid_notes(context: DealContext, positions: Sequence[Position]) -> list[Annotation]:
    rules = context.rules
    stake = rules.stake
    others = context.auction_model or shipped_others()
    chances = context.model or shipped_contract_model()
    table = context.table or shipped_table()
    dealt_as = context.dealt_as  # the layouts and the chances know how the deal was dealt
    notes: list[Annotation] = []
    for pos in positions:
        action = pos.action
        if action.type not in ("bid", "pass", "ditto") or pos.state.phase_name != "auction":
            continue
        if not seat_has_cards(context.deal, pos):
            continue
        seat = action.seat
        legal = pos.state.legal_actions(seat)
        alternatives = _alternatives(legal, action)
        if len(alternatives) < 2:
            continue  # forced (the dealer given the minimum, or a pass all that is left)
        chosen = _bid_text(action)
        said = [p.action for p in positions[: pos.at]]
        stands: dict[int, dict[str, float]] = {}
        finals: dict[int, dict[str, float]] = {}

        def draw(
            k: int,
            seat: Seat = seat,
            said: list[Action] = said,
            alternatives: list[tuple[str, Action]] = alternatives,
            stands: dict[int, dict[str, float]] = stands,
            finals: dict[int, dict[str, float]] = finals,
            at: int = pos.at,
        ) -> Outcome | None:
            # Drawn at this turn, as the calls so far say (partner's bid, the passes).
            layout = context.layout(at, seat, k)
            if layout is None:
                return None
            hands = layout.hands
            others_of = {s: around(hands, s) for s in SEATS}

            def chance(caller: Seat, level: int, actions: Sequence[Action]) -> float | None:
                view = caller_view(
                    rules, hands, context.deal.dealer, actions, caller, level, dealt_as
                )
                # The caller's own view, corrected by the cards the layout deals its
                # partner and the opponents: a partner that bid holds a bid's cards.
                return contract_chance(view, lambda: None, chances, table, others_of[caller])

            runs = [
                Replayed(
                    sample_rng(context.seed, context.match_id, context.number, at, f"{seat}:{j}", k)
                )
                for j in range(AUCTION_RUNS)
            ]

            before = DealState(rules, context.deal.dealer, hands)
            for earlier in said:
                before.apply(earlier)
            outcome: Outcome = {}
            stood: dict[str, float] = {}
            final: dict[str, float] = {}
            for text, choice in alternatives:
                start = before.copy()
                start.apply(choice)
                said_now = [*said, choice]
                total = 0.0
                own = 0
                ended = 0
                making = 0.0
                # The runs of one alternative end in a few auctions: each weighed once (by
                # the calls after ``said_now``, the same for them all).
                known: dict[tuple[Seat, int, tuple[Action, ...]], float | None] = {}

                def weighed(
                    caller: Seat,
                    level: int,
                    actions: Sequence[Action],
                    known: dict[tuple[Seat, int, tuple[Action, ...]], float | None] = known,
                    after: int = len(said_now),
                ) -> float | None:
                    key = (caller, level, tuple(actions[after:]))
                    if key not in known:
                        known[key] = chance(caller, level, actions)
                    return known[key]

                for run in runs:  # the same numbers for every alternative
                    end = run_auction(start, hands, said_now, others, run.reader())
                    worth = contract_worth(end, seat, stake, weighed)
                    if worth is None:
                        return None
                    total += worth
                    own += end.caller is seat
                    if end.caller is not None and end.level is not None:
                        ended += 1
                        making += weighed(end.caller, end.level, end.actions) or 0.0
                level = _level(text, before.standing_bid[1] if before.standing_bid else None)
                made = chance(seat, level, said_now) if text != "pass" else 0.0
                if made is None:
                    return None
                outcome[text] = (total / AUCTION_RUNS, made)
                stood[text] = own / AUCTION_RUNS
                if ended:
                    final[text] = making / ended
            stands[k] = stood
            finals[k] = final
            return outcome

        scale = GAME_POINT_SCALE * stake
        verdict = judge(draw, chosen, context.samples, scale=scale)
        if verdict is None:
            continue
        known = context.deal.hands or {}
        own = {
            text: caller_view(rules, known, context.deal.dealer, [*said, a], seat, dealing=dealt_as)
            for text, a in alternatives
            if text != "pass"
        }
        share = {
            c: round(sum(s[c] for s in stands.values()) / len(stands), 6)
            for c in verdict.means
            if stands and all(c in s for s in stands.values())
        }
        verdict = with_model_uncertainty(verdict, chances, own, stake, share)
        final_chance = {
            c: round(sum(f[c] for f in finals.values()) / len(finals), 6)
            for c in verdict.means
            if finals and all(c in f for f in finals.values())
        }
        made = {c: m[1] for c, m in verdict.means.items()}
        levels = sorted(a.value for a in legal if isinstance(a, BidAction))
        standing = pos.state.standing_bid
        ditto = standing[1] if any(a.type == "ditto" for a in legal) and standing else None
        can_pass = any(a.type == "pass" for a in legal)
        four = [c for c in (context.deal.hands or {})[seat][:4] if c is not None]
        notes.append(
            context.note(
                pos,
                "bid",
                "game_points",
                verdict,
                scale,
                blind=False,
                trump=likely_trump(four).value,
                recommended=verdict.best,
                highest_made=_highest_made(made, levels, ditto, can_pass),
                judgement=_judgement(chosen, verdict.best, ditto) if verdict.loss > 1e-9 else None,
                stands=share,
                final=final_chance,
                model=chances.version,
                table=table.version,
                **({"model_dealing": dealt_as.version} if dealt_as is not None else {}),
            )
        )
    return notes


def _alternatives(legal: Sequence[Action], made: Action) -> list[tuple[str, Action]]:
    """The calls weighed at a turn: a pass and a Ditto where legal, the lowest legal bids
    (:data:`CONSIDERED_BIDS`) and the bid made; only legal ones."""
    out: list[tuple[str, Action]] = []
    for action in legal:
        if action.type in ("pass", "ditto"):
            out.append((action.type, action))
    bids = sorted((a for a in legal if isinstance(a, BidAction)), key=lambda a: a.value)
    for i, bid in enumerate(bids):
        if i < CONSIDERED_BIDS or (isinstance(made, BidAction) and bid.value == made.value):
            out.append((f"bid {bid.value}", bid))
    return out


def _bid_text(action: Action) -> str:
    if isinstance(action, BidAction):
        return f"bid {action.value}"
    return "ditto" if action.type == "ditto" else "pass"


def _level(choice: str, ditto: int | None) -> int:
    """The level a call reaches (a Ditto: the standing bid's), 0 for a pass."""
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


def _highest_made(
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


def with_model_uncertainty(
    verdict: Judgement,
    model: ContractModel,
    own: Mapping[str, ContractView],
    stake: int,
    stands: Mapping[str, float] | None = None,
) -> Judgement:
    """``verdict`` with the contract model's own uncertainty added to the sampling's: the
    loss's interval widened by the fit's 95% interval of the gain of the best call's own
    chance over the chosen one's (each call worth ``stake x (2p - 1)`` in the share
    ``stands[call]`` of the runs in which it stands, 1 when not given; a pass 0), the
    half-widths below and above each added in quadrature to the sampling's. The sampling
    measures how the others' hands and calls vary; the model's interval, how sure the fit is
    of what the bidder's cards are worth, which matters only where its call stands.

    >>> from twentynine.analysis.judging import Judgement
    >>> from twentynine.analysis.models.contract import cards, shipped_model
    >>> verdict = Judgement("bid 18", "pass", {}, {}, 0.3, 0.25, 0.35, 32)
    >>> own = {"bid 18": ContractView(cards("7S 9C 7C 9D"), 1, 18)}
    >>> always = with_model_uncertainty(verdict, shipped_model(), own, 1)
    >>> half = with_model_uncertainty(verdict, shipped_model(), own, 1, {"bid 18": 0.5})
    >>> always.low < half.low < verdict.low
    True
    """
    terms: list[tuple[float, ContractView]] = []
    constant = 0.0
    for text, sign in ((verdict.best, 1.0), (verdict.chosen, -1.0)):
        view = own.get(text)
        if view is not None:
            weight = sign * (stands.get(text, 1.0) if stands is not None else 1.0)
            terms.append((weight * 2.0 * stake, view))
            constant -= weight * stake
    if not terms or verdict.best == verdict.chosen:
        return verdict
    mean, low, high = model.combination(terms, constant)
    below, above = verdict.loss - verdict.low, verdict.high - verdict.loss
    return verdict._replace(  # each side its own: near 0 or 1 the model's interval is lopsided
        low=verdict.loss - math.hypot(below, mean - low),
        high=verdict.loss + math.hypot(above, high - mean),
    )


# ------------------------------------------------------------------------------ trump
def _trump_note(context: DealContext, positions: Sequence[Position]) -> Annotation | None:
    """The trump choice judged by play-outs (:mod:`analysis.judge.playout`): on layouts of
    the caller's view, each legal choice played to the end by players who see only their
    own cards, the call made in what share of them."""
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

    def draw(k: int) -> Outcome | None:
        layout = context.layout(pos.at, seat, k)
        if layout is None:
            return None
        outcome: Outcome = {}
        for text, choice in zip(texts, choices, strict=True):
            history = [*layout.actions, choice]
            start = replay_actions(rules, context.deal, layout.hands, history)
            made = points = 0.0
            for j in range(PLAYOUTS):
                rng = sample_rng(
                    context.seed, context.match_id, context.number, pos.at, f"{seat}:{j}", k
                )
                goal, taken = reached(play_out(start.copy(), history, rng), seat)
                made += goal
                points += taken
            outcome[text] = (made / PLAYOUTS, points / PLAYOUTS)
        return outcome

    verdict = judge(draw, chosen, context.samples, precise=True)
    if verdict is None:
        return None
    return context.note(pos, "trump", "make_probability", verdict, policy=POLICY, playouts=PLAYOUTS)


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
            state.end_doubling()
            if state.is_over or state.phase_name != "play":
                return None  # thrown in once the second four are dealt
            target = state.seat_view().target or 0
            view = caller_view(
                rules, layout.hands, context.deal.dealer, layout.actions, caller, target
            )
            p = contract_chance(view, lambda: contract_value(state))
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
            context.note(
                fake,
                kind,
                "game_points",
                verdict,
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
