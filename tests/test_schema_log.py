"""The match-log models and the checked-in JSON Schema agree with LOG-FORMAT.md."""

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from pydantic import ValidationError

from tests.strategies import match_documents
from twentynine.schema.cards import Card, Seat, Suit
from twentynine.schema.log import MatchLog, PlayAction, TrumpAction, match_json_schema

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SCHEMA_FILE = ROOT / "schema" / "match.schema.json"


def test_checked_in_schema_is_current() -> None:
    on_disk = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert on_disk == match_json_schema(), (
        "schema/match.schema.json is stale: python -m schema > schema/match.schema.json"
    )


def test_log_format_example_validates_against_schema_and_models() -> None:
    document = json.loads((FIXTURES / "log_format_example.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(match_json_schema()).validate(document)
    match = MatchLog.model_validate(document)
    assert match.match_id == "club-2026-11-29-t3"
    assert match.resolved_rules().set_ is True
    first = match.deals[0]
    assert first.hands is not None and first.hands[Seat.W][0] is Card.parse("JH")
    trump = first.actions[6]
    assert isinstance(trump, TrumpAction) and trump.suit is Suit.HEARTS
    play = first.actions[7]
    assert isinstance(play, PlayAction) and play.note == "probing spades"


@settings(max_examples=150, deadline=None)
@given(match_documents)
def test_generated_log_survives_dump_and_load_unchanged(document: dict[str, Any]) -> None:
    match = MatchLog.model_validate(document)
    assert match.to_canonical() == document
    again = MatchLog.model_validate_json(match.canonical_json())
    assert again == match
    assert again.content_hash() == match.content_hash()


@settings(max_examples=60, deadline=None)
@given(match_documents)
def test_json_schema_accepts_what_the_models_accept(document: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(match_json_schema()).validate(document)


def test_models_are_frozen_and_closed() -> None:
    document = json.loads((FIXTURES / "log_format_example.json").read_text(encoding="utf-8"))
    match = MatchLog.model_validate(document)
    with pytest.raises(ValidationError):
        match.id = "other"  # type: ignore[misc]
    document["deals"][0]["actions"][0]["colour"] = "red"
    with pytest.raises(ValidationError, match="colour"):
        MatchLog.model_validate(document)


def test_meta_is_free_and_id_falls_back_to_a_content_hash() -> None:
    document = json.loads((FIXTURES / "log_format_example.json").read_text(encoding="utf-8"))
    del document["id"]
    document["meta"] = {"site": "club", "nested": {"anything": [1, 2]}}
    match = MatchLog.model_validate(document)
    assert len(match.match_id) == 16
    assert match.match_id == match.content_hash()
    document["meta"]["site"] = "other club"
    assert MatchLog.model_validate(document).match_id != match.match_id
