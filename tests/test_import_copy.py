"""``twentynine import`` copies a canonical line the fast decoder accepts instead of building
and dumping the models: the output is byte for byte what the models write.

A line is copied only when it already is what :func:`importers.canonical.dump_match` writes
(no space, orjson's spelling of every value, each key once, the models' field order); any
other line, valid or not, goes through the models as before.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from twentynine.importers.canonical import canonical_line, dump_match, parse_document
from twentynine.importers.formats import import_paths, read_any
from twentynine.replay import random_match
from twentynine.replay.selfplay import simulate_matches
from twentynine.schema import PRESET_NAMES, Rules
from twentynine.schema.fastlog import decode_match
from twentynine.schema.log import MatchLog

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_logs"


def _matches() -> list[MatchLog]:
    samples = [
        record.match
        for path in sorted(SAMPLES.rglob("*.json*"))
        for record in read_any(path)
        if record.match is not None
    ]
    randoms = [random_match(Rules.preset(p), 7, max_deals=3) for p in PRESET_NAMES]
    noted = simulate_matches(Rules.preset("bhoos"), 2, 5, inject_rate=0.5, notes=True)
    return [*samples, *randoms, *noted]


def _type_last(document: dict[str, Any]) -> bytes | None:
    actions = [deal["actions"] for deal in document["deals"] if deal["actions"]]
    if not actions:
        return None
    actions[0][0]["type"] = actions[0][0].pop("type")  # "type" moved after its fields
    return orjson.dumps(document)


_SPELLINGS: list[Callable[[dict[str, Any]], bytes | None]] = [
    lambda d: orjson.dumps(d, option=orjson.OPT_SORT_KEYS),  # keys sorted: not model order
    lambda d: json.dumps(d).encode(),  # spaces after colons and commas
    lambda d: json.dumps(d, ensure_ascii=True, separators=(",", ":")).encode(),  # \\u escapes
    lambda d: orjson.dumps({key: d[key] for key in reversed(d)}),
    _type_last,
    lambda d: None if "meta" in d else orjson.dumps(dict(d, meta=None)),  # a field given null
]


def _variants(match: MatchLog, k: int) -> list[bytes]:
    """The match as its canonical line, and as other valid spellings of the same document,
    each under an id of its own."""
    variants = [dump_match(match.model_copy(update={"id": f"m{k}"}))]
    for n, spell in enumerate(_SPELLINGS):
        canonical = dump_match(match.model_copy(update={"id": f"m{k}-{n}"}))
        variant = spell(orjson.loads(canonical))
        if variant is not None:
            variants.append(variant)
    return variants


Read = list[tuple[bytes, MatchLog | None]]


@pytest.fixture(scope="module")
def variants() -> Read:
    """Every match's variants (``_variants``), each with the models' reading of it (None
    when they refuse it): made once for the tests below."""
    read: Read = []
    for k, match in enumerate(_matches()):
        for variant in _variants(match, k):
            try:
                read.append((variant, MatchLog.model_validate_json(variant)))
            except ValueError:
                read.append((variant, None))
    return read


def test_a_copied_line_is_what_the_models_write(variants: Read) -> None:
    copied = refused = 0
    for variant, model in variants:
        if decode_match(variant) is None:
            continue
        assert model is not None, variant[:200]  # what the decoder takes, the models take
        expected = dump_match(model)
        line = canonical_line(variant)
        if line is None:
            refused += 1
            assert variant != expected, variant[:200]  # else it would have been copied
        else:
            copied += 1
            assert line == expected
    assert copied >= 40 and refused >= 100  # both ways taken, many times


def test_import_writes_the_models_output(variants: Read, tmp_path: Path) -> None:
    lines = [variant for variant, _ in variants]
    source = tmp_path / "in.jsonl"
    source.write_bytes(b"\n".join(lines) + b"\n")
    out = tmp_path / "out.jsonl"
    summary = import_paths([source], None, out)
    expected, seen = [], set()
    for _, match in variants:  # each id's first valid line, as the models write it
        if match is None:
            continue
        if match.match_id not in seen:
            seen.add(match.match_id)
            expected.append(dump_match(match) + b"\n")
    assert summary.imported == len(expected) > 300
    assert out.read_bytes() == b"".join(expected)


_PAGAT_LINE = dump_match(next(r.match for r in read_any(SAMPLES / "pagat.json") if r.match))
_REPEATS = {  # a canonical line with one key given again, at each depth the decoder reads
    "id": (b'"rules":"pagat",', b'"rules":"pagat","id":"other",'),
    "rules": (b'"rules":"pagat",', b'"rules":"pagat","rules":"bhoos",'),
    "N": (b'"W":"Anne"}', b'"W":"Anne","N":"Zoe"}'),
    "seed": (b'"seed":5,', b'"seed":5,"seed":6,'),
    "dealer": (b'{"dealer":"S",', b'{"dealer":"S","dealer":"S",'),
    "seat": (b'{"seat":"W","type":"pass"}', b'{"seat":"W","seat":"W","type":"pass"}'),
}


@pytest.mark.parametrize("key", list(_REPEATS))
def test_a_repeated_key_is_refused_by_import_as_before(key: str, tmp_path: Path) -> None:
    # The import's decoder leaves out its own count for repeated keys (the copy's round trip
    # refuses them): the line must still be refused, in the models' words.
    old, new = _REPEATS[key]
    line = _PAGAT_LINE.replace(old, new, 1).replace(b"sim-pagat-5-1", b"twice", 1)
    assert line != _PAGAT_LINE
    assert decode_match(line) is None  # the decoder alone refuses it...
    assert decode_match(line, keys_checked=True) is not None  # ...and is told not to look
    source = tmp_path / "in.jsonl"
    source.write_bytes(_PAGAT_LINE + b"\n" + line + b"\n")
    out = tmp_path / "out.jsonl"
    summary = import_paths([source], None, out)
    models = parse_document(line, str(source), 2)  # how the models read the line
    assert [str(p) for p in models.problems] == [
        f"{source}:2: the key {key!r} appears twice in one object"
    ]
    assert [str(p) for p in summary.problems] == [str(p) for p in models.problems]
    assert (summary.imported, summary.skipped) == (1, 1)
    assert out.read_bytes() == _PAGAT_LINE + b"\n"
