"""Do the labels carry information? Issue 20 §6, measured on held-back files of the archive.

The Bhoos archive's files 12296_500 and 12475_500 (``fit_auction_model.HELD_BACK``) were never
fitted on by the model of the others' calls. A seeded subset of their games (``--games`` per
file; a deal already found in an earlier file left out) is analysed as ``twentynine analyze``
would (bids, trump, shows, cards and par, ``--samples`` per decision), each game's
annotations and real outcome saved a line a game in ``bench/out/judge_archive.jsonl``
(``--tables-only`` prints the tables again from that file; ``--name`` another prefix than
``judge``). Then:

- bids: the make-rate of contracts whose caller's last call was labelled mistake or worse,
  against unlabelled ones (the difference, with its 95% Newcombe interval);
- shows: whether the deciding side reached its goal in the real game, labelled against not;
  and the archive's pattern: asking while holding no trump;
- trump: every trump choice the analysis would change is played out on the real deal (all 32
  cards) from the chosen and the recommended trump by the same bots, ``--playouts`` times
  with the same random choices: the recommended one's make-rate gain, labelled and not, with
  its interval; beside it the real make-rate of labelled against unlabelled choices;
- cards: whether the side of a card that lost points with all cards known reached its goal
  in the real game, labelled against not;
- label rates: the share of decisions of each kind labelled inaccuracy or worse (a card is
  a decision where its seat had a real choice, two legal cards or more that differ from its
  view; the share of every card played beside it);
- doubles, redoubles, the Set and the single hand: the archive has none (bhoos rules), so
  their reliability (the chance predicted against the outcome) is measured on
  ``--simulated`` bangladesh matches with the Set played by the simulator's bots
  (``bench/out/judge_doubling.jsonl``). The outcome of a single hand is whether the seat
  judged, alone on the deal's real cards, wins every trick against defenders who see every
  card (the bots seldom play one alone); of the others, the deal's result.
  (``--games 0``: the simulated matches alone.)

    nice python bench/judge_archive.py --games 150 --samples 8 --jobs 2
    python bench/judge_archive.py --tables-only
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

# Run as a script, bench/ comes first on the path: put the repository root before it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fit_auction_model import ARCHIVE, HELD_BACK, deal_key

from twentynine.analysis.hindsight import action_text
from twentynine.analysis.judge.cards import card_classes
from twentynine.analysis.judge.playout import play_out, reached
from twentynine.analysis.models.contract import ContractModel
from twentynine.analysis.models.dealing import DealingModel
from twentynine.analysis.models.dealing import shipped_model as shipped_dealing
from twentynine.analysis.models.others import AuctionModel
from twentynine.analysis.positions import deal_positions, full_play_rules
from twentynine.analysis.run import AnalysisOptions, DealTask, annotate_deal
from twentynine.analysis.single_hand import wins_alone
from twentynine.importers.bhoos_archive import read_stream
from twentynine.replay import replay_deal
from twentynine.replay.selfplay import simulate_matches
from twentynine.schema import Rules
from twentynine.schema.cards import SEATS, Seat
from twentynine.schema.log import Deal, MatchLog, PlayAction

OUT = Path(__file__).resolve().parent / "out"
KINDS = frozenset({"bid", "trump", "show", "card", "par"})
DOUBLING = frozenset({"double", "redouble", "set", "single_hand"})
SIMULATED_RULES = Rules.preset("bangladesh").with_options(set=True)
"""The simulated matches' rules: bangladesh (a Double, a Redouble, the single hand) with the
Set, an option no preset has, so that the Set's answers are judged too."""
BAD = ("mistake", "blunder")
BOOTSTRAP = 2000


# ------------------------------------------------------------------------- the games
def held_back_games(
    folder: Path, per_file: int, seed: int, files: Sequence[str] = HELD_BACK
) -> list[tuple[str, MatchLog]]:
    """``per_file`` games of each of ``files``, chosen at random by ``seed``; a deal seen
    in an earlier file (by name) is left out, as the fit counts it there."""
    seen: set[str] = set()
    chosen: list[tuple[str, MatchLog]] = []
    for path in sorted(folder.glob("*.json")):
        games: list[MatchLog] = []
        with path.open("rb") as stream:
            for record in read_stream(stream, str(path)):
                if record.match is None or not record.match.deals:
                    continue
                key = deal_key(record.match.deals[0])
                if key in seen:
                    continue
                seen.add(key)
                games.append(record.match)
        if path.name in files:
            pick = random.Random(f"{seed}|{path.name}").sample(games, min(per_file, len(games)))
            chosen += [(path.name, match) for match in pick]
    return chosen


def _note_row(note: Any) -> dict[str, Any]:
    detail = json.loads(note.detail)
    secondary = detail.get("secondary", {})
    return {
        "action": note.action,
        "seat": note.seat,
        "kind": note.kind,
        "method": note.method,
        "chosen": note.chosen,
        "best": note.best,
        "loss": note.loss,
        "label": note.label,
        "value_chosen": note.value_chosen,
        "chance_chosen": secondary.get(note.chosen),
        "goal": detail.get("goal"),
    }


def _shows(rules: Rules, match: MatchLog) -> list[dict[str, Any]]:
    """Every moment a seat could ask for the trump: whether it asked, whether it held a
    trump then, and whether it sat with the caller."""
    deal = match.deals[0]
    out = []
    for pos in deal_positions(rules, deal, 1):
        state = pos.state
        seat = pos.action.seat
        if state.phase_name != "play" or state.current_seat is not seat:
            continue
        if not any(a.type == "show" for a in state.legal_actions(seat)):
            continue
        caller = state.caller_seat
        trump = state.trump_suit
        held = [c for c in state.hand(seat) if c is not None]
        out.append(
            {
                "action": pos.at,
                "asked": pos.action.type == "show",
                "holds_trump": trump is not None and any(c.suit.value == trump for c in held),
                "with_caller": caller is not None and seat.team is caller.team,
            }
        )
    return out


Models = tuple[ContractModel, AuctionModel, DealingModel] | None
"""The models fitted without the game's file (``--folds``: the contract model, the calls',
the server's dealing), or None: the shipped ones."""


def analyse(
    task: tuple[str, MatchLog, int, int, frozenset[str], Models, bool],
) -> dict[str, Any]:
    """One game's line: its annotations and its real outcome (``server``: the layouts dealt
    as the server deals, the fold's or the shipped table; else a fair shuffle)."""
    name, match, samples, seed, kinds, models, server = task
    rules = match.resolved_rules()
    deal = match.deals[0]
    started = time.process_time()
    contract, others, dealing = models if models is not None else (None, None, None)
    dealing = (dealing or shipped_dealing()) if server else None
    options = AnalysisOptions(
        kinds=kinds,
        samples=samples,
        seed=seed,
        model=contract,
        auction_model=others,
        dealing=dealing,
    )
    notes = annotate_deal(DealTask(match.match_id, rules, deal, 1, options))
    cpu = time.process_time() - started
    final = replay_deal(rules, deal, 1)
    outcome = final.outcome
    view = final.seat_view()
    caller = view.caller
    last_call = max(
        (
            i
            for i, a in enumerate(deal.actions)
            if caller is not None and a.seat is caller and a.type in ("bid", "ditto")
        ),
        default=None,
    )
    return {
        "file": name,
        "match_id": match.match_id,
        "caller": caller.value if caller is not None else None,
        "target": view.target,
        "made": outcome.made if outcome is not None else None,
        "last_call": last_call,
        "cpu": round(cpu, 3),
        "notes": [_note_row(n) for n in notes],
        "shows": _shows(full_play_rules(rules), match),
        "choices": _card_choices(full_play_rules(rules), match),
    }


def _card_choices(rules: Rules, match: MatchLog) -> list[int]:
    """The actions of the cards played where the seat had a real choice: two legal cards
    or more that are not the same card from its view (:func:`card_classes`)."""
    return [
        pos.at
        for pos in deal_positions(rules, match.deals[0], 1)
        if isinstance(pos.action, PlayAction)
        and pos.state.phase_name == "play"
        and len(card_classes(pos.state, pos.action.seat)) >= 2
    ]


# ------------------------------------------------------------ trump checked by play
def trump_playouts(match: MatchLog, note: dict[str, Any], playouts: int) -> dict[str, float]:
    """The real deal played out by the bots from the chosen and the recommended trump, with
    the same random choices for both: each one's share of calls made."""
    rules = full_play_rules(match.resolved_rules())
    deal = match.deals[0]
    pos = list(deal_positions(rules, deal, 1))[note["action"]]
    choices = {action_text(a): a for a in pos.state.legal_actions() if a.type == "trump"}
    history = [p.action for p in list(deal_positions(rules, deal, 1))[: note["action"]]]
    made: dict[str, float] = {}
    for text in (note["chosen"], note["best"]):
        total = 0.0
        for j in range(playouts):
            start = pos.state.copy()
            start.apply(choices[text])
            end = play_out(start, [*history, choices[text]], random.Random(f"{match.match_id}|{j}"))
            total += reached(end, pos.action.seat)[0]
        made[text] = total / playouts
    return made


# --------------------------------------------------------------- doubling, simulated
def simulated_doubling(task: tuple[int, int, int]) -> list[dict[str, Any]]:
    """The doubling and single-hand annotations of one simulated bangladesh match, each with
    the chance it predicted and what happened."""
    seed, samples, number = task
    (match,) = list(simulate_matches(SIMULATED_RULES, 1, seed + number))
    rules = match.resolved_rules()
    rows = []
    for index, deal in enumerate(match.deals, start=1):
        options = AnalysisOptions(kinds=DOUBLING, samples=samples, seed=seed)
        notes = annotate_deal(DealTask(match.match_id, rules, deal, index, options))
        if not notes:
            continue
        final = replay_deal(rules, deal, index)
        outcome = final.outcome
        caller = final.seat_view().caller
        single = final.seat_view().single
        for note in notes:
            detail = json.loads(note.detail)
            secondary = detail.get("secondary", {})
            if note.kind == "single_hand":
                rows.append(
                    {
                        "kind": note.kind,
                        "chance": secondary.get("single hand"),
                        "happened": lone_wins(deal, Seat(note.seat)) if note.seat else None,
                        "played": single is not None,
                        "label": note.label,
                    }
                )
                continue
            if outcome is None or outcome.made is None or caller is None or note.seat is None:
                continue
            defending = note.seat not in (caller.value, caller.partner.value)
            happened = (not outcome.made) if defending else outcome.made
            rows.append(
                {
                    "kind": note.kind,
                    "chance": secondary.get(note.chosen),
                    "happened": happened,
                    "label": note.label,
                }
            )
    return rows


def lone_wins(deal: Deal, seat: Seat) -> bool | None:
    """Whether ``seat`` alone, on the deal's real cards, wins every trick against
    defenders who see every card (what the single hand's chance predicts); None when the
    log lacks a card."""
    hands = deal.hands or {}
    if any(len([c for c in hands.get(s, ()) if c is not None]) != 8 for s in SEATS):
        return None
    return wins_alone(hands, seat)


# ------------------------------------------------------------------------ the tables
def _interval(values: Sequence[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return ordered[int(0.025 * len(ordered))], ordered[int(0.975 * len(ordered)) - 1]


def _wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion ``k / n``."""
    if n == 0:
        return float("nan"), float("nan")
    z = 1.959964
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def rate_difference(
    games: Sequence[dict[str, Any]],
    pick: Callable[[dict[str, Any]], Iterable[tuple[bool, bool]]],
) -> tuple[int, float, int, float, float, float, float]:
    """Among the items ``pick`` finds in each game ((in the first group?, outcome)), the
    outcome rate of the first group, of the second, and their difference with its 95%
    interval (Newcombe's, from the two Wilson intervals: honest with a handful of items in
    a group, where a bootstrap is not)."""
    items = [item for g in games for item in pick(g)]
    a = [o for first, o in items if first]
    b = [o for first, o in items if not first]
    n1, n2 = len(a), len(b)
    if not n1 or not n2:
        nan = float("nan")
        return n1, sum(a) / n1 if n1 else nan, n2, sum(b) / n2 if n2 else nan, nan, nan, nan
    r1, r2 = sum(a) / n1, sum(b) / n2
    l1, u1 = _wilson(sum(a), n1)
    l2, u2 = _wilson(sum(b), n2)
    d = r1 - r2
    low = d - math.sqrt((r1 - l1) ** 2 + (u2 - r2) ** 2)
    high = d + math.sqrt((u1 - r1) ** 2 + (r2 - l2) ** 2)
    return n1, r1, n2, r2, d, low, high


def _share(values: Sequence[bool]) -> tuple[int, int, float, float, float]:
    n = len(values)
    k = sum(values)
    p = k / n if n else float("nan")
    half = 1.96 * (p * (1 - p) / n) ** 0.5 if n else float("nan")
    return k, n, p, max(p - half, 0.0), p + half


def print_tables(games: Sequence[dict[str, Any]], checks: dict[str, dict[str, Any]]) -> None:
    files: dict[str, int] = {}
    for g in games:
        files[g["file"]] = files.get(g["file"], 0) + 1
    cpu = sum(g["cpu"] for g in games)
    print(
        f"{len(games)} games ({files}); analysis {cpu:.0f} s CPU, {cpu / len(games):.1f} s a game"
    )

    def bid_items(g: dict[str, Any]) -> Iterable[tuple[bool, bool]]:
        if g["made"] is None or g["last_call"] is None:
            return []
        note = next(
            (n for n in g["notes"] if n["kind"] == "bid" and n["action"] == g["last_call"]), None
        )
        if note is None or (note["label"] is not None and note["label"] not in BAD):
            return []  # a forced call, or an inaccuracy: neither group
        return [(note["label"] in BAD, bool(g["made"]))]

    print("\n| contracts (the caller's last call) | contracts | made |")
    print("|---|---:|---:|")
    n1, r1, n2, r2, d, low, high = rate_difference(games, bid_items)
    print(f"| labelled mistake or worse | {n1} | {r1:.3f} |")
    print(f"| unlabelled | {n2} | {r2:.3f} |")
    print(f"| difference (95%) | | **{d:+.3f} ({low:+.3f} to {high:+.3f})** |")

    def show_items(bad: bool) -> Callable[[dict[str, Any]], Iterable[tuple[bool, bool]]]:
        def items(g: dict[str, Any]) -> Iterable[tuple[bool, bool]]:
            if g["made"] is None and g["caller"] is None:
                return []
            out = []
            for n in g["notes"]:
                if n["kind"] != "show" or n["method"] != "sampled":
                    continue
                if n["label"] is not None and n["label"] not in BAD and bad:
                    continue
                goal = (g["made"] is True) if n["goal"] == "make" else (g["made"] is False)
                out.append(((n["label"] in BAD) if bad else (n["label"] is not None), goal))
            return out

        return items

    print("\n| show decisions | decisions | the deciding side reached its goal |")
    print("|---|---:|---:|")
    for bad, name in ((True, "labelled mistake or worse"), (False, "labelled inaccuracy or worse")):
        n1, r1, n2, r2, d, low, high = rate_difference(games, show_items(bad))
        print(f"| {name} | {n1} | {r1:.3f} |")
        print(f"| unlabelled | {n2} | {r2:.3f} |")
        print(f"| difference (95%) | | **{d:+.3f} ({low:+.3f} to {high:+.3f})** |")

    def asked_items(with_caller: bool) -> Callable[[dict[str, Any]], Iterable[tuple[bool, bool]]]:
        def items(g: dict[str, Any]) -> Iterable[tuple[bool, bool]]:
            if g["made"] is None:
                return []
            return [
                (not s["holds_trump"], bool(g["made"]))
                for s in g["shows"]
                if s["asked"] and s["with_caller"] == with_caller
            ]

        return items

    print(
        "\n| asked for the trump | asks (holding none / one) | caller's side made, none | "
        "one | difference (95%) |"
    )
    print("|---|---:|---:|---:|---:|")
    for with_caller, who in ((True, "by the caller's side"), (False, "by a defender")):
        n1, r1, n2, r2, d, low, high = rate_difference(games, asked_items(with_caller))
        print(
            f"| {who} | {n1} / {n2} | {r1:.3f} | {r2:.3f} | {d:+.3f} ({low:+.3f} to {high:+.3f}) |"
        )

    print(
        "\n| trump choices the analysis would change | choices | made, recommended | "
        "made, chosen | gain (95% over games) |"
    )
    print("|---|---:|---:|---:|---:|")
    for labelled, name in ((True, "labelled inaccuracy or worse"), (False, "unlabelled")):
        gains = []
        pairs = []
        for g in games:
            check = checks.get(g["match_id"])
            note = next((n for n in g["notes"] if n["kind"] == "trump"), None)
            if check is None or note is None or (note["label"] is not None) != labelled:
                continue
            pairs.append((check[note["best"]], check[note["chosen"]]))
            gains.append(check[note["best"]] - check[note["chosen"]])
        if not gains:
            print(f"| {name} | 0 | | | |")
            continue
        rng = random.Random(0)
        means = []
        for _ in range(BOOTSTRAP):
            sample = [gains[rng.randrange(len(gains))] for _ in gains]
            means.append(sum(sample) / len(sample))
        low, high = _interval(means)
        best = sum(p[0] for p in pairs) / len(pairs)
        chosen = sum(p[1] for p in pairs) / len(pairs)
        print(
            f"| {name} | {len(gains)} | {best:.3f} | {chosen:.3f} | "
            f"**{best - chosen:+.3f} ({low:+.3f} to {high:+.3f})** |"
        )

    def trump_items(g: dict[str, Any]) -> Iterable[tuple[bool, bool]]:
        note = next((n for n in g["notes"] if n["kind"] == "trump"), None)
        if note is None or g["made"] is None:
            return []
        return [(note["label"] is not None, bool(g["made"]))]

    n1, r1, n2, r2, d, low, high = rate_difference(games, trump_items)
    print(
        f"\nthe real games: trump labelled {n1} made {r1:.3f}, unlabelled {n2} made {r2:.3f}: "
        f"{d:+.3f} (95% {low:+.3f} to {high:+.3f})"
    )

    print("\n| kind | decisions | labelled inaccuracy or worse | share (95%) | mistake or worse |")
    print("|---|---:|---:|---:|---:|")
    kinds: dict[str, list[tuple[bool, bool]]] = {}
    for g in games:
        cards = {n["action"] for n in g["notes"] if n["kind"] == "card" and n["method"] == "exact"}
        labelled_cards = {
            n["action"]: n["label"]
            for n in g["notes"]
            if n["kind"] == "card" and n["method"] == "sampled" and n["label"]
        }
        choices = set(g.get("choices", cards))
        for action in cards:
            label = labelled_cards.get(action)
            kinds.setdefault("card (every card played)", []).append(
                (label is not None, label in BAD)
            )
            if action in choices:
                kinds.setdefault("card", []).append((label is not None, label in BAD))
        for n in g["notes"]:
            if n["method"] == "sampled" and n["kind"] in ("bid", "trump", "show"):
                kinds.setdefault(n["kind"], []).append((n["label"] is not None, n["label"] in BAD))
    for kind in ("bid", "trump", "show", "card", "card (every card played)"):
        rows = kinds.get(kind, [])
        k, total, p, low, high = _share([a for a, _ in rows])
        worse = sum(1 for _, b in rows if b)
        print(f"| {kind} | {total} | {k} | {p:.3f} ({low:.3f} to {high:.3f}) | {worse} |")

    def card_items(g: dict[str, Any]) -> Iterable[tuple[bool, bool]]:
        if g["made"] is None:
            return []
        return [
            (n["label"] is not None, (g["made"] is True) == (n["goal"] == "make"))
            for n in g["notes"]
            if n["kind"] == "card" and n["method"] == "sampled"
        ]

    n1, r1, n2, r2, d, low, high = rate_difference(games, card_items)
    print(
        f"\ncards that lost points with all cards known, the card's side reached its goal: "
        f"labelled {n1} {r1:.3f}, unlabelled {n2} {r2:.3f}: {d:+.3f} (95% {low:+.3f} to "
        f"{high:+.3f})"
    )


def print_doubling(rows: Sequence[dict[str, Any]]) -> None:
    print(f"\nsimulated bangladesh matches: {len(rows)} judged decisions")
    for kind in ("double", "redouble", "set", "single_hand"):
        mine = [
            r
            for r in rows
            if r["kind"] == kind and r["chance"] is not None and r["happened"] is not None
        ]
        print(f"\n{kind}: {len(mine)} decisions with an outcome")
        if not mine:
            continue
        mine.sort(key=lambda r: r["chance"])
        hits = sum(bool(r["happened"]) for r in mine)
        low, high = _wilson(hits, len(mine))
        print(
            f"all: mean predicted {sum(r['chance'] for r in mine) / len(mine):.3f}, observed "
            f"{hits / len(mine):.3f} (95% {low:.3f} to {high:.3f})"
        )
        count = min(5, len(mine))
        print("| band | mean predicted | observed | decisions |")
        print("|---|---:|---:|---:|")
        for i in range(count):
            part = mine[i * len(mine) // count : (i + 1) * len(mine) // count]
            predicted = sum(r["chance"] for r in part) / len(part)
            observed = sum(bool(r["happened"]) for r in part) / len(part)
            print(f"| {i + 1} | {predicted:.3f} | {observed:.3f} | {len(part)} |")


# ------------------------------------------------------------------------------ main
def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, default=ARCHIVE)
    parser.add_argument("--games", type=int, default=150, help="games per held-back file")
    parser.add_argument("--samples", type=int, default=8)
    parser.add_argument("--playouts", type=int, default=64)
    parser.add_argument("--simulated", type=int, default=20, help="bangladesh matches")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--tables-only", action="store_true")
    parser.add_argument(
        "--all-files",
        action="store_true",
        help="every file, not only the held-back ones: for the kinds no model fitted on the "
        "archive judges (trump, shows, cards: play-outs and double dummy)",
    )
    parser.add_argument("--resume", action="store_true", help="keep the games already saved")
    parser.add_argument("--files", default="", help="these files of the archive (a,b,...)")
    parser.add_argument(
        "--folds",
        action="store_true",
        help="judge each file's games with the models fitted on the other files (the contract "
        "model, the calls', the server's dealing): no model behind a note then saw its game",
    )
    parser.add_argument(
        "--dealing",
        choices=("fair", "server"),
        default="fair",
        help="the layouts dealt as fair shuffles (analyze's default) or as the server deals "
        "(analyze --dealing server; with --folds, the table fitted on the other files)",
    )
    parser.add_argument("--kinds", default=",".join(sorted(KINDS)), help="kinds to annotate")
    parser.add_argument("--name", default="judge", help="the saved files' prefix (bench/out/)")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    saved, simulated = OUT / f"{args.name}_archive.jsonl", OUT / f"{args.name}_doubling.jsonl"
    files = sorted(p.name for p in args.archive.glob("*.json")) if args.all_files else HELD_BACK
    if args.files:
        files = tuple(args.files.split(","))
    games = held_back_games(args.archive, args.games, args.seed, files)
    by_id = {m.match_id: m for _, m in games}
    if not args.tables_only:
        done: set[str] = set()
        if args.resume and saved.exists():
            done = {json.loads(t)["match_id"] for t in saved.read_text().splitlines()}
        mode = "a" if args.resume else "w"
        kinds = frozenset(args.kinds.split(","))
        folds: dict[str, Models] = {}
        if args.folds:
            from judge_bids import fold_models, read_files  # it reads this module's tables

            every = read_files(args.archive)
            folds = {name: fold_models(every, name) for name in sorted({n for n, _ in games})}
        tasks = [
            (n, m, args.samples, args.seed, kinds, folds.get(n), args.dealing == "server")
            for n, m in games
            if m.match_id not in done
        ]
        with ProcessPoolExecutor(max_workers=args.jobs) as pool, saved.open(mode) as out:
            for line in pool.map(analyse, tasks, chunksize=1):
                out.write(json.dumps(line) + "\n")
                out.flush()
        matches_done: set[int] = set()
        if args.resume and simulated.exists():
            matches_done = {json.loads(t)["match"] for t in simulated.read_text().splitlines()}
        work = [
            (args.seed, args.samples, n) for n in range(args.simulated) if n not in matches_done
        ]
        with ProcessPoolExecutor(max_workers=args.jobs) as pool, simulated.open(mode) as out:
            for number, rows in zip(
                (n for _, _, n in work),
                pool.map(simulated_doubling, work, chunksize=1),
                strict=True,
            ):
                for row in rows:
                    out.write(json.dumps({**row, "match": number}) + "\n")
                out.flush()
    lines = [json.loads(t) for t in saved.read_text().splitlines()]
    checks: dict[str, dict[str, Any]] = {}
    started = time.process_time()
    played = 0
    for line in lines:
        note = next((n for n in line["notes"] if n["kind"] == "trump"), None)
        if note is not None and note["best"] != note["chosen"] and line["match_id"] in by_id:
            checks[line["match_id"]] = trump_playouts(by_id[line["match_id"]], note, args.playouts)
            played += 2 * args.playouts
    spent = time.process_time() - started
    if played:
        print(f"trump checked by play: {played} play-outs, {1000 * spent / played:.2f} ms CPU each")
    if lines:
        print_tables(lines, checks)
    if simulated.exists():
        print_doubling([json.loads(t) for t in simulated.read_text().splitlines()])


if __name__ == "__main__":
    main()
