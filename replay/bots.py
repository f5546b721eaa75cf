"""Bots that play Twenty-Nine like people, seeing only what their seat could know.

A bot never sees the deal's state: the simulator builds a :class:`SeatView` for the seat on
turn (its own cards, the public actions, the cards played, the trump once that seat knows it,
and the actions the rules allow it now) and the bot picks one of ``view.legal``. Its games
are therefore legal by construction, and it cannot peek.

Three styles differ in how they bid, ask for the trump, double and declare single hand:

>>> [name for name in STYLES]
['cautious', 'balanced', 'aggressive']
>>> STYLES["cautious"].bid_margin < STYLES["aggressive"].bid_margin
True
>>> from twentynine.schema import Card
>>> round(hand_estimate([Card.parse(c) for c in ("JH", "9H", "AH", "7S")]), 1)
20.0
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final, Literal, NamedTuple

from twentynine.replay.deal import DealState, DealView, PlayedCard
from twentynine.schema.cards import ALL_CARDS, SEATS, Card, Rank, Seat, Suit
from twentynine.schema.log import (
    Action,
    BidAction,
    DittoAction,
    DoubleAction,
    PassAction,
    PlayAction,
    RedealAction,
    RedoubleAction,
    SetAction,
    ShowAction,
    TrumpAction,
)
from twentynine.schema.rules import Rules

Stage = Literal["auction", "trump", "double", "single_hand", "pair", "play"]
"""What a seat is asked to decide: the auction, the trump, the doubling ladder (double,
redouble, set), single hand, the Pair, or its turn in the play (a card, or the show)."""


class SeatView(NamedTuple):
    """What one seat could know when it must decide; the only input a bot gets.

    Read-only (a named tuple: one is made at every decision, so it is cheap to make).

    ``hand`` is the seat's own cards still held (the first four until the second four are
    dealt); ``history`` the deal's actions so far, with the trump choice stripped of its
    suit and card for everyone but the caller until the show; ``trump`` the trump suit
    once this seat knows it; ``legal`` the actions the rules allow this seat now.
    """

    seat: Seat
    stage: Stage
    rules: Rules
    dealer: Seat
    order: tuple[Seat, ...]
    hand: tuple[Card, ...]
    history: tuple[Action, ...]
    standing: tuple[Seat, int] | None
    caller: Seat | None
    call: int
    target: int
    doubled: int
    seventh: bool
    trump: Suit | None
    face_down: Card | None
    shown: bool
    asker: Seat | None
    pair: Seat | None
    single: Seat | None
    tricks: tuple[tuple[PlayedCard, ...], ...]
    winners: tuple[Seat, ...]
    trick: tuple[PlayedCard, ...]
    points: tuple[int, int]
    legal: tuple[Action, ...]

    @property
    def position(self) -> int:
        """The seat's position from the dealer: 0 for P1 ... 3 for the dealer."""
        return self.order.index(self.seat)


def seat_view(
    state: DealState,
    seat: Seat,
    history: Sequence[Action],
    stage: Stage,
    known: DealView | None = None,
    redacted: Sequence[Action] | None = None,
    legal: tuple[Action, ...] | None = None,
) -> SeatView:
    """The view of ``seat`` deciding at ``stage``, built from the state and the public actions.

    ``history`` is the deal's actions applied so far (``redacted``, when the caller keeps
    it: the same as the others see them, :func:`redact`). What the seat knows comes from the
    engine's own :meth:`~replay.deal.DealState.seat_view` (``known``, when the caller has
    just made it for this seat); the rest is what the table has seen, and the actions the
    rules allow this seat at this stage (``legal``, when the caller has them:
    :func:`legal_at`).

    >>> from twentynine.schema import Rules, Seat
    >>> state = DealState(Rules.preset("pagat"), Seat.N)
    >>> view = seat_view(state, Seat.E, [], "auction")
    >>> view.position, view.trump, len(view.legal)
    (0, None, 15)
    """
    if known is None:
        known = state.seat_view(seat)
    caller = known.caller
    shown = known.shown
    if caller is seat or shown:
        public = tuple(history)
    else:
        public = tuple(redacted) if redacted is not None else tuple(map(redact, history))
    if legal is None:
        legal = legal_at(state, seat, stage)
    # SeatView's fields in their order, without the keyword parsing: one is made at every
    # decision of every play-out (tests/test_replay_bots.py checks each field by name)
    return _new_view(
        SeatView,
        (
            seat,
            stage,
            state.rules,
            known.dealer,
            known.order,
            known.hand,
            public,
            known.standing,
            caller,
            known.call or 0,
            known.target or 0,
            known.doubled,
            known.seventh,
            known.trump,
            known.face_down,
            shown,
            known.asker,
            known.pair,
            known.single,
            known.tricks,
            known.winners,
            known.trick,
            known.points,
            legal,
        ),
    )


_new_view: Final = tuple.__new__


def legal_at(state: DealState, seat: Seat, stage: Stage) -> tuple[Action, ...]:
    """The actions the rules allow ``seat`` now that belong to ``stage``.

    >>> from twentynine.schema import Rules, Seat
    >>> len(legal_at(DealState(Rules.preset("pagat"), Seat.N), Seat.E, "auction"))
    15
    """
    stage_of = _STAGE_OF
    return tuple([a for a in state.legal_actions(seat) if stage_of[a.type] == stage])


_STAGE_OF: Final[dict[str, Stage]] = {
    "bid": "auction",
    "pass": "auction",
    "ditto": "auction",
    "redeal": "auction",
    "trump": "trump",
    "double": "double",
    "redouble": "double",
    "set": "double",
    "single_hand": "single_hand",
    "pair": "pair",
    "show": "play",
    "play": "play",
}


def redact(action: Action) -> Action:
    """``action`` as the seats other than its own see it before the show: a trump choice
    without its suit."""
    if isinstance(action, TrumpAction):
        return _hidden_trump(action.seat, action.seventh)
    return action


@cache
def _hidden_trump(seat: Seat, seventh: bool | None) -> TrumpAction:
    """The trump choice as the other seats see it: who chose, and whether the seventh card."""
    return TrumpAction.model_construct(seat=seat, seventh=seventh, type="trump")


class Choice(NamedTuple):
    """A bot's decision: the action, and a short reason (a note for the log, when wanted)."""

    action: Action
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class Style:
    """A playing style: the numbers behind a bot's tendencies.

    ``bid_margin`` is added to the hand's estimated worth before bidding; ``ask_rate`` is
    how often a defender who cannot follow asks for the trump when the opponents are
    winning the trick; ``double_at`` is the defensive strength needed to Double (lower
    doubles more); ``seventh_below`` the best suit value under which the caller takes the
    seventh card; ``single_losers`` the losers a single hand may carry.
    """

    name: str
    bid_margin: float
    bid_noise: float
    jump: float
    ask_rate: float
    ask_points: int
    caller_show_points: int
    double_at: float
    redouble_margin: float
    seventh_below: float
    single_losers: int


STYLES: Final[dict[str, Style]] = {
    "cautious": Style(
        name="cautious",
        bid_margin=-1.3,
        bid_noise=0.6,
        jump=0.0,
        ask_rate=0.45,
        ask_points=1,
        caller_show_points=2,
        double_at=11.0,
        redouble_margin=4.0,
        seventh_below=2.0,
        single_losers=0,
    ),
    "balanced": Style(
        name="balanced",
        bid_margin=-0.3,
        bid_noise=0.8,
        jump=0.15,
        ask_rate=0.75,
        ask_points=0,
        caller_show_points=1,
        double_at=9.5,
        redouble_margin=2.5,
        seventh_below=3.0,
        single_losers=0,
    ),
    "aggressive": Style(
        name="aggressive",
        bid_margin=1.0,
        bid_noise=1.0,
        jump=0.35,
        ask_rate=0.95,
        ask_points=0,
        caller_show_points=0,
        double_at=7.5,
        redouble_margin=1.5,
        seventh_below=4.0,
        single_losers=1,
    ),
}
STYLE_NAMES: Final[tuple[str, ...]] = tuple(STYLES)

# What a card is worth towards the call, as trump and as a side card (four-card hand).
_TRUMP_WORTH: Final[dict[Rank, float]] = {
    Rank.JACK: 3.0,
    Rank.NINE: 2.4,
    Rank.ACE: 1.6,
    Rank.TEN: 1.4,
    Rank.KING: 1.0,
    Rank.QUEEN: 1.0,
    Rank.EIGHT: 0.9,
    Rank.SEVEN: 0.9,
}
_SIDE_WORTH: Final[dict[Rank, float]] = {
    Rank.JACK: 1.5,
    Rank.NINE: 0.5,
    Rank.ACE: 0.4,
    Rank.TEN: 0.3,
    Rank.KING: 0.0,
    Rank.QUEEN: 0.0,
    Rank.EIGHT: 0.0,
    Rank.SEVEN: 0.0,
}
# Fitted on self-play (the caller's side's card points against its best suit's value).
_BASE_ESTIMATE: Final = 11.0
_VALUE_SCALE: Final = 1.28


def suit_value(cards: Sequence[Card], suit: Suit) -> float:
    """How much the cards are worth with ``suit`` as trump (the suit's length and honours).

    >>> suit_value([Card.parse("JH"), Card.parse("7H"), Card.parse("JS")], Suit.HEARTS)
    5.4
    """
    return sum(_TRUMP_WORTH[c.rank] if c.suit is suit else _SIDE_WORTH[c.rank] for c in cards)


def best_suit(cards: Sequence[Card]) -> tuple[Suit, float]:
    """The suit the cards are worth most with as trump, and that worth (ties: S H D C)."""
    best = max(Suit, key=lambda s: (suit_value(cards, s), -s.index))
    return best, suit_value(cards, best)


def hand_estimate(cards: Sequence[Card]) -> float:
    """The card points a side can expect to take when this four-card hand names the trump."""
    return _BASE_ESTIMATE + _VALUE_SCALE * best_suit(cards)[1]


def defence_value(cards: Sequence[Card]) -> float:
    """A defender's strength against the call: card points, more for jacks and nines."""
    # Two sums kept apart, the card points whole: a loop that mypyc compiles as it reads
    # (a float sum() beside an int one is typed an int there)
    points = 0
    more = 0.0
    for c in cards:
        points += c.points
        if c.rank is Rank.JACK:
            more += 1.5
        elif c.rank is Rank.NINE:
            more += 0.5
    return points + more


def _suit_name(suit: Suit) -> str:
    return {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[suit.value]


def _cards_text(cards: Sequence[Card]) -> str:
    return " ".join(c.text for c in cards)


class Bot:
    """A player of one :class:`Style`. ``decide`` picks among ``view.legal`` only.

    >>> from twentynine.schema import Rules, Seat
    >>> state = DealState(Rules.preset("standard"), Seat.N, {Seat.E: [Card.parse(c) for c in
    ...     ("JH", "9H", "AH", "TH", "7S", "8S", "7C", "8C")]})
    >>> choice = Bot("balanced").decide(seat_view(state, Seat.E, [], "auction"), random.Random(1))
    >>> choice.action.type, choice.action.value >= 15
    ('bid', True)
    """

    __slots__ = ("style",)

    def __init__(self, style: str | Style = "balanced") -> None:
        self.style = STYLES[style] if isinstance(style, str) else style

    @staticmethod
    def forced(legal: Sequence[Action]) -> Choice | None:
        """The decision that needs no view, or None: a lone legal card is played.

        >>> from twentynine.schema import Seat
        >>> Bot.forced([PlayAction(seat=Seat.N, card=Card.parse("JS"))]).action.type
        'play'
        """
        if len(legal) == 1 and isinstance(legal[0], PlayAction):
            return Choice(legal[0])  # what every branch of the play picks
        return None

    def decide(self, view: SeatView, rng: random.Random) -> Choice | None:
        """The seat's decision, or None to decline an optional one (double, single, Pair)."""
        if not view.legal:
            return None
        if view.stage == "play":
            forced = self.forced(view.legal)
            return forced if forced is not None else _Play(view, self.style, rng).choose()
        if view.stage == "auction":
            return self._auction(view, rng)
        if view.stage == "trump":
            return self._trump(view, rng)
        if view.stage == "double":
            return self._ladder(view, rng)
        if view.stage == "single_hand":
            return self._single_hand(view)
        if view.stage == "pair":
            return self._pair(view)
        return _Play(view, self.style, rng).choose()

    # ------------------------------------------------------------------ auction
    def _auction(self, view: SeatView, rng: random.Random) -> Choice:
        style = self.style
        rules = view.rules
        bids = [a for a in view.legal if isinstance(a, BidAction)]
        passes = [a for a in view.legal if isinstance(a, PassAction)]
        if not passes:
            return Choice(bids[0] if bids else view.legal[0])  # the dealer's forced call
        redeal = [a for a in view.legal if isinstance(a, RedealAction)]
        if redeal and style.name != "aggressive":
            return Choice(redeal[0], "no points in the first four: asks for a new deal")
        worth = hand_estimate(view.hand) + style.bid_margin
        worth += rng.uniform(-style.bid_noise, style.bid_noise)
        partner = view.seat.partner
        spoken = [a for a in view.history if a.seat is partner and a.type in ("bid", "ditto")]
        if spoken:
            worth += 1.5
        if view.standing is None:
            worth += 0.5  # opening at the minimum is cheap: someone must
        limit = min(int(worth), rules.max_bid)
        standing = view.standing
        if standing is not None and standing[0] is partner and limit < standing[1] + 2:
            return Choice(passes[0])
        ditto = [a for a in view.legal if isinstance(a, DittoAction)]
        if ditto and standing is not None and standing[1] <= limit:
            return Choice(ditto[0])
        lowest = min((b.value for b in bids), default=rules.max_bid + 1)
        if lowest > limit:
            return Choice(passes[0])
        value = lowest
        reason = None
        if rules.bidding == "single_round":
            value = limit
        elif limit >= value + 2 and rng.random() < style.jump:
            value = rng.randint(value + 1, limit)
            reason = f"jumps to {value} holding {_cards_text(view.hand)}"
        return Choice(next(b for b in bids if b.value == value), reason)

    # ------------------------------------------------------------------ trump
    def _trump(self, view: SeatView, rng: random.Random) -> Choice:
        hand = view.hand
        choices = [a for a in view.legal if isinstance(a, TrumpAction)]
        seventh = [a for a in choices if a.seventh]
        suit, worth = best_suit(hand)
        if seventh and worth < self.style.seventh_below:
            return Choice(
                seventh[0], f"takes the seventh card: nothing to name in {_cards_text(hand)}"
            )
        named = [a for a in choices if a.suit is suit and a.mode is None]
        if not named:
            plain = [a for a in choices if a.suit is not None and a.mode is None]
            return Choice(plain[0] if plain else choices[0])
        if len(named) > 1:  # own card as marker: the lowest trump goes face down
            action = min(named, key=lambda a: a.card.strength if a.card is not None else 9)
        else:
            action = named[0]
        length = sum(1 for c in hand if c.suit is suit)
        reason = f"names {_suit_name(suit)}: {length} of {len(hand)} cards"
        return Choice(action, reason)

    # ------------------------------------------------------------------ doubling
    def _ladder(self, view: SeatView, rng: random.Random) -> Choice | None:
        style = self.style
        rules = view.rules
        caller = view.caller
        assert caller is not None
        pressure = 0.6 * (view.call - rules.min_bid)
        noise = rng.uniform(-0.75, 0.75)
        for action in view.legal:
            if isinstance(action, DoubleAction):
                strength = defence_value(view.hand) + pressure + noise
                if strength >= style.double_at:
                    return Choice(action, f"doubles {view.call} holding {_cards_text(view.hand)}")
            elif isinstance(action, RedoubleAction):
                if view.seat is caller:
                    margin = hand_estimate(view.hand) - view.call + noise
                else:
                    margin = defence_value(view.hand) - 6.0 + noise
                if margin >= style.redouble_margin:
                    return Choice(action, "redoubles: the call is safe")
            elif isinstance(action, SetAction):
                strength = defence_value(view.hand) + pressure + noise
                if strength >= style.double_at + 3.0:
                    return Choice(action, "answers the redouble with Set")
        return None

    # ------------------------------------------------------------------ single hand
    def _single_hand(self, view: SeatView) -> Choice | None:
        losers = single_hand_losers(view.hand)
        if losers <= self.style.single_losers:
            return Choice(view.legal[0], f"plays alone: {_cards_text(view.hand)}")
        return None

    # ------------------------------------------------------------------ Pair
    def _pair(self, view: SeatView) -> Choice | None:
        rules = view.rules
        caller = view.caller
        if caller is None:
            return None
        ours = caller.team is view.seat.team
        if ours and view.call < rules.pair_lowers_from_call:
            return None  # it would not lower our target; keep the cards quiet
        moves = "lowers our target" if ours else "raises their target"
        return Choice(view.legal[0], f"shows the Pair: {moves}")


def single_hand_losers(hand: Sequence[Card]) -> int:
    """Cards that would not surely win when leading every trick without trumps.

    A card is a sure winner when every higher card of its suit is in the hand; a long
    suit forgives one gap when the opponents are likely to run out of it.

    >>> solid = ("JS", "9S", "AS", "JH", "9H", "JD", "JC", "9C")
    >>> single_hand_losers([Card.parse(c) for c in solid])
    0
    """
    losers = 0
    for suit in Suit:
        mine = sorted((c for c in hand if c.suit is suit), key=lambda c: -c.strength)
        for place, card in enumerate(mine):
            above = 7 - card.strength
            if above > place:
                gaps = above - place
                forgiven = 1 if len(mine) >= 5 and gaps == 1 else 0
                losers += 1 - forgiven if gaps == 1 else 1
    return losers


# ---------------------------------------------------------------------- play
# A card's index is its suit's times 8 plus its rank from the top (JS 0, 9S 1, ... 7C 31):
# the cards above one in its suit are the bits between its suit's first and its own.
_ABOVE: Final[tuple[int, ...]] = tuple(
    ((1 << c.index) - 1) & ~((1 << c.suit.index * 8) - 1) for c in ALL_CARDS
)
_SUIT_MASK: Final[dict[Suit, int]] = {suit: 0xFF << suit.index * 8 for suit in Suit}
_OPPONENTS: Final[dict[Seat, tuple[Seat, ...]]] = {
    seat: tuple(s for s in SEATS if s.team is not seat.team) for seat in SEATS
}


# The finished tricks last asked about and their cards' mask: the engine hands out the same
# tuple until the next trick ends, so the seats deciding in between reuse the mask. One
# pair, swapped whole, so that threads never read a mask beside another deal's tricks.
_LAST_FINISHED: Final[list[tuple[object, int]]] = [((), 0)]


def _finished_mask(tricks: tuple[tuple[PlayedCard, ...], ...]) -> int:
    """The mask of the cards in ``tricks``."""
    last = _LAST_FINISHED[0]
    if last[0] is tricks:
        return last[1]
    played = 0
    for trick in tricks:
        for _, card in trick:
            played |= card.mask
    _LAST_FINISHED[0] = (tricks, played)
    return played


class _Play:
    """One play decision: a card, or the show. Works on what ``view`` shows."""

    __slots__ = (
        "_after",
        "_voids",
        "counts",
        "hand",
        "led",
        "rng",
        "style",
        "trump",
        "unseen",
        "view",
    )

    def __init__(self, view: SeatView, style: Style, rng: random.Random) -> None:
        self.view = view
        self.style = style
        self.rng = rng
        self.hand = view.hand
        self.trump = view.trump
        # True when trumps win tricks now (shown, or shown in this trick by my asking)
        self.counts = view.shown and view.trump is not None
        played = _finished_mask(view.tricks)
        for _, card in view.trick:
            played |= card.mask
        mine = 0
        for card in self.hand:
            mine |= card.mask
        self.unseen = 0xFFFFFFFF & ~played & ~mine
        self._voids: dict[Seat, set[Suit]] | None = None
        self.led = view.trick[0][1].suit if view.trick else None
        self._after: list[Seat] | None = None

    # --- helpers
    @property
    def voids(self) -> dict[Seat, set[Suit]]:
        """The suits each seat has shown it lacks (worked out when first asked: most
        decisions never need them)."""
        if self._voids is None:
            voids: dict[Seat, set[Suit]] = {seat: set() for seat in SEATS}
            for trick in (*self.view.tricks, self.view.trick):
                if not trick:
                    continue
                led = trick[0][1].suit
                for seat, card in trick:
                    if card.suit is not led:
                        voids[seat].add(led)
            self._voids = voids
        return self._voids

    def _winning(self) -> tuple[Seat, Card] | None:
        trick = self.view.trick
        if not trick:
            return None
        trump = self.trump if self.counts else None
        led = trick[0][1].suit
        best: tuple[Seat, Card] | None = None
        best_key = -1
        for seat, card in trick:
            if card.suit is trump:
                key = 16 + card.strength
            elif card.suit is led:
                key = card.strength
            else:
                continue
            if key > best_key:
                best_key, best = key, (seat, card)
        return best

    @staticmethod
    def _beats(card: Card, other: Card, trump: Suit | None) -> bool:
        if card.suit is other.suit:
            return card.strength > other.strength
        return card.suit is trump

    def _master(self, card: Card) -> bool:
        """No card of the suit still unseen by this seat is higher."""
        return not self.unseen & _ABOVE[card.index]

    def _still_to_play(self) -> list[Seat]:
        if self._after is None:  # asked up to three times a decision
            self._after = self._seats_after()
        return self._after

    def _seats_after(self) -> list[Seat]:
        order = self.view.order
        trick_seats = {seat for seat, _ in self.view.trick}
        sitting_out = self.view.single.partner if self.view.single is not None else None
        i = order.index(self.view.seat)
        after = [order[(i + k) % 4] for k in range(1, 4)]
        return [s for s in after if s not in trick_seats and s is not sitting_out]

    def _opponents_after(self) -> list[Seat]:
        opponents = _OPPONENTS[self.view.seat]
        return [s for s in self._still_to_play() if s in opponents]

    def _trick_points(self) -> int:
        return sum(card.points for _, card in self.view.trick)

    @staticmethod
    def _low_key(card: Card) -> tuple[int, int]:
        return (card.points, card.strength)

    # --- the decision
    def choose(self) -> Choice:
        view = self.view
        shows: list[ShowAction] = []
        plays: list[PlayAction] = []
        for action in view.legal:  # one pass: this runs at every card of every play-out
            if isinstance(action, PlayAction):
                plays.append(action)
            elif isinstance(action, ShowAction):
                shows.append(action)
        if shows:
            if not plays:
                return Choice(shows[0])  # compulsory
            if self._wants_show():
                return Choice(shows[0], self._show_reason())
        if not plays:
            return Choice(view.legal[0])
        cards = [a.card for a in plays]
        if not view.trick:
            card = self._lead(cards)
        elif self.led is not None and any(c.suit is self.led for c in cards):
            card = self._follow(cards)
        else:
            card = self._discard(cards)
        return Choice(next(a for a in plays if a.card is card))

    def _show_reason(self) -> str | None:
        if self.view.seat is self.view.caller:
            return "shows the trump to ruff"
        return None

    def _wants_show(self) -> bool:
        view = self.view
        win = self._winning()
        opponent_winning = win is not None and win[0].team is not view.seat.team
        points = self._trick_points()
        if view.seat is view.caller:
            trumps = [c for c in self.hand if c.suit is self.trump]
            if not trumps or not opponent_winning:
                return False
            return points >= self.style.caller_show_points
        if not opponent_winning:
            return False
        if points < self.style.ask_points:
            return False
        return self.rng.random() < self.style.ask_rate

    def _lead(self, cards: list[Card]) -> Card:
        view = self.view
        trump = self.trump
        ours = view.caller is not None and view.caller.team is view.seat.team
        if trump is not None and ours and (view.shown or view.seat is view.caller):
            trumps = [c for c in cards if c.suit is trump]
            out = self.unseen & _SUIT_MASK[trump]  # a trump still unseen
            if trumps and out:
                top = max(trumps, key=lambda c: c.strength)
                if self._master(top):
                    return top
        cash = [
            c
            for c in cards
            if c.suit is not trump and c.points and self._master(c) and self._safe_lead(c.suit)
        ]
        if cash:
            return max(cash, key=lambda c: (c.points, c.strength))
        plain = [c for c in cards if c.suit is not trump or not ours] or cards
        length = {s: sum(1 for c in self.hand if c.suit is s) for s in Suit}
        # lead low from a long suit; keep a lone point card out of the opponents' reach
        return min(
            plain,
            key=lambda c: (c.points, not self._safe_lead(c.suit), -length[c.suit], c.strength),
        )

    def _safe_lead(self, suit: Suit) -> bool:
        if not self.counts or suit is self.trump:
            return True
        voids = self.voids
        return not any(suit in voids[s] for s in _OPPONENTS[self.view.seat])

    def _follow(self, cards: list[Card]) -> Card:
        led = self.led
        suited = [c for c in cards if c.suit is led]
        win = self._winning()
        assert win is not None
        win_seat, win_card = win
        live = self.trump if self.counts else None
        beaters = [c for c in suited if self._beats(c, win_card, live)]
        opponents_after = self._opponents_after()
        last = not self._still_to_play()
        if win_seat.team is self.view.seat.team:
            safe = last or (
                self._master(win_card)
                and not (self.counts and any(led in self.voids[s] for s in opponents_after))
            )
            if safe:
                gifts = [c for c in suited if c.points and c.rank is not Rank.JACK]
                if gifts:
                    return max(gifts, key=lambda c: (c.points, -c.strength))
            return min(suited, key=self._low_key)
        if beaters:
            cheapest = min(beaters, key=lambda c: (c.strength, c.points))
            if last:
                return cheapest
            masters = [c for c in beaters if self._master(c)]
            threatened = self.counts and any(led in self.voids[s] for s in opponents_after)
            if masters and not threatened:
                return min(masters, key=lambda c: c.strength)
            if self._trick_points() >= 2 and not threatened:
                return cheapest
        return min(suited, key=self._low_key)

    def _discard(self, cards: list[Card]) -> Card:
        view = self.view
        trump = self.trump
        win = self._winning()
        # Where the trump shows itself at the first failure to follow, the caller's
        # discard is a trump that counts.
        trumps_count = self.counts or (
            view.rules.show_trump == "automatic" and trump is not None and view.single is None
        )
        if win is not None and win[0].team is not view.seat.team:
            if trumps_count and trump is not None:
                ruffs = [c for c in cards if c.suit is trump and self._beats(c, win[1], trump)]
                if ruffs and (self._trick_points() >= 1 or not self._opponents_after()):
                    return min(ruffs, key=lambda c: c.strength)
        elif win is not None and (not self._opponents_after() or self._master(win[1])):
            gifts = [c for c in cards if c.points and c.suit is not trump and not self._master(c)]
            if gifts:
                return max(gifts, key=lambda c: (c.points, -c.strength))
        rest = [c for c in cards if c.suit is not trump] or cards
        return min(rest, key=lambda c: (c.points, self._master(c), c.strength))
