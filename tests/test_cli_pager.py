"""The step-through pager on a real pseudo-terminal: keys move, numbers jump, q quits."""

import sys

from tests.terminal import Terminal

SCRIPT = """
import sys
from twentynine.pager import show_deals
deals = {1: [f"D1-FRAME-{i}" for i in range(10)], 2: [f"D2-FRAME-{i}" for i in range(4)]}
show_deals(deals.__getitem__, 2, sys.stdout, deal=1, frame=-1)
print("DONE")
"""


def _shown(screen: bytes) -> str:
    """The frame on screen: the text after the last clear-screen."""
    return screen.decode().split("\x1b[H\x1b[2J")[-1].splitlines()[0]


def test_keys_drive_the_pager_on_a_terminal() -> None:
    with Terminal([sys.executable, "-c", SCRIPT]) as terminal:
        # frame -1: the deal's last frame, its result; frame K + 1 is action K
        assert _shown(terminal.read_until(b"result of 0-7")) == "D1-FRAME-9"
        for keys, status, frame in [
            (b"\x1b[H", b"deal 1/2 \xc2\xb7 start", "D1-FRAME-0"),
            (b"\r", b"action 0 ", "D1-FRAME-1"),
            (b"\x1b[C", b"action 1 ", "D1-FRAME-2"),
            (b"\x1b[D", b"action 0 ", "D1-FRAME-1"),
            (b" ", b"action 1 ", "D1-FRAME-2"),
            (b"p", b"action 0 ", "D1-FRAME-1"),
            (b"\x1bOF", b"result of 0-7", "D1-FRAME-9"),
            (b"\x1b[D", b"action 7 ", "D1-FRAME-8"),
            (b"\x1b[1~", b"start", "D1-FRAME-0"),
            (b"\x1b[6~", b"deal 2/2 \xc2\xb7 start of 0-1", "D2-FRAME-0"),
            (b"]", b"deal 2/2 \xc2\xb7 start of 0-1", "D2-FRAME-0"),  # no deal 3
            (b"G", b"deal 2/2 \xc2\xb7 result ", "D2-FRAME-3"),
            (b"[", b"deal 1/2 \xc2\xb7 start", "D1-FRAME-0"),
        ]:
            terminal.type(keys)
            assert _shown(terminal.read_until(status)) == frame, keys
        terminal.type(b"6")
        assert b"go to action: 6" in terminal.read_until(b"go to action: 6")
        terminal.type(b"\r")
        assert _shown(terminal.read_until(b"action 6 ")) == "D1-FRAME-7"
        terminal.type(b"99\r")  # past the last action: the last action
        assert _shown(terminal.read_until(b"action 7 ")) == "D1-FRAME-8"
        terminal.type(b"?")
        assert _shown(terminal.read_until(b"any key goes back")) == "Keys"
        terminal.type(b"z")
        assert _shown(terminal.read_until(b"? keys")) == "D1-FRAME-8"
        terminal.type(b"q")
        assert terminal.finish() == 0
        assert b"DONE" in terminal.seen
