"""Annotation explanations write cards and suits as a player reads them (``10♦``, ``♥ hearts``),
while ``chosen`` and ``best`` keep the log notation that queries match."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from twentynine.analysis.annotate import choice_words
from twentynine.analysis.fair import fair_deal
from twentynine.analysis.hindsight import action_text, hindsight_deal
from twentynine.analysis.positions import deal_positions
from twentynine.replay import random_match
from twentynine.schema import Rules
from twentynine.schema.cards import ALL_CARDS, Card, Suit, cards_as_read

# A card in the log notation (TD), or a trump choice as the record stores it (trump H)
LOG_NOTATION = re.compile(r"\b[J9ATKQ87][SHDC]\b|\btrump [SHDC]\b")
PRESETS = ("bangladesh", "bhoos", "pagat", "classic29", "standard", "beginner")


def test_every_card_has_one_form_a_player_reads() -> None:
    shown = {card.display for card in ALL_CARDS}
    assert len(shown) == 32
    for card in ALL_CARDS:
        rank = "10" if card.text[0] == "T" else card.text[0]
        assert card.display == rank + card.suit.symbol
        assert cards_as_read(f"W played {card.text}.") == f"W played {card.display}."
    assert Card.parse("TD").display == "10♦" and Suit.SPADES.display == "♠ spades"


def test_cards_as_read_leaves_other_words_alone() -> None:
    text = "OUT_OF_TURN: NS 7 EW 21, JSON, TS2, KC's"
    assert cards_as_read(text) == "OUT_OF_TURN: NS 7 EW 21, JSON, TS2, K♣'s"


@pytest.mark.parametrize("preset", PRESETS)
def test_every_trump_choice_reads_without_the_log_notation(preset: str) -> None:
    rules = Rules.preset(preset)
    seen = 0
    for seed in range(3):
        log = random_match(rules, seed=seed)
        for number, deal in enumerate(log.deals[:4], start=1):
            for pos in deal_positions(log.resolved_rules(), deal, number):
                if pos.action.type != "trump":
                    continue
                for choice in pos.state.legal_actions(pos.action.seat):
                    if choice.type == "trump":
                        words = choice_words(action_text(choice))
                        assert not LOG_NOTATION.search(words), words
                        seen += 1
    assert seen > 0


@pytest.mark.parametrize("preset", ["pagat", "bhoos", "bangladesh"])
def test_card_explanations_name_the_card_as_a_player_reads_it(preset: str) -> None:
    log = random_match(Rules.preset(preset), seed=1)
    notes = [
        note
        for number, deal in enumerate(log.deals[:4], start=1)
        for note in hindsight_deal(
            log.match_id, log.resolved_rules(), deal, number, kinds={"card"}, from_trick=7
        )
    ]
    assert notes
    for note in notes:
        assert Card.parse(note.chosen).display in note.explanation  # the stored text stays JH
        assert Card.parse(note.best).display in note.explanation
        assert not LOG_NOTATION.search(note.explanation), note.explanation


@pytest.mark.parametrize("preset", ["classic29", "bangladesh"])
def test_par_and_trump_explanations_name_the_suits(preset: str) -> None:
    log = random_match(Rules.preset(preset), seed=1)
    rules, deal = log.resolved_rules(), log.deals[0]
    notes = hindsight_deal(log.match_id, rules, deal, 1, kinds={"par"})
    notes += fair_deal(log.match_id, rules, deal, 1, kinds={"trump"}, samples=1)
    assert {note.kind for note in notes} == {"par", "trump"}
    for note in notes:
        assert note.chosen.startswith("trump ")  # the stored choice: trump H, trump S (9S)
        assert choice_words(note.chosen) in note.explanation
        assert not LOG_NOTATION.search(note.explanation), note.explanation


def test_analyze_writes_its_json_lines_in_utf8_whatever_the_locale() -> None:
    root = Path(__file__).resolve().parent.parent
    command = ["analyze", "sample_logs/bad/revoke.json", "--only", "cards", "--samples", "2"]
    run = subprocess.run(
        [sys.executable, "-m", "twentynine", *command],
        cwd=root,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
        capture_output=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr.decode(errors="replace")
    lines = [json.loads(line) for line in run.stdout.decode("utf-8").splitlines()]
    cards = [line for line in lines if line["kind"] == "card"]
    assert cards
    assert all(Card.parse(line["chosen"]).display in line["explanation"] for line in cards)
