"""The referee: matches between seats that may be anything that answers three calls.

A seat (:class:`ArenaSeat`) is asked to ``bid``, ``choose_trump`` and ``play``; it answers
with a :class:`Reply` holding a :class:`Move` in the words of the Bhoos protocol (a bid
number, 0 a pass; a suit; a card, and whether it asks for the trump to be shown) or a fault
it met on the way (a timeout, garbage, a refused connection ...). The referee turns the move
into the engine's actions, checks them with ``legal_actions`` and applies them; a fault or
an illegal move is a finding (codes in :data:`~replay.findings.SEAT_FAULTS`) and the move is
replaced by the documented default (:func:`default_action`). The loop knows no HTTP: a
built-in bot (:class:`BuiltinSeat`), an HTTP client or a judge are all seats.

Only the ``bhoos`` rules: the ones the protocol can express.

>>> seats = {seat: BuiltinSeat("balanced") for seat in SEATS}
>>> played = play_match(seats, ArenaOptions(seed=1), 0)
>>> played.log.id, played.log.result.winner is not None, played.faults
('arena-1-1', True, [])
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final, Literal, NamedTuple, Protocol

from twentynine.replay.bots import Bot, SeatView, Stage, legal_at, redact, seat_view
from twentynine.replay.deal import DealState, DealView
from twentynine.replay.match import MatchState
from twentynine.replay.simulate import deal_cards
from twentynine.schema.cards import SEATS, Card, Seat, Suit, Team
from twentynine.schema.log import (
    Action,
    BidAction,
    Deal,
    DealResult,
    DittoAction,
    MatchLog,
    MatchResult,
    PassAction,
    PlayAction,
    PlayerRef,
    ShowAction,
    TeamScores,
    TrumpAction,
)
from twentynine.schema.rules import Rules

RULES: Final = Rules.preset("bhoos")
Call = Literal["bid", "chooseTrump", "play"]
"""The three calls, named as the protocol's endpoints."""
MAX_ACTIONS: Final = 200  # a bhoos deal has at most a few dozen; this guards a bug
MAX_DEALS: Final = 500
RECORDER: Final = "twentynine arena"


class Move(NamedTuple):
    """A seat's answer in the protocol's words: ``bid`` (0 a pass), ``suit``, or ``card``
    and ``reveal`` (ask for the trump to be shown; with no card, a second ``play`` follows).

    >>> Move(card=Card.parse("JS")).card.text
    'JS'
    """

    bid: int | None = None
    suit: Suit | None = None
    card: Card | None = None
    reveal: bool = False


class Reply(NamedTuple):
    """What a seat gave back: a move, or a fault code (``SEAT_*``) with its reason; the time
    it took, and for a remote seat the request and the answer as sent (for the log).

    An in-process seat may give ``action``, one of the turn's ``legal`` actions itself,
    instead of a move: the referee applies it as it is (an action not offered is read as
    no answer)."""

    move: Move | None
    ms: float = 0.0
    fault: str | None = None
    reason: str = ""
    request: Any = None
    answer: Any = None
    action: Action | None = None


_new_reply: Final = tuple.__new__


class Turn:
    """One request to one seat: what the seat may know, computed when asked for.

    ``view()`` is the engine's :class:`~replay.bots.SeatView` (what built-in bots read);
    ``known`` the engine's :class:`~replay.deal.DealView`; ``bids`` the auction as the
    protocol writes it (``(seat, number)``, 0 a pass, a Ditto as the bid it equals);
    ``shown`` the trick (from 1) and seat of the show; ``limit_ms`` and ``remaining_ms``
    the time the seat has for this request and what its bank holds (the same without one).
    """

    __slots__ = (
        "_history",
        "_known",
        "_redacted",
        "_view",
        "bids",
        "call",
        "deal",
        "legal",
        "limit_ms",
        "match",
        "remaining_ms",
        "seat",
        "shown",
        "state",
    )

    def __init__(
        self,
        call: Call,
        seat: Seat,
        state: DealState,
        legal: tuple[Action, ...],
        history: list[Action],
        redacted: list[Action],
        bids: Sequence[tuple[Seat, int]],
        shown: tuple[int, Seat] | None,
        deal: int,
        match: int,
        limit_ms: int,
        remaining_ms: int,
    ) -> None:
        self.call = call
        self.seat = seat
        self.state = state
        self.legal = legal
        self.bids = bids
        self.shown = shown
        self.deal = deal
        self.match = match
        self.limit_ms = limit_ms
        self.remaining_ms = remaining_ms
        self._history = history
        self._redacted = redacted
        self._view: SeatView | None = None
        self._known: DealView | None = None

    @property
    def known(self) -> DealView:
        """What the seat may know, as the engine says it."""
        if self._known is None:
            self._known = self.state.seat_view(self.seat)
        return self._known

    def view(self) -> SeatView:
        """The seat's view as the simulator's bots read it."""
        if self._view is None:
            known = self.known
            hidden = None
            if known.caller is not self.seat and not known.shown:
                hidden = self._redacted
            stage = _STAGE[self.call]
            self._view = seat_view(
                self.state, self.seat, self._history, stage, known, hidden, self.legal
            )
        return self._view


_STAGE: Final[dict[Call, Stage]] = {"bid": "auction", "chooseTrump": "trump", "play": "play"}


class ArenaSeat(Protocol):
    """Anything that can sit at the table: three calls, each given a :class:`Turn`."""

    def bid(self, turn: Turn) -> Reply: ...

    def choose_trump(self, turn: Turn) -> Reply: ...

    def play(self, turn: Turn) -> Reply: ...


class BuiltinSeat:
    """A simulator bot of one style, in-process; its choices draw on ``rng`` (seeded per
    match by the referee through :meth:`begin`).

    >>> from twentynine.replay.deal import DealState
    >>> seat = BuiltinSeat("cautious")
    >>> seat.begin(random.Random(1))
    >>> state = DealState(RULES, Seat.N, deal_cards(random.Random(2), Seat.N, RULES))
    >>> turn = Turn("bid", Seat.E, state, legal_at(state, Seat.E, "auction"), [], [], [], None,
    ...             1, 1, 1000, 1000)
    >>> seat.bid(turn).action.type in ("bid", "pass")
    True
    """

    __slots__ = ("bot", "rng")

    def __init__(self, style: str) -> None:
        self.bot = Bot(style)
        self.rng = random.Random(0)

    def begin(self, rng: random.Random) -> None:
        self.rng = rng

    def _decide(self, turn: Turn) -> Reply:
        legal = turn.legal
        if len(legal) == 1 and legal[0].type == "play":  # a lone card: nothing to decide
            return _new_reply(Reply, (None, 0.0, None, "", None, None, legal[0]))
        clock = time.perf_counter
        start = clock()
        choice = self.bot.decide(turn.view(), self.rng)
        ms = (clock() - start) * 1000.0
        if choice is None:
            return Reply(None, ms, "SEAT_MISSING_FIELD", "the bot gave no answer")
        # one of turn.legal: no words needed (made without keyword parsing: every decision)
        return _new_reply(Reply, (None, ms, None, "", None, None, choice.action))

    bid = choose_trump = play = _decide


def move_of(action: Action, turn: Turn) -> Move:
    """An engine action as the protocol's move (a Ditto is the bid it equals).

    >>> move_of(PassAction(seat=Seat.E), None).bid  # type: ignore[arg-type]
    0
    """
    if isinstance(action, PassAction):
        return Move(bid=0)
    if isinstance(action, BidAction):
        return Move(bid=action.value)
    if isinstance(action, DittoAction):
        standing = turn.state.standing_bid
        return Move(bid=standing[1] if standing else 0)
    if isinstance(action, TrumpAction):
        return Move(suit=action.suit)
    if isinstance(action, ShowAction):
        return Move(reveal=True)
    if isinstance(action, PlayAction):
        return Move(card=action.card)
    raise ValueError(f"the bhoos protocol has no word for a {action.type}")


def default_action(turn: Turn) -> Action:
    """The move the referee makes for a seat that faulted (docs/arena.md): a pass (the lowest
    bid where a pass is not allowed); the suit of the first card in hand; the first legal card
    in the order of the hand. Never a show.

    >>> state = DealState(RULES, Seat.N, deal_cards(random.Random(2), Seat.N, RULES))
    >>> turn = Turn("bid", Seat.E, state, legal_at(state, Seat.E, "auction"), [], [], [], None,
    ...             1, 1, 1000, 1000)
    >>> default_action(turn).type
    'pass'
    """
    legal = turn.legal
    if turn.call == "bid":
        passes = [a for a in legal if isinstance(a, PassAction)]
        return passes[0] if passes else legal[0]
    hand = turn.known.hand
    if turn.call == "chooseTrump":
        suits = [a for a in legal if isinstance(a, TrumpAction)]
        first = next((a for c in hand for a in suits if a.suit == c.suit), None)
        return first if first is not None else suits[0]
    cards = {a.card: a for a in legal if isinstance(a, PlayAction)}
    return next((cards[c] for c in hand if c in cards), next(iter(cards.values())))


Dealer = Callable[[random.Random, Seat, Rules], dict[Seat, list[Card | None]]]
"""How the cards are dealt: :func:`~replay.simulate.deal_cards` (fair) or another."""


@dataclass(frozen=True, slots=True)
class ArenaOptions:
    """How a run plays: the seed, the time per request and the bank (ms), duplicate deals,
    forfeit on a fault, the index in ``playerIds`` of the first speaker, a cap on a match's
    deals."""

    seed: int = 0
    limit_ms: int = 1000
    bank_ms: int = 0
    duplicate: bool = False
    forfeit: bool = False
    first_index: int = 1
    max_deals: int | None = None
    label: str = ""
    """Put into match ids (``arena-SEED-LABEL-N``): a round robin's pairing."""
    dealing: Dealer | None = None
    """Deals the cards (the rng, the dealer, the rules) instead of a fair shuffle: the
    server's table, from the front door (the model is the analysis room's)."""


@dataclass(slots=True)
class Fault:
    """A seat's fault: a finding with the request and the answer, and the move made for it."""

    code: str
    match: int
    deal: int
    action: int
    seat: Seat
    call: Call
    message: str
    ms: float
    replaced_by: str | None
    request: Any = None
    answer: Any = None

    def to_dict(self) -> dict[str, Any]:
        """As ``meta.arena.faults`` writes it (docs/arena.md)."""
        out: dict[str, Any] = {
            "deal": self.deal,
            "action": self.action,
            "seat": self.seat.value,
            "code": self.code,
            "call": self.call,
            "message": self.message,
            "ms": round(self.ms, 1),
            "replaced_by": self.replaced_by,
        }
        if self.request is not None:
            out["request"] = self.request
        if self.answer is not None:
            out["answer"] = self.answer
        return out


@dataclass(slots=True)
class SeatStats:
    """Per seat of one match: the time of every request (ms), and the shows it asked for."""

    ms: list[float] = field(default_factory=list)
    asked: int = 0


@dataclass(slots=True)
class PlayedMatch:
    """A finished (or forfeited) match: its log, its faults and the seats' figures."""

    log: MatchLog
    faults: list[Fault]
    stats: dict[Seat, SeatStats]
    number: int


class _ForfeitError(Exception):
    def __init__(self, seat: Seat) -> None:
        self.seat = seat


@dataclass
class _Deal:
    """One deal between the seats: asks each seat on turn, applies its move."""

    state: DealState
    seats: Mapping[Seat, ArenaSeat]
    options: ArenaOptions
    match: int
    deal: int
    faults: list[Fault]
    stats: dict[Seat, SeatStats]
    history: list[Action] = field(default_factory=list)
    redacted: list[Action] = field(default_factory=list)
    """``history`` as the seats other than the caller see it before the show."""
    bids: list[tuple[Seat, int]] = field(default_factory=list)
    shown: tuple[int, Seat] | None = None
    bank: dict[Seat, int] = field(default_factory=dict)

    def run(self) -> None:
        state = self.state
        while not state.is_over and len(self.history) < MAX_ACTIONS:
            seat = state.current_seat
            if seat is None:
                break
            stage = state.phase_name
            if stage == "auction":
                self.ask("bid", seat, legal_at(state, seat, "auction"))
            elif stage == "trump":
                self.ask("chooseTrump", seat, legal_at(state, seat, "trump"))
            elif stage == "play":
                self.ask("play", seat, legal_at(state, seat, "play"))
            else:  # no doubling, single hand or Pair in bhoos: nothing to ask
                break

    def apply(self, action: Action) -> None:
        state = self.state
        kind = action.type
        hidden = action
        if kind == "play":  # most actions: nothing to note, nothing to hide
            pass
        elif kind == "pass":
            self.bids.append((action.seat, 0))
        elif kind == "bid":
            self.bids.append((action.seat, getattr(action, "value", 0)))
        elif kind == "ditto":
            standing = state.standing_bid
            self.bids.append((action.seat, standing[1] if standing else 0))
        elif kind == "show":
            self.shown = (state.trick_no + 1, action.seat)
            trump = state.trump_suit
            if trump is not None:  # the log writes down what was shown
                action = hidden = _shown(action.seat, Suit(trump))
        elif kind == "trump":
            hidden = redact(action)
        state.apply(action)
        self.history.append(action)
        self.redacted.append(hidden)

    def ask(self, call: Call, seat: Seat, legal: tuple[Action, ...]) -> None:
        options = self.options
        banked = options.bank_ms > 0
        if banked:
            remaining = max(self.bank.get(seat, options.bank_ms), 0)
            limit = remaining
        else:
            remaining = limit = options.limit_ms
        turn = Turn(
            call,
            seat,
            self.state,
            legal,
            self.history,
            self.redacted,
            self.bids,
            self.shown,
            self.deal,
            self.match,
            limit,
            remaining,
        )
        player = self.seats[seat]
        if call == "play":
            reply = player.play(turn)
        elif call == "bid":
            reply = player.bid(turn)
        else:
            reply = player.choose_trump(turn)
        self.stats[seat].ms.append(reply.ms)
        if banked:
            self.bank[seat] = remaining - int(reply.ms)
        action = reply.action
        if action is not None and reply.fault is None and _offered(action, legal):
            if isinstance(action, ShowAction):
                self.stats[seat].asked += 1
            self.apply(action)
            return
        if reply.fault is not None or reply.move is None:
            self.fault(turn, reply, reply.fault or "SEAT_MISSING_FIELD", reply.reason)
            return
        self.take(turn, reply)

    def take(self, turn: Turn, reply: Reply) -> None:
        move = reply.move
        assert move is not None
        seat, legal = turn.seat, turn.legal
        if turn.call == "bid":
            if len(legal) == 1:  # the dealer's forced 16 after three passes, whatever it says
                self.apply(legal[0])
                return
            action = _find_call(legal, move.bid, self.state.standing_bid)
            if action is None:
                self.fault(turn, reply, "SEAT_ILLEGAL_CALL", f"bid {move.bid} is not allowed now")
                return
            self.apply(action)
            return
        if turn.call == "chooseTrump":
            trump = next((a for a in legal if getattr(a, "suit", None) == move.suit), None)
            if trump is None or move.suit is None:
                self.fault(turn, reply, "SEAT_ILLEGAL_CALL", f"trump {move.suit} is not allowed")
                return
            self.apply(trump)
            return
        if move.reveal and not self.state.shown:
            show = next((a for a in legal if isinstance(a, ShowAction)), None)
            if show is None:
                why = "the leader may not ask" if not self.state.trick() else "it can follow suit"
                self.fault(turn, reply, "SEAT_ILLEGAL_REVEAL", f"asked for the trump, but {why}")
                return
            self.stats[seat].asked += 1
            self.apply(show)
            if move.card is None:
                return  # the seat is asked again, now with the trump shown
            legal = legal_at(self.state, seat, "play")
            turn.legal = legal
        card = move.card
        if card is None:
            reason = "asked for the trump after it was shown, and gave no card"
            self.fault(turn, reply, "SEAT_ILLEGAL_REVEAL", reason)
            return
        play = next((a for a in legal if getattr(a, "card", None) == card), None)
        if play is None:
            self.fault(turn, reply, "SEAT_ILLEGAL_CARD", self.illegal_card(seat, card))
            return
        self.apply(play)

    def illegal_card(self, seat: Seat, card: Card) -> str:
        finding = self.state.check(PlayAction(seat=seat, card=card))
        text = card.text
        return f"{text}: {finding.message}" if finding is not None else f"{text} is not allowed"

    def fault(self, turn: Turn, reply: Reply, code: str, message: str) -> None:
        default = None if self.options.forfeit else default_action(turn)
        self.faults.append(
            Fault(
                code,
                self.match,
                self.deal,
                len(self.history),
                turn.seat,
                turn.call,
                message,
                reply.ms,
                _text(default) if default is not None else None,
                reply.request,
                reply.answer,
            )
        )
        if default is None:
            raise _ForfeitError(turn.seat)
        self.apply(default)


def _offered(action: Action, legal: Sequence[Action]) -> bool:
    # by identity: comparing the models field by field is slow, and a seat hands back the
    # engine's own objects (a loop: quicker than any() over a generator, every decision)
    for offered in legal:  # noqa: SIM110
        if offered is action:
            return True
    return False


def _find_call(
    legal: Sequence[Action], value: int | None, standing: tuple[Seat, int] | None
) -> Action | None:
    """The engine's action for a bid number among ``legal``: 0 a pass; the standing bid's
    number a Ditto where one is allowed; else the bid. None when it is not allowed."""
    if value is None:
        return None
    for action in legal:
        if value == 0:
            if isinstance(action, PassAction):
                return action
        elif isinstance(action, DittoAction):
            if standing is not None and standing[1] == value:
                return action
        elif isinstance(action, BidAction) and action.value == value:
            return action
    return None


@cache
def _shown(seat: Seat, suit: Suit) -> ShowAction:
    """The show as the log writes it, with the suit shown (one frozen model per seat, suit)."""
    return ShowAction.model_construct(seat=seat, suit=suit, type="show")


def _text(action: Action) -> str:
    if isinstance(action, PlayAction):
        return action.card.text
    if isinstance(action, BidAction):
        return f"bid {action.value}"
    if isinstance(action, TrumpAction):
        return f"trump {action.suit}"
    return action.type


def play_deal(
    state: DealState,
    seats: Mapping[Seat, ArenaSeat],
    options: ArenaOptions | None = None,
    *,
    match: int = 1,
) -> tuple[list[Action], list[Fault]]:
    """Play one deal from ``state`` (as dealt) to its end: the actions and the faults.

    >>> state = DealState(RULES, Seat.N, deal_cards(random.Random(5), Seat.N, RULES))
    >>> actions, faults = play_deal(state, {s: BuiltinSeat("cautious") for s in SEATS})
    >>> state.is_over, faults
    (True, [])
    """
    faults: list[Fault] = []
    stats = {seat: SeatStats() for seat in SEATS}
    runner = _Deal(state, seats, options or ArenaOptions(), match, state.number, faults, stats)
    runner.run()
    return runner.history, faults


def rotate(hands: Mapping[Seat, list[Card | None]]) -> dict[Seat, list[Card | None]]:
    """The hands moved one seat on (clockwise): each hand to the other team, in the same
    place from the dealer once the deal passes on (the duplicate deal's second half)."""
    return {seat.next(RULES.direction): list(cards) for seat, cards in hands.items()}


def play_match(
    seats: Mapping[Seat, ArenaSeat],
    options: ArenaOptions,
    number: int,
    names: Mapping[Seat, str] | None = None,
    sources: Mapping[Seat, str] | None = None,
) -> PlayedMatch:
    """Match ``number`` (0-based) of the seed between the seats, played to the bhoos target
    (with ``options.duplicate``: one deal and its twin with the hands moved one seat, no
    target). The deals depend only on the seed and the number: ``--jobs`` keeps them."""
    seed = options.seed
    base = f"twentynine:{seed}:{number}"
    cards_rng = random.Random(f"{base}:cards")
    for seat, player in seats.items():
        begin = getattr(player, "begin", None)
        if begin is not None:
            begin(random.Random(f"{base}:bots:{seat.value}"))
    table = MatchState(RULES, first_dealer=SEATS[cards_rng.randrange(4)])
    deals: list[Deal] = []
    faults: list[Fault] = []
    stats = {seat: SeatStats() for seat in SEATS}
    limit = 2 if options.duplicate else (options.max_deals or MAX_DEALS)
    forfeit: Seat | None = None
    first_hands: dict[Seat, list[Card | None]] | None = None
    while (options.duplicate or not table.is_over) and len(deals) < limit:
        dealer = table.next_dealer
        if options.duplicate and first_hands is not None:
            hands = rotate(first_hands)
        else:
            hands = (options.dealing or deal_cards)(cards_rng, dealer, RULES)
            first_hands = hands
        state = DealState(RULES, dealer, hands, number=len(deals) + 1)
        runner = _Deal(state, seats, options, number + 1, len(deals) + 1, faults, stats)
        try:
            runner.run()
        except _ForfeitError as exc:
            forfeit = exc.seat
        if forfeit is not None:
            deals.append(Deal(dealer=dealer, hands=hands, actions=runner.history))
            break
        table.record(state)
        outcome = state.result()
        deals.append(
            Deal(
                dealer=dealer,
                hands=hands,
                actions=runner.history,
                result=DealResult(
                    points=TeamScores(NS=outcome.points[Team.NS], EW=outcome.points[Team.EW]),
                    score=TeamScores(NS=table.score[Team.NS], EW=table.score[Team.EW]),
                    thrown_in=outcome.thrown_in,
                ),
            )
        )
    arena: dict[str, Any] = {
        "seats": {
            seat.value: {"name": _name(names, seat), "source": (sources or {}).get(seat, "")}
            for seat in SEATS
        },
        "limit_ms": options.limit_ms,
        "first_index": options.first_index,
        "faults": [f.to_dict() for f in faults],
    }
    if options.bank_ms:
        arena["bank_ms"] = options.bank_ms
    if options.duplicate:
        arena["duplicate"] = True
    if options.dealing is not None:
        arena["dealing"] = getattr(options.dealing, "__name__", "custom")
    if forfeit is not None:
        arena["forfeit"] = forfeit.value
    winner = table.winner if not options.duplicate else None
    result = MatchResult(
        score=TeamScores(NS=table.score[Team.NS], EW=table.score[Team.EW]), winner=winner
    )
    log = MatchLog(
        format="twentynine.match",
        version=1,
        id=f"arena-{seed}-{options.label}-{number + 1}"
        if options.label
        else f"arena-{seed}-{number + 1}",
        rules="bhoos",
        players=_players(names),
        meta={"recorder": RECORDER, "seed": seed, "match": number + 1, "arena": arena},
        deals=deals,
        result=result if forfeit is None else None,  # a forfeited match stops unfinished
    )
    return PlayedMatch(log, faults, stats, number)


def _players(names: Mapping[Seat, str] | None) -> dict[Seat, PlayerRef]:
    """Each bot a player with its name as id: one player in the warehouse, whichever seats
    it holds (partners of one bot are one player twice, as a bot that plays both hands)."""
    return {seat: PlayerRef(name=_name(names, seat), id=_name(names, seat)) for seat in SEATS}


def _name(names: Mapping[Seat, str] | None, seat: Seat) -> str:
    return names[seat] if names and seat in names else f"Bot {seat.value}"
