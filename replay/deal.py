"""The state of one deal: auction, trump, doubling, single hand, show, tricks, Pair, result.

:class:`DealState` is built from the rules, the dealer and the hands (any card may be
unknown), changes only through :meth:`DealState.apply`, and answers ``legal_actions()``,
``current_seat``, ``is_over`` and ``outcome``. Each rule is one ``_rule_*`` method that returns
``(code, message)`` when an action breaks it and None otherwise; ``legal_actions`` filters
candidates with those same methods and ``apply`` records a :class:`~replay.findings.Finding`
for each breach, then carries on as the table would.

>>> from schema import Card, Rules, Seat
>>> from schema.log import BidAction, PassAction
>>> deal = DealState(Rules.preset("pagat"), Seat.N)
>>> deal.current_seat, [str(a.type) for a in deal.legal_actions()][:3]
(<Seat.E: 'E'>, ['pass', 'bid', 'bid'])
>>> deal.apply(BidAction(seat=Seat.S, value=15))[0].message
"S bid 15 but it is E's turn to speak"
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple

from replay._tables import (
    CARD_POINTS,
    KING_PLACE,
    NO_SUIT,
    QUEEN_PLACE,
    SCORING_MASK,
    SEAT_NUM,
    SEVEN_PLACE,
    SUIT_MASK,
    SUIT_NAME,
    SUIT_NUM,
    TEAM_NUM,
    TEAM_OF,
    TEAMS,
    UNKNOWN_SUIT,
    card_text,
    mask_points,
)
from replay.findings import Finding, make_finding
from schema.cards import ALL_CARDS, SEATS, SUITS, Card, Direction, Seat, Suit, Team
from schema.fastlog import (
    FastAction,
    FastBid,
    FastDitto,
    FastDouble,
    FastPair,
    FastPass,
    FastPlay,
    FastRedeal,
    FastRedouble,
    FastSet,
    FastShow,
    FastSingleHand,
    FastTrump,
)
from schema.log import (
    Action,
    BidAction,
    DittoAction,
    DoubleAction,
    PairAction,
    PassAction,
    PlayAction,
    RedealAction,
    RedoubleAction,
    SetAction,
    ShowAction,
    SingleHandAction,
    TrumpAction,
)
from schema.rules import Rules

AnyAction = Action | FastAction
"""An action as the models or the fast decoder (:mod:`schema.fastlog`) read it."""

AUCTION: Final = 0
TRUMP: Final = 1
PLAY: Final = 2

BID: Final = 0
PASS: Final = 1
DITTO: Final = 2

MODE_NORMAL: Final = 0
MODE_NO_TRUMP: Final = 1
MODE_REVERSE: Final = 2

THROWN_IN_REASONS: Final[tuple[str, ...]] = (
    "zero_point",
    "redeal",
    "all_pass",
    "seventh_no_scoring_trump",
    "opponents_no_trump",
    "never_shown",
)
"""The throw-in reasons the engine gives, as written in ``DealFacts.thrown_in``."""

_FULL_DEAL_REASONS: Final = frozenset({"seventh_no_scoring_trump", "opponents_no_trump"})

Breach = tuple[str, str]
"""A rule breach: (finding code, message)."""
SeatRule = Callable[[int], Breach | None]


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """How a finished deal ends: throw-in reason, card points, made or not, score change.

    ``made`` is None for a thrown-in deal; ``score_change`` moves only the caller's team.
    """

    thrown_in: str | None
    points: dict[Team, int]
    made: bool | None
    score_change: dict[Team, int]


Phase = Literal["auction", "trump", "play"]
"""A deal's phase: the auction, the caller's trump choice, or the play (doubling included)."""

PlayedCard = tuple[Seat, Card]
"""A card on the table and the seat that played it."""

Trick = tuple[int, tuple[int, ...], tuple[int, ...], int, int]
"""A finished trick as the engine keeps it: leader, seats, cards, winner, points (numbers)."""


class DealView(NamedTuple):
    """What one seat may know of a deal at one moment, made by :meth:`DealState.seat_view`.

    A detached, read-only snapshot (a named tuple, cheap to make at every decision). Bots,
    viewers and tools read a deal through it and through ``legal_actions``, ``current_seat``,
    ``hand``, ``trump_status``, ``phase_name`` and ``order``, so the state's own bookkeeping
    may change freely. With ``seat`` None it is an onlooker's view: the public facts only
    (no hand; the trump once shown).

    - ``phase`` and ``to_act``: as ``DealState.phase_name`` and ``current_seat``;
      ``order`` the seats P1, P2, P3, P4 (the dealer last).
    - ``hand``: the seat's own recorded cards still held, in the order dealt: the first
      four until the second four are dealt (``second_dealt``), then all. The caller's
      face-down card is among them.
    - ``standing``: the standing bid, then the call: (seat, value). ``caller``, ``call``,
      ``target`` (the call moved by any Pair) are None before the auction ends.
    - ``doubled``: 0, 1, 2, 3 for none, Double, Redouble, Set; ``doubling_open`` while a
      Double, Redouble or Set may still be said.
    - ``trump``: the trump suit once this seat knows it: shown to all, or the caller's own
      choice (the seventh card's only once the second four are dealt); None otherwise,
      and for no trump or a single hand. ``face_down`` the caller's face-down trump card, for
      the caller who knows it, until the show.
    - ``shown``, ``asker``: the show and who asked (or showed); ``pair`` who showed the
      Pair; ``single`` the single-hand player.
    - ``tricks`` the finished tricks (cards in the order played) and ``winners`` theirs;
      ``trick`` the cards on the table and ``led`` their suit; ``points`` the card points
      taken so far, NS then EW.
    """

    seat: Seat | None
    phase: Phase
    dealer: Seat
    order: tuple[Seat, Seat, Seat, Seat]
    to_act: Seat | None
    hand: tuple[Card, ...]
    second_dealt: bool
    standing: tuple[Seat, int] | None
    caller: Seat | None
    call: int | None
    target: int | None
    doubled: int
    doubling_open: bool
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
    led: Suit | None
    points: tuple[int, int]


_PHASES: Final[tuple[Phase, Phase, Phase]] = ("auction", "trump", "play")


def _trick_cards(seats: Sequence[int], cards: Sequence[int]) -> tuple[PlayedCard, ...]:
    return tuple([(SEATS[s], ALL_CARDS[c]) for s, c in zip(seats, cards, strict=True)])


def _said(kind: int, value: int) -> str:
    """What a seat said in the auction, for a finding's message."""
    return f"bid {value}" if kind == BID else ("passed" if kind == PASS else "said ditto")


def _seat_list(dealer: int, step: int) -> tuple[int, int, int, int]:
    """Seat numbers of P1, P2, P3, P4 (the dealer) in the direction of play."""
    p1 = (dealer + step) % 4
    return (p1, (p1 + step) % 4, (p1 + 2 * step) % 4, dealer)


def _positions(order: tuple[int, int, int, int]) -> tuple[int, ...]:
    """Per seat number, its position 0 (P1) .. 3 (the dealer)."""
    pos = [0, 0, 0, 0]
    for i, seat in enumerate(order):
        pos[seat] = i
    return tuple(pos)


# [dealer * 4 + step] -> (P1..P4, positions by seat), shared by every deal; step is 1
# (clockwise) or 3 (counter-clockwise), the other entries are never read.
_ORDERS: Final = tuple(
    (_seat_list(d, step), _positions(_seat_list(d, step))) for d in range(4) for step in range(4)
)
# By trump + 1 (unknown, the four suits, no trump): the trump King and Queen, whose fall
# can change which side may still show the Pair
_PAIR_CARDS: Final[tuple[tuple[int, ...], ...]] = (
    (),
    *((suit * 8 + KING_PLACE, suit * 8 + QUEEN_PLACE) for suit in range(4)),
    (),
)
_NOT_DEALT: Final = [-1] * 8  # the row of a seat whose cards were not recorded; never changed


def _suit_letter(suit: int) -> str:
    return SUITS[suit].value if 0 <= suit < 4 else "?"


def _keys(reverse: bool) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Trick-winning keys: [trump + 1][suit led][card] -> key (0: cannot win the trick)."""
    out = []
    for trump in range(-1, 4):
        per_led = []
        for led in range(4):
            row = []
            for c in range(32):
                strength = (c & 7) if reverse else 7 - (c & 7)
                if c >> 3 == trump:
                    row.append(17 + strength)
                elif c >> 3 == led:
                    row.append(1 + strength)
                else:
                    row.append(0)
            per_led.append(tuple(row))
        out.append(tuple(per_led))
    return tuple(out)


_CLOCKWISE: Final = Direction.CLOCKWISE
_KEYS: Final = _keys(False)
_REVERSE_KEYS: Final = _keys(True)

# Shared action instances for legal_actions: models are frozen, so sharing them is safe and
# saves building (and validating) thousands of models per random game.
_PLAYS: Final = tuple(
    tuple(PlayAction.model_construct(seat=seat, card=card, type="play") for card in ALL_CARDS)
    for seat in SEATS
)
_PASSES: Final = tuple(PassAction.model_construct(seat=seat, type="pass") for seat in SEATS)
_DITTOS: Final = tuple(DittoAction.model_construct(seat=seat, type="ditto") for seat in SEATS)
_BIDS: Final = tuple(
    tuple(BidAction.model_construct(seat=seat, value=v, type="bid") for v in range(30))
    for seat in SEATS
)
_SHOWS: Final = tuple(ShowAction.model_construct(seat=seat, type="show") for seat in SEATS)
_PAIRS: Final = tuple(PairAction.model_construct(seat=seat, type="pair") for seat in SEATS)
_DOUBLES: Final = tuple(DoubleAction.model_construct(seat=seat, type="double") for seat in SEATS)
_REDOUBLES: Final = tuple(
    RedoubleAction.model_construct(seat=seat, type="redouble") for seat in SEATS
)
_SETS: Final = tuple(SetAction.model_construct(seat=seat, type="set") for seat in SEATS)
_SINGLES: Final = tuple(
    SingleHandAction.model_construct(seat=seat, type="single_hand") for seat in SEATS
)
_REDEALS: Final = tuple(RedealAction.model_construct(seat=seat, type="redeal") for seat in SEATS)


STATE_FIELDS: Final = (
    "_after_end_reported",
    "_bonus",
    "_dir",
    "_partial_reported",
    "_trump_unknown_reported",
    "_viewed_tricks",
    "asker",
    "asker_must",
    "call",
    "caller",
    "consec",
    "dealer",
    "dealt",
    "decided",
    "doubled",
    "face_down",
    "face_down_unknown",
    "fast",
    "fast_block",
    "fast_decide",
    "fast_discard",
    "fast_size",
    "fast_skip",
    "findings",
    "first_revoke_team",
    "forced",
    "hard_end",
    "held",
    "hidden_at_deal",
    "high_pos",
    "high_value",
    "junior",
    "known",
    "ladder_open",
    "last_winner",
    "led",
    "n_actions",
    "n_spoken",
    "number",
    "p",
    "pair_seat",
    "pairs",
    "passed",
    "passes",
    "pending",
    "phase",
    "played",
    "played_by",
    "points",
    "points_uncertain",
    "pos_of",
    "possible_throw_in",
    "rules",
    "score_before",
    "second_dealt",
    "senior",
    "seventh",
    "seventh_turn",
    "show_action",
    "show_trick",
    "shown",
    "side_won_after_show",
    "single",
    "single_lost",
    "single_open",
    "spoken",
    "target",
    "thrown_in",
    "to_play",
    "to_speak",
    "trick_cards",
    "trick_no",
    "trick_seats",
    "tricks",
    "trump",
    "trump_cands",
    "trump_done",
    "trump_mode",
    "unknown",
    "unresolved",
)
"""Every attribute of a :class:`DealState`: what :meth:`DealState.copy` copies."""


class DealState:
    """One deal under one set of rules, from the first four cards to the result.

    ``hands`` maps a seat to its eight cards in the order dealt (the first four are the
    bidding hand); a card may be None and a seat may be missing (all unknown). ``number``
    is the deal's 1-based number in its match, used in findings; ``score`` the match score
    before the deal (kept for views; no rule depends on it).

    >>> from schema import Rules, Seat
    >>> DealState(Rules.preset("bangladesh"), Seat.N).current_seat  # counter-clockwise: W
    <Seat.W: 'W'>
    """

    __slots__ = STATE_FIELDS

    def __init__(
        self,
        rules: Rules,
        dealer: Seat,
        hands: Mapping[Seat, Sequence[Card | None]] | None = None,
        *,
        number: int = 1,
        score: Mapping[Team, int] | None = None,
    ) -> None:
        self.rules = rules
        self.number = number
        self.score_before = dict(score) if score is not None else {TEAMS[0]: 0, TEAMS[1]: 0}
        self.dealer = SEAT_NUM[dealer]
        self._dir = 1 if rules.direction is _CLOCKWISE else 3
        self._bonus = rules.last_trick_bonus
        self.p, self.pos_of = _ORDERS[self.dealer * 4 + self._dir]
        self.findings: list[Finding] = []
        self.n_actions = 0
        # cards: known masks still held, unknown counts, card owners, dealt order for views
        self.held = [0, 0, 0, 0]
        self.unknown = [8, 8, 8, 8]
        self.known = [0, 0, 0, 0]  # cards known to have been dealt to each seat
        self.dealt: list[list[int]] = [_NOT_DEALT] * 4  # rows are replaced, never changed
        self.played = 0
        self.played_by = [0, 0, 0, 0]
        # auction
        self.phase = AUCTION
        self.to_speak = 0
        self.high_value = 0
        self.high_pos = -1
        self.passes = 0
        self.passed = 0
        self.spoken = 0
        self.consec = 0
        self.n_spoken = 0
        self.senior = 0
        self.junior = 1
        self.forced = False
        self.caller = -1
        self.call = 0
        self.target = 0
        # trump
        self.trump_done = False
        self.trump = UNKNOWN_SUIT
        self.trump_cands = 0b1111
        self.trump_mode = MODE_NORMAL
        self.seventh = False
        self.face_down = -1
        self.face_down_unknown = False
        self.shown = False
        self.show_trick = -1
        self.show_action = -1
        self.asker = -1
        self.asker_must = False
        self.seventh_turn = False
        # ladder and single hand
        self.doubled = 0
        self.ladder_open = False
        self.single_open = False
        self.single = -1
        self.single_lost = False
        self.second_dealt = False
        # play
        self.to_play = self.p[0]
        self.trick_no = 0
        self.trick_seats: list[int] = []
        self.trick_cards: list[int] = []
        self.led = -1
        self.tricks: list[Trick] = []
        self.points = [0, 0]
        self.last_winner = -1
        self.side_won_after_show = [False, False]
        self.unresolved: tuple[list[int], list[int], dict[int, int]] | None = None
        self.points_uncertain = False
        self.pair_seat = -1
        self.pairs: list[tuple[int, int, int]] = []  # (seat, action index, target change)
        self.first_revoke_team = -1
        self.pending: list[tuple[int, int, str, str, int]] = []
        # end
        self.thrown_in: str | None = None
        self.possible_throw_in: str | None = None
        self.decided = False
        self.hard_end = False
        self._after_end_reported = False
        self._partial_reported = False
        self._trump_unknown_reported = False
        self._viewed_tricks: tuple[tuple[PlayedCard, ...], ...] = ()  # for seat_view
        if hands:
            self._load_hands(hands)
        self.hidden_at_deal = tuple(self.unknown)
        if rules.zero_point_throw_in == "automatic":
            self._zero_point_check()
        self.fast = False
        self.fast_discard = False
        self.fast_block = 0
        self.fast_size = 4
        self.fast_skip = -1
        self.fast_decide = False

    # ------------------------------------------------------------------ setup
    def _load_hands(self, hands: Mapping[Seat, Sequence[Card | None]]) -> None:
        seen = 0
        for seat, cards in hands.items():
            s = SEAT_NUM[seat]
            eight: Sequence[Card] = cards  # type: ignore[assignment]  # None is caught below
            try:  # the usual case, eight cards all recorded, without a loop
                c0, c1, c2, c3, c4, c5, c6, c7 = eight
                i0, i1, i2, i3 = c0.index, c1.index, c2.index, c3.index
                i4, i5, i6, i7 = c4.index, c5.index, c6.index, c7.index
                full = 1 << i0 | 1 << i1 | 1 << i2 | 1 << i3 | 1 << i4 | 1 << i5 | 1 << i6 | 1 << i7
            except (ValueError, AttributeError, TypeError):  # not eight, or one is None
                full = 0
            if full.bit_count() == 8 and not full & seen:  # eight different cards
                seen |= full
                self.dealt[s] = [i0, i1, i2, i3, i4, i5, i6, i7]
                self.held[s] = self.known[s] = full
                self.unknown[s] = 0
                continue
            row = [-1 if card is None else card.index for card in cards[:8]]
            mask = 0
            count = 0
            for i in row:
                if i >= 0:
                    mask |= 1 << i
                    count += 1
            if mask & seen or mask.bit_count() != count:
                mask = 0
                for i, idx in enumerate(row):
                    if idx < 0:
                        continue
                    if (seen | mask) >> idx & 1:
                        row[i] = -1
                        holder = self._owner(idx)
                        where = SEATS[holder] if holder >= 0 else seat
                        self.findings.append(
                            make_finding(
                                "HANDS_INVALID",
                                self.number,
                                None,
                                f"{card_text(idx)} is dealt to both {where} and {seat}",
                            )
                        )
                        continue
                    mask |= 1 << idx
            seen |= mask
            self.dealt[s] = row if len(row) == 8 else row + [-1] * (8 - len(row))
            self.held[s] = self.known[s] = mask
            self.unknown[s] = 8 - mask.bit_count()
        # One seat's unknown cards are exactly the cards nobody else was dealt.
        if not any(self.unknown):
            return
        missing = [s for s in range(4) if self.unknown[s]]
        if len(missing) == 1:
            s = missing[0]
            rest = [i for i in range(32) if not seen >> i & 1]
            if len(rest) == self.unknown[s]:
                row = self.dealt[s] = list(self.dealt[s])
                slots = [i for i in range(8) if row[i] < 0]
                for slot, idx in zip(slots, rest, strict=True):
                    row[slot] = idx
                    self.held[s] |= 1 << idx
                self.known[s] = self.held[s]
                self.unknown[s] = 0

    @property
    def owner(self) -> list[int]:
        """Per card number (0..31): the seat number known to have been dealt it, or -1."""
        return [self._owner(i) for i in range(32)]

    def _owner(self, idx: int) -> int:
        """The seat known to have been dealt card ``idx``, or -1."""
        bit = 1 << idx
        for s in range(4):
            if self.known[s] & bit:
                return s
        return -1

    def _zero_point_check(self) -> None:
        for pos in (0, 1):
            s = self.p[pos]
            a, b, c, d = self.dealt[s][:4]
            if a >= 0 and b >= 0 and c >= 0 and d >= 0:  # the first four all recorded
                if not CARD_POINTS[a] + CARD_POINTS[b] + CARD_POINTS[c] + CARD_POINTS[d]:
                    self._throw_in("zero_point")
                    return
                continue
            if not any(CARD_POINTS[i] for i in (a, b, c, d) if i >= 0):
                self.possible_throw_in = "zero_point"  # no point among those recorded

    # ------------------------------------------------------------------ public state
    @property
    def current_seat(self) -> Seat | None:
        """The seat whose turn it is (None when the deal is over)."""
        if self.hard_end or self.decided or self.thrown_in:
            return None
        if self.phase == AUCTION:
            return SEATS[self.p[3] if self.forced else self.p[self.to_speak]]
        if self.phase == TRUMP:
            return SEATS[self.caller]
        if self.unresolved is not None:
            return None
        return SEATS[self.to_play]

    @property
    def is_over(self) -> bool:
        """True once the deal is thrown in, played out, or decided where the rules end it."""
        return self.hard_end or self.decided or self.thrown_in is not None

    @property
    def stake(self) -> int:
        """Game points at stake on the call now: the rules' stake, times 2, 4 or 6 once
        doubled, redoubled or set (a single hand has its own, ``single_hand_points``)."""
        return self.rules.stake * (1, 2, 4, 6)[self.doubled]

    @property
    def outcome(self) -> DealOutcome | None:
        """The result once the deal is over, else None."""
        if not self.is_over:
            return None
        return self.result()

    def result(self) -> DealOutcome:
        """The result as things stand (a deal stopped early scores nothing)."""
        points = {TEAMS[0]: self.points[0], TEAMS[1]: self.points[1]}
        zero = {TEAMS[0]: 0, TEAMS[1]: 0}
        if self.thrown_in is not None or not self.is_over:
            return DealOutcome(self.thrown_in, points, None, zero)
        change = dict(zero)
        if self.single >= 0:
            team = TEAM_OF[self.single]
            made = not self.single_lost and self.trick_no == 8
            change[TEAMS[team]] = self.rules.single_hand_points * (1 if made else -1)
            return DealOutcome(None, points, made, change)
        team = TEAM_OF[self.caller]
        stake = self.stake
        if self.rules.revoke_loses_deal and self.first_revoke_team >= 0:
            made = self.first_revoke_team != team
            change[TEAMS[team]] = stake if made else -stake
            return DealOutcome(None, points, made, change)
        mine = self.points[team]
        made = mine >= self.target
        if made:
            change[TEAMS[team]] = stake
        elif self.rules.under_half and mine * 2 < self.call:
            change[TEAMS[team]] = -2 * stake
        else:
            change[TEAMS[team]] = -stake
        return DealOutcome(None, points, made, change)

    @property
    def dealer_seat(self) -> Seat:
        """The deal's dealer."""
        return SEATS[self.dealer]

    @property
    def caller_seat(self) -> Seat | None:
        """The caller (the single-hand player once one is declared), or None."""
        if self.single >= 0:
            return SEATS[self.single]
        return SEATS[self.caller] if self.caller >= 0 else None

    @property
    def trump_suit(self) -> str | None:
        """The trump suit's letter when known (None when unknown, no trump or not chosen)."""
        return _suit_letter(self.trump) if 0 <= self.trump < 4 else None

    @property
    def standing_bid(self) -> tuple[Seat, int] | None:
        """The standing bid: (seat, value), or None."""
        if self.caller >= 0:
            return (SEATS[self.caller], self.call)
        if self.high_pos < 0:
            return None
        return (SEATS[self.p[self.high_pos]], self.high_value)

    @property
    def phase_name(self) -> Phase:
        """``"auction"``, ``"trump"`` (the caller chooses) or ``"play"`` (doubling included);
        see ``is_over`` for the end."""
        return _PHASES[self.phase]

    @property
    def order(self) -> tuple[Seat, Seat, Seat, Seat]:
        """The seats in playing order from P1 (after the dealer) to P4 (the dealer)."""
        p = self.p
        return (SEATS[p[0]], SEATS[p[1]], SEATS[p[2]], SEATS[p[3]])

    def seat_view(self, seat: Seat | None = None) -> DealView:
        """What ``seat`` may know now (an onlooker's view when None): see :class:`DealView`.

        >>> from schema import Rules, Seat
        >>> from replay.script import run_script
        >>> hands = {"E": "JH 9H AH TH 7S 8C 7D 8D"}
        >>> state = run_script(Rules.preset("pagat"), "N", hands, "E:15 S:p W:p N:p E:trump=H")
        >>> mine, theirs = state.seat_view(Seat.E), state.seat_view(Seat.S)
        >>> " ".join(c.text for c in mine.hand), mine.trump, theirs.trump, theirs.hand
        ('JH 9H AH TH 7S 8C 7D 8D', <Suit.HEARTS: 'H'>, None, ())
        """
        s = SEAT_NUM[seat] if seat is not None else -1
        caller = self.caller
        second = self.second_dealt
        shown = self.shown
        # The seventh card names the trump unseen, even by the caller, until the second deal.
        caller_knows = s == caller >= 0 and (second or not self.seventh)
        single = self.single
        trump: Suit | None = None
        if single < 0 and 0 <= self.trump < 4 and (shown or caller_knows):
            trump = SUITS[self.trump]
        face_down: Card | None = None
        if caller_knows and not shown and self.face_down >= 0:
            face_down = ALL_CARDS[self.face_down]
        hand: tuple[Card, ...] = ()
        if s >= 0:
            held = self.held[s]
            row = self.dealt[s]
            listed = [i for i in (row if second else row[:4]) if i >= 0 and held >> i & 1]
            if second:  # cards learnt from plays, beyond those recorded as dealt
                extra = held
                for i in row:
                    if i >= 0:
                        extra &= ~(1 << i)
                if extra:
                    listed.extend(i for i in range(32) if extra >> i & 1)
            hand = tuple([ALL_CARDS[i] for i in listed])
        tricks = self.tricks
        seen = self._viewed_tricks
        if len(seen) != len(tricks):
            seen += tuple([_trick_cards(t[1], t[2]) for t in tricks[len(seen) :]])
            self._viewed_tricks = seen
        p = self.p
        return DealView(
            seat=seat,
            phase=_PHASES[self.phase],
            dealer=SEATS[self.dealer],
            order=(SEATS[p[0]], SEATS[p[1]], SEATS[p[2]], SEATS[p[3]]),
            to_act=self.current_seat,
            hand=hand,
            second_dealt=second,
            standing=self.standing_bid,
            caller=SEATS[caller] if caller >= 0 else None,
            call=self.call if caller >= 0 else None,
            target=self.target if caller >= 0 else None,
            doubled=self.doubled,
            doubling_open=self.ladder_open and not self.is_over,
            seventh=self.seventh,
            trump=trump,
            face_down=face_down,
            shown=shown,
            asker=SEATS[self.asker] if shown and self.asker >= 0 else None,
            pair=SEATS[self.pair_seat] if self.pair_seat >= 0 else None,
            single=SEATS[single] if single >= 0 else None,
            tricks=seen,
            winners=tuple([SEATS[t[3]] for t in tricks]),
            trick=_trick_cards(self.trick_seats, self.trick_cards),
            led=SUITS[self.led] if 0 <= self.led < 4 else None,
            points=(self.points[0], self.points[1]),
        )

    def copy(self) -> DealState:
        """An independent copy (for look-ahead: ``check`` uses one)."""
        # Through __init__ (cheap beside a look-ahead): a compiled class has no bare __new__.
        other = DealState(self.rules, SEATS[self.dealer], number=self.number)
        for name in STATE_FIELDS:
            value = getattr(self, name)
            if isinstance(value, list):
                value = [list(v) if isinstance(v, list) else v for v in value]
            setattr(other, name, value)
        return other

    def check(self, action: AnyAction) -> Finding | None:
        """The first error finding ``action`` would give here, without changing the state.

        >>> from schema import Rules, Seat
        >>> from schema.log import BidAction
        >>> DealState(Rules.preset("pagat"), Seat.N).check(BidAction(seat=Seat.E, value=14))
        ... # doctest: +ELLIPSIS
        Finding(code='BID_TOO_LOW', severity='error', deal=1, action=0, message='E bid 14...')
        """
        trial = self.copy()
        for finding in trial.apply(action):
            if finding.severity == "error":
                return finding
        return None

    # ------------------------------------------------------------------ views
    def hand(self, seat: Seat, viewer: Seat | None = None) -> list[Card | None]:
        """The cards ``seat`` still holds, in the order dealt; None for a card unknown.

        With ``viewer`` given, only what that seat could know: its own cards, and a shown
        Pair; before the second four are dealt, only the first four.
        """
        s = SEAT_NUM[seat]
        v = SEAT_NUM[viewer] if viewer is not None else s
        if not self.second_dealt:
            row = self.dealt[s][:4]
            if v != s:
                return [None] * 4
            return [ALL_CARDS[i] if i >= 0 else None for i in row]
        count = 8 - self.played_by[s]
        if v != s:
            public: list[Card | None] = []
            if self.pair_seat == s and 0 <= self.trump < 4:
                for place in (KING_PLACE, QUEEN_PLACE):
                    idx = self.trump * 8 + place
                    if not self.played >> idx & 1:
                        public.append(ALL_CARDS[idx])
            return public + [None] * (count - len(public))
        held = self.held[s]
        cards: list[Card | None] = [ALL_CARDS[i] for i in self.dealt[s] if i >= 0 and held >> i & 1]
        listed = 0
        for i in self.dealt[s]:
            if i >= 0:
                listed |= 1 << i
        extra = held & ~listed
        cards.extend(ALL_CARDS[i] for i in range(32) if extra >> i & 1)
        cards.extend([None] * self.unknown[s])
        return cards

    def trump_status(self, viewer: Seat | None = None) -> str:
        """``not chosen``, ``hidden``, ``known to the caller: H``, ``shown: H`` (or no trump)."""
        if not self.trump_done:
            return "not chosen"
        if self.single >= 0:
            return "single hand: no trump"
        suit = (
            "no trump"
            if self.trump == NO_SUIT
            else (_suit_letter(self.trump) if self.trump >= 0 else "unknown")
        )
        if self.shown:
            return f"shown: {suit}"
        if self.seventh and not self.second_dealt:
            return "hidden"
        if viewer is None or SEAT_NUM[viewer] == self.caller:
            return f"known to the caller: {suit}"
        return "hidden"

    def trick(self) -> list[tuple[Seat, Card]]:
        """The cards on the table in the current trick, in the order played."""
        return [
            (SEATS[s], ALL_CARDS[c])
            for s, c in zip(self.trick_seats, self.trick_cards, strict=True)
        ]

    # ------------------------------------------------------------------ helpers
    def _add(self, code: str, message: str, action: int | None = -2) -> None:
        where = self.n_actions if action == -2 else action
        self.findings.append(make_finding(code, self.number, where, message))

    def _throw_in(self, reason: str) -> None:
        self.thrown_in = reason

    def _face_down_mask(self, seat: int) -> int:
        """The caller's face-down card while it may not be played (0 otherwise)."""
        if seat != self.caller or self.face_down < 0 or self.shown:
            return 0
        if 8 - self.played_by[seat] <= 1:
            return 0
        return 1 << self.face_down

    def _unseen_mask(self) -> int:
        """Cards no recorded hand holds and nobody has played."""
        k = self.known
        return ~(k[0] | k[1] | k[2] | k[3] | self.played) & 0xFFFFFFFF

    def _winning(self) -> tuple[int, int]:
        """(seat, card) winning the current trick so far, trumps counting when shown."""
        trump = self.trump if self.shown and self.single < 0 else -1
        reverse = self.trump_mode == MODE_REVERSE and self.shown
        best = -1
        best_seat = -1
        best_key = -1
        for s, c in zip(self.trick_seats, self.trick_cards, strict=True):
            suit = c >> 3
            place = c & 7
            strength = place if reverse else 7 - place
            if suit == trump:
                key = 16 + strength
            elif suit == self.led:
                key = strength
            else:
                continue
            if key > best_key:
                best_key, best, best_seat = key, c, s
        return best_seat, best

    # ------------------------------------------------------------------ rules: auction
    def _rule_auction_turn(self, seat: int, what: str) -> Breach | None:
        if self.forced:
            if seat != self.p[3]:
                return (
                    "OUT_OF_TURN",
                    f"{SEATS[seat]} {what} but the dealer {SEATS[self.p[3]]} "
                    "takes the call after three passes",
                )
            return None
        expected = self.p[self.to_speak]
        if seat != expected:
            return (
                "OUT_OF_TURN",
                f"{SEATS[seat]} {what} but it is {SEATS[expected]}'s turn to speak",
            )
        return None

    def _rule_bid(self, seat: int, kind: int, value: int) -> Breach | None:
        """Bidding limits, the standing bid, Ditto and the dealer's forced call."""
        r = self.rules
        name = SEATS[seat]
        pos = self.pos_of[seat]
        if self.forced:
            if kind == BID and value == r.min_bid:
                return None
            said = f"bid {value}" if kind == BID else ("passed" if kind == PASS else "said ditto")
            return (
                "FORCED_BID",
                f"{name} {said} after three passes: the dealer takes the call at {r.min_bid}",
            )
        if kind == PASS:
            return None
        duel = r.bidding == "duel"
        if kind == DITTO:
            if not duel:
                return (
                    "DITTO_NOT_ALLOWED",
                    f"{name} said ditto but Ditto belongs to duel bidding, not {r.bidding}",
                )
            if pos != self.senior:
                return (
                    "DITTO_NOT_ALLOWED",
                    f"{name} said ditto but only the senior duelist "
                    f"({SEATS[self.p[self.senior]]}) may equal the standing bid",
                )
            if self.high_pos < 0 or self.high_pos == pos:
                return (
                    "DITTO_NOT_ALLOWED",
                    f"{name} said ditto with no bid of the other duelist to equal",
                )
            return None
        if value < r.min_bid:
            return ("BID_TOO_LOW", f"{name} bid {value}: the lowest bid is {r.min_bid}")
        if value > r.max_bid:
            return ("BID_TOO_HIGH", f"{name} bid {value}: the highest bid is {r.max_bid}")
        if self.high_pos >= 0:
            equal_ok = duel and pos == self.senior and self.high_pos != pos
            floor = self.high_value if equal_ok else self.high_value + 1
            if value < floor:
                holder = SEATS[self.p[self.high_pos]]
                return (
                    "BID_TOO_LOW",
                    f"{name} bid {value} after {holder}'s {self.high_value}: "
                    "a bid must be higher than the standing bid",
                )
        return None

    def _rule_redeal(self, seat: int) -> Breach | None:
        """Zero-point redeal on request: any seat with no points in its first four (seed 003 §7)."""
        name = SEATS[seat]
        if self.rules.zero_point_throw_in != "on_request":
            return ("REDEAL_NOT_ALLOWED", f"{name} asked for a redeal but these rules have none")
        if self.phase != AUCTION:
            return ("REDEAL_NOT_ALLOWED", f"{name} asked for a redeal after the auction")
        first = [i for i in self.dealt[seat][:4] if i >= 0]
        scoring = [i for i in first if CARD_POINTS[i]]
        if scoring:
            return (
                "REDEAL_NOT_ALLOWED",
                f"{name} asked for a redeal holding "
                f"{card_text(scoring[0])} in the first four: only a hand without points may",
            )
        return None

    # ------------------------------------------------------------------ rules: trump
    def _rule_trump(self, action: TrumpAction | FastTrump) -> Breach | None:
        """What the caller may choose: a suit, the seventh card, an own card, no trump, reverse."""
        r = self.rules
        name = SEATS[self.caller]
        if action.seventh:
            if r.seventh_card == "off":
                return (
                    "TRUMP_CHOICE_INVALID",
                    f"{name} called the seventh card but these rules have no seventh card",
                )
            if action.mode is not None:
                return (
                    "TRUMP_CHOICE_INVALID",
                    f"{name} called the seventh card with {action.mode}",
                )
            seventh = self.dealt[self.caller][6]
            if action.suit is not None and seventh >= 0 and (seventh >> 3) != SUIT_NUM[action.suit]:
                return (
                    "TRUMP_CHOICE_INVALID",
                    f"{name} called the seventh card "
                    f"({card_text(seventh)}) but the trump is recorded as {action.suit}",
                )
            return None
        if action.mode == "no_trump":
            if not r.no_trump:
                return ("TRUMP_CHOICE_INVALID", f"{name} chose no trump but these rules have none")
            if action.suit is not None:
                return (
                    "TRUMP_CHOICE_INVALID",
                    f"{name} chose no trump with a suit ({action.suit})",
                )
            return None
        if action.mode == "reverse" and not r.reverse:
            return ("TRUMP_CHOICE_INVALID", f"{name} chose reverse but these rules have none")
        if r.trump_marker == "own_card" and action.card is not None:
            card = action.card
            if action.suit is not None and card.suit is not action.suit:
                return (
                    "TRUMP_CHOICE_INVALID",
                    f"{name} chose {SUIT_NAME[SUIT_NUM[action.suit]]}"
                    f" with {card.text} as its card: the face-down card must be of the "
                    "trump suit",
                )
            first = self.dealt[self.caller][:4]
            if card.index not in first:
                owner = self._owner(card.index)
                if owner >= 0 or -1 not in first:
                    return (
                        "TRUMP_CHOICE_INVALID",
                        f"{name} put down {card.text} as the trump "
                        "card but it is not in its first four cards",
                    )
        return None

    # ------------------------------------------------------------------ rules: ladder
    def _rule_double(self, seat: int) -> Breach | None:
        name = SEATS[seat]
        if not self.rules.double:
            return ("DOUBLE_NOT_ALLOWED", f"{name} doubled but these rules have no Double")
        if not self.trump_done:
            return ("DOUBLE_NOT_ALLOWED", f"{name} doubled before the trump was chosen")
        if not self.ladder_open:
            return ("DOUBLE_NOT_ALLOWED", f"{name} doubled after the second four cards")
        if TEAM_OF[seat] == TEAM_OF[self.caller]:
            return ("DOUBLE_NOT_ALLOWED", f"{name} doubled but {name} is on the caller's side")
        if self.doubled:
            return ("DOUBLE_NOT_ALLOWED", f"{name} doubled but the deal is already doubled")
        return None

    def _rule_redouble(self, seat: int) -> Breach | None:
        name = SEATS[seat]
        if not self.rules.redouble:
            return ("REDOUBLE_NOT_ALLOWED", f"{name} redoubled but these rules have no Redouble")
        if not self.trump_done or not self.ladder_open:
            return ("REDOUBLE_NOT_ALLOWED", f"{name} redoubled outside the doubling")
        if self.doubled != 1:
            why = "nobody has doubled" if self.doubled == 0 else "the deal is already redoubled"
            return ("REDOUBLE_NOT_ALLOWED", f"{name} redoubled but {why}")
        if TEAM_OF[seat] != TEAM_OF[self.caller]:
            return ("REDOUBLE_NOT_ALLOWED", f"{name} redoubled but only the caller's side may")
        return None

    def _rule_set(self, seat: int) -> Breach | None:
        name = SEATS[seat]
        if not self.rules.set_:
            return ("SET_NOT_ALLOWED", f"{name} said set but these rules have no Set")
        if not self.trump_done or not self.ladder_open:
            return ("SET_NOT_ALLOWED", f"{name} said set outside the doubling")
        if self.doubled != 2:
            return ("SET_NOT_ALLOWED", f"{name} said set but the deal is not redoubled")
        if TEAM_OF[seat] == TEAM_OF[self.caller]:
            return ("SET_NOT_ALLOWED", f"{name} said set but only the doubling side may")
        return None

    def _rule_single_hand(self, seat: int) -> Breach | None:
        name = SEATS[seat]
        if not self.rules.single_hand:
            return (
                "SINGLE_HAND_NOT_ALLOWED",
                f"{name} declared single hand but these rules have no single hand",
            )
        if not self.trump_done:
            return (
                "SINGLE_HAND_NOT_ALLOWED",
                f"{name} declared single hand before the trump was chosen",
            )
        if self.single >= 0:
            return (
                "SINGLE_HAND_NOT_ALLOWED",
                f"{name} declared single hand but {SEATS[self.single]} already plays alone",
            )
        if not self.single_open:
            return (
                "SINGLE_HAND_NOT_ALLOWED",
                f"{name} declared single hand after the opening lead",
            )
        return None

    # ------------------------------------------------------------------ rules: play
    def _rule_play_turn(self, seat: int, card: int) -> Breach | None:
        if seat != self.to_play:
            return (
                "OUT_OF_TURN",
                f"{SEATS[seat]} played {card_text(card)} but it is "
                f"{SEATS[self.to_play]}'s turn to play",
            )
        return None

    def _rule_held(self, seat: int, card: int) -> Breach | None:
        """A seat plays a card it holds: known in its hand, or possibly among its unknown cards."""
        bit = 1 << card
        if self.held[seat] & bit:
            return None
        name = SEATS[seat]
        if self.played & bit:
            return (
                "CARD_ALREADY_PLAYED",
                f"{name} played {card_text(card)}, which was already played",
            )
        owner = self._owner(card)
        if owner >= 0 and owner != seat:
            return ("CARD_NOT_HELD", f"{name} played {card_text(card)}, which {SEATS[owner]} holds")
        if self.unknown[seat] == 0 or owner == seat:
            return ("CARD_NOT_HELD", f"{name} played {card_text(card)}, which {name} does not hold")
        return None

    def _rule_face_down(self, seat: int, card: int) -> Breach | None:
        """The face-down trump card waits for the show, unless it is the caller's last card."""
        if self._face_down_mask(seat) >> card & 1:
            return (
                "TRUMP_CARD_PLAYED_EARLY",
                f"{SEATS[seat]} played {card_text(card)}, the "
                "face-down trump card, before the trump was shown",
            )
        return None

    def _rule_follow(self, seat: int, card: int) -> Breach | None:
        """Follow suit if you can (the face-down card does not count for following)."""
        led = self.led
        if led < 0 or card >> 3 == led:
            return None
        follow = self.held[seat] & SUIT_MASK[led] & ~self._face_down_mask(seat)
        if follow:
            low = (follow & -follow).bit_length() - 1
            return (
                "REVOKE",
                f"{SEATS[seat]} played {card_text(card)} holding {card_text(low)}: "
                f"must follow {SUIT_NAME[led]}",
            )
        return None

    def _show_possible(self) -> bool:
        return self.trump_done and not self.shown and self.single < 0 and self.led >= 0

    def _rule_must_ask(self, seat: int, card: int) -> Breach | None:
        """Compulsory show: a seat that cannot follow asks before it plays."""
        if self.rules.show_trump != "compulsory" or not self._show_possible():
            return None
        if card >> 3 == self.led or self._seventh_exempt(seat):
            return None
        if self.held[seat] & SUIT_MASK[self.led] & ~self._face_down_mask(seat):
            return None  # a revoke, reported as such
        return (
            "SHOW_REQUIRED",
            f"{SEATS[seat]} played {card_text(card)} on a "
            f"{SUIT_NAME[self.led]} lead without asking for the trump: the first player who "
            "cannot follow must ask",
        )

    def _seventh_exempt(self, seat: int) -> bool:
        # Pagat's seventh card: the caller who cannot follow chooses to turn it up or not.
        return self.rules.seventh_card == "pagat" and self.seventh and seat == self.caller

    def _follows_first(self, seat: int, card: int) -> bool:
        """True when following suit comes before the duty a show leaves the seat.

        The duties to trump after asking and to play the turned-up seventh card belong to a
        player who cannot follow. A player who asked while able to follow (a breach) follows
        suit as before; so does a leader who showed the trump (also a breach): nothing binds
        the lead. ``card`` of the suit led always follows.
        """
        led = self.led
        if led < 0 or card >> 3 == led:
            return True
        face_down = 1 << self.face_down if self.face_down >= 0 else 0
        return bool(self.held[seat] & SUIT_MASK[led] & ~face_down)

    def _rule_seventh_turned(self, seat: int, card: int) -> Breach | None:
        """Pagat seventh card: turning it up plays it to the trick."""
        if (
            self.seventh_turn
            and seat == self.caller
            and self.face_down >= 0
            and card != self.face_down
            and not self._follows_first(seat, card)
        ):
            return (
                "SEVENTH_CARD_NOT_PLAYED",
                f"{SEATS[seat]} played {card_text(card)} after "
                f"turning up the seventh card: turning it up plays it "
                f"({card_text(self.face_down)})",
            )
        return None

    def _asks_now(self, seat: int) -> bool:
        """True when ``seat`` plays under the asker's obligation in this trick."""
        if self.asker_must and seat == self.asker:
            return True
        if self.rules.show_trump != "automatic" or not self.rules.must_trump_after_show:
            return False
        if not self._show_possible():
            return False
        return not self.held[seat] & SUIT_MASK[self.led] & ~self._face_down_mask(seat)

    def _rule_must_trump(self, seat: int, card: int) -> Breach | None:
        """After asking: play a trump if able; bhoos: beat an opponent's winning trump if able."""
        if not self._asks_now(seat) or not 0 <= self.trump < 4:
            return None
        if self._follows_first(seat, card):
            return None
        trump = self.trump
        name = SEATS[seat]
        # A face-down trump card that may not be played yet is not a trump one is able to play.
        playable = self.held[seat] & ~self._face_down_mask(seat)
        trumps = playable & SUIT_MASK[trump]
        if card >> 3 != trump:
            if trumps:
                low = (trumps & -trumps).bit_length() - 1
                return (
                    "MUST_TRUMP_AFTER_SHOW",
                    f"{name} played {card_text(card)} after asking, "
                    f"holding {card_text(low)}: must play a trump after asking",
                )
            return None
        if not self.rules.must_overtrump_after_show:
            return None
        win_seat, win_card = self._winning_after_show()
        if win_seat < 0 or TEAM_OF[win_seat] == TEAM_OF[seat] or win_card >> 3 != trump:
            return None
        higher = self._higher_trumps(win_card) & playable
        if higher and not (1 << card) & self._higher_trumps(win_card):
            high = (higher & -higher).bit_length() - 1
            return (
                "MUST_OVERTRUMP_AFTER_SHOW",
                f"{name} played {card_text(card)} after asking, "
                f"holding {card_text(high)}, while {SEATS[win_seat]}'s "
                f"{card_text(win_card)} wins: must beat an opponent's winning trump",
            )
        return None

    def _winning_after_show(self) -> tuple[int, int]:
        if self.shown:
            return self._winning()
        self.shown = True  # the automatic show happens before the asker's card
        try:
            return self._winning()
        finally:
            self.shown = False

    def _higher_trumps(self, card: int) -> int:
        suit, place = card >> 3, card & 7
        if self.trump_mode == MODE_REVERSE:
            return ((0xFF >> (place + 1)) << (place + 1)) << (suit * 8)
        return ((1 << place) - 1) << (suit * 8)

    def _play_breach(self, seat: int, card: int) -> Breach | None:
        """The first rule a play breaks (turn, holding, face-down card, follow, show, trump)."""
        return (
            self._rule_play_turn(seat, card)
            or self._rule_held(seat, card)
            or self._rule_face_down(seat, card)
            or self._rule_follow(seat, card)
            or self._rule_must_ask(seat, card)
            or self._rule_seventh_turned(seat, card)
            or self._rule_must_trump(seat, card)
        )

    def _rule_show(self, seat: int) -> Breach | None:
        """Asking for the trump: not the leader, only once, only by a seat that cannot follow."""
        name = SEATS[seat]
        if self.single >= 0:
            return ("SHOW_NOT_ALLOWED", f"{name} asked for the trump in a single hand")
        if self.shown:
            return ("SHOW_NOT_ALLOWED", f"{name} asked for the trump but it is already shown")
        if seat != self.to_play:
            return (
                "OUT_OF_TURN",
                f"{name} asked for the trump but it is {SEATS[self.to_play]}'s turn to play",
            )
        if self.led < 0:
            return (
                "SHOW_NOT_ALLOWED",
                f"{name} asked for the trump while leading: the leader never shows the trump",
            )
        follow = self.held[seat] & SUIT_MASK[self.led] & ~self._face_down_mask(seat)
        if follow:
            low = (follow & -follow).bit_length() - 1
            return (
                "SHOW_WHILE_ABLE_TO_FOLLOW",
                f"{name} asked for the trump holding "
                f"{card_text(low)}: only a player who cannot follow may ask",
            )
        return None

    def _pair_owner_breach(self, seat: int) -> Breach | None:
        name = SEATS[seat]
        for place in (KING_PLACE, QUEEN_PLACE):
            idx = self.trump * 8 + place
            if self.played >> idx & 1:
                return (
                    "PAIR_NOT_HELD",
                    f"{name} showed the Pair but {card_text(idx)} was already played",
                )
            owner = self._owner(idx)
            if owner >= 0 and owner != seat:
                return (
                    "PAIR_NOT_HELD",
                    f"{name} showed the Pair but {SEATS[owner]} holds {card_text(idx)}",
                )
            if owner < 0 and self.unknown[seat] == 0:
                return ("PAIR_NOT_HELD", f"{name} showed the Pair without {card_text(idx)}")
        return None

    def _rule_pair(self, seat: int) -> Breach | None:
        """The Pair: K and Q of trumps still held, after the show, at the rules' moment."""
        r = self.rules
        name = SEATS[seat]
        if r.pair == "off":
            return ("PAIR_NOT_ALLOWED", f"{name} showed the Pair but these rules have no Pair")
        if self.phase != PLAY or self.single >= 0 or self.trump == NO_SUIT:
            return ("PAIR_NOT_ALLOWED", f"{name} showed the Pair with no trump suit in play")
        if self.pair_seat >= 0:
            return (
                "PAIR_NOT_ALLOWED",
                f"{name} showed the Pair but {SEATS[self.pair_seat]} already showed it",
            )
        if not self.shown:
            return ("PAIR_NOT_ALLOWED", f"{name} showed the Pair but the trump has not been shown")
        team = TEAM_OF[seat]
        if r.pair == "holder_turn":
            if seat != self.to_play or self.unresolved is not None:
                return (
                    "PAIR_NOT_ALLOWED",
                    f"{name} showed the Pair out of turn: the Pair is shown on the holder's turn",
                )
            if self.trick_no <= self.show_trick:
                return (
                    "PAIR_NOT_ALLOWED",
                    f"{name} showed the Pair in the trick of the show: "
                    "it may be shown from the next trick",
                )
        elif r.pair == "after_side_wins":
            if not self.side_won_after_show[team]:
                return (
                    "PAIR_NOT_ALLOWED",
                    f"{name} showed the Pair before its side won a trick after the show",
                )
        elif (
            self.trick_cards
            or self.last_winner < 0
            or TEAM_OF[self.last_winner] != team
            or self.show_trick > self.trick_no - 1
        ):
            return (
                "PAIR_NOT_ALLOWED",
                f"{name} showed the Pair but not immediately after its "
                "side won a trick after the show",
            )
        if 0 <= self.trump < 4:
            return self._pair_owner_breach(seat)
        return None

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, seat: Seat | None = None) -> list[Action]:
        """Every action the rules allow now (by ``seat`` only, when given).

        Optional declarations (Double, single hand, the Pair) may come from a seat other
        than ``current_seat``. With unknown cards, only plays of known cards are listed.

        >>> from schema import Rules, Seat
        >>> deal = DealState(Rules.preset("bhoos"), Seat.N)
        >>> len(deal.legal_actions())  # pass, or a bid of 16 to 28
        14
        """
        if self.is_over:
            return []
        acts: list[Action] = []
        if self.phase == AUCTION:
            self._legal_auction(acts)
        elif self.phase == TRUMP:
            self._legal_trump(acts)
        else:
            self._legal_play(acts)
        if seat is not None:
            return [a for a in acts if a.seat is seat]
        return acts

    def _legal_auction(self, acts: list[Action]) -> None:
        r = self.rules
        s = self.p[3] if self.forced else self.p[self.to_speak]
        if r.zero_point_throw_in == "on_request" and self._rule_redeal(s) is None:
            acts.append(_REDEALS[s])
        if self.forced:
            acts.append(_BIDS[s][r.min_bid])
            return
        acts.append(_PASSES[s])
        if r.bidding == "duel" and self._rule_bid(s, DITTO, 0) is None:
            acts.append(_DITTOS[s])
            start = self.high_value + 1
        else:
            start = self.high_value + 1 if self.high_pos >= 0 else r.min_bid
        for v in range(max(start, r.min_bid), r.max_bid + 1):
            acts.append(_BIDS[s][v])

    def _legal_trump(self, acts: list[Action]) -> None:
        r = self.rules
        seat = SEATS[self.caller]
        if r.trump_marker == "own_card":
            first = [i for i in self.dealt[self.caller][:4] if i >= 0]
            if first and -1 not in self.dealt[self.caller][:4]:
                for i in first:
                    card = ALL_CARDS[i]
                    acts.append(
                        TrumpAction.model_construct(
                            seat=seat, suit=card.suit, card=card, type="trump"
                        )
                    )
            else:
                for suit in SUITS:
                    acts.append(TrumpAction.model_construct(seat=seat, suit=suit, type="trump"))
        else:
            for suit in SUITS:
                acts.append(TrumpAction.model_construct(seat=seat, suit=suit, type="trump"))
        if r.seventh_card != "off":
            acts.append(TrumpAction.model_construct(seat=seat, seventh=True, type="trump"))
        if r.no_trump:
            acts.append(TrumpAction.model_construct(seat=seat, mode="no_trump", type="trump"))
        if r.reverse:
            acts.append(TrumpAction.model_construct(seat=seat, mode="reverse", type="trump"))

    def _legal_play(self, acts: list[Action]) -> None:
        if self.ladder_open:
            for s in range(4):
                if self._rule_double(s) is None:
                    acts.append(_DOUBLES[s])
                if self._rule_redouble(s) is None:
                    acts.append(_REDOUBLES[s])
                if self._rule_set(s) is None:
                    acts.append(_SETS[s])
        if self.single_open and self.rules.single_hand:
            for pos in range(4):
                s = self.p[pos]
                if self._rule_single_hand(s) is None:
                    acts.append(_SINGLES[s])
        if self.unresolved is not None:
            return
        if self.rules.pair != "off" and self.shown and self.pair_seat < 0:
            for s in range(4):
                if self._rule_pair(s) is None and self._pair_fully_known(s):
                    acts.append(_PAIRS[s])
        seat = self.to_play
        if self.rules.show_trump != "automatic" and self._rule_show(seat) is None:
            acts.append(_SHOWS[seat])
        hand = self.held[seat]
        while hand:
            low = hand & -hand
            idx = low.bit_length() - 1
            hand ^= low
            if self._play_breach(seat, idx) is None:
                acts.append(_PLAYS[seat][idx])

    def _pair_fully_known(self, seat: int) -> bool:
        if not 0 <= self.trump < 4:
            return False
        k = self.trump * 8 + KING_PLACE
        q = self.trump * 8 + QUEEN_PLACE
        return bool(self.held[seat] >> k & 1 and self.held[seat] >> q & 1)

    # ------------------------------------------------------------------ apply
    def apply(self, action: AnyAction) -> list[Finding]:
        """Apply one action as the table would, and return the findings it gave.

        >>> from schema import Rules, Seat
        >>> from schema.log import PassAction
        >>> deal = DealState(Rules.preset("bangladesh"), Seat.N)
        >>> [deal.apply(PassAction(seat=s)) for s in (Seat.W, Seat.S, Seat.E)]
        [[], [], []]
        >>> deal.is_over, deal.outcome.thrown_in
        (True, 'all_pass')
        """
        start = len(self.findings)
        handler = _HANDLERS.get(type(action))
        if handler is not None:
            handler(self, action)
        self.n_actions += 1
        return self.findings[start:]

    def run(self, actions: Sequence[AnyAction]) -> None:
        """Apply actions in order, as :meth:`apply` would, without returning findings.

        The auditor's loop: a card led, following suit, or discarded from a known hand by
        the seat on turn with nothing owed (no trump to show or play, no face-down card)
        breaks no rule, so it is placed at once; every other action goes through the rules.
        """
        handlers = _HANDLERS
        held_of = self.held
        played_by = self.played_by
        seat_num = SEAT_NUM
        suit_mask = SUIT_MASK
        step = self._dir
        n = self.n_actions
        for action in actions:
            # Types compared, not isinstance: pydantic's models check instances in Python.
            if self.fast and (type(action) is FastPlay or type(action) is PlayAction):
                seat = seat_num[action.seat]
                idx = action.card.index
                bit = 1 << idx
                held = held_of[seat]
                block = self.fast_block
                if held & bit and seat == self.to_play and not bit & block:
                    led = self.led
                    if (
                        led < 0
                        or idx >> 3 == led
                        or (self.fast_discard and not held & ~block & suit_mask[led])
                    ):
                        if self.single_open:  # the first card: no more doubling or single hand
                            self.ladder_open = self.single_open = False
                            self.second_dealt = True
                        held_of[seat] = held ^ bit
                        self.played |= bit
                        played_by[seat] += 1
                        seats = self.trick_seats
                        seats.append(seat)
                        self.trick_cards.append(idx)
                        if len(seats) == self.fast_size:
                            self._end_trick()
                        else:
                            if led < 0:
                                self.led = idx >> 3
                            if self.fast_decide and idx in _PAIR_CARDS[self.trump + 1]:
                                # Mid-trick, the fast path changes nothing result_fixed reads
                                # (every other change was checked where it was made) but the
                                # cards played: only a King or Queen of trumps can matter.
                                self._check_decided()
                            nxt = (seat + step) & 3
                            skip = self.fast_skip
                            while nxt in seats or nxt == skip:
                                nxt = (nxt + step) & 3
                            self.to_play = nxt
                        n += 1
                        continue
            self.n_actions = n
            handler = handlers.get(action.__class__)
            if handler is not None:
                handler(self, action)
            n += 1
        self.n_actions = n

    def _ended(self, seat: int, what: str) -> bool:
        """True (after one finding) when the deal is over and this action cannot be taken."""
        if self.thrown_in is None and not self.hard_end:
            return False
        if not self._after_end_reported:
            self._after_end_reported = True
            why = f"thrown in ({self.thrown_in})" if self.thrown_in else "over"
            self._add("ACTION_AFTER_DEAL_END", f"{SEATS[seat]} {what} after the deal was {why}")
        return True

    def _out_of_phase(self, seat: int, what: str) -> None:
        if self.phase == AUCTION:
            why = "the auction is not over"
        elif self.phase == TRUMP:
            why = "the trump has not been chosen"
        else:
            why = "the auction is over"
        self._add("ACTION_OUT_OF_PHASE", f"{SEATS[seat]} {what} but {why}")

    def _refresh(self) -> None:
        """Recompute when a play may take the fast path in ``_on_play``."""
        if self.phase != PLAY:
            self.fast = False
            return
        self.fast = (
            self.phase == PLAY
            and self.unresolved is None
            and self.thrown_in is None
            and not self.hard_end
            and not self.seventh_turn
            and not self.asker_must
        )
        self.fast_discard = not any(self.unknown) and (
            self.shown or self.single >= 0 or self.rules.show_trump == "optional"
        )
        # The caller's face-down card: not for the fast path, nor for following, until shown.
        self.fast_block = 1 << self.face_down if self.face_down >= 0 and not self.shown else 0
        single = self.single
        self.fast_size = 4 if single < 0 else 3
        self.fast_skip = (single + 2) & 3 if single >= 0 else -1  # the lone player's partner
        self.fast_decide = self.shown and self.rules.end_when_decided

    def _on_speech(
        self, action: BidAction | PassAction | DittoAction | FastBid | FastPass | FastDitto
    ) -> None:
        """A bid, a pass or a Ditto: the turn, the bidding limits, then the auction's style."""
        seat = SEAT_NUM[action.seat]
        if type(action) is FastBid or type(action) is BidAction:
            kind, value = BID, action.value
        elif action.type == "pass":
            kind, value = PASS, 0
        else:
            kind, value = DITTO, 0
        if (self.thrown_in is not None or self.hard_end) and self._ended(seat, _said(kind, value)):
            return
        if self.phase != AUCTION:
            self._out_of_phase(seat, _said(kind, value))
            return
        pos = self.pos_of[seat]
        r = self.rules
        turn = None
        if self.forced or seat != self.p[self.to_speak]:
            turn = self._rule_auction_turn(seat, _said(kind, value))
        if turn is not None:
            self._add(*turn)
            if self.forced or not self._may_speak(pos):
                return
            self.to_speak = pos
        breach = self._rule_bid(seat, kind, value) if kind != PASS or self.forced else None
        if breach is not None:
            self._add(*breach)
        if self.forced:
            self._end_auction(3, value if kind == BID and value >= r.min_bid else r.min_bid)
            return
        if kind == DITTO:
            if breach is not None and (self.high_pos < 0 or r.bidding != "duel"):
                return
            kind, value = BID, self.high_value
        if r.bidding == "duel":
            self._duel(pos, kind, value)
        elif r.bidding == "rotation":
            self._rotation(pos, kind, value)
        elif r.bidding == "open":
            self._open(pos, kind, value)
        else:
            self._single_round(pos, kind, value)

    def _may_speak(self, pos: int) -> bool:
        style = self.rules.bidding
        if style == "duel":
            return pos in (self.senior, self.junior) and not self.passed >> pos & 1
        if style == "rotation":
            return not self.passed >> pos & 1
        if style == "single_round":
            return not self.spoken >> pos & 1
        return True

    def _bid_to(self, pos: int, value: int) -> None:
        self.high_value, self.high_pos = value, pos

    def _rotation(self, pos: int, kind: int, value: int) -> None:
        if kind == BID:
            self._bid_to(pos, value)
            if value >= self.rules.max_bid:
                self._end_auction(pos, value)
                return
        else:
            self.passed |= 1 << pos
            self.passes += 1
        if self.passes >= 3:
            self._auction_over()
            return
        nxt = (pos + 1) % 4
        while self.passed >> nxt & 1:
            nxt = (nxt + 1) % 4
        self.to_speak = nxt

    def _open(self, pos: int, kind: int, value: int) -> None:
        if kind == BID:
            self._bid_to(pos, value)
            self.consec = 0
            if value >= self.rules.max_bid:
                self._end_auction(pos, value)
                return
        else:
            self.consec += 1
            if self.consec >= 3:
                self._auction_over()
                return
        self.to_speak = (pos + 1) % 4

    def _single_round(self, pos: int, kind: int, value: int) -> None:
        self.spoken |= 1 << pos
        self.n_spoken += 1
        if kind == BID:
            self._bid_to(pos, value)
        if (self.high_pos < 0 and self.n_spoken >= 3) or self.n_spoken >= 4:
            self._auction_over()
            return
        nxt = (pos + 1) % 4
        while self.spoken >> nxt & 1 and nxt != pos:
            nxt = (nxt + 1) % 4
        self.to_speak = nxt

    def _duel(self, pos: int, kind: int, value: int) -> None:
        self.spoken |= 1 << pos
        if kind == BID:
            self._bid_to(pos, value)
            self.to_speak = self.junior if pos == self.senior else self.senior
            return
        self.passed |= 1 << pos
        self.passes += 1
        if self.passes >= 3:
            self._auction_over()
            return
        taken = self.spoken | self.passed | (1 << self.senior) | (1 << self.junior)
        partner = (pos + 2) % 4
        newcomer = -1
        if self.rules.duel_replacement == "partner" and not taken >> partner & 1:
            newcomer = partner
        else:
            for k in range(1, 4):
                cand = (pos + k) % 4
                if not taken >> cand & 1:
                    newcomer = cand
                    break
        if newcomer < 0:  # only after out-of-turn speech: let the other duelist go on
            self.to_speak = self.junior if pos == self.senior else self.senior
            return
        if self.rules.duel_replacement == "partner":
            if pos == self.senior:
                self.senior = newcomer
            else:
                self.junior = newcomer
        elif pos == self.senior:
            self.senior, self.junior = self.junior, newcomer
        else:
            self.junior = newcomer
        if self.high_pos >= 0:
            self.to_speak = newcomer
            return
        # Nothing to answer yet: the duelist earliest in the order of speech opens.
        for cand in range(4):
            if cand in (self.senior, self.junior) and not self.spoken >> cand & 1:
                self.to_speak = cand
                return
        self.to_speak = newcomer

    def _auction_over(self) -> None:
        if self.high_pos >= 0:
            self._end_auction(self.high_pos, self.high_value)
        elif self.rules.all_pass == "throw_in":
            self._throw_in("all_pass")
        else:
            self.forced = True

    def _end_auction(self, pos: int, value: int) -> None:
        self.forced = False
        self.caller = self.p[pos]
        self.call = value
        self.target = value
        self.high_pos, self.high_value = pos, value
        self.phase = TRUMP

    def _on_redeal(self, action: RedealAction | FastRedeal) -> None:
        seat = SEAT_NUM[action.seat]
        if self._ended(seat, "asked for a redeal"):
            return
        breach = self._rule_redeal(seat)
        if breach is not None:
            self._add(*breach)
            return
        if -1 in self.dealt[seat][:4]:
            self._add(
                "UNVERIFIED",
                f"{action.seat} asked for a redeal but its first four cards are not all recorded",
            )
        self._throw_in("redeal")

    def _on_trump(self, action: TrumpAction | FastTrump) -> None:
        seat = SEAT_NUM[action.seat]
        if self._ended(seat, "chose the trump"):
            return
        if self.phase == AUCTION:
            if self.forced and seat == self.p[3]:
                self._end_auction(3, self.rules.min_bid)  # the forced call, left implicit
            else:
                self._out_of_phase(seat, "chose the trump")
                pos = self.high_pos if self.high_pos >= 0 else self.pos_of[seat]
                self._end_auction(
                    pos, self.high_value if self.high_pos >= 0 else self.rules.min_bid
                )
        elif self.phase != TRUMP:
            self._add(
                "ACTION_OUT_OF_PHASE", f"{action.seat} chose the trump but it was already chosen"
            )
            return
        if seat != self.caller:
            self._add(
                "OUT_OF_TURN",
                f"{action.seat} chose the trump but the caller {SEATS[self.caller]} chooses it",
            )
        breach = self._rule_trump(action)
        if breach is not None:
            self._add(*breach)
        self._set_trump(action)
        self.phase = PLAY
        self.trump_done = True
        self.ladder_open = True
        self.single_open = True
        self.to_play = self.p[0]
        if not self.rules.double:
            self._deal_second_four()  # no doubling to wait for
        self._full_deal_throw_ins()

    def _set_trump(self, action: TrumpAction | FastTrump) -> None:
        r = self.rules
        c = self.caller
        if action.mode == "no_trump":
            self.trump_mode = MODE_NO_TRUMP
            self.trump = NO_SUIT
            return
        if action.mode == "reverse":
            self.trump_mode = MODE_REVERSE
        suit = SUIT_NUM[action.suit] if action.suit is not None else UNKNOWN_SUIT
        if action.seventh:
            self.seventh = True
            seventh = self.dealt[c][6]
            if seventh >= 0:
                self.face_down = seventh
                suit = seventh >> 3
            else:
                self.face_down_unknown = True
        elif r.trump_marker == "own_card" and action.mode is None:
            card = action.card
            if card is None:
                self.face_down_unknown = True
                self._add(
                    "UNVERIFIED",
                    f"the face-down trump card of {SEATS[c]} is not "
                    "recorded: its plays before the show are not checked",
                )
            else:
                idx = card.index
                if self._owner(idx) < 0 and self.unknown[c] > 0 and not self.played >> idx & 1:
                    self._infer(c, idx)
                if self._owner(idx) == c:
                    self.face_down = idx
                if suit < 0:
                    suit = idx >> 3
        elif action.card is not None:
            self._add(
                "IGNORED_FIELD",
                f"the trump action names {action.card.text} but these rules use a separate marker",
            )
        if suit >= 0:
            self.trump = suit
            self.trump_cands = 1 << suit
        elif action.mode == "reverse":
            self.trump = NO_SUIT

    def _infer(self, seat: int, idx: int) -> None:
        """Record that ``seat`` held the unknown card ``idx`` (a play or a choice showed it)."""
        self.known[seat] |= 1 << idx
        self.held[seat] |= 1 << idx
        self.unknown[seat] -= 1

    def _full_deal_throw_ins(self) -> None:
        r = self.rules
        trump = self.trump
        if not 0 <= trump < 4:
            return
        c = self.caller
        if r.seventh_card_no_scoring_trump_throw_in and self.seventh:
            bit = 1 << self.face_down if self.face_down >= 0 else 0
            if not self.held[c] & SCORING_MASK[trump] & ~bit:
                if self.unknown[c] == 0:
                    self._throw_in("seventh_no_scoring_trump")
                    return
                self.possible_throw_in = "seventh_no_scoring_trump"
        if r.opponents_no_trump_throw_in:
            o1, o2 = (c + 1) % 4, (c + 3) % 4
            seven = 1 << (trump * 8 + SEVEN_PLACE)
            if not (self.held[o1] | self.held[o2]) & SUIT_MASK[trump] & ~seven:
                if self.unknown[o1] == 0 and self.unknown[o2] == 0:
                    self._throw_in("opponents_no_trump")
                    return
                self.possible_throw_in = self.possible_throw_in or "opponents_no_trump"

    def _deal_second_four(self) -> None:
        """The doubling is over and the second four cards are dealt."""
        self.ladder_open = False
        self.second_dealt = True

    def end_doubling(self) -> None:
        """Close the doubling: nobody (else) will Double, Redouble or Set.

        The second four cards are dealt at once when the doubling is over: at the trump choice
        under rules without a Double, at the top of the ladder, or at the first action after
        the trump that is not part of it (single hand, the show, a card). A log has no action
        for "nobody doubles", so a live table (the simulator, after offering the ladder to
        every seat) calls this to deal the second four before the single-hand decision;
        ``deal_steps`` does the same when the log's next action is not part of the ladder.
        Does nothing outside the doubling.

        >>> from schema import Rules, Seat
        >>> from replay.script import run_script
        >>> state = run_script(Rules.preset("standard"), "N", None, "E:15 S:p W:p N:p E:trump=S")
        >>> len(state.hand(Seat.E)), state.end_doubling(), len(state.hand(Seat.E))
        (4, None, 8)
        """
        if self.phase == PLAY and self.ladder_open:
            self._deal_second_four()

    def _ladder_tolerated(self) -> bool:
        # The doubling comes before the second four, so before a full-deal throw-in shows.
        return self.thrown_in in _FULL_DEAL_REASONS and self.ladder_open

    def _on_double(self, action: DoubleAction | FastDouble) -> None:
        self._ladder(SEAT_NUM[action.seat], 1, "doubled", self._rule_double)

    def _on_redouble(self, action: RedoubleAction | FastRedouble) -> None:
        self._ladder(SEAT_NUM[action.seat], 2, "redoubled", self._rule_redouble)

    def _on_set(self, action: SetAction | FastSet) -> None:
        self._ladder(SEAT_NUM[action.seat], 3, "said set", self._rule_set)

    def _ladder(self, seat: int, level: int, what: str, rule: SeatRule) -> None:
        if not self._ladder_tolerated() and self._ended(seat, what):
            return
        breach = rule(seat)
        if breach is not None:
            self._add(*breach)
            return
        self.doubled = level
        if (
            level == 3
            or (level == 2 and not self.rules.set_)
            or (level == 1 and not self.rules.redouble)
        ):
            self._deal_second_four()  # nobody can go higher

    def _on_single_hand(self, action: SingleHandAction | FastSingleHand) -> None:
        seat = SEAT_NUM[action.seat]
        if self._ended(seat, "declared single hand"):
            return
        breach = self._rule_single_hand(seat)
        if breach is not None:
            self._add(*breach)
            return
        self.single = seat
        self.single_open = False
        self._deal_second_four()
        self.to_play = seat

    def _on_show(self, action: ShowAction | FastShow) -> None:
        seat = SEAT_NUM[action.seat]
        if self._ended(seat, "asked for the trump"):
            return
        if self.phase != PLAY:
            self._out_of_phase(seat, "asked for the trump")
            return
        if self.unresolved is not None:
            self._resolve_by(seat)
        self.single_open = False
        self._deal_second_four()
        breach = self._rule_show(seat)
        if breach is not None:
            self._add(*breach)
            if self.shown or self.single >= 0:
                return
        elif self.unknown[seat] and self.led >= 0:
            self._expect_proof(
                seat,
                SUIT_MASK[self.led],
                "SHOW_WHILE_ABLE_TO_FOLLOW",
                f"{action.seat} asked for the trump while holding "
                f"{SUIT_NAME[self.led]} (it later played {{card}}): only a "
                "player who cannot follow may ask",
            )
        self._reveal(seat, action.suit)
        self._check_decided()

    def _reveal(self, seat: int, suit: Suit | None) -> None:
        """The trump is shown (asked for, or automatically), in the current trick."""
        if suit is not None:
            shown = SUIT_NUM[suit]
            if 0 <= self.trump < 4 and shown != self.trump:
                self._add(
                    "SHOW_SUIT_MISMATCH",
                    f"{SEATS[seat]}'s show records "
                    f"{SUIT_NAME[shown]} but the trump chosen is {SUIT_NAME[self.trump]}",
                )
            if self.trump != NO_SUIT:
                self.trump = shown
                self.trump_cands = 1 << shown
        self.shown = True
        self.show_trick = self.trick_no
        self.show_action = self.n_actions
        self.asker = seat
        self.asker_must = self.rules.must_trump_after_show
        self.seventh_turn = self._seventh_exempt(seat) and self.face_down >= 0

    def _on_pair(self, action: PairAction | FastPair) -> None:
        seat = SEAT_NUM[action.seat]
        if self._ended(seat, "showed the Pair"):
            return
        breach = self._rule_pair(seat)
        r = self.rules
        if breach is not None:
            self._add(*breach)
            if breach[0] == "PAIR_NOT_HELD" or r.pair == "off" or self.pair_seat >= 0:
                return
            if self.phase != PLAY or self.single >= 0 or self.trump == NO_SUIT:
                return
        if 0 <= self.trump < 4:
            for place in (KING_PLACE, QUEEN_PLACE):
                idx = self.trump * 8 + place
                if self._owner(idx) < 0 and self.unknown[seat] > 0:
                    self._infer(seat, idx)
                    self._add(
                        "UNVERIFIED",
                        f"{action.seat}'s Pair: {card_text(idx)} is not recorded in its hand",
                    )
        else:
            self._add(
                "UNVERIFIED",
                f"{action.seat}'s Pair cannot be checked: the trump suit is not recorded",
            )
        self.pair_seat = seat
        before = self.target
        if TEAM_OF[seat] == TEAM_OF[self.caller]:
            if self.call >= r.pair_lowers_from_call:
                self.target = max(r.min_bid, self.target - r.pair_points)
        else:
            self.target = min(r.max_bid, self.target + r.pair_points)
        self.pairs.append((seat, self.n_actions, self.target - before))
        self._check_decided()

    def _expect_proof(self, seat: int, mask: int, code: str, message: str) -> None:
        """Remember a breach that a later play of a card in ``mask`` by ``seat`` would prove."""
        fd = 0
        if seat == self.caller and not self.shown:
            if self.face_down_unknown:
                if not 0 <= self.trump < 4 or mask & SUIT_MASK[self.trump]:
                    return  # the later card may be the face-down one
            elif self.face_down >= 0:
                fd = 1 << self.face_down
        mask &= self._unseen_mask() & ~fd
        if mask:
            self.pending.append((seat, mask, code, message, self.n_actions))

    def _on_play(self, action: PlayAction | FastPlay) -> None:
        seat = SEAT_NUM[action.seat]
        idx = action.card.index
        bit = 1 << idx
        if self._ended(seat, f"played {action.card.text}"):
            return
        if self.phase != PLAY:
            self._out_of_phase(seat, f"played {action.card.text}")
            return
        if self.unresolved is not None:
            self._resolve_by(seat)
        if seat in self.trick_seats or (self.single >= 0 and seat == (self.single + 2) % 4):
            self._add(
                "OUT_OF_TURN",
                f"{action.seat} played {action.card.text} but it is "
                f"{SEATS[self.to_play]}'s turn to play",
            )
            return
        self.single_open = False
        self._deal_second_four()
        r = self.rules
        inferred = False
        breach = self._rule_play_turn(seat, idx)
        if breach is not None:
            self._add(*breach)
        breach = self._rule_held(seat, idx)
        if breach is not None:
            self._add(*breach)
        elif not self.held[seat] & bit:
            inferred = True
        if inferred and self.pending:
            self._prove(seat, bit, action.card.text)
        fd_breach = self._rule_face_down(seat, idx)
        if fd_breach is not None:
            self._add(*fd_breach)
        led = self.led
        off_suit = led >= 0 and idx >> 3 != led
        if off_suit:
            revoke = self._rule_follow(seat, idx)
            if revoke is not None:
                self._add(*revoke)
                self._revoked(seat)
            else:
                left = self.unknown[seat] - (1 if inferred else 0)
                if left > 0:
                    self._expect_proof(
                        seat,
                        SUIT_MASK[led],
                        "REVOKE",
                        f"{action.seat} played {action.card.text} on a "
                        f"{SUIT_NAME[led]} lead while holding {SUIT_NAME[led]} "
                        f"(it later played {{card}}): must follow {SUIT_NAME[led]}",
                    )
            must_ask = self._rule_must_ask(seat, idx)
            if must_ask is not None:
                self._add(*must_ask)
            if r.show_trump == "automatic" and self._show_possible():
                self._reveal(seat, None)
                self._check_decided()
        seventh = self._rule_seventh_turned(seat, idx)
        if seventh is not None:
            self._add(*seventh)
        if self.asker_must and seat == self.asker:
            must = self._rule_must_trump(seat, idx)
            if must is not None:
                self._add(*must)
            elif 0 <= self.trump < 4 and not self._follows_first(seat, idx):
                self._expect_trump_proof(seat, idx, inferred)
            self.asker_must = False
        if seat == self.caller:
            self.seventh_turn = False
        # the card leaves the hand
        if self.held[seat] & bit:
            self.held[seat] ^= bit
        elif inferred:
            self.known[seat] |= bit
            self.unknown[seat] -= 1
        if idx == self.face_down and seat == self.caller and not self.shown:
            self.face_down = -1  # played before the show: nothing is face down any more
        self._place(seat, idx, bit)
        self._refresh()

    def _place(self, seat: int, idx: int, bit: int) -> None:
        """The card goes to the table; the trick ends after the last seat's card."""
        self.played |= bit
        self.played_by[seat] += 1
        if self.led < 0:
            self.led = idx >> 3
        self.trick_seats.append(seat)
        self.trick_cards.append(idx)
        size = 3 if self.single >= 0 else 4
        if len(self.trick_cards) >= size:
            self._end_trick()
        else:
            if self.shown and self.rules.end_when_decided:
                self._check_decided()  # a King or Queen of trumps may just have fallen
            nxt = (seat + self._dir) % 4
            while nxt in self.trick_seats or (self.single >= 0 and nxt == (self.single + 2) % 4):
                nxt = (nxt + self._dir) % 4
            if self.to_play in self.trick_seats:
                self.to_play = nxt
            # else: an out-of-turn card; the seat on turn is still to play

    def _expect_trump_proof(self, seat: int, idx: int, inferred: bool) -> None:
        left = self.unknown[seat] - (1 if inferred else 0)
        if left <= 0:
            return
        trump = self.trump
        name = SEATS[seat]
        text = card_text(idx)
        if idx >> 3 != trump:
            self._expect_proof(
                seat,
                SUIT_MASK[trump],
                "MUST_TRUMP_AFTER_SHOW",
                f"{name} played {text} after asking while holding a trump (it "
                "later played {card}): must play a trump after asking",
            )
        elif self.rules.must_overtrump_after_show:
            win_seat, win_card = self._winning()
            if win_seat >= 0 and TEAM_OF[win_seat] != TEAM_OF[seat] and win_card >> 3 == trump:
                higher = self._higher_trumps(win_card)
                if not (1 << idx) & higher:
                    self._expect_proof(
                        seat,
                        higher,
                        "MUST_OVERTRUMP_AFTER_SHOW",
                        f"{name} played {text} after asking while holding a "
                        f"trump above {SEATS[win_seat]}'s {card_text(win_card)} "
                        "(it later played {card}): must beat an opponent's "
                        "winning trump",
                    )

    def _prove(self, seat: int, bit: int, text: str) -> None:
        keep = []
        for entry in self.pending:
            if entry[0] == seat and entry[1] & bit:
                code = entry[2]
                self._add(code, entry[3].replace("{card}", text), entry[4])
                if code == "REVOKE":
                    self._revoked(seat)
            else:
                keep.append(entry)
        self.pending = keep

    def _revoked(self, seat: int) -> None:
        if self.first_revoke_team < 0:
            self.first_revoke_team = TEAM_OF[seat]

    def _trick_winner(self, seats: Sequence[int], cards: Sequence[int], trump: int) -> int:
        reverse = self.trump_mode == MODE_REVERSE and self.shown
        table = (_REVERSE_KEYS if reverse else _KEYS)[trump + 1][cards[0] >> 3]
        best = -1
        winner = seats[0]
        for s, c in zip(seats, cards, strict=True):
            key = table[c]
            if key > best:
                best, winner = key, s
        return winner

    def _end_trick(self) -> None:
        """The trick's last card is down: the highest trump (from the show) or card of the
        suit led takes it."""
        was_fast = self.fast
        seats = self.trick_seats
        cards = self.trick_cards
        self.trick_seats = []
        self.trick_cards = []
        self.led = -1
        self.asker_must = False
        trump = self.trump
        shown = self.shown
        if self.single >= 0 or not shown or trump == NO_SUIT:
            trump = -1
        elif trump < 0:
            self._settle_unknown(seats, cards)
            trump = -2
        if trump > -2:
            reverse = shown and self.trump_mode == MODE_REVERSE
            table = (_REVERSE_KEYS if reverse else _KEYS)[trump + 1][cards[0] >> 3]
            best = table[cards[0]]
            win = 0
            key = table[cards[1]]
            if key > best:
                best, win = key, 1
            key = table[cards[2]]
            if key > best:
                best, win = key, 2
            if len(cards) > 3 and table[cards[3]] > best:
                win = 3
            self._credit(seats, cards, seats[win])
        if self.hard_end or self.unresolved is not None:
            self.fast = False
        elif not was_fast:
            self._refresh()  # the asker's duty ends with the trick

    def _settle_unknown(self, seats: list[int], cards: list[int]) -> None:
        # Shown, suit not recorded: the winner may depend on which suit is trump.
        outcomes: dict[int, int] = {}
        for suit in range(4):
            if self.trump_cands >> suit & 1:
                w = self._trick_winner(seats, cards, suit)
                outcomes[w] = outcomes.get(w, 0) | 1 << suit
        if not self._trump_unknown_reported:
            self._trump_unknown_reported = True
            self._add(
                "TRUMP_UNKNOWN",
                "the trump was shown but its suit is not recorded: "
                "trick winners with trumps are taken from who leads next",
                None,
            )
        if len(outcomes) == 1:
            self._credit(seats, cards, next(iter(outcomes)))
            return
        self.unresolved = (seats, cards, outcomes)
        if self.trick_no == 7:
            self.points_uncertain = True
            self.trick_no = 8
            self.hard_end = True

    def _resolve_by(self, leader: int) -> None:
        assert self.unresolved is not None
        seats, cards, outcomes = self.unresolved
        self.unresolved = None
        if leader in outcomes:
            self.trump_cands &= outcomes[leader]
            if self.trump_cands & (self.trump_cands - 1) == 0:
                self.trump = self.trump_cands.bit_length() - 1
        else:
            self.points_uncertain = True
        self._credit(seats, cards, leader)

    def _credit(self, seats: list[int], cards: list[int], winner: int) -> None:
        pts = CARD_POINTS[cards[0]] + CARD_POINTS[cards[1]] + CARD_POINTS[cards[2]]
        if len(cards) > 3:
            pts += CARD_POINTS[cards[3]]
        number = self.trick_no + 1
        self.trick_no = number
        if number == 8:
            pts += self._bonus
        team = TEAM_OF[winner]
        self.points[team] += pts
        self.tricks.append((seats[0], tuple(seats), tuple(cards), winner, pts))
        self.last_winner = winner
        if self.shown:
            self.side_won_after_show[team] = True
        self.to_play = winner
        if self.single >= 0 and winner != self.single and not self.single_lost:
            # Seed 000 §9: the first trick lost ends the deal, whatever end_when_decided says.
            self.single_lost = True
            self.decided = True
            self.hard_end = True
            return
        if self.trick_no >= 8:
            self.hard_end = True
            if not self.shown and self.single < 0 and self.rules.never_shown == "throw_in":
                self._throw_in("never_shown")
            return
        if self.shown and self.rules.end_when_decided:
            self._check_decided()

    def _check_decided(self) -> None:
        """end_when_decided: after the show, stop once no play or Pair can change the result."""
        if self.rules.end_when_decided and not self.decided and self.result_fixed():
            self.decided = True

    def result_fixed(self, *, pairs: bool = True) -> bool:
        """After the show: True when no card still to play (nor a Pair, unless ``pairs`` is
        False) can change the deal's result."""
        r = self.rules
        if not self.shown or self.single >= 0 or self.caller < 0:
            return False
        team = TEAM_OF[self.caller]
        mine = self.points[team]
        remaining = r.total_points - self.points[0] - self.points[1]
        lo = hi = self.target
        if pairs and r.pair != "off" and self.pair_seat < 0 and self.trump != NO_SUIT:
            teams = self._possible_pair_teams()
            if team in teams and self.call >= r.pair_lowers_from_call:
                lo = max(r.min_bid, self.target - r.pair_points)
            if 1 - team in teams:
                hi = min(r.max_bid, self.target + r.pair_points)
        if mine >= hi:
            return True
        if mine + remaining < lo:
            return not (r.under_half and mine * 2 < self.call <= (mine + remaining) * 2)
        return False

    def _possible_pair_teams(self) -> set[int]:
        if not 0 <= self.trump < 4:
            return {0, 1}
        k = self.trump * 8 + KING_PLACE
        q = self.trump * 8 + QUEEN_PLACE
        if (self.played >> k | self.played >> q) & 1:
            return set()
        ok, oq = self._owner(k), self._owner(q)
        if ok >= 0 and oq >= 0:
            return {TEAM_OF[ok]} if ok == oq else set()
        if ok >= 0 or oq >= 0:
            return {TEAM_OF[ok if ok >= 0 else oq]}
        return {0, 1}

    # ------------------------------------------------------------------ end of the log
    def partial_hands(self) -> str | None:
        """A description of the seats whose dealt cards were not all recorded, or None."""
        hidden = self.hidden_at_deal
        if not any(hidden):
            return None
        parts = [f"{SEATS[s]}: {hidden[s]} unknown" for s in range(4) if hidden[s]]
        return ", ".join(parts) if parts else None

    def points_of(self, team: Team) -> int:
        """Card points the team has taken so far."""
        return self.points[TEAM_NUM[team]]

    def unplayed_points(self) -> int:
        """Card points of the cards not yet played (bonus not included)."""
        return mask_points(~self.played & 0xFFFFFFFF)


def _refreshing(handler: Callable[[DealState, Any], None]) -> Callable[[DealState, Any], None]:
    def run(state: DealState, action: Any) -> None:
        handler(state, action)
        state._refresh()

    return run


_HANDLERS: Final[dict[type, Callable[[DealState, Any], None]]] = {
    # The auction and the doubling cannot change what the play fast path depends on.
    BidAction: DealState._on_speech,
    PassAction: DealState._on_speech,
    DittoAction: DealState._on_speech,
    RedealAction: DealState._on_redeal,
    DoubleAction: DealState._on_double,
    RedoubleAction: DealState._on_redouble,
    SetAction: DealState._on_set,
    TrumpAction: _refreshing(DealState._on_trump),
    SingleHandAction: _refreshing(DealState._on_single_hand),
    ShowAction: _refreshing(DealState._on_show),
    PlayAction: DealState._on_play,
    PairAction: _refreshing(DealState._on_pair),
}
_HANDLERS.update(
    (fast, _HANDLERS[model])
    for model, fast in (
        (BidAction, FastBid),
        (PassAction, FastPass),
        (DittoAction, FastDitto),
        (RedealAction, FastRedeal),
        (DoubleAction, FastDouble),
        (RedoubleAction, FastRedouble),
        (SetAction, FastSet),
        (TrumpAction, FastTrump),
        (SingleHandAction, FastSingleHand),
        (ShowAction, FastShow),
        (PlayAction, FastPlay),
        (PairAction, FastPair),
    )
)
