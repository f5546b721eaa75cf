"""The step-through pager on a real pseudo-terminal: keys move, numbers jump, q quits."""

import sys

from tests.terminal import Terminal

SCRIPT = """
import sys
from twentynine.pager import show_frames
show_frames([f"FRAME-{i}" for i in range(1, 11)], sys.stdout, interactive=True)
print("DONE")
"""


def _shown(screen: bytes) -> str:
    """The frame on screen: the text after the last clear-screen."""
    return screen.decode().split("\x1b[H\x1b[2J")[-1].splitlines()[0]


def test_keys_drive_the_pager_on_a_terminal() -> None:
    with Terminal([sys.executable, "-c", SCRIPT]) as terminal:
        assert _shown(terminal.read_until(b"step 1/10")) == "FRAME-1"
        for keys, step, frame in [
            (b"\r", b"step 2/10", "FRAME-2"),
            (b"\x1b[C", b"step 3/10", "FRAME-3"),
            (b"\x1b[D", b"step 2/10", "FRAME-2"),
            (b" ", b"step 3/10", "FRAME-3"),
            (b"p", b"step 2/10", "FRAME-2"),
        ]:
            terminal.type(keys)
            assert _shown(terminal.read_until(step)) == frame
        terminal.type(b"7")
        assert b"go to: 7" in terminal.read_until(b"go to: 7")
        terminal.type(b"\r")
        assert _shown(terminal.read_until(b"step 7/10")) == "FRAME-7"
        terminal.type(b"99\r")
        assert _shown(terminal.read_until(b"step 10/10")) == "FRAME-10"
        terminal.type(b"q")
        assert terminal.finish() == 0
        assert b"DONE" in terminal.seen
