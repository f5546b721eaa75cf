"""Documents a reader must refuse or take as they are: repeated keys, a byte-order mark, a
line too long to hold."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from twentynine.cli import app
from twentynine.importers.canonical import parse_document
from twentynine.importers.errors import MAX_DOCUMENT
from twentynine.importers.formats import read_any
from twentynine.schema.fastlog import decode_match

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"
runner = CliRunner()
PAGAT = (SAMPLES / "pagat.json").read_bytes()
COMPACT = json.dumps(json.loads(PAGAT)).encode()


def _repeated(key_at_end: bytes) -> bytes:
    return COMPACT[:-1] + key_at_end + b"}"


@pytest.mark.parametrize(
    ("document", "key"),
    [
        (_repeated(b', "deals": []'), "deals"),
        (_repeated(b', "id": "other"'), "id"),
        (COMPACT.replace(b'"bid"', b'"bid", "seat": "E"', 1), "seat"),
        (_repeated(b', "deals" \n :\t[]'), "deals"),
        (_repeated(b', "meta": {"a\\u0022": 1}'), "meta"),
    ],
    ids=["deals", "id", "seat", "spaced", "escaped"],
)
def test_a_repeated_key_is_refused_on_both_paths(document: bytes, key: str) -> None:
    assert document != COMPACT
    assert decode_match(document) is None  # the fast decoder leaves it to the models
    for fast in (False, True):
        record = parse_document(document, "m.json", None, fast=fast)
        assert record.match is None
        assert [p.reason for p in record.problems] == [
            f"the key {key!r} appears twice in one object"
        ]


def test_a_document_without_repeated_keys_stays_on_the_fast_path() -> None:
    assert decode_match(COMPACT) is not None
    assert decode_match(PAGAT) is not None  # indented, as written by the tool


def test_the_audit_refuses_a_repeated_key(tmp_path: Path) -> None:
    log = tmp_path / "dup.jsonl"
    log.write_bytes(_repeated(b', "deals": []') + b"\n")
    result = runner.invoke(app, ["audit", str(log)])
    assert result.exit_code == 2, result.output
    assert f"{log}:1: the key 'deals' appears twice in one object" in result.stderr


@pytest.mark.parametrize("name", ["bom.json", "bom.jsonl", "bom.29"])
def test_a_byte_order_mark_is_accepted(tmp_path: Path, name: str) -> None:
    if name.endswith(".29"):
        text = tmp_path / "p.29"
        made = runner.invoke(app, ["import", str(SAMPLES / "pagat.json"), "-o", str(text)])
        assert made.exit_code == 0, made.output
        body = text.read_bytes()
    else:
        body = COMPACT + b"\n"
    log = tmp_path / name
    log.write_bytes(b"\xef\xbb\xbf" + body)
    records = list(read_any(log))
    assert [r.problems for r in records] == [()]
    result = runner.invoke(app, ["audit", str(log)])
    assert result.exit_code == 0, result.output


def test_a_line_too_long_is_refused_and_the_rest_goes_on(tmp_path: Path) -> None:
    log = tmp_path / "long.jsonl"
    with log.open("wb") as stream:
        stream.write(COMPACT + b"\n")
        stream.write(b'{"x": "' + b"a" * (MAX_DOCUMENT + 10) + b'"}\n')
        stream.write(COMPACT.replace(b'"sim-pagat-5-1"', b'"after"') + b"\n")
    other = tmp_path / "other.json"
    other.write_bytes(PAGAT)
    result = runner.invoke(app, ["audit", str(log), str(other), "--format", "json"])
    assert result.exit_code == 2, result.output
    problems = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(p["line"], p["code"]) for p in problems] == [(2, "INVALID_INPUT")]
    assert "longer than 64 MB" in problems[0]["message"]
    assert "not read" not in problems[0]["message"]
    assert "2 files, 3 matches" in result.stderr  # the lines before and after, the other file
    db = tmp_path / "w.duckdb"
    loaded = runner.invoke(app, ["load", str(log), str(other), "--db", str(db)])
    assert loaded.exit_code == 1, loaded.output
    assert f"{log}:2: longer than 64 MB" in loaded.stderr
    assert "2 stored" in loaded.stderr and "1 already stored" in loaded.stderr


def test_a_text_log_stops_at_a_line_too_long(tmp_path: Path) -> None:
    log = tmp_path / "long.29"
    log.write_bytes(b"[Match " + b"a" * (MAX_DOCUMENT + 10) + b"]\n[Rules pagat]\n")
    result = runner.invoke(app, ["audit", str(log)])
    assert result.exit_code == 2, result.output
    assert f"{log}:1: longer than 64 MB" in result.stderr
    assert f"the rest of {log} is not read" in result.stderr


def test_audit_of_dev_zero_ends_in_one_line_with_flat_memory() -> None:
    def cap() -> None:  # the old reader grew to gigabytes here
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

    result = subprocess.run(
        [sys.executable, "-m", "twentynine", "audit", "/dev/zero"],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=cap,
    )
    assert result.returncode == 2, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    assert "/dev/zero:1: longer than 64 MB" in result.stderr
