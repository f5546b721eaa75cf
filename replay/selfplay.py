"""Self-play: complete matches between bots, in the canonical log format, seeded and repeatable.

:func:`simulate_matches` is what ``twentynine simulate`` calls. Every choice is made by a
:class:`~replay.bots.Bot` among the engine's legal actions, from its seat's view; the cards,
the bots' choices and the injected breaches each draw from their own ``random.Random``
seeded from the arguments, so the same arguments give the same logs, byte for byte.

>>> from twentynine.schema import Rules
>>> match = next(simulate_matches(Rules.preset("pagat"), matches=1, seed=3))
>>> match.id, match.result.winner is not None
('sim-pagat-3-1', True)
>>> from twentynine.replay.audit import audit_match
>>> audit_match(match).errors
0
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final

from twentynine.replay.bots import (
    STYLE_NAMES,
    STYLES,
    Bot,
    Choice,
    SeatView,
    Stage,
    legal_at,
    redact,
    seat_view,
)
from twentynine.replay.deal import DealState
from twentynine.replay.inject import (
    RESULT_KINDS,
    Injection,
    applicable_kinds,
    breach_action,
    falsify_result,
    score_slip,
    shift_score,
)
from twentynine.replay.match import MatchState
from twentynine.replay.simulate import deal_cards, rules_spec
from twentynine.schema.cards import SEATS, Card, Seat, Suit, Team
from twentynine.schema.log import (
    Action,
    BidAction,
    Deal,
    DealResult,
    MatchLog,
    MatchResult,
    PairAction,
    ShowAction,
    TeamScores,
    TrumpAction,
    dump_json,
)
from twentynine.schema.rules import PRESET_NAMES, PRESETS, Rules

MAX_ACTIONS: Final = 400
MAX_DEALS: Final = 500  # a match between bots ends in a few dozen deals; this guards a bug
DEFAULT_PLAYERS: Final[tuple[str, ...]] = ("Bot N", "Bot E", "Bot S", "Bot W")
RECORDER: Final = "twentynine simulate"

Observer = Callable[[DealState, SeatView, Choice | None], None]
"""Called at every bot decision with the state, the seat's view and the choice (or None)."""

# Decisions worth a note in a sample log: rarer, and telling of the player's style.
_NOTED: Final[frozenset[str]] = frozenset({"double", "redouble", "set", "single_hand", "pair"})


@dataclass(frozen=True, slots=True)
class Player:
    """A named player and the style of its bot."""

    name: str
    style: str


def parse_players(names: Sequence[str], styles: Mapping[str, str] | None = None) -> list[Player]:
    """Players from names, each ``"Name"`` or ``"Name:style"``; ``styles`` may name more.

    Without a style a player gets one by its place in the list: balanced, cautious,
    aggressive, balanced, ... Raises ``ValueError`` for fewer than four players, a name given
    twice, or an unknown style.

    >>> [(p.name, p.style) for p in parse_players(["Rahim:aggressive", "Karim", "Mitu", "Joy"])]
    [('Rahim', 'aggressive'), ('Karim', 'cautious'), ('Mitu', 'aggressive'), ('Joy', 'balanced')]
    """
    cycle = ("balanced", "cautious", "aggressive")
    players: list[Player] = []
    for i, entry in enumerate(names):
        name, sep, style = entry.partition(":")
        name = name.strip()
        style = style.strip() if sep else (styles or {}).get(name, cycle[i % 3])
        if styles and name in styles:
            style = styles[name]
        if not name:
            raise ValueError(f"player {i + 1} has no name")
        if style not in STYLES:
            known = ", ".join(STYLE_NAMES)
            raise ValueError(f"unknown style {style!r} for {name} (known: {known})")
        players.append(Player(name, style))
    seen: set[str] = set()
    for player in players:
        if player.name in seen:
            raise ValueError(f"player {player.name!r} is named twice")
        seen.add(player.name)
    strangers = sorted(set(styles or {}) - seen)
    if strangers:
        raise ValueError(f"a style is given for {strangers[0]!r}, who is not playing")
    if len(players) < 4:
        raise ValueError(f"a match needs four players, not {len(players)}")
    return players


def seating(players: Sequence[Player], number: int, seed: int) -> dict[Seat, Player]:
    """Who sits where in match ``number`` (0-based); partners sit opposite (N-S, E-W).

    Four players keep their seats. A league of a multiple of four rotates partnerships by
    the round-robin circle: over ``n - 1`` rounds each player partners every other once.
    Any other number draws four players a match from the seed.

    >>> ps = parse_players([f"P{i}" for i in range(8)])
    >>> [" ".join(p.name for p in seating(ps, n, 1).values()) for n in range(3)]  # N E S W
    ['P0 P1 P7 P6', 'P2 P3 P5 P4', 'P0 P2 P1 P7']
    """
    k = len(players)
    if k == 4:
        return dict(zip(SEATS, players, strict=True))
    if k % 4:
        rng = random.Random(f"twentynine:{seed}:{number}:seating")
        a, b, c, d = rng.sample(list(players), 4)
        return {Seat.N: a, Seat.E: b, Seat.S: c, Seat.W: d}
    tables = k // 4
    cycle, table = divmod(number, tables)
    rnd = cycle % (k - 1)
    rest = list(range(1, k))
    turned = [0, *rest[rnd:], *rest[:rnd]]
    pairs = [(turned[i], turned[k - 1 - i]) for i in range(k // 2)]
    (n, s), (e, w) = pairs[2 * table], pairs[2 * table + 1]
    if (cycle // (k - 1)) % 2:  # every other full cycle the pairs change ends
        n, s, e, w = e, w, n, s
    return {Seat.N: players[n], Seat.E: players[e], Seat.S: players[s], Seat.W: players[w]}


def rules_label(rules: Rules) -> str:
    """A short name for the rules in match ids: the preset, or the preset and a hash.

    >>> rules_label(Rules.preset("bhoos")), rules_label(Rules.preset("pagat").with_options(stake=2))
    ('bhoos', 'pagat+10247d')
    """
    for name in PRESET_NAMES:
        if PRESETS[name] == rules:
            return name
    spec = rules_spec(rules)
    assert isinstance(spec, dict)
    digest = hashlib.sha256(dump_json(spec, sort_keys=True)).hexdigest()[:6]
    return f"{spec['preset']}+{digest}"


def simulate_matches(
    rules: Rules,
    matches: int,
    seed: int,
    players: Sequence[str] | None = None,
    styles: Mapping[str, str] | None = None,
    inject_rate: float = 0.0,
    *,
    notes: bool = False,
    inject_kinds: Sequence[str] | None = None,
    max_deals: int | None = None,
) -> Iterator[MatchLog]:
    """Simulate ``matches`` complete matches between bots, yielded one at a time.

    ``players`` are names (``"Name"`` or ``"Name:style"``; default four bots); more than
    four make a league with rotating partnerships (:func:`seating`). ``styles`` maps names
    to styles. ``inject_rate`` is the chance that a deal gets one seeded rule breach, drawn
    from ``inject_kinds`` (default: every kind the rules allow); breaches are listed in
    ``meta.injected``. ``notes`` writes the bots' reasons for rarer decisions (doubling,
    single hand, the Pair, the seventh card, jump bids, the caller's show) as notes.
    ``max_deals`` stops a match early (its result then has no winner). Match ids are
    ``sim-<rules>-<seed>-<n>``, n from 1.

    Raises ``ValueError`` for bad players, styles, kinds or numbers, at the call (before
    the first match is simulated).

    >>> from twentynine.schema import Rules
    >>> logs = list(simulate_matches(Rules.preset("bhoos"), 2, 1, players=["A", "B", "C", "D"]))
    >>> [m.id for m in logs], logs[0].players["N"]
    (['sim-bhoos-1-1', 'sim-bhoos-1-2'], 'A')
    """
    if matches < 0:
        raise ValueError(f"the number of matches must not be negative, not {matches}")
    if max_deals is not None and max_deals < 1:
        raise ValueError(f"a match needs at least one deal, not {max_deals}")
    if not 0.0 <= inject_rate <= 1.0:
        raise ValueError(f"the inject rate is a chance between 0 and 1, not {inject_rate}")
    roster = parse_players(list(players) if players is not None else DEFAULT_PLAYERS, styles)
    allowed = applicable_kinds(rules)
    if inject_kinds is not None:
        unknown = [k for k in inject_kinds if k not in allowed]
        if unknown:
            raise ValueError(
                f"inject kind {unknown[0]!r} is unknown or impossible under these rules "
                f"(possible: {', '.join(allowed)})"
            )
        kinds = tuple(inject_kinds)
    else:
        kinds = allowed
    return _simulated(rules, matches, seed, roster, inject_rate, kinds, notes, max_deals)


def _simulated(
    rules: Rules,
    matches: int,
    seed: int,
    roster: Sequence[Player],
    inject_rate: float,
    kinds: tuple[str, ...],
    notes: bool,
    max_deals: int | None,
) -> Iterator[MatchLog]:
    """The matches of :func:`simulate_matches`, one at a time (a generator function: mypyc
    would build a generator expression returned here into a list, every match at once)."""
    label = rules_label(rules)
    for number in range(matches):
        yield simulate_match(
            rules,
            seed,
            number,
            seating(roster, number, seed),
            label=label,
            inject_rate=inject_rate,
            inject_kinds=kinds,
            notes=notes,
            max_deals=max_deals,
        )


def simulate_match(
    rules: Rules,
    seed: int,
    number: int,
    seats: Mapping[Seat, Player],
    *,
    label: str | None = None,
    inject_rate: float = 0.0,
    inject_kinds: Sequence[str] = (),
    notes: bool = False,
    max_deals: int | None = None,
    observer: Observer | None = None,
) -> MatchLog:
    """Match ``number`` (0-based) of the seed, with the given players in their seats.

    >>> from twentynine.schema import Rules
    >>> seats = dict(zip(SEATS, parse_players(["A", "B", "C", "D"])))
    >>> simulate_match(Rules.preset("classic29"), 5, 0, seats).meta["styles"]["E"]
    'cautious'
    """
    base = f"twentynine:{seed}:{number}"
    cards_rng = random.Random(f"{base}:cards")
    bots_rng = random.Random(f"{base}:bots")
    inject_rng = random.Random(f"{base}:inject")
    bots = {seat: Bot(player.style) for seat, player in seats.items()}
    table = MatchState(rules, first_dealer=SEATS[cards_rng.randrange(4)])
    deals: list[Deal] = []
    injected: list[Injection] = []
    offset = 0
    limit = max_deals if max_deals is not None else MAX_DEALS
    ns, ew = Team.NS, Team.EW
    while not table.is_over and len(deals) < limit:
        dealer = table.next_dealer
        hands = deal_cards(cards_rng, dealer, rules)
        state = table.new_deal(hands)
        kind = None
        if inject_kinds and inject_rng.random() < inject_rate:
            kind = inject_rng.choice(list(inject_kinds))
        runner = DealRunner(
            state,
            bots,
            bots_rng,
            notes=notes,
            inject=kind if kind not in RESULT_KINDS else None,
            inject_rng=inject_rng,
            observer=observer,
        )
        runner.run()
        table.record(state)
        outcome = state.result()
        result = DealResult(
            points=TeamScores(NS=outcome.points[ns], EW=outcome.points[ew]),
            score=TeamScores(NS=table.score[ns], EW=table.score[ew]),
            thrown_in=outcome.thrown_in,
        )
        number_in_match = len(deals) + 1
        if runner.injected is not None:
            injected.append(Injection(number_in_match, runner.injected, kind or ""))
        elif kind in RESULT_KINDS:
            if kind == "wrong_score":
                offset += score_slip(inject_rng)
            result = falsify_result(kind, result, offset)
            injected.append(Injection(number_in_match, None, kind))
        if kind != "wrong_score":
            result = shift_score(result, offset)
        deals.append(Deal(dealer=dealer, hands=hands, actions=runner.log, result=result))
    meta: dict[str, Any] = {
        "recorder": RECORDER,
        "generator": "replay.selfplay",
        "seed": seed,
        "match": number + 1,
        "styles": {seat.value: seats[seat].style for seat in SEATS},
    }
    if inject_rate:
        meta["inject_rate"] = inject_rate
        meta["injected"] = [i.to_dict() for i in injected]
    return MatchLog(
        format="twentynine.match",
        version=1,
        id=f"sim-{label or rules_label(rules)}-{seed}-{number + 1}",
        rules=rules_spec(rules),
        players={seat: seats[seat].name for seat in SEATS},
        meta=meta,
        deals=deals,
        result=MatchResult(
            score=TeamScores(NS=table.score[ns] + offset, EW=table.score[ew]),
            winner=table.winner,
        ),
    )


@cache
def _shown(seat: Seat, suit: Suit) -> ShowAction:
    """The show as the recorder writes it down, with the suit shown (one frozen model for each
    seat and suit: a play-out records one)."""
    return ShowAction.model_construct(seat=seat, suit=suit, type="show")


def _offered(action: Action, legal: Sequence[Action]) -> bool:
    # Bots hand back the engine's own action objects; comparing models field by field is slow.
    for offered in legal:
        if offered is action:
            return True
    return action in legal


@dataclass
class DealRunner:
    """Plays one deal to its end: asks the bot of the seat on turn, applies its choice.

    The doubling ladder is offered to the caller's opponents in order from P1 (then to the
    caller's side, then back), single hand to each seat from P1 once all cards are dealt,
    and the Pair to its holder whenever the rules would allow it.
    """

    state: DealState
    bots: Mapping[Seat, Bot]
    rng: random.Random
    notes: bool = False
    inject: str | None = None
    inject_rng: random.Random | None = None
    observer: Observer | None = None
    history: list[Action] = field(default_factory=list)
    log: list[Action] = field(default_factory=list)
    injected: int | None = None
    _declined_pair: set[Seat] = field(default_factory=set)
    _pair_holder: Seat | None = None
    _pair_looked: bool = False
    _redacted: list[Action] = field(default_factory=list)
    """``history`` as the seats other than the caller see it before the show, kept as it
    grows (``history`` is only ever added to)."""

    def run(self) -> None:
        """Play until the deal is over (or, after a breach, cannot go on)."""
        state = self.state
        ladder_done = False
        while not state.is_over and len(self.history) < MAX_ACTIONS:
            stage: Stage = state.phase_name
            if stage == "play" and not ladder_done:
                ladder_done = True
                self._ladder()
                state.end_doubling()  # every seat was asked: the second four are dealt
                if not state.is_over:
                    self._single_hand()
                continue
            seat = state.current_seat
            if seat is None:
                break
            if stage == "play" and self._pair():
                continue
            if self._try_inject(seat):
                continue
            if not self._required(seat, stage):
                break

    def apply(self, action: Action, reason: str | None = None) -> None:
        """Apply an action to the state and record it (with ``reason`` as its note)."""
        if isinstance(action, ShowAction) and action.suit is None:
            trump = self.state.trump_suit
            if trump is not None:  # the recorder writes down what was shown
                action = _shown(action.seat, Suit(trump))
        self.state.apply(action)
        self.history.append(action)
        if reason is not None and self.notes:
            action = action.model_copy(update={"note": reason})
        self.log.append(action)

    def _decide(self, seat: Seat, stage: Stage) -> Choice | None:
        bot = self.bots[seat]
        legal = legal_at(self.state, seat, stage)
        if self.observer is None:  # an observer is shown every view, even a forced one's
            forced = bot.forced(legal)
            if forced is not None:
                return forced
        known = self.state.seat_view(seat)
        history, redacted = self.history, self._redacted
        hidden: list[Action] | None = None
        if known.caller is not seat and not known.shown:  # the trump is hidden from the seat
            if len(redacted) > len(history):
                redacted.clear()
            if len(redacted) < len(history):
                redacted.extend(map(redact, history[len(redacted) :]))
            hidden = redacted
        view = seat_view(self.state, seat, history, stage, known, hidden, legal)
        choice = bot.decide(view, self.rng) if legal else None
        if choice is not None and not _offered(choice.action, view.legal):
            raise AssertionError(f"the {stage} bot of {seat} chose an action not allowed")
        if self.observer is not None:
            self.observer(self.state, view, choice)
        return choice

    def _note(self, action: Action, choice: Choice) -> str | None:
        if choice.reason is None:
            return None
        if action.type in _NOTED:
            return choice.reason
        if isinstance(action, TrumpAction) and action.seventh:
            return choice.reason
        if isinstance(action, BidAction | ShowAction):
            return choice.reason  # jump bids, and the caller showing the trump to ruff
        return None

    def _required(self, seat: Seat, stage: Stage) -> bool:
        # The seat on turn always has a legal action, breaches or not (a property test
        # keeps the engine to it); None here only means the deal cannot go on.
        return self._offer(seat, stage)

    def _offer(self, seat: Seat, stage: Stage) -> bool:
        choice = self._decide(seat, stage)
        if choice is None:
            return False
        self.apply(choice.action, self._note(choice.action, choice))
        return True

    def _ladder(self) -> None:
        state = self.state
        rules = state.rules
        caller = state.caller_seat
        if not rules.double or caller is None:
            return
        order = state.order
        doubler = next(
            (s for s in order if s.team is not caller.team and self._offer(s, "double")), None
        )
        if doubler is None or not rules.redouble or state.is_over:
            return
        if not any(self._offer(s, "double") for s in (caller, caller.partner)):
            return
        if rules.set_ and not state.is_over:
            any(self._offer(s, "double") for s in (doubler, doubler.partner))

    def _single_hand(self) -> None:
        state = self.state
        if not state.rules.single_hand:
            return
        for seat in state.order:
            if self._offer(seat, "single_hand"):
                return

    def _pair(self) -> bool:
        """Offer the Pair to the seat holding the King and Queen of trumps, when it may show it
        (the show, the trump once shown and the Pair are public facts)."""
        if self._pair_looked and self._pair_holder is None:
            return False  # nobody held both at the show: the rest of the play-out asks this
        state = self.state
        if (
            state.rules.pair == "off"
            or not state.shown
            or state.pair_seat >= 0
            or state.single >= 0
        ):
            return False
        trump = state.trump_suit  # no trump in a single hand: left out above
        if trump is None:
            return False
        king = Card.parse(f"K{trump}")
        queen = Card.parse(f"Q{trump}")
        if not self._pair_looked:  # both still held at the show: at most one seat, fixed
            self._pair_looked = True
            self._pair_holder = next(
                (s for s in SEATS if king in (h := state.hand(s)) and queen in h), None
            )
        seat = self._pair_holder
        if seat is None or seat in self._declined_pair:
            return False
        hand = state.hand(seat)
        if king not in hand or queen not in hand:
            return False
        if not any(isinstance(a, PairAction) for a in state.legal_actions(seat)):
            return False
        if self._offer(seat, "pair"):
            return True
        self._declined_pair.add(seat)
        return False

    def _try_inject(self, seat: Seat) -> bool:
        kind = self.inject
        if kind is None or self.injected is not None or self.inject_rng is None:
            return False
        action = breach_action(kind, self.state, seat, self.history, self.inject_rng)
        if action is None:
            return False
        self.injected = len(self.history)
        self.apply(action)
        return True
