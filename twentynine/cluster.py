"""``analyze --cluster``: a Dask scheduler's executor that never keeps a run waiting for ever.

Connecting has a deadline (a peer that accepts and says nothing, a scheduler that does not
answer: :data:`~twentynine.limits.CONNECT_SECONDS`, or ``wait`` if shorter). While the
cluster has no worker, at the start or once its workers are gone, or its scheduler does not
answer, the run says so every :data:`~twentynine.limits.WAIT_NOTICE_SECONDS` and gives up
after ``wait`` seconds; a scheduler that goes away, or workers that die running a task,
end it at once. Each failure is a :class:`ClusterError`, one line naming the address; the
caller keeps what was done before it. Dask's own log lines are kept off standard error.
Without the ``cluster`` extra (Dask distributed), every address is refused so, in one line:
``--cluster needs Dask distributed: install the 'cluster' extra``.

>>> def refusal(address: str) -> str:
...     try:
...         with cluster_executor(address, wait=1, say=print):
...             return "connected"
...     except ClusterError as exc:
...         return str(exc)
>>> said = refusal("tcp://[::1")  # with Dask: "--cluster tcp://[::1: not a scheduler's address"
>>> said.startswith("--cluster "), "\\n" in said
(True, False)
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError, Executor, Future
from contextlib import contextmanager, suppress
from typing import Any, ParamSpec, TypeVar

from twentynine.limits import CONNECT_SECONDS, WAIT_NOTICE_SECONDS

P = ParamSpec("P")
T = TypeVar("T")
_POLL_SECONDS = 1.0  # how often the cluster is asked whether it has workers


class ClusterError(Exception):
    """The cluster cannot be used, or can no longer be: the message is the user's one line."""


@contextmanager
def cluster_executor(
    address: str, *, wait: float, say: Callable[[str], None]
) -> Iterator[Executor]:
    """An executor whose tasks run on the Dask scheduler at ``address``; ``say`` gets the
    notices of a run that waits for a worker. Raises :class:`ClusterError` when the
    scheduler cannot be reached; the executor's futures raise it when the run cannot go on.
    """
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError(
            "--cluster needs Dask distributed: install the 'cluster' extra"
        ) from None
    where = f"--cluster {address}"
    connect = min(CONNECT_SECONDS, wait)
    with _quiet("distributed", "tornado"):
        _knock(address, where, connect)
        _probe(address, where, connect)
        try:
            client = Client(address, timeout=connect, set_as_default=False)  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError, ValueError) as exc:
            raise ClusterError(
                f"{where}: cannot reach the scheduler ({_first_line(exc)})"
            ) from None
        watched = _Watched(client, where, wait, say)
        try:
            yield watched
        finally:
            watched.stop()
            with suppress(Exception):  # a scheduler gone: nothing to close there
                client.close(timeout=connect)  # type: ignore[no-untyped-call]


def _knock(address: str, where: str, timeout: float) -> None:
    """Open a TCP connection to a ``tcp://`` address once, within ``timeout`` seconds, and
    say at once why it failed: Dask's own connect retries a refused connection or an unknown
    host until its deadline, then names neither. Other schemes are left to Dask."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        host, port = parse_host_port(location)
    except ValueError:
        return  # the probe names what is wrong with the address
    if scheme != "tcp":
        return
    failures: list[OSError] = []

    def attempt() -> None:
        try:
            socket.create_connection((host, port), timeout=timeout).close()
        except OSError as exc:
            failures.append(exc)

    # a thread, as the name's look-up takes no timeout of its own
    knocking = threading.Thread(target=attempt, name="twentynine-knock", daemon=True)
    knocking.start()
    knocking.join(timeout)
    if knocking.is_alive():  # the name's look-up still runs
        failures.append(TimeoutError())
    if not failures:
        return
    failure = failures[0]
    if isinstance(failure, socket.gaierror):
        reason = f"no such host {host!r}: {failure.strerror}"
    elif isinstance(failure, ConnectionRefusedError):
        reason = f"nothing listens at port {port} of {host} (connection refused)"
    elif isinstance(failure, TimeoutError):
        reason = f"no answer in {timeout:g} s (is the host up?)"
    else:
        reason = f"cannot reach the scheduler ({failure.strerror or failure})"
    raise ClusterError(f"{where}: {reason}")


def _probe(address: str, where: str, timeout: float) -> None:
    """Ask the peer at ``address`` who it is, within ``timeout`` seconds: a Dask scheduler,
    or the one line that says why not."""
    from distributed.core import rpc

    async def identity() -> dict[str, Any]:
        remote = rpc(address, timeout=timeout)  # type: ignore[no-untyped-call]
        try:
            answer: dict[str, Any] = await remote.identity(n_workers=0)
            return answer
        finally:
            await remote.close_rpc()  # type: ignore[no-untyped-call]

    try:
        info = asyncio.run(asyncio.wait_for(identity(), timeout))
    except (ValueError, TypeError) as exc:
        raise ClusterError(f"{where}: not a scheduler's address ({_first_line(exc)})") from None
    except TimeoutError:
        raise ClusterError(f"{where}: no answer in {timeout:g} s (not a Dask scheduler?)") from None
    except OSError as exc:  # refused, reset, unknown host: the network's reasons
        raise ClusterError(f"{where}: cannot reach the scheduler ({_first_line(exc)})") from None
    except Exception:  # an answer Dask cannot read (it may ask for exabytes to read it in)
        raise ClusterError(
            f"{where}: the peer is not a Dask scheduler (its answer is not Dask's)"
        ) from None
    kind = info.get("type") if isinstance(info, dict) else None
    if kind != "Scheduler":
        raise ClusterError(f"{where}: the peer is not a Dask scheduler (it says {kind!r})")


class _Watched(Executor):
    """The client's executor, with futures of its own that fail with a :class:`ClusterError`
    when the cluster cannot finish them; a thread watches whether it has workers."""

    def __init__(self, client: Any, where: str, wait: float, say: Callable[[str], None]) -> None:
        self._client = client
        self._inner = client.get_executor()
        self._where = where
        self._wait = wait
        self._say = say
        self._lock = threading.Lock()
        self._pending: set[Future[Any]] = set()
        self._failure: ClusterError | None = None
        self._stopped = threading.Event()
        self._watcher = threading.Thread(target=self._watch, name="watch-cluster", daemon=True)
        self._watcher.start()

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        own: Future[T] = Future()
        with self._lock:
            failure = self._failure
            if failure is None:
                self._pending.add(own)
        if failure is not None:
            own.set_exception(failure)
            return own
        inner: Future[T] = self._inner.submit(fn, *args, **kwargs)
        inner.add_done_callback(lambda done: self._settle(own, done))
        return own

    def _settle(self, own: Future[T], inner: Future[T]) -> None:
        """Give ``own`` what the cluster gave ``inner``, in the user's words when it failed."""
        with self._lock:
            if own not in self._pending:  # already failed by the watcher
                return
            self._pending.discard(own)
        if inner.cancelled():
            own.set_exception(ClusterError(f"{self._where}: the scheduler went away"))
            return
        try:
            own.set_result(inner.result())
        except CancelledError:
            own.set_exception(ClusterError(f"{self._where}: the scheduler went away"))
        except BaseException as exc:  # the task's own error is the caller's
            own.set_exception(self._translated(exc))

    def _translated(self, exc: BaseException) -> BaseException:
        from distributed import KilledWorker

        if isinstance(exc, KilledWorker):
            return ClusterError(f"{self._where}: workers died running a deal ({_first_line(exc)})")
        return exc

    def fail(self, failure: ClusterError) -> None:
        """End the run: every future not done, and every later one, raises ``failure``."""
        with self._lock:
            self._failure = failure
            pending, self._pending = self._pending, set()
        for own in pending:
            with suppress(Exception):  # settled meanwhile
                own.set_exception(failure)

    def stop(self) -> None:
        self._stopped.set()

    def _watch(self) -> None:
        """Ask the scheduler every second how many workers it has; past ``wait`` seconds
        without one (or without an answer), fail the run, with a notice every ten."""
        since: float | None = None
        told = 0.0
        while not self._stopped.wait(_POLL_SECONDS):
            problem = self._problem()
            if problem is None:
                since, told = None, 0.0
                continue
            now = time.monotonic()
            since = now if since is None else since
            waited = now - since
            if waited >= self._wait:
                self.fail(ClusterError(f"{self._where}: {problem} for {self._wait:g} s"))
                return
            if not told:
                self._say(f"{self._where}: {problem}; waiting up to {self._wait:g} s (--wait)")
                told = max(waited, 1e-9)
            elif waited - told >= WAIT_NOTICE_SECONDS:
                self._say(f"{self._where}: {problem} for {waited:.0f} s of {self._wait:g}")
                told = waited

    def _problem(self) -> str | None:
        """Why the cluster cannot run tasks now (None when it can)."""
        try:
            info = self._client.sync(
                self._client.scheduler.identity, n_workers=0, callback_timeout=CONNECT_SECONDS
            )
        except Exception:  # gone, or silent: the futures say which
            return "the scheduler does not answer"
        if not info.get("n_workers"):
            return "no worker"
        return None


@contextmanager
def _quiet(*names: str) -> Iterator[None]:
    """Keep these libraries' log lines off standard error while the block runs (their
    failures reach the user as one line each): each of their loggers with a level of its
    own is raised above every record, the others take it from them."""
    known = list(logging.root.manager.loggerDict)
    loggers = [
        logging.getLogger(name) for name in sorted({*names, *known}) if name.split(".")[0] in names
    ]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
