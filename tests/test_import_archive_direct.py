"""``twentynine import --from bhoos-archive`` writes a game's canonical line straight from the
game (``importers.bhoos_archive.read_game`` with ``fast``) where the fast decoder accepts it:
the bytes are what the models write, and every game the direct way leaves goes to the models
with the same messages.

The archives are the sample's and archives written here from random and simulated bhoos
deals (the project has no archive writer: :func:`_game` is a test's own, rough one).
"""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import orjson
import pytest

from twentynine.importers.bhoos_archive import read_stream
from twentynine.importers.canonical import canonical_line, dump_match
from twentynine.importers.formats import import_paths
from twentynine.replay import random_match
from twentynine.replay.selfplay import simulate_matches
from twentynine.schema import Rules
from twentynine.schema.cards import Seat
from twentynine.schema.fastlog import decode_match, is_decoded
from twentynine.schema.log import MatchLog

SAMPLE = Path(__file__).resolve().parents[1] / "sample_logs" / "formats" / "bhoos_archive.json"
_RESULTS = ("W", "L", "N")


def _game(match: MatchLog, k: int) -> dict[str, Any] | None:
    """The match's first deal as an archive game (index 0 deals), or None without hands."""
    deal = match.deals[0]
    if deal.hands is None or any(None in hand for hand in deal.hands.values()):
        return None
    order = deal.dealer.order_from(Rules.preset("bhoos").direction)
    ids = [f"id-{seat.value}-{k}" for seat in order]
    id_of = dict(zip(order, ids, strict=True))

    def spelled(card: Any) -> str:
        return str(card.text).replace("A", "1")

    bids: list[list[Any]] = []
    standing = 0
    plays: list[tuple[Seat, str]] = []
    reveal: dict[str, int] | bool = False
    trump: str = ""
    for action in deal.actions:
        if action.type == "bid":
            standing = max(standing, action.value)
            bids.append([id_of[action.seat], action.value])
        elif action.type in ("pass", "ditto"):
            bids.append([id_of[action.seat], 0 if action.type == "pass" else standing])
        elif action.type == "trump" and action.suit is not None:
            trump = action.suit.value
        elif action.type == "show" and reveal is False:
            reveal = {"round": len(plays) // 4 + 1, "playerIdx": order.index(action.seat)}
        elif action.type == "play":
            plays.append((action.seat, spelled(action.card)))
    tricks = [
        [id_of[plays[i][0]], [card for _, card in plays[i : i + 4]], id_of[plays[i][0]]]
        for i in range(0, len(plays), 4)
    ]
    game: dict[str, Any] = {
        "result": _RESULTS[k % 3],
        "playerIds": ids,
        "cards": [[spelled(card) for card in deal.hands[seat]] for seat in order],
        "bidHistory": {"bidHistory": bids},
        "handsHistory": {"handsHistory": tricks[:8]},
        "trump": trump,
        "trumpReveal": reveal,
    }
    if k % 4:
        game["summary"] = [{"bid": 0, "score": k % 29}, {"bid": standing, "score": 28 - k % 29}]
    if k % 5 == 0:
        game["note"] = {"seen": [1.5, None, "ünï ☃ 𝄞"], "k": k}  # kept in meta.extra
    if k % 7 == 0:
        del game["result"]
    return game


def _archives() -> list[bytes]:
    """The sample archive, and archives of random and simulated bhoos deals, each written
    in the layouts the reader takes (an archive, a list of games, JSON lines of games)."""
    rules = Rules.preset("bhoos")
    matches = [random_match(rules, seed, max_deals=1) for seed in range(40)]
    matches += simulate_matches(rules, 20, 1, inject_rate=0.5, notes=True)
    games = [g for k, m in enumerate(matches) if (g := _game(m, k)) is not None]
    header = {"sid": "sim", "avgRT": 0.25, "wins": 3, "who": "Zoë"}
    return [
        SAMPLE.read_bytes(),
        orjson.dumps({**header, "games": games}),
        orjson.dumps({"sid": 7, "games": games[:10]}),
        orjson.dumps(games[:5]),  # no sid: no id, which the models hash
        b"\n".join(orjson.dumps({"sid": k, "games": [g]}) for k, g in enumerate(games[:5])),
    ]


def _read(data: bytes, *, fast: bool) -> list[Any]:
    return list(read_stream(io.BytesIO(data), "a.json", fast=fast))


def test_a_direct_line_is_what_the_models_write() -> None:
    direct = models = 0
    for data in _archives():
        for fast, slow in zip(_read(data, fast=True), _read(data, fast=False), strict=True):
            assert slow.ok and fast.ok, [str(p) for p in slow.problems]
            expected = dump_match(slow.match)
            if is_decoded(fast.match):
                direct += 1
                assert fast.canonical and fast.document == expected
                # the copy path's own proof agrees: canonical, and the decoder takes it
                assert canonical_line(fast.document) == expected
                assert decode_match(expected) == fast.match
            else:
                models += 1
                assert not fast.canonical and dump_match(fast.match) == expected
    assert direct >= 60 and models >= 5  # both ways taken


def test_a_line_for_copying_is_what_the_models_write_and_what_the_decoder_takes() -> None:
    copied = 0
    for data in _archives():
        for given, slow in zip(
            read_stream(io.BytesIO(data), "a.json", fast=True, copying=True),
            _read(data, fast=False),
            strict=True,
        ):
            assert slow.match is not None and given.ok
            expected = dump_match(slow.match)
            if given.copied_id is None:  # no id: decoded, or the models'
                assert slow.match.id is None and given.match is not None
                continue
            copied += 1
            assert given.match is None and given.canonical and given.document == expected
            decoded = decode_match(expected)  # every check, the repeated keys' too
            assert decoded is not None and decoded.match_id == given.copied_id == slow.match.id
    assert copied >= 60


def test_a_meta_too_deep_is_not_copied_but_left_to_the_models() -> None:
    document = orjson.loads(SAMPLE.read_bytes())
    deep: Any = 1
    for _ in range(210):
        deep = [deep]
    document["games"][2]["note"] = deep
    records = list(
        read_stream(io.BytesIO(json.dumps(document).encode()), "a.json", fast=True, copying=True)
    )
    assert [r.copied_id is not None for r in records] == [True] * 2 + [False] + [True] * 5
    assert isinstance(records[2].match, MatchLog)  # the decoder refused it: the models read it


def test_import_writes_the_models_output(tmp_path: Path) -> None:
    for n, data in enumerate(_archives()):
        source = tmp_path / f"in{n}.json"
        source.write_bytes(data)
        out = tmp_path / f"out{n}.jsonl"
        summary = import_paths([source], "bhoos-archive", out)
        expected = b"".join(dump_match(r.match) + b"\n" for r in _read(data, fast=False))
        assert summary.skipped == 0 and out.read_bytes() == expected


_DAMAGE = [
    lambda g: g.pop("playerIds"),
    lambda g: g["cards"][0].pop(),
    lambda g: g["cards"][1].__setitem__(2, "XS"),
    lambda g: g["cards"][1].__setitem__(2, ["JS"]),
    lambda g: g["bidHistory"]["bidHistory"][0].__setitem__(1, 10**30),
    lambda g: g.__setitem__("trump", "X"),
    lambda g: g["handsHistory"]["handsHistory"][0][1].append("7H"),
    lambda g: g["handsHistory"]["handsHistory"][1][1].__setitem__(0, "1X"),
    lambda g: g["handsHistory"]["handsHistory"][2].__setitem__(0, "ghost"),
    lambda g: g.__setitem__("summary", [{"score": "many"}, {}]),
    lambda g: g.__setitem__("result", []),  # not even hashable
    lambda g: g["bidHistory"]["bidHistory"][1].__setitem__(0, ["ghost"]),
    lambda g: g["handsHistory"]["handsHistory"][3].__setitem__(2, {"id": 1}),
]


@pytest.mark.parametrize("damage", range(len(_DAMAGE)))
def test_a_bad_game_has_the_same_problems_either_way(damage: int, tmp_path: Path) -> None:
    document = orjson.loads(SAMPLE.read_bytes())
    bad = copy.deepcopy(document)
    _DAMAGE[damage](bad["games"][4])
    data = json.dumps(bad).encode()  # not orjson: it writes no integer past 64 bits
    fast, slow = _read(data, fast=True), _read(data, fast=False)
    assert [[str(p) for p in r.problems] for r in fast] == [
        [str(p) for p in r.problems] for r in slow
    ]
    assert sum(not r.ok for r in fast) == 1
    source = tmp_path / "bad.json"
    source.write_bytes(data)
    summary = import_paths([source], "bhoos-archive", tmp_path / "out.jsonl")
    assert summary.skipped == 1
    assert [str(p) for p in summary.problems] == [
        str(p).replace("a.json", str(source)) for r in slow for p in r.problems
    ]


def test_a_game_the_decoder_refuses_goes_to_the_models() -> None:
    document = orjson.loads(SAMPLE.read_bytes())
    deep: Any = 1
    for _ in range(210):  # meta nests deeper than the models' JSON parser reads
        deep = [deep]
    document["games"][2]["note"] = deep
    data = json.dumps(document).encode()
    fast, slow = _read(data, fast=True), _read(data, fast=False)
    assert [is_decoded(r.match) for r in fast] == [True] * 2 + [False] + [True] * 5
    assert [r.document for r in fast] == [dump_match(r.match) for r in slow[:2]] + [None] + [
        dump_match(r.match) for r in slow[3:]
    ]
    assert fast[2].match == slow[2].match
