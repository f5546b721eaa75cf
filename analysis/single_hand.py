"""Fair annotations of the single-hand declaration: play alone, or play the contract.

Where the rules have a single hand (seed 000: after all eight cards are dealt, before the
first lead, any player may declare it), the lone player leads every trick without trumps,
its partner sits out, and it must win all eight tricks: +``single_hand_points`` for its
team, minus as much at the first trick lost; the bid and any Double no longer count.

The decision is judged on layouts of what the seat knew (its eight cards and the auction;
:mod:`analysis.sampling`), every alternative on the same layouts
(:mod:`analysis.judging`), in expected game points for the seat's side:

- ``single hand``: ``single_hand_points`` times +1 on a layout where the lone player wins
  every trick against the best defence (:func:`wins_every_trick`, an exact search), -1
  elsewhere;
- ``no single hand``: the contract as it stands, ``stake x (2p - 1)`` for the caller's side
  (the stake doubled, redoubled or set) with ``p`` the chance the contract is made
  (:func:`analysis.judge.chance.contract_chance`), its negative for the defenders.

A declared single hand is judged at its action. When nobody declared, each seat that could
have is screened on its first layouts, and the one whose single hand looked likeliest is
judged at the first lead on fresh layouts, not the screened ones that picked it (one
annotation per action and kind); nobody is judged when no seat's single hand won a single
screened layout.

>>> from twentynine.replay import random_match
>>> from twentynine.schema import Rules
>>> log = random_match(Rules.preset("pagat"), seed=1)  # pagat has no single hand
>>> single_hand_deal("m", log.resolved_rules(), log.deals[0], 1, samples=4)
[]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from twentynine.analysis.annotate import Annotation
from twentynine.analysis.auction import contract_value
from twentynine.analysis.judge.chance import caller_view, contract_chance
from twentynine.analysis.judge.words import ALONE, NOT_ALONE, tell
from twentynine.analysis.judging import DealContext, Outcome, judge
from twentynine.analysis.labels import GAME_POINT_SCALE
from twentynine.analysis.models.dealing import DealingModel
from twentynine.analysis.models.others import AuctionModel
from twentynine.analysis.positions import Position, deal_positions, first_lead, full_play_rules
from twentynine.analysis.sampling import Layout
from twentynine.schema.cards import SEATS, Card, Seat, mask_of
from twentynine.schema.log import Deal
from twentynine.schema.rules import Rules

SINGLE_HAND_KINDS = frozenset({"single_hand"})
"""The kinds this module judges."""

SCREEN_SAMPLES = 16
"""Layouts each seat is screened on when nobody declared (at most ``--samples``)."""

_SUIT_MASKS = tuple(0xFF << (8 * suit) for suit in range(4))


def wins_every_trick(lone: Sequence[Card], left: Sequence[Card], right: Sequence[Card]) -> bool:
    """Whether a lone player holding ``lone`` and leading every trick without trumps wins all
    of them against opponents holding ``left`` and ``right`` who see every card.

    An exact search: the lone player chooses what to lead, the opponents choose what to
    follow with (or discard), and one card above the lead beats it.

    >>> cards = lambda text: [Card.parse(t) for t in text.split()]
    >>> wins_every_trick(cards("JS 9S JH 9H"), cards("AS TS KH QH"), cards("7S 8S 7H 8H"))
    True
    >>> wins_every_trick(cards("JS 9S 7S JH"), cards("AS TS KS QH"), cards("7D 8D 7H 8H"))
    False
    >>> wins_every_trick(cards("JS 9S 7S JH"), cards("AS TS QD QH"), cards("7D 8D 7H 8H"))
    True
    """
    return _all_tricks(mask_of(list(lone)), mask_of(list(left)), mask_of(list(right)), {})


def wins_alone(hands: Mapping[Seat, Sequence[Card | None]], seat: Seat) -> bool:
    """:func:`wins_every_trick` for ``seat`` on a layout or deal of every seat's ``hands``
    (the partner's cards sit out; an unknown card is left out).

    >>> cards = lambda text: [Card.parse(t) for t in text.split()]
    >>> hands = {Seat.N: cards("JS 9S"), Seat.E: cards("AS TS"), Seat.S: cards("7C 8C"),
    ...          Seat.W: cards("7S 8S")}
    >>> wins_alone(hands, Seat.N), wins_alone(hands, Seat.E)
    (True, False)
    """
    held = {s: [c for c in cards if c is not None] for s, cards in hands.items()}
    left, right = (s for s in SEATS if s.team is not seat.team)
    return wins_every_trick(held[seat], held.get(left, []), held.get(right, []))


def _above(card_bit: int, suit_mask: int) -> int:
    """The cards of the suit higher than the card (a lower index is a higher card)."""
    return (card_bit - 1) & suit_mask


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def _safe(lone: int, others: int) -> bool:
    """No card of ``others`` beats any card of ``lone`` in its suit: every lead wins."""
    for suit_mask in _SUIT_MASKS:
        mine = lone & suit_mask
        if mine and others & _above(1 << (mine.bit_length() - 1), suit_mask):
            return False
    return True


def _replies(hand: int, suit_mask: int, lone: int) -> list[int]:
    """The cards an opponent may play to a lead of ``suit_mask``'s suit, one of each kind:
    two cards of a suit that beat the same cards of the lone hand are interchangeable."""
    options = hand & suit_mask or hand
    seen: set[tuple[int, int]] = set()
    out = []
    for bit in _bits(options):
        suit = (bit.bit_length() - 1) >> 3
        beaten = lone & _SUIT_MASKS[suit] & ~((bit << 1) - 1)  # the lone cards below it
        key = (suit, beaten)
        if key not in seen:
            seen.add(key)
            out.append(bit)
    return out


def _all_tricks(lone: int, left: int, right: int, memo: dict[tuple[int, int, int], bool]) -> bool:
    if not lone or _safe(lone, left | right):
        return True
    key = (lone, min(left, right), max(left, right))
    known = memo.get(key)
    if known is not None:
        return known
    won = False
    for bit in _bits(lone):
        suit_mask = _SUIT_MASKS[(bit.bit_length() - 1) >> 3]
        if (left | right) & _above(bit, suit_mask):
            continue  # an opponent beats this lead
        rest = lone ^ bit
        if all(
            _all_tricks(rest, left ^ x, right ^ y, memo)
            for x in _replies(left, suit_mask, rest)
            for y in _replies(right, suit_mask, rest)
        ):
            won = True
            break
    memo[key] = won
    return won


def single_hand_deal(
    match_id: str,
    rules: Rules,
    deal: Deal,
    number: int,
    *,
    samples: int = 32,
    seed: int = 0,
    auction_model: AuctionModel | None = None,
    dealing: DealingModel | None = None,
) -> list[Annotation]:
    """The single-hand annotation of one deal (none where the rules have no single hand, the
    play never began, or nobody could reasonably have played alone); the layouts drawn by
    ``auction_model`` (None: the shipped one) and ``dealing`` (None: a fair shuffle)."""
    if not rules.single_hand:
        return []
    rules = full_play_rules(rules)
    context = DealContext(
        match_id, rules, deal, number, samples, seed, auction_model=auction_model, dealing=dealing
    )
    declared = next(
        (p for p in deal_positions(rules, deal, number) if p.action.type == "single_hand"), None
    )
    if declared is not None:
        if not _has_cards(deal, declared.action.seat):
            return []
        note = _judge_seat(context, declared, declared.action.seat, ALONE, {})
        return tell([note]) if note is not None else []
    pos = first_lead(rules, deal, number)
    if pos is None or pos.state.is_over:
        return []
    seats = [
        a.seat
        for a in pos.state.legal_actions()
        if a.type == "single_hand" and _has_cards(deal, a.seat)
    ]
    cache: dict[tuple[Seat, int], tuple[Layout, bool] | None] = {}
    screened = min(samples, SCREEN_SAMPLES)
    best_seat, best_rate = None, 0.0
    for seat in seats:
        found = [_layout(context, pos, seat, k, cache) for k in range(screened)]
        tried = [f for f in found if f is not None]
        rate = sum(won for _, won in tried) / len(tried) if tried else 0.0
        if rate > best_rate:
            best_seat, best_rate = seat, rate
    if best_seat is None:
        return []
    # Judged on fresh layouts: the screened ones picked the seat whose single hand looked
    # likeliest, and would judge it too kindly (the winner's curse).
    note = _judge_seat(context, pos, best_seat, NOT_ALONE, cache, first=screened)
    return tell([note]) if note is not None else []


def _has_cards(deal: Deal, seat: Seat) -> bool:
    return None not in (deal.hands or {}).get(seat, [None])


def _layout(
    context: DealContext,
    pos: Position,
    seat: Seat,
    k: int,
    cache: dict[tuple[Seat, int], tuple[Layout, bool] | None],
) -> tuple[Layout, bool] | None:
    """Layout ``k`` of ``seat``'s view, and whether ``seat`` would win every trick alone."""
    key = (seat, k)
    if key not in cache:
        layout = context.layout(pos.at, seat, k)
        if layout is None:
            cache[key] = None
        else:
            cache[key] = (layout, wins_alone(layout.hands, seat))
    return cache[key]


def _judge_seat(
    context: DealContext,
    pos: Position,
    seat: Seat,
    chosen: str,
    cache: dict[tuple[Seat, int], tuple[Layout, bool] | None],
    first: int = 0,
) -> Annotation | None:
    """The annotation of ``seat``'s choice, judged on its layouts from ``first`` on."""
    alone_points = context.rules.single_hand_points

    def draw(k: int) -> Outcome | None:
        found = _layout(context, pos, seat, first + k, cache)
        if found is None:
            return None
        layout, won = found
        state = layout.state.copy()
        caller = state.caller_seat
        state.end_doubling()
        if state.is_over or caller is None:
            return None
        view = caller_view(
            context.rules,
            layout.hands,
            context.deal.dealer,
            layout.actions,
            caller,
            state.seat_view().target or 0,
        )
        made = contract_chance(view, lambda: contract_value(state))
        if made is None:
            return None
        mine = caller.team is seat.team
        contract = state.stake * (2 * made - 1)
        return {
            ALONE: (alone_points * (1.0 if won else -1.0), float(won)),
            NOT_ALONE: (contract if mine else -contract, made if mine else 1 - made),
        }

    scale = GAME_POINT_SCALE * context.rules.stake
    verdict = judge(draw, chosen, context.samples, scale=scale)
    if verdict is None:
        return None
    judged = Position(pos.at, pos.action.model_copy(update={"seat": seat}), pos.state)
    return context.note(
        judged,
        "single_hand",
        "game_points",
        verdict,
        scale,
    )
