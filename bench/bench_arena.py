"""Benchmark: the arena's referee, in-process and over HTTP (issue 34 §5).

Three figures:

- ``inprocess``: deals a second of an all-built-in arena against ``simulate``'s on the same
  number of bhoos deals (target: 0.8 or more of simulate's);
- ``stub``: the referee's own cost a request against a stub bot in another process that
  answers at once on a kept-alive connection (the referee's CPU time a request, and the
  median round trip; target: at most 2 ms median on loopback);
- ``serve``: built-in bots behind ``twentynine bot serve`` (two processes, one a team),
  ``--deals`` deals through HTTP, with the faults counted (target: 0).

    nice python bench/bench_arena.py                      # all three, 2,000 deals over HTTP
    nice python bench/bench_arena.py --only stub --deals 200
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from twentynine.arena_run import matches, parse_seats
from twentynine.replay.arena import ArenaOptions
from twentynine.replay.selfplay import simulate_matches
from twentynine.schema import Rules

ROOT = Path(__file__).resolve().parent.parent


def _arena_cpu(deals: int, seed: int) -> tuple[int, float]:
    specs = parse_seats([])
    started = time.process_time()
    done = sum(len(p.log.deals) for p in matches(specs, ArenaOptions(seed=seed), deals))
    return done, time.process_time() - started


def _simulate_cpu(deals: int, seed: int) -> tuple[int, float]:
    started = time.process_time()
    done = 0
    names = ["A:balanced", "B:balanced", "C:balanced", "D:balanced"]
    for match in simulate_matches(Rules.preset("bhoos"), 10**9, seed, names):
        done += len(match.deals)
        if done >= deals:
            break
    return done, time.process_time() - started


def inprocess(deals: int, seed: int, rounds: int = 3) -> None:
    """CPU time (the machine is shared: wall time measures the neighbours), the best of
    ``rounds`` runs of each, taken in turn."""
    arena: list[float] = []
    simulated: list[float] = []
    for _ in range(rounds):
        done, seconds = _arena_cpu(deals, seed)
        arena.append(done / seconds)
        done_sim, seconds = _simulate_cpu(deals, seed)
        simulated.append(done_sim / seconds)
    ratio = max(arena) / max(simulated)
    print(
        f"inprocess: arena {done} deals, best {max(arena):.0f} deals/s of CPU; simulate "
        f"{done_sim} deals, best {max(simulated):.0f} deals/s; ratio {ratio:.2f}"
    )


class _Stub(BaseHTTPRequestHandler):
    """Answers at once: a pass, the first card's suit, a card that follows suit."""

    protocol_version = "HTTP/1.1"

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        cards = request["cards"]
        if self.path == "/bid":
            body = b'{"bid": 0}'
        elif self.path == "/chooseTrump":
            body = b'{"suit": "%s"}' % cards[0][1].encode()
        else:
            led = request["played"][0][1] if request["played"] else None
            same = [c for c in cards if c[1] == led]
            body = b'{"card": "%s"}' % (same or cards)[0].encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def _serve_stub(port: int) -> None:
    ThreadingHTTPServer(("127.0.0.1", port), _Stub).serve_forever()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def _process(args: list[str], first_line: bool = True) -> Iterator[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(args, stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stdout is not None
        yield process.stdout.readline().strip() if first_line else ""
    finally:
        process.terminate()
        process.communicate(timeout=10)


def stub(deals: int, seed: int) -> None:
    port = _free_port()
    code = f"import sys; sys.path.insert(0, {str(ROOT / 'bench')!r}); import bench_arena; "
    code += f"print('up', flush=True); bench_arena._serve_stub({port})"
    with _process([sys.executable, "-c", code]):
        time.sleep(0.3)
        url = f"http://127.0.0.1:{port}"
        specs = parse_seats([f"{seat}={url}" for seat in "NESW"])
        cpu = time.process_time()
        started = time.perf_counter()
        ms: list[float] = []
        faults = 0
        done = 0
        for played in matches(specs, ArenaOptions(seed=seed), deals):
            done += len(played.log.deals)
            faults += len(played.faults)
            ms.extend(m for figures in played.stats.values() for m in figures.ms)
        wall = time.perf_counter() - started
        cpu = time.process_time() - cpu
    total = len(ms)
    print(
        f"stub: {done} deals, {total} HTTP requests; round trip median {statistics.median(ms):.2f}"
        f" ms, p99 {sorted(ms)[int(0.99 * len(ms))]:.2f} ms; referee CPU {1000 * cpu / total:.2f}"
        f" ms a request; {wall:.1f} s; {faults} faults"
    )


def serve(deals: int, seed: int) -> None:
    cmd = [sys.executable, "-m", "twentynine", "bot", "serve", "--port", "0", "--style"]
    with _process([*cmd, "cautious"]) as first, _process([*cmd, "aggressive"]) as second:
        a, b = first.split()[-1], second.split()[-1]
        specs = parse_seats([f"N={a}", f"S={a}", f"E={b}", f"W={b}"])
        started = time.perf_counter()
        done = faults = requests = 0
        for played in matches(specs, ArenaOptions(seed=seed), deals):
            done += len(played.log.deals)
            faults += len(played.faults)
            requests += sum(len(s.ms) for s in played.stats.values())
        wall = time.perf_counter() - started
    print(
        f"serve: {done} deals, {requests} requests through HTTP in {wall:.0f} s "
        f"({done / wall:.1f} deals/s); {faults} faults"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals over HTTP (serve)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=("inprocess", "stub", "serve"))
    args = parser.parse_args()
    if args.only in (None, "inprocess"):
        inprocess(2000, args.seed)
    if args.only in (None, "stub"):
        stub(min(args.deals, 300), args.seed)
    if args.only in (None, "serve"):
        serve(args.deals, args.seed)


if __name__ == "__main__":
    main()
