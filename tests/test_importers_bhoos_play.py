"""A Bhoos bot's payload log: one seat's view, merged from consecutive requests."""

import io
import json
from pathlib import Path
from typing import Any

import pytest

from twentynine.importers.bhoos_archive import read_stream as read_archive
from twentynine.importers.bhoos_play import read_stream
from twentynine.importers.canonical import Record
from twentynine.schema.cards import Seat
from twentynine.schema.log import MatchLog, PlayerRef

FORMATS = Path(__file__).resolve().parents[1] / "sample_logs" / "formats"


def payloads() -> list[dict[str, Any]]:
    lines = (FORMATS / "bhoos_play.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def read(lines: list[Any], name: str = "bot.log") -> list[Record]:
    data = b"".join(
        (line if isinstance(line, bytes) else json.dumps(line).encode()) + b"\n" for line in lines
    )
    return list(read_stream(io.BytesIO(data), name))


def archive_game(index: int) -> MatchLog:
    with (FORMATS / "bhoos_archive.json").open("rb") as stream:
        records = list(read_archive(stream, "a.json"))
    match = records[index].match
    assert match is not None
    return match


def only(records: list[Record]) -> MatchLog:
    [record] = records
    assert record.ok and record.match is not None, [str(p) for p in record.problems]
    return record.match


def test_the_sample_log_holds_two_games_seen_by_one_seat_each() -> None:
    records = read(payloads())
    assert [(r.line, r.ok) for r in records] == [(1, True), (12, True)]
    first, second = (r.match for r in records)
    assert first is not None and second is not None
    assert first.meta is not None and first.meta["seat"] == "S"
    assert first.meta["lines"] == [1, 11] and first.meta["payloads"] == 11
    assert second.meta is not None and second.meta["seat"] == "W"


def test_only_the_seats_own_hand_is_known_in_the_order_dealt() -> None:
    match = only(read(payloads()[:11]))
    hands = match.deals[0].hands
    full = archive_game(0).deals[0].hands
    assert hands is not None and full is not None
    assert hands[Seat.S] == full[Seat.S]
    assert all(hands[seat] == [None] * 8 for seat in (Seat.N, Seat.E, Seat.W))


def test_auction_trump_show_and_plays_are_what_the_seat_saw() -> None:
    seen = only(read(payloads()[:11])).deals[0].actions
    full = archive_game(0).deals[0].actions
    # The seat saw everything up to its own last turn: the whole deal but the last 3 cards.
    assert seen == full[: len(full) - 3]
    show = next(a for a in seen if a.type == "show")
    assert (show.seat, show.suit) == (Seat.S, "D")


def test_the_trump_stays_unknown_until_shown() -> None:
    match = only(read(payloads()[11:]))
    trump = next(a for a in match.deals[0].actions if a.type == "trump")
    assert (trump.seat, trump.suit, "suit" in trump.model_fields_set) == (Seat.E, None, True)
    assert not any(a.type == "show" for a in match.deals[0].actions)
    hands = match.deals[0].hands
    assert hands is not None
    assert [c.text for c in hands[Seat.W][:4] if c] == payloads()[11]["cards"]


def test_a_log_of_play_requests_only_or_starting_late_still_knows_the_hand() -> None:
    plays_only = [p for p in payloads()[:11] if "played" in p]
    late = plays_only[4:]
    for lines in (plays_only, late):
        hands = only(read(lines)).deals[0].hands
        assert hands is not None
        assert sorted(c.text for c in hands[Seat.S] if c) == sorted(
            c.replace("1", "A") for c in ["JH", "9C", "1S", "QS", "1C", "KS", "TC", "8C"]
        )


def test_a_bad_line_is_reported_and_the_game_goes_on_without_it() -> None:
    lines: list[Any] = payloads()[:11]
    lines.insert(5, b'{"playerId": oops')
    records = read(lines)
    assert [(r.line, r.ok) for r in records] == [(6, False), (1, True)]
    assert str(records[0].problems[0]).startswith("bot.log:6: invalid JSON")
    assert only(records[1:]).deals[0].actions == only(read(payloads()[:11])).deals[0].actions


def test_a_request_that_does_not_continue_the_game_starts_a_new_one() -> None:
    game = payloads()[:11]
    records = read(game + game)
    assert [r.line for r in records] == [1, 12]
    assert records[0].match is not None and records[1].match is not None
    assert records[0].match.id == records[1].match.id  # the same game, seen twice


def test_interleaved_requests_of_two_seats_make_two_games() -> None:
    south, west = payloads()[:11], payloads()[11:]
    mixed = [line for pair in zip(south, west, strict=False) for line in pair] + south[9:]
    records = read(mixed)
    assert [r.line for r in records] == [1, 2]
    separate = [only(read(south)), only(read(west))]
    assert [r.match.deals if r.match else None for r in records] == [m.deals for m in separate]


def test_a_game_left_without_requests_is_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("twentynine.importers.bhoos_play.STALE_LINES", 3)
    south, west = payloads()[:11], payloads()[11:]
    records = read(south[:2] + west + south[2:])
    # South's game went stale while West played: its two bidding requests are a game alone.
    assert [r.line for r in records] == [1, 3, 12]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda p: p.pop("bidHistory"), "bidHistory: missing required field"),
        (lambda p: p.__setitem__("playerId", "nobody"), "playerId: 'nobody' is not one of"),
        (lambda p: p.__setitem__("trumpSuit", "Q"), "trumpSuit: 'Q' is not a suit"),
        (lambda p: p.__setitem__("trumpRevealed", {"hand": 0}), "trumpRevealed.hand: 0 is not"),
        (lambda p: p.__setitem__("played", ["7H"] * 4), "played: at most 3 cards"),
        (
            lambda p: p["handsHistory"][0][1].__setitem__(0, "ZZ"),
            "handsHistory[0][1][0]: 'ZZ' is not",
        ),
        (lambda p: p.__setitem__("cards", "JS"), "cards: must be a list of cards"),
    ],
)
def test_each_problem_names_the_line_and_the_field(change: Any, expected: str) -> None:
    lines = payloads()[:11]
    change(lines[6])
    records = read(lines)
    problems = [str(p) for r in records if not r.ok for p in r.problems]
    assert any(p.startswith(f"bot.log:7: {expected}") for p in problems), problems


def test_a_show_in_a_trick_never_seen_is_a_problem() -> None:
    lines = payloads()[:7]  # the last request is South's lead to trick 5
    lines[-1]["trumpRevealed"] = {"hand": 8, "playerId": lines[-1]["playerIds"][0]}
    [record] = read(lines)
    assert [str(p) for p in record.problems] == [
        "bot.log:1: trumpRevealed.hand: names trick 8, which was not seen"
    ]


def test_the_sample_audits_without_errors() -> None:
    audit = pytest.importorskip("twentynine.replay.audit")
    for record in read(payloads()):
        assert record.match is not None
        errors = [
            f.message for f in audit.audit_match(record.match).findings if f.severity == "error"
        ]
        assert errors == []


# Servers that seat the first speaker at index 0 (issue 23 §6): the starter kit's /play
# example and the practice sandbox. tests/fixtures/bhoos_sandbox.jsonl holds one seat's
# requests in a sandbox game (made by tests/bhoos_payloads.py from game 3 of the sample
# archive, playerIds written with the first speaker at index 0); bhoos_starter_play.jsonl
# the /play example of the starter kit's Python bot, as JSON.

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def fixture_lines(name: str) -> list[dict[str, Any]]:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def errors(match: MatchLog) -> list[str]:
    from twentynine.replay.audit import audit_match

    found = audit_match(match).findings
    return [f"{f.code} {f.message}" for f in found if f.severity == "error"]


def player_ids(match: MatchLog) -> dict[Seat, str | None]:
    return {seat: ref.id for seat, ref in match.players.items() if isinstance(ref, PlayerRef)}


def by_player(match: MatchLog) -> list[tuple[str | None, str, Any]]:
    """The actions with each seat written as its player's id (seats differ between orders)."""
    ids = player_ids(match)
    out: list[tuple[str | None, str, Any]] = []
    for action in match.deals[0].actions:
        fields = action.model_dump(mode="json", exclude={"seat", "type"}, exclude_none=True)
        out.append((ids[action.seat], action.type, fields.get("card") or fields.get("value")))
    return out


def test_the_starter_kits_play_example_imports_without_a_false_finding() -> None:
    match = only(read(fixture_lines("bhoos_starter_play.jsonl")))
    assert errors(match) == []  # was 7 OUT_OF_TURN
    deal = match.deals[0]
    assert player_ids(match)[deal.dealer] == "B2"  # the seat before A1, who bids and leads first
    assert by_player(match)[:2] == [("A1", "bid", 16), ("B1", "bid", 17)]
    assert match.meta is not None
    assert match.meta["first_speaker"] == {"index": 0, "shown_by": "bidHistory"}
    assert deal.hands is not None
    hand = [c.text for c in deal.hands[match.meta["seat"]] if c]
    assert sorted(hand) == sorted(["JS", "TS", "KH", "9C", "JD", "7D", "8D", "8H"])


def test_sandbox_bids_are_read_in_the_sandboxs_order() -> None:
    bids = [p for p in fixture_lines("bhoos_sandbox.jsonl") if "bidState" in p]
    match = only(read(bids))
    assert errors(match) == []  # was OUT_OF_TURN for the first speaker
    assert match.meta is not None and match.meta["first_speaker"]["index"] == 0


def test_a_sandbox_play_request_in_the_first_trick_is_read() -> None:
    # The seat plays fourth in the first trick: the three cards before it are the others'.
    [request] = [p for p in fixture_lines("bhoos_sandbox.jsonl") if p.get("played")][:1]
    assert len(request["played"]) == 3 and not request["handsHistory"]
    match = only(read([request]))  # was refused: "the seat's cards add up to 9"
    assert errors(match) == []
    assert match.meta is not None
    assert match.meta["first_speaker"] == {"index": 0, "shown_by": "bidHistory"}
    # With no bid to show it, the cards played before the seat's turn show it.
    bare = only(read([{**request, "bidHistory": []}]))
    assert bare.meta is not None
    assert bare.meta["first_speaker"] == {"index": 0, "shown_by": "played"}
    hands = match.deals[0].hands
    assert hands is not None and sorted(c.text for c in hands[Seat.W] if c) == sorted(
        c.replace("1", "A") for c in request["cards"]
    )


def test_a_whole_sandbox_game_is_the_seats_view_of_the_recorded_game() -> None:
    match = only(read(fixture_lines("bhoos_sandbox.jsonl")))
    assert errors(match) == []
    full = by_player(archive_game(2))
    seen = by_player(match)
    # everything up to the seat's last card, which it was asked for
    assert seen == full[: len(seen)]
    assert full[len(seen)][:2] == ("PAHEBTW5", "play")
    assert not any(who == "PAHEBTW5" for who, _, _ in full[len(seen) + 1 :])


@pytest.mark.parametrize("first_index", [0, 1])
def test_every_seat_of_every_sample_game_in_either_order_reads_without_error(
    first_index: int,
) -> None:
    from tests.bhoos_payloads import requests

    with (FORMATS / "bhoos_archive.json").open("rb") as stream:
        games = json.load(stream)["games"]
    for number, game in enumerate(games):
        full = by_player(archive_game(number))
        for player in game["playerIds"]:
            match = only(read(requests(game, player, first_index)))
            seen = by_player(match)
            assert errors(match) == [], (number, player)
            assert seen == full[: len(seen)], (number, player)


def test_requests_logged_out_of_order_are_one_match_not_a_duplicate(tmp_path: Path) -> None:
    from twentynine.importers.formats import import_paths

    lines = fixture_lines("bhoos_sandbox.jsonl")
    in_order = only(read(lines))
    for i, j in ((0, 1), (5, 6), (4, 9), (1, 3)):
        shuffled = list(lines)
        shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
        assert only(read(shuffled)).deals == in_order.deals, (i, j)
    log = tmp_path / "bot.log"
    log.write_text("\n".join(json.dumps(p) for p in [lines[0], *lines[2:6], lines[1], *lines[6:]]))
    summary = import_paths([log], None, tmp_path / "out.jsonl")
    assert (summary.found, summary.imported, summary.duplicates) == (1, 1, 0)


def test_the_order_assumed_is_said_and_first_seat_sets_it(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from twentynine.cli import app

    # A request with nothing in it that shows who speaks first (no bid, no trick).
    bare = {"playerId": "a", "playerIds": ["a", "b", "c", "d"], "cards": ["JS", "9S", "1S", "TS"]}
    [record] = read([{**bare, "bidHistory": []}])
    assert record.match is not None and record.match.deals[0].dealer == Seat.N
    assert [str(n) for n in record.notes] == [
        "bot.log:1: nothing in this game shows who speaks first: assumed playerIds[1], the "
        "competition archive's order (--first-seat sets it)"
    ]
    log = tmp_path / "bot.log"
    log.write_text(json.dumps({**bare, "bidHistory": []}) + "\n")
    said = CliRunner().invoke(app, ["import", str(log), "-o", str(tmp_path / "a.jsonl")])
    assert said.exit_code == 0 and "warning: " in said.stderr and "assumed" in said.stderr
    chosen = CliRunner().invoke(
        app, ["import", str(log), "-o", str(tmp_path / "b.jsonl"), "--first-seat", "0"]
    )
    assert chosen.exit_code == 0 and "warning" not in chosen.stderr
    [match] = [json.loads(line) for line in (tmp_path / "b.jsonl").read_text().splitlines()]
    assert match["deals"][0]["dealer"] == "W"
    assert match["meta"]["first_speaker"] == {"index": 0, "shown_by": "--first-seat"}
    # What a payload shows wins over the option.
    shown = list(read_stream(io.BytesIO((FIXTURES / "bhoos_sandbox.jsonl").read_bytes()), "s", 1))
    assert [r.match.deals[0].dealer for r in shown if r.match] == [Seat.W]
    refused = CliRunner().invoke(app, ["import", str(log), "-o", "-", "--first-seat", "4"])
    assert refused.exit_code == 2
