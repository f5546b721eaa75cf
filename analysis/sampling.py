"""Layouts of the unseen cards consistent with everything one seat has seen.

A seat knows its own cards (the first four only, before the second four are dealt), every
card played, the auction, who failed to follow which suit, and the trump once it is shown
(or its own choice, for the caller). :func:`sample_positions` deals the cards it cannot
see at random within those facts and replays the deal's actions on each layout through the
rules engine, which rejects a layout any action would breach (a void broken, a Pair the
holder could not have, a deal that would have been thrown in): what is left is consistent
with everything seen. For a seat that does not know the trump, the trump is sampled too:
each layout's caller chooses the suit :func:`likely_trump` picks from its first four cards.

>>> from twentynine.replay import random_match
>>> from twentynine.schema import Rules
>>> from twentynine.schema.cards import Seat
>>> import random
>>> log = random_match(Rules.preset("bhoos"), seed=1)
>>> deal = log.deals[0]
>>> states = sample_positions(log.resolved_rules(), deal, 1, 20, Seat.N, random.Random(0), 3)
>>> len(states), all(len(s.hand(Seat.E)) + len(s.hand(Seat.N)) > 0 for s in states)
(3, True)
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Final, NamedTuple

from twentynine.analysis.models.contract import longest_suit
from twentynine.analysis.models.dealing import DealingModel, packet
from twentynine.analysis.models.others import AuctionModel, Call, free_call
from twentynine.analysis.packets import Step, deal_weighted, hands_of
from twentynine.analysis.positions import LADDER_TYPES
from twentynine.replay import DealState
from twentynine.schema.cards import ALL_CARDS, SEATS, Card, Seat, Suit
from twentynine.schema.log import Action, Deal, TrumpAction
from twentynine.schema.rules import Rules

MAX_TRIES_PER_SAMPLE = 60
"""Layouts tried for each one kept before the sampler gives up on a position."""

AUCTION_CANDIDATES = 16
"""Deals of the unseen cards tried against the calls' chances for one layout before the
sampler takes one of them by its weight."""


def likely_trump(cards: Sequence[Card]) -> Suit:
    """The suit a caller would choose from these cards: the longest, then the most points,
    then the highest card, then the first in the order S, H, D, C (a fixed order, so that the
    same cards give the same suit in every process, whatever its hash seed): the contract
    model's rule, :func:`~twentynine.analysis.models.contract.longest_suit`, said once.

    >>> likely_trump([Card.parse(t) for t in ("JH", "9H", "AS", "7H")]).value
    'H'
    >>> likely_trump([Card.parse(t) for t in ("7C", "7D", "8H", "8S")]).value
    'S'
    """
    return longest_suit(cards)


def trump_choice(rules: Rules, caller: Seat, first_four: Sequence[Card], suit: Suit) -> TrumpAction:
    """The trump action choosing ``suit`` (under an own-card marker, its lowest card)."""
    if rules.trump_marker == "own_card":
        mine = [c for c in first_four if c.suit is suit]
        if mine:
            card = min(mine, key=lambda c: c.strength)
            return TrumpAction(seat=caller, suit=suit, card=card)
    return TrumpAction(seat=caller, suit=suit)


class _Plan(NamedTuple):
    """What every layout of one view starts from, by packet (a seat's first or second four,
    ``2 * SEATS.index(seat) + round``): the cards known to be in it, the room left in it,
    the cards whose seat is known but not their packet, the unseen cards, the packets each
    suit may go to (the voids shown), and each packet's place from the dealer
    (:func:`analysis.models.dealing.packet`, the column of the dealing's weights)."""

    placed: tuple[tuple[Card, ...], ...]
    room: tuple[int, ...]
    floating: tuple[tuple[int, Card], ...]
    unseen: tuple[Card, ...]
    allowed: dict[Suit, tuple[int, ...]]
    column: tuple[int, ...]


_Steps = tuple[Step, ...]


class _Facts:
    """What ``seat`` has seen before action ``index`` of a deal."""

    def __init__(
        self,
        rules: Rules,
        deal: Deal,
        number: int,
        index: int,
        seat: Seat,
        *,
        keep_doubling: bool = False,
    ) -> None:
        state = DealState(rules, deal.dealer, deal.hands, number=number)
        actions = deal.actions[:index]
        last = len(actions) - 1
        self.calls: list[Call] = []
        """The others' free calls of the auction: what they say of the cards they held."""
        for i, action in enumerate(actions):
            call = free_call(state, action) if action.seat is not seat else None
            if call is not None:
                self.calls.append(call)
            state.apply(action)
            if i < last and actions[i + 1].type not in LADDER_TYPES:
                state.end_doubling()
        if (
            not keep_doubling
            and index < len(deal.actions)
            and deal.actions[index].type not in LADDER_TYPES
        ):
            state.end_doubling()
        self.real = state
        self.errors = sum(1 for f in state.findings if f.severity == "error")
        view = state.seat_view(seat)
        self.view = view
        dealt = list((deal.hands or {}).get(seat, ()))
        self.own_dealt: list[Card] = [c for c in dealt[: 8 if view.second_dealt else 4] if c]
        self.played: dict[Seat, list[Card]] = {s: [] for s in SEATS}
        for action in actions:
            if action.type == "play":
                self.played[action.seat].append(action.card)
        face_down_rules = rules.trump_marker == "own_card" or rules.seventh_card != "off"
        self.voids: dict[Seat, set[Suit]] = {s: set() for s in SEATS}
        for trick in (*view.tricks, view.trick):
            if not trick:
                continue
            led = trick[0][1].suit
            for who, card in trick[1:]:
                if card.suit is not led and not (face_down_rules and who is view.caller):
                    self.voids[who].add(led)
        trump_action = next((a for a in actions if a.type == "trump"), None)
        self.replace_trump = (
            trump_action is not None
            and view.trump is None
            and trump_action.mode is None
            and view.single is None
        )
        self.trump_action = trump_action
        # A face-down trump card the seat has seen (its own, or turned up at the show).
        self.face_down: Card | None = None
        if trump_action is not None and trump_action.card is not None and view.trump is not None:
            self.face_down = trump_action.card
        self.actions = actions
        self.seat = seat
        self.dealer = deal.dealer
        self._plan: _Plan | None = None
        self._steps: dict[str, tuple[_Steps, _Steps]] = {}

    def plan(self) -> _Plan:
        """The start of every layout of this view (worked out once)."""
        if self._plan is None:
            seat = self.seat
            placed: list[list[Card]] = [[] for _ in range(8)]
            mine = SEATS.index(seat)
            placed[2 * mine] = list(self.own_dealt[:4])
            placed[2 * mine + 1] = list(self.own_dealt[4:])
            floating = [(SEATS.index(s), c) for s in SEATS if s is not seat for c in self.played[s]]
            caller = self.view.caller
            marker = self.face_down
            if marker is not None and caller not in (None, seat):
                floating = [(i, c) for i, c in floating if c is not marker]
                placed[2 * SEATS.index(caller)].append(marker)  # one of the first four
            seen = {c for cards in placed for c in cards} | {c for _, c in floating}
            seen |= set(self.played[seat])
            self._plan = _Plan(
                placed=tuple(tuple(cards) for cards in placed),
                room=tuple(4 - len(cards) for cards in placed),
                floating=tuple(floating),
                unseen=tuple(c for c in ALL_CARDS if c not in seen),
                allowed={
                    suit: tuple(
                        2 * i + r
                        for i, s in enumerate(SEATS)
                        if suit not in self.voids[s]
                        for r in (0, 1)
                    )
                    for suit in Suit
                },
                column=tuple(packet(SEATS[p // 2], self.dealer, p % 2 == 1) for p in range(8)),
            )
        return self._plan

    def weighted_steps(self, dealing: DealingModel) -> tuple[_Steps, _Steps]:
        """The cards to place under ``dealing``, each with its packets and its weight in
        each: the cards whose seat is known (placed first, in a random order), then the
        unseen ones, those the dealing ties hardest to one packet first (so that packet
        still has room for them). Worked out once a view and a dealing."""
        kept = self._steps.get(dealing.version)
        if kept is None:
            plan = self.plan()
            column = plan.column

            def step(card: Card, options: tuple[int, ...]) -> Step:
                row = dealing.weights[card.index]
                return card, options, tuple(row[column[p]] for p in options)

            floating = tuple(step(c, (2 * i, 2 * i + 1)) for i, c in plan.floating)
            unseen = sorted(plan.unseen, key=lambda c: (-max(dealing.weights[c.index]), c.index))
            pool = tuple(step(c, plan.allowed[c.suit]) for c in unseen)
            kept = self._steps[dealing.version] = (floating, pool)
        return kept


class Layout(NamedTuple):
    """One sampled deal: every seat's eight cards in the order dealt, the actions replayed on
    them (the trump choice replaced when the seat could not know it), and the position."""

    hands: dict[Seat, list[Card | None]]
    actions: list[Action]
    state: DealState


def sample_positions(
    rules: Rules,
    deal: Deal,
    number: int,
    index: int,
    seat: Seat,
    rng: random.Random,
    count: int,
) -> list[DealState]:
    """``count`` positions before action ``index``, every card dealt, as ``seat`` could see it.

    Fewer come back when the facts leave too few layouts to find by chance (a position
    where nearly every card is placed is cheap to sample; a rare void pattern is not).
    """
    return [layout.state for layout in sample_layouts(rules, deal, number, index, seat, rng, count)]


def sample_layouts(
    rules: Rules,
    deal: Deal,
    number: int,
    index: int,
    seat: Seat,
    rng: random.Random,
    count: int,
    *,
    keep_doubling: bool = False,
    auction: AuctionModel | None = None,
    dealing: DealingModel | None = None,
) -> list[Layout]:
    """As :func:`sample_positions`, with each layout's hands and replayed actions.

    ``keep_doubling``: a doubling decision is made before the second four are dealt,
    though the next action recorded may come after them; the seat then knows four cards.
    ``auction``: the model of the calls (:mod:`analysis.models.others`); given, the others'
    first four cards are drawn as their calls say (a layout is kept with the chance
    :meth:`~analysis.models.others.AuctionModel.calls_weight` gives it). ``dealing``: how
    the server deals (:mod:`analysis.models.dealing`; None: a fair shuffle).
    """
    facts = _facts(rules, deal, number, index, seat, keep_doubling)
    out: list[Layout] = []
    tries = 0
    while len(out) < count and tries < MAX_TRIES_PER_SAMPLE * count:
        tries += 1
        hands = _drawn_hands(facts, rng, auction, dealing)
        layout = None if hands is None else _replayed(rules, deal, number, facts, hands)
        if layout is not None:
            out.append(layout)
    return out


_KEPT_FACTS: Final = 64
_facts_lock = threading.Lock()
_facts_kept: OrderedDict[tuple[int, int, int, int, Seat, bool], tuple[Rules, Deal, _Facts]] = (
    OrderedDict()
)


def _facts(
    rules: Rules, deal: Deal, number: int, index: int, seat: Seat, keep_doubling: bool
) -> _Facts:
    """The facts of one seat's view, worked out once for all the samples of a decision
    (each sample is drawn on its own, :meth:`DealContext.layout`): the last
    :data:`_KEPT_FACTS` are kept, each with the very rules and deal it was read from."""
    key = (id(rules), id(deal), number, index, seat, keep_doubling)
    with _facts_lock:
        kept = _facts_kept.get(key)
        if kept is not None and kept[0] is rules and kept[1] is deal:
            _facts_kept.move_to_end(key)
            return kept[2]
    facts = _Facts(rules, deal, number, index, seat, keep_doubling=keep_doubling)
    with _facts_lock:
        _facts_kept[key] = (rules, deal, facts)
        if len(_facts_kept) > _KEPT_FACTS:
            _facts_kept.popitem(last=False)
    return facts


def replay_actions(
    rules: Rules,
    deal: Deal,
    hands: dict[Seat, list[Card | None]],
    actions: Sequence[Action],
    number: int = 1,
    *,
    deal_second: bool = False,
) -> DealState:
    """A state with ``hands`` dealt and ``actions`` applied (the second four dealt after the
    doubling as the table would; at the end too when ``deal_second``)."""
    state = DealState(rules, deal.dealer, hands, number=number)
    last = len(actions) - 1
    for i, action in enumerate(actions):
        state.apply(action)
        if i < last and actions[i + 1].type not in LADDER_TYPES:
            state.end_doubling()
    if deal_second:
        state.end_doubling()
    return state


def _drawn_hands(
    facts: _Facts,
    rng: random.Random,
    auction: AuctionModel | None,
    dealing: DealingModel | None = None,
) -> dict[Seat, list[Card | None]] | None:
    """Every seat's cards as dealt, the unseen ones drawn at random (None: none fits);
    given ``auction``, drawn as the others' calls say: a deal of the unseen cards is kept
    with the chance :meth:`~analysis.models.others.AuctionModel.calls_weight` gives it
    (rejection sampling). Calls the model finds unlikely for every hand would turn nearly
    all away: after :data:`AUCTION_CANDIDATES` deals, one of them is taken with chance in
    proportion to its weight."""
    if auction is None or not facts.calls:
        return _dealt(facts, rng, dealing)
    turned_away: list[tuple[float, dict[Seat, list[Card | None]]]] = []
    for _ in range(AUCTION_CANDIDATES):
        hands = _dealt(facts, rng, dealing)
        if hands is None:
            continue
        fours = {c.seat: tuple(x for x in hands[c.seat][:4] if x is not None) for c in facts.calls}
        weight = auction.calls_weight(facts.calls, fours)
        if rng.random() < weight:
            return hands
        turned_away.append((weight, hands))
    if not turned_away:
        return None
    pick = rng.random() * sum(weight for weight, _ in turned_away)
    for weight, hands in turned_away:
        pick -= weight
        if pick < 0:
            return hands
    return turned_away[-1][1]


def _dealt(
    facts: _Facts, rng: random.Random, dealing: DealingModel | None = None
) -> dict[Seat, list[Card | None]] | None:
    """Every seat's eight cards, first four then second four: the unseen cards dealt at
    random into the packets with room for them (a card goes to a packet with chance in
    proportion to its room, times the card's weight there under ``dealing``), the cards whose
    seat is known but not their packet (the others' cards played) placed first."""
    plan = facts.plan()
    own = SEATS.index(facts.seat)
    if dealing is not None:
        floating_steps, pool_steps = facts.weighted_steps(dealing)
        return deal_weighted(plan.placed, plan.room, floating_steps, pool_steps, own, rng)
    room = list(plan.room)
    packets = [list(cards) for cards in plan.placed]
    floating = list(plan.floating)
    rng.shuffle(floating)
    pool = list(plan.unseen)
    rng.shuffle(pool)
    steps: list[tuple[Card, tuple[int, ...]]] = [(c, (2 * i, 2 * i + 1)) for i, c in floating]
    steps += [(card, plan.allowed[card.suit]) for card in pool]
    for card, options in steps:
        total = sum(room[p] for p in options)
        if not total:
            return None
        pick = rng.randrange(total)
        for p in options:
            pick -= room[p]
            if pick < 0:
                packets[p].append(card)
                room[p] -= 1
                break
    return hands_of(packets, own, rng)


def _replayed(
    rules: Rules, deal: Deal, number: int, facts: _Facts, hands: dict[Seat, list[Card | None]]
) -> Layout | None:
    """The layout of ``hands``: the actions so far replayed on them (None: the rules reject
    it, or it reaches another position than the real one)."""
    actions = _with_trump(rules, facts, hands)
    state = replay_actions(rules, deal, hands, actions, number, deal_second=facts.real.second_dealt)
    errors = sum(1 for f in state.findings if f.severity == "error")
    if errors > facts.errors or state.is_over != facts.real.is_over:
        return None
    if state.current_seat is not facts.real.current_seat:
        return None
    return Layout(hands, actions, state)


def _with_trump(rules: Rules, facts: _Facts, hands: dict[Seat, list[Card | None]]) -> list[Action]:
    """The deal's actions so far, the trump choice replaced when the seat cannot know it."""
    chosen = facts.trump_action
    if not facts.replace_trump or chosen is None:
        return list(facts.actions)
    caller = chosen.seat
    if chosen.seventh:
        replacement: TrumpAction = TrumpAction(seat=caller, seventh=True)
    else:
        first = [c for c in hands[caller][:4] if c is not None]
        replacement = trump_choice(rules, caller, first, likely_trump(first))
    return [replacement if a is chosen else a for a in facts.actions]
