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
from collections.abc import Sequence
from typing import NamedTuple

from twentynine.analysis.models.contract import longest_suit
from twentynine.analysis.positions import LADDER_TYPES
from twentynine.replay import DealState
from twentynine.schema.cards import ALL_CARDS, SEATS, Card, Seat, Suit
from twentynine.schema.log import Action, Deal, TrumpAction
from twentynine.schema.rules import Rules

MAX_TRIES_PER_SAMPLE = 60
"""Layouts tried for each one kept before the sampler gives up on a position."""


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
        for i, action in enumerate(actions):
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
) -> list[Layout]:
    """As :func:`sample_positions`, with each layout's hands and replayed actions.

    ``keep_doubling``: a doubling decision is made before the second four are dealt,
    though the next action recorded may come after them; the seat then knows four cards.
    """
    facts = _Facts(rules, deal, number, index, seat, keep_doubling=keep_doubling)
    out: list[Layout] = []
    tries = 0
    while len(out) < count and tries < MAX_TRIES_PER_SAMPLE * count:
        tries += 1
        layout = _try_layout(rules, deal, number, facts, rng)
        if layout is not None:
            out.append(layout)
    return out


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


def _try_layout(
    rules: Rules, deal: Deal, number: int, facts: _Facts, rng: random.Random
) -> Layout | None:
    seat = facts.seat
    known: dict[Seat, list[Card]] = {s: list(facts.played[s]) for s in SEATS}
    own = facts.own_dealt
    known[seat] = list(own)
    caller = facts.view.caller
    marker = facts.face_down
    if marker is not None and caller not in (None, seat) and marker not in known[caller]:
        known[caller].append(marker)
    seen = {c for cards in known.values() for c in cards} | set(facts.played[seat])
    pool = [c for c in ALL_CARDS if c not in seen]
    need = {s: 8 - len(known[s]) for s in SEATS}
    if seat in need:
        need[seat] = 8 - len(own)
    rng.shuffle(pool)
    extra: dict[Seat, list[Card]] = {s: [] for s in SEATS}
    # The most constrained seats' suits first: a card goes to a seat that may hold it,
    # chosen with weight its remaining room (close to a uniform deal of the unseen cards).
    for card in pool:
        seats = [s for s in SEATS if need[s] > 0 and card.suit not in facts.voids[s]]
        if s_total := sum(need[s] for s in seats):
            pick = rng.randrange(s_total)
            for s in seats:
                pick -= need[s]
                if pick < 0:
                    extra[s].append(card)
                    need[s] -= 1
                    break
        else:
            return None
    hands: dict[Seat, list[Card | None]] = {}
    for s in SEATS:
        if s is seat:
            hands[s] = [*own, *extra[s]]  # its own cards where it holds them
        else:
            cards = known[s] + extra[s]
            rng.shuffle(cards)
            if s is caller and marker is not None and marker in cards[4:]:
                spot = rng.randrange(4)  # the face-down card was one of the first four
                where = cards.index(marker)
                cards[spot], cards[where] = cards[where], cards[spot]
            hands[s] = list(cards)
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
