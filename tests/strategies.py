"""Hypothesis strategies for the vocabulary and the match log (shape only, not legal play)."""

from __future__ import annotations

from typing import Any, Final

from hypothesis import strategies as st

from twentynine.schema.cards import ALL_CARDS, Seat, Suit
from twentynine.schema.rules import PRESET_NAMES, Rules

seats = st.sampled_from(list(Seat))
suits = st.sampled_from(list(Suit))
card_texts = st.sampled_from([card.text for card in ALL_CARDS])
notes = st.text(max_size=20)


def _action(kind: str, **fields: Any) -> st.SearchStrategy[dict[str, Any]]:
    optional = st.fixed_dictionaries({}, optional={"t": st.integers(0, 10**9), "note": notes})
    base = st.fixed_dictionaries({"seat": seats, "type": st.just(kind), **fields})
    return st.tuples(base, optional).map(lambda pair: {**pair[0], **pair[1]})


actions = st.one_of(
    _action("bid", value=st.integers(0, 40)),
    _action("pass"),
    _action("ditto"),
    _action("trump", suit=st.none() | suits),
    _action("trump", seventh=st.just(True)),
    _action("trump", suit=suits, card=card_texts),
    _action("trump", suit=st.none(), mode=st.sampled_from(["no_trump", "reverse"])),
    _action("double"),
    _action("redouble"),
    _action("set"),
    _action("single_hand"),
    _action("redeal"),
    _action("show"),
    _action("show", suit=suits),
    _action("play", card=card_texts),
    _action("pair"),
)

team_scores = st.fixed_dictionaries({"NS": st.integers(-12, 12), "EW": st.integers(-12, 12)})
hands = st.dictionaries(seats, st.lists(st.none() | card_texts, min_size=8, max_size=8), max_size=4)
deal_results = st.fixed_dictionaries(
    {},
    optional={
        "points": team_scores,
        "score": team_scores,
        "thrown_in": st.none() | st.sampled_from(["never_shown", "all_pass"]),
    },
)
deals = st.fixed_dictionaries(
    {"dealer": seats, "actions": st.lists(actions, max_size=12)},
    optional={"hands": hands, "result": deal_results},
)
players = st.fixed_dictionaries(
    {
        seat.value: st.one_of(
            st.text(min_size=1, max_size=12),
            st.fixed_dictionaries({"name": st.text(max_size=8), "id": st.text(max_size=8)}),
        )
        for seat in Seat
    }
)
rules_specs = st.one_of(
    st.sampled_from(list(PRESET_NAMES)),
    st.fixed_dictionaries(
        {"preset": st.sampled_from(list(PRESET_NAMES))},
        optional={"min_bid": st.integers(15, 16), "last_trick_bonus": st.integers(0, 1)},
    ),
)
match_documents = st.fixed_dictionaries(
    {
        "format": st.just("twentynine.match"),
        "version": st.just(1),
        "rules": rules_specs,
        "players": players,
        "deals": st.lists(deals, max_size=3),
    },
    optional={
        "id": st.text(min_size=1, max_size=16),
        "meta": st.dictionaries(
            st.text(max_size=6), st.integers() | st.text(max_size=6), max_size=3
        ),
        "result": st.fixed_dictionaries(
            {"score": team_scores}, optional={"winner": st.none() | st.sampled_from(["NS", "EW"])}
        ),
    },
)
"""Match-log documents (JSON-ready dicts) that validate; deals are shapes, not legal play."""


RULE_VARIANTS: Final[dict[str, Rules]] = {name: Rules.preset(name) for name in PRESET_NAMES}
RULE_VARIANTS.update(
    {
        "pagat-variants": Rules.preset("pagat").with_options(
            seventh_card="pagat",
            no_trump=True,
            reverse=True,
            double=True,
            redouble=True,
            set=True,
            single_hand=True,
            under_half=True,
        ),
        "single-round": Rules.preset("standard").with_options(
            bidding="single_round", all_pass="throw_in", zero_point_throw_in="on_request"
        ),
        "automatic-must-trump": Rules.preset("beginner").with_options(
            must_trump_after_show=True, must_overtrump_after_show=True, pair="after_side_wins"
        ),
        "own-card-seventh": Rules.preset("classic29").with_options(
            seventh_card="on", seventh_card_no_scoring_trump_throw_in=True, end_when_decided=True
        ),
    }
)
"""Every preset, and rule sets that switch on the options no preset has together."""
