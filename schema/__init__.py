"""The vocabulary and the contract: cards, seats, rules and the match-log models.

>>> from twentynine.schema import Card, Rules
>>> Card.parse("JS").points, Rules.preset("bangladesh").bidding
(3, 'duel')
"""

import importlib
from typing import TYPE_CHECKING, Final

from twentynine.schema.cards import (
    ALL_CARDS,
    RANKS,
    SEATS,
    SUITS,
    TOTAL_CARD_POINTS,
    Card,
    Direction,
    Rank,
    Seat,
    Suit,
    Team,
)
from twentynine.schema.rules import (
    PRESET_NAMES,
    PRESETS,
    Rules,
    RulesError,
    resolve_rules,
    rules_diff,
)
from twentynine.schema.shapes import (
    ActionLike,
    BidLike,
    DealLike,
    DealResultLike,
    MatchLike,
    MatchResultLike,
    PlainActionLike,
    PlayerRefLike,
    PlayLike,
    ShowLike,
    TeamScoresLike,
    TrumpLike,
)

if TYPE_CHECKING:  # at run time, on first use (__getattr__): `twentynine rules` never needs them
    from twentynine.schema.log import (
        ACTION_TYPES,
        Action,
        BidAction,
        Deal,
        DealResult,
        DittoAction,
        DoubleAction,
        MatchLog,
        MatchResult,
        PairAction,
        PassAction,
        PlayAction,
        PlayerRef,
        RedealAction,
        RedoubleAction,
        SetAction,
        ShowAction,
        SingleHandAction,
        TeamScores,
        TrumpAction,
        match_json_schema,
        player_name,
    )

__all__ = [
    "ACTION_TYPES",
    "ALL_CARDS",
    "PRESETS",
    "PRESET_NAMES",
    "RANKS",
    "SEATS",
    "SUITS",
    "TOTAL_CARD_POINTS",
    "Action",
    "ActionLike",
    "BidAction",
    "BidLike",
    "Card",
    "Deal",
    "DealLike",
    "DealResult",
    "DealResultLike",
    "Direction",
    "DittoAction",
    "DoubleAction",
    "MatchLike",
    "MatchLog",
    "MatchResult",
    "MatchResultLike",
    "PairAction",
    "PassAction",
    "PlainActionLike",
    "PlayAction",
    "PlayLike",
    "PlayerRef",
    "PlayerRefLike",
    "Rank",
    "RedealAction",
    "RedoubleAction",
    "Rules",
    "RulesError",
    "Seat",
    "SetAction",
    "ShowAction",
    "ShowLike",
    "SingleHandAction",
    "Suit",
    "Team",
    "TeamScores",
    "TeamScoresLike",
    "TrumpAction",
    "TrumpLike",
    "match_json_schema",
    "player_name",
    "resolve_rules",
    "rules_diff",
]

_LAZY: Final = dict.fromkeys(
    (
        "ACTION_TYPES",
        "Action",
        "BidAction",
        "Deal",
        "DealResult",
        "DittoAction",
        "DoubleAction",
        "MatchLog",
        "MatchResult",
        "PairAction",
        "PassAction",
        "PlayAction",
        "PlayerRef",
        "RedealAction",
        "RedoubleAction",
        "SetAction",
        "ShowAction",
        "SingleHandAction",
        "TeamScores",
        "TrumpAction",
        "match_json_schema",
        "player_name",
    ),
    "twentynine.schema.log",
)
"""What the package exports from modules it imports only when asked: the pydantic match-log
models cost a third of the CLI's start-up, and most commands never read a log."""

if not TYPE_CHECKING:  # mypy sees the imports above, and no catch-all attribute

    def __getattr__(name: str) -> object:
        module = _LAZY.get(name)
        if module is None:
            raise AttributeError(f"module 'twentynine.schema' has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        globals()[name] = value  # asked once
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), *_LAZY})
