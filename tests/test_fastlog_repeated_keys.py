"""The fast decoder never takes a document that gives a key twice: at any depth, whatever the
dropped value (null, the same value, a string with colons), wherever the repeat stands.

The models refuse such a document (``schema.log.repeated_key``); the fast decoder counts colons
to tell, cheaply, a document that surely repeats no key (``schema.fastlog._may_repeat_keys``)
and leaves every other one to the exact check."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from twentynine.importers.canonical import parse_document
from twentynine.schema.fastlog import _expected_colons, decode_match
from twentynine.schema.log import MatchLog

ROOT = Path(__file__).resolve().parent.parent
PAGAT: dict[str, Any] = json.loads((ROOT / "sample_logs" / "pagat.json").read_bytes())


def _document(text: str) -> dict[str, Any]:
    """Two deals of the pagat sample with every kind of object a log holds: rules overrides,
    a player object, meta with nested values, hands, times and notes, a trump with its
    fields, deal and match results; ``text`` in the free text (a note, meta, a name)."""
    doc = copy.deepcopy(PAGAT)
    doc["deals"] = doc["deals"][:2]
    doc["rules"] = {"preset": "pagat", "min_bid": 15}
    doc["players"]["W"] = {"name": f"Anne {text}", "id": "p-4"}
    doc["meta"] = {"when": text, "tags": ["x", {"deep": None, "n": 1}], "none": None}
    first = doc["deals"][0]["actions"]
    first[0]["t"] = 1200
    first[1]["note"] = text
    for action in first:
        if action["type"] == "trump":
            action["seventh"] = False
    doc["deals"][1]["result"]["thrown_in"] = None
    assert MatchLog.model_validate(doc).id == doc["id"]
    return doc


# Plain text; colons in strings (still told by counting); escapes (left to the exact check)
DOCUMENTS = (_document("at ten"), _document("at 10:30"), _document('"ok": caf\u00e9'))


def _objects(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths of every non-empty object in a JSON value, the document's own first."""
    found: list[tuple[Any, ...]] = []
    if isinstance(value, dict):
        if value:
            found.append(path)
        for key, item in value.items():
            found += _objects(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _objects(item, (*path, i))
    return found


def _write(value: Any, target: tuple[Any, ...], repeat: tuple[str, str, bool], spaced: bool) -> str:
    """JSON text of ``value``; the object at ``target`` gives key ``repeat[0]`` a second time,
    with the JSON text ``repeat[1]`` as the dropped value, before the kept one if ``repeat[2]``
    (the kept one is the first otherwise)."""
    colon, comma = (" : ", ",\n ") if spaced else (":", ",")

    def walk(item: Any, path: tuple[Any, ...]) -> str:
        if isinstance(item, dict):
            members = [f"{json.dumps(k)}{colon}{walk(v, (*path, k))}" for k, v in item.items()]
            if path == target:
                key, dropped, before = repeat
                extra = f"{json.dumps(key)}{colon}{dropped}"
                kept = next(i for i, k in enumerate(item) if k == key)
                members.insert(kept if before else kept + 1, extra)
            return "{" + comma.join(members) + "}"
        if isinstance(item, list):
            return "[" + comma.join(walk(v, (*path, i)) for i, v in enumerate(item)) + "]"
        return json.dumps(item)

    return walk(value, ())


@st.composite
def repeated(draw: st.DrawFn) -> tuple[bytes, str]:
    """A document of :data:`DOCUMENTS` with one key given twice, and the key."""
    doc = draw(st.sampled_from(DOCUMENTS))
    target = draw(st.sampled_from(_objects(doc)))
    holder: Any = doc
    for step in target:
        holder = holder[step]
    key = draw(st.sampled_from(sorted(holder)))
    kept = json.dumps(holder[key])
    dropped = draw(st.sampled_from([kept, "null", '"a: b"', "7", "[]", "{}", '{"k": null}']))
    before = draw(st.booleans())
    spaced = draw(st.booleans())
    return _write(doc, target, (key, dropped, before), spaced).encode(), key


@settings(max_examples=400, deadline=None)
@given(repeated())
def test_a_repeated_key_at_any_depth_is_left_to_the_models(case: tuple[bytes, str]) -> None:
    data, key = case
    assert decode_match(data) is None
    record = parse_document(data, "m.jsonl", 1, fast=True)
    assert record.match is None
    assert [p.reason for p in record.problems] == [f"the key {key!r} appears twice in one object"]


def test_every_kind_of_object_is_drawn() -> None:
    """The strategy reaches each kind of object a log holds."""
    paths = set(_objects(DOCUMENTS[0]))
    expected = {
        (),
        ("rules",),
        ("players",),
        ("players", "W"),
        ("meta",),
        ("meta", "tags", 1),
        ("deals", 0),
        ("deals", 0, "hands"),
        ("deals", 0, "actions", 0),
        ("deals", 0, "result"),
        ("deals", 0, "result", "points"),
        ("result",),
        ("result", "score"),
    }
    assert expected <= paths


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(DOCUMENTS), st.booleans())
def test_the_same_documents_without_a_repeat_stay_on_the_fast_path(
    doc: dict[str, Any], spaced: bool
) -> None:
    """Written the same way with no key repeated, each document is decoded as the models
    read it, with as many colons as its structs account for (where it has no backslash,
    that count alone lets it through)."""
    data = _write(doc, ("no such object",), ("", "", False), spaced).encode()
    match = decode_match(data)
    assert match is not None
    assert _expected_colons(match) == data.count(b":")
    assert match.id == MatchLog.model_validate_json(data).id
    assert len(match.deals[0].actions) == len(doc["deals"][0]["actions"])
