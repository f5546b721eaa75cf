"""``twentynine bot serve``: a built-in style answering the Bhoos bot protocol over HTTP.

Each request is read by the importer's reader of logged requests
(:func:`importers.bhoos_play.parse_payload` and :func:`~importers.bhoos_play.build`), its
deal replayed by the engine from the seat's view, and the style's bot decides among the
legal actions; the answer is written by :mod:`importers.bhoos_protocol`. The same request
gets the same answer (the bot's random draws are seeded by the request's bytes).

A malformed request gets a 400 with a one-line reason; a request body is at most
:data:`MAX_REQUEST` bytes; CORS preflight (``OPTIONS``) is answered as the kits do.

>>> answer(b'{"playerId": "E", "playerIds": ["N", "E", "S", "W"], "cards": ["JS", "9S", "1S",'
...        b' "TS"], "timeRemaining": 1000, "bidHistory": []}', "bid", "balanced")["bid"] >= 16
True
"""

from __future__ import annotations

import hashlib
import random
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Final

import orjson

from twentynine.importers import bhoos_play
from twentynine.importers import bhoos_protocol as protocol
from twentynine.importers._bhoos import Problems
from twentynine.replay.arena import Turn, move_of
from twentynine.replay.bots import Stage, legal_at, redact
from twentynine.replay.deal import DealState
from twentynine.schema.log import Action
from twentynine.schema.rules import Rules

MAX_REQUEST: Final = 65_536  # bytes: a /play request is under 2 kB
IDLE_SECONDS: Final = 30.0  # a kept-alive connection with nothing to say is closed
_RULES: Final = Rules.preset("bhoos")
_STAGE: Final[dict[protocol.Kind, Stage]] = {
    "bid": "auction",
    "chooseTrump": "trump",
    "play": "play",
}
_CORS: Final = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
    "Access-Control-Allow-Headers": "Content-Type",
}


class BadRequestError(ValueError):
    """A request the bot cannot answer; the message is the 400's one line."""


def answer(body: bytes, call: protocol.Kind, style: str) -> dict[str, Any]:
    """The answer of the built-in seat ``style`` (:data:`twentynine.arena_run.BUILTIN`) to
    one request body sent to ``call``; raises :class:`BadRequestError` with the reason.

    The seat is asked through the referee's own :class:`~replay.arena.Turn`, as at the
    arena's table: whatever plays there (a style, later the judge) can be served."""
    from twentynine.arena_run import BUILTIN

    problems = Problems("request", None)
    payload = bhoos_play.parse_payload(body, problems)
    if payload is None:
        raise BadRequestError(_first(problems) or "not a request")
    record = bhoos_play.build([payload], "request")
    if record.match is None:
        raise BadRequestError(_first_of(record.problems) or "the request's game cannot be read")
    deal = record.match.deals[0]
    state = DealState(_RULES, deal.dealer, deal.hands)
    history: list[Action] = []
    for action in deal.actions:
        for finding in state.apply(action):
            if finding.severity == "error":
                raise BadRequestError(f"the request's game breaks the rules: {finding.message}")
        history.append(action)
    seat = payload.seat
    stage = _STAGE[call]
    if state.current_seat is not seat or state.phase_name != stage:
        raise BadRequestError(
            f"the request's game asks {state.current_seat} for its {state.phase_name}, "
            f"not {seat} for its {stage}"
        )
    legal = legal_at(state, seat, stage)
    if not legal:
        raise BadRequestError(f"{seat} has nothing it may do in this game")
    time_ms = payload_time(body)
    shown = payload.revealed
    turn = Turn(
        call,
        seat,
        state,
        legal,
        history,
        [redact(a) for a in history],
        list(payload.bids),
        shown,
        1,
        1,
        time_ms,
        time_ms,
    )
    player = BUILTIN[style]()
    begin = getattr(player, "begin", None)
    if begin is not None:  # the same request, the same answer
        begin(random.Random(hashlib.sha256(body).digest()))
    if call == "bid":
        reply = player.bid(turn)
    elif call == "chooseTrump":
        reply = player.choose_trump(turn)
    else:
        reply = player.play(turn)
    move = move_of(reply.action, turn) if reply.action is not None else reply.move
    if move is None:
        raise BadRequestError(f"the bot gave no answer ({reply.reason or reply.fault})")
    if call == "bid" and move.bid is not None:
        return protocol.bid_answer(move.bid)
    if call == "chooseTrump" and move.suit is not None:
        return protocol.trump_answer(move.suit)
    if call == "play" and (move.card is not None or move.reveal):
        return protocol.play_answer(move.card, reveal=move.reveal)
    raise BadRequestError(f"the bot's answer to /{call} is not one the protocol can say")


def payload_time(body: bytes) -> int:
    """The request's ``timeRemaining`` (ms), 1,000 where it gives none."""
    try:
        value = orjson.loads(body).get("timeRemaining")
    except (orjson.JSONDecodeError, AttributeError):
        return 1000
    return value if isinstance(value, int) and not isinstance(value, bool) else 1000


def _first(problems: Problems) -> str | None:
    return _first_of(problems.items)


def _first_of(items: Any) -> str | None:
    for item in items:
        where = f"{item.path}: " if getattr(item, "path", None) else ""
        return f"{where}{item.reason}"
    return None


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: a referee sends dozens of requests a deal
    timeout = IDLE_SECONDS
    server_version = "twentynine-bot"
    style = "balanced"
    quiet = True

    def setup(self) -> None:
        super().setup()
        # headers and body go out in two writes: without this, Nagle's algorithm and the
        # client's delayed ACK hold the body back 40 ms
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:
        if not self.quiet:
            super().log_message(format, *args)

    def _send(self, status: int, body: object) -> None:
        data = orjson.dumps(body)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in _CORS.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def _refuse(self, status: int, reason: str) -> None:
        self._send(status, {"error": reason})

    def do_OPTIONS(self) -> None:
        self.send_response(204)
        for key, value in _CORS.items():
            self.send_header(key, value)
        self.send_header("Access-Control-Max-Age", "86400")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:
        if self.path.split("?")[0] == "/hi":
            self._send(200, protocol.HELLO)
        else:
            self._refuse(404, f"no such endpoint: GET {self.path[:80]}")

    def do_POST(self) -> None:
        call = protocol.ENDPOINTS.get(self.path.split("?")[0])
        length_text = self.headers.get("Content-Length")
        try:
            length = int(length_text) if length_text is not None else -1
        except ValueError:
            length = -1
        if length < 0:
            self.close_connection = True
            self._refuse(411, "a request needs a Content-Length")
            return
        if length > MAX_REQUEST:
            self.close_connection = True
            self._refuse(413, f"a request of {length} bytes is over {MAX_REQUEST}")
            return
        body = self.rfile.read(length)
        if call is None:
            self._refuse(404, f"no such endpoint: POST {self.path[:80]}")
            return
        try:
            self._send(200, answer(body, call, self.style))
        except BadRequestError as exc:
            self._refuse(400, str(exc).splitlines()[0][:300])


class BotServer(ThreadingHTTPServer):
    """A threading HTTP server for one style; ``daemon_threads``: a kept-alive connection
    never holds up the end."""

    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client gone before its answer (a referee's timeout): one line, no traceback."""
        error = sys.exc_info()[1]
        sys.stderr.write(f"twentynine: bot: {client_address[0]}: {error or 'connection lost'}\n")


def make_server(style: str, host: str, port: int, *, quiet: bool = True) -> BotServer:
    """A server for ``style`` bound to ``host:port`` (port 0: any free port).

    Raises ``ValueError`` for an unknown style, ``OSError`` when the address is taken."""
    from twentynine.arena_run import BUILTIN

    if style not in BUILTIN:
        raise ValueError(f"unknown style {style!r} (known: {', '.join(BUILTIN)})")
    handler = type("Handler", (_Handler,), {"style": style, "quiet": quiet})
    return BotServer((host, port), handler)


def stop_soon(server: BotServer) -> None:
    """Ask ``serve_forever`` to return (from a signal handler: shutdown waits for it)."""
    threading.Thread(target=server.shutdown, daemon=True).start()
