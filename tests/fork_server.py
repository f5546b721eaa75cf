"""Run ``python -m twentynine`` commands in forks of one process that imported the package
once: the documentation's examples (tests/test_docs.py) each start a command, and importing
the package is most of a short command's CPU.

Each command is still a process of its own, started from the same imported state a fresh
``python -m twentynine`` reaches after its imports: its own standard streams (the client's,
passed over a Unix socket), folder, environment, signals and exit status. A command whose
environment would change how Python itself starts (a ``PYTHON*``, ``LC_*``, ``LANG`` or
``TWENTYNINE_*`` variable other than the server's) runs as a fresh process instead, so an
example never depends on the server.

The server (``python -m tests.fork_server SOCKET``) accepts one connection a command and
forks; the client (``python -S tests/fork_client.py ARGS``, started by the examples'
``twentynine`` shim) sends its arguments, folder, environment and standard streams, and exits
with the status the fork sends back.
"""

from __future__ import annotations

import atexit
import io
import json
import os
import runpy
import signal
import socket
import sys
import threading
import traceback
from pathlib import Path

SNAPSHOT_SUFFIX = ".env.json"
"""Beside the socket, the server's own environment of the variables that shape a start."""
MAX_MESSAGE = 1 << 20


def shapes_start(name: str) -> bool:
    """Whether an environment variable changes how Python or the package starts, so a
    command whose value differs from the server's must start afresh.

    >>> [shapes_start(n) for n in ("PYTHONHASHSEED", "LC_ALL", "TWENTYNINE_X", "COLUMNS")]
    [True, True, True, False]
    """
    return name.startswith(("PYTHON", "LC_", "TWENTYNINE_")) or name == "LANG"


def start_environment(environ: dict[str, str]) -> dict[str, str]:
    """The variables of ``environ`` that shape a start (:func:`shapes_start`)."""
    return {name: value for name, value in environ.items() if shapes_start(name)}


def _preload() -> None:
    """Import what the commands import, as their first run would."""
    import twentynine.cli
    import twentynine.demo  # noqa: F401

    for name in (
        "twentynine.analysis.run",
        "twentynine.reports.html.match",
        "twentynine.reports.html.players",
        "twentynine.reports.warehouse.store",
    ):
        __import__(name)


def _stream(fd: int, mode: str, model: io.TextIOWrapper) -> io.TextIOWrapper:
    """A text stream on ``fd`` made as Python makes its standard streams at start-up."""
    raw = io.FileIO(fd, mode, closefd=False)
    buffered: io.BufferedIOBase = io.BufferedReader(raw) if mode == "r" else io.BufferedWriter(raw)
    interactive = os.isatty(fd)
    return io.TextIOWrapper(
        buffered,  # type: ignore[arg-type]
        encoding=model.encoding,
        errors=model.errors,
        line_buffering=interactive and mode == "w",
        write_through=model.write_through,
    )


def _run_command(argv: list[str], folder: str, environ: dict[str, str]) -> int:
    """In the fork: be ``python -m twentynine ARGV`` and return its exit status."""
    os.chdir(folder)
    os.environ.clear()
    os.environ.update(environ)
    sys.stdin = sys.__stdin__ = _stream(0, "r", sys.__stdin__)  # type: ignore[arg-type,misc]
    sys.stdout = sys.__stdout__ = _stream(1, "w", sys.__stdout__)  # type: ignore[arg-type,misc]
    sys.stderr = sys.__stderr__ = _stream(2, "w", sys.__stderr__)  # type: ignore[arg-type,misc]
    import twentynine

    main = Path(str(twentynine.__file__)).with_name("__main__.py")
    sys.argv = [str(main), *argv]
    code: int
    try:
        runpy.run_module("twentynine", run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as end:
        if end.code is None:
            code = 0
        elif isinstance(end.code, int):
            code = end.code
        else:
            print(end.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    # What Python does on its way out: wait for the threads, run the exit functions, flush.
    threading._shutdown()  # type: ignore[attr-defined]
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = 120
    return code & 0xFF


def _serve_one(listener: socket.socket, connection: socket.socket) -> None:
    message, fds, _, _ = socket.recv_fds(connection, MAX_MESSAGE, 3)
    request = json.loads(message)
    if os.fork() != 0:  # the server: the fork has the streams now
        for fd in fds:
            os.close(fd)
        connection.close()
        return
    code = 1
    try:  # the fork never returns to the server's loop
        listener.close()
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        code = _run_command(request["argv"], request["cwd"], request["env"])
        connection.sendall(bytes([code]))
    finally:
        os._exit(code)


def _reap(signum: int, frame: object) -> None:
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass


def serve(path: str) -> None:
    """Import the package, then fork a command for each client until ended by SIGTERM."""
    _preload()
    # Each fork is reaped as it ends, so its CPU time counts to the server's (and the tests').
    signal.signal(signal.SIGCHLD, _reap)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    snapshot = Path(path + SNAPSHOT_SUFFIX)
    snapshot.write_text(json.dumps(start_environment(dict(os.environ))), encoding="utf-8")
    while True:
        connection, _ = listener.accept()
        try:
            _serve_one(listener, connection)
        except (OSError, ValueError, KeyError):
            connection.close()


if __name__ == "__main__":
    serve(sys.argv[1])
