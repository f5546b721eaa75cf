"""A run of the arena: seats from their specs, matches played in order, each written as it
ends, and the table per bot (docs/arena.md).

>>> seats = parse_seats(["N=builtin:cautious"])
>>> [(s.value, spec.name) for s, spec in seats.items()]
[('N', 'cautious'), ('E', 'balanced'), ('S', 'balanced'), ('W', 'balanced')]
"""

from __future__ import annotations

import math
import queue
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Final

from twentynine.replay.arena import (
    ArenaOptions,
    ArenaSeat,
    BuiltinSeat,
    Fault,
    PlayedMatch,
    play_match,
)
from twentynine.replay.bots import STYLE_NAMES
from twentynine.schema.cards import ALL_CARDS, SEATS, Card, Seat, Team
from twentynine.schema.log import DealResult, MatchResult, ShowAction, TrumpAction
from twentynine.schema.rules import Rules

DEFAULT_SOURCE: Final = "builtin:balanced"
BUILTIN: Final[dict[str, Callable[[], ArenaSeat]]] = {
    style: partial(BuiltinSeat, style) for style in STYLE_NAMES
}
"""The in-process seats ``builtin:NAME`` names, each made new for a match (``bot serve``:
for a request). The judge bot (issue 34 §3) joins here as ``judge``: any object with
``bid``, ``choose_trump`` and ``play`` taking a :class:`~replay.arena.Turn` (and, to draw
on the match's seed, ``begin(rng)``)."""


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who sits in a seat: ``builtin:STYLE`` or an ``http://`` URL, and the bot's name."""

    source: str
    name: str

    @property
    def remote(self) -> bool:
        return self.source.startswith("http://")


def parse_seats(entries: Sequence[str]) -> dict[Seat, SeatSpec]:
    """``SEAT=SOURCE`` entries (a seat left out plays ``builtin:balanced``); a source is
    ``builtin:STYLE`` or ``http://host:port``, named by ``NAME@`` in front if given.

    Raises ``ValueError`` with the reason for a bad entry.

    >>> parse_seats(["E=me@http://127.0.0.1:8001"])[Seat.E]
    SeatSpec(source='http://127.0.0.1:8001', name='me')
    """
    given: dict[Seat, str] = {}
    for entry in entries:
        seat_text, sep, source = entry.partition("=")
        seat_text = seat_text.strip().upper()
        if not sep or seat_text not in ("N", "E", "S", "W"):
            raise ValueError(f"--seat {entry!r}: write SEAT=SOURCE, SEAT one of N, E, S, W")
        seat = Seat(seat_text)
        if seat in given:
            raise ValueError(f"--seat {seat_text} is given twice")
        given[seat] = source.strip()
    seats: dict[Seat, SeatSpec] = {}
    for seat in SEATS:
        source = given.get(seat, DEFAULT_SOURCE)
        name, at, rest = source.partition("@")
        if at and not name.startswith("http"):
            source = rest
        else:
            name = ""
        if source.startswith("builtin:"):
            style = source.removeprefix("builtin:")
            if style not in BUILTIN:
                known = ", ".join(BUILTIN)
                raise ValueError(f"--seat {seat.value}: unknown style {style!r} (known: {known})")
            seats[seat] = SeatSpec(source, name or style)
        elif source.startswith("http://"):
            urls = [url.strip() for url in source.split(",")]
            if not all(url.startswith("http://") for url in urls):
                raise ValueError(f"--seat {seat.value}: every URL of a list is http://HOST:PORT")
            first = urls[0].removeprefix("http://").rstrip("/")
            seats[seat] = SeatSpec(",".join(urls), name or first)
        else:
            raise ValueError(
                f"--seat {seat.value}={source!r}: a source is builtin:STYLE or http://HOST:PORT"
            )
    return seats


def make_seats(
    specs: Mapping[Seat, SeatSpec], first_index: int, job: int = 0
) -> dict[Seat, ArenaSeat]:
    """A seat object for each spec: one HTTP client per seat (partners at one URL each
    have their own connection); a seat with a URL per job takes the ``job``-th."""
    seats: dict[Seat, ArenaSeat] = {}
    for seat, spec in specs.items():
        if spec.remote:
            from twentynine.arena_http import HttpSeat

            seats[seat] = HttpSeat(url_for(spec, job), first_index)
        else:
            seats[seat] = BUILTIN[spec.source.removeprefix("builtin:")]()
    return seats


def url_for(spec: SeatSpec, job: int) -> str:
    """The URL a job asks for a seat: its own where the seat lists one a job, else the one.

    >>> url_for(SeatSpec("http://a:1,http://a:2", "a"), 1)
    'http://a:2'
    """
    urls = spec.source.split(",")
    return urls[job] if len(urls) > 1 else urls[0]


def check_jobs(specs: Mapping[Seat, SeatSpec], jobs: int) -> None:
    """Raises ``ValueError`` when a seat lists several URLs but not one a job."""
    for seat, spec in specs.items():
        count = len(spec.source.split(",")) if spec.remote else 1
        if count > 1 and count != jobs:
            raise ValueError(
                f"--seat {seat.value} lists {count} URLs: give one, or one a job (--jobs {count})"
            )


def cut(played: PlayedMatch, deals: int) -> PlayedMatch:
    """The match stopped after its first ``deals`` deals (the run's budget ends in it): its
    result is the score so far, with no winner; ``meta.arena.cut`` says so."""
    log = played.log
    kept = log.deals[:deals]
    last: DealResult | None = kept[-1].result if kept else None
    score = last.score if last is not None else None
    meta = dict(log.meta or {})
    meta["arena"] = {**meta["arena"], "cut": True}
    meta["arena"]["faults"] = [f for f in meta["arena"]["faults"] if f["deal"] <= deals]
    result = MatchResult(score=score, winner=None) if score is not None else None
    new_log = log.model_copy(update={"deals": kept, "meta": meta, "result": result})
    faults = [f for f in played.faults if f.deal <= deals]
    return PlayedMatch(new_log, faults, played.stats, played.number)


def _play_one(args: tuple[dict[Seat, SeatSpec], ArenaOptions, int]) -> PlayedMatch:
    specs, options, number = args
    seats = make_seats(specs, options.first_index)
    names = {seat: spec.name for seat, spec in specs.items()}
    sources = {seat: spec.source for seat, spec in specs.items()}
    return play_match(seats, options, number, names, sources)


def matches(
    specs: Mapping[Seat, SeatSpec], options: ArenaOptions, deals: int, jobs: int = 1
) -> Iterator[PlayedMatch]:
    """The run's matches in match-id order until ``deals`` deals are played (the last one
    cut there). With ``jobs`` > 1 (in-process seats only) matches are played in worker
    processes, the same matches as with one."""
    spec_map = dict(specs)
    played_deals = 0
    if jobs <= 1:
        seats = make_seats(spec_map, options.first_index)
        names = {seat: spec.name for seat, spec in spec_map.items()}
        sources = {seat: spec.source for seat, spec in spec_map.items()}
        number = 0
        while played_deals < deals:
            # a match never runs past the run's budget (void deals can make a match long)
            bounded = replace(options, max_deals=deals - played_deals)
            played = play_match(seats, bounded, number, names, sources)
            number += 1
            played, played_deals = _budget(played, played_deals, deals)
            yield played
        for seat in seats.values():
            close = getattr(seat, "close", None)
            if close is not None:
                close()
        return
    if any(spec.remote for spec in spec_map.values()):
        yield from _threaded(spec_map, options, deals, jobs)
        return
    from twentynine.workers import process_pool

    with process_pool(jobs) as pool:
        pending: list[Future[PlayedMatch]] = []
        number = 0
        while played_deals < deals:
            while len(pending) < 2 * jobs:
                bounded = replace(options, max_deals=deals)
                pending.append(pool.submit(_play_one, (spec_map, bounded, number)))
                number += 1
            played = pending.pop(0).result()
            played, played_deals = _budget(played, played_deals, deals)
            yield played
        for future in pending:
            future.cancel()


def _threaded(
    specs: dict[Seat, SeatSpec], options: ArenaOptions, deals: int, jobs: int
) -> Iterator[PlayedMatch]:
    """HTTP seats with ``jobs`` > 1: a thread a job, each with its own seats (and its own URL
    where a seat lists one a job); the matches kept in match-id order."""
    free: queue.Queue[tuple[int, dict[Seat, ArenaSeat]]] = queue.Queue()
    for job in range(jobs):
        free.put((job, make_seats(specs, options.first_index, job)))
    names = {seat: spec.name for seat, spec in specs.items()}

    def play(number: int) -> PlayedMatch:
        job, seats = free.get()  # a job's seats are free: at most `jobs` matches run
        try:
            sources = {seat: url_for(spec, job) for seat, spec in specs.items()}
            bounded = replace(options, max_deals=deals)
            return play_match(seats, bounded, number, names, sources)
        finally:
            free.put((job, seats))

    played_deals = 0
    with ThreadPoolExecutor(jobs) as pool:
        pending: list[Future[PlayedMatch]] = []
        number = 0
        try:
            while played_deals < deals:
                while len(pending) < 2 * jobs:
                    pending.append(pool.submit(play, number))
                    number += 1
                played = pending.pop(0).result()
                played, played_deals = _budget(played, played_deals, deals)
                yield played
        finally:
            for future in pending:
                future.cancel()
    while not free.empty():
        for seat in free.get()[1].values():
            close = getattr(seat, "close", None)
            if close is not None:
                close()


def _budget(played: PlayedMatch, so_far: int, deals: int) -> tuple[PlayedMatch, int]:
    """The match as the run keeps it: cut where the budget ends in it, whether it was
    played further (in a worker) or stopped there (the same log either way)."""
    count = len(played.log.deals)
    left = deals - so_far
    result = played.log.result
    unfinished = result is not None and result.winner is None
    arena = (played.log.meta or {}).get("arena", {})
    if count > left or (count == left and unfinished and not arena.get("duplicate")):
        played = cut(played, left)
        count = left
    return played, so_far + count


@dataclass
class BotFigures:
    """What the table shows for one bot, gathered match by match."""

    name: str
    deals: int = 0
    deals_won: int = 0
    matches: int = 0
    matches_won: int = 0
    points: list[int] = field(default_factory=list)
    called: int = 0
    made: int = 0
    asked: int = 0
    ms: list[float] = field(default_factory=list)
    faults: Counter[str] = field(default_factory=Counter)

    def row(self) -> dict[str, Any]:
        """The bot's row: JSON-ready (``--format json``)."""
        mean, low, high = interval(self.points)
        return {
            "bot": self.name,
            "deals": self.deals,
            "deals_won": self.deals_won,
            "matches": self.matches,
            "matches_won": self.matches_won,
            "points_per_deal": _round(mean),
            "points_low": _round(low),
            "points_high": _round(high),
            "called": self.called,
            "make_rate": _round(self.made / self.called) if self.called else None,
            "ask_rate": _round(self.asked / self.deals) if self.deals else None,
            "requests": len(self.ms),
            "median_ms": _round(statistics.median(self.ms)) if self.ms else None,
            "p99_ms": _round(percentile(self.ms, 0.99)) if self.ms else None,
            "faults": dict(sorted(self.faults.items())),
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def interval(values: Sequence[int]) -> tuple[float | None, float | None, float | None]:
    """The mean and its 95% interval (normal approximation); Nones for no value.

    >>> interval([1, -1, 1, 1])
    (0.5, -0.48, 1.48)
    """
    if not values:
        return None, None, None
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, None, None
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, round(mean - half, 3), round(mean + half, 3)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (nearest rank).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.99)
    4.0
    """
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


@dataclass
class Tally:
    """The run's figures per bot, and the matches and faults counted."""

    bots: dict[str, BotFigures] = field(default_factory=dict)
    pairs: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    """Deals won and lost by the N-S bot against the E-W bot, where each holds a team."""
    matches: int = 0
    deals: int = 0
    faults: Counter[str] = field(default_factory=Counter)

    def add(self, played: PlayedMatch) -> None:
        log = played.log
        assert log.meta is not None  # the referee writes meta.arena
        names = {seat: log.meta["arena"]["seats"][seat.value]["name"] for seat in SEATS}
        self.matches += 1
        self.deals += len(log.deals)
        for fault in played.faults:
            self.faults[fault.code] += 1
            self.figures(names[fault.seat]).faults[fault.code] += 1
        for seat in SEATS:
            self.figures(names[seat]).ms.extend(played.stats[seat].ms)
        north, east = names[Seat.N], names[Seat.E]
        if names[Seat.S] == north and names[Seat.W] == east and north != east:
            score = self.pairs.setdefault((north, east), [0, 0])
            previous = (0, 0)
            for deal in log.deals:
                if deal.result is None or deal.result.score is None:
                    continue
                now = (deal.result.score.NS, deal.result.score.EW)
                net = (now[0] - previous[0]) - (now[1] - previous[1])
                previous = now
                if net:
                    score[0 if net > 0 else 1] += 1
        # each bot once per team: partners of one bot count a deal once
        sides = {(names[seat], seat.team) for seat in SEATS}
        winner = log.result.winner if log.result is not None else None
        for name, team in sorted(sides):
            figures = self.figures(name)
            seats = [s for s in SEATS if names[s] == name and s.team is team]
            figures.matches += 1
            figures.matches_won += winner is team
            before = {Team.NS: 0, Team.EW: 0}
            for deal in log.deals:
                result = deal.result
                if result is None or result.score is None:
                    continue
                after = {Team.NS: result.score.NS, Team.EW: result.score.EW}
                net = (after[team] - before[team]) - (after[team.other] - before[team.other])
                before = after
                figures.deals += 1
                figures.deals_won += net > 0
                figures.points.append(net)
                caller = next((a.seat for a in deal.actions if isinstance(a, TrumpAction)), None)
                if caller in seats and result.thrown_in is None:
                    figures.called += 1
                    figures.made += net > 0
                figures.asked += sum(
                    1 for a in deal.actions if isinstance(a, ShowAction) and a.seat in seats
                )

    def figures(self, name: str) -> BotFigures:
        if name not in self.bots:
            self.bots[name] = BotFigures(name)
        return self.bots[name]

    def rows(self) -> list[dict[str, Any]]:
        return [self.bots[name].row() for name in sorted(self.bots)]


def table_text(tally: Tally) -> str:
    """The table per bot, as text (docs/arena.md shows one)."""
    from twentynine.textout import text_table

    headers = [
        "bot",
        "deals",
        "won",
        "matches won",
        "points/deal (95%)",
        "make rate",
        "ask rate",
        "median ms",
        "p99 ms",
        "faults",
    ]
    rows = []
    for row in tally.rows():
        span = ""
        if row["points_low"] is not None:
            span = f" ({row['points_low']:+.2f} to {row['points_high']:+.2f})"
        points = (
            f"{row['points_per_deal']:+.3f}{span}" if row["points_per_deal"] is not None else "-"
        )
        faults = " ".join(f"{code}={n}" for code, n in row["faults"].items()) or "0"
        rows.append(
            [
                row["bot"],
                str(row["deals"]),
                str(row["deals_won"]),
                f"{row['matches_won']}/{row['matches']}",
                points,
                _rate(row["make_rate"]),
                _rate(row["ask_rate"]),
                _ms(row["median_ms"]),
                _ms(row["p99_ms"]),
                faults,
            ]
        )
    return text_table(headers, rows)


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def fault_line(fault: Fault, name: str) -> str:
    """The one line the run prints for a fault."""
    instead = f"; {fault.replaced_by} made for it" if fault.replaced_by else "; match forfeited"
    return (
        f"match {fault.match}, deal {fault.deal}: {fault.seat.value} ({name}) "
        f"{fault.code} on /{fault.call}: {fault.message}{instead}"
    )


class Clock:
    """The progress line's figures: deals done, and the time left at the pace so far."""

    def __init__(self, total: int, now: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.now = now
        self.start = now()

    def line(self, done: int, played: PlayedMatch) -> str:
        elapsed = self.now() - self.start
        left = elapsed / done * (self.total - done) if done else 0.0
        result = played.log.result
        score = f"NS {result.score.NS} - EW {result.score.EW}" if result and result.score else ""
        ms = [m for s in played.stats.values() for m in s.ms]
        pace = f", {statistics.median(ms):.1f} ms a request" if ms else ""
        faults = len(played.faults)
        return (
            f"match {played.number + 1}: {score}, {len(played.log.deals)} deals, "
            f"{faults} fault{'s' if faults != 1 else ''}{pace} "
            f"[{done}/{self.total} deals, {_clock(left)} left]"
        )


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds + 0.5), 60)
    return f"{minutes}:{secs:02d}"


def parse_bots(entries: Sequence[str]) -> list[SeatSpec]:
    """``NAME=SOURCE`` entries for a round robin: at least two, names distinct.

    >>> [b.name for b in parse_bots(["a=builtin:cautious", "b=builtin:aggressive"])]
    ['a', 'b']
    """
    bots: list[SeatSpec] = []
    for entry in entries:
        name, sep, source = entry.partition("=")
        name = name.strip()
        if not sep or not name:
            raise ValueError(f"--bot {entry!r}: write NAME=SOURCE")
        if any(b.name == name for b in bots):
            raise ValueError(f"--bot {name!r} is given twice")
        spec = parse_seats([f"N={name}@{source.strip()}"])[Seat.N]
        bots.append(spec)
    if len(bots) == 1:
        raise ValueError("a round robin needs two --bot or more")
    return bots


def round_robin(
    bots: Sequence[SeatSpec], options: ArenaOptions, deals: int, jobs: int = 1
) -> Iterator[PlayedMatch]:
    """Every pair of bots plays ``deals`` deals, the first of the pair as N-S, on the same
    deals (the seed's) for every pair; match ids ``arena-SEED-IvJ-N``."""
    for i, first in enumerate(bots):
        for j in range(i + 1, len(bots)):
            second = bots[j]
            specs = {Seat.N: first, Seat.S: first, Seat.E: second, Seat.W: second}
            labelled = replace(options, label=f"{i + 1}v{j + 1}")
            yield from matches(specs, labelled, deals, jobs)


def rating(tally: Tally, bots: Sequence[str]) -> list[dict[str, Any]]:
    """A Bradley-Terry rating from the deals each pair of bots played, on the Elo scale,
    the first bot at 0, each with its 95% interval (from the fit's information): a deal is
    won by the team that gained on the other; a void deal counts for neither.

    >>> t = Tally(pairs={("a", "b"): [12, 8]})
    >>> [(r["bot"], r["elo"]) for r in rating(t, ["a", "b"])]
    [('a', 0.0), ('b', -70.4)]
    """
    n = len(bots)
    index = {name: k for k, name in enumerate(bots)}
    wins = [[0.0] * n for _ in range(n)]
    for (a, b), (won, lost) in tally.pairs.items():
        if a in index and b in index:
            wins[index[a]][index[b]] += won
            wins[index[b]][index[a]] += lost
    strength = [1.0] * n
    for _ in range(500):  # the MM iteration (Hunter 2004): converges for a connected schedule
        new = []
        for i in range(n):
            total = sum(wins[i])
            denominator = sum(
                (wins[i][j] + wins[j][i]) / (strength[i] + strength[j])
                for j in range(n)
                if j != i and wins[i][j] + wins[j][i]
            )
            new.append(max(total, 0.5) / denominator if denominator else strength[i])
        anchor = new[0]
        strength = [value / anchor for value in new]
    theta = [math.log(value) for value in strength]
    # the information of the log-strengths, bot 0 held at 0: the rest's covariance
    size = n - 1
    info = [[0.0] * size for _ in range(size)]
    for i in range(1, n):
        for j in range(n):
            games = wins[i][j] + wins[j][i]
            if j == i or not games:
                continue
            p = strength[i] * strength[j] / (strength[i] + strength[j]) ** 2
            info[i - 1][i - 1] += games * p
            if j > 0:
                info[i - 1][j - 1] -= games * p
    covariance = _inverse(info)
    scale = 400.0 / math.log(10.0)
    rows = []
    for k, name in enumerate(bots):
        se = 0.0 if k == 0 else math.sqrt(max(covariance[k - 1][k - 1], 0.0))
        elo = scale * theta[k]
        rows.append(
            {
                "bot": name,
                "elo": round(elo, 1),
                "low": round(elo - 1.96 * scale * se, 1),
                "high": round(elo + 1.96 * scale * se, 1),
                "deals": int(sum(wins[k]) + sum(wins[j][k] for j in range(n))),
            }
        )
    return rows


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan inverse of a small matrix; a singular one gives infinities (no
    interval)."""
    size = len(matrix)
    work = [row[:] + [1.0 if i == j else 0.0 for j in range(size)] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(work[r][col]))
        if abs(work[pivot][col]) < 1e-12:
            return [[math.inf] * size for _ in range(size)]
        work[col], work[pivot] = work[pivot], work[col]
        head = work[col][col]
        work[col] = [value / head for value in work[col]]
        for row in range(size):
            if row != col and work[row][col]:
                factor = work[row][col]
                work[row] = [a - factor * b for a, b in zip(work[row], work[col], strict=True)]
    return [row[size:] for row in work]


def rating_text(rows: Sequence[dict[str, Any]]) -> str:
    """The rating as text."""
    from twentynine.textout import text_table

    body = [
        [
            r["bot"],
            f"{r['elo']:+.0f}",
            _span(r["low"], r["high"]) if k else "the anchor",
            str(r["deals"]),
        ]
        for k, r in enumerate(rows)
    ]
    return text_table(["bot", "rating", "95% interval", "deals decided"], body)


def _span(low: float, high: float) -> str:
    if math.isinf(low) or math.isinf(high):
        return "-"
    return f"{low:+.0f} to {high:+.0f}"


def server_table(rng: random.Random, dealer: Seat, rules: Rules) -> dict[Seat, list[Card | None]]:
    """A deal as the Bhoos server deals (``--deal server``): each card, in a shuffled order,
    goes to one of the eight four-card packets with chance in proportion to the packet's room
    times the card's weight for it (:mod:`analysis.models.dealing`, fitted on the archive).

    >>> hands = server_table(random.Random(1), Seat.N, Rules.preset("bhoos"))
    >>> sorted(len(h) for h in hands.values()), len({c for h in hands.values() for c in h})
    ([8, 8, 8, 8], 32)
    """
    from twentynine.analysis.models.dealing import shipped_model

    model = shipped_model()
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    packets: list[list[Card | None]] = [[] for _ in range(8)]
    for card in deck:
        chances = [(4 - len(packets[p])) * model.weight(card, p // 2, p % 2) for p in range(8)]
        if sum(chances) <= 0:  # no packet left the card has weight for: room alone
            chances = [4.0 - len(packets[p]) for p in range(8)]
        packets[rng.choices(range(8), weights=chances)[0]].append(card)
    start = SEATS.index(dealer)
    return {SEATS[(start + k) % 4]: packets[2 * k] + packets[2 * k + 1] for k in range(4)}
