"""The fast decoder (schema.fastlog) against the models (schema.log): the same behaviour.

The structs are made from the models (schema._derive), so these tests check what a reader
sees, not the fields: ``decode_match`` may leave a document to the models (``None``), but
when it returns a match, the models must accept the same document and read the same values,
and the engine must audit both alike. Checked over the sample logs, random legal matches
(clean and with injected breaches), random mutations of valid documents, through the
readers, and through ``twentynine audit``; and the derivation itself on small models.
"""

from __future__ import annotations

import copy
import io
import json
import re
from collections.abc import Callable, Iterator
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Final, Literal, cast

import msgspec
import orjson
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import PydanticCustomError
from typer.testing import CliRunner

from tests.strategies import RULE_VARIANTS, match_documents
from twentynine.cli import app
from twentynine.importers.canonical import Layout, Match, Record, parse_document, read_stream
from twentynine.importers.formats import detect_format, expand_inputs, read_any
from twentynine.replay.audit import AuditedMatch, audit_match
from twentynine.replay.deal import DealState
from twentynine.replay.findings import AuditError, Finding
from twentynine.replay.selfplay import simulate_matches
from twentynine.replay.simulate import random_match
from twentynine.schema._derive import Derived, SchemaError
from twentynine.schema.cards import ALL_CARDS
from twentynine.schema.fastlog import STRUCTS, decode_match, is_decoded
from twentynine.schema.log import ACTION_TYPES, LEFT_OUT_IS_NOT_NULL, Deal, MatchLog, PlayAction
from twentynine.schema.rules import Rules
from twentynine.schema.shapes import DealLike, MatchLike
from twentynine.schema.words import plural
from twentynine.textout import error_line

ROOT: Final = Path(__file__).resolve().parents[1]
SAMPLES: Final = ROOT / "sample_logs"
FIXTURES: Final = Path(__file__).resolve().parent / "fixtures"
CARD_TEXTS: Final = frozenset(card.text for card in ALL_CARDS)

runner = CliRunner()


def parse_document_fast(data: bytes | str, source: str, line: int | None) -> Record[Match]:
    return parse_document(data, source, line, fast=True)


def read_stream_fast(stream: Any, source: str, layout: Layout = "auto") -> list[Record[Match]]:
    return list(read_stream(stream, source, layout, fast=True))


def read_for_audit(path: Path) -> list[Record[Match]]:
    return list(read_any(path, fast=True))


def _kind(record: Record[Match]) -> str:
    """The fast decoder's match (as the fast record was), or the models' reading."""
    return "decoded" if record.match is not None and is_decoded(record.match) else "models"


# ------------------------------------------------------------------------------- helpers
def _unset(value: object) -> bool:
    return isinstance(value, msgspec.UnsetType)


def _first_difference(a: object, b: object, where: str = "$") -> str | None:
    """Where two JSON values differ, types included (1 is not 1.0 nor True), or None."""
    if type(a) is not type(b):
        return f"{where}: {a!r} ({type(a).__name__}) vs {b!r} ({type(b).__name__})"
    if isinstance(a, dict):
        assert isinstance(b, dict)
        if list(a) != list(b) and set(a) != set(b):
            return f"{where}: keys {sorted(map(str, a))} vs {sorted(map(str, b))}"
        for key in a:
            found = _first_difference(a[key], b[key], f"{where}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list):
        assert isinstance(b, list)
        if len(a) != len(b):
            return f"{where}: {len(a)} items vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = _first_difference(x, y, f"{where}[{i}]")
            if found:
                return found
        return None
    if isinstance(a, float):
        return None if repr(a) == repr(b) else f"{where}: {a!r} vs {b!r}"
    return None if a == b else f"{where}: {a!r} vs {b!r}"


def _given_difference(fast: object, document: object, where: str = "$") -> str | None:
    """``msgspec.to_builtins(fast)`` against the document: every field the document gives
    must be there with the same value and JSON type; a field the document leaves out must be
    absent (``UNSET``) or at its default, ``None``."""
    if isinstance(document, dict):
        if not isinstance(fast, dict):
            return f"{where}: {fast!r} vs an object"
        for key, value in document.items():
            if key not in fast:
                return f"{where}.{key}: given, but not read"
            found = _given_difference(fast[key], value, f"{where}.{key}")
            if found:
                return found
        for key in fast.keys() - document.keys():
            if fast[key] is not None:
                return f"{where}.{key}: not given, but read as {fast[key]!r}"
        return None
    if isinstance(document, list):
        if not isinstance(fast, list) or len(fast) != len(document):
            return f"{where}: {fast!r} vs {document!r}"
        for i, (x, y) in enumerate(zip(fast, document, strict=True)):
            found = _given_difference(x, y, f"{where}[{i}]")
            if found:
                return found
        return None
    return _first_difference(fast, document, where)


def _reading_difference(model: object, fast: object, where: str = "$") -> str | None:
    """Walk a model and what the fast decoder read together: the same value in every field
    (the same enum members; ``type`` too), and ``UNSET`` only where the model's field was
    not given (the one field whose absence means something, ``thrown_in``)."""
    if isinstance(model, BaseModel):
        for name in type(model).model_fields:
            value = getattr(model, name)
            mirrored = getattr(fast, name, "no such field")
            if _unset(mirrored):
                if name in model.model_fields_set or value is not None:
                    return f"{where}.{name}: given, but read as UNSET"
                continue
            found = _reading_difference(value, mirrored, f"{where}.{name}")
            if found:
                return found
        return None
    if isinstance(model, dict):
        if not isinstance(fast, dict) or list(model) != list(fast):
            return f"{where}: {model!r} vs {fast!r}"
        for key, value in model.items():
            found = _reading_difference(value, fast[key], f"{where}.{key}")
            if found:
                return found
        return None
    if isinstance(model, list):
        if not isinstance(fast, list) or len(model) != len(fast):
            return f"{where}: {model!r} vs {fast!r}"
        for i, (x, y) in enumerate(zip(model, fast, strict=True)):
            found = _reading_difference(x, y, f"{where}[{i}]")
            if found:
                return found
        return None
    if isinstance(model, Enum):
        return None if model is fast else f"{where}: {model!r} vs {fast!r}"
    return _first_difference(model, fast, where)


def _models(data: bytes) -> MatchLog | None:
    try:
        return MatchLog.model_validate_json(data)
    except ValidationError:
        return None


def _strict_audit(match: MatchLike) -> AuditedMatch | Finding:
    try:
        return audit_match(match, strict=True)
    except AuditError as exc:
        return exc.finding


def assert_same_reading(data: bytes, document: Any) -> MatchLike:
    """``decode_match`` read the document: the models accept it and read it alike."""
    fast = decode_match(data)
    assert fast is not None
    model = _models(data)
    assert model is not None, "decode_match accepted a document the models refuse"
    assert fast.id and fast.id == model.id
    assert len(fast.players) == 4
    canonical = model.to_canonical()
    # the fast decoder is strict, so the models coerced nothing: they give back the document
    assert _first_difference(canonical, document) is None, _first_difference(canonical, document)
    builtins = msgspec.to_builtins(fast)
    assert _given_difference(builtins, document) is None, _given_difference(builtins, document)
    assert _reading_difference(model, fast) is None, _reading_difference(model, fast)
    assert fast.resolved_rules() == model.resolved_rules()
    assert fast.match_id == model.match_id
    assert audit_match(fast) == audit_match(model)
    record = parse_document_fast(data, "m.json", 3)
    assert record.match is not None and is_decoded(record.match)
    assert (record.source, record.line, record.match, record.problems) == ("m.json", 3, fast, ())
    return fast


def _same_record(slow: Record, fast: Record[Match]) -> str | None:
    """How a fast reader's record differs from the models' record (None: not at all)."""
    if (slow.source, slow.line, slow.ok) != (fast.source, fast.line, fast.ok):
        return f"{slow} vs {fast}"
    if slow.problems != fast.problems:
        return f"{[str(p) for p in slow.problems]} vs {[str(p) for p in fast.problems]}"
    if slow.match is None or fast.match is None:
        return None
    if is_decoded(fast.match):
        return _reading_difference(slow.match, fast.match)
    assert isinstance(fast.match, MatchLog)
    # by canonical JSON rather than ==: NaN, which the models accept, is not equal to itself
    found = _first_difference(slow.match.to_canonical(), fast.match.to_canonical())
    if found is None and slow.match.model_fields_set != fast.match.model_fields_set:
        return "different fields set"
    return found


def _standard_json(data: bytes) -> bool:
    try:
        orjson.loads(data)  # RFC 8259, 64-bit integers: no NaN, no Infinity
    except orjson.JSONDecodeError:
        return False
    return True


def why_left(data: bytes, document: Any, *, exact: bool = True) -> str:
    """Why ``decode_match`` left a document to the models: the reasons it documents.

    ``exact`` is False when the document does not say all the bytes say (duplicate keys).
    """
    model = _models(data)
    # whatever the reason, the fast reader then gives exactly what the models' reader gives
    for line in (None, 7):
        slow, fast = (
            parse_document(data, "m.jsonl", line),
            parse_document_fast(data, "m.jsonl", line),
        )
        assert _kind(fast) == "models"
        assert _same_record(slow, fast) is None, _same_record(slow, fast)
    if model is None:
        return "the models refuse it"
    if not model.id:
        return "no id"
    if not _standard_json(data):
        return "JSON beyond the standard (NaN, Infinity, a huge number)"
    if _first_difference(model.to_canonical(), document) is not None:
        return "a lax value the models coerce"
    if not exact:
        return "duplicate keys"
    raise AssertionError("a strict, valid document with an id was left to the models")


def check_document(data: bytes, document: Any, *, exact: bool = True) -> str:
    """Either the same reading, or one of the documented reasons to leave the document."""
    if decode_match(data) is not None:
        assert_same_reading(data, document)
        return "decoded"
    return why_left(data, document, exact=exact)


def _dumps(document: Any) -> bytes:
    return json.dumps(document).encode()


def example() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(
        (FIXTURES / "log_format_example.json").read_text(encoding="utf-8")
    )
    return document


# ------------------------------------------------------ 1. the structs made from models
class _Toy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class _Left(_Toy):
    type: Literal["left"] = "left"
    steps: Annotated[int, Field(ge=1, le=3)]


class _Right(_Toy):
    type: Literal["right"] = "right"
    reason: Annotated[str | None, LEFT_OUT_IS_NOT_NULL] = None


class _Walk(_Toy):
    name: str
    moves: list[Annotated[_Left | _Right, Field(discriminator="type")]]
    marks: Annotated[list[int], Field(min_length=2, max_length=3)] | None = None

    @field_validator("name")
    @classmethod
    def _not_blank(cls, name: str) -> str:
        if not name.strip():
            raise PydanticCustomError("name", "a blank name")
        return name


WALK: Final = Derived(_Walk)
WALKS: Final[tuple[dict[str, Any], ...]] = (
    {"name": "a", "moves": []},
    {"name": "a", "moves": [{"type": "left", "steps": 2}, {"type": "right"}]},
    {"name": "a", "moves": [{"type": "right", "reason": None}]},
    {"name": "a", "moves": [{"type": "right", "reason": "wall"}], "marks": [1, 2, 3]},
    {"name": "a", "moves": [{"type": "left", "steps": 4}]},  # above le
    {"name": "a", "moves": [{"type": "left", "steps": 0}]},  # below ge
    {"name": "a", "moves": [{"type": "left"}]},  # a required field left out
    {"name": "a", "moves": [{"type": "up"}]},  # no such tag
    {"name": "a", "moves": [{"type": "right", "steps": 1}]},  # another kind's field
    {"name": "a", "moves": [], "marks": [1]},  # too short
    {"name": "a", "moves": [], "marks": [1, 2, 3, 4]},  # too long
    {"name": "a", "moves": [], "marks": None},
    {"name": "a", "moves": [], "extra": 1},  # unknown field
    {"name": " ", "moves": []},  # the root's own check
    {"moves": []},
)


@pytest.mark.parametrize("document", WALKS, ids=json.dumps)
def test_a_struct_made_from_a_model_accepts_what_the_model_accepts(
    document: dict[str, Any],
) -> None:
    data = json.dumps(document).encode()
    try:
        model: _Walk | None = _Walk.model_validate_json(data, strict=True)
    except ValidationError:
        model = None
    try:
        struct: Any = msgspec.json.decode(data, type=WALK.root)
        for field, check in WALK.checks:
            check(getattr(struct, field))
    except (msgspec.ValidationError, ValueError):
        struct = None
    assert (struct is None) == (model is None)
    if model is not None:
        assert _reading_difference(model, struct) is None, _reading_difference(model, struct)


class _Loose(_Toy):
    model_config = ConfigDict(frozen=True, extra="allow")


class _Patterned(_Toy):
    code: Annotated[str, Field(pattern="^[A-Z]+$")]


class _Defaulted(_Toy):
    count: int = 0


class _Checked(_Toy):
    count: int

    @model_validator(mode="after")
    def _positive(self) -> _Checked:
        return self


class _Holder(_Toy):
    inner: _Walk  # a validator below the root


@pytest.mark.parametrize(
    ("model", "reason"),
    [
        (_Loose, "no extras"),
        (_Patterned, "no struct reading for _PydanticGeneralMetadata(pattern="),
        (_Defaulted, "fields that default to None"),
        (_Checked, "model validators"),
        (_Holder, "validators only on the root"),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_what_the_structs_cannot_follow_stops_the_import(
    model: type[BaseModel], reason: str
) -> None:
    with pytest.raises(SchemaError, match=re.escape(reason)):
        Derived(model)


def test_the_match_log_structs_are_made_from_its_models() -> None:
    decoded = decode_match(_dumps(example()))
    assert decoded is not None and is_decoded(decoded)
    assert type(decoded) is cast(type, STRUCTS[MatchLog])
    assert STRUCTS[Deal].__struct_config__.forbid_unknown_fields


def test_every_action_type_reads_alike() -> None:
    """One deal with an action of each type (the models take any order; the engine judges)."""
    document = example()
    required: dict[str, dict[str, Any]] = {"bid": {"value": 16}, "play": {"card": "JS"}}
    document["deals"] = [
        {
            "dealer": "N",
            "actions": [
                {"seat": "E", "type": kind, **required.get(kind, {})} for kind in ACTION_TYPES
            ],
        }
    ]
    data = _dumps(document)
    assert check_document(data, document) == "decoded"
    match = decode_match(data)
    assert match is not None
    assert [action.type for action in match.deals[0].actions] == list(ACTION_TYPES)
    [played] = [action for action in match.deals[0].actions if action.type == "play"]
    assert played.type == "play"
    assert played.card is PlayAction(seat="N", card="JS").card


# ---------------------------------------------------------------------- 2. sample logs
def _sample_documents() -> Iterator[tuple[str, bytes]]:
    for path in sorted(SAMPLES.rglob("*.json*")):
        if path.suffix not in (".json", ".jsonl"):
            continue
        data = path.read_bytes()
        if detect_format(path, data[:65536]) != "canonical":
            continue
        if path.suffix == ".json":
            yield str(path.relative_to(ROOT)), data
            continue
        for number, line in enumerate(data.splitlines(), 1):
            if line.strip():
                yield f"{path.relative_to(ROOT)}:{number}", line


def test_every_sample_log_reads_and_audits_alike() -> None:
    outcomes: dict[str, str] = {}
    for name, data in _sample_documents():
        outcomes[name] = check_document(data, orjson.loads(data))
    assert any(name.startswith("sample_logs/bad/") for name in outcomes)
    assert any(".jsonl:" in name for name in outcomes)
    assert len(outcomes) >= 80
    # the samples are written by the canonical writer, every one with an id
    assert set(outcomes.values()) == {"decoded"}, {
        k: v for k, v in outcomes.items() if v != "decoded"
    }


# ------------------------------------------------------------- 3. random legal matches
VARIANTS = RULE_VARIANTS
variant_names = st.sampled_from(sorted(VARIANTS))


def _replayed_step_by_step(rules: Rules, deal: DealLike) -> list[object]:
    state = DealState(rules, deal.dealer, deal.hands)
    steps: list[object] = [state.apply(action) for action in deal.actions]
    steps.append(state.result())
    return steps


def _check_engine_alike(data: bytes, original: MatchLog) -> None:
    fast = assert_same_reading(data, orjson.loads(data))
    model = MatchLog.model_validate_json(data)
    assert model == original
    assert audit_match(fast) == audit_match(original)
    assert _strict_audit(fast) == _strict_audit(model)
    other = Rules.preset("standard")
    assert audit_match(fast, other) == audit_match(model, other)
    rules = model.resolved_rules()
    for ours, theirs in zip(fast.deals, model.deals, strict=True):
        assert _replayed_step_by_step(rules, ours) == _replayed_step_by_step(rules, theirs)


@settings(max_examples=40, deadline=None)
@given(variant_names, st.integers(0, 2**32), st.booleans())
def test_random_matches_decode_and_audit_alike(name: str, seed: int, sort_keys: bool) -> None:
    log = random_match(VARIANTS[name], seed, max_deals=6)
    assert log.id
    data = log.canonical_json() if sort_keys else log.model_dump_json(exclude_unset=True).encode()
    _check_engine_alike(data, log)


@settings(max_examples=25, deadline=None)
@given(variant_names, st.integers(0, 2**32), st.sampled_from([0.5, 1.0]))
def test_matches_with_injected_breaches_give_the_same_findings(
    name: str, seed: int, rate: float
) -> None:
    [log] = simulate_matches(VARIANTS[name], 1, seed, inject_rate=rate, notes=True, max_deals=5)
    assert log.meta is not None
    assume(log.meta["injected"])
    data = log.canonical_json()
    _check_engine_alike(data, log)
    fast = decode_match(data)
    assert fast is not None
    findings = audit_match(fast).findings
    assert findings == audit_match(log).findings
    assert any(f.severity == "error" for f in findings)


# -------------------------------------------------------------------- 4. mutations
@cache
def _random_document(name: str, seed: int) -> bytes:
    return random_match(VARIANTS[name], seed, max_deals=2).canonical_json()


base_documents = st.one_of(
    st.tuples(variant_names, st.integers(0, 50)).map(
        lambda pair: orjson.loads(_random_document(*pair))
    ),
    st.tuples(match_documents, st.text(min_size=1, max_size=8)).map(
        # through JSON: the strategies give enum members for seats and suits
        lambda pair: json.loads(json.dumps({**pair[0], "id": pair[0].get("id") or pair[1]}))
    ),
    st.builds(example),
)

_scalars: Final = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 40),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from(["", "N", "JS", "bid", "pagat", "NS", "15"]),
)
JSON_VALUES: Final[dict[str, st.SearchStrategy[Any]]] = {
    "null": st.none(),
    "bool": st.booleans(),
    "int": st.one_of(
        st.integers(-100, 100), st.sampled_from([2**31, 2**63, 2**64, -(2**63) - 1, 10**30])
    ),
    "float": st.one_of(
        st.sampled_from([15.0, 1.0, 0.0, -0.0, 0.5, 1e300]),
        st.floats(allow_nan=False, allow_infinity=False),
    ),
    "str": st.one_of(
        st.sampled_from(["", "N", "E", "NS", "JS", "TH", "bid", "play", "pagat", "15", "1"]),
        st.text(max_size=6),
    ),
    "list": st.one_of(
        st.lists(_scalars, max_size=3), st.sampled_from([["JS"] * 8, [None] * 8, ["E"]])
    ),
    "object": st.dictionaries(
        st.sampled_from(["seat", "type", "value", "N", "name", "id", "NS", "EW", "preset"])
        | st.text(max_size=4),
        _scalars,
        max_size=3,
    ),
}
any_json = st.one_of(*JSON_VALUES.values())
BAD_CARDS: Final = ("XS", "js", "10S", "1S", "J", "JSS", "", " JS", "JS ", "jS", "SJ", "JX")
BAD_RULES: Final = (
    "nosuch",
    "PAGAT",
    "",
    {"preset": "nosuch"},
    {"min_bid": 16},
    {"preset": 5},
    {"preset": "pagat", "min_bid": 30},
    {"preset": "pagat", "no_such_option": 1},
    {"preset": "pagat", "set_": True},
    {"preset": "pagat", "min_bid": "16"},  # lax, but inside the free ``rules`` object
    {"preset": "pagat", "min_bid": 16.0},
    {"preset": "pagat", "double": "yes"},
    {"preset": "bhoos", "direction": "clockwise"},
    ["pagat"],
    17,
)

JsonPath = tuple[str | int, ...]


def _walk(node: Any, prefix: JsonPath = ()) -> Iterator[tuple[JsonPath, Any]]:
    yield prefix, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _walk(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, (*prefix, i))


def _parent(document: Any, path: JsonPath) -> Any:
    node = document
    for part in path[:-1]:
        node = node[part]
    return node


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    names = {bool: "bool", int: "int", float: "float", str: "str", list: "list", dict: "object"}
    return names[type(value)]


@st.composite
def mutations(draw: st.DrawFn) -> tuple[str, Any]:
    """A valid document with one random mutation, and the mutation's name."""
    document = copy.deepcopy(draw(base_documents))
    nodes = list(_walk(document))
    eligible: dict[str, list[JsonPath]] = {
        "delete key": [p for p, _ in nodes if p and isinstance(p[-1], str)],
        "delete item": [p for p, _ in nodes if p and isinstance(p[-1], int)],
        "unknown key": [p for p, v in nodes if isinstance(v, dict)],
        "other type": [p for p, _ in nodes if p],
        "int to numeric string": [p for p, v in nodes if type(v) is int],
        "int to float": [p for p, v in nodes if type(v) is int],
        "bad card": [p for p, v in nodes if isinstance(v, str) and v in CARD_TEXTS],
        "short hand": [
            p for p, v in nodes if len(p) == 4 and p[2] == "hands" and isinstance(v, list)
        ],
        "drop seat": [p for p, _ in nodes if len(p) == 2 and p[0] == "players"],
        "bad rules": [("rules",)],
        "other action type": [p for p, _ in nodes if len(p) == 5 and p[-1] == "type"],
        "version": [("version",)],
        "id": [("id",)],
        "nothing": [()],
    }
    kind = draw(st.sampled_from(sorted(k for k, paths in eligible.items() if paths)))
    path = draw(st.sampled_from(eligible[kind]))
    if kind == "nothing":
        return kind, document
    if kind == "unknown key":
        target = _parent(document, (*path, "")) if path else document
        name = draw(
            st.sampled_from(["extra", "Type", "seat ", "_", "preset"]) | st.text(max_size=5)
        )
        while name in target:
            name += "_"
        target[name] = draw(any_json)
        return kind, document
    parent = _parent(document, path)
    key = path[-1]
    if kind in ("delete key", "delete item", "drop seat"):
        del parent[key]
    elif kind == "other type":
        was = _json_type(parent[key])
        new_type = draw(st.sampled_from(sorted(t for t in JSON_VALUES if t != was)))
        parent[key] = draw(JSON_VALUES[new_type])
    elif kind == "int to numeric string":
        parent[key] = str(parent[key])
    elif kind == "int to float":
        parent[key] = float(parent[key])
    elif kind == "bad card":
        parent[key] = draw(
            st.sampled_from(BAD_CARDS) | st.text(max_size=3).filter(lambda t: t not in CARD_TEXTS)
        )
    elif kind == "short hand":
        hand = parent[key]
        del hand[draw(st.integers(0, len(hand) - 1))]
    elif kind == "bad rules":
        parent[key] = copy.deepcopy(draw(st.sampled_from(BAD_RULES)))
    elif kind == "other action type":
        parent[key] = draw(st.sampled_from([*ACTION_TYPES, "Bid", "", "show_trump"]))
    elif kind == "version":
        parent[key] = draw(st.sampled_from([2, 0, "1", 1.0, True, None]))
    elif kind == "id":
        parent[key] = draw(st.sampled_from(["", None, 5, "x", ["m"]]))
    return kind, document


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutations())
def test_a_mutated_document_is_read_alike_or_left_to_the_models(
    mutation: tuple[str, Any],
) -> None:
    kind, document = mutation
    data = _dumps(document)
    outcome = check_document(data, document)
    event(f"{kind}: {outcome}")


LAX_EDITS: Final[dict[str, Callable[[dict[str, Any]], None]]] = {
    'bid value "16"': lambda d: d["deals"][0]["actions"][0].update(value="16"),
    "bid value 16.0": lambda d: d["deals"][0]["actions"][0].update(value=16.0),
    'time "120"': lambda d: d["deals"][0]["actions"][0].update(t="120"),
    "version true": lambda d: d.update(version=True),
    "version 1.0": lambda d: d.update(version=1.0),
    'score "1"': lambda d: d.update(result={"score": {"NS": "1", "EW": 0}}),
    "seventh 1": lambda d: d["deals"][0]["actions"][6].update(seventh=1),
    'seventh "false"': lambda d: d["deals"][0]["actions"][6].update(seventh="false"),
}


@pytest.mark.parametrize("name", sorted(LAX_EDITS))
def test_lax_input_goes_to_the_models_and_reads_as_they_read_it(name: str) -> None:
    strict = example()
    assert strict["deals"][0]["actions"][0]["type"] == "bid"
    assert strict["deals"][0]["actions"][6]["type"] == "trump"
    if name.startswith("score"):
        strict["result"] = {"score": {"NS": 1, "EW": 0}}
    if name.startswith("time"):
        strict["deals"][0]["actions"][0]["t"] = 120
    if name.startswith("seventh"):
        strict["deals"][0]["actions"][6]["seventh"] = name.endswith("1")
    lax = copy.deepcopy(strict)
    LAX_EDITS[name](lax)
    data = _dumps(lax)
    assert decode_match(_dumps(strict)) is not None
    assert decode_match(data) is None  # the documented direction: the fast decoder is stricter
    model = MatchLog.model_validate_json(data)  # ... and the models accept it
    assert _first_difference(model.to_canonical(), lax) is not None
    assert why_left(data, lax) == "a lax value the models coerce"
    fast_record = parse_document_fast(data, "lax.json", None)
    assert _kind(fast_record) == "models"
    assert fast_record == parse_document(data, "lax.json", None)
    assert isinstance(fast_record.match, MatchLog)
    # the models read the lax document as the strict one
    strict_model = MatchLog.model_validate_json(_dumps(strict))
    assert fast_record.match.to_canonical() == strict_model.to_canonical()
    assert audit_match(fast_record.match) == audit_match(strict_model)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('"value": 16', '"value": 20, "value": 16'),
        ('"value": 16', '"value": "x", "value": 16'),
        ('"value": 16', '"value": 16, "value": "x"'),
        ('"type": "bid"', '"type": "pass", "type": "bid"'),
        ('"type": "bid"', '"type": "bid", "type": "bid"'),
        ('"seat": "W"', '"seat": "E", "seat": "W"'),
        ('"id": "club-2026-11-29-t3"', '"id": "", "id": "club-2026-11-29-t3"'),
        ('"id": "club-2026-11-29-t3"', '"id": "club-2026-11-29-t3", "id": ""'),
        ('"rules": {', '"rules": "nosuch", "rules": {'),
        ('"N": "Rahim"', '"N": 5, "N": "Rahim"'),
        ('"N": "Rahim"', '"N": "Someone", "N": "Rahim"'),
        ('"E": "Karim"', '"N": "Karim"'),
        ('"version": 1', '"version": 2, "version": 1'),
        ('"deals": [', '"deals": [], "deals": ['),
        ('"set": true', '"set": false, "set": true'),
    ],
)
def test_duplicate_keys_are_read_alike(old: str, new: str) -> None:
    text = json.dumps(example())
    assert old in text
    data = text.replace(old, new, 1).encode()
    document = json.loads(data)  # the last of a duplicate key wins, for every reader
    check_document(data, document, exact=False)


BYTE_EDITS: Final[dict[str, bytes]] = {
    "byte order mark": b"\xef\xbb\xbf{}",
    "invalid UTF-8 in a note": b'"note": "\xff"',
    "lone surrogate": b'"note": "\\ud800"',
    "NUL escape": b'"note": "a\\u0000b"',
    "NaN in meta": b'"meta": {"x": NaN}',
    "huge float in meta": b'"meta": {"x": 1e400}',
    "huge int": b'"value": ' + b"9" * 4301,
    "big int": b'"value": 18446744073709551616',
    "trailing garbage": b"}} x",
}


@pytest.mark.parametrize("name", sorted(BYTE_EDITS))
def test_unusual_json_is_read_alike(name: str) -> None:
    text = json.dumps(example()).encode()
    edit = BYTE_EDITS[name]
    if name == "byte order mark":
        data = b"\xef\xbb\xbf" + text
    elif name == "trailing garbage":
        data = text + b" x"
    elif edit.startswith(b'"value"'):
        data = text.replace(b'"value": 16', edit, 1)
    elif edit.startswith(b'"meta"'):
        data = text.replace(b'"deals"', edit + b', "deals"', 1)
    else:
        data = text.replace(b'"note": "probing spades"', edit, 1)
    assert data != text
    try:
        document = json.loads(data)
    except ValueError:
        document = None
    check_document(data, document)


def _all_pass(result: dict[str, Any]) -> bytes:
    deal = {
        "dealer": "N",
        "actions": [{"seat": s, "type": "pass"} for s in ("W", "S", "E")],
        "result": result,
    }
    return _document(rules="bangladesh", deals=[deal])


@pytest.mark.parametrize(
    "result",
    [
        {"points": {"NS": 0, "EW": 0}},  # thrown in, the result silent about it
        {"points": {"NS": 0, "EW": 0}, "thrown_in": None},  # ... saying "played out"
        {"points": {"NS": 0, "EW": 0}, "thrown_in": "all_pass"},
        {"thrown_in": "all passed"},
        {"score": {"NS": 0, "EW": 0}},
    ],
)
def test_a_result_that_leaves_out_thrown_in_is_not_one_that_gives_null(
    result: dict[str, Any],
) -> None:
    data = _all_pass(result)
    assert check_document(data, orjson.loads(data)) == "decoded"
    fast = decode_match(data)
    assert fast is not None
    codes = [f.code for f in audit_match(fast).findings]
    assert ("THROWN_IN_MISMATCH" in codes) == ("thrown_in" in result and not result["thrown_in"])


def _deep_meta(depth: int) -> bytes:
    document = example()
    document["meta"] = {"x": "HOLE"}
    return _dumps(document).replace(b'"HOLE"', b"[" * depth + b"]" * depth)


@pytest.mark.parametrize("depth", [198, 199, 200, 201, 250])
def test_meta_nested_as_deep_as_the_models_read_is_read_alike(depth: int) -> None:
    """pydantic's parser stops at 200 levels (the document counts); msgspec has no limit."""
    data = _deep_meta(depth)
    models = _models(data)
    fast = decode_match(data)
    assert (models is None) == (depth >= 200)  # {"x": [...]} : meta + depth-1 non-empty lists
    assert (fast is None) == (models is None)


def test_very_deep_nesting_is_a_problem_not_a_crash() -> None:
    good = _dumps(example())
    data = good + b"\n" + _deep_meta(1000) + b"\n" + good + b"\n"
    assert _same_records(data, "jsonl") == 3


# ----------------------------------------------------------- 5. readers and problems
def _same_records(data: bytes, layout: Layout) -> int:
    slow = list(read_stream(io.BytesIO(data), "in.jsonl", layout))
    fast = list(read_stream_fast(io.BytesIO(data), "in.jsonl", layout))
    assert len(slow) == len(fast), (slow, fast)
    for ours, theirs in zip(slow, fast, strict=True):
        assert _same_record(ours, theirs) is None, _same_record(ours, theirs)
    return len(slow)


def _document(**changes: Any) -> bytes:
    document = example()
    for key, value in changes.items():
        if value is ...:
            del document[key]
        else:
            document[key] = value
    return _dumps(document)


GOOD: Final = _document()
BAD_INPUTS: Final[dict[str, bytes]] = {
    "empty": b"",
    "blank lines": b"\n  \n\t\n",
    "not JSON": b"{",
    "bad JSON in the middle": b'{"format": "twentynine.match",\n  "version": 1,\n  oops\n}',
    "an array": b"[]",
    "null": b"null",
    "a number": b"42",
    "a string": b'"x"',
    "empty object": b"{}",
    "missing players": _document(players=...),
    "missing deals": _document(deals=...),
    "wrong format": _document(format="other"),
    "version 2": _document(version=2),
    "deals not a list": _document(deals={}),
    "players a list": _document(players=["a", "b", "c", "d"]),
    "a seat missing": _document(players={"N": "a", "E": "b", "S": "c"}),
    "a bad player": _document(players={"N": 1, "E": "b", "S": "c", "W": {"name": "d"}}),
    "unknown preset": _document(rules="nosuch"),
    "bad override": _document(rules={"preset": "pagat", "min_bid": 99}),
    "unknown field": _document(extra=1),
    "no id": _document(id=...),
    "empty id": _document(id=""),
    "lax value": _document(version=True),
    "bad card": GOOD.replace(b'"card": "AS"', b'"card": "XS"'),
    "unknown action": GOOD.replace(b'"type": "pass"', b'"type": "fold"'),
    "action without type": GOOD.replace(b', "type": "pass"', b"", 1),
    "short hand": GOOD.replace(b'["JH", "9H", ', b'["9H", '),
    "jsonl with blanks": GOOD + b"\n\n" + _document(id=...) + b"\n   \n{\n" + GOOD + b"\n",
    "jsonl with CRLF": GOOD + b"\r\n\r\n" + GOOD.replace(b"AS", b"XS") + b"\r\n",
    "leading blank lines": b"\n\n" + GOOD + b"\n" + GOOD,
    "pretty document": json.dumps(example(), indent=2).encode(),
    "pretty bad document": json.dumps(example(), indent=2).replace('"W"', "W", 1).encode(),
    "trailing garbage": GOOD + b" x",
    "byte order mark": b"\xef\xbb\xbf" + GOOD,
    "invalid UTF-8": GOOD.replace(b"Rahim", b"Rah\xffim"),
}


@pytest.mark.parametrize("layout", ["json", "jsonl", "auto"])
@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_fast_readers_give_the_same_records_and_problems(name: str, layout: Layout) -> None:
    data = BAD_INPUTS[name]
    count = _same_records(data, layout)
    assert count >= (0 if layout == "jsonl" else 1)
    for source, line in (("x.json", None), ("x.jsonl", 4)):
        slow, fast = parse_document(data, source, line), parse_document_fast(data, source, line)
        assert _same_record(slow, fast) is None, _same_record(slow, fast)


def test_bad_inputs_do_give_problems_and_line_numbers() -> None:
    # guards the comparison above against reading nothing at all
    records = list(read_stream_fast(io.BytesIO(BAD_INPUTS["jsonl with blanks"]), "x", "auto"))
    assert [(r.line, _kind(r), r.ok) for r in records] == [
        (1, "decoded", True),
        (3, "models", True),
        (5, "models", False),
        (6, "decoded", True),
    ]
    data = BAD_INPUTS["pretty bad document"]
    [pretty] = list(read_stream_fast(io.BytesIO(data), "x"))
    broken = 1 + next(
        i for i, line in enumerate(data.splitlines()) if line.strip().startswith(b"W")
    )
    assert [p.line for p in pretty.problems] == [broken]


# ------------------------------------------------------------------------ 6. the CLI
def _expected_audit(paths: list[str], output: Literal["text", "json"]) -> tuple[str, str, int]:
    """What ``twentynine audit`` must print: the models' reading (read_any) of every file."""
    out: list[str] = []
    err: list[str] = []
    files: set[str] = set()
    matches = deals = errors = warnings = unreadable = 0
    for file in expand_inputs(paths):
        for record in read_any(file):
            files.add(str(file))
            if record.match is None:
                unreadable += 1
                for problem in record.problems:
                    if output == "text":
                        err.append(error_line(str(problem)))
                        continue
                    message = f"{problem.path}: {problem.reason}" if problem.path else None
                    row: dict[str, object] = {
                        "file": problem.source,
                        "line": problem.line,
                        "match": None,
                        "deal": None,
                        "action": None,
                        "code": "INVALID_INPUT",
                        "severity": "error",
                        "message": message or problem.reason,
                    }
                    out.append(orjson.dumps(row).decode())
                continue
            audited = audit_match(record.match)
            matches += 1
            deals += len(record.match.deals)
            for finding in audited.findings:
                errors += finding.severity == "error"
                warnings += finding.severity != "error"
                line = record.line_of(finding.deal, finding.action)  # .29: the card's line
                if output == "json":
                    row = {
                        "file": record.source,
                        "line": line,
                        "match": audited.match_id,
                        **finding.to_dict(),
                    }
                    out.append(orjson.dumps(row).decode())
                    continue
                where = record.source if line is None else f"{record.source}:{line}"
                deal = "-" if finding.deal is None else finding.deal
                action = "-" if finding.action is None else finding.action
                out.append(f"{where}:{deal}:{action}: {finding.code} {finding.message}")
    summary = (
        f"{plural(len(files), 'file')}, {plural(matches, 'match')}, {plural(deals, 'deal')}: "
        f"{plural(errors, 'error')}, {plural(warnings, 'warning')}"
    )
    if unreadable:
        summary += f", {plural(unreadable, 'unreadable document')}"
    (out if output == "text" else err).append(summary)
    code = 2 if unreadable else 1 if errors else 0
    return "".join(line + "\n" for line in out), "".join(line + "\n" for line in err), code


def _check_cli(paths: list[str]) -> None:
    for output in ("text", "json"):
        result = runner.invoke(app, ["audit", *paths, "--format", output])
        stdout, stderr, code = _expected_audit(paths, output)
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert result.stdout.splitlines() == stdout.splitlines()
        assert result.stderr.splitlines() == stderr.splitlines()
        assert result.exit_code == code


def test_cli_audit_of_the_sample_logs_is_the_models_audit() -> None:
    fast = [r for f in expand_inputs([str(SAMPLES)]) for r in read_for_audit(f)]
    assert sum(_kind(r) == "decoded" for r in fast) >= 80  # the fast path is taken
    _check_cli([str(SAMPLES)])


def test_cli_audit_of_mixed_input_is_the_models_audit(tmp_path: Path) -> None:
    [injected] = simulate_matches(Rules.preset("pagat"), 1, 3, inject_rate=0.5, max_deals=4)
    lines = [
        injected.canonical_json(),
        b"",
        _document(version=True),  # lax: the models coerce it
        _document(id=...),  # no id: the content hash is its id
        BAD_INPUTS["bad card"],
        b"{",
        _document(players={"N": "a", "E": "b", "S": "c"}),
        GOOD,
    ]
    (tmp_path / "mixed.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    (tmp_path / "pretty.json").write_bytes(BAD_INPUTS["pretty bad document"])
    (tmp_path / "good.json").write_bytes(random_match(Rules.preset("bhoos"), 5).canonical_json())
    records = list(read_for_audit(tmp_path / "mixed.jsonl"))
    assert [_kind(r) for r in records] == [
        "decoded",
        "models",
        "models",
        "models",
        "models",
        "models",
        "decoded",
    ]
    _check_cli([str(tmp_path)])
    _check_cli([str(tmp_path / "good.json")])


def test_the_comparisons_are_exact() -> None:
    # the helpers compare JSON values by type and exact value, so a drift cannot hide
    assert _first_difference(1, 1.0) is not None
    assert _first_difference(1, True) is not None
    assert _first_difference(0.0, -0.0) is not None
    assert _first_difference({"a": [1, None]}, {"a": [1, None]}) is None
    assert _given_difference({"a": 1, "b": None}, {"a": 1}) is None
    assert _given_difference({"a": 1, "b": 0}, {"a": 1}) is not None
