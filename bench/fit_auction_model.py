"""Fit the model of the others' calls (analysis/models/others.py) on the Bhoos archive.

Every turn of every archive auction where the seat could pass or call is a row: its first
four cards, the level it had to reach, whether its partner held the standing bid, whether
it could say Ditto, and whether it called. A deal found in two files counts once (in the
first file, by name). The model is measured leaving one file out (each file is one bot's
record): fitted on the other files, scored on that one, the predictions pooled. It is
shipped fitted on the files the issue-20 checks do not hold back (``FIT_FILES``), and also
scored on the held-back ones.

    nice python bench/fit_auction_model.py            # print the tables
    nice python bench/fit_auction_model.py --write    # and write analysis/models/auction_model.json
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

# Run as a script, bench/ comes first on the path: put the repository root before it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from twentynine.analysis.models.others import (
    SHIPPED_PATH,
    AuctionModel,
    Turn,
    auction_turns,
    fit_model,
)
from twentynine.importers.bhoos_archive import read_stream
from twentynine.schema.log import Deal

ARCHIVE = Path(__file__).resolve().parent.parent.parent / "shared" / "real" / "bhoos"
HELD_BACK = ("12296_500.json", "12475_500.json")
"""The files the issue-20 checks measure on (bench/judge_archive.py): never fitted on."""

FEATURES = (
    "jacks",
    "nines",
    "aces_tens",
    "long_suit",
    "long_points",
    "need",
    "partner_holds",
    "ditto",
)
AUCTION_ONLY = ("need", "partner_holds", "ditto")
L2 = 1.0


def deal_key(deal: Deal) -> str:
    """The same deal in two files has the same key: its hands and actions."""
    text = deal.model_dump_json(include={"dealer", "hands", "actions"})
    return hashlib.sha256(text.encode()).hexdigest()


def read_turns(folder: Path) -> dict[str, list[Turn]]:
    """Each file's turns, a deal seen in an earlier file left out."""
    seen: set[str] = set()
    out: dict[str, list[Turn]] = {}
    for path in sorted(folder.glob("*.json")):
        turns: list[Turn] = []
        with path.open("rb") as stream:
            for record in read_stream(stream, str(path)):
                if record.match is None:
                    continue
                rules = record.match.resolved_rules()
                for deal in record.match.deals:
                    key = deal_key(deal)
                    if key in seen:
                        continue
                    seen.add(key)
                    turns += auction_turns(rules, deal)
        out[path.name] = turns
    return out


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    q = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))


def auc(p: np.ndarray, y: np.ndarray) -> float:
    """The chance a random call is scored above a random pass (ties count half)."""
    order = np.argsort(p, kind="mergesort")
    ranks = np.empty(len(p))
    sorted_p = p[order]
    i = 0
    while i < len(p):
        j = i
        while j + 1 < len(p) and sorted_p[j + 1] == sorted_p[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    pos = y == 1
    n1, n0 = int(pos.sum()), int((~pos).sum())
    return float((ranks[pos].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def bootstrap_gain(
    p: np.ndarray, base: np.ndarray, y: np.ndarray, seed: int = 0
) -> tuple[float, float]:
    """95% interval of the log-loss gained over the base rate, resampling turns."""
    rng = random.Random(seed)
    n = len(y)
    gains = []
    each = -(y * np.log(np.clip(p, 1e-6, 1)) + (1 - y) * np.log(np.clip(1 - p, 1e-6, 1)))
    each_base = -(y * np.log(base) + (1 - y) * np.log(1 - base))
    diff = each - each_base
    for _ in range(300):
        idx = np.array([rng.randrange(n) for _ in range(n)])
        gains.append(float(diff[idx].mean()))
    gains.sort()
    return gains[7], gains[292]


def bands(p: np.ndarray, y: np.ndarray, count: int = 5) -> list[tuple[float, float, int]]:
    order = np.argsort(p, kind="mergesort")
    out = []
    for part in np.array_split(order, count):
        out.append((float(p[part].mean()), float(y[part].mean()), len(part)))
    return out


def predict(model: AuctionModel, turns: Sequence[Turn]) -> np.ndarray:
    return np.array([model.call_chance(t) for t in turns])


def out_of_fold(
    files: dict[str, list[Turn]], names: Sequence[str], features: Sequence[str]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Predictions for each of ``names``' turns by the model fitted on the others, pooled;
    with each turn's base rate (the others' call share) and outcome."""
    ps, bases, ys = [], [], []
    for held in names:
        train = [t for name in names if name != held for t in files[name]]
        model = fit_model(features, train, l2=L2)
        test = files[held]
        ps.append(predict(model, test))
        share = sum(t.called for t in train) / len(train)
        bases.append(np.full(len(test), share))
        ys.append(np.array([float(t.called) for t in test]))
    return np.concatenate(ps), np.concatenate(bases), np.concatenate(ys)


def report(title: str, p: np.ndarray, base: np.ndarray, y: np.ndarray) -> None:
    low, high = bootstrap_gain(p, base, y)
    print(f"\n{title}: {len(y)} turns, called {y.mean():.3f}")
    print(
        f"  log-loss {log_loss(p, y):.4f} against the base rate's {log_loss(base, y):.4f} "
        f"(gain {log_loss(p, y) - log_loss(base, y):+.4f}, 95% {low:+.4f} to {high:+.4f}); "
        f"AUC {auc(p, y):.3f}"
    )
    print("  | band | mean predicted | called | turns |")
    print("  |---|---:|---:|---:|")
    for i, (pred, obs, n) in enumerate(bands(p, y), start=1):
        print(f"  | {i} | {pred:.3f} | {obs:.3f} | {n} |")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, default=ARCHIVE)
    parser.add_argument("--write", action="store_true", help="write the shipped model file")
    args = parser.parse_args(argv)
    files = read_turns(args.archive)
    names = sorted(files)
    print("turns per file:", {name: len(t) for name, t in files.items()})
    for features, title in ((AUCTION_ONLY, "the auction alone"), (FEATURES, "cards and auction")):
        p, base, y = out_of_fold(files, names, features)
        report(f"leave one file out, {title}", p, base, y)
    fit_names = [n for n in names if n not in HELD_BACK]
    train = [t for n in fit_names for t in files[n]]
    fitted = fit_model(FEATURES, train, l2=L2)
    test = [t for n in HELD_BACK if n in files for t in files[n]]
    if test:
        y = np.array([float(t.called) for t in test])
        base = np.full(len(test), sum(t.called for t in train) / len(train))
        report(
            f"fitted on {len(fit_names)} files, held back {', '.join(HELD_BACK)}",
            predict(fitted, test),
            base,
            y,
        )
    fit_info = {
        "files": fit_names,
        "held_back": list(HELD_BACK),
        "turns": len(train),
        "called": round(sum(t.called for t in train) / len(train), 4),
        "l2": L2,
        "method": "logistic regression, L2 on the coefficients (not the intercept), IRLS",
    }
    model = fit_model(FEATURES, train, l2=L2, fit=fit_info)
    print(f"\nshipped: {model.version}: intercept {model.intercept}, jump {model.jump}")
    for name, b in zip(model.features, model.coefficients, strict=True):
        print(f"  {name:>14} {b:+.4f}")
    if args.write:
        SHIPPED_PATH.write_text(model.dumps(), encoding="utf-8")
        print(f"written: {SHIPPED_PATH}")


if __name__ == "__main__":
    main()
