"""The Bhoos game archive: seats, cards, the Ditto reading, the show's place and the result."""

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest

from twentynine.importers.bhoos_archive import read_stream
from twentynine.importers.canonical import Record, dump_match
from twentynine.replay import THROWN_IN_REASONS, audit_match
from twentynine.schema.cards import Seat
from twentynine.schema.log import MatchLog, PlayerRef, ShowAction, TrumpAction

SAMPLE = Path(__file__).resolve().parents[1] / "sample_logs" / "formats" / "bhoos_archive.json"


def archive() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(SAMPLE.read_text(encoding="utf-8"))
    return document


def read(document: object, name: str = "a.json") -> list[Record]:
    return list(read_stream(io.BytesIO(json.dumps(document).encode()), name))


def matches() -> list[MatchLog]:
    records = read(archive())
    assert all(r.ok for r in records), [str(p) for r in records for p in r.problems]
    return [r.match for r in records if r.match is not None]


def types(match: MatchLog) -> list[str]:
    return [a.type for a in match.deals[0].actions]


def test_every_game_becomes_a_one_deal_bhoos_match_with_a_stable_id() -> None:
    found = matches()
    assert [m.id for m in found] == [f"bhoos-4242-{i}" for i in range(8)]
    assert {m.rules for m in found} == {"bhoos"}
    assert all(len(m.deals) == 1 and m.deals[0].dealer is Seat.N for m in found)
    first = found[0]
    assert first.meta == {
        "importer": "bhoos-archive",
        "archive": {k: v for k, v in archive().items() if k != "games"},
        "game": 0,
        "result": "W",
    }


def test_seats_follow_play_order_clockwise_from_the_dealer() -> None:
    game = archive()["games"][0]
    match = matches()[0]
    ids = game["playerIds"]
    assert match.players == {
        seat: PlayerRef(name=i, id=i) for seat, i in zip("NESW", ids, strict=True)
    }
    # Index 1 bids first and leads: East.
    assert match.deals[0].actions[0].seat is Seat.E
    first_play = next(a for a in match.deals[0].actions if a.type == "play")
    assert first_play.seat is Seat.E


def test_cards_are_converted_and_rank_1_is_the_ace() -> None:
    game = archive()["games"][4]
    hands = matches()[4].deals[0].hands
    assert hands is not None
    assert game["cards"][0][1] == "1H"
    assert [c.text if c else None for c in hands[Seat.N]] == [
        c.replace("1", "A") for c in game["cards"][0]
    ]


def test_a_defender_matching_the_bid_is_a_ditto_and_keeps_the_call() -> None:
    match = matches()[0]  # E 16, S 17, E 17, S 0, W 0, N 0
    actions = match.deals[0].actions
    assert [(a.seat.value, a.type) for a in actions[:6]] == [
        ("E", "bid"),
        ("S", "bid"),
        ("E", "ditto"),
        ("S", "pass"),
        ("W", "pass"),
        ("N", "pass"),
    ]
    trump = actions[6]
    assert isinstance(trump, TrumpAction)
    assert (trump.seat, trump.suit) == (Seat.E, "D")


def test_raises_newcomers_and_the_dealers_forced_bid_are_bids() -> None:
    raise_game = matches()[6]  # E 16, S 0, W 0, N 17, E 18, N 0: E raises
    assert [
        (a.seat.value, a.type, getattr(a, "value", None)) for a in raise_game.deals[0].actions[:7]
    ] == [
        ("E", "bid", 16),
        ("S", "pass", None),
        ("W", "pass", None),
        ("N", "bid", 17),
        ("E", "bid", 18),
        ("N", "pass", None),
        ("E", "trump", None),
    ]
    forced = matches()[5]  # three passes, then the dealer's 16
    assert types(forced)[:5] == ["pass", "pass", "pass", "bid", "trump"]
    assert forced.deals[0].actions[4].seat is Seat.N
    long = matches()[2]  # E 0, S 16, W 0, N 17, S 17 (ditto), N 18, S 0: North calls
    assert types(long)[:8] == ["pass", "bid", "pass", "bid", "ditto", "bid", "pass", "trump"]
    assert long.deals[0].actions[7].seat is Seat.N


@pytest.mark.parametrize("index", [0, 1, 2, 4, 5, 6, 7])
def test_the_show_comes_just_before_the_revealers_card_in_its_trick(index: int) -> None:
    game = archive()["games"][index]
    reveal = game["trumpReveal"]
    actions = matches()[index].deals[0].actions
    [at] = [i for i, a in enumerate(actions) if a.type == "show"]
    show = actions[at]
    assert isinstance(show, ShowAction)
    assert show.seat == "NESW"[reveal["playerIdx"]]
    assert show.suit == game["trump"]
    following = actions[at + 1]
    assert following.type == "play" and following.seat == show.seat
    plays_before = sum(a.type == "play" for a in actions[:at])
    assert plays_before // 4 == reveal["round"] - 1


def test_plays_follow_each_tricks_leader_and_the_result_is_the_summary() -> None:
    game = archive()["games"][7]
    match = matches()[7]
    plays = [a for a in match.deals[0].actions if a.type == "play"]
    assert [p.card.text for p in plays] == [
        c.replace("1", "A") for _, cards, _ in game["handsHistory"]["handsHistory"] for c in cards
    ]
    leader = game["handsHistory"]["handsHistory"][3][0]
    assert plays[12].seat == "NESW"[game["playerIds"].index(leader)]
    result = match.deals[0].result
    assert result is not None and result.points is not None
    assert (result.points.NS, result.points.EW) == (24, 4)
    assert "thrown_in" in result.model_fields_set and result.thrown_in is None


def test_a_void_game_never_shown_is_thrown_in() -> None:
    match = matches()[3]
    assert "show" not in types(match)
    result = match.deals[0].result
    assert result is not None and result.thrown_in == "never_shown"
    assert match.meta is not None and match.meta["result"] == "N"
    # The engine's own code, not an alias it would have to translate: the replay agrees as is.
    assert result.thrown_in in THROWN_IN_REASONS
    audited = audit_match(match)
    assert audited.deals[0].thrown_in == result.thrown_in and audited.findings == ()


def test_a_bad_game_is_reported_with_its_path_and_the_others_are_read() -> None:
    document = archive()
    document["games"][1]["cards"][2][3] = "XS"
    document["games"][5]["trumpReveal"] = {"round": 9, "playerIdx": 0}
    records = read(document, "bad.json")
    assert [r.ok for r in records] == [True, False, True, True, True, False, True, True]
    assert [str(p) for p in records[1].problems] == [
        "bad.json:1: games[1].cards[2][3]: 'XS' is not a card"
    ]
    assert [str(p) for p in records[5].problems] == [
        "bad.json:1: games[5].trumpReveal.round: 9 is not a trick number from 1 to 8"
    ]


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda g: g.pop("playerIds"), "playerIds: missing required field"),
        (lambda g: g["playerIds"].append("x"), "playerIds: must be a list of 4 player ids"),
        (lambda g: g["cards"][0].pop(), "cards[0]: must hold 8 cards, not 7"),
        (
            lambda g: g["bidHistory"]["bidHistory"][0].__setitem__(1, 10**30),
            "bidHistory[0][1]: 1e+30 is not a bid",
        ),
        (
            lambda g: g["bidHistory"]["bidHistory"][0].__setitem__(0, "ghost"),
            "bidHistory[0][0]: 'ghost' is not one",
        ),
        (lambda g: g.__setitem__("trump", "X"), "trump: 'X' is not a suit"),
        (
            lambda g: g["handsHistory"]["handsHistory"][0][1].append("7H"),
            "handsHistory[0][1]: a trick holds 1 to 4",
        ),
        (
            lambda g: g.__setitem__("summary", [{"score": "many"}, {}]),
            "summary[0].score: 'many' is not",
        ),
        (lambda g: g.__setitem__("result", "X"), "result: 'X' is not W, L or N"),
        (
            lambda g: g["handsHistory"].__setitem__(
                "handsHistory", g["handsHistory"]["handsHistory"][:2]
            ),
            "trumpReveal.round: names trick 6, which was not recorded",
        ),
    ],
)
def test_each_problem_names_the_game_and_the_field(mutate: Any, expected: str) -> None:
    document = archive()
    mutate(document["games"][4])
    record = read(document)[4]
    assert not record.ok
    assert any(str(p).startswith(f"a.json:1: games[4].{expected}") for p in record.problems), [
        str(p) for p in record.problems
    ]


def test_a_game_that_breaks_the_rules_is_kept_as_recorded() -> None:
    document = archive()
    tricks = document["games"][0]["handsHistory"]["handsHistory"]
    tricks[0][1][1], tricks[1][1][1] = tricks[1][1][1], tricks[0][1][1]  # South revokes
    [record] = read(document["games"][0], "one.json")
    assert record.ok and record.match is not None
    plays = [a.card.text for a in record.match.deals[0].actions if a.type == "play"]
    assert plays[1] == tricks[0][1][1].replace("1", "A")


def test_other_layouts_a_list_of_games_one_game_and_json_lines() -> None:
    games = archive()["games"]
    assert [r.match.id if r.match else None for r in read(games[:2])] == [None, None]
    assert all(r.ok for r in read(games[:2]))
    [single] = read(games[3])
    assert (
        single.ok
        and single.match is not None
        and single.match.meta
        == {
            "importer": "bhoos-archive",
            "result": "N",
        }
    )
    lines = b"\n".join(json.dumps(g).encode() for g in games[:3]) + b"\n\n{oops\n"
    records = list(read_stream(io.BytesIO(lines), "g.jsonl"))
    assert [r.line for r in records] == [1, 2, 3, 5]
    assert records[3].problems[0].reason.startswith("invalid JSON")


def test_invalid_or_empty_input_is_one_problem_with_a_place() -> None:
    [broken] = read_stream(io.BytesIO(b'{\n"sid": 1,\n"games": [}\n'), "x.json")
    assert str(broken.problems[0]).startswith("x.json:3: invalid JSON")
    [empty] = read_stream(io.BytesIO(b"\n \n"), "e.json")
    assert empty.problems[0].reason == "empty input"


def test_the_matches_write_as_canonical_json() -> None:
    for match in matches():
        again = MatchLog.model_validate_json(dump_match(match))
        assert again.to_canonical() == match.to_canonical()
        assert dump_match(match).count(b'"type"') == len(match.deals[0].actions)


def test_the_sample_audits_clean() -> None:
    audit = pytest.importorskip("twentynine.replay.audit")
    for match in matches():
        findings = audit.audit_match(match).findings
        assert [f.message for f in findings] == [], match.id


def test_what_contradicts_the_rules_is_left_for_the_audit_to_find() -> None:
    audit = pytest.importorskip("twentynine.replay.audit")
    document = copy.deepcopy(archive()["games"][0])
    document["summary"][1]["score"] += 1
    [record] = read(document)
    assert record.match is not None
    codes = [f.code for f in audit.audit_match(record.match).findings]
    assert codes == ["POINTS_MISMATCH"]
    tricks = document["handsHistory"]["handsHistory"]
    tricks[0][1][1], tricks[1][1][1] = tricks[1][1][1], tricks[0][1][1]
    [record] = read(document)
    assert record.match is not None
    severities = {f.severity for f in audit.audit_match(record.match).findings}
    assert "error" in severities
