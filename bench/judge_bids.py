"""Do bid labels carry information? Issue 20 §6 for bids, every file of the archive out of fold.

Each of the Bhoos archive's files is one bot's record. In turn, each file's games are
analysed (``--only bids``, as ``twentynine analyze`` would) with the models the bid
judgement uses fitted on the other files only: the contract model
(``analysis.models.fit``), the model of the others' calls (``analysis.models.others``) and
the server's dealing the layouts follow (``analysis.models.dealing``).
A deal found in an earlier file is left out. Each game's bid annotations and its real
outcome are saved a line a game in ``bench/out/bids_oof.jsonl`` (``--resume`` goes on where a
killed run stopped; ``--tables-only`` prints the tables again). Then, pooled over the files:

- label rates: the share of bid decisions (bids, passes, Dittos) labelled inaccuracy or
  worse, and mistake or worse, split by what was chosen;
- the make-rate of contracts whose caller's last call was labelled mistake or worse against
  unlabelled ones (and inaccuracy or worse), the difference with a 95% interval by bootstrap
  over deals (a deal played twice, seats swapped, resampled as one);
- the same for the passes labelled an underbid: how often the passer's side then made a
  contract of its own, against unlabelled passes;
- the chance to make that the annotations gave the caller's last call, against the outcome:
  five equal-count bands.

    nice python bench/judge_bids.py --samples 32 --jobs 2
    python bench/judge_bids.py --tables-only
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

# Run as a script, bench/ comes first on the path: put the repository root before it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fit_auction_model import ARCHIVE, FEATURES, L2, deal_key
from judge_archive import rate_difference

from twentynine.analysis.labels import GAME_POINT_SCALE, THRESHOLDS
from twentynine.analysis.models.contract import ContractModel
from twentynine.analysis.models.dealing import DealingModel, dealt_by
from twentynine.analysis.models.dealing import fit_model as fit_dealing
from twentynine.analysis.models.fit import contract_rows, fit_model
from twentynine.analysis.models.others import AuctionModel, auction_turns
from twentynine.analysis.models.others import fit_model as fit_others
from twentynine.analysis.run import AnalysisOptions, DealTask, annotate_deal
from twentynine.importers.bhoos_archive import read_stream
from twentynine.replay import replay_deal
from twentynine.schema.log import MatchLog

OUT = Path(__file__).resolve().parent / "out"
BAD = ("mistake", "blunder")
ANY = ("inaccuracy", *BAD)
BOOTSTRAP = 2000


def read_files(folder: Path) -> dict[str, list[MatchLog]]:
    """Each file's games, a deal seen in an earlier file left out."""
    seen: set[str] = set()
    out: dict[str, list[MatchLog]] = {}
    for path in sorted(folder.glob("*.json")):
        games: list[MatchLog] = []
        with path.open("rb") as stream:
            for record in read_stream(stream, str(path)):
                match = record.match
                if match is None or not match.deals:
                    continue
                key = deal_key(match.deals[0])
                if key not in seen:
                    seen.add(key)
                    games.append(match)
        out[path.name] = games
    return out


def fold_models(
    files: dict[str, list[MatchLog]], held: str
) -> tuple[ContractModel, AuctionModel, DealingModel]:
    """The models fitted on every file but ``held``: the contract model, the calls', and
    the server's dealing the layouts follow."""
    train = [(name, m) for name, games in files.items() if name != held for m in games]
    dealing = fit_dealing(deal for _, m in train for deal in m.deals)
    rows = contract_rows([m for _, m in train], [name for name, _ in train], dealt_by(dealing))
    contract = fit_model(rows)
    turns = [
        t for _, m in train for deal in m.deals for t in auction_turns(m.resolved_rules(), deal)
    ]
    return contract, fit_others(FEATURES, turns, l2=L2), dealing


def analyse(task: tuple[str, MatchLog, AnalysisOptions]) -> dict[str, Any]:
    """One game's line: its bid annotations and its real outcome."""
    name, match, options = task
    rules, deal = match.resolved_rules(), match.deals[0]
    started = time.process_time()
    notes = annotate_deal(DealTask(match.match_id, rules, deal, 1, options))
    cpu = time.process_time() - started
    final = replay_deal(rules, deal, 1)
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
    hands = deal.hands or {}
    return {
        "file": name,
        "match_id": match.match_id,
        "deal": "|".join(sorted("".join(sorted(str(c) for c in h)) for h in hands.values())),
        "caller": caller.value if caller is not None else None,
        "made": final.outcome.made if final.outcome is not None else None,
        "last_call": last_call,
        "cpu": round(cpu, 4),
        "notes": [
            {
                "action": n.action,
                "seat": n.seat,
                "chosen": n.chosen,
                "best": n.best,
                "label": n.label,
                "loss": n.loss,
                "low": n.ci_low,
                "high": n.ci_high,
                "samples": n.samples,
                "chance": detail.get("secondary", {}).get(n.chosen),
                "judgement": detail.get("judgement"),
                "final": detail.get("final", {}).get(n.chosen),
            }
            for n, detail in ((n, json.loads(n.detail)) for n in notes)
        ],
    }


# -------------------------------------------------------------------------- the tables
def difference(
    rows: Sequence[tuple[str, bool, bool]], seed: int = 0
) -> tuple[int, float, int, float, float, float, float]:
    """``rows`` of (deal, in the group, outcome): the group's size and rate, the others',
    the difference and its 95% bootstrap interval, deals resampled."""
    by_deal: dict[str, list[tuple[bool, bool]]] = defaultdict(list)
    for deal, group, outcome in rows:
        by_deal[deal].append((group, outcome))
    deals = sorted(by_deal)

    def rates(sample: Iterable[str]) -> tuple[int, float, int, float]:
        n1 = k1 = n0 = k0 = 0
        for d in sample:
            for group, outcome in by_deal[d]:
                if group:
                    n1, k1 = n1 + 1, k1 + outcome
                else:
                    n0, k0 = n0 + 1, k0 + outcome
        return n1, k1 / n1 if n1 else float("nan"), n0, k0 / n0 if n0 else float("nan")

    n1, r1, n0, r0 = rates(deals)
    rng = random.Random(seed)
    diffs = []
    for _ in range(BOOTSTRAP):
        _, a, _, b = rates(rng.choices(deals, k=len(deals)))
        if not (math.isnan(a) or math.isnan(b)):
            diffs.append(a - b)
    diffs.sort()
    low = diffs[int(0.025 * len(diffs))] if diffs else float("nan")
    high = diffs[int(0.975 * len(diffs)) - 1] if diffs else float("nan")
    return n1, r1, n0, r0, r1 - r0, low, high


def print_difference(title: str, rows: Sequence[tuple[str, bool, bool]]) -> None:
    """A table row: the two groups, the difference, and two 95% intervals of it: by
    bootstrap over deals (a deal's two plays together), and Newcombe's from the two Wilson
    intervals (honest where a group holds a handful, where a bootstrap is not)."""
    n1, r1, n0, r0, d, low, high = difference(rows)
    items = [(group, outcome) for _, group, outcome in rows]
    *_, n_low, n_high = rate_difference([{}], lambda _: items)
    print(
        f"| {title} | {n1:,} | {r1:.3f} | {n0:,} | {r0:.3f} | {100 * d:+.1f} | "
        f"{100 * low:+.1f} to {100 * high:+.1f} | {100 * n_low:+.1f} to {100 * n_high:+.1f} |"
    )


def _mistake_before(note: dict[str, Any]) -> bool:
    """Whether a saved bid note was a mistake or worse by the label rule before issue 20's
    last round: the whole interval of the loss past the mistake's threshold, in game points."""
    line = dict(THRESHOLDS)["mistake"] * GAME_POINT_SCALE
    return bool(min(note["loss"], note["low"]) >= line)


def print_tables(lines: Sequence[dict[str, Any]]) -> None:
    notes = [(g, n) for g in lines for n in g["notes"]]
    cpu = sum(g["cpu"] for g in lines)
    print(
        f"{len(lines):,} games, {len(notes):,} bid decisions judged, "
        f"{cpu / max(len(lines), 1):.3f} s CPU a game"
    )
    print("\nLabel rates (share of decisions):\n")
    print("| decisions | judged | inaccuracy or worse | mistake or worse |")
    print("|---|---:|---:|---:|")
    kinds: list[tuple[str, Callable[[dict[str, Any]], bool]]] = [
        ("all bid decisions", lambda n: True),
        ("bids and Dittos", lambda n: n["chosen"] != "pass"),
        ("passes", lambda n: n["chosen"] == "pass"),
    ]
    for title, keep in kinds:
        chosen = [n for _, n in notes if keep(n)]
        if not chosen:
            continue
        some = sum(n["label"] in ANY for n in chosen) / len(chosen)
        bad = sum(n["label"] in BAD for n in chosen) / len(chosen)
        print(f"| {title} | {len(chosen):,} | {100 * some:.1f}% | {100 * bad:.1f}% |")

    def last_call(g: dict[str, Any]) -> dict[str, Any] | None:
        return next((n for n in g["notes"] if n["action"] == g["last_call"]), None)

    contracts = [
        (g, last_call(g)) for g in lines if g["made"] is not None and g["caller"] is not None
    ]
    print("\nReal make-rate of contracts by the label of the caller's last call:\n")
    print(
        "| group | labelled | made | unlabelled | made | difference, points "
        "| 95%, bootstrap over deals | 95%, Newcombe |"
    )
    print("|---|---:|---:|---:|---:|---:|---|---|")
    for title, labels in (("mistake or worse", BAD), ("inaccuracy or worse", ANY)):
        print_difference(
            title,
            [
                (g["deal"], n is not None and n["label"] in labels, bool(g["made"]))
                for g, n in contracts
            ],
        )
    if all(n is None or "low" in n for _, n in contracts):
        print_difference(
            "mistake or worse, by the rule before (the whole interval past 0.24)",
            [
                (g["deal"], n is not None and _mistake_before(n), bool(g["made"]))
                for g, n in contracts
                if n is None or n["label"] is None or _mistake_before(n)
            ],
        )
    print("\nPasses labelled an underbid: did the passer's side make a contract of its own?\n")
    print(
        "| group | labelled | side made a call | unlabelled | side made a call | difference "
        "| 95%, bootstrap over deals | 95%, Newcombe |"
    )
    print("|---|---:|---:|---:|---:|---:|---|---|")
    passes = []
    for g in lines:
        if g["made"] is None or g["caller"] is None:
            continue
        caller_side = "NS" if g["caller"] in ("N", "S") else "EW"
        for n in g["notes"]:
            if n["chosen"] != "pass":
                continue
            side = "NS" if n["seat"] in ("N", "S") else "EW"
            passes.append((g["deal"], n["label"] in ANY, side == caller_side and bool(g["made"])))
    print_difference("inaccuracy or worse", passes)
    print("\nThe chance to make given to the caller's last call, against the outcome:\n")
    print("| band | mean chance | made | contracts |")
    print("|---|---:|---:|---:|")
    pairs = sorted(
        (n["chance"], bool(g["made"])) for g, n in contracts if n is not None and n["chance"]
    )
    for i in range(5):
        part = pairs[i * len(pairs) // 5 : (i + 1) * len(pairs) // 5]
        if part:
            mean = sum(p for p, _ in part) / len(part)
            made = sum(m for _, m in part) / len(part)
            print(f"| {i + 1} | {mean:.3f} | {made:.3f} | {len(part):,} |")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, default=ARCHIVE)
    parser.add_argument("--samples", type=int, default=32)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--games", type=int, default=0, help="games per file (0: all)")
    parser.add_argument("--tables-only", action="store_true")
    parser.add_argument(
        "--dealing",
        choices=("fair", "server"),
        default="fair",
        help="the bidders' side_trump from a fair shuffle (analyze's default) or from the "
        "server's dealing fitted on the other files (analyze --dealing server)",
    )
    parser.add_argument("--resume", action="store_true", help="keep the games already saved")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    saved = OUT / "bids_oof.jsonl"
    if not args.tables_only:
        files = read_files(args.archive)
        done: set[str] = set()
        if args.resume and saved.exists():
            done = {json.loads(t)["match_id"] for t in saved.read_text().splitlines()}
        with saved.open("a" if args.resume else "w") as out:
            for held in sorted(files):
                games = [m for m in files[held] if m.match_id not in done]
                if args.games:
                    games = games[: args.games]
                if not games:
                    continue
                contract, others, dealing = fold_models(files, held)
                print(
                    f"{held}: {len(games)} games, {contract.version}, {others.version}, "
                    f"{dealing.version}",
                    flush=True,
                )
                options = AnalysisOptions(
                    kinds=frozenset({"bid"}),
                    samples=args.samples,
                    seed=args.seed,
                    model=contract,
                    auction_model=others,
                    dealing=dealing if args.dealing == "server" else None,
                )
                tasks = [(held, m, options) for m in games]
                with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                    for line in pool.map(analyse, tasks, chunksize=8):
                        out.write(json.dumps(line) + "\n")
                        out.flush()
    print_tables([json.loads(t) for t in saved.read_text().splitlines()])


if __name__ == "__main__":
    main()
