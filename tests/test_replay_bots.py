"""The bots: they play from their seat's view only, sensibly, and their styles differ."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest

from twentynine.replay.bots import (
    STYLES,
    Bot,
    SeatView,
    Stage,
    best_suit,
    hand_estimate,
    seat_view,
    single_hand_losers,
)
from twentynine.replay.deal import DealState
from twentynine.replay.script import parse_actions, parse_hand, run_script
from twentynine.replay.selfplay import Player, simulate_match
from twentynine.schema import Card, MatchLog, Rules, Seat, Suit
from twentynine.schema.cards import SEATS
from twentynine.schema.log import (
    Action,
    BidAction,
    DittoAction,
    DoubleAction,
    PairAction,
    PassAction,
    PlayAction,
    ShowAction,
    TrumpAction,
)

# Hands for the scenarios (dealer N, pagat: E leads; E holds the hearts and calls).
CHEAP = {
    "E": "JH 9H AH TH 7S 8C 7D 8D",
    "W": "JC 9C AC TC AS QS JD 9D",
    "S": "8S KC QC 7C KD QD AD TD",
    "N": "JS 9S KS 7H 8H KH QH TS",
}
GIFT = {
    "E": "JH 9H AH TH 7S 8C 7D 8D",
    "W": "JC 9C AC TC QS 8S JD 9D",
    "S": "AS KC QC 7C KD QD AD TD",
    "N": "JS 9S KS 7H 8H KH QH TS",
}
PAGAT = Rules.preset("pagat")


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def decide(rules: Rules, hands: dict[str, str], script: str, seat: Seat, stage: Stage) -> Action:
    state = run_script(rules, "N", hands, script)
    assert not [f for f in state.findings if f.severity == "error"]
    view = seat_view(state, seat, parse_actions(script), stage)
    choice = Bot("balanced").decide(view, random.Random(0))
    assert choice is not None
    return choice.action


# ---------------------------------------------------------------------------- policies
def test_estimate_rises_with_jacks_nines_and_length() -> None:
    weak = hand_estimate(cards("7S 8H KD QC"))
    long_suit = hand_estimate(cards("7S 8S KS QS"))
    honours = hand_estimate(cards("JS 9S KS QS"))
    assert weak < long_suit < honours
    assert best_suit(cards("JS 7H 8H 9H"))[0] is Suit.HEARTS


def test_strong_hand_bids_and_weak_hand_passes() -> None:
    strong = {**CHEAP, "E": "JH 9H AH TH 7S 8C 7D 8D"}
    assert isinstance(decide(PAGAT, strong, "", Seat.E, "auction"), BidAction)
    weak = {**CHEAP, "E": "7S 8C 7D 8D JH 9H AH TH"}
    assert isinstance(decide(PAGAT, weak, "", Seat.E, "auction"), PassAction)


def test_partner_holding_the_bid_is_left_alone() -> None:
    # W (E's partner) would bid on its own, but E's 16 stands and W is not much stronger.
    hands = {
        "E": "JS 9S 7D 8D AH TH 8C 7S",
        "W": "JC 7C KH QS AC TC JD 9D",
        "S": "8S KC QC 9C KD QD AD TD",
        "N": "AS KS TS JH 9H 8H 7H QH",
    }
    action = decide(PAGAT, hands, "E:16 S:p", Seat.W, "auction")
    assert isinstance(action, PassAction)


def test_senior_duelist_says_ditto_rather_than_raising() -> None:
    rules = Rules.preset("bangladesh")  # counter-clockwise: W is P1 and S P2 when N deals
    hands = {
        "W": "JH 9H AH TH 7S 8C 7D 8D",
        "E": "JC 9C AC TC AS QS JD 9D",
        "N": "8S KC QC 7C KD QD AD TD",
        "S": "JS 9S KS 7H 8H KH QH TS",
    }
    assert isinstance(decide(rules, hands, "W:16 S:17", Seat.W, "auction"), DittoAction)


def test_trump_is_the_strongest_suit_and_own_card_is_the_lowest() -> None:
    action = decide(PAGAT, CHEAP, "E:16 S:p W:p N:p", Seat.E, "trump")
    assert isinstance(action, TrumpAction) and action.suit is Suit.HEARTS
    classic = Rules.preset("classic29")  # counter-clockwise: W is P1
    hands = {"W": CHEAP["E"], "S": CHEAP["S"], "E": CHEAP["W"], "N": CHEAP["N"]}
    action = decide(classic, hands, "W:16 S:p E:p N:p", Seat.W, "trump")
    assert isinstance(action, TrumpAction)
    assert action.suit is Suit.HEARTS and action.card == Card.parse("TH")


def test_wins_the_trick_cheaply() -> None:
    # W's AS wins; N, last to play, beats it with the 9 rather than the jack.
    action = decide(PAGAT, CHEAP, "E:16 S:p W:p N:p E:trump=H E:7S S:8S W:AS", Seat.N, "play")
    assert action == PlayAction(seat=Seat.N, card=Card.parse("9S"))
    # Against the queen the king is enough (the ten would beat it too, but is a point).
    script = "E:16 S:p W:p N:p E:trump=H E:7S S:8S W:QS"
    action = decide(PAGAT, CHEAP, script, Seat.N, "play")
    assert action == PlayAction(seat=Seat.N, card=Card.parse("KS"))


def test_gives_points_to_a_partner_who_wins() -> None:
    # S's AS wins for N's side and N plays last: N adds a point card, never the jack.
    action = decide(PAGAT, GIFT, "E:16 S:p W:p N:p E:trump=H E:7S S:AS W:QS", Seat.N, "play")
    assert isinstance(action, PlayAction)
    assert action.card.points > 0 and action.card != Card.parse("JS")


def test_ducks_when_it_cannot_win() -> None:
    # Second to play behind the leader's jack, N plays its lowest spade.
    hands = {**CHEAP, "E": "JH 9H AH TH JS 8C 7D 8D", "N": "7S 9S KS 7H 8H KH QH TS"}
    action = decide(PAGAT, hands, "E:16 S:p W:p N:p E:trump=H E:JS S:8S W:AS", Seat.N, "play")
    assert action == PlayAction(seat=Seat.N, card=Card.parse("7S"))


def test_pair_policy() -> None:
    rules = Rules.preset("bangladesh")
    bot = Bot("balanced")
    base: dict[str, object] = {
        "seat": Seat.S,
        "stage": "pair",
        "rules": rules,
        "dealer": Seat.N,
        "order": (Seat.W, Seat.S, Seat.E, Seat.N),
        "hand": tuple(cards("KH QH")),
        "history": (),
        "standing": None,
        "caller": Seat.N,
        "call": 17,
        "target": 17,
        "doubled": 0,
        "seventh": False,
        "trump": Suit.HEARTS,
        "face_down": None,
        "shown": True,
        "asker": Seat.W,
        "pair": None,
        "single": None,
        "tricks": (),
        "winners": (),
        "trick": (),
        "points": (0, 0),
        "legal": (PairAction(seat=Seat.S),),
    }
    view = SeatView(**base)  # type: ignore[arg-type]
    # The caller's side on a call of 17: the Pair would not lower the target (19 or more).
    assert bot.decide(view, random.Random(0)) is None
    assert bot.decide(SeatView(**{**base, "call": 19}), random.Random(0)) is not None  # type: ignore[arg-type]
    defender = SeatView(**{**base, "caller": Seat.E})  # type: ignore[arg-type]
    assert bot.decide(defender, random.Random(0)) is not None


def test_single_hand_needs_sure_winners() -> None:
    assert single_hand_losers(cards("JS 9S AS JH 9H JD JC 9C")) == 0
    assert single_hand_losers(cards("JS 9S AS JH 9H JD JC 8C")) == 1
    assert single_hand_losers(cards("7S 8S KS QH TH JD 9D AD")) > 3


# ---------------------------------------------------------------------------- no peeking
@dataclass
class Point:
    deal: int
    actions: int
    view: SeatView


def observe(rules: Rules, seed: int, styles: tuple[str, ...]) -> tuple[MatchLog, list[Point]]:
    points: list[Point] = []

    def record(state: DealState, view: SeatView, choice: object) -> None:
        points.append(Point(state.number, state.n_actions, view))

    seats = {seat: Player(f"P{i}", styles[i]) for i, seat in enumerate(SEATS)}
    match = simulate_match(rules, seed, 0, seats, observer=record)
    return match, points


def reshuffled(
    match: MatchLog, point: Point, rng: random.Random
) -> tuple[DealState, list[Action]] | None:
    """The deal replayed to the decision with the cards the seat cannot see dealt anew."""
    rules = match.resolved_rules()
    deal = match.deals[point.deal - 1]
    assert deal.hands is not None
    prefix = list(deal.actions[: point.actions])
    seat = point.view.seat
    played = {a.card for a in prefix if isinstance(a, PlayAction)}
    fixed = set(played)
    view = point.view
    if view.caller is not None and view.caller is not seat:
        trump = next((a for a in prefix if isinstance(a, TrumpAction)), None)
        if trump is not None and trump.card is not None:
            fixed.add(trump.card)  # the face-down card: it names the trump
        if trump is not None and trump.seventh:
            fixed.add(deal.hands[view.caller][6])  # type: ignore[arg-type]
    if view.pair is not None and view.trump is not None:
        fixed |= {c for c in deal.hands[view.pair] if c is not None and c.suit is view.trump}
    slots = [
        (other, i)
        for other in SEATS
        if other is not seat
        for i, card in enumerate(deal.hands[other])
        if card not in fixed
    ]
    pool = [deal.hands[o][i] for o, i in slots]
    for _ in range(60):
        rng.shuffle(pool)
        hands = {s: list(deal.hands[s]) for s in SEATS}
        for (other, i), card in zip(slots, pool, strict=True):
            hands[other][i] = card
        if hands == {s: list(deal.hands[s]) for s in SEATS}:
            continue
        state = DealState(rules, deal.dealer, hands, number=point.deal)
        for action in prefix:
            state.apply(action)
        if view.stage not in ("auction", "trump", "double"):
            state.end_doubling()  # as the simulator did once it had offered the doubling
        if not state.findings and not state.is_over and state.current_seat is not None:
            return state, prefix
    return None


@pytest.mark.parametrize("preset", ["bangladesh", "standard", "classic29", "bhoos", "beginner"])
def test_decisions_ignore_cards_the_seat_cannot_see(preset: str) -> None:
    rules = Rules.preset(preset)
    match, points = observe(rules, 21, ("aggressive", "balanced", "cautious", "aggressive"))
    rng = random.Random(5)
    sample = rng.sample(points, min(60, len(points)))
    checked = Counter[str]()
    for point in sample:
        alt = reshuffled(match, point, rng)
        if alt is None:
            continue
        state, prefix = alt
        other = seat_view(state, point.view.seat, prefix, point.view.stage)
        assert other == point.view, f"deal {point.deal}, action {point.actions}"
        bot = Bot(STYLES["aggressive"])
        mine = bot.decide(point.view, random.Random(9))
        theirs = bot.decide(other, random.Random(9))
        assert mine == theirs
        checked[point.view.stage] += 1
    assert checked["play"] >= 10 and checked["auction"] >= 3, checked


def test_view_shows_own_cards_and_the_trump_only_once_known() -> None:
    rules = Rules.preset("standard")
    match, points = observe(rules, 4, ("balanced",) * 4)
    seen_hidden = seen_shown = 0
    for point in points:
        view = point.view
        deal = match.deals[point.deal - 1]
        assert deal.hands is not None
        own = set(deal.hands[view.seat])
        assert set(view.hand) <= own
        if view.stage in ("auction", "trump", "double"):
            assert len(view.hand) <= 4
        if view.caller is not None and view.caller is not view.seat and not view.shown:
            assert view.trump is None and view.face_down is None
            trumps = [a for a in view.history if isinstance(a, TrumpAction)]
            assert trumps and trumps[0].suit is None and trumps[0].card is None
            seen_hidden += 1
        if view.shown and view.single is None:
            assert view.trump is not None
            seen_shown += 1
    assert seen_hidden and seen_shown


def test_seventh_card_trump_is_unknown_even_to_the_caller_until_the_second_deal() -> None:
    rules = Rules.preset("bangladesh")
    hands = {
        "W": "JH 8C 7D KH 7S 9H 7H AH",  # W's seventh card is 7H
        "S": "JS 9S KS QS 8H QH TS AS",
        "E": "JC 9C AC TC 8S QC JD 9D",
        "N": "KC 8D KD QD AD TD TH 7C",
    }
    script = "W:16 S:p N:p E:p W:trump=seventh"
    state = run_script(rules, "N", hands, script)
    assert state.findings == []
    history = parse_actions(script)
    assert seat_view(state, Seat.W, history, "double").trump is None
    assert len(seat_view(state, Seat.W, history, "double").hand) == 4
    state.end_doubling()  # nobody doubles: the second four are dealt
    assert seat_view(state, Seat.W, history, "single_hand").trump is Suit.HEARTS
    assert len(seat_view(state, Seat.W, history, "single_hand").hand) == 8
    assert seat_view(state, Seat.S, history, "play").trump is None


def test_bots_only_choose_legal_actions_and_play_to_the_end() -> None:
    for preset in ("pagat", "bhoos"):
        hands = {Seat(s): parse_hand(h) for s, h in CHEAP.items()}
        state = DealState(Rules.preset(preset), Seat.N, hands)
        history: list[Action] = []
        styles = ("cautious", "balanced", "aggressive", "balanced")
        bots = {seat: Bot(style) for seat, style in zip(SEATS, styles, strict=True)}
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            phase = ("auction", "trump", "play")[state.phase]
            view = seat_view(state, seat, history, phase)  # type: ignore[arg-type]
            choice = bots[seat].decide(view, random.Random(len(history)))
            assert choice is not None and choice.action in view.legal
            assert not state.apply(choice.action)
            history.append(choice.action)
        assert state.trick_no == 8 or state.thrown_in is not None


# ---------------------------------------------------------------------------- styles
@dataclass
class Tally:
    turns: int = 0
    bids: int = 0
    calls: int = 0
    call_total: int = 0
    ask_chances: int = 0
    asks: int = 0
    double_chances: int = 0
    doubles: int = 0

    def add(self, view: SeatView, action: Action | None) -> None:
        legal = view.legal
        if view.stage == "auction" and any(isinstance(a, PassAction) for a in legal):
            self.turns += 1
            self.bids += isinstance(action, BidAction | DittoAction)
        elif view.stage == "trump":
            self.calls += 1
            self.call_total += view.call
        elif view.stage == "double" and any(isinstance(a, DoubleAction) for a in legal):
            self.double_chances += 1
            self.doubles += isinstance(action, DoubleAction)
        elif (
            view.stage == "play"
            and view.seat is not view.caller
            and any(isinstance(a, ShowAction) for a in legal)
            and any(isinstance(a, PlayAction) for a in legal)
        ):
            self.ask_chances += 1
            self.asks += isinstance(action, ShowAction)

    def rates(self) -> dict[str, float]:
        return {
            "bid frequency": self.bids / self.turns,
            "average call": self.call_total / self.calls,
            "ask rate": self.asks / self.ask_chances,
            "double rate": self.doubles / self.double_chances,
        }


def style_rates(style: str, deals: int) -> dict[str, float]:
    rules = Rules.preset("bangladesh")
    tally = Tally()
    played = 0
    number = 0

    def record(state: DealState, view: SeatView, choice: object) -> None:
        tally.add(view, getattr(choice, "action", None))

    while played < deals:
        seats = {seat: Player(seat.value, style) for seat in SEATS}
        match = simulate_match(rules, 77, number, seats, observer=record)
        played += len(match.deals)
        number += 1
    return tally.rates()


def test_styles_differ_in_the_expected_direction() -> None:
    rates = {name: style_rates(name, 300) for name in STYLES}
    for stat in ("bid frequency", "average call", "ask rate", "double rate"):
        low, mid, high = (rates[name][stat] for name in ("cautious", "balanced", "aggressive"))
        assert low < mid < high, (stat, low, mid, high)
    assert rates["aggressive"]["double rate"] > 3 * rates["cautious"]["double rate"]
    assert rates["aggressive"]["ask rate"] - rates["cautious"]["ask rate"] > 0.3
