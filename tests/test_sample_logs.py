"""The sample logs: good ones audit clean, bad ones give their golden findings, all regenerate."""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from twentynine.replay.audit import audit_match
from twentynine.replay.inject import KINDS
from twentynine.schema import PRESET_NAMES, MatchLog

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"
BAD = sorted(p.stem for p in (SAMPLES / "bad").glob("*.json"))


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_samples", SAMPLES / "make_samples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_samples = load_script()


def read(path: Path) -> MatchLog:
    return MatchLog.model_validate_json(path.read_bytes())


def golden(name: str) -> list[dict[str, Any]]:
    text = (SAMPLES / "bad" / f"{name}.expected").read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def findings(match: MatchLog) -> list[dict[str, Any]]:
    return [f.to_dict() for f in audit_match(match).findings]


def without_message(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(r["deal"], r["action"], r["code"], r["severity"]) for r in rows]


# ---------------------------------------------------------------------------- good samples
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_preset_sample_is_a_complete_clean_match(preset: str) -> None:
    match = read(SAMPLES / f"{preset}.json")
    audited = audit_match(match)
    assert audited.findings == ()
    assert match.rules == preset
    assert match.result is not None and match.result.winner is not None
    assert audited.winner == match.result.winner
    assert match.meta is not None and match.meta["source"] == "sample_logs/make_samples.py"
    assert len(set(match.players.values())) == 4
    notes = [a.note for d in match.deals for a in d.actions if a.note]
    assert 1 <= len(notes) <= 40


def test_preset_samples_show_the_rules_at_work() -> None:
    seen: dict[str, Counter[str]] = {}
    for preset in PRESET_NAMES:
        match = read(SAMPLES / f"{preset}.json")
        kinds: Counter[str] = Counter(a.type for d in match.deals for a in d.actions)
        kinds["seventh"] = sum(
            1 for d in match.deals for a in d.actions if a.type == "trump" and a.seventh
        )
        seen[preset] = kinds
    for preset in ("bangladesh", "standard"):
        for kind in ("seventh", "double", "single_hand", "pair"):
            assert seen[preset][kind], (preset, kind)
    assert seen["bangladesh"]["ditto"] and seen["bhoos"]["ditto"]
    assert seen["pagat"]["pair"] and seen["classic29"]["pair"]


def test_league_has_eight_players_in_rotating_partnerships() -> None:
    lines = (SAMPLES / "league.jsonl").read_bytes().splitlines()
    deals = 0
    partners: Counter[frozenset[str]] = Counter()
    names: set[str] = set()
    found = 0
    for line in lines:
        match = MatchLog.model_validate_json(line)
        deals += len(match.deals)
        players = {seat.value: str(name) for seat, name in match.players.items()}
        names |= set(players.values())
        partners[frozenset((players["N"], players["S"]))] += 1
        partners[frozenset((players["E"], players["W"]))] += 1
        found += len(audit_match(match).findings)
    assert deals >= 2000
    assert len(names) == 8
    assert len(partners) == 28  # every pair of the eight has partnered
    assert found == 0
    assert len(b"\n".join(lines)) < 5_000_000


# ---------------------------------------------------------------------------- bad samples
def test_every_kind_and_every_hand_made_case_has_a_bad_sample() -> None:
    assert set(KINDS) | {"mixed", *make_samples.HAND_MADE} == set(BAD)
    for name in BAD:
        assert (SAMPLES / "bad" / f"{name}.expected").exists()


@pytest.mark.parametrize("name", BAD)
def test_bad_sample_gives_exactly_its_golden_findings(name: str) -> None:
    match = read(SAMPLES / "bad" / f"{name}.json")
    assert without_message(findings(match)) == without_message(golden(name))


@pytest.mark.parametrize("name", BAD)
def test_bad_sample_messages_match_the_golden_file(name: str) -> None:
    match = read(SAMPLES / "bad" / f"{name}.json")
    assert [r["message"] for r in findings(match)] == [r["message"] for r in golden(name)]


@pytest.mark.parametrize("name", [n for n in BAD if not n.startswith("hand_")])
def test_injected_breaches_are_the_first_error_of_their_deal(name: str) -> None:
    match = read(SAMPLES / "bad" / f"{name}.json")
    assert match.meta is not None
    injected = match.meta["injected"]
    assert injected, "a bad sample without a breach"
    rows = golden(name)
    for entry in injected:
        first = next(r for r in rows if r["deal"] == entry["deal"] and r["severity"] == "error")
        assert (first["action"], first["code"]) == (entry["action"], KINDS[entry["kind"]])
    marked = {entry["deal"] for entry in injected}
    assert {r["deal"] for r in rows if r["severity"] == "error"} <= marked | {None}


# ---------------------------------------------------------------------------- regeneration
def test_preset_samples_regenerate_byte_for_byte() -> None:
    for name, data in make_samples.preset_files().items():
        assert (SAMPLES / name).read_bytes() == data, name


def test_bad_samples_regenerate_byte_for_byte() -> None:
    for name, data in make_samples.bad_files().items():
        assert (SAMPLES / name).read_bytes() == data, name


def test_league_regenerates_first_and_last_match() -> None:
    lines = (SAMPLES / "league.jsonl").read_bytes().splitlines(keepends=True)
    assert len(lines) == make_samples.LEAGUE_MATCHES
    assert lines[0] == make_samples.line_bytes(make_samples.league_match(0))
    last = len(lines) - 1
    assert lines[last] == make_samples.line_bytes(make_samples.league_match(last))
