"""The arena: the referee's requests as the protocol has them, faults reported while the run
goes on, logs written whole, and ``bot serve`` over real HTTP in a subprocess."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import orjson
import pytest
from typer.testing import CliRunner

from twentynine.arena_http import request_of
from twentynine.cli import app
from twentynine.importers import bhoos_protocol as protocol
from twentynine.importers.bhoos_archive import read_stream as read_archive
from twentynine.replay.arena import (
    RULES,
    ArenaOptions,
    Move,
    Reply,
    Turn,
    move_of,
    play_deal,
)
from twentynine.replay.audit import audit_match
from twentynine.replay.deal import DealState
from twentynine.replay.findings import SEAT_FAULTS
from twentynine.schema.cards import Seat
from twentynine.schema.log import Action, MatchLog, ShowAction

ROOT = Path(__file__).resolve().parent.parent
FORMATS = ROOT / "sample_logs" / "formats"
INDEX_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)  # the importer's: playerIds[i] at the i-th


class Scripted:
    """A seat that plays a recorded deal's actions and keeps the requests it was sent."""

    def __init__(self, actions: list[Action], first_index: int) -> None:
        self.actions = actions
        self.first_index = first_index
        self.requests: list[dict[str, Any]] = []

    def _answer(self, turn: Turn) -> Reply:
        self.requests.append(request_of(turn, self.first_index))
        done = len(turn._history)  # the actions applied so far: the next is this seat's
        action = self.actions[done]
        if isinstance(action, ShowAction):
            return Reply(Move(reveal=True))
        return Reply(move_of(action, turn))

    bid = choose_trump = play = _answer


@pytest.mark.parametrize("first_index", [0, 1])
def test_the_referee_sends_the_requests_the_archive_games_imply(first_index: int) -> None:
    """Each sample archive game played again through the referee: every seat gets the
    requests tests/bhoos_payloads.py makes from the archive (the ids written as seats)."""
    from tests.bhoos_payloads import requests

    with (FORMATS / "bhoos_archive.json").open("rb") as stream:
        games = json.load(stream)["games"]
        stream.seek(0)
        matches = [r.match for r in read_archive(stream, "a.json")]
    compared = 0
    for game, match in zip(games, matches, strict=True):
        assert match is not None
        deal = match.deals[0]
        actions = list(deal.actions)
        seats = {seat: Scripted(actions, first_index) for seat in INDEX_SEATS}
        state = DealState(RULES, deal.dealer, deal.hands)
        played, faults = play_deal(state, seats)
        assert faults == []
        assert played == actions  # the same deal, action for action
        letter = {pid: INDEX_SEATS[i].value for i, pid in enumerate(game["playerIds"])}
        for i, player in enumerate(game["playerIds"]):
            expected = [_as_seats(r, letter) for r in requests(game, player, first_index)]
            got = [_without_time(r) for r in seats[INDEX_SEATS[i]].requests]
            assert got == [_without_time(r) for r in expected], (game.get("sid"), player)
            compared += len(got)
    assert compared > 100


def _as_seats(value: Any, letter: dict[str, str]) -> Any:
    if isinstance(value, str):
        return letter.get(value, value)
    if isinstance(value, list):
        return [_as_seats(v, letter) for v in value]
    if isinstance(value, dict):
        return {k: _as_seats(v, letter) for k, v in value.items()}
    return value


def _without_time(request: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in request.items() if k != "timeRemaining"}


def test_requests_never_carry_null_and_bid_state_is_always_there() -> None:
    from twentynine.arena_run import make_seats, parse_seats
    from twentynine.replay.arena import play_match

    sent: list[dict[str, Any]] = []

    class Spy:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def _ask(self, turn: Turn) -> Reply:
            sent.append(request_of(turn))
            reply: Reply = self.inner.bid(turn)  # a built-in seat: one method for every call
            return reply

        bid = choose_trump = play = _ask

    seats = make_seats(parse_seats([]), 1)
    spies = {seat: Spy(inner) for seat, inner in seats.items()}
    play_match(spies, ArenaOptions(seed=4), 0)
    assert "null" not in orjson.dumps(sent).decode()
    bids = [r for r in sent if "bidState" in r]
    assert bids and all(
        min(r["bidState"]["defenderBid"], r["bidState"]["challengerBid"]) >= 0 for r in bids
    )
    assert all(r["bidState"]["defenderId"] in r["playerIds"] for r in bids)
    cards = {c for r in sent for c in r["cards"]}
    assert not any(c.startswith("A") for c in cards) and any(c.startswith("1") for c in cards)


def _run(args: list[str]) -> Any:
    return CliRunner().invoke(app, args, catch_exceptions=False)


def test_same_seed_same_bytes_and_jobs_keep_the_lines(tmp_path: Path) -> None:
    one, two, jobs = (tmp_path / n for n in ("1.jsonl", "2.jsonl", "j.jsonl"))
    base = ["arena", "--seat", "N=builtin:cautious", "--deals", "24", "--seed", "3", "--quiet"]
    assert _run([*base, "-o", str(one)]).exit_code == 0
    assert _run([*base, "-o", str(two)]).exit_code == 0
    assert _run([*base, "--jobs", "2", "-o", str(jobs)]).exit_code == 0
    assert one.read_bytes() == two.read_bytes() == jobs.read_bytes()
    logs = [MatchLog.model_validate_json(line) for line in one.read_text().splitlines()]
    assert sum(len(m.deals) for m in logs) == 24
    assert all(audit_match(m).errors == 0 for m in logs)
    assert logs[-1].meta is not None and logs[-1].meta["arena"].get("cut") is True


def test_duplicate_plays_each_deal_twice_with_the_hands_moved(tmp_path: Path) -> None:
    out = tmp_path / "d.jsonl"
    result = _run(["arena", "--duplicate", "--deals", "4", "--quiet", "-o", str(out)])
    assert result.exit_code == 0
    logs = [MatchLog.model_validate_json(line) for line in out.read_text().splitlines()]
    assert [len(m.deals) for m in logs] == [2, 2]
    first, second = logs[0].deals
    assert second.dealer == first.dealer.next(RULES.direction)
    assert first.hands is not None and second.hands is not None
    assert second.hands[first.dealer.next(RULES.direction)] == first.hands[first.dealer]
    assert all(audit_match(m).errors == 0 for m in logs)


def test_json_table_has_a_row_per_bot() -> None:
    result = _run(
        [
            "arena",
            "--seat",
            "E=me@builtin:aggressive",
            "--seat",
            "W=me@builtin:aggressive",
            "--deals",
            "6",
            "--quiet",
            "--format",
            "json",
        ]
    )
    assert result.exit_code == 0
    body = json.loads(result.stdout)
    assert {row["bot"] for row in body["bots"]} == {"me", "balanced"}
    me = next(row for row in body["bots"] if row["bot"] == "me")
    assert me["deals"] == 6 and me["faults"] == {} and me["median_ms"] is not None


def test_bad_seats_are_one_line() -> None:
    for args, reason in (
        (["--seat", "X=builtin:balanced"], "SEAT one of N, E, S, W"),
        (["--seat", "N=builtin:wild"], "unknown style 'wild'"),
        (["--seat", "N=ftp://x"], "a source is builtin:STYLE or http://HOST:PORT"),
        (["--seat", "N=http://127.0.0.1:9,http://127.0.0.1:10", "--jobs", "3"], "lists 2 URLs"),
    ):
        result = CliRunner().invoke(app, ["arena", *args])
        assert result.exit_code == 2, args
        assert reason in result.stderr and "Traceback" not in result.stderr


# ----------------------------------------------------------------- a misbehaving bot


class _Rogue(BaseHTTPRequestHandler):
    """A bot whose path says how it misbehaves: /slow, /illegal, /garbage, /nulls, /reveal,
    /dies (answers a few requests, then drops every connection); anything else plays the
    first card it holds (legal or not)."""

    protocol_version = "HTTP/1.1"
    counts: ClassVar[dict[str, int]] = {}

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def _reply(self, body: bytes) -> None:
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Type", "text/plain")  # read whatever the Content-Type
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self._reply(b'{"value": "hello"}')

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        mode, _, call = self.path.strip("/").partition("/")
        n = self.counts[mode] = self.counts.get(mode, 0) + 1
        cards = request["cards"]
        fine: dict[str, Any] = (
            {"bid": 0}
            if call == "bid"
            else {"suit": cards[0][1]}
            if call == "chooseTrump"
            else {"card": _follow(request)}
        )
        if mode == "slow" and n % 15 == 0:
            time.sleep(0.35)
        elif mode == "illegal" and call == "play":
            held = set(cards)
            fine = {"card": next(c for c in ("7S", "8S", "7H", "8H", "7D") if c not in held)}
        elif mode == "illegal" and call == "bid":
            fine = {"bid": 99}
        elif mode == "garbage" and n % 4 == 0:
            self._reply(b"certainly not json")
            return
        elif mode == "nulls" and n % 4 == 0:
            fine = {"bid": None, "suit": None, "card": None}
        elif mode == "reveal" and call == "play":
            fine = {"revealTrump": True, "card": _follow(request)}
        elif mode == "drip" and call == "play" and n % 6 == 0:
            body = orjson.dumps(fine) + b" " * 200
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            for byte in body:  # one byte every 50 ms: each read is quick, the whole is not
                self.wfile.write(bytes([byte]))
                time.sleep(0.05)
            return
        elif mode == "dies" and n > 12:
            self.close_connection = True
            self.connection.shutdown(2)
            return
        self._reply(orjson.dumps(fine))


def _follow(request: dict[str, Any]) -> str:
    cards: list[str] = request["cards"]
    if request["played"]:
        led = request["played"][0][1]
        same = [c for c in cards if c[1] == led]
        if same:
            return same[0]
    return cards[0]


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a referee that hangs up on a dripping answer: nothing to say


@pytest.fixture
def rogue() -> Iterator[str]:
    _Rogue.counts = {}
    server = _QuietServer(("127.0.0.1", 0), _Rogue)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_every_fault_is_reported_and_the_run_goes_on(rogue: str, tmp_path: Path) -> None:
    out = tmp_path / "faults.jsonl"
    args = [
        "arena",
        "--deals",
        "3",
        "--time-ms",
        "250",
        "--quiet",
        "-o",
        str(out),
        "--seat",
        f"N={rogue}/illegal",
        "--seat",
        f"E={rogue}/garbage",
        "--seat",
        f"S={rogue}/nulls",
        "--seat",
        f"W={rogue}/slow",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.stderr
    logs = [MatchLog.model_validate_json(line) for line in out.read_text().splitlines()]
    assert sum(len(m.deals) for m in logs) == 3  # every deal played to its end
    codes = {f["code"] for m in logs for f in (m.meta or {})["arena"]["faults"]}
    assert {
        "SEAT_ILLEGAL_CARD",
        "SEAT_ILLEGAL_CALL",
        "SEAT_GARBAGE",
        "SEAT_MISSING_FIELD",
        "SEAT_TIMEOUT",
    } <= codes
    for code in codes:
        assert code in SEAT_FAULTS and code in result.stderr
    assert all(audit_match(m).errors == 0 for m in logs)  # the defaults are legal moves
    fault = next(
        f for m in logs for f in (m.meta or {})["arena"]["faults"] if f["code"] == "SEAT_GARBAGE"
    )
    assert fault["request"]["playerId"] == "E" and fault["answer"] == "certainly not json"
    # the request a bot failed on, sent again with one command
    again = CliRunner().invoke(app, ["bot", "ask", f"{rogue}/illegal", str(out)])
    assert again.exit_code == 0, again.stderr
    assert "on /" in again.stderr and "HTTP 200" in again.stderr


def test_a_bot_that_dies_or_is_not_there_is_reported(rogue: str, tmp_path: Path) -> None:
    out = tmp_path / "dead.jsonl"
    args = [
        "arena",
        "--deals",
        "2",
        "--quiet",
        "-o",
        str(out),
        "--format",
        "json",
        "--seat",
        f"N={rogue}/dies",
        "--seat",
        "S=http://127.0.0.1:9/",
        "--seat",
        f"E={rogue}/reveal",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1
    body = json.loads(result.stdout)
    assert {"SEAT_DIED", "SEAT_REFUSED", "SEAT_ILLEGAL_REVEAL"} <= set(body["faults"])
    assert body["deals"] == 2
    assert "warning: http://127.0.0.1:9/" in result.stderr


def test_forfeit_ends_the_match_at_the_first_fault(rogue: str, tmp_path: Path) -> None:
    out = tmp_path / "forfeit.jsonl"
    args = [
        "arena",
        "--deals",
        "3",
        "--quiet",
        "--forfeit",
        "-o",
        str(out),
        "--seat",
        f"N={rogue}/illegal",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1
    first = MatchLog.model_validate_json(out.read_text().splitlines()[0])
    assert first.meta is not None and first.meta["arena"]["forfeit"] == "N"
    assert first.result is None and len(first.deals) == 1


# ----------------------------------------------------------------- bot serve, for real


@pytest.fixture
def served() -> Iterator[tuple[subprocess.Popen[str], str]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "twentynine", "bot", "serve", "--style", "cautious", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("serving cautious on http://127.0.0.1:"), line
        yield process, line.split()[-1]
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=10)  # waits, and closes the pipes


def _http(
    url: str, method: str, path: str, body: bytes | None = None
) -> tuple[int, dict[str, str], bytes]:
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=5)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    conn.request(method, path, body, headers)
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, dict(response.getheaders()), data


def test_bot_serve_speaks_the_protocol_and_stops_on_sigterm(
    served: tuple[subprocess.Popen[str], str], tmp_path: Path
) -> None:
    process, url = served
    assert _http(url, "GET", "/hi")[2] == b'{"value":"hello"}'
    status, headers, _ = _http(url, "OPTIONS", "/play")
    assert status == 204 and headers["Access-Control-Allow-Origin"] == "*"
    status, _, body = _http(url, "POST", "/bid", b"{not json")
    assert status == 400 and b"invalid JSON" in body and b"\n" not in body
    status, _, body = _http(url, "POST", "/play", b'{"playerId": "x"}')
    assert status == 400 and b"missing required field" in body
    status, _, _ = _http(url, "POST", "/bid", b"x" * 70_000)
    assert status == 413
    out = tmp_path / "served.jsonl"
    result = CliRunner().invoke(
        app,
        [
            "arena",
            "--seat",
            f"N={url}",
            "--seat",
            f"S={url}",
            "--deals",
            "3",
            "--quiet",
            "-o",
            str(out),
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 0, result.stderr
    body_json = json.loads(result.stdout)
    assert body_json["faults"] == {} and body_json["deals"] == 3
    assert process.poll() is None  # still serving after all that
    process.send_signal(signal.SIGTERM)
    assert process.wait(10) == 0


def test_protocol_answers_read_as_the_kits_write_them() -> None:
    assert protocol.read_bid({"bid": 17.0}) == 17
    with pytest.raises(protocol.AnswerError) as missing:
        protocol.read_play({"card": None})
    assert missing.value.missing
    with pytest.raises(protocol.AnswerError) as garbage:
        protocol.read_suit({"suit": "X"})
    assert not garbage.value.missing
    assert protocol.read_play({"revealTrump": True, "card": "1H"})[0].text == "AH"  # type: ignore[union-attr]


def test_ctrl_c_keeps_whole_matches_and_prints_the_table(tmp_path: Path) -> None:
    out = tmp_path / "long.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-m", "twentynine", "arena", "--deals", "100000", "-o", str(out)]
    process = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (
            out.exists() and out.read_bytes().count(b"\n") >= 2
        ):
            time.sleep(0.1)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, stderr
    lines = out.read_bytes().splitlines()
    assert len(lines) >= 2
    kept = [MatchLog.model_validate_json(line) for line in lines]  # every line a whole match
    assert f"stopped; {len(kept)} whole matches kept" in stderr
    assert "points/deal" in stdout and f"{len(kept)} matches" in stdout


def test_db_stores_every_match_as_it_ends(tmp_path: Path) -> None:
    db = tmp_path / "arena.duckdb"
    me = ["--seat", "N=me@builtin:aggressive", "--seat", "S=me@builtin:aggressive"]
    assert (
        _run(["arena", *me, "--deals", "15", "--seed", "5", "--quiet", "--db", str(db)]).exit_code
        == 0
    )
    listed = _run(["matches", "--db", str(db), "--format", "json"])
    rows = [json.loads(line) for line in listed.stdout.splitlines()]
    assert rows[0]["match_id"] == "arena-5-1" and sum(row["deals"] for row in rows) == 15
    stats = _run(["stats", "--db", str(db), "--format", "json"])
    players = {json.loads(line)["name"]: json.loads(line) for line in stats.stdout.splitlines()}
    assert set(players) == {"me", "balanced"}  # a bot is one player, whichever seats it holds


def test_a_round_robin_rates_every_bot(tmp_path: Path) -> None:
    out = tmp_path / "rr.jsonl"
    bots = [
        "--bot",
        "c=builtin:cautious",
        "--bot",
        "a=builtin:aggressive",
        "--bot",
        "b=builtin:balanced",
    ]
    result = _run(
        [
            "arena",
            *bots,
            "--deals",
            "4",
            "--duplicate",
            "--quiet",
            "--format",
            "json",
            "-o",
            str(out),
        ]
    )
    assert result.exit_code == 0
    body = json.loads(result.stdout)
    assert [r["bot"] for r in body["rating"]] == ["c", "a", "b"]
    assert body["rating"][0]["elo"] == 0.0 and body["deals"] == 12  # 3 pairs, 4 deals each
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert len(set(ids)) == len(ids) and ids[0] == "arena-0-1v2-1"
    both = CliRunner().invoke(app, ["arena", *bots, "--seat", "N=builtin:cautious"])
    assert both.exit_code == 2 and "not both" in both.stderr


def test_a_bot_that_drips_its_answer_is_cut_at_the_deadline(rogue: str) -> None:
    started = time.monotonic()
    args = [
        "arena",
        "--deals",
        "1",
        "--time-ms",
        "300",
        "--quiet",
        "--format",
        "json",
        "--seat",
        f"N={rogue}/drip",
    ]
    result = CliRunner().invoke(app, args)
    body = json.loads(result.stdout)
    assert body["faults"].get("SEAT_TIMEOUT", 0) >= 1 and body["deals"] == 1
    # a whole answer would take 10 s each time; the watchdog cuts it at 0.3 + 0.25 s
    assert time.monotonic() - started < 2.0 * body["faults"]["SEAT_TIMEOUT"] + 5


def test_the_bank_runs_down_through_a_deal_and_is_new_each_deal() -> None:
    from twentynine.replay.arena import BuiltinSeat, play_match
    from twentynine.schema.cards import SEATS

    seen: list[tuple[int, int, int]] = []

    class Slow:
        def __init__(self) -> None:
            self.inner = BuiltinSeat("balanced")

        def begin(self, rng: Any) -> None:
            self.inner.begin(rng)

        def _ask(self, turn: Turn) -> Reply:
            seen.append((turn.deal, turn.remaining_ms, turn.limit_ms))
            reply = self.inner.bid(turn)
            return reply._replace(ms=40.0)  # as if each answer took 40 ms

        bid = choose_trump = play = _ask

    seats = {seat: (Slow() if seat is Seat.N else BuiltinSeat("balanced")) for seat in SEATS}
    played = play_match(seats, ArenaOptions(seed=2, bank_ms=1500, max_deals=2), 0)
    assert played.faults == []
    first = [r for d, r, _ in seen if d == 1]
    assert first[0] == 1500 and first == sorted(first, reverse=True) and first[-1] < 1500
    assert next(r for d, r, _ in seen if d == 2) == 1500
    assert all(remaining == limit for _, remaining, limit in seen)


def test_an_output_that_is_the_warehouse_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    result = CliRunner().invoke(app, ["arena", "--deals", "1", "--db", str(db), "-o", str(db)])
    assert result.exit_code == 2 and "Traceback" not in result.stderr


def test_deals_as_the_server_deals(tmp_path: Path) -> None:
    out = tmp_path / "server.jsonl"
    result = _run(["arena", "--deal", "server", "--deals", "30", "--quiet", "-o", str(out)])
    assert result.exit_code == 0
    logs = [MatchLog.model_validate_json(line) for line in out.read_text().splitlines()]
    assert all(m.meta is not None and m.meta["arena"]["dealing"] == "server_table" for m in logs)
    assert all(audit_match(m).errors == 0 for m in logs)
    from twentynine.schema.cards import SEATS, Card

    king = Card.parse("KD")
    last = [
        king in d.hands[SEATS[(SEATS.index(d.dealer) + 3) % 4]][4:]
        for m in logs
        for d in m.deals
        if d.hands is not None
    ]
    assert sum(last) > len(last) / 2  # the server's K of diamonds: in the last four dealt


def test_a_warehouse_refused_leaves_no_output_behind(tmp_path: Path) -> None:
    db = tmp_path / "not.duckdb"
    db.write_text("not a warehouse")
    out = tmp_path / "never.jsonl"
    result = CliRunner().invoke(app, ["arena", "--deals", "1", "--db", str(db), "-o", str(out)])
    assert result.exit_code == 2 and not out.exists()
    assert result.stderr.count("\n") == 1 and str(db) in result.stderr


def test_http_seats_with_a_url_a_job_play_the_same_matches(tmp_path: Path) -> None:
    from twentynine.bot_server import make_server

    servers = [make_server("cautious", "127.0.0.1", 0) for _ in range(2)]
    threads = [
        threading.Thread(target=s.serve_forever, kwargs={"poll_interval": 0.05}) for s in servers
    ]
    for thread in threads:
        thread.start()
    try:
        urls = ",".join(f"http://127.0.0.1:{s.server_address[1]}" for s in servers)
        outs = []
        for jobs in ("1", "2"):
            out = tmp_path / f"jobs{jobs}.jsonl"
            given = urls if jobs == "2" else urls.split(",")[0]
            args = [
                "arena",
                "--seat",
                f"N=bot@{given}",
                "--seat",
                f"S=bot@{given}",
                "--deals",
                "12",
                "--seed",
                "6",
                "--quiet",
                "--jobs",
                jobs,
                "-o",
                str(out),
            ]
            assert _run(args).exit_code == 0
            outs.append(
                [MatchLog.model_validate_json(line) for line in out.read_text().splitlines()]
            )
        assert [m.id for m in outs[0]] == [m.id for m in outs[1]]
        assert [m.deals for m in outs[0]] == [m.deals for m in outs[1]]  # the same play
        used = {m.meta["arena"]["seats"]["N"]["source"] for m in outs[1] if m.meta}
        assert len(outs[1]) == 1 or len(used) == 2  # each job asked its own server
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()
        for thread in threads:
            thread.join(5)
