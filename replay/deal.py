"""The state of one deal: auction, trump, doubling, single hand, show, tricks, Pair, result.

:class:`DealState` is built from the rules, the dealer and the hands (any card may be
unknown), changes only through :meth:`DealState.apply`, and answers ``legal_actions()``,
``current_seat``, ``is_over`` and ``outcome``. Each rule is one ``_rule_*`` method that returns
``(code, message)`` when an action breaks it and None otherwise; ``legal_actions`` filters
candidates with those same methods and ``apply`` records a :class:`~replay.findings.Finding`
for each breach, then carries on as the table would.

>>> from twentynine.schema import Card, Rules, Seat
>>> from twentynine.schema.log import BidAction, PassAction
>>> deal = DealState(Rules.preset("pagat"), Seat.N)
>>> deal.current_seat, [str(a.type) for a in deal.legal_actions()][:3]
(<Seat.E: 'E'>, ['pass', 'bid', 'bid'])
>>> deal.apply(BidAction(seat=Seat.S, value=15))[0].message
"S bid 15 but it is E's turn to speak"
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final, Literal, NamedTuple, cast

from twentynine.replay import _tables
from twentynine.replay._tables import (
    KING_PLACE,
    NO_SUIT,
    QUEEN_PLACE,
    SEAT_NUM,
    SEVEN_PLACE,
    SUIT_NUM,
    TEAM_NUM,
    UNKNOWN_SUIT,
    card_text,
    mask_points,
)
from twentynine.replay.findings import Finding, make_finding
from twentynine.schema import cards as _cards
from twentynine.schema.cards import Card, Direction, Seat, Suit, Team
from twentynine.schema.log import (
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
from twentynine.schema.rules import Rules
from twentynine.schema.shapes import ActionLike, BidLike, PlayLike, ShowLike, TrumpLike

# The tables the engine reads, as constants of its own module. Compiled, a name imported from
# another module is looked up in that module's dict at every read, and a tuple typed with a
# fixed length is copied into a new tuple to be indexed by a variable: a copy typed
# ``tuple[X, ...]`` and kept here is read directly.
CARD_POINTS: Final[tuple[int, ...]] = _tables.CARD_POINTS
SCORING_MASK: Final[tuple[int, ...]] = _tables.SCORING_MASK
SUIT_MASK: Final[tuple[int, ...]] = _tables.SUIT_MASK
SUIT_NAME: Final[tuple[str, ...]] = _tables.SUIT_NAME
TEAM_OF: Final[tuple[int, ...]] = _tables.TEAM_OF
TEAMS: Final[tuple[Team, ...]] = _tables.TEAMS
ALL_CARDS: Final[tuple[Card, ...]] = _cards.ALL_CARDS
SEATS: Final[tuple[Seat, ...]] = _cards.SEATS
SUITS: Final[tuple[Suit, ...]] = _cards.SUITS
_STAKE_TIMES: Final[tuple[int, ...]] = (1, 2, 4, 6)  # by the doubling: none, double, ...

AnyAction = ActionLike
"""An action as either reader reads it (:mod:`schema.shapes`): the engine reads its ``type``."""

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


class DealOutcome:
    """How a finished deal ends: throw-in reason, card points, made or not, score change.

    ``made`` is None for a thrown-in deal; ``score_change`` moves only the caller's team.
    Read-only, compared by value. A plain class rather than a frozen dataclass: compiled, a
    dataclass's generated ``__init__`` runs in Python, and the auditor makes one every deal.

    >>> outcome = DealOutcome(None, {Team.NS: 20, Team.EW: 8}, True, {Team.NS: 1, Team.EW: 0})
    >>> outcome.made, outcome == DealOutcome(None, outcome.points, True, outcome.score_change)
    (True, True)
    >>> outcome.made = False  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    AttributeError: read-only
    """

    __slots__ = ("_made", "_points", "_score_change", "_thrown_in")

    def __init__(
        self,
        thrown_in: str | None,
        points: dict[Team, int],
        made: bool | None,
        score_change: dict[Team, int],
    ) -> None:
        self._thrown_in = thrown_in
        self._points = points
        self._made = made
        self._score_change = score_change

    @property
    def thrown_in(self) -> str | None:
        """The throw-in reason (see :data:`THROWN_IN_REASONS`), or None."""
        return self._thrown_in

    @property
    def points(self) -> dict[Team, int]:
        """Card points by team."""
        return self._points

    @property
    def made(self) -> bool | None:
        """Whether the caller (or the lone player) made it; None for a thrown-in deal."""
        return self._made

    @property
    def score_change(self) -> dict[Team, int]:
        """Game points won or lost by team."""
        return self._score_change

    def _fields(self) -> tuple[str | None, dict[Team, int], bool | None, dict[Team, int]]:
        return self._thrown_in, self._points, self._made, self._score_change

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DealOutcome):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # equal by value, and holds dicts

    def __reduce__(self) -> tuple[type[DealOutcome], tuple[object, ...]]:
        return DealOutcome, self._fields()  # for pickle and copy, compiled or not

    def __repr__(self) -> str:
        return (
            f"DealOutcome(thrown_in={self._thrown_in!r}, points={self._points!r}, "
            f"made={self._made!r}, score_change={self._score_change!r})"
        )


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


def _seat_list(dealer: int, step: int) -> tuple[int, ...]:
    """Seat numbers of P1, P2, P3, P4 (the dealer) in the direction of play.

    Typed ``tuple[int, ...]``: compiled, a tuple of a fixed length is copied into a new tuple
    whenever a variable indexes it (a seat's position, at every bid).
    """
    p1 = (dealer + step) % 4
    return (p1, (p1 + step) % 4, (p1 + 2 * step) % 4, dealer)


def _positions(order: tuple[int, ...]) -> tuple[int, ...]:
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
# By trump + 1 (unknown, the four suits, no trump): the trump King and Queen as a mask, whose
# fall can change which side may still show the Pair
_PAIR_CARDS: Final[tuple[int, ...]] = (
    0,
    *((1 << suit * 8 + KING_PLACE | 1 << suit * 8 + QUEEN_PLACE) for suit in range(4)),
    0,
)
# Which rule of asking for the trump a seat would break (DealState._show_fault)
_SHOW_OK: Final = 0
_SHOW_IN_SINGLE: Final = 1
_SHOW_AGAIN: Final = 2
_SHOW_OUT_OF_TURN: Final = 3
_SHOW_LEADING: Final = 4
_SHOW_CAN_FOLLOW: Final = 5
_NOT_DEALT: Final[tuple[int, ...]] = (-1,) * 8  # the row of a seat whose cards are unknown
_NONE_HIDDEN: Final[tuple[int, ...]] = (0, 0, 0, 0)  # no seat's cards unknown at the deal


_NORTH: Final = Seat.N
_EAST: Final = Seat.E
_SOUTH: Final = Seat.S
_WEST: Final = Seat.W


def _seat_number(seat: Seat) -> int:
    """:data:`SEAT_NUM` of ``seat`` by identity: a lookup per action, cheaper than hashing."""
    if seat is _NORTH:
        return 0
    if seat is _EAST:
        return 1
    if seat is _SOUTH:
        return 2
    if seat is _WEST:
        return 3
    return SEAT_NUM[seat]  # an equal value that is not the member itself


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


class _Options:
    """The rule options the engine reads, copied once from a :class:`Rules` value.

    Rules is a pydantic model: each read of one of its fields is a Python attribute lookup.
    The engine reads these in its hot paths (every bid, trick and check), so a deal reads
    them from this plain compiled record instead; one record serves every deal played
    under the same ``Rules`` object (see :func:`_options_of`).
    """

    __slots__ = (
        "all_pass",
        "bidding",
        "double",
        "duel_replacement",
        "end_when_decided",
        "last_trick_bonus",
        "max_bid",
        "min_bid",
        "must_overtrump_after_show",
        "must_trump_after_show",
        "never_shown",
        "no_trump",
        "opponents_no_trump_throw_in",
        "pair",
        "pair_lowers_from_call",
        "pair_points",
        "redouble",
        "reverse",
        "revoke_loses_deal",
        "set_",
        "seventh_card",
        "seventh_card_no_scoring_trump_throw_in",
        "show_trump",
        "single_hand",
        "single_hand_points",
        "stake",
        "step",
        "total_points",
        "trump_marker",
        "under_half",
        "zero_point_throw_in",
    )

    def __init__(self, rules: Rules) -> None:
        self.min_bid: int = rules.min_bid
        self.max_bid: int = rules.max_bid
        self.bidding: str = rules.bidding
        self.duel_replacement: str = rules.duel_replacement
        self.all_pass: str = rules.all_pass
        self.zero_point_throw_in: str = rules.zero_point_throw_in
        self.trump_marker: str = rules.trump_marker
        self.seventh_card: str = rules.seventh_card
        self.no_trump: bool = rules.no_trump
        self.reverse: bool = rules.reverse
        self.double: bool = rules.double
        self.redouble: bool = rules.redouble
        self.set_: bool = rules.set_
        self.single_hand: bool = rules.single_hand
        self.single_hand_points: int = rules.single_hand_points
        self.show_trump: str = rules.show_trump
        self.must_trump_after_show: bool = rules.must_trump_after_show
        self.must_overtrump_after_show: bool = rules.must_overtrump_after_show
        self.pair: str = rules.pair
        self.pair_points: int = rules.pair_points
        self.pair_lowers_from_call: int = rules.pair_lowers_from_call
        no_scoring_throw_in = rules.seventh_card_no_scoring_trump_throw_in
        self.seventh_card_no_scoring_trump_throw_in: bool = no_scoring_throw_in
        self.opponents_no_trump_throw_in: bool = rules.opponents_no_trump_throw_in
        self.never_shown: str = rules.never_shown
        self.end_when_decided: bool = rules.end_when_decided
        self.under_half: bool = rules.under_half
        self.revoke_loses_deal: bool = rules.revoke_loses_deal
        self.stake: int = rules.stake
        self.total_points: int = rules.total_points
        self.step: int = 1 if rules.direction is _CLOCKWISE else 3  # to the next seat
        self.last_trick_bonus: int = rules.last_trick_bonus


_OPTIONS: Final[dict[int, tuple[Rules, _Options]]] = {}
"""By ``id(rules)``: the rules and their record. Each entry holds its rules, so the id is not
given to another object while the entry stands."""
_OPTIONS_KEPT: Final = 16  # rules objects remembered: the presets, and a few of a file's own


def _options_of(rules: Rules) -> _Options:
    """The options of ``rules``: the record made for an earlier deal when the rules are the
    same object (every deal of a match, and every match of a preset), else a new one."""
    known = _OPTIONS.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    if len(_OPTIONS) >= _OPTIONS_KEPT:
        _OPTIONS.clear()
    options = _Options(rules)
    _OPTIONS[id(rules)] = (rules, options)
    return options


STATE_FIELDS: Final = (
    "_after_end_reported",
    "_bonus",
    "_dir",
    "_o",
    "_partial_reported",
    "_trump_unknown_reported",
    "_viewed_tricks",
    "_asker",
    "_asker_must",
    "_call",
    "_caller",
    "_consec",
    "_dealer",
    "_dealt",
    "_decided",
    "_doubled",
    "_face_down",
    "_face_down_unknown",
    "_fast",
    "_fast_discard",
    "_findings",
    "_first_revoke_team",
    "_forced",
    "_hard_end",
    "_held0",
    "_held1",
    "_held2",
    "_held3",
    "_hidden_at_deal",
    "_high_pos",
    "_high_value",
    "_junior",
    "_known",
    "_ladder_open",
    "_last_winner",
    "_led",
    "_n_actions",
    "_n_spoken",
    "_number",
    "_p",
    "_pair_seat",
    "_pairs",
    "_passed",
    "_passes",
    "_pending",
    "_phase",
    "_played",
    "_played0",
    "_played1",
    "_played2",
    "_played3",
    "_points",
    "_points_uncertain",
    "_pos_of",
    "_possible_throw_in",
    "_rules",
    "_second_dealt",
    "_senior",
    "_seventh",
    "_seventh_turn",
    "_show_action",
    "_show_trick",
    "_shown",
    "_side_won_after_show",
    "_single",
    "_single_lost",
    "_single_open",
    "_spoken",
    "_target",
    "_thrown_in",
    "_to_play",
    "_to_speak",
    "_trick_cards",
    "_trick_no",
    "_trick_seat_bits",
    "_trick_seats",
    "_tricks",
    "_trump",
    "_trump_cands",
    "_trump_done",
    "_trump_mode",
    "_unknown",
    "_unresolved",
)
"""Every attribute of a :class:`DealState`: what :meth:`DealState.copy` copies."""


class DealState:
    """One deal under one set of rules, from the first four cards to the result.

    ``hands`` maps a seat to its eight cards in the order dealt (the first four are the
    bidding hand); a card may be None and a seat may be missing (all unknown). ``number``
    is the deal's 1-based number in its match, used in findings.

    >>> from twentynine.schema import Rules, Seat
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
    ) -> None:
        self._rules = rules
        self._number = number
        self._dealer = SEAT_NUM[dealer]
        self._o = options = _options_of(rules)
        self._dir = options.step
        self._bonus = options.last_trick_bonus
        self._p, self._pos_of = _ORDERS[self._dealer * 4 + self._dir]
        self._findings: list[Finding] = []
        self._n_actions = 0
        # cards: known masks still held (by seat number, see _held_of), unknown counts, card
        # owners, dealt order for views
        self._held0 = self._held1 = self._held2 = self._held3 = 0
        self._unknown = [8, 8, 8, 8]
        self._known = [0, 0, 0, 0]  # cards known to have been dealt to each seat
        # by seat, the cards dealt in order (-1 unknown): tuples, one object where a list is two
        self._dealt: list[tuple[int, ...]] = [_NOT_DEALT] * 4
        self._played = 0
        # by seat number, how many cards it has played (_played_by): int fields, as _held_of's
        self._played0 = self._played1 = self._played2 = self._played3 = 0
        # auction
        self._phase = AUCTION
        self._to_speak = 0
        self._high_value = 0
        self._high_pos = -1
        self._passes = 0
        self._passed = 0
        self._spoken = 0
        self._consec = 0
        self._n_spoken = 0
        self._senior = 0
        self._junior = 1
        self._forced = False
        self._caller = -1
        self._call = 0
        self._target = 0
        # trump
        self._trump_done = False
        self._trump = UNKNOWN_SUIT
        self._trump_cands = 0b1111
        self._trump_mode = MODE_NORMAL
        self._seventh = False
        self._face_down = -1
        self._face_down_unknown = False
        self._shown = False
        self._show_trick = -1
        self._show_action = -1
        self._asker = -1
        self._asker_must = False
        self._seventh_turn = False
        # ladder and single hand
        self._doubled = 0
        self._ladder_open = False
        self._single_open = False
        self._single = -1
        self._single_lost = False
        self._second_dealt = False
        # play
        self._to_play = self._p[0]
        self._trick_no = 0
        self._trick_seats: list[int] = []
        # the same seats as bits: compiled, ``seat in list`` compares boxed ints in Python
        self._trick_seat_bits = 0
        self._trick_cards: list[int] = []
        self._led = -1
        self._tricks: list[Trick] = []
        self._points = [0, 0]
        self._last_winner = -1
        self._side_won_after_show = 0  # bits by team number: won a trick after the show
        self._unresolved: tuple[tuple[int, ...], tuple[int, ...], dict[int, int]] | None = None
        self._points_uncertain = False
        self._pair_seat = -1
        # (seat, action index, target change); a tuple replaced when a Pair is shown (rare)
        self._pairs: tuple[tuple[int, int, int], ...] = ()
        self._first_revoke_team = -1
        # breaches a later card would prove (see _expect_proof); a tuple, seldom changed
        self._pending: tuple[tuple[int, int, str, str, int], ...] = ()
        # end
        self._thrown_in: str | None = None
        self._possible_throw_in: str | None = None
        self._decided = False
        self._hard_end = False
        self._after_end_reported = False
        self._partial_reported = False
        self._trump_unknown_reported = False
        self._viewed_tricks: tuple[tuple[PlayedCard, ...], ...] = ()  # for seat_view
        if hands:
            self._load_hands(hands)
        self._hidden_at_deal = tuple(self._unknown) if self._any_unknown() else _NONE_HIDDEN
        if options.zero_point_throw_in == "automatic":
            self._zero_point_check()
        self._fast = False
        self._fast_discard = False

    # ------------------------------------------------------------------ setup
    def _load_hands(self, hands: Mapping[Seat, Sequence[Card | None]]) -> None:
        seen = 0
        # As a dict and lists (both readers give them): compiled, these are walked directly,
        # any other mapping or sequence through Python's iteration protocol.
        by_seat = hands if isinstance(hands, dict) else dict(hands)
        for seat, cards in by_seat.items():
            s = _seat_number(seat)
            listed: list[Card | None] = cards if isinstance(cards, list) else list(cards)
            eight = cast(list[Card], listed)  # a None is caught below
            try:  # the usual case, eight cards all recorded, without a loop
                c0, c1, c2, c3, c4, c5, c6, c7 = eight
                i0, i1, i2, i3 = c0.index, c1.index, c2.index, c3.index
                i4, i5, i6, i7 = c4.index, c5.index, c6.index, c7.index
                b0, b1, b2, b3 = 1 << i0, 1 << i1, 1 << i2, 1 << i3
                b4, b5, b6, b7 = 1 << i4, 1 << i5, 1 << i6, 1 << i7
                full = b0 | b1 | b2 | b3 | b4 | b5 | b6 | b7
                # the bits' sum is their union only when no two are the same card (a repeat
                # carries); compiled, full.bit_count() would be a Python method call
                different = b0 + b1 + b2 + b3 + b4 + b5 + b6 + b7 == full
            except (ValueError, AttributeError, TypeError):  # not eight, or one is None
                different = False
            if different and not full & seen:  # eight different cards, dealt to no one else
                seen |= full
                self._dealt[s] = (i0, i1, i2, i3, i4, i5, i6, i7)
                self._set_held(s, full)
                self._known[s] = full
                self._unknown[s] = 0
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
                        self._findings.append(
                            make_finding(
                                "HANDS_INVALID",
                                self._number,
                                None,
                                f"{card_text(idx)} is dealt to both {where} and {seat}",
                            )
                        )
                        continue
                    mask |= 1 << idx
            seen |= mask
            self._dealt[s] = tuple(row) if len(row) == 8 else tuple(row + [-1] * (8 - len(row)))
            self._set_held(s, mask)
            self._known[s] = mask
            self._unknown[s] = 8 - mask.bit_count()
        # One seat's unknown cards are exactly the cards nobody else was dealt.
        if not self._any_unknown():
            return
        missing = [s for s in range(4) if self._unknown[s]]
        if len(missing) == 1:
            s = missing[0]
            rest = [i for i in range(32) if not seen >> i & 1]
            if len(rest) == self._unknown[s]:
                row = list(self._dealt[s])
                slots = [i for i in range(8) if row[i] < 0]
                for slot, idx in zip(slots, rest, strict=True):
                    row[slot] = idx
                    self._set_held(s, self._held_of(s) | 1 << idx)
                self._dealt[s] = tuple(row)
                self._known[s] = self._held_of(s)
                self._unknown[s] = 0

    @property
    def owner(self) -> list[int]:
        """Per card number (0..31): the seat number known to have been dealt it, or -1."""
        return [self._owner(i) for i in range(32)]

    def _owner(self, idx: int) -> int:
        """The seat known to have been dealt card ``idx``, or -1."""
        bit = 1 << idx
        for s in range(4):
            if self._known[s] & bit:
                return s
        return -1

    def _zero_point_check(self) -> None:
        for pos in (0, 1):
            first_four = self._dealt[self._p[pos]]
            a, b, c, d = first_four[0], first_four[1], first_four[2], first_four[3]
            if a >= 0 and b >= 0 and c >= 0 and d >= 0:  # the first four all recorded
                if not CARD_POINTS[a] + CARD_POINTS[b] + CARD_POINTS[c] + CARD_POINTS[d]:
                    self._throw_in("zero_point")
                    return
                continue
            if not any(CARD_POINTS[i] for i in (a, b, c, d) if i >= 0):
                self._possible_throw_in = "zero_point"  # no point among those recorded

    # ------------------------------------------------------------------ public facts
    # Read-only: the state changes only through apply. Numbers as in replay._tables: a seat
    # 0..3 (N E S W; -1 none), a suit 0..3 (S H D C; -1 unknown, 4 no trump), a card 0..31
    # (Card.index), a set of cards a 32-bit mask; lists come back as tuples.
    @property
    def rules(self) -> Rules:
        """The rules the deal is played under."""
        return self._rules

    @property
    def number(self) -> int:
        """The deal's 1-based number in its match, as findings give it."""
        return self._number

    @property
    def findings(self) -> list[Finding]:
        """Every finding so far, in the order found (a new list)."""
        return list(self._findings)

    @property
    def n_actions(self) -> int:
        """How many actions were applied: the index the next one has in findings."""
        return self._n_actions

    @property
    def dealer(self) -> int:
        """The dealer's seat number (``dealer_seat`` is the seat)."""
        return self._dealer

    @property
    def phase(self) -> int:
        """0 the auction, 1 the trump choice, 2 the play (``phase_name`` says it in words)."""
        return self._phase

    @property
    def caller(self) -> int:
        """The caller's seat number, -1 before the auction ends."""
        return self._caller

    @property
    def call(self) -> int:
        """The winning bid (0 before the auction ends)."""
        return self._call

    @property
    def target(self) -> int:
        """The points the caller's side needs: the call, moved by any Pair."""
        return self._target

    @property
    def doubled(self) -> int:
        """0, 1, 2, 3: not doubled, doubled, redoubled, set."""
        return self._doubled

    @property
    def ladder_open(self) -> bool:
        """True while a Double, Redouble or Set may still be said."""
        return self._ladder_open

    @property
    def second_dealt(self) -> bool:
        """True once the second four cards are dealt."""
        return self._second_dealt

    @property
    def single(self) -> int:
        """The seat number playing a single hand, or -1."""
        return self._single

    @property
    def trump(self) -> int:
        """The trump suit number: -1 unknown or not chosen, 4 no trump."""
        return self._trump

    @property
    def trump_mode(self) -> int:
        """0 a trump suit, 1 no trump, 2 reverse (``MODE_*``)."""
        return self._trump_mode

    @property
    def seventh(self) -> bool:
        """True when the caller called the seventh card."""
        return self._seventh

    @property
    def face_down(self) -> int:
        """The caller's face-down trump card (a card number) until the show, or -1."""
        return self._face_down

    @property
    def seventh_turn(self) -> bool:
        """True when the caller has turned up the seventh card and owes it to the trick."""
        return self._seventh_turn

    @property
    def shown(self) -> bool:
        """True once the trump is shown."""
        return self._shown

    @property
    def asker(self) -> int:
        """The seat number that asked for (or showed) the trump, or -1."""
        return self._asker

    @property
    def asker_must(self) -> bool:
        """True while the asker still owes a trump to this trick."""
        return self._asker_must

    @property
    def show_trick(self) -> int:
        """The trick of the show, 0-based (-1 before it)."""
        return self._show_trick

    @property
    def show_action(self) -> int:
        """The index of the action that showed the trump (-1 before it)."""
        return self._show_action

    @property
    def pair_seat(self) -> int:
        """The seat number that showed the Pair, or -1."""
        return self._pair_seat

    @property
    def pairs(self) -> tuple[tuple[int, int, int], ...]:
        """Each Pair shown: (seat number, action index, how far it moved the target)."""
        return self._pairs

    @property
    def held(self) -> tuple[int, int, int, int]:
        """Per seat number, the mask of the cards it is known to hold still."""
        return (self._held0, self._held1, self._held2, self._held3)

    @property
    def known(self) -> tuple[int, int, int, int]:
        """Per seat number, the mask of the cards known to have been dealt to it."""
        k = self._known
        return (k[0], k[1], k[2], k[3])

    @property
    def unknown(self) -> tuple[int, int, int, int]:
        """Per seat number, how many of its cards are not known."""
        u = self._unknown
        return (u[0], u[1], u[2], u[3])

    @property
    def played(self) -> int:
        """The mask of the cards played."""
        return self._played

    @property
    def played_by(self) -> tuple[int, int, int, int]:
        """Per seat number, how many cards it has played."""
        return (self._played0, self._played1, self._played2, self._played3)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The finished tricks: (leader, seats, cards, winner, points), in numbers."""
        return tuple(self._tricks)

    @property
    def trick_no(self) -> int:
        """How many tricks are finished."""
        return self._trick_no

    @property
    def trick_seats(self) -> tuple[int, ...]:
        """The seat numbers that have played to the trick on the table, in order."""
        return tuple(self._trick_seats)

    @property
    def trick_cards(self) -> tuple[int, ...]:
        """The card numbers on the table, in the order played."""
        return tuple(self._trick_cards)

    @property
    def led(self) -> int:
        """The suit number led to the trick on the table, or -1."""
        return self._led

    @property
    def to_play(self) -> int:
        """The seat number to play next (``current_seat`` is None once the deal is over)."""
        return self._to_play

    @property
    def winner_pending(self) -> bool:
        """True while a trick's winner waits on the next lead (trump shown, suit unrecorded)."""
        return self._unresolved is not None

    @property
    def points(self) -> tuple[int, int]:
        """Card points taken so far: NS, EW."""
        return (self._points[0], self._points[1])

    @property
    def points_uncertain(self) -> bool:
        """True when a trick's winner, and so the card points, hang on the unrecorded trump."""
        return self._points_uncertain

    @property
    def thrown_in(self) -> str | None:
        """The throw-in reason (:data:`THROWN_IN_REASONS`), or None."""
        return self._thrown_in

    @property
    def possible_throw_in(self) -> str | None:
        """A throw-in the recorded cards neither show nor rule out, or None."""
        return self._possible_throw_in

    @property
    def played_out(self) -> bool:
        """True once no card is left to play: the last trick, or a single hand lost."""
        return self._hard_end

    @property
    def decided(self) -> bool:
        """True once the rules end the deal early because no play can change the result."""
        return self._decided

    # ------------------------------------------------------------------ public state
    @property
    def current_seat(self) -> Seat | None:
        """The seat whose turn it is (None when the deal is over)."""
        if self._hard_end or self._decided or self._thrown_in:
            return None
        if self._phase == AUCTION:
            return SEATS[self._p[3] if self._forced else self._p[self._to_speak]]
        if self._phase == TRUMP:
            return SEATS[self._caller]
        if self._unresolved is not None:
            return None
        return SEATS[self._to_play]

    @property
    def is_over(self) -> bool:
        """True once the deal is thrown in, played out, or decided where the rules end it."""
        return self._hard_end or self._decided or self._thrown_in is not None

    @property
    def stake(self) -> int:
        """Game points at stake now: the rules' stake, times 2, 4 or 6 once doubled,
        redoubled or set; a single hand's own ``single_hand_points``. The one stake formula:
        the result, the audit's facts and the step views all read it.

        >>> from twentynine.schema import Rules, Seat
        >>> DealState(Rules.preset("pagat"), Seat.N).stake
        1
        """
        r = self._o
        if self._single >= 0:
            return r.single_hand_points
        return r.stake * _STAKE_TIMES[self._doubled]

    @property
    def outcome(self) -> DealOutcome | None:
        """The result once the deal is over, else None."""
        if not self.is_over:
            return None
        return self.result()

    def result(self) -> DealOutcome:
        """The result as things stand (a deal stopped early scores nothing)."""
        points = {TEAMS[0]: self._points[0], TEAMS[1]: self._points[1]}
        change = {TEAMS[0]: 0, TEAMS[1]: 0}
        if self._thrown_in is not None or not self.is_over:
            return DealOutcome(self._thrown_in, points, None, change)
        if self._single >= 0:
            team = TEAM_OF[self._single]
            made = not self._single_lost and self._trick_no == 8
            change[TEAMS[team]] = self.stake if made else -self.stake
            return DealOutcome(None, points, made, change)
        team = TEAM_OF[self._caller]
        stake = self.stake
        if self._o.revoke_loses_deal and self._first_revoke_team >= 0:
            made = self._first_revoke_team != team
            change[TEAMS[team]] = stake if made else -stake
            return DealOutcome(None, points, made, change)
        mine = self._points[team]
        made = mine >= self._target
        if made:
            change[TEAMS[team]] = stake
        elif self._o.under_half and mine * 2 < self._call:
            change[TEAMS[team]] = -2 * stake
        else:
            change[TEAMS[team]] = -stake
        return DealOutcome(None, points, made, change)

    @property
    def dealer_seat(self) -> Seat:
        """The deal's dealer."""
        return SEATS[self._dealer]

    @property
    def caller_seat(self) -> Seat | None:
        """The caller (the single-hand player once one is declared), or None."""
        if self._single >= 0:
            return SEATS[self._single]
        return SEATS[self._caller] if self._caller >= 0 else None

    @property
    def trump_suit(self) -> str | None:
        """The trump suit's letter when known (None when unknown, no trump or not chosen)."""
        return _suit_letter(self._trump) if 0 <= self._trump < 4 else None

    @property
    def standing_bid(self) -> tuple[Seat, int] | None:
        """The standing bid: (seat, value), or None."""
        if self._caller >= 0:
            return (SEATS[self._caller], self._call)
        if self._high_pos < 0:
            return None
        return (SEATS[self._p[self._high_pos]], self._high_value)

    @property
    def phase_name(self) -> Phase:
        """``"auction"``, ``"trump"`` (the caller chooses) or ``"play"`` (doubling included);
        see ``is_over`` for the end."""
        return _PHASES[self._phase]

    @property
    def order(self) -> tuple[Seat, Seat, Seat, Seat]:
        """The seats in playing order from P1 (after the dealer) to P4 (the dealer)."""
        p = self._p
        return (SEATS[p[0]], SEATS[p[1]], SEATS[p[2]], SEATS[p[3]])

    def seat_view(self, seat: Seat | None = None) -> DealView:
        """What ``seat`` may know now (an onlooker's view when None): see :class:`DealView`.

        >>> from twentynine.schema import Rules, Seat
        >>> from twentynine.replay.script import run_script
        >>> hands = {"E": "JH 9H AH TH 7S 8C 7D 8D"}
        >>> state = run_script(Rules.preset("pagat"), "N", hands, "E:15 S:p W:p N:p E:trump=H")
        >>> mine, theirs = state.seat_view(Seat.E), state.seat_view(Seat.S)
        >>> " ".join(c.text for c in mine.hand), mine.trump, theirs.trump, theirs.hand
        ('JH 9H AH TH 7S 8C 7D 8D', <Suit.HEARTS: 'H'>, None, ())
        """
        s = SEAT_NUM[seat] if seat is not None else -1
        caller = self._caller
        second = self._second_dealt
        shown = self._shown
        # The seventh card names the trump unseen, even by the caller, until the second deal.
        caller_knows = s == caller >= 0 and (second or not self._seventh)
        single = self._single
        trump: Suit | None = None
        if single < 0 and 0 <= self._trump < 4 and (shown or caller_knows):
            trump = SUITS[self._trump]
        face_down: Card | None = None
        if caller_knows and not shown and self._face_down >= 0:
            face_down = ALL_CARDS[self._face_down]
        hand: tuple[Card, ...] = ()
        if s >= 0:
            held = self._held_of(s)
            row = self._dealt[s]
            listed = [i for i in (row if second else row[:4]) if i >= 0 and held >> i & 1]
            if second:  # cards learnt from plays, beyond those recorded as dealt
                extra = held
                for i in row:
                    if i >= 0:
                        extra &= ~(1 << i)
                if extra:
                    listed.extend(i for i in range(32) if extra >> i & 1)
            hand = tuple([ALL_CARDS[i] for i in listed])
        tricks = self._tricks
        seen = self._viewed_tricks
        if len(seen) != len(tricks):
            seen += tuple([_trick_cards(t[1], t[2]) for t in tricks[len(seen) :]])
            self._viewed_tricks = seen
        p = self._p
        return DealView(
            seat=seat,
            phase=_PHASES[self._phase],
            dealer=SEATS[self._dealer],
            order=(SEATS[p[0]], SEATS[p[1]], SEATS[p[2]], SEATS[p[3]]),
            to_act=self.current_seat,
            hand=hand,
            second_dealt=second,
            standing=self.standing_bid,
            caller=SEATS[caller] if caller >= 0 else None,
            call=self._call if caller >= 0 else None,
            target=self._target if caller >= 0 else None,
            doubled=self._doubled,
            doubling_open=self._ladder_open and not self.is_over,
            seventh=self._seventh,
            trump=trump,
            face_down=face_down,
            shown=shown,
            asker=SEATS[self._asker] if shown and self._asker >= 0 else None,
            pair=SEATS[self._pair_seat] if self._pair_seat >= 0 else None,
            single=SEATS[single] if single >= 0 else None,
            tricks=seen,
            winners=tuple([SEATS[t[3]] for t in tricks]),
            trick=_trick_cards(self._trick_seats, self._trick_cards),
            led=SUITS[self._led] if 0 <= self._led < 4 else None,
            points=(self._points[0], self._points[1]),
        )

    def copy(self) -> DealState:
        """An independent copy (for look-ahead: ``check`` uses one)."""
        # Through __init__ (cheap beside a look-ahead): a compiled class has no bare __new__.
        other = DealState(self._rules, SEATS[self._dealer], number=self._number)
        for name in STATE_FIELDS:
            value = getattr(self, name)
            if isinstance(value, list):
                value = [list(v) if isinstance(v, list) else v for v in value]
            setattr(other, name, value)
        return other

    def check(self, action: AnyAction) -> Finding | None:
        """The first error finding ``action`` would give here, without changing the state.

        >>> from twentynine.schema import Rules, Seat
        >>> from twentynine.schema.log import BidAction
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
        if not self._second_dealt:
            row = self._dealt[s][:4]
            if v != s:
                return [None] * 4
            return [ALL_CARDS[i] if i >= 0 else None for i in row]
        count = 8 - self._played_by(s)
        if v != s:
            public: list[Card | None] = []
            if self._pair_seat == s and 0 <= self._trump < 4:
                for place in (KING_PLACE, QUEEN_PLACE):
                    idx = self._trump * 8 + place
                    if not self._played >> idx & 1:
                        public.append(ALL_CARDS[idx])
            return public + [None] * (count - len(public))
        held = self._held_of(s)
        cards: list[Card | None] = [
            ALL_CARDS[i] for i in self._dealt[s] if i >= 0 and held >> i & 1
        ]
        listed = 0
        for i in self._dealt[s]:
            if i >= 0:
                listed |= 1 << i
        extra = held & ~listed
        cards.extend(ALL_CARDS[i] for i in range(32) if extra >> i & 1)
        cards.extend([None] * self._unknown[s])
        return cards

    def trump_status(self, viewer: Seat | None = None) -> str:
        """``not chosen``, ``hidden``, ``known to the caller: H``, ``shown: H`` (or no trump)."""
        if not self._trump_done:
            return "not chosen"
        if self._single >= 0:
            return "single hand: no trump"
        suit = (
            "no trump"
            if self._trump == NO_SUIT
            else (_suit_letter(self._trump) if self._trump >= 0 else "unknown")
        )
        if self._shown:
            return f"shown: {suit}"
        if self._seventh and not self._second_dealt:
            return "hidden"
        if viewer is None or SEAT_NUM[viewer] == self._caller:
            return f"known to the caller: {suit}"
        return "hidden"

    def trick(self) -> list[tuple[Seat, Card]]:
        """The cards on the table in the current trick, in the order played."""
        return [
            (SEATS[s], ALL_CARDS[c])
            for s, c in zip(self._trick_seats, self._trick_cards, strict=True)
        ]

    # ------------------------------------------------------------------ helpers
    def _add(self, code: str, message: str, action: int | None = -2) -> None:
        where = self._n_actions if action == -2 else action
        self._findings.append(make_finding(code, self._number, where, message))

    def _throw_in(self, reason: str) -> None:
        self._thrown_in = reason

    def _any_unknown(self) -> bool:
        """Whether a seat holds cards not recorded (``any()`` would be a Python call)."""
        unknown = self._unknown
        return bool(unknown[0] or unknown[1] or unknown[2] or unknown[3])

    def _held_of(self, seat: int) -> int:
        """The cards ``seat`` is known to hold still, as a mask.

        Four int fields rather than a list: compiled, an int stored in a list is a Python
        object, made anew at every card played.
        """
        if seat == 0:
            return self._held0
        if seat == 1:
            return self._held1
        if seat == 2:
            return self._held2
        return self._held3

    def _set_held(self, seat: int, mask: int) -> None:
        if seat == 0:
            self._held0 = mask
        elif seat == 1:
            self._held1 = mask
        elif seat == 2:
            self._held2 = mask
        else:
            self._held3 = mask

    def _played_by(self, seat: int) -> int:
        """How many cards ``seat`` has played."""
        if seat == 0:
            return self._played0
        if seat == 1:
            return self._played1
        if seat == 2:
            return self._played2
        return self._played3

    def _face_down_mask(self, seat: int) -> int:
        """The caller's face-down card while it may not be played (0 otherwise)."""
        if seat != self._caller or self._face_down < 0 or self._shown:
            return 0
        if 8 - self._played_by(seat) <= 1:
            return 0
        return 1 << self._face_down

    def _unseen_mask(self) -> int:
        """Cards no recorded hand holds and nobody has played."""
        k = self._known
        return ~(k[0] | k[1] | k[2] | k[3] | self._played) & 0xFFFFFFFF

    def _winning(self) -> tuple[int, int]:
        """(seat, card) winning the current trick so far, trumps counting when shown."""
        trump = self._trump if self._shown and self._single < 0 else -1
        reverse = self._trump_mode == MODE_REVERSE and self._shown
        best = -1
        best_seat = -1
        best_key = -1
        seats, cards = self._trick_seats, self._trick_cards
        for i in range(len(cards)):  # compiled, zip() is a Python call
            s, c = seats[i], cards[i]
            suit = c >> 3
            place = c & 7
            strength = place if reverse else 7 - place
            if suit == trump:
                key = 16 + strength
            elif suit == self._led:
                key = strength
            else:
                continue
            if key > best_key:
                best_key, best, best_seat = key, c, s
        return best_seat, best

    # ------------------------------------------------------------------ rules: auction
    def _rule_auction_turn(self, seat: int, what: str) -> Breach | None:
        if self._forced:
            if seat != self._p[3]:
                return (
                    "OUT_OF_TURN",
                    f"{SEATS[seat]} {what} but the dealer {SEATS[self._p[3]]} "
                    "takes the call after three passes",
                )
            return None
        expected = self._p[self._to_speak]
        if seat != expected:
            return (
                "OUT_OF_TURN",
                f"{SEATS[seat]} {what} but it is {SEATS[expected]}'s turn to speak",
            )
        return None

    def _rule_bid(self, seat: int, kind: int, value: int) -> Breach | None:
        """Bidding limits, the standing bid, Ditto and the dealer's forced call."""
        r = self._o
        name = SEATS[seat]
        pos = self._pos_of[seat]
        if self._forced:
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
            if pos != self._senior:
                return (
                    "DITTO_NOT_ALLOWED",
                    f"{name} said ditto but only the senior duelist "
                    f"({SEATS[self._p[self._senior]]}) may equal the standing bid",
                )
            if self._high_pos < 0 or self._high_pos == pos:
                return (
                    "DITTO_NOT_ALLOWED",
                    f"{name} said ditto with no bid of the other duelist to equal",
                )
            return None
        if value < r.min_bid:
            return ("BID_TOO_LOW", f"{name} bid {value}: the lowest bid is {r.min_bid}")
        if value > r.max_bid:
            return ("BID_TOO_HIGH", f"{name} bid {value}: the highest bid is {r.max_bid}")
        if self._high_pos >= 0:
            equal_ok = duel and pos == self._senior and self._high_pos != pos
            floor = self._high_value if equal_ok else self._high_value + 1
            if value < floor:
                holder = SEATS[self._p[self._high_pos]]
                return (
                    "BID_TOO_LOW",
                    f"{name} bid {value} after {holder}'s {self._high_value}: "
                    "a bid must be higher than the standing bid",
                )
        return None

    def _rule_redeal(self, seat: int) -> Breach | None:
        """Zero-point redeal on request: any seat with no points in its first four (seed 003 §7)."""
        name = SEATS[seat]
        if self._o.zero_point_throw_in != "on_request":
            return ("REDEAL_NOT_ALLOWED", f"{name} asked for a redeal but these rules have none")
        if self._phase != AUCTION:
            return ("REDEAL_NOT_ALLOWED", f"{name} asked for a redeal after the auction")
        first = [i for i in self._dealt[seat][:4] if i >= 0]
        scoring = [i for i in first if CARD_POINTS[i]]
        if scoring:
            return (
                "REDEAL_NOT_ALLOWED",
                f"{name} asked for a redeal holding "
                f"{card_text(scoring[0])} in the first four: only a hand without points may",
            )
        return None

    # ------------------------------------------------------------------ rules: trump
    def _rule_trump(self, action: TrumpLike) -> Breach | None:
        """What the caller may choose: a suit, the seventh card, an own card, no trump, reverse."""
        r = self._o
        name = SEATS[self._caller]
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
            seventh = self._dealt[self._caller][6]
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
            first = self._dealt[self._caller][:4]
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
        if not self._o.double:
            return ("DOUBLE_NOT_ALLOWED", f"{name} doubled but these rules have no Double")
        if not self._trump_done:
            return ("DOUBLE_NOT_ALLOWED", f"{name} doubled before the trump was chosen")
        if not self._ladder_open:
            return ("DOUBLE_NOT_ALLOWED", f"{name} doubled after the second four cards")
        if TEAM_OF[seat] == TEAM_OF[self._caller]:
            return ("DOUBLE_NOT_ALLOWED", f"{name} doubled but {name} is on the caller's side")
        if self._doubled:
            return ("DOUBLE_NOT_ALLOWED", f"{name} doubled but the deal is already doubled")
        return None

    def _rule_redouble(self, seat: int) -> Breach | None:
        name = SEATS[seat]
        if not self._o.redouble:
            return ("REDOUBLE_NOT_ALLOWED", f"{name} redoubled but these rules have no Redouble")
        if not self._trump_done or not self._ladder_open:
            return ("REDOUBLE_NOT_ALLOWED", f"{name} redoubled outside the doubling")
        if self._doubled != 1:
            why = "nobody has doubled" if self._doubled == 0 else "the deal is already redoubled"
            return ("REDOUBLE_NOT_ALLOWED", f"{name} redoubled but {why}")
        if TEAM_OF[seat] != TEAM_OF[self._caller]:
            return ("REDOUBLE_NOT_ALLOWED", f"{name} redoubled but only the caller's side may")
        return None

    def _rule_set(self, seat: int) -> Breach | None:
        name = SEATS[seat]
        if not self._o.set_:
            return ("SET_NOT_ALLOWED", f"{name} said set but these rules have no Set")
        if not self._trump_done or not self._ladder_open:
            return ("SET_NOT_ALLOWED", f"{name} said set outside the doubling")
        if self._doubled != 2:
            return ("SET_NOT_ALLOWED", f"{name} said set but the deal is not redoubled")
        if TEAM_OF[seat] == TEAM_OF[self._caller]:
            return ("SET_NOT_ALLOWED", f"{name} said set but only the doubling side may")
        return None

    def _rule_single_hand(self, seat: int) -> Breach | None:
        name = SEATS[seat]
        if not self._o.single_hand:
            return (
                "SINGLE_HAND_NOT_ALLOWED",
                f"{name} declared single hand but these rules have no single hand",
            )
        if not self._trump_done:
            return (
                "SINGLE_HAND_NOT_ALLOWED",
                f"{name} declared single hand before the trump was chosen",
            )
        if self._single >= 0:
            return (
                "SINGLE_HAND_NOT_ALLOWED",
                f"{name} declared single hand but {SEATS[self._single]} already plays alone",
            )
        if not self._single_open:
            return (
                "SINGLE_HAND_NOT_ALLOWED",
                f"{name} declared single hand after the opening lead",
            )
        return None

    # ------------------------------------------------------------------ rules: play
    def _rule_play_turn(self, seat: int, card: int) -> Breach | None:
        if seat != self._to_play:
            return (
                "OUT_OF_TURN",
                f"{SEATS[seat]} played {card_text(card)} but it is "
                f"{SEATS[self._to_play]}'s turn to play",
            )
        return None

    def _rule_held(self, seat: int, card: int) -> Breach | None:
        """A seat plays a card it holds: known in its hand, or possibly among its unknown cards."""
        bit = 1 << card
        if self._held_of(seat) & bit:
            return None
        name = SEATS[seat]
        if self._played & bit:
            return (
                "CARD_ALREADY_PLAYED",
                f"{name} played {card_text(card)}, which was already played",
            )
        owner = self._owner(card)
        if owner >= 0 and owner != seat:
            return ("CARD_NOT_HELD", f"{name} played {card_text(card)}, which {SEATS[owner]} holds")
        if self._unknown[seat] == 0 or owner == seat:
            return ("CARD_NOT_HELD", f"{name} played {card_text(card)}, which {name} does not hold")
        return None

    def _rule_face_down(self, seat: int, card: int) -> Breach | None:
        """The face-down trump card waits for the show, unless it is the caller's last card."""
        if card == self._face_down and self._face_down_mask(seat):
            return (
                "TRUMP_CARD_PLAYED_EARLY",
                f"{SEATS[seat]} played {card_text(card)}, the "
                "face-down trump card, before the trump was shown",
            )
        return None

    def _follow_cards(self, seat: int) -> int:
        """The cards ``seat`` could follow the suit led with (0: it cannot, or nothing is led).

        The one follow-suit test: the caller's face-down trump card does not count until the
        show, unless it is the caller's last card.
        """
        led = self._led
        if led < 0:
            return 0
        return self._held_of(seat) & SUIT_MASK[led] & ~self._face_down_mask(seat)

    def _rule_follow(self, seat: int, card: int) -> Breach | None:
        """Follow suit if you can."""
        led = self._led
        if led < 0 or card >> 3 == led:
            return None
        follow = self._follow_cards(seat)
        if follow:
            low = (follow & -follow).bit_length() - 1
            return (
                "REVOKE",
                f"{SEATS[seat]} played {card_text(card)} holding {card_text(low)}: "
                f"must follow {SUIT_NAME[led]}",
            )
        return None

    def _show_possible(self) -> bool:
        return self._trump_done and not self._shown and self._single < 0 and self._led >= 0

    def _rule_must_ask(self, seat: int, card: int) -> Breach | None:
        """Compulsory show: a seat that cannot follow asks before it plays."""
        if card >> 3 == self._led or not self._show_possible():
            return None
        if self._o.show_trump != "compulsory" or self._seventh_exempt(seat):
            return None
        if self._follow_cards(seat):
            return None  # a revoke, reported as such
        return (
            "SHOW_REQUIRED",
            f"{SEATS[seat]} played {card_text(card)} on a "
            f"{SUIT_NAME[self._led]} lead without asking for the trump: the first player who "
            "cannot follow must ask",
        )

    def _seventh_exempt(self, seat: int) -> bool:
        # Pagat's seventh card: the caller who cannot follow chooses to turn it up or not.
        return self._o.seventh_card == "pagat" and self._seventh and seat == self._caller

    def _follows_first(self, seat: int, card: int) -> bool:
        """True when following suit comes before the duty a show leaves the seat.

        The duties to trump after asking and to play the turned-up seventh card belong to a
        player who cannot follow. A player who asked while able to follow (a breach) follows
        suit as before; so does a leader who showed the trump (also a breach): nothing binds
        the lead. ``card`` of the suit led always follows.

        Here the caller's face-down card never counts as a card to follow with, even after
        the show: a caller whose only card of the suit led is that card, and who plays
        another suit, is held to the duty as well as to following (two findings, a revoke
        and the broken duty), as the engine has always reported it.
        """
        led = self._led
        if led < 0 or card >> 3 == led:
            return True
        face_down = 1 << self._face_down if self._face_down >= 0 else 0
        return bool(self._follow_cards(seat) & ~face_down)

    def _rule_seventh_turned(self, seat: int, card: int) -> Breach | None:
        """Pagat seventh card: turning it up plays it to the trick."""
        if (
            self._seventh_turn
            and seat == self._caller
            and self._face_down >= 0
            and card != self._face_down
            and not self._follows_first(seat, card)
        ):
            return (
                "SEVENTH_CARD_NOT_PLAYED",
                f"{SEATS[seat]} played {card_text(card)} after "
                f"turning up the seventh card: turning it up plays it "
                f"({card_text(self._face_down)})",
            )
        return None

    def _asks_now(self, seat: int) -> bool:
        """True when ``seat`` plays under the asker's obligation in this trick."""
        if self._asker_must and seat == self._asker:
            return True
        if not self._show_possible() or self._o.show_trump != "automatic":
            return False
        return self._o.must_trump_after_show and not self._follow_cards(seat)

    def _rule_must_trump(self, seat: int, card: int) -> Breach | None:
        """After asking: play a trump if able; bhoos: beat an opponent's winning trump if able."""
        if not self._asks_now(seat) or not 0 <= self._trump < 4:
            return None
        if self._follows_first(seat, card):
            return None
        trump = self._trump
        name = SEATS[seat]
        # A face-down trump card that may not be played yet is not a trump one is able to play.
        playable = self._held_of(seat) & ~self._face_down_mask(seat)
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
        if not self._o.must_overtrump_after_show:
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
        if self._shown:
            return self._winning()
        self._shown = True  # the automatic show happens before the asker's card
        try:
            return self._winning()
        finally:
            self._shown = False

    def _higher_trumps(self, card: int) -> int:
        suit, place = card >> 3, card & 7
        if self._trump_mode == MODE_REVERSE:
            return ((0xFF >> (place + 1)) << (place + 1)) << (suit * 8)
        return ((1 << place) - 1) << (suit * 8)

    def _play_rules(self, seat: int, card: int, record: bool) -> Breach | None:
        """The play rules, in their one order: turn, holding, the face-down card, following
        suit, the compulsory show, the turned-up seventh card, trumping after asking.

        ``legal_actions`` and the auditor's fast path walk them with ``record`` False: the
        first breach, or None when the card may be played. ``apply`` walks them with
        ``record`` True: every breach is recorded, and after each rule the table does what
        its verdict asks (a card from the unknown ones is now known to have been held, a
        revoke is remembered, a proof is awaited, the trump is shown automatically, the
        asker's duty ends); it then returns None.
        """
        breach = self._rule_play_turn(seat, card)
        if breach is not None and self._stops_at(breach, record):
            return breach
        breach = self._rule_held(seat, card)
        if breach is not None and self._stops_at(breach, record):
            return breach
        if record:
            self._after_held(seat, card, breach)
        breach = self._rule_face_down(seat, card)
        if breach is not None and self._stops_at(breach, record):
            return breach
        breach = self._rule_follow(seat, card)
        if breach is not None and self._stops_at(breach, record):
            return breach
        if record:
            self._after_follow(seat, card, breach)
        breach = self._rule_must_ask(seat, card)
        if breach is not None and self._stops_at(breach, record):
            return breach
        if record:
            self._after_must_ask(seat, card)
        breach = self._rule_seventh_turned(seat, card)
        if breach is not None and self._stops_at(breach, record):
            return breach
        breach = self._rule_must_trump(seat, card)
        if breach is not None and self._stops_at(breach, record):
            return breach
        if record:
            self._after_must_trump(seat, card, breach)
        return None

    def _stops_at(self, breach: Breach, record: bool) -> bool:
        """True when the walk of the play rules ends at ``breach``; recorded when ``record``."""
        if record:
            self._add(*breach)
            return False
        return True

    def _after_held(self, seat: int, card: int, breach: Breach | None) -> None:
        bit = 1 << card
        if breach is None and not self._held_of(seat) & bit:  # one of the seat's unknown cards
            if self._pending:
                self._prove(seat, bit, card_text(card))
            self._infer(seat, card)

    def _after_follow(self, seat: int, card: int, breach: Breach | None) -> None:
        led = self._led
        if breach is not None:
            self._revoked(seat)
        elif led >= 0 and card >> 3 != led and self._unknown[seat] > 0:
            name, text, suit = SEATS[seat], card_text(card), SUIT_NAME[led]
            self._expect_proof(
                seat,
                SUIT_MASK[led],
                "REVOKE",
                f"{name} played {text} on a {suit} lead while holding {suit} "
                f"(it later played {{card}}): must follow {suit}",
            )

    def _after_must_ask(self, seat: int, card: int) -> None:
        led = self._led
        off_suit = led >= 0 and card >> 3 != led
        if off_suit and self._o.show_trump == "automatic" and self._show_possible():
            self._reveal(seat, None)
            self._check_decided()

    def _after_must_trump(self, seat: int, card: int, breach: Breach | None) -> None:
        if self._asker_must and seat == self._asker:
            if breach is None and 0 <= self._trump < 4 and not self._follows_first(seat, card):
                self._expect_trump_proof(seat, card)
            self._asker_must = False

    def _play_breach(self, seat: int, card: int) -> Breach | None:
        """The first play rule ``card`` breaks, or None."""
        return self._play_rules(seat, card, False)

    def _show_fault(self, seat: int) -> int:
        """Which rule of asking for the trump ``seat`` would break now (``_SHOW_OK``: none):
        :meth:`_rule_show`'s test without its message, which ``legal_actions`` would
        otherwise write at nearly every card of a deal only to drop it."""
        if self._single >= 0:
            return _SHOW_IN_SINGLE
        if self._shown:
            return _SHOW_AGAIN
        if seat != self._to_play:
            return _SHOW_OUT_OF_TURN
        if self._led < 0:
            return _SHOW_LEADING
        if self._follow_cards(seat):
            return _SHOW_CAN_FOLLOW
        return _SHOW_OK

    def _rule_show(self, seat: int) -> Breach | None:
        """Asking for the trump: not the leader, only once, only by a seat that cannot follow."""
        fault = self._show_fault(seat)
        if fault == _SHOW_OK:
            return None
        name = SEATS[seat]
        if fault == _SHOW_IN_SINGLE:
            return ("SHOW_NOT_ALLOWED", f"{name} asked for the trump in a single hand")
        if fault == _SHOW_AGAIN:
            return ("SHOW_NOT_ALLOWED", f"{name} asked for the trump but it is already shown")
        if fault == _SHOW_OUT_OF_TURN:
            return (
                "OUT_OF_TURN",
                f"{name} asked for the trump but it is {SEATS[self._to_play]}'s turn to play",
            )
        if fault == _SHOW_LEADING:
            return (
                "SHOW_NOT_ALLOWED",
                f"{name} asked for the trump while leading: the leader never shows the trump",
            )
        follow = self._follow_cards(seat)
        low = (follow & -follow).bit_length() - 1
        return (
            "SHOW_WHILE_ABLE_TO_FOLLOW",
            f"{name} asked for the trump holding "
            f"{card_text(low)}: only a player who cannot follow may ask",
        )

    def _pair_owner_breach(self, seat: int) -> Breach | None:
        name = SEATS[seat]
        for place in (KING_PLACE, QUEEN_PLACE):
            idx = self._trump * 8 + place
            if self._played >> idx & 1:
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
            if owner < 0 and self._unknown[seat] == 0:
                return ("PAIR_NOT_HELD", f"{name} showed the Pair without {card_text(idx)}")
        return None

    def _rule_pair(self, seat: int) -> Breach | None:
        """The Pair: K and Q of trumps still held, after the show, at the rules' moment."""
        r = self._o
        name = SEATS[seat]
        if r.pair == "off":
            return ("PAIR_NOT_ALLOWED", f"{name} showed the Pair but these rules have no Pair")
        if self._phase != PLAY or self._single >= 0 or self._trump == NO_SUIT:
            return ("PAIR_NOT_ALLOWED", f"{name} showed the Pair with no trump suit in play")
        if self._pair_seat >= 0:
            return (
                "PAIR_NOT_ALLOWED",
                f"{name} showed the Pair but {SEATS[self._pair_seat]} already showed it",
            )
        if not self._shown:
            return ("PAIR_NOT_ALLOWED", f"{name} showed the Pair but the trump has not been shown")
        team = TEAM_OF[seat]
        if r.pair == "holder_turn":
            if seat != self._to_play or self._unresolved is not None:
                return (
                    "PAIR_NOT_ALLOWED",
                    f"{name} showed the Pair out of turn: the Pair is shown on the holder's turn",
                )
            if self._trick_no <= self._show_trick:
                return (
                    "PAIR_NOT_ALLOWED",
                    f"{name} showed the Pair in the trick of the show: "
                    "it may be shown from the next trick",
                )
        elif r.pair == "after_side_wins":
            if not self._side_won_after_show >> team & 1:
                return (
                    "PAIR_NOT_ALLOWED",
                    f"{name} showed the Pair before its side won a trick after the show",
                )
        elif (
            self._trick_cards
            or self._last_winner < 0
            or TEAM_OF[self._last_winner] != team
            or self._show_trick > self._trick_no - 1
        ):
            return (
                "PAIR_NOT_ALLOWED",
                f"{name} showed the Pair but not immediately after its "
                "side won a trick after the show",
            )
        if 0 <= self._trump < 4:
            return self._pair_owner_breach(seat)
        return None

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, seat: Seat | None = None) -> list[Action]:
        """Every action the rules allow now (by ``seat`` only, when given).

        Optional declarations (Double, single hand, the Pair) may come from a seat other
        than ``current_seat``. With unknown cards, only plays of known cards are listed.

        >>> from twentynine.schema import Rules, Seat
        >>> deal = DealState(Rules.preset("bhoos"), Seat.N)
        >>> len(deal.legal_actions())  # pass, or a bid of 16 to 28
        14
        """
        if self.is_over:
            return []
        acts: list[Action] = []
        if self._phase == AUCTION:
            self._legal_auction(acts)
        elif self._phase == TRUMP:
            self._legal_trump(acts)
        else:
            self._legal_play(acts)
        if seat is not None:
            return [a for a in acts if a.seat is seat]
        return acts

    def _legal_auction(self, acts: list[Action]) -> None:
        r = self._o
        s = self._p[3] if self._forced else self._p[self._to_speak]
        if r.zero_point_throw_in == "on_request" and self._rule_redeal(s) is None:
            acts.append(_REDEALS[s])
        if self._forced:
            acts.append(_BIDS[s][r.min_bid])
            return
        acts.append(_PASSES[s])
        if r.bidding == "duel" and self._rule_bid(s, DITTO, 0) is None:
            acts.append(_DITTOS[s])
            start = self._high_value + 1
        else:
            start = self._high_value + 1 if self._high_pos >= 0 else r.min_bid
        for v in range(max(start, r.min_bid), r.max_bid + 1):
            acts.append(_BIDS[s][v])

    def _legal_trump(self, acts: list[Action]) -> None:
        r = self._o
        seat = SEATS[self._caller]
        if r.trump_marker == "own_card":
            first = [i for i in self._dealt[self._caller][:4] if i >= 0]
            if first and -1 not in self._dealt[self._caller][:4]:
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
        if self._ladder_open:
            for s in range(4):
                if self._rule_double(s) is None:
                    acts.append(_DOUBLES[s])
                if self._rule_redouble(s) is None:
                    acts.append(_REDOUBLES[s])
                if self._rule_set(s) is None:
                    acts.append(_SETS[s])
        if self._single_open and self._o.single_hand:
            for pos in range(4):
                s = self._p[pos]
                if self._rule_single_hand(s) is None:
                    acts.append(_SINGLES[s])
        if self._unresolved is not None:
            return
        if self._o.pair != "off" and self._shown and self._pair_seat < 0:
            for s in range(4):
                if self._rule_pair(s) is None and self._pair_fully_known(s):
                    acts.append(_PAIRS[s])
        seat = self._to_play
        if self._o.show_trump != "automatic" and self._show_fault(seat) == _SHOW_OK:
            acts.append(_SHOWS[seat])
        hand = self._held_of(seat)
        if self._led >= 0 and self._follow_cards(seat):
            # A card off the suit led breaks the rule to follow (or one before it): not asked
            # about, so that no breach's message is written for it only to be dropped
            hand &= SUIT_MASK[self._led]
        while hand:
            low = hand & -hand
            idx = low.bit_length() - 1
            hand ^= low
            if self._play_breach(seat, idx) is None:
                acts.append(_PLAYS[seat][idx])

    def _pair_fully_known(self, seat: int) -> bool:
        if not 0 <= self._trump < 4:
            return False
        k = self._trump * 8 + KING_PLACE
        q = self._trump * 8 + QUEEN_PLACE
        return bool(self._held_of(seat) >> k & 1 and self._held_of(seat) >> q & 1)

    # ------------------------------------------------------------------ apply
    def apply(self, action: AnyAction) -> list[Finding]:
        """Apply one action as the table would, and return the findings it gave.

        >>> from twentynine.schema import Rules, Seat
        >>> from twentynine.schema.log import PassAction
        >>> deal = DealState(Rules.preset("bangladesh"), Seat.N)
        >>> [deal.apply(PassAction(seat=s)) for s in (Seat.W, Seat.S, Seat.E)]
        [[], [], []]
        >>> deal.is_over, deal.outcome.thrown_in
        (True, 'all_pass')
        """
        start = len(self._findings)
        self._handle(action.type, action)
        self._n_actions += 1
        return self._findings[start:]

    def run(self, actions: Sequence[AnyAction]) -> None:
        """Apply actions in order, as :meth:`apply` would, without returning findings.

        The auditor's loop: while nothing is owed (no trump to show or play, no trick
        waiting for its winner), a card from a known hand that the play rules allow is
        placed at once (``_fast_play``); every other action goes through ``apply``'s handler.
        """
        n = self._n_actions
        play_class: type | None = None  # the reader's class of a play, once one is seen
        # a list (both readers give one) is walked directly, anything else through Python's
        # iteration protocol
        listed = actions if isinstance(actions, list) else list(actions)
        for action in listed:
            if type(action) is play_class:
                kind = "play"
            else:
                kind = action.type  # read once: an attribute of the reader's class
                if kind == "play":
                    play_class = type(action)
            if self._fast and kind == "play":
                card = cast(PlayLike, action).card.index
                if self._fast_play(_seat_number(action.seat), card):
                    n += 1
                    continue
            self._n_actions = n
            self._handle(kind, action)
            n += 1
        self._n_actions = n

    def _handle(self, kind: str, action: AnyAction) -> None:
        """Apply ``action`` by its type ``kind``, as the log writes it; an unknown type does
        nothing. The auction and the doubling cannot change what the play fast path depends
        on; the other actions may, and it is looked at again after them (``_refresh``).

        A chain of native calls: compiled, calling a method taken from a table is a Python
        call, at every action.
        """
        if kind == "play":
            self._on_play(cast(PlayLike, action))
        elif kind in {"bid", "pass", "ditto"}:
            self._on_speech(action)
        elif kind == "trump":
            self._on_trump(cast(TrumpLike, action))
            self._refresh()
        elif kind == "show":
            self._on_show(cast(ShowLike, action))
            self._refresh()
        elif kind == "single_hand":
            self._on_single_hand(action)
            self._refresh()
        elif kind == "pair":
            self._on_pair(action)
            self._refresh()
        elif kind == "double":
            self._on_double(action)
        elif kind == "redouble":
            self._on_redouble(action)
        elif kind == "set":
            self._on_set(action)
        elif kind == "redeal":
            self._on_redeal(action)

    def _ended(self, seat: int, what: str) -> bool:
        """True (after one finding) when the deal is over and this action cannot be taken."""
        if self._thrown_in is None and not self._hard_end:
            return False
        if not self._after_end_reported:
            self._after_end_reported = True
            why = f"thrown in ({self._thrown_in})" if self._thrown_in else "over"
            self._add("ACTION_AFTER_DEAL_END", f"{SEATS[seat]} {what} after the deal was {why}")
        return True

    def _out_of_phase(self, seat: int, what: str) -> None:
        if self._phase == AUCTION:
            why = "the auction is not over"
        elif self._phase == TRUMP:
            why = "the trump has not been chosen"
        else:
            why = "the auction is over"
        self._add("ACTION_OUT_OF_PHASE", f"{SEATS[seat]} {what} but {why}")

    def _refresh(self) -> None:
        """Recompute when a play may take the fast path (``_fast_play``)."""
        if self._phase != PLAY:
            self._fast = False
            return
        self._fast = (
            self._phase == PLAY
            and self._unresolved is None
            and self._thrown_in is None
            and not self._hard_end
            and not self._seventh_turn
            and not self._asker_must
        )
        self._fast_discard = not self._any_unknown() and (
            self._shown or self._single >= 0 or self._o.show_trump == "optional"
        )

    def _on_speech(self, action: ActionLike) -> None:
        """A bid, a pass or a Ditto: the turn, the bidding limits, then the auction's style."""
        seat = _seat_number(action.seat)
        said = action.type
        if said == "bid":
            kind, value = BID, cast(BidLike, action).value
        elif said == "pass":
            kind, value = PASS, 0
        else:
            kind, value = DITTO, 0
        if (self._thrown_in is not None or self._hard_end) and self._ended(
            seat, _said(kind, value)
        ):
            return
        if self._phase != AUCTION:
            self._out_of_phase(seat, _said(kind, value))
            return
        pos = self._pos_of[seat]
        r = self._o
        turn = None
        if self._forced or seat != self._p[self._to_speak]:
            turn = self._rule_auction_turn(seat, _said(kind, value))
        if turn is not None:
            self._add(*turn)
            if self._forced or not self._may_speak(pos):
                return
            self._to_speak = pos
        breach = self._rule_bid(seat, kind, value) if kind != PASS or self._forced else None
        if breach is not None:
            self._add(*breach)
        if self._forced:
            self._end_auction(3, value if kind == BID and value >= r.min_bid else r.min_bid)
            return
        if kind == DITTO:
            if breach is not None and (self._high_pos < 0 or r.bidding != "duel"):
                return
            kind, value = BID, self._high_value
        if r.bidding == "duel":
            self._duel(pos, kind, value)
        elif r.bidding == "rotation":
            self._rotation(pos, kind, value)
        elif r.bidding == "open":
            self._open(pos, kind, value)
        else:
            self._single_round(pos, kind, value)

    def _may_speak(self, pos: int) -> bool:
        style = self._o.bidding
        if style == "duel":
            return pos in (self._senior, self._junior) and not self._passed >> pos & 1
        if style == "rotation":
            return not self._passed >> pos & 1
        if style == "single_round":
            return not self._spoken >> pos & 1
        return True

    def _bid_to(self, pos: int, value: int) -> None:
        self._high_value, self._high_pos = value, pos

    def _rotation(self, pos: int, kind: int, value: int) -> None:
        if kind == BID:
            self._bid_to(pos, value)
            if value >= self._o.max_bid:
                self._end_auction(pos, value)
                return
        else:
            self._passed |= 1 << pos
            self._passes += 1
        if self._passes >= 3:
            self._auction_over()
            return
        nxt = (pos + 1) % 4
        while self._passed >> nxt & 1:
            nxt = (nxt + 1) % 4
        self._to_speak = nxt

    def _open(self, pos: int, kind: int, value: int) -> None:
        if kind == BID:
            self._bid_to(pos, value)
            self._consec = 0
            if value >= self._o.max_bid:
                self._end_auction(pos, value)
                return
        else:
            self._consec += 1
            if self._consec >= 3:
                self._auction_over()
                return
        self._to_speak = (pos + 1) % 4

    def _single_round(self, pos: int, kind: int, value: int) -> None:
        self._spoken |= 1 << pos
        self._n_spoken += 1
        if kind == BID:
            self._bid_to(pos, value)
        if (self._high_pos < 0 and self._n_spoken >= 3) or self._n_spoken >= 4:
            self._auction_over()
            return
        nxt = (pos + 1) % 4
        while self._spoken >> nxt & 1 and nxt != pos:
            nxt = (nxt + 1) % 4
        self._to_speak = nxt

    def _duel(self, pos: int, kind: int, value: int) -> None:
        self._spoken |= 1 << pos
        if kind == BID:
            self._bid_to(pos, value)
            self._to_speak = self._junior if pos == self._senior else self._senior
            return
        self._passed |= 1 << pos
        self._passes += 1
        if self._passes >= 3:
            self._auction_over()
            return
        taken = self._spoken | self._passed | (1 << self._senior) | (1 << self._junior)
        partner = (pos + 2) % 4
        newcomer = -1
        if self._o.duel_replacement == "partner" and not taken >> partner & 1:
            newcomer = partner
        else:
            for k in range(1, 4):
                cand = (pos + k) % 4
                if not taken >> cand & 1:
                    newcomer = cand
                    break
        if newcomer < 0:  # only after out-of-turn speech: let the other duelist go on
            self._to_speak = self._junior if pos == self._senior else self._senior
            return
        if self._o.duel_replacement == "partner":
            if pos == self._senior:
                self._senior = newcomer
            else:
                self._junior = newcomer
        elif pos == self._senior:
            self._senior, self._junior = self._junior, newcomer
        else:
            self._junior = newcomer
        if self._high_pos >= 0:
            self._to_speak = newcomer
            return
        # Nothing to answer yet: the duelist earliest in the order of speech opens.
        for cand in range(4):
            if cand in (self._senior, self._junior) and not self._spoken >> cand & 1:
                self._to_speak = cand
                return
        self._to_speak = newcomer

    def _auction_over(self) -> None:
        if self._high_pos >= 0:
            self._end_auction(self._high_pos, self._high_value)
        elif self._o.all_pass == "throw_in":
            self._throw_in("all_pass")
        else:
            self._forced = True

    def _end_auction(self, pos: int, value: int) -> None:
        self._forced = False
        self._caller = self._p[pos]
        self._call = value
        self._target = value
        self._high_pos, self._high_value = pos, value
        self._phase = TRUMP

    def _on_redeal(self, action: ActionLike) -> None:
        seat = _seat_number(action.seat)
        if self._ended(seat, "asked for a redeal"):
            return
        breach = self._rule_redeal(seat)
        if breach is not None:
            self._add(*breach)
            return
        if -1 in self._dealt[seat][:4]:
            self._add(
                "UNVERIFIED",
                f"{action.seat} asked for a redeal but its first four cards are not all recorded",
            )
        self._throw_in("redeal")

    def _on_trump(self, action: TrumpLike) -> None:
        seat = _seat_number(action.seat)
        if self._ended(seat, "chose the trump"):
            return
        if self._phase == AUCTION:
            if self._forced and seat == self._p[3]:
                self._end_auction(3, self._o.min_bid)  # the forced call, left implicit
            else:
                self._out_of_phase(seat, "chose the trump")
                pos = self._high_pos if self._high_pos >= 0 else self._pos_of[seat]
                self._end_auction(pos, self._high_value if self._high_pos >= 0 else self._o.min_bid)
        elif self._phase != TRUMP:
            self._add(
                "ACTION_OUT_OF_PHASE", f"{action.seat} chose the trump but it was already chosen"
            )
            return
        if seat != self._caller:
            self._add(
                "OUT_OF_TURN",
                f"{action.seat} chose the trump but the caller {SEATS[self._caller]} chooses it",
            )
        breach = self._rule_trump(action)
        if breach is not None:
            self._add(*breach)
        self._set_trump(action)
        self._phase = PLAY
        self._trump_done = True
        self._ladder_open = True
        self._single_open = True
        self._to_play = self._p[0]
        if not self._o.double:
            self._deal_second_four()  # no doubling to wait for
        self._full_deal_throw_ins()

    def _set_trump(self, action: TrumpLike) -> None:
        r = self._o
        c = self._caller
        if action.mode == "no_trump":
            self._trump_mode = MODE_NO_TRUMP
            self._trump = NO_SUIT
            return
        if action.mode == "reverse":
            self._trump_mode = MODE_REVERSE
        suit = SUIT_NUM[action.suit] if action.suit is not None else UNKNOWN_SUIT
        if action.seventh:
            self._seventh = True
            seventh = self._dealt[c][6]
            if seventh >= 0:
                self._face_down = seventh
                suit = seventh >> 3
            else:
                self._face_down_unknown = True
        elif r.trump_marker == "own_card" and action.mode is None:
            card = action.card
            if card is None:
                self._face_down_unknown = True
                self._add(
                    "UNVERIFIED",
                    f"the face-down trump card of {SEATS[c]} is not "
                    "recorded: its plays before the show are not checked",
                )
            else:
                idx = card.index
                if self._owner(idx) < 0 and self._unknown[c] > 0 and not self._played >> idx & 1:
                    self._infer(c, idx)
                if self._owner(idx) == c:
                    self._face_down = idx
                if suit < 0:
                    suit = idx >> 3
        elif action.card is not None:
            self._add(
                "IGNORED_FIELD",
                f"the trump action names {action.card.text} but these rules use a separate marker",
            )
        if suit >= 0:
            self._trump = suit
            self._trump_cands = 1 << suit
        elif action.mode == "reverse":
            self._trump = NO_SUIT

    def _infer(self, seat: int, idx: int) -> None:
        """Record that ``seat`` held the unknown card ``idx`` (a play or a choice showed it)."""
        self._known[seat] |= 1 << idx
        self._set_held(seat, self._held_of(seat) | 1 << idx)
        self._unknown[seat] -= 1

    def _full_deal_throw_ins(self) -> None:
        r = self._o
        trump = self._trump
        if not 0 <= trump < 4:
            return
        c = self._caller
        if r.seventh_card_no_scoring_trump_throw_in and self._seventh:
            bit = 1 << self._face_down if self._face_down >= 0 else 0
            if not self._held_of(c) & SCORING_MASK[trump] & ~bit:
                if self._unknown[c] == 0:
                    self._throw_in("seventh_no_scoring_trump")
                    return
                self._possible_throw_in = "seventh_no_scoring_trump"
        if r.opponents_no_trump_throw_in:
            o1, o2 = (c + 1) % 4, (c + 3) % 4
            seven = 1 << (trump * 8 + SEVEN_PLACE)
            if not (self._held_of(o1) | self._held_of(o2)) & SUIT_MASK[trump] & ~seven:
                if self._unknown[o1] == 0 and self._unknown[o2] == 0:
                    self._throw_in("opponents_no_trump")
                    return
                self._possible_throw_in = self._possible_throw_in or "opponents_no_trump"

    def _deal_second_four(self) -> None:
        """The doubling is over and the second four cards are dealt."""
        self._ladder_open = False
        self._second_dealt = True

    def end_doubling(self) -> None:
        """Close the doubling: nobody (else) will Double, Redouble or Set.

        The second four cards are dealt at once when the doubling is over: at the trump choice
        under rules without a Double, at the top of the ladder, or at the first action after
        the trump that is not part of it (single hand, the show, a card). A log has no action
        for "nobody doubles", so a live table (the simulator, after offering the ladder to
        every seat) calls this to deal the second four before the single-hand decision;
        ``deal_steps`` does the same when the log's next action is not part of the ladder.
        Does nothing outside the doubling.

        >>> from twentynine.schema import Rules, Seat
        >>> from twentynine.replay.script import run_script
        >>> state = run_script(Rules.preset("standard"), "N", None, "E:15 S:p W:p N:p E:trump=S")
        >>> len(state.hand(Seat.E)), state.end_doubling(), len(state.hand(Seat.E))
        (4, None, 8)
        """
        if self._phase == PLAY and self._ladder_open:
            self._deal_second_four()

    def _ladder_tolerated(self) -> bool:
        # The doubling comes before the second four, so before a full-deal throw-in shows.
        return self._thrown_in in _FULL_DEAL_REASONS and self._ladder_open

    def _on_double(self, action: ActionLike) -> None:
        self._ladder(_seat_number(action.seat), 1, "doubled", self._rule_double)

    def _on_redouble(self, action: ActionLike) -> None:
        self._ladder(_seat_number(action.seat), 2, "redoubled", self._rule_redouble)

    def _on_set(self, action: ActionLike) -> None:
        self._ladder(_seat_number(action.seat), 3, "said set", self._rule_set)

    def _ladder(self, seat: int, level: int, what: str, rule: SeatRule) -> None:
        if not self._ladder_tolerated() and self._ended(seat, what):
            return
        breach = rule(seat)
        if breach is not None:
            self._add(*breach)
            return
        self._doubled = level
        if level == 3 or (level == 2 and not self._o.set_) or (level == 1 and not self._o.redouble):
            self._deal_second_four()  # nobody can go higher

    def _on_single_hand(self, action: ActionLike) -> None:
        seat = _seat_number(action.seat)
        if self._ended(seat, "declared single hand"):
            return
        breach = self._rule_single_hand(seat)
        if breach is not None:
            self._add(*breach)
            return
        self._single = seat
        self._single_open = False
        self._deal_second_four()
        self._to_play = seat

    def _on_show(self, action: ShowLike) -> None:
        seat = _seat_number(action.seat)
        if self._ended(seat, "asked for the trump"):
            return
        if self._phase != PLAY:
            self._out_of_phase(seat, "asked for the trump")
            return
        if self._unresolved is not None:
            self._resolve_by(seat)
        self._single_open = False
        self._deal_second_four()
        breach = self._rule_show(seat)
        if breach is not None:
            self._add(*breach)
            if self._shown or self._single >= 0:
                return
        elif self._unknown[seat] and self._led >= 0:
            self._expect_proof(
                seat,
                SUIT_MASK[self._led],
                "SHOW_WHILE_ABLE_TO_FOLLOW",
                f"{action.seat} asked for the trump while holding "
                f"{SUIT_NAME[self._led]} (it later played {{card}}): only a "
                "player who cannot follow may ask",
            )
        self._reveal(seat, action.suit)
        self._check_decided()

    def _reveal(self, seat: int, suit: Suit | None) -> None:
        """The trump is shown (asked for, or automatically), in the current trick."""
        if suit is not None:
            shown = SUIT_NUM[suit]
            if 0 <= self._trump < 4 and shown != self._trump:
                self._add(
                    "SHOW_SUIT_MISMATCH",
                    f"{SEATS[seat]}'s show records "
                    f"{SUIT_NAME[shown]} but the trump chosen is {SUIT_NAME[self._trump]}",
                )
            if self._trump != NO_SUIT:
                self._trump = shown
                self._trump_cands = 1 << shown
        self._shown = True
        self._show_trick = self._trick_no
        self._show_action = self._n_actions
        self._asker = seat
        self._asker_must = self._o.must_trump_after_show
        self._seventh_turn = self._seventh_exempt(seat) and self._face_down >= 0

    def _on_pair(self, action: ActionLike) -> None:
        seat = _seat_number(action.seat)
        if self._ended(seat, "showed the Pair"):
            return
        breach = self._rule_pair(seat)
        r = self._o
        if breach is not None:
            self._add(*breach)
            if breach[0] == "PAIR_NOT_HELD" or r.pair == "off" or self._pair_seat >= 0:
                return
            if self._phase != PLAY or self._single >= 0 or self._trump == NO_SUIT:
                return
        if 0 <= self._trump < 4:
            for place in (KING_PLACE, QUEEN_PLACE):
                idx = self._trump * 8 + place
                if self._owner(idx) < 0 and self._unknown[seat] > 0:
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
        self._pair_seat = seat
        before = self._target
        if TEAM_OF[seat] == TEAM_OF[self._caller]:
            if self._call >= r.pair_lowers_from_call:
                self._target = max(r.min_bid, self._target - r.pair_points)
        else:
            self._target = min(r.max_bid, self._target + r.pair_points)
        self._pairs = (*self._pairs, (seat, self._n_actions, self._target - before))
        self._check_decided()

    def _expect_proof(self, seat: int, mask: int, code: str, message: str) -> None:
        """Remember a breach that a later play of a card in ``mask`` by ``seat`` would prove."""
        fd = 0
        if seat == self._caller and not self._shown:
            if self._face_down_unknown:
                if not 0 <= self._trump < 4 or mask & SUIT_MASK[self._trump]:
                    return  # the later card may be the face-down one
            elif self._face_down >= 0:
                fd = 1 << self._face_down
        mask &= self._unseen_mask() & ~fd
        if mask:
            self._pending = (*self._pending, (seat, mask, code, message, self._n_actions))

    def _on_play(self, action: PlayLike) -> None:
        seat = _seat_number(action.seat)
        idx = action.card.index
        if self._ended(seat, f"played {action.card.text}"):
            return
        if self._phase != PLAY:
            self._out_of_phase(seat, f"played {action.card.text}")
            return
        if self._unresolved is not None:
            self._resolve_by(seat)
        if self._trick_seat_bits >> seat & 1 or (
            self._single >= 0 and seat == (self._single + 2) % 4
        ):
            self._add(
                "OUT_OF_TURN",
                f"{action.seat} played {action.card.text} but it is "
                f"{SEATS[self._to_play]}'s turn to play",
            )
            return
        self._play_rules(seat, idx, True)
        if seat == self._caller:
            self._seventh_turn = False
        self._take(seat, idx)
        self._refresh()

    def _fast_play(self, seat: int, card: int) -> bool:
        """Play ``card`` at once when the play rules allow it and the table has nothing to do
        about it; False (nothing done) when it must go through ``apply``.

        In the fast state (see ``_refresh``: no duty after a show, no trick waiting for its
        winner) a card from the seat's known hand, led or following suit, or discarded where
        no show can be owed, needs nothing but the rules' yes.
        """
        if not self._held_of(seat) >> card & 1:
            return False  # from the unknown cards: what it proves is apply's to settle
        led = self._led
        if led >= 0 and card >> 3 != led and not self._fast_discard:
            return False
        if self._play_rules(seat, card, False) is not None:
            return False
        self._take(seat, card)
        return True

    def _take(self, seat: int, idx: int) -> None:
        """The card leaves the seat's hand for the table; the trick ends after its last card.

        The first card ends the doubling and the chance of a single hand.
        """
        if self._single_open or self._ladder_open or not self._second_dealt:
            self._single_open = False
            self._deal_second_four()
        bit = 1 << idx
        mine = self._held_of(seat)
        if mine & bit:
            self._set_held(seat, mine ^ bit)
        if idx == self._face_down and seat == self._caller and not self._shown:
            self._face_down = -1  # played before the show: nothing is face down any more
        self._played |= bit
        if seat == 0:
            self._played0 += 1
        elif seat == 1:
            self._played1 += 1
        elif seat == 2:
            self._played2 += 1
        else:
            self._played3 += 1
        if self._led < 0:
            self._led = idx >> 3
        seats = self._trick_seats
        seats.append(seat)
        self._trick_cards.append(idx)
        in_trick = self._trick_seat_bits | 1 << seat
        self._trick_seat_bits = in_trick
        single = self._single
        if len(seats) >= (3 if single >= 0 else 4):
            self._end_trick()
            return
        if self._shown and _PAIR_CARDS[self._trump + 1] & bit:
            # Mid-trick only the cards played change what result_fixed reads (every other
            # change looks again where it is made), and of them only a King or Queen of
            # trumps can matter.
            self._check_decided()
        to_play = self._to_play
        if seat != to_play and not in_trick >> to_play & 1:
            return  # an out-of-turn card: the seat on turn is still to play
        step = self._dir
        nxt = (seat + step) & 3
        skip = (single + 2) & 3 if single >= 0 else -1  # the lone player's partner sits out
        while in_trick >> nxt & 1 or nxt == skip:
            nxt = (nxt + step) & 3
        self._to_play = nxt

    def _expect_trump_proof(self, seat: int, idx: int) -> None:
        if self._unknown[seat] <= 0:
            return
        trump = self._trump
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
        elif self._o.must_overtrump_after_show:
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
        for entry in self._pending:
            if entry[0] == seat and entry[1] & bit:
                code = entry[2]
                self._add(code, entry[3].replace("{card}", text), entry[4])
                if code == "REVOKE":
                    self._revoked(seat)
            else:
                keep.append(entry)
        self._pending = tuple(keep)

    def _revoked(self, seat: int) -> None:
        if self._first_revoke_team < 0:
            self._first_revoke_team = TEAM_OF[seat]

    def _trick_winner(self, seats: tuple[int, ...], cards: tuple[int, ...], trump: int) -> int:
        reverse = self._trump_mode == MODE_REVERSE and self._shown
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
        was_fast = self._fast
        # The trick kept as tuples; the lists are emptied for the next trick, not made anew
        seats = tuple(self._trick_seats)
        cards = tuple(self._trick_cards)
        self._trick_seats.clear()
        self._trick_cards.clear()
        self._trick_seat_bits = 0
        self._led = -1
        self._asker_must = False
        trump = self._trump
        shown = self._shown
        if self._single >= 0 or not shown or trump == NO_SUIT:
            trump = -1
        elif trump < 0:
            self._settle_unknown(seats, cards)
            trump = -2
        if trump > -2:
            reverse = shown and self._trump_mode == MODE_REVERSE
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
        if self._hard_end or self._unresolved is not None:
            self._fast = False
        elif not was_fast:
            self._refresh()  # the asker's duty ends with the trick

    def _settle_unknown(self, seats: tuple[int, ...], cards: tuple[int, ...]) -> None:
        # Shown, suit not recorded: the winner may depend on which suit is trump.
        outcomes: dict[int, int] = {}
        for suit in range(4):
            if self._trump_cands >> suit & 1:
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
        self._unresolved = (seats, cards, outcomes)
        if self._trick_no == 7:
            self._points_uncertain = True
            self._trick_no = 8
            self._hard_end = True

    def _resolve_by(self, leader: int) -> None:
        assert self._unresolved is not None
        seats, cards, outcomes = self._unresolved
        self._unresolved = None
        if leader in outcomes:
            self._trump_cands &= outcomes[leader]
            if self._trump_cands & (self._trump_cands - 1) == 0:
                self._trump = self._trump_cands.bit_length() - 1
        else:
            self._points_uncertain = True
        self._credit(seats, cards, leader)

    def _credit(self, seats: tuple[int, ...], cards: tuple[int, ...], winner: int) -> None:
        pts = CARD_POINTS[cards[0]] + CARD_POINTS[cards[1]] + CARD_POINTS[cards[2]]
        if len(cards) > 3:
            pts += CARD_POINTS[cards[3]]
        number = self._trick_no + 1
        self._trick_no = number
        if number == 8:
            pts += self._bonus
        team = TEAM_OF[winner]
        self._points[team] += pts
        self._tricks.append((seats[0], seats, cards, winner, pts))
        self._last_winner = winner
        if self._shown:
            self._side_won_after_show |= 1 << team
        self._to_play = winner
        if self._single >= 0 and winner != self._single and not self._single_lost:
            # Seed 000 §9: the first trick lost ends the deal, whatever end_when_decided says.
            self._single_lost = True
            self._decided = True
            self._hard_end = True
            return
        if self._trick_no >= 8:
            self._hard_end = True
            if not self._shown and self._single < 0 and self._o.never_shown == "throw_in":
                self._throw_in("never_shown")
            return
        if self._shown and self._o.end_when_decided:
            self._check_decided()

    def _check_decided(self) -> None:
        """end_when_decided: after the show, stop once no play or Pair can change the result."""
        if self._o.end_when_decided and not self._decided and self.result_fixed():
            self._decided = True

    def result_fixed(self, *, pairs: bool = True) -> bool:
        """After the show: True when no card still to play (nor a Pair, unless ``pairs`` is
        False) can change the deal's result."""
        r = self._o
        if not self._shown or self._single >= 0 or self._caller < 0:
            return False
        team = TEAM_OF[self._caller]
        mine = self._points[team]
        remaining = r.total_points - self._points[0] - self._points[1]
        lo = hi = self._target
        if pairs and r.pair != "off" and self._pair_seat < 0 and self._trump != NO_SUIT:
            teams = self._possible_pair_teams()
            if teams >> team & 1 and self._call >= r.pair_lowers_from_call:
                lo = max(r.min_bid, self._target - r.pair_points)
            if teams >> (1 - team) & 1:
                hi = min(r.max_bid, self._target + r.pair_points)
        if mine >= hi:
            return True
        if mine + remaining < lo:
            return not (r.under_half and mine * 2 < self._call <= (mine + remaining) * 2)
        return False

    def _possible_pair_teams(self) -> int:
        """The teams that may still show the Pair, as bits: 1 NS, 2 EW."""
        if not 0 <= self._trump < 4:
            return 3
        k = self._trump * 8 + KING_PLACE
        q = self._trump * 8 + QUEEN_PLACE
        if (self._played >> k | self._played >> q) & 1:
            return 0
        ok, oq = self._owner(k), self._owner(q)
        if ok >= 0 and oq >= 0:
            return 1 << TEAM_OF[ok] if ok == oq else 0
        if ok >= 0 or oq >= 0:
            return 1 << TEAM_OF[ok if ok >= 0 else oq]
        return 3

    # ------------------------------------------------------------------ end of the log
    def partial_hands(self) -> str | None:
        """A description of the seats whose dealt cards were not all recorded, or None."""
        hidden = self._hidden_at_deal
        if not (hidden[0] or hidden[1] or hidden[2] or hidden[3]):  # any(): a Python call
            return None
        parts = [f"{SEATS[s]}: {hidden[s]} unknown" for s in range(4) if hidden[s]]
        return ", ".join(parts) if parts else None

    def points_of(self, team: Team) -> int:
        """Card points the team has taken so far."""
        return self._points[TEAM_NUM[team]]

    def unplayed_points(self) -> int:
        """Card points of the cards not yet played (bonus not included)."""
        return mask_points(~self._played & 0xFFFFFFFF)
