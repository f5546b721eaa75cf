"""Step through pre-rendered frames on a terminal: Enter or right arrow next, left arrow back,
a number then Enter jumps, q quits. Off a terminal every frame is printed in turn.

>>> import io
>>> out = io.StringIO()
>>> show_frames(["first", "second"], out, interactive=False)
>>> print(out.getvalue(), end="")
first
<BLANKLINE>
second
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TextIO

CLEAR = "\x1b[H\x1b[2J"
HELP = "Enter/→ next  ← back  number+Enter jump  q quit"


def show_frames(
    frames: Sequence[str],
    out: TextIO,
    *,
    interactive: bool,
    keys_fd: int | None = None,
) -> None:
    """Show frames: all of them in order, or one at a time driven by keys from ``keys_fd``."""
    if not interactive or not frames:
        out.write("\n\n".join(frames))
        if frames:
            out.write("\n")
        return
    fd = sys.stdin.fileno() if keys_fd is None else keys_fd
    _interactive(frames, out, fd)


def _interactive(frames: Sequence[str], out: TextIO, fd: int) -> None:
    import termios
    import tty

    saved = termios.tcgetattr(fd)
    position = 0
    typed = ""
    try:
        tty.setcbreak(fd)
        while True:
            status = f"step {position + 1}/{len(frames)}  {HELP}"
            if typed:
                status += f"  go to: {typed}"
            out.write(f"{CLEAR}{frames[position]}\n\n{status}\n")
            out.flush()
            key = _read_key(fd)
            if key in ("q", "Q", "\x03", "\x04", ""):
                break
            if key.isdigit():
                typed += key
            elif key in ("\r", "\n") and typed:
                position = min(max(int(typed) - 1, 0), len(frames) - 1)
                typed = ""
            elif key in ("\r", "\n", " ", "\x1b[C", "n"):
                position = min(position + 1, len(frames) - 1)
            elif key in ("\x1b[D", "p", "\x7f"):
                if typed:
                    typed = typed[:-1]
                else:
                    position = max(position - 1, 0)
            elif key == "\x1b":
                typed = ""
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        out.write("\n")
        out.flush()


def _read_key(fd: int) -> str:
    """One key press; arrow keys arrive as three-byte escape sequences."""
    first = os.read(fd, 1)
    if first == b"\x1b":
        rest = os.read(fd, 2)
        return (first + rest).decode("ascii", "replace")
    return first.decode("utf-8", "replace")
