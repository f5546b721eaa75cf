"""The registry: detecting formats, reading any file, and importing into one output."""

import io
import json
import shutil
import stat
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from twentynine.importers import formats, text
from twentynine.importers.canonical import read_path
from twentynine.importers.errors import InputProblem
from twentynine.importers.formats import (
    FORMAT_NAMES,
    ImportSummary,
    detect_format,
    expand_inputs,
    import_paths,
    read_any,
)

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_logs" / "formats"
EXAMPLE = Path(__file__).resolve().parent / "fixtures" / "log_format_example.json"


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    """A folder with every format, a duplicate, a bad line, and files that are not ours."""
    folder = tmp_path / "in"
    (folder / "deep").mkdir(parents=True)
    shutil.copy(SAMPLES / "bhoos_archive.json", folder / "archive.json")
    shutil.copy(SAMPLES / "bhoos_play.jsonl", folder / "deep" / "bot.log")
    shutil.copy(SAMPLES / "sample.29", folder / "deep" / "club.txt")
    example = EXAMPLE.read_text(encoding="utf-8")
    lines = [json.dumps(json.loads(example)), "{not json", json.dumps(json.loads(example))]
    (folder / "league.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "README.txt").write_text("notes about the league\n", encoding="utf-8")
    (folder / "server.log").write_text("started\n", encoding="utf-8")
    (folder / ".hidden.json").write_text("{}", encoding="utf-8")
    (folder / "picture.png").write_bytes(b"\x89PNG")
    return folder


def test_the_registry_names_every_format() -> None:
    assert FORMAT_NAMES == ("canonical", "bhoos-archive", "bhoos-play", "text")


@pytest.mark.parametrize(
    ("name", "head", "expected"),
    [
        ("m.json", EXAMPLE.read_bytes()[:200], "canonical"),
        ("m.jsonl", b'{"format":"twentynine.match","version":1}\n', "canonical"),
        ("a.json", (SAMPLES / "bhoos_archive.json").read_bytes()[:300], "bhoos-archive"),
        (
            "games.jsonl",
            b'{"result":"W","playerIds":["a","b","c","d"],"cards":[]}',
            "bhoos-archive",
        ),
        ("bot.jsonl", (SAMPLES / "bhoos_play.jsonl").read_bytes()[:300], "bhoos-play"),
        ("notes.txt", b'; club night\n[Match "x"]\n', "text"),
        ("m.json", b'[Rules "pagat"]', "text"),
        ("deal.29", b"", "text"),
        ("server.log", b"", "bhoos-play"),
        ("mystery.dat", b"\x00\x01", "canonical"),
        ("list.json", b"[null, 1]", "canonical"),
    ],
)
def test_detection_looks_at_the_content_first_then_the_name(
    name: str, head: bytes, expected: str
) -> None:
    assert detect_format(name, head) == expected


def test_read_any_reads_each_format_and_from_names_one_the_content_does_not_deny() -> None:
    assert [r.ok for r in read_any(SAMPLES / "sample.29")] == [True, True]
    assert len(list(read_any(str(SAMPLES / "bhoos_archive.json")))) == 8
    [forced] = read_any(SAMPLES / "bhoos_archive.json", "canonical")
    assert not forced.ok and forced.line is None
    assert [str(p) for p in forced.problems] == [
        f"{SAMPLES / 'bhoos_archive.json'}: not read: --from canonical, but its content is "
        "bhoos-archive (leave out --from, or name its format)"
    ]
    assert [r.ok for r in read_any(SAMPLES / "sample.29", "text")] == [True, True]
    with pytest.raises(ValueError, match="unknown format 'pbn'"):
        read_any(SAMPLES / "sample.29", "pbn")


def test_read_any_reads_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    data = (SAMPLES / "sample.29").read_bytes()

    class Stdin:
        buffer = io.BytesIO(data)

    monkeypatch.setattr(sys, "stdin", Stdin)
    records = list(read_any("-"))
    assert [(r.source, r.line, r.ok) for r in records] == [
        ("<stdin>", 5, True),
        ("<stdin>", 32, True),
    ]


def test_a_reader_fault_is_reported_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(stream: Any, source: str) -> Any:
        yield from ()
        raise KeyError("oops")

    monkeypatch.setattr(text, "read_stream", broken)
    [record] = read_any(SAMPLES / "sample.29")
    assert "the text reader failed (KeyError" in record.problems[0].reason


def test_expand_inputs_searches_folders_for_our_files(inputs: Path) -> None:
    found = expand_inputs([inputs, inputs / "archive.json", "-"])
    assert [p.relative_to(inputs).as_posix() if p != Path("-") else "-" for p in found] == [
        "archive.json",
        "deep/bot.log",
        "deep/club.txt",
        "league.jsonl",
        "-",
    ]


def test_import_paths_counts_writes_and_reports(inputs: Path, tmp_path: Path) -> None:
    out = tmp_path / "out" / "all.jsonl"
    out.parent.mkdir()
    summary = import_paths([inputs], None, out)
    assert (
        summary.files,
        summary.found,
        summary.imported,
        summary.skipped,
        summary.duplicates,
    ) == (
        4,
        15,
        13,
        1,
        1,
    )
    assert summary.formats == {"bhoos-archive": 1, "bhoos-play": 1, "text": 1, "canonical": 1}
    league = inputs / "league.jsonl"
    assert [str(p) for p in summary.problems] == [
        f"{league}:2: invalid JSON: key must be a string at line 1 column 2"
    ]
    assert summary.duplicate_lines == [
        f"{league}:3: match 'club-2026-11-29-t3' was already imported from {league}:1"
    ]
    assert summary.lines()[-1] == (
        f"15 matches found in 4 files: 13 imported, 1 skipped, 1 duplicate -> {out}"
    )
    assert summary.exit_code == 1 and summary.ok
    written = list(read_path(out))
    assert len(written) == 13 and all(r.ok for r in written)
    assert [p.name for p in out.parent.iterdir()] == ["all.jsonl"]


def test_a_json_output_takes_exactly_one_match(tmp_path: Path) -> None:
    one = tmp_path / "one.json"
    summary = import_paths([EXAMPLE], None, one)
    assert summary.ok and summary.exit_code == 0
    [record] = read_path(one)
    assert record.match is not None and record.match.id == "club-2026-11-29-t3"
    many = tmp_path / "many.json"
    many.write_text("keep me", encoding="utf-8")
    summary = import_paths([SAMPLES / "bhoos_archive.json"], None, many)
    assert summary.error is not None and summary.error.startswith(
        "a .json output holds exactly one"
    )
    assert summary.exit_code == 2 and summary.lines()[-1].startswith("error: a .json output")
    assert many.read_text(encoding="utf-8") == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["many.json", "one.json"]


def test_a_failed_import_leaves_no_half_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []
    real = formats._copied  # each match read comes here, copied or not

    def failing(record: Any) -> bytes | None:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(record)

    monkeypatch.setattr(formats, "_copied", failing)
    with pytest.raises(KeyboardInterrupt):
        import_paths([SAMPLES / "bhoos_archive.json"], None, tmp_path / "out.jsonl")
    assert list(tmp_path.iterdir()) == []


def test_output_to_stdout_text_and_unwritable_places(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    summary = import_paths([SAMPLES / "sample.29"], None, "-")
    assert summary.imported == 2
    lines = capsysbinary.readouterr().out.splitlines()
    assert [json.loads(line)["id"] for line in lines] == ["sample-bhoos-1", "sample-bhoos-2"]
    text_out = tmp_path / "back.29"
    assert import_paths([SAMPLES / "bhoos_archive.json"], "bhoos-archive", text_out).imported == 8
    assert [r.ok for r in read_any(text_out)] == [True] * 8
    assert stat.S_IMODE(text_out.stat().st_mode) & 0o044 == 0o044  # readable as a normal file
    nowhere = import_paths([EXAMPLE], None, tmp_path / "no" / "dir" / "x.jsonl")
    assert nowhere.error is not None and nowhere.error.startswith("cannot write")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert import_paths([empty], None, tmp_path / "x.jsonl").error == "no input files found"
    odd = import_paths([EXAMPLE], None, tmp_path / "x.csv")
    assert odd.error is not None and "cannot tell how to write" in odd.error
    assert import_paths([EXAMPLE], "pbn", tmp_path / "x.jsonl").error == (
        "unknown format 'pbn' (known: canonical, bhoos-archive, bhoos-play, text)"
    )


def test_the_summary_prints_and_serialises() -> None:
    summary = ImportSummary(output="o.jsonl", files=2, found=3, imported=1, skipped=1, duplicates=1)
    summary.add_problems(
        [InputProblem("a.json", None, "games[0]", "bad")] * (formats.MAX_KEPT_PROBLEMS + 2)
    )
    lines = summary.lines()
    assert lines[0] == "a.json: games[0]: bad"
    assert lines[-2:] == [
        "... and 2 more problems",
        "3 matches found in 2 files: 1 imported, 1 skipped, 1 duplicate -> o.jsonl",
    ]
    data = summary.to_dict()
    assert data["problems_dropped"] == 2 and data["problems"][0]["path"] == "games[0]"
    json.dumps(data)


def test_importing_jsonl_streams_one_match_at_a_time(tmp_path: Path) -> None:
    # Memory must not grow with the input beyond the ids kept to find duplicates.
    line = json.dumps(json.loads(EXAMPLE.read_text(encoding="utf-8")) | {"id": "{}"})
    peaks, sizes = [], []
    for count in (100, 1500):
        big = tmp_path / f"big{count}.jsonl"
        big.write_text(
            "".join(line.replace('"{}"', f'"m{i}"') + "\n" for i in range(count)), "utf-8"
        )
        tracemalloc.start()
        try:
            summary = import_paths([big], None, tmp_path / "out.jsonl")
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
        assert summary.imported == count
        sizes.append(big.stat().st_size)
    assert peaks[1] - peaks[0] < (sizes[1] - sizes[0]) / 5, (peaks, sizes)


def test_a_file_not_read_is_no_match_found(tmp_path: Path) -> None:
    """`import missing.json` said "1 match found, 1 skipped": a file that cannot be read, or
    that --from names in a format its content denies, holds no match to count."""
    missing, out = tmp_path / "missing.json", tmp_path / "o.jsonl"
    summary = import_paths([missing, EXAMPLE], None, out)
    assert (summary.found, summary.imported, summary.skipped, summary.unread) == (1, 1, 0, 1)
    assert summary.lines() == [
        f"{missing}: cannot read: No such file or directory",
        f"1 match found in 2 files (1 not read): 1 imported, 0 skipped, 0 duplicates -> {out}",
    ]
    assert summary.exit_code == 1 and summary.to_dict()["unread"] == 1
    denied = import_paths([EXAMPLE], "bhoos-play", tmp_path / "p.jsonl")
    assert (denied.found, denied.unread, denied.exit_code) == (0, 1, 2)
    assert "not read: --from bhoos-play, but its content is canonical" in denied.lines()[0]
