"""The rules engine and the auditor: deal and match state, findings, step views, random games.

>>> from twentynine.schema import Rules
>>> log = random_match(Rules.preset("classic29"), seed=5)
>>> audited = audit_match(log)
>>> audited.errors, audited.winner == log.result.winner
(0, True)
"""

from twentynine.replay._engine import engine_build
from twentynine.replay.audit import (
    AuditedMatch,
    DealFacts,
    PairFacts,
    ShowFacts,
    TrickFacts,
    TrickList,
    audit_match,
    normalize_reason,
    replay_deal,
)
from twentynine.replay.deal import THROWN_IN_REASONS, DealOutcome, DealState, DealView
from twentynine.replay.findings import CATALOGUE, CODES, AuditError, Finding
from twentynine.replay.match import MatchState
from twentynine.replay.simulate import play_random, random_deal, random_match, rules_spec
from twentynine.replay.steps import StepView, deal_steps, describe, walk_deal
from twentynine.replay.summary import AuditSummary, FindingRow

__all__ = [
    "CATALOGUE",
    "CODES",
    "THROWN_IN_REASONS",
    "AuditError",
    "AuditSummary",
    "AuditedMatch",
    "DealFacts",
    "DealOutcome",
    "DealState",
    "DealView",
    "Finding",
    "FindingRow",
    "MatchState",
    "PairFacts",
    "ShowFacts",
    "StepView",
    "TrickFacts",
    "TrickList",
    "audit_match",
    "deal_steps",
    "describe",
    "engine_build",
    "normalize_reason",
    "play_random",
    "random_deal",
    "random_match",
    "replay_deal",
    "rules_spec",
    "walk_deal",
]
