"""Run a program on a real pseudo-terminal, type keys to it and read what it shows."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import time
from types import TracebackType


class Terminal:
    """A child process whose standard input, output and error are one pseudo-terminal.

    Use as a context manager; ``read_until`` collects output until a marker shows.
    """

    def __init__(self, args: list[str]) -> None:
        self._main, child = pty.openpty()
        self.process = subprocess.Popen(
            args, stdin=child, stdout=child, stderr=child, close_fds=True
        )
        os.close(child)
        self.seen = b""

    def __enter__(self) -> Terminal:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.process.kill()
        self.process.wait()
        os.close(self._main)

    def type(self, keys: bytes) -> None:
        """Send key presses, as bytes (``b"\\x1b[C"`` is the right arrow)."""
        self.seen = b""
        os.write(self._main, keys)

    def read_until(self, marker: bytes, timeout: float = 30.0) -> bytes:
        """What the program printed since the last keys, up to and including ``marker``."""
        deadline = time.monotonic() + timeout
        while marker not in self.seen and time.monotonic() < deadline:
            if self.process.poll() is not None and not select.select([self._main], [], [], 0)[0]:
                break
            if select.select([self._main], [], [], 0.2)[0]:
                try:
                    self.seen += os.read(self._main, 65536)
                except OSError:  # the child closed the terminal
                    break
        return self.seen

    def finish(self, timeout: float = 60.0) -> int:
        """Read until the program ends; its exit status."""
        deadline = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < deadline:
            self.read_until(b"\x00never\x00", timeout=0.5)
        self.read_until(b"\x00never\x00", timeout=0.2)
        return self.process.wait(timeout=1)
