"""A likely missing action is named: one show, pass or card that makes the rest legal."""

from __future__ import annotations

import pytest

from tests.test_replay_play import SEED_003_HANDS, SEED_003_PLAY
from twentynine.replay import audit_match
from twentynine.replay.script import make_deal, make_match


def _audit(play: str) -> list[tuple[str, int | None, str]]:
    audited = audit_match(make_match("classic29", [make_deal("E", SEED_003_HANDS, play)]))
    return [(f.code, f.action, f.message) for f in audited.findings]


@pytest.mark.parametrize(
    ("left_out", "index", "said"),
    [
        ("W:show ", 6, "a show by W seems to be missing before action 6"),
        ("S:p ", 2, "a pass by S seems to be missing before action 2"),
        ("E:7S ", 9, "a play by E (7S) seems to be missing before action 9"),
    ],
)
def test_one_left_out_action_is_named(left_out: str, index: int, said: str) -> None:
    assert left_out in SEED_003_PLAY
    findings = _audit(SEED_003_PLAY.replace(left_out, "", 1))
    [gap] = [f for f in findings if f[0] == "MISSING_ACTION"]
    assert gap[1] == index
    assert gap[2] == f"{said}: with it the rest of the deal is legal"
    assert any(code == "OUT_OF_TURN" for code, _, _ in findings)  # the cascade stays reported


def test_a_breach_no_insertion_mends_is_not_called_a_gap() -> None:
    revoke = SEED_003_PLAY.replace("S:AS E:7S", "S:AS E:TH", 1)  # E holds 7S: must follow
    codes = [code for code, _, _ in _audit(revoke)]
    assert "REVOKE" in codes and "MISSING_ACTION" not in codes
    assert not _audit(SEED_003_PLAY)  # and a clean deal has nothing to say
