"""The text notation: reading, writing, a lossless round trip, and errors by line."""

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.strategies import match_documents
from twentynine.importers.bhoos_archive import read_stream as read_archive
from twentynine.importers.canonical import dump_match
from twentynine.importers.text import format_match, parse_text, read_stream, write_text
from twentynine.schema.cards import Seat
from twentynine.schema.log import MatchLog

FORMATS = Path(__file__).resolve().parents[1] / "sample_logs" / "formats"

HEADER = """[Rules "bhoos"]
[North "Asha"]
[East "Bikash"]
[South "Chandra"]
[West "Deepa" id="d-4"]
"""


def read_one(text: str) -> MatchLog:
    [record] = parse_text(text, "t.29")
    assert record.ok and record.match is not None, [str(p) for p in record.problems]
    return record.match


def problems(text: str) -> list[str]:
    return [str(p) for r in parse_text(text, "t.29") for p in r.problems]


def test_the_sample_reads_with_notes_unknown_cards_and_a_hidden_trump() -> None:
    with (FORMATS / "sample.29").open("rb") as stream:
        records = list(read_stream(stream, "sample.29"))
    assert [(r.line, r.ok) for r in records] == [(5, True), (32, True)]
    first, second = (r.match for r in records)
    assert first is not None and second is not None
    assert first.id == "sample-bhoos-1" and first.meta == {
        "table": "practice 3",
        "recorder": "by hand",
    }
    notes = [(a.type, a.note) for a in first.deals[0].actions if a.note]
    assert notes == [
        ("ditto", "East matches South's 17"),
        ("show", "North has no club and asks"),
    ]
    hands = second.deals[0].hands
    assert hands is not None and list(hands) == [Seat.W]
    trump = next(a for a in second.deals[0].actions if a.type == "trump")
    assert trump.suit is None and "suit" in trump.model_fields_set
    assert sum(a.type == "play" for a in second.deals[0].actions) == 31


def test_the_sample_tells_the_same_deal_as_the_archive_game() -> None:
    with (FORMATS / "bhoos_archive.json").open("rb") as stream:
        game = list(read_archive(stream, "a.json"))[4].match
    with (FORMATS / "sample.29").open("rb") as stream:
        told = next(read_stream(stream, "sample.29")).match
    assert game is not None and told is not None
    strip = [a.model_copy(update={"note": None}) for a in told.deals[0].actions]
    assert strip == list(game.deals[0].actions)
    assert told.deals[0].hands == game.deals[0].hands


def test_writing_a_small_match_gives_this_text() -> None:
    match = read_one(
        HEADER + '[Deal]\n[Dealer N]\nE 16 S pass W pass N pass E trump=H @5 {a "good" hand}\n'
        "E JS S 7S W 8S N 9S E show=? {asks\\}}\n[Points NS=0 EW=6]\n"
    )
    assert format_match(match) == (
        "[Match]\n"
        '[Rules "bhoos"]\n'
        '[North "Asha"]\n'
        '[East "Bikash"]\n'
        '[South "Chandra"]\n'
        '[West "Deepa" id="d-4"]\n'
        "\n"
        "[Deal 1]\n"
        '[Dealer "N"]\n'
        "E 16  S pass  W pass  N pass\n"
        'E trump=H @5 {a "good" hand}\n'
        "1. E JS  S 7S  W 8S  N 9S  E show=? {asks\\}}\n"
        "[Points NS=0 EW=6]\n"
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(match_documents)
def test_canonical_to_text_to_canonical_loses_nothing(document: dict[str, Any]) -> None:
    match = MatchLog.model_validate(document)
    text = format_match(match)
    [record] = parse_text(text, "rt.29")
    assert record.match is not None, [str(p) for p in record.problems]
    assert record.match.to_canonical() == match.to_canonical()
    assert dump_match(record.match) == dump_match(match)


nasty_text = st.text(
    alphabet=st.sampled_from(
        ["}", "{", "\\", "\n", "\r", '"', ";", " ", "]", "[", "=", "?", "a", "é", "\u2028"]
    ),
    max_size=12,
)


@settings(max_examples=100, deadline=None)
@given(name=nasty_text, note=nasty_text, meta_key=nasty_text, player_id=nasty_text)
def test_awkward_characters_survive_the_round_trip(
    name: str, note: str, meta_key: str, player_id: str
) -> None:
    match = MatchLog.model_validate(
        {
            "format": "twentynine.match",
            "version": 1,
            "id": name or "x",
            "rules": {"preset": "bangladesh", "set": True, "min_bid": 17},
            "players": {"N": name or "n", "E": {"name": name, "id": player_id}, "S": "s", "W": "w"},
            "meta": {meta_key: [note, {"deep": [1, 2.5, None, True]}]},
            "deals": [
                {
                    "dealer": "W",
                    "actions": [
                        {"seat": "N", "type": "bid", "value": 16, "note": note, "t": 0},
                        {"seat": "E", "type": "trump", "suit": None, "seventh": True, "note": note},
                    ],
                    "result": {"thrown_in": None},
                }
            ],
        }
    )
    assert read_one(format_match(match)).to_canonical() == match.to_canonical()


def test_several_matches_are_written_and_read_back() -> None:
    with (FORMATS / "bhoos_archive.json").open("rb") as stream:
        games = [r.match for r in read_archive(stream, "a.json") if r.match is not None]
    buffer = io.BytesIO()
    assert write_text(games, buffer) == 8
    buffer.seek(0)
    again = [r.match for r in read_stream(buffer, "all.29")]
    assert [m.to_canonical() if m else None for m in again] == [g.to_canonical() for g in games]


def test_cards_may_be_typed_loosely() -> None:
    match = read_one(
        HEADER + "[Deal]\n[Dealer N]\n[Hands]\nN: 10h a♦ js 9♣  ? ? ? ?\nE 10S  S play=kd\n"
    )
    hands = match.deals[0].hands
    assert hands is not None
    assert [c.text if c else None for c in hands[Seat.N]] == [
        "TH",
        "AD",
        "JS",
        "9C",
        None,
        None,
        None,
        None,
    ]
    assert [a.card.text for a in match.deals[0].actions if a.type == "play"] == ["TS", "KD"]


def test_a_bad_match_is_skipped_and_the_next_one_read() -> None:
    text = "[Match 'a']\n" + HEADER + '[Match "b"]\n' + HEADER
    records = parse_text(text, "t.29")
    assert [(r.line, r.ok) for r in records] == [(1, False), (7, True)]
    assert str(records[0].problems[0]).startswith("t.29:1: \"'a'\" is not a value")


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('[Event "club"]\n', "t.29:6: unknown tag [Event]; free information goes in [Meta]"),
        ("N 16\n", "t.29:6: hands and actions belong in a deal: start it with [Deal]"),
        (
            "[Deal]\n[Dealer N]\n[Hands]\nN: JS 9S\n",
            "t.29:9: N's hand lists 2 cards, not 8 (? if unseen)",
        ),
        ("[Deal]\n[Dealer N]\n[Hands]\nN: JS 9S AS TS KS QS 8S XS\n", "t.29:9: 'XS' is not a card"),
        (
            "[Deal]\n[Dealer N]\nE 16\nS shout\n",
            "t.29:9: 'shout' is not a bid, a card or an action",
        ),
        ("[Deal]\n[Dealer N]\nE 16 {open\n", "t.29:8: a {note} is not closed with } on its line"),
        (
            "[Deal]\n[Dealer N]\nE 16\nS\n",
            "t.29:9: S does nothing: give a bid, a card or an action",
        ),
        ("[Deal]\nE 16\n", "t.29:6: no [Dealer] in this deal"),
        ("[Deal]\n[Dealer N]\nE trump=Q\n", "t.29:8: 'Q' is not a suit (S, H, D, C or ?)"),
        ("[Deal]\n[Dealer N]\nE 16 mode=x\n", "t.29:8: unexpected 'mode=x' after a bid"),
        ("[Deal]\n[Dealer X]\n", "t.29:7: deals[0].dealer: Input should be 'N', 'E', 'S' or 'W'"),
        ("[Deal]\n[Dealer N]\nE trump mode=sideways\n", "t.29:8: deals[0].actions[0].mode:"),
        ("[Deal]\n[Dealer N]\n[Points NS=1]\n", "t.29:8: [Points] needs both NS=... and EW=..."),
        ("[Result NS=1 EW=0 winner=XX]\n", "t.29:6: result.winner:"),
        ("[Meta " + "[" * 70 + "1" + "]" * 71 + "\n", "t.29:6: a value is nested deeper than 64"),
        ('[Meta {"a": NaN}]\n', "t.29:6: '{\"a\": NaN}' is not a valid value"),
        ('[North "again"]\n', "t.29:6: [North] is given twice"),
    ],
)
def test_errors_name_the_file_the_line_and_the_reason(body: str, expected: str) -> None:
    found = problems(HEADER + body)
    assert any(p.startswith(expected) for p in found), found


def test_a_rules_error_points_at_the_rules_line() -> None:
    found = problems('[North "a"]\n[East "b"]\n[Rules "hearts"]\n[South "c"]\n[West "d"]\n')
    assert found == [
        "t.29:3: rules: unknown preset 'hearts' "
        "(known: bangladesh, standard, beginner, pagat, classic29, bhoos)"
    ]


def test_missing_rules_and_players_are_named() -> None:
    assert problems('[North "a"]\n') == [
        "t.29:1: no [Rules] tag in this match",
        't.29:1: no player for East, South, West: add [East "name"]',
    ]


def test_invalid_utf8_and_empty_input() -> None:
    records = list(read_stream(io.BytesIO(HEADER.encode() + b'[Meta "\xff"]\n'), "u.29"))
    assert [str(p) for r in records for p in r.problems] == ["u.29:6: invalid UTF-8 at byte 7"]
    [empty] = list(read_stream(io.BytesIO(b"; nothing here\n\n"), "e.29"))
    assert empty.problems[0].reason == "empty input"
