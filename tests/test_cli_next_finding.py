"""`twentynine replay` on a terminal: `f` goes to the next finding, and says so when there is
none (issue 23 §7; the match report's viewer: tests/test_reports_browser.py)."""

from __future__ import annotations

import sys

from tests.terminal import Terminal

PAGER = """
import sys
from twentynine.pager import show_deals
deals = {1: [f"D1-FRAME-{i}" for i in range(6)], 2: [f"D2-FRAME-{i}" for i in range(4)]}
show_deals(deals.__getitem__, 2, sys.stdout, findings={1: [3], 2: [-1]})
print("DONE")
"""


def test_next_finding_in_the_terminal_replay_says_when_there_is_none() -> None:
    with Terminal([sys.executable, "-c", PAGER]) as terminal:
        terminal.read_until(b"deal 1/2")
        terminal.type(b"f")
        assert b"D1-FRAME-3" in terminal.read_until(b"action 2 ")
        terminal.type(b"f")  # a finding about the whole of deal 2: its last frame
        assert b"D2-FRAME-3" in terminal.read_until(b"deal 2/2 \xc2\xb7 result")
        terminal.type(b"f")
        assert b"no finding after this step" in terminal.read_until(b"no finding after")
        terminal.type(b"q")
        assert terminal.finish() == 0
