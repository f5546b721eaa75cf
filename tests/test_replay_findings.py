"""The findings catalogue: stable codes, documented in docs/findings.md, all in use."""

from __future__ import annotations

import re
from pathlib import Path

from twentynine.replay import CATALOGUE, Finding
from twentynine.replay.findings import catalogue_markdown, make_finding

ROOT = Path(__file__).resolve().parent.parent


def test_docs_findings_is_the_catalogue() -> None:
    text = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    assert text == catalogue_markdown(), "regenerate docs/findings.md from catalogue_markdown()"
    for code in CATALOGUE:
        assert f"## {code}\n" in text


def test_every_code_is_used_and_every_used_code_is_known() -> None:
    source = "".join(
        (ROOT / "replay" / name).read_text(encoding="utf-8") for name in ("deal.py", "audit.py")
    )
    used = set(re.findall(r'"([A-Z][A-Z_]{3,})"', source)) - {"NS", "EW"}
    assert used == set(CATALOGUE)


def test_codes_are_upper_snake_with_a_severity() -> None:
    for code, entry in CATALOGUE.items():
        assert re.fullmatch(r"[A-Z]+(_[A-Z]+)*", code)
        assert entry.severity in ("error", "warning")
        assert entry.meaning and entry.example and entry.rule


def test_finding_shape() -> None:
    finding = make_finding("REVOKE", 3, 17, "S played 9D holding JS: must follow spades")
    assert finding == Finding("REVOKE", "error", 3, 17, finding.message)
    assert finding.to_dict() == {
        "deal": 3,
        "action": 17,
        "code": "REVOKE",
        "severity": "error",
        "message": "S played 9D holding JS: must follow spades",
    }
    assert str(make_finding("WINNER_MISMATCH", None, None, "x")) == "match: x"
