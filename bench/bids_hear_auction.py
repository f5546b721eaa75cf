"""Bids that hear the auction (issue 33 §2), every file of the archive out of fold.

Each of the Bhoos archive's seven files is one bot's record. In turn, each file's games are
analysed (``--only bids``, as ``twentynine analyze`` would) with the models the bid
judgement uses fitted on the six other files (``judge_bids.fold_models``: the contract
model, the model of the others' calls, the server's dealing); a deal found in an earlier
file is left out. Each game's bid notes are saved a line a game in
``bench/out/NAME.jsonl`` (``--tables-only`` prints the figures again from it). Printed:

- calibration: the chance the analysis gave, at each bid, pass or Ditto, that the contract
  the auction ends in is made (``detail.final`` of the call chosen), against whether the
  real final contract was made: 10 equal-count bands, the calibration error (the bands'
  gaps weighed by their counts) and the largest gap, each with a 95% interval by bootstrap
  over deals (a deal's two plays together); for every decision, and for the passes made
  while partner held the standing bid on their own;
- labels on passes behind partner: how often the final contract was made after such a
  pass labelled an underbid (inaccuracy or worse) against after an unlabelled one, the
  difference with Newcombe's 95% interval and a bootstrap over deals;
- the pass-as-underbid rate behind partner against behind an opponent (passes where an
  opponent held the standing bid), with Newcombe's interval of the difference.

    nice python bench/bids_hear_auction.py --games 100 --jobs 2 --name hear100
    python bench/bids_hear_auction.py --tables-only --name hear100
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

# Run as a script, bench/ comes first on the path: put the repository root before it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fit_auction_model import ARCHIVE
from judge_archive import rate_difference
from judge_bids import ANY, analyse, difference, fold_models, read_files

from twentynine.analysis.models.contract import ContractModel
from twentynine.analysis.models.contract import shipped_model as shipped_contract
from twentynine.analysis.models.dealing import DealingModel, dealt_by, server_dealing
from twentynine.analysis.models.dealing import fit_model as fit_dealing
from twentynine.analysis.models.fit import auc, contract_rows
from twentynine.analysis.models.fit import fit_model as fit_contract
from twentynine.analysis.models.table import SHIPPED_PATH, TableModel, table_rows
from twentynine.analysis.models.table import fit_model as fit_table
from twentynine.analysis.run import AnalysisOptions
from twentynine.replay import DealState
from twentynine.schema.log import MatchLog

OUT = Path(__file__).resolve().parent / "out"
BANDS = 10
BOOTSTRAP = 1000
ECE_TARGET, GAP_TARGET, LABEL_TARGET = 0.03, 0.06, -0.10


def fold_table(
    files: dict[str, list[MatchLog]], held: str, contract: ContractModel, dealing: DealingModel
) -> TableModel:
    """The table model fitted on every file but ``held``, over ``contract`` (fitted on them)."""
    train = [(name, m) for name, games in files.items() if name != held for m in games]
    matches = [m for _, m in train]
    rows = contract_rows(matches, [name for name, _ in train], dealt_by(dealing))
    return fit_table(contract, table_rows(matches, rows))


def write_shipped(files: dict[str, list[MatchLog]]) -> TableModel:
    """The table model fitted on every file over the shipped contract model, written to
    ``analysis/models/table_model.json``."""
    matches = [m for games in files.values() for m in games]
    names = [name for name, games in files.items() for _ in games]
    rows = table_rows(matches, contract_rows(matches, names, server_dealing))
    contract = shipped_contract()
    fit = {"files": sorted(files), "calls": len(rows), "contract_model": contract.version}
    model = fit_table(contract, rows, fit=fit)
    SHIPPED_PATH.write_text(model.dumps())
    return model


def print_table_folds(files: dict[str, list[MatchLog]]) -> None:
    """The table model against the contract model alone, each file predicted by models
    fitted on the six others: AUC, Brier, calibration (10 bands), and the gains with 95%
    intervals by bootstrap over deals (a deal's two plays together)."""
    y: list[float] = []
    alone: list[float] = []
    both: list[float] = []
    deals: list[str] = []
    held_of: list[str] = []
    for held in sorted(files):
        train = [(name, m) for name, games in files.items() if name != held for m in games]
        dealing = fit_dealing(deal for _, m in train for deal in m.deals)
        rows = contract_rows([m for _, m in train], [n for n, _ in train], dealt_by(dealing))
        contract = fit_contract(rows)
        table = fit_table(contract, table_rows([m for _, m in train], rows))
        tested = contract_rows(files[held], None, dealt_by(dealing))
        for (view, partner, opponents, made), row in zip(
            table_rows(files[held], tested), tested, strict=True
        ):
            y.append(float(made))
            alone.append(contract.chance(view))
            both.append(table.chance(contract, view, partner, opponents))
            deals.append(row.deal)
            held_of.append(held)
    outcome, p0, p1 = np.array(y), np.array(alone), np.array(both)

    def figures(p: np.ndarray[Any, Any], idx: np.ndarray[Any, Any]) -> tuple[float, float]:
        return float(np.mean((p[idx] - outcome[idx]) ** 2)), auc(p[idx], outcome[idx])

    every = np.arange(len(y))
    print(f"{len(y):,} contracts in {len(set(deals)):,} deals, made {outcome.mean():.4f}")
    print("\n| out of fold | contract model alone | with the table model |")
    print("|---|---:|---:|")
    (b0, a0), (b1, a1) = figures(p0, every), figures(p1, every)
    e0, g0 = errors(list(zip(alone, [bool(v) for v in y], strict=True)))
    e1, g1 = errors(list(zip(both, [bool(v) for v in y], strict=True)))
    print(f"| AUC | {a0:.3f} | {a1:.3f} |")
    print(f"| Brier | {b0:.4f} | {b1:.4f} |")
    print(f"| calibration error (10 bands) | {100 * e0:.1f} points | {100 * e1:.1f} points |")
    print(f"| largest band gap | {100 * g0:.1f} points | {100 * g1:.1f} points |")
    by: dict[str, list[int]] = defaultdict(list)
    for i, deal in enumerate(deals):
        by[deal].append(i)
    keys = sorted(by)
    rng = random.Random(0)
    brier, area = [], []
    for _ in range(BOOTSTRAP):
        idx = np.array([i for k in rng.choices(keys, k=len(keys)) for i in by[k]])
        (c0, d0), (c1, d1) = figures(p0, idx), figures(p1, idx)
        brier.append(c1 - c0)
        area.append(d1 - d0)
    brier.sort()
    area.sort()
    lo, hi = int(0.025 * BOOTSTRAP), int(0.975 * BOOTSTRAP) - 1
    print(f"\nBrier gain {b1 - b0:+.4f} (95% {brier[lo]:+.4f} to {brier[hi]:+.4f})")
    print(f"AUC gain {a1 - a0:+.3f} (95% {area[lo]:+.3f} to {area[hi]:+.3f})")
    for held in sorted(files):
        idx = np.array([i for i, name in enumerate(held_of) if name == held])
        print(f"{held}: AUC {figures(p0, idx)[1]:.3f} alone, {figures(p1, idx)[1]:.3f} with")


def behind(match: MatchLog) -> dict[int, str]:
    """Per auction action, who held the standing bid when it was made: ``partner``,
    ``opponent`` or ``none``."""
    rules, deal = match.resolved_rules(), match.deals[0]
    state = DealState(rules, deal.dealer, deal.hands)
    out: dict[int, str] = {}
    for i, action in enumerate(deal.actions):
        if state.phase_name != "auction" or state.is_over:
            break
        standing = state.standing_bid
        if standing is None:
            out[i] = "none"
        else:
            out[i] = "partner" if standing[0] is action.seat.partner else "opponent"
        state.apply(action)
    return out


def analyse_game(task: tuple[str, MatchLog, AnalysisOptions]) -> dict[str, Any]:
    """``judge_bids.analyse``'s line, each note with whom it was made behind."""
    line = analyse(task)
    whom = behind(task[1])
    for note in line["notes"]:
        note["behind"] = whom.get(note["action"])
    return line


# -------------------------------------------------------------------------- the figures
def bands(pairs: Sequence[tuple[float, bool]]) -> list[tuple[float, float, int]]:
    """Equal-count bands of (chance, made), sorted by chance: (mean chance, made, count)."""
    ordered = sorted(pairs)
    out = []
    for i in range(BANDS):
        part = ordered[i * len(ordered) // BANDS : (i + 1) * len(ordered) // BANDS]
        if part:
            out.append(
                (
                    sum(p for p, _ in part) / len(part),
                    sum(m for _, m in part) / len(part),
                    len(part),
                )
            )
    return out


def errors(pairs: Sequence[tuple[float, bool]]) -> tuple[float, float]:
    """The calibration error (the bands' gaps weighed by their counts) and the largest gap."""
    found = bands(pairs)
    total = sum(n for *_, n in found)
    ece = sum(abs(p - m) * n for p, m, n in found) / total
    return ece, max(abs(p - m) for p, m, _ in found)


def print_calibration(title: str, rows: Sequence[tuple[str, float, bool]]) -> None:
    """``rows`` of (deal, chance, made): the bands, the error and the largest gap, with
    95% intervals by bootstrap over deals."""
    pairs = [(p, m) for _, p, m in rows]
    if len(pairs) < BANDS:
        print(f"\n{title}: {len(pairs)} decisions, too few")
        return
    by_deal: dict[str, list[tuple[float, bool]]] = defaultdict(list)
    for deal, p, m in rows:
        by_deal[deal].append((p, m))
    deals = sorted(by_deal)
    rng = random.Random(0)
    eces, gaps = [], []
    for _ in range(BOOTSTRAP):
        sample = [pm for d in rng.choices(deals, k=len(deals)) for pm in by_deal[d]]
        e, g = errors(sample)
        eces.append(e)
        gaps.append(g)
    eces.sort()
    gaps.sort()

    def ci(values: list[float]) -> str:
        low, high = values[int(0.025 * len(values))], values[int(0.975 * len(values)) - 1]
        return f"{100 * low:.1f} to {100 * high:.1f}"

    ece, gap = errors(pairs)
    made = sum(m for _, m in pairs) / len(pairs)
    mean = sum(p for p, _ in pairs) / len(pairs)
    print(f"\n{title}: {len(pairs):,} decisions in {len(deals):,} deals")
    print(f"mean chance {100 * mean:.1f}%, made {100 * made:.1f}%\n")
    print("| band | mean chance | made | decisions | gap, points |")
    print("|---|---:|---:|---:|---:|")
    for i, (chance, rate, n) in enumerate(bands(pairs)):
        print(f"| {i + 1} | {chance:.3f} | {rate:.3f} | {n:,} | {100 * (rate - chance):+.1f} |")
    ece_met = "met" if ece <= ECE_TARGET else "NOT met"
    gap_met = "met" if gap <= GAP_TARGET else "NOT met"
    print(f"\ncalibration error {100 * ece:.1f} points (95% {ci(eces)}): {ece_met} (<= 3)")
    print(f"largest band gap {100 * gap:.1f} points (95% {ci(gaps)}): {gap_met} (<= 6)")


def print_figures(lines: Sequence[dict[str, Any]]) -> None:
    notes = [
        (g, n)
        for g in lines
        for n in g["notes"]
        if g["made"] is not None and g["caller"] is not None
    ]
    files = sorted({g["file"] for g in lines})
    print(f"{len(lines):,} games of {len(files)} files, {len(notes):,} bid decisions judged")
    rows = [(g["deal"], n["final"], bool(g["made"])) for g, n in notes if n["final"] is not None]
    print_calibration("Every bid, pass or Ditto", rows)
    partner = [(g, n) for g, n in notes if n["chosen"] == "pass" and n["behind"] == "partner"]
    print_calibration(
        "Passes made while partner held the standing bid",
        [(g["deal"], n["final"], bool(g["made"])) for g, n in partner if n["final"] is not None],
    )

    def underbid(n: dict[str, Any]) -> bool:
        return n["label"] in ANY and n["judgement"] == "underbid"

    print("\nThe final contract after a pass behind partner, by the pass's label:\n")
    print(
        "| group | labelled | made | unlabelled | made | difference, points "
        "| 95%, bootstrap over deals | 95%, Newcombe |"
    )
    print("|---|---:|---:|---:|---:|---:|---|---|")
    items = [
        (g["deal"], underbid(n), bool(g["made"]))
        for g, n in partner
        if n["label"] is None or underbid(n)
    ]
    n1, r1, n0, r0, d, low, high = difference(items)
    *_, n_low, n_high = rate_difference([{}], lambda _: [(a, b) for _, a, b in items])
    print(
        f"| underbid, inaccuracy or worse | {n1:,} | {r1:.3f} | {n0:,} | {r0:.3f} | "
        f"{100 * d:+.1f} | {100 * low:+.1f} to {100 * high:+.1f} | "
        f"{100 * n_low:+.1f} to {100 * n_high:+.1f} |"
    )
    met = d <= LABEL_TARGET and n_high < 0
    print(f"\n{'met' if met else 'NOT met'} (<= -10 points, Newcombe wholly below 0)")

    print("\nPasses labelled an underbid (inaccuracy or worse), by who held the standing bid:\n")
    print("| behind | passes | labelled an underbid | rate |")
    print("|---|---:|---:|---:|")
    groups: dict[str, list[bool]] = {}
    for whom in ("partner", "opponent", "none"):
        flags = [underbid(n) for _, n in notes if n["chosen"] == "pass" and n["behind"] == whom]
        groups[whom] = flags
        rate = sum(flags) / len(flags) if flags else float("nan")
        print(f"| {whom} | {len(flags):,} | {sum(flags):,} | {100 * rate:.1f}% |")
    pairs = [(True, f) for f in groups["partner"]] + [(False, f) for f in groups["opponent"]]
    *_, d, low, high = rate_difference([{}], lambda _: pairs)
    print(
        f"\nbehind partner less behind an opponent: {100 * d:+.1f} points "
        f"(95% Newcombe {100 * low:+.1f} to {100 * high:+.1f}): "
        f"{'met' if d <= 0 else 'NOT met'} (no higher)"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, default=ARCHIVE)
    parser.add_argument("--samples", type=int, default=32)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--games", type=int, default=0, help="games per file (0: all)")
    parser.add_argument("--name", default="hear", help="the saved file: bench/out/NAME.jsonl")
    parser.add_argument("--tables-only", action="store_true")
    parser.add_argument(
        "--write", action="store_true", help="fit the shipped table model on every file, and stop"
    )
    parser.add_argument(
        "--table-folds", action="store_true", help="the table model out of fold, and stop"
    )
    args = parser.parse_args(argv)
    if args.table_folds:
        print_table_folds(read_files(args.archive))
        return
    if args.write:
        model = write_shipped(read_files(args.archive))
        print(f"{SHIPPED_PATH}: {model.version}, {model.fit}")
        return
    OUT.mkdir(parents=True, exist_ok=True)
    saved = OUT / f"{args.name}.jsonl"
    if not args.tables_only:
        files = read_files(args.archive)
        with saved.open("w") as out:
            for held in sorted(files):
                games = files[held][: args.games] if args.games else files[held]
                contract, others, dealing = fold_models(files, held)
                table = fold_table(files, held, contract, dealing)
                print(f"{held}: {len(games)} games, {table.version}", flush=True)
                options = AnalysisOptions(
                    kinds=frozenset({"bid"}),
                    samples=args.samples,
                    seed=args.seed,
                    model=contract,
                    auction_model=others,
                    dealing=dealing,
                    table=table,
                )
                tasks = [(held, m, options) for m in games]
                with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                    for line in pool.map(analyse_game, tasks, chunksize=8):
                        out.write(json.dumps(line) + "\n")
                        out.flush()
    print_figures([json.loads(t) for t in saved.read_text().splitlines()])


if __name__ == "__main__":
    main()
