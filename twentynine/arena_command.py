"""``twentynine arena`` and ``twentynine bot serve|ask``: the referee and a bot, thin wiring
over :mod:`replay.arena`, :mod:`twentynine.arena_run`, :mod:`twentynine.arena_http` and
:mod:`twentynine.bot_server` (docs/arena.md)."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path
from types import FrameType
from typing import Annotated, Any, BinaryIO

import typer

from twentynine.options import EXIT_FINDINGS, fail

_INTERRUPTED = 130


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def arena_command(
    seat: Annotated[
        list[str] | None,
        typer.Option(
            "--seat",
            metavar="SEAT=SOURCE",
            help="Who sits in N, E, S or W: builtin:STYLE or http://HOST:PORT, NAME@ in front "
            "to name it (repeatable; a seat left out plays builtin:balanced).",
        ),
    ] = None,
    bot: Annotated[
        list[str] | None,
        typer.Option(
            "--bot",
            metavar="NAME=SOURCE",
            help="A round robin instead of --seat: two or more bots, each pair playing --deals "
            "deals (each bot holds a team), and a rating.",
        ),
    ] = None,
    deals: Annotated[
        int, typer.Option("--deals", min=1, metavar="N", help="How many deals to play.")
    ] = 100,
    seed: Annotated[int, typer.Option("--seed", metavar="S", help="Same seed, same deals.")] = 0,
    out: Annotated[
        Path | None,
        typer.Option("-o", "--out", metavar="FILE", help="Write the match logs here (.jsonl)."),
    ] = None,
    db: Annotated[
        Path | None,
        typer.Option("--db", metavar="FILE", help="Store every match in this warehouse too."),
    ] = None,
    duplicate: Annotated[
        bool,
        typer.Option(help="Play each deal twice, the hands moved to the other team."),
    ] = False,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            min=1,
            max=64,
            metavar="N",
            help="Matches at once: processes (built-in seats) or threads (HTTP seats).",
        ),
    ] = 1,
    time_ms: Annotated[
        int, typer.Option("--time-ms", min=1, metavar="MS", help="Time for each request.")
    ] = 1000,
    bank_ms: Annotated[
        int,
        typer.Option(
            "--bank-ms",
            min=0,
            metavar="MS",
            help="A bank per seat and deal instead (the competition's: 1500).",
        ),
    ] = 0,
    first_index: Annotated[
        int,
        typer.Option(
            "--first-index",
            min=0,
            max=1,
            metavar="I",
            help="playerIds index of the first speaker: 1 the archive's, 0 the kit's.",
        ),
    ] = 1,
    deal: Annotated[
        str,
        typer.Option(
            "--deal",
            metavar="HOW",
            help="fair (a fair shuffle) or server (as the Bhoos server deals).",
        ),
    ] = "fair",
    forfeit: Annotated[
        bool, typer.Option(help="A fault forfeits the match instead of a default move.")
    ] = False,
    output: Annotated[
        str, typer.Option("--format", metavar="FORMAT", help="The table: text or json.")
    ] = "text",
    quiet: Annotated[
        bool, typer.Option(help="No line per match, only faults and the table.")
    ] = False,
) -> None:
    """Play bots against each other under the bhoos rules, over the Bhoos bot protocol.

    Each match is written to -o as it ends (a killed run keeps every whole match), a line
    per match and per fault goes to standard error, and a table per bot ends the run (also
    after Ctrl-C). Exit 1 when a seat faulted.

    \b
    Example: twentynine arena --seat N=builtin:cautious --deals 20 --seed 1 -o arena.jsonl
    """
    from twentynine import arena_run
    from twentynine.replay.arena import ArenaOptions

    if deal not in ("fair", "server"):
        raise fail(f"--deal {deal!r}: give fair or server")
    if output not in ("text", "json"):
        raise fail(f"--format {output!r}: give text or json")
    if bot and seat:
        raise fail("give --seat or --bot (a round robin), not both")
    try:
        specs = arena_run.parse_seats(seat or [])
        bots = arena_run.parse_bots(bot) if bot else []
    except ValueError as exc:
        raise fail(str(exc)) from None
    sources = [spec.source for spec in (bots or list(specs.values()))]
    remote = sorted(
        {url for source in sources if source.startswith("http://") for url in source.split(",")}
    )
    try:
        arena_run.check_jobs(specs, jobs)
    except ValueError as exc:
        raise fail(str(exc)) from None
    if out is not None:
        from twentynine.outputs import refuse_overwrite
        from twentynine.reports.warehouse import DEFAULT_DB

        refuse_overwrite([out], warehouses=[db if db is not None else DEFAULT_DB])
        if out.is_dir():
            raise fail(f"cannot write {out}: a folder")
    if remote:
        from twentynine.arena_http import hello

        for url in remote:
            problem = hello(url, timeout_s=max(time_ms, 1000) / 1000)
            if problem is not None:
                typer.echo(f"twentynine: warning: {url}: {problem}; playing on", err=True)
    options = ArenaOptions(
        seed=seed,
        limit_ms=time_ms,
        bank_ms=bank_ms,
        duplicate=duplicate,
        forfeit=forfeit,
        first_index=first_index,
        dealing=arena_run.server_table if deal == "server" else None,
    )
    tally = arena_run.Tally()
    clock = arena_run.Clock(deals)
    stream: BinaryIO | None = None
    warehouse: Any = None
    interrupted = False
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        if db is not None:  # first: a warehouse refused leaves no empty -o behind
            from twentynine.reports.warehouse.errors import WarehouseError
            from twentynine.reports.warehouse.store import open_warehouse

            try:
                warehouse = open_warehouse(db)
            except WarehouseError as exc:
                raise fail(str(exc)) from None
        if out is not None:
            stream = out.open("wb")  # closed below, after the last match
        if bots:
            clock = arena_run.Clock(deals * len(bots) * (len(bots) - 1) // 2)
            played = arena_run.round_robin(bots, options, deals, jobs)
        else:
            played = arena_run.matches(specs, options, deals, jobs)
        _run(arena_run, played, stream, warehouse, tally, clock, quiet)
    except KeyboardInterrupt:
        interrupted = True
    except OSError as exc:
        raise fail(f"cannot write {out}: {exc.strerror or exc}") from None
    finally:
        signal.signal(signal.SIGTERM, previous)
        if stream is not None:
            stream.close()
        if warehouse is not None:
            warehouse.close()
    if interrupted:
        typer.echo(f"twentynine: arena: stopped; {tally.matches} whole matches kept", err=True)
    ratings = arena_run.rating(tally, [b.name for b in bots]) if bots else None
    if output == "json":
        body = {"matches": tally.matches, "deals": tally.deals, "bots": tally.rows()}
        body["faults"] = dict(sorted(tally.faults.items()))
        if ratings is not None:
            body["rating"] = ratings
        typer.echo(json.dumps(body, indent=2))
    else:
        typer.echo(arena_run.table_text(tally))
        if ratings is not None:
            typer.echo(arena_run.rating_text(ratings))
        total = sum(tally.faults.values())
        typer.echo(f"{tally.matches} matches, {tally.deals} deals, {total} faults")
    if interrupted:
        raise typer.Exit(_INTERRUPTED)
    if tally.faults:
        raise typer.Exit(EXIT_FINDINGS)


def _run(
    arena_run: Any,
    matches: Any,
    stream: BinaryIO | None,
    warehouse: Any,
    tally: Any,
    clock: Any,
    quiet: bool,
) -> None:
    from twentynine.importers.canonical import dump_match

    for played in matches:
        line = dump_match(played.log) + b"\n"
        if stream is not None:
            stream.write(line)  # one whole line at a time: a killed run keeps whole matches
            stream.flush()
        if warehouse is not None:
            from twentynine.reports.warehouse.store import SourcedMatch

            warehouse.load([SourcedMatch(played.log, "arena", played.number + 1)])
        tally.add(played)
        names = {s: m["name"] for s, m in played.log.meta["arena"]["seats"].items()}
        said: set[tuple[str, str]] = set()
        for fault in played.faults:
            key = (fault.seat.value, fault.code)
            if key not in said:  # one line per seat and code a match; the table counts all
                said.add(key)
                line_text = arena_run.fault_line(fault, names[fault.seat.value])
                typer.echo(f"twentynine: arena: {line_text}", err=True)
        if not quiet:
            typer.echo(clock.line(tally.deals, played), err=True)


bot_app = typer.Typer(
    name="bot",
    help="A built-in bot over the Bhoos bot protocol: serve it, or ask a bot one request.",
    no_args_is_help=True,
    rich_markup_mode=None,
)


@bot_app.command("serve")
def serve_command(
    style: Annotated[
        str, typer.Option("--style", metavar="STYLE", help="cautious, balanced or aggressive.")
    ] = "balanced",
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, metavar="P", help="0: any free port.")
    ] = 8001,
    host: Annotated[
        str, typer.Option("--host", metavar="HOST", help="Listen here (loopback by default).")
    ] = "127.0.0.1",
    verbose: Annotated[bool, typer.Option(help="Log every request.")] = False,
) -> None:
    """Serve a built-in style over the Bhoos bot protocol until Ctrl-C or SIGTERM.

    The first line says the address (with --port 0, the port chosen).

    \b
    Example: twentynine bot serve --style cautious --port 8001
    """
    from twentynine.bot_server import make_server, stop_soon

    try:
        server = make_server(style, host, port, quiet=not verbose)
    except ValueError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    bound_host, bound_port = server.server_address[:2]
    typer.echo(f"serving {style} on http://{bound_host!s}:{bound_port}")
    sys.stdout.flush()

    def _stop(signum: int, frame: FrameType | None) -> None:
        stop_soon(server)

    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.server_close()
    typer.echo("stopped", err=True)


@bot_app.command("ask")
def ask_command(
    url: Annotated[str, typer.Argument(metavar="URL", help="The bot: http://HOST:PORT.")],
    log: Annotated[
        Path, typer.Argument(metavar="LOG", help="An arena log (.jsonl) with the fault.")
    ],
    match_id: Annotated[
        str | None, typer.Option("--match", metavar="ID", help="The match (default: first).")
    ] = None,
    fault_number: Annotated[
        int, typer.Option("--fault", min=1, metavar="K", help="The match's K-th fault.")
    ] = 1,
    time_ms: Annotated[int, typer.Option("--time-ms", min=1, metavar="MS")] = 1000,
) -> None:
    """Send a bot again the request it faulted on in an arena log, and print its answer.

    \b
    Example: twentynine bot ask http://127.0.0.1:8001 arena.jsonl --fault 1
    """
    import http.client
    import time
    from urllib.parse import urlsplit

    import orjson

    from twentynine.arena_http import MAX_ANSWER

    found = None
    try:
        with log.open("rb") as stream:
            for number, raw in enumerate(stream, 1):
                try:
                    match = orjson.loads(raw)
                except orjson.JSONDecodeError:
                    raise fail(f"{log}:{number}: not a JSON line") from None
                if match_id is not None and match.get("id") != match_id:
                    continue
                faults = ((match.get("meta") or {}).get("arena") or {}).get("faults") or []
                if match_id is None and not faults:
                    continue
                if len(faults) < fault_number:
                    raise fail(f"{log}:{number}: match {match.get('id')} has {len(faults)} faults")
                found = faults[fault_number - 1]
                break
    except OSError as exc:
        raise fail(f"cannot read {log}: {exc.strerror or exc}") from None
    if found is None:
        raise fail(f"{log}: no match with a fault" + (f" named {match_id}" if match_id else ""))
    request = found.get("request")
    if request is None:
        raise fail(f"{log}: the fault has no request recorded (an in-process seat)")
    parts = urlsplit(url)
    path = parts.path.rstrip("/") + "/" + found["call"]
    typer.echo(f"{found['code']} on /{found['call']}: {found['message']}", err=True)
    start = time.perf_counter()
    try:
        conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=time_ms / 1000)
        conn.request("POST", path, orjson.dumps(request), {"Content-Type": "application/json"})
        response = conn.getresponse()
        body = response.read(MAX_ANSWER)
        conn.close()
    except (OSError, http.client.HTTPException) as exc:
        raise fail(f"{url}: {exc}") from None
    ms = (time.perf_counter() - start) * 1000
    typer.echo(f"HTTP {response.status} in {ms:.1f} ms", err=True)
    typer.echo(body.decode("utf-8", "replace"))
