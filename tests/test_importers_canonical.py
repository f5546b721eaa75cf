"""Reading and writing canonical .json and .jsonl, with one clear line per problem."""

import io
import json
import re
from pathlib import Path

import pytest

from twentynine.importers.canonical import read_path, read_stream, write_json, write_jsonl
from twentynine.schema.log import MatchLog

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def example() -> dict[str, object]:
    document: dict[str, object] = json.loads(
        (FIXTURES / "log_format_example.json").read_text(encoding="utf-8")
    )
    return document


def jsonl(*documents: object) -> bytes:
    return b"".join(json.dumps(d).encode() + b"\n" for d in documents)


def test_jsonl_reads_each_line_and_reports_bad_ones_by_line(tmp_path: Path) -> None:
    bad = example()
    bad["deals"][0]["actions"][7]["card"] = "XS"  # type: ignore[index]
    path = tmp_path / "league.jsonl"
    path.write_bytes(jsonl(example(), bad) + b"\n" + jsonl(example()))
    records = list(read_path(path))
    assert [r.line for r in records] == [1, 2, 4]
    assert [r.ok for r in records] == [True, False, True]
    assert [str(p) for p in records[1].problems] == [
        f"{path}:2: deals[0].actions[7].card: 'XS' is not a card"
    ]


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (
            lambda d: d["deals"][0]["actions"].append({"seat": "N", "type": "shout"}),
            "deals[0].actions[8].type: unknown action type 'shout'",
        ),
        (lambda d: d.update(rules="hearts"), "rules: unknown preset 'hearts'"),
        (lambda d: d.pop("players"), "players: missing required field"),
        (lambda d: d["deals"][0].pop("dealer"), "deals[0].dealer: missing required field"),
        (
            lambda d: d["deals"][0]["hands"]["N"].pop(),
            "deals[0].hands.N: List should have at least 8",
        ),
        (lambda d: d.update(version=2), "version: 2 is not allowed: expected 1"),
    ],
)
def test_each_problem_is_one_line_with_its_json_path(mutate: object, expected: str) -> None:
    document = example()
    mutate(document)  # type: ignore[operator]
    [record] = read_stream(io.BytesIO(json.dumps(document).encode()), "m.json", "json")
    assert not record.ok
    # one document a file: the line and column of the value at fault (json.dumps: one line)
    shown = [re.sub(r"^m\.json:1:\d+: ", "m.json: ", str(p)) for p in record.problems]
    assert any(line.startswith(f"m.json: {expected}") for line in shown), record.problems
    assert all(p.line == 1 and p.column is not None for p in record.problems)
    assert all("\n" not in str(p) for p in record.problems)


def test_truncated_json_names_the_file_and_position() -> None:
    text = json.dumps(example()).encode()[:50]
    [record] = read_stream(io.BytesIO(text), "cut.json", "json")
    assert str(record.problems[0]).startswith("cut.json:1: invalid JSON: EOF while parsing")


def test_missing_file_is_a_problem_not_an_exception(tmp_path: Path) -> None:
    [record] = read_path(tmp_path / "nope.jsonl")
    assert "cannot read" in record.problems[0].reason


def test_auto_layout_tells_json_from_jsonl() -> None:
    pretty = json.dumps(example(), indent=2).encode()
    assert [r.line for r in read_stream(io.BytesIO(pretty), "-")] == [None]
    lines = jsonl(example(), example())
    assert [r.line for r in read_stream(io.BytesIO(lines), "-")] == [1, 2]
    [empty] = read_stream(io.BytesIO(b"\n\n"), "-")
    assert empty.problems[0].reason == "empty input"


def test_writers_round_trip(tmp_path: Path) -> None:
    match = MatchLog.model_validate(example())
    buffer = io.BytesIO()
    assert write_jsonl([match, match], buffer) == 2
    buffer.seek(0)
    assert [r.match for r in read_stream(buffer, "x", "jsonl")] == [match, match]
    single = io.BytesIO()
    write_json(match, single)
    single.seek(0)
    [record] = read_stream(single, "x.json", "json")
    assert record.match == match


def test_jsonl_is_streamed_one_line_at_a_time() -> None:
    consumed: list[int] = []

    def lines() -> object:
        for i in range(3):
            consumed.append(i)
            yield json.dumps(example()).encode() + b"\n"

    reader = read_stream(lines(), "gen.jsonl", "jsonl")  # type: ignore[call-overload]
    next(reader)
    assert consumed == [0]
