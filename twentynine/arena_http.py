"""The arena's seats over HTTP: a referee's request from a turn, sent to a bot's URL.

:func:`request_of` writes a :class:`~replay.arena.Turn` as the protocol's request
(:mod:`importers.bhoos_protocol`); :class:`HttpSeat` posts it with a bounded timeout on a
kept-alive connection and reads the answer into a :class:`~replay.arena.Move`, or a fault:
``SEAT_TIMEOUT``, ``SEAT_REFUSED``, ``SEAT_DIED``, ``SEAT_GARBAGE``, ``SEAT_MISSING_FIELD``.
Nothing waits longer than the turn's limit (plus the time to connect, bounded the same).
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import time
from typing import Any, Final
from urllib.parse import urlsplit

import orjson

from twentynine.importers import bhoos_protocol as protocol
from twentynine.replay.arena import Move, Reply, Turn
from twentynine.schema.cards import Team

MAX_ANSWER: Final = 65_536  # bytes: an answer is a few dozen
_ENDPOINT: Final = {"bid": "/bid", "chooseTrump": "/chooseTrump", "play": "/play"}
_JSON: Final = {"Content-Type": "application/json", "Accept": "application/json"}


def request_of(turn: Turn, first_index: int = protocol.ARCHIVE_FIRST) -> dict[str, Any]:
    """The request the seat on turn gets, as the protocol writes it (docs/arena.md)."""
    known = turn.known
    at_index = protocol.seat_order(known.order, first_index)
    ids = [seat.value for seat in at_index]
    bids = [(seat.value, number) for seat, number in turn.bids]
    if turn.call != "play":
        return protocol.auction_request(
            turn.call, turn.seat.value, ids, first_index, known.hand, bids, turn.remaining_ms
        )
    tricks = [
        (trick[0][0].value, [card for _, card in trick], winner.value)
        for trick, winner in zip(known.tricks, known.winners, strict=False)
    ]
    points = {Team.NS: known.points[0], Team.EW: known.points[1]}
    caller = known.caller
    teams = []
    for k in (0, 1):
        team = at_index[k].team
        bid = known.call or 0 if caller is not None and caller.team is team else 0
        teams.append((bid, points[team]))
    shown = None if turn.shown is None else (turn.shown[0], turn.shown[1].value)
    return protocol.play_request(
        turn.seat.value,
        ids,
        known.hand,
        bids,
        tricks,
        [card for _, card in known.trick],
        teams,
        known.trump,
        shown,
        turn.remaining_ms,
    )


def read_move(call: str, answer: object) -> Move:
    """The move an answer gives for ``call``; raises ``protocol.AnswerError``."""
    if call == "bid":
        return Move(bid=protocol.read_bid(answer))
    if call == "chooseTrump":
        return Move(suit=protocol.read_suit(answer))
    card, reveal = protocol.read_play(answer)
    return Move(card=card, reveal=reveal)


def hello(url: str, timeout_s: float = 2.0) -> str | None:
    """Whether ``GET /hi`` answers at ``url``: None when it does, else the reason."""
    parts = urlsplit(url)
    try:
        conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=timeout_s)
        try:
            conn.request("GET", parts.path.rstrip("/") + "/hi")
            response = conn.getresponse()
            response.read(MAX_ANSWER)
            if response.status != 200:
                return f"GET /hi answered HTTP {response.status}"
        finally:
            conn.close()
    except (OSError, http.client.HTTPException) as exc:
        return f"GET /hi: {_reason(exc)}"
    return None


def _reason(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError | socket.timeout):
        return "no answer in time"
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__


class Watchdog:
    """Shuts a socket down at its deadline: a socket's own timeout bounds each read, not a
    bot that drips its answer a byte at a time. One daemon thread for the process.

    >>> dog = Watchdog()
    >>> a, b = socket.socketpair()
    >>> key = dog.arm(a, 0.05)
    >>> a.recv(1)  # b never writes: the watchdog ends the wait
    b''
    >>> a.close(); b.close()
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._due: dict[int, tuple[float, socket.socket]] = {}
        self._next = 0
        self._thread: threading.Thread | None = None

    def arm(self, sock: socket.socket, seconds: float) -> int:
        with self._cond:
            key = self._next
            self._next += 1
            self._due[key] = (time.monotonic() + seconds, sock)
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, daemon=True)
                self._thread.start()
            self._cond.notify()
            return key

    def disarm(self, key: int) -> None:
        with self._cond:
            self._due.pop(key, None)

    def _watch(self) -> None:
        with self._cond:
            while True:
                now = time.monotonic()
                for key, (due, sock) in list(self._due.items()):
                    if due <= now:
                        del self._due[key]
                        with contextlib.suppress(OSError):
                            sock.shutdown(socket.SHUT_RDWR)
                wait = min((due for due, _ in self._due.values()), default=now + 60.0) - now
                self._cond.wait(max(wait, 0.001))


WATCHDOG: Final = Watchdog()
GRACE_S: Final = 0.25
"""How long past its limit a request may run before its socket is shut: a socket's timeout
ends a silent bot at the limit; this ends one that keeps sending."""


class HttpSeat:
    """A bot at a URL. One kept-alive connection, opened again after a fault.

    >>> seat = HttpSeat("http://127.0.0.1:9/")
    >>> seat.host, seat.port, seat.base
    ('127.0.0.1', 9, '')
    """

    def __init__(self, url: str, first_index: int = protocol.ARCHIVE_FIRST) -> None:
        parts = urlsplit(url)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"{url!r} is not an http:// URL")
        self.url = url
        self.host = parts.hostname
        self.port = parts.port or 80
        self.base = parts.path.rstrip("/")
        self.first_index = first_index
        self.answered = False
        self._conn: http.client.HTTPConnection | None = None

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _post(self, path: str, body: bytes, timeout: float) -> tuple[int, bytes]:
        reused = self._conn is not None
        if self._conn is None:
            self._conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
            self._conn.connect()
            if self._conn.sock is not None:
                self._conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn = self._conn
        conn.timeout = timeout
        sock = conn.sock
        if sock is not None:
            sock.settimeout(timeout)
        guard = WATCHDOG.arm(sock, timeout + GRACE_S) if sock is not None else None
        try:
            try:
                conn.request("POST", path, body, _JSON)
                response = conn.getresponse()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.close()
                if not reused:
                    raise
                # the bot closed an idle kept-alive connection: once more on a new one
                return self._post(path, body, timeout)
            data = response.read(MAX_ANSWER + 1)
        finally:
            if guard is not None:
                WATCHDOG.disarm(guard)
        if response.will_close:
            self.close()
        return response.status, data

    def _ask(self, turn: Turn) -> Reply:
        request = request_of(turn, self.first_index)
        path = self.base + _ENDPOINT[turn.call]
        limit = max(turn.limit_ms, 1)
        start = time.perf_counter()
        try:
            status, data = self._post(path, orjson.dumps(request), limit / 1000.0)
        except TimeoutError:
            self.close()
            ms = (time.perf_counter() - start) * 1000.0
            return Reply(None, ms, "SEAT_TIMEOUT", f"no answer in {limit} ms", request)
        except ConnectionRefusedError:
            self.close()
            ms = (time.perf_counter() - start) * 1000.0
            code = "SEAT_DIED" if self.answered else "SEAT_REFUSED"
            return Reply(None, ms, code, f"connection refused at {self.url}", request)
        except (OSError, http.client.HTTPException) as exc:
            self.close()
            ms = (time.perf_counter() - start) * 1000.0
            if ms >= limit:  # the watchdog ended an answer still coming at the deadline
                return Reply(None, ms, "SEAT_TIMEOUT", f"no whole answer in {limit} ms", request)
            reason = f"the connection ended before an answer ({_reason(exc)})"
            return Reply(None, ms, "SEAT_DIED", reason, request)
        ms = (time.perf_counter() - start) * 1000.0
        self.answered = True
        text = data[:MAX_ANSWER].decode("utf-8", "replace")
        if ms > limit:
            self.close()
            return Reply(None, ms, "SEAT_TIMEOUT", f"answered after {ms:.0f} ms", request, text)
        if len(data) > MAX_ANSWER:
            reason = f"an answer over {MAX_ANSWER} bytes"
            return Reply(None, ms, "SEAT_GARBAGE", reason, request, text[:200])
        if status != 200:
            return Reply(None, ms, "SEAT_GARBAGE", f"HTTP {status}", request, text)
        try:
            answer = orjson.loads(data)
        except orjson.JSONDecodeError:
            return Reply(None, ms, "SEAT_GARBAGE", "the answer is not JSON", request, text)
        try:
            move = read_move(turn.call, answer)
        except protocol.AnswerError as exc:
            code = "SEAT_MISSING_FIELD" if exc.missing else "SEAT_GARBAGE"
            return Reply(None, ms, code, str(exc), request, answer)
        return Reply(move, ms, None, "", request, answer)

    bid = choose_trump = play = _ask
