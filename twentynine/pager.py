"""Step through the frames of a match's deals on a terminal; off a terminal print them.

A deal's frame 0 is the table before the first action, frame K + 1 the table after action
K (the numbering of ``twentynine audit``) and its last frame the result. Keys: Enter, space or
right arrow next; left arrow back; Home and End the first and last frame; Page Down or ``]``
the next deal, Page Up or ``[`` the previous one; ``f`` the next frame with a finding (or a
word that there is none); a number then Enter goes to that action; ``?`` shows the keys; q
quits.

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
import re
import select
import shutil
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Final, TextIO

from twentynine.frames import width

CLEAR: Final = "\x1b[H\x1b[2J"
HELP: Final = "→ next  ← back  Home/End  [ ] deal  f finding  number+Enter action  ? keys  q quit"
KEYS: Final = """Keys
  Enter, space, →, n     the next action
  ←, p, Backspace        the action before
  Home, g / End, G       the start of the deal / its result
  Page Down, ] / Page Up, [   the next deal / the deal before
  f                      the next finding (in this deal or a later one)
  a number, then Enter   that action (the numbers of `twentynine audit`)
  ?                      this help; any key goes back
  q, Ctrl-C              quit"""

_NEXT: Final = frozenset({"\r", "\n", " ", "\x1b[C", "n"})
_BACK: Final = frozenset({"\x1b[D", "p", "\x7f"})
_HOME: Final = frozenset({"\x1b[H", "\x1b[1~", "\x1bOH", "\x1b[7~", "g"})
_END: Final = frozenset({"\x1b[F", "\x1b[4~", "\x1bOF", "\x1b[8~", "G"})
_NEXT_DEAL: Final = frozenset({"\x1b[6~", "]"})
_PREVIOUS_DEAL: Final = frozenset({"\x1b[5~", "["})
_QUIT: Final = frozenset({"q", "Q", "\x03", "\x04", ""})


def show_frames(
    frames: Sequence[str],
    out: TextIO,
    *,
    interactive: bool,
    keys_fd: int | None = None,
) -> None:
    """Show one deal's frames: all of them in order, or one at a time driven by keys."""
    if not interactive or not frames:
        out.write("\n\n".join(frames))
        if frames:
            out.write("\n")
        return
    show_deals(lambda _: frames, 1, out, keys_fd=keys_fd)


def show_deals(
    frames_of: Callable[[int], Sequence[str]],
    deals: int,
    out: TextIO,
    *,
    deal: int = 1,
    frame: int = 0,
    keys_fd: int | None = None,
    findings: Mapping[int, Sequence[int]] | None = None,
) -> None:
    """Step through deals 1 to ``deals`` on the terminal, starting at ``deal`` and ``frame``
    (negative: from the end); ``frames_of(n)`` renders deal ``n`` (again when the reader
    comes back to it). ``findings`` maps a deal to its frames with a finding (-1: the last),
    for the ``f`` key."""
    fd = sys.stdin.fileno() if keys_fd is None else keys_fd
    import termios
    import tty

    saved = termios.tcgetattr(fd)
    frames = frames_of(deal)
    position = min(max(frame if frame >= 0 else len(frames) + frame, 0), len(frames) - 1)
    typed = ""
    said = ""  # a word about the last key, shown once on the status line
    helping = False
    try:
        tty.setcbreak(fd)
        while True:
            if helping:
                out.write(f"{CLEAR}{KEYS}\n")
            else:
                where = "start" if position == 0 else f"action {position - 1}"
                if position == len(frames) - 1 and position > 0:
                    where = "result"  # the frame after the last action's
                status = f"deal {deal}/{deals} · {where} of 0-{len(frames) - 3}  {HELP}"
                if typed:
                    status += f"  go to action: {typed}"
                status += _too_narrow(frames[position])
                if said:
                    status += f"  ({said})"
                out.write(f"{CLEAR}{frames[position]}\n\n{status}\n")
            out.flush()
            said = ""
            key = _read_key(fd)
            if key in _QUIT:
                break
            if helping:
                helping = False
            elif key == "?":
                helping = True
            elif key.isdigit():
                typed += key
            elif key in ("\r", "\n") and typed:
                position = min(int(typed) + 1, max(len(frames) - 2, 0))
                typed = ""
            elif key in _NEXT:
                position = min(position + 1, len(frames) - 1)
            elif key in _BACK:
                if typed:
                    typed = typed[:-1]
                else:
                    position = max(position - 1, 0)
            elif key in _HOME:
                position = 0
            elif key in _END:
                position = len(frames) - 1
            elif key == "f":
                found = next_finding(findings or {}, deals, deal, position, len(frames))
                if found is None:
                    said = "no finding after this step"
                else:
                    if found[0] != deal:
                        deal, frames = found[0], frames_of(found[0])
                    position = found[1] if found[1] >= 0 else len(frames) - 1
            elif key in _NEXT_DEAL | _PREVIOUS_DEAL:
                wanted = deal + (1 if key in _NEXT_DEAL else -1)
                if 1 <= wanted <= deals:
                    deal, frames, position = wanted, frames_of(wanted), 0
            elif key == "\x1b":
                typed = ""
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        out.write("\n")
        out.flush()


def next_finding(
    findings: Mapping[int, Sequence[int]], deals: int, deal: int, position: int, frames: int
) -> tuple[int, int] | None:
    """The deal and frame of the first finding after frame ``position`` of ``deal`` (a frame
    of -1 is a deal's last, of which this deal has ``frames``), or None when there is none.

    >>> next_finding({1: [3, -1], 3: [0]}, 3, 1, 3, 10), next_finding({1: [3]}, 3, 1, 3, 10)
    ((1, -1), None)
    >>> next_finding({1: [3, -1], 3: [0]}, 3, 1, 9, 10)
    (3, 0)
    """
    for number in range(deal, deals + 1):
        for at in sorted(findings.get(number, ()), key=lambda f: f if f >= 0 else 1 << 30):
            if number > deal or (at if at >= 0 else frames - 1) > position:
                return number, at
    return None


_ANSI: Final = re.compile(r"\x1b\[[0-9;]*m")


def _too_narrow(frame: str) -> str:
    """A word for the status line when the terminal is narrower than the frame."""
    needed = max((width(_ANSI.sub("", line)) for line in frame.splitlines()), default=0)
    columns = shutil.get_terminal_size().columns
    if columns >= needed:
        return ""
    return f"  (widen the terminal: {columns} columns, the table needs {needed})"


def _read_key(fd: int) -> str:
    """One key press; keys such as the arrows, Home or Page Down arrive as escape sequences."""
    first = os.read(fd, 1)
    if first != b"\x1b":
        if first and first[0] >= 0xC0:  # the rest of a UTF-8 character
            first += os.read(fd, 1 if first[0] < 0xE0 else 2 if first[0] < 0xF0 else 3)
        return first.decode("utf-8", "replace")
    rest = b""
    while select.select([fd], [], [], 0.05)[0]:
        rest += os.read(fd, 16)
        if rest[-1:].isalpha() or rest.endswith(b"~"):
            break
    return (first + rest).decode("ascii", "replace")
