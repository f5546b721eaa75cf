"""The client of tests/fork_server.py: ``python -S -E tests/fork_client.py SOCKET ARGS...``
runs ``twentynine ARGS...`` in a fork of the server with this process's standard streams,
folder and environment, and exits with its status; where the server cannot stand for a
fresh start (another environment of the start, a closed standard stream, no server), it
becomes ``python -m twentynine ARGS...`` itself."""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fork_server import SNAPSHOT_SUFFIX, start_environment  # type: ignore[import-not-found]


def _fresh(args: list[str]) -> None:
    os.execv(sys.executable, [sys.executable, "-m", "twentynine", *args])


def main() -> None:
    path, args = sys.argv[1], sys.argv[2:]
    try:
        snapshot = json.loads(Path(path + SNAPSHOT_SUFFIX).read_text(encoding="utf-8"))
        for fd in (0, 1, 2):
            os.fstat(fd)
    except (OSError, ValueError):
        _fresh(args)
    if start_environment(dict(os.environ)) != snapshot:
        _fresh(args)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.connect(path)
    except OSError:
        _fresh(args)
    request = json.dumps({"argv": args, "cwd": str(Path.cwd()), "env": dict(os.environ)})
    socket.send_fds(server, [request.encode()], [0, 1, 2])
    status = server.recv(1)
    sys.exit(status[0] if status else 1)


if __name__ == "__main__":
    main()
