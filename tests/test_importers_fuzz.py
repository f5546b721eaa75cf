"""Bad input never raises: every format turns damaged files into its own located problems.

Each test starts from a valid file and damages it: truncation, random or invalid UTF-8
bytes, lines dropped or swapped, fields missing, swapped or of the wrong type, huge
numbers and deep nesting.
"""

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twentynine.importers.canonical import Match, Record, dump_match
from twentynine.importers.formats import FORMATS, HEAD_SIZE, detect_format
from twentynine.schema.log import MatchLog

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs" / "formats"
EXAMPLE = Path(__file__).resolve().parent / "fixtures" / "log_format_example.json"
DEEP = "\u0000deep\u0000"  # stands for a value nested thousands deep, spliced in as text

WEIRD: list[Any] = [
    None,
    True,
    -1,
    0,
    2**70,
    -(10**30),
    1e308,
    "",
    "1X",
    "♠" * 3,
    "x" * 300,
    [],
    {},
    [[["JS"]]],
    {"round": "1"},
    DEEP,
]


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


BASES: dict[str, tuple[str, bytes]] = {
    "canonical": (
        "league.jsonl",
        b"".join(json.dumps(json.loads(EXAMPLE.read_bytes())).encode() + b"\n" for _ in range(2)),
    ),
    "bhoos-archive": ("archive.json", (SAMPLES / "bhoos_archive.json").read_bytes()),
    "bhoos-play": ("bot.jsonl", b"".join(_lines((SAMPLES / "bhoos_play.jsonl").read_bytes())[:11])),
    "text": ("club.29", (SAMPLES / "sample.29").read_bytes()),
}


def _containers(value: Any, found: list[tuple[Any, Any]]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            found.append((value, key))
            _containers(item, found)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.append((value, index))
            _containers(item, found)


def _dump(document: Any) -> bytes:
    text = json.dumps(document)
    return text.replace(json.dumps(DEEP), "[" * 3000 + "]" * 3000).encode()


@st.composite
def damaged_json(draw: st.DrawFn, data: bytes) -> bytes:
    """A JSON (or JSON lines) file with one value deleted, replaced or swapped."""
    lines = _lines(data)
    index = draw(st.integers(0, len(lines) - 1))
    document = json.loads(lines[index])
    places: list[tuple[Any, Any]] = []
    _containers(document, places)
    container, key = places[draw(st.integers(0, len(places) - 1))]
    action = draw(st.sampled_from(["delete", "replace", "swap"]))
    if action == "delete":
        del container[key]
    elif action == "replace":
        container[key] = draw(st.sampled_from(WEIRD))
    else:
        other_container, other_key = places[draw(st.integers(0, len(places) - 1))]
        try:
            container[key], other_container[other_key] = other_container[other_key], container[key]
        except (KeyError, IndexError):
            container[key] = None  # the first change moved the other place
    lines[index] = _dump(document) + b"\n"
    return b"".join(lines)


@st.composite
def damaged_text(draw: st.DrawFn, data: bytes) -> bytes:
    """A text file with a line dropped, doubled or swapped, or a word replaced."""
    lines = _lines(data)
    i = draw(st.integers(0, len(lines) - 1))
    j = draw(st.integers(0, len(lines) - 1))
    action = draw(st.sampled_from(["drop", "double", "swap", "word"]))
    if action == "drop":
        del lines[i]
    elif action == "double":
        lines.insert(j, lines[i])
    elif action == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    else:
        words = lines[i].split(b" ")
        k = draw(st.integers(0, len(words) - 1))
        words[k] = draw(
            st.sampled_from(
                [
                    *(b"", b"[", b"]", b"{", b"}", b"@", b"=", b"?", b"X", b"N", b'"', b";"),
                    *(b"9" * 5000, b"[Meta " + b"[" * 5000, b"[Deal]", b"trump=", b"\xff\xfe"),
                ]
            )
        )
        lines[i] = b" ".join(words)
    return b"".join(lines)


@st.composite
def damaged_bytes(draw: st.DrawFn, data: bytes) -> bytes:
    """The file cut short, or with random or invalid UTF-8 bytes put in."""
    position = draw(st.integers(0, len(data)))
    action = draw(st.sampled_from(["truncate", "insert", "invalid"]))
    if action == "truncate":
        return data[:position]
    if action == "insert":
        return data[:position] + draw(st.binary(min_size=1, max_size=8)) + data[position:]
    return data[:position] + b"\xc3\x28\xff" + data[position + 1 :]


def damaged(name: str) -> st.SearchStrategy[bytes]:
    data = BASES[name][1]
    structured: Callable[[bytes], st.SearchStrategy[bytes]] = (
        damaged_text if name == "text" else damaged_json
    )
    return st.one_of(structured(data), damaged_bytes(data))


def check(name: str, data: bytes) -> None:
    source = BASES[name][0]
    detect_format(source, data[:HEAD_SIZE])
    records: list[Record[Match]] = list(
        FORMATS[name].read(io.BytesIO(data), source, Path(source), False)
    )
    assert records or not data.strip()  # an empty JSON lines file holds no match
    for record in records:
        assert record.source == source
        assert record.match is not None or record.problems
        for problem in record.problems:
            assert problem.source == source and problem.reason
            assert "\n" not in str(problem)
            located = problem.line is not None or problem.path is not None
            assert located or problem.reason == "empty input", problem
        if record.match is not None:
            assert isinstance(record.match, MatchLog)  # read with fast=False
            dump_match(record.match)
            assert record.match.match_id


FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_the_undamaged_bases_read_cleanly() -> None:
    for name, (source, data) in BASES.items():
        records = list(FORMATS[name].read(io.BytesIO(data), source, Path(source), False))
        assert records and all(r.ok for r in records), name


@FUZZ
@given(damaged("canonical"))
def test_canonical_survives_damage(data: bytes) -> None:
    check("canonical", data)


@FUZZ
@given(damaged("bhoos-archive"))
def test_bhoos_archive_survives_damage(data: bytes) -> None:
    check("bhoos-archive", data)


@FUZZ
@given(damaged("bhoos-play"))
def test_bhoos_play_survives_damage(data: bytes) -> None:
    check("bhoos-play", data)


@FUZZ
@given(damaged("text"))
def test_text_survives_damage(data: bytes) -> None:
    check("text", data)
