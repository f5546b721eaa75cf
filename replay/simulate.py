"""Random legal games: every choice uniform among ``legal_actions()``, deterministic per seed.

Used by the property tests and the benchmark now, and by the simulator's bots later.

>>> from twentynine.schema import Rules
>>> log = random_match(Rules.preset("bhoos"), seed=7)
>>> log == random_match(Rules.preset("bhoos"), seed=7), log.result is not None
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from twentynine.replay.deal import DealState
from twentynine.replay.match import MatchState
from twentynine.schema.cards import ALL_CARDS, SEATS, Card, Seat
from twentynine.schema.log import Action, Deal, DealResult, MatchLog, MatchResult, TeamScores
from twentynine.schema.rules import PRESET_NAMES, PRESETS, Rules, rules_diff

MAX_ACTIONS = 400  # a deal has at most a few dozen; this only guards against a bug looping


def rules_spec(rules: Rules) -> str | dict[str, Any]:
    """The log's ``rules`` value for a Rules: a preset name, or the closest preset + overrides.

    >>> pagat = Rules.preset("pagat")
    >>> rules_spec(pagat), rules_spec(pagat.with_options(min_bid=16))
    ('pagat', {'preset': 'pagat', 'min_bid': 16})
    """
    best: tuple[int, str, dict[str, Any]] | None = None
    for preset in PRESET_NAMES:
        diff = rules_diff(PRESETS[preset], rules)
        if best is None or len(diff) < best[0]:
            best = (len(diff), preset, {key: pair[1] for key, pair in diff.items()})
    assert best is not None
    _, closest, overrides = best
    return closest if not overrides else {"preset": closest, **overrides}


def deal_cards(rng: random.Random, dealer: Seat, rules: Rules) -> dict[Seat, list[Card | None]]:
    """Shuffle and deal: four each from the player after the dealer, then four more each."""
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    order = dealer.next(rules.direction).order_from(rules.direction)
    hands: dict[Seat, list[Card | None]] = {}
    for i, seat in enumerate(order):
        hands[seat] = [*deck[4 * i : 4 * i + 4], *deck[16 + 4 * i : 20 + 4 * i]]
    return hands


def play_random(state: DealState, rng: random.Random) -> list[Action]:
    """Play a deal to its end, each action uniform among the legal ones; returns them."""
    actions: list[Action] = []
    while not state.is_over and len(actions) < MAX_ACTIONS:
        legal = state.legal_actions()
        if not legal:
            break
        action = legal[rng.randrange(len(legal))]
        state.apply(action)
        actions.append(action)
    return actions


def random_deal(rules: Rules, seed: int | random.Random, dealer: Seat = Seat.N) -> Deal:
    """One random legal deal (hands, actions and its recorded points and throw-in).

    >>> from twentynine.schema import Rules, Seat
    >>> deal = random_deal(Rules.preset("pagat"), 3, Seat.E)
    >>> deal.dealer, len(deal.hands[Seat.N])
    (<Seat.E: 'E'>, 8)
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    hands = deal_cards(rng, dealer, rules)
    state = DealState(rules, dealer, hands)
    actions = play_random(state, rng)
    outcome = state.result()
    return Deal(
        dealer=dealer,
        hands=hands,
        actions=actions,
        result=DealResult(
            points=TeamScores(NS=outcome.points[SEATS[0].team], EW=outcome.points[SEATS[1].team]),
            thrown_in=outcome.thrown_in,
        ),
    )


def random_match(
    rules: Rules,
    seed: int,
    players: Mapping[Seat, str] | None = None,
    *,
    max_deals: int = 200,
) -> MatchLog:
    """A complete random match (or ``max_deals`` deals), with every result recorded.

    The first dealer is drawn from the seed; the deal then passes on as the rules say.
    """
    rng = random.Random(seed)
    table = MatchState(rules, first_dealer=SEATS[rng.randrange(4)])
    deals: list[Deal] = []
    while not table.is_over and len(deals) < max_deals:
        dealer = table.next_dealer
        hands = deal_cards(rng, dealer, rules)
        state = table.new_deal(hands)
        actions = play_random(state, rng)
        table.record(state)
        outcome = state.result()
        ns, ew = SEATS[0].team, SEATS[1].team
        deals.append(
            Deal(
                dealer=dealer,
                hands=hands,
                actions=actions,
                result=DealResult(
                    points=TeamScores(NS=outcome.points[ns], EW=outcome.points[ew]),
                    score=TeamScores(NS=table.score[ns], EW=table.score[ew]),
                    thrown_in=outcome.thrown_in,
                ),
            )
        )
    names = dict(players) if players is not None else {s: f"Bot {s.value}" for s in SEATS}
    return MatchLog(
        format="twentynine.match",
        version=1,
        id=f"random-{seed}",
        rules=rules_spec(rules),
        players=names,
        deals=deals,
        result=MatchResult(
            score=TeamScores(NS=table.score[SEATS[0].team], EW=table.score[SEATS[1].team]),
            winner=table.winner,
        ),
    )
