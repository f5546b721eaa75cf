"""The step-through pager on a real pseudo-terminal: keys move, numbers jump, q quits."""

import os
import pty
import select
import subprocess
import sys
import time

SCRIPT = """
import sys
from twentynine.pager import show_frames
show_frames([f"FRAME-{i}" for i in range(1, 11)], sys.stdout, interactive=True)
print("DONE")
"""


def _read_until(fd: int, marker: bytes, timeout: float = 10.0) -> bytes:
    data = b""
    deadline = time.monotonic() + timeout
    while marker not in data and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                data += os.read(fd, 4096)
            except OSError:
                break
    return data


def _last_frame(screen: bytes) -> str:
    return screen.decode().split("\x1b[H\x1b[2J")[-1].splitlines()[0]


def test_keys_drive_the_pager_on_a_terminal() -> None:
    main, child = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-c", SCRIPT], stdin=child, stdout=child, stderr=child, close_fds=True
    )
    os.close(child)
    try:
        assert _last_frame(_read_until(main, b"step 1/10")) == "FRAME-1"
        os.write(main, b"\r")
        assert _last_frame(_read_until(main, b"step 2/10")) == "FRAME-2"
        os.write(main, b"\x1b[C")
        assert _last_frame(_read_until(main, b"step 3/10")) == "FRAME-3"
        os.write(main, b"\x1b[D")
        assert _last_frame(_read_until(main, b"step 2/10")) == "FRAME-2"
        os.write(main, b"7")
        _read_until(main, b"go to: 7")
        os.write(main, b"\r")
        assert _last_frame(_read_until(main, b"step 7/10")) == "FRAME-7"
        os.write(main, b"99\r")
        assert _last_frame(_read_until(main, b"step 10/10")) == "FRAME-10"
        os.write(main, b"q")
        assert b"DONE" in _read_until(main, b"DONE")
        assert process.wait(timeout=10) == 0
    finally:
        process.kill()
        os.close(main)
