"""Fit the contract model on the Bhoos archive and print its figures on files it was not
fitted on (docs/analysis.md, "The contract model").

Every scored contract of the archive (../shared/real/bhoos, read by the project's importer)
is a row; each file is one bot's record, so each file in turn is predicted by the model
fitted on the others (leave one file out), for the four-card baseline, the features
before the side's expected trumps and the shipped ones alike (each fold's views knowing the
server's dealing as fitted on its other files), and the pooled out-of-fold predictions are
measured: five equal-count
bands, the calibration error, the Brier score against the base rate (of the other files)
with a 95% bootstrap interval over deals, the AUC, and the same by level and by trump
length. ``--write`` then writes the model fitted on every file (the views knowing the shipped
server's dealing) to analysis/models/contract_model.json.

    nice python bench/fit_contract_model.py
    nice python bench/fit_contract_model.py --write
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

# Run as a script, bench/ comes first on the path: put the repository root before it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from twentynine.analysis.models.contract import SHIPPED_PATH
from twentynine.analysis.models.dealing import dealt_by
from twentynine.analysis.models.dealing import fit_model as fit_dealing
from twentynine.analysis.models.dealing import shipped_model as shipped_dealing
from twentynine.analysis.models.fit import (
    BASELINE,
    L2,
    MODEL_FEATURES,
    ContractRow,
    Evaluation,
    auc,
    contract_rows,
    cross_validate,
    evaluate,
    fit_model,
    fit_record,
    predict,
)
from twentynine.importers.bhoos_archive import read_stream
from twentynine.schema.log import MatchLog

ARCHIVE = Path(__file__).resolve().parent.parent.parent / "shared" / "real" / "bhoos"


def read_archive(folder: Path) -> tuple[list[MatchLog], list[str]]:
    """Every game of the archive's files, and the file each came from."""
    matches: list[MatchLog] = []
    files: list[str] = []
    for path in sorted(folder.glob("*.json")):
        with path.open("rb") as stream:
            for record in read_stream(stream, str(path)):
                if record.match is not None:
                    matches.append(record.match)
                    files.append(path.name)
    return matches, files


def print_evaluation(name: str, e: Evaluation) -> None:
    """One model's out-of-fold figures, as docs/analysis.md shows them."""
    print(f"\n## {name}")
    if e.folds:
        print("AUC per held-out file: " + ", ".join(f"{g} {a:.3f} ({n})" for g, n, a in e.folds))
    print(
        f"calls {e.count}, made {e.made:.3f}; AUC {e.auc:.3f}; Brier {e.brier:.4f} against "
        f"{e.base_brier:.4f} for the base rate: {e.brier_gain:+.4f} "
        f"(95% {e.gain_low:+.4f} to {e.gain_high:+.4f}); calibration error "
        f"{100 * e.ece:.1f} points, largest band gap {100 * e.max_gap:.1f}"
    )
    for title, bands in (
        ("band", e.bands),
        ("level", e.by_level),
        ("trump length", e.by_trump_length),
    ):
        print(f"| {title} | predicted | observed | calls |")
        print("|---|---:|---:|---:|")
        for b in bands:
            print(f"| {b.label} | {b.predicted:.3f} | {b.observed:.3f} | {b.calls} |")


def auc_gain(
    rows: list[ContractRow], p: np.ndarray, q: np.ndarray, seed: int, draws: int = 1000
) -> tuple[float, float]:
    """The 95% interval of AUC(p) - AUC(q), both on the same resampled deals."""
    y = np.array([float(r.made) for r in rows])
    index: dict[str, list[int]] = {}
    for i, r in enumerate(rows):
        index.setdefault(r.deal, []).append(i)
    deals = [np.array(v) for v in index.values()]
    rng = np.random.default_rng(seed)
    gains = []
    for _ in range(draws):
        picked = np.concatenate([deals[k] for k in rng.integers(0, len(deals), len(deals))])
        gains.append(auc(p[picked], y[picked]) - auc(q[picked], y[picked]))
    return float(np.percentile(gains, 2.5)), float(np.percentile(gains, 97.5))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, default=ARCHIVE)
    parser.add_argument("--seed", type=int, default=0, help="the bootstrap's draws")
    parser.add_argument("--l2", type=float, default=L2)
    parser.add_argument("--write", action="store_true", help="write the shipped model file")
    args = parser.parse_args()
    start = time.perf_counter()
    matches, files = read_archive(args.archive)
    rows: list[ContractRow] = contract_rows(matches, files)
    print(
        f"{len(matches)} games in {len(set(files))} files: {len(rows)} scored contracts "
        f"({time.perf_counter() - start:.1f} s)"
    )
    fold_rows = {}
    for held in sorted(set(files)):
        # Each fold's views know the server's dealing as fitted on the other files only.
        fold_dealing = fit_dealing(
            deal for m, f in zip(matches, files, strict=True) if f != held for deal in m.deals
        )
        fold_rows[held] = contract_rows(matches, files, dealt_by(fold_dealing))
    print(f"the server's dealing refitted for each fold ({time.perf_counter() - start:.1f} s)")
    results = {}
    predicted = []
    for name, features, trump in (
        ("baseline: four-card counts against the longest suit", BASELINE, "longest"),
        ("before: trump cards by class, side jacks, level", MODEL_FEATURES[:-1], "best"),
        ("shipped: the same and the side's expected trumps", MODEL_FEATURES, "best"),
    ):
        folds = cross_validate(
            rows,
            features,
            trump=trump,  # type: ignore[arg-type]
            l2=args.l2,
            fold_rows=fold_rows,
        )
        predicted.append(folds.predicted)
        probe = fit_model(rows, features, trump=trump, l2=args.l2)  # type: ignore[arg-type]
        results[name] = evaluate(
            rows, folds.predicted, folds.base, seed=args.seed, folds=folds.folds
        )
        print_evaluation(name, results[name])
        print(
            "fitted on every file: intercept "
            f"{probe.intercept:+.3f}, "
            + ", ".join(
                f"{f} {c:+.3f}" for f, c in zip(probe.features, probe.coefficients, strict=True)
            )
        )
    # Since issue 33 the product deals fairly unless asked (analyze --dealing server): the
    # shipped model, fitted on views that know the server's dealing, predicts each held-out
    # file from fair views (side_trump 3/7 a card unseen); and refitted on fair views.
    fair_rows = contract_rows(matches, files, lambda rules: None)
    fair_predicted = np.zeros(len(rows))
    fair_base = np.zeros(len(rows))
    fair_folds = []
    made = np.array([float(r.made) for r in rows])
    for held in sorted(set(files)):
        mask = np.array([r.group == held for r in rows])
        train = [r for r, h in zip(fold_rows[held], mask, strict=True) if not h]
        fold_model = fit_model(train, MODEL_FEATURES, l2=args.l2)
        test = [r for r, h in zip(fair_rows, mask, strict=True) if h]
        fair_predicted[mask] = predict(fold_model, test)
        fair_base[mask] = made[~mask].mean()
        fair_folds.append((held, len(test), auc(fair_predicted[mask], made[mask])))
    fair_eval = evaluate(rows, fair_predicted, fair_base, seed=args.seed, folds=fair_folds)
    print_evaluation("shipped, predicting from fair views (the default since issue 33)", fair_eval)
    refit = cross_validate(fair_rows, MODEL_FEATURES, l2=args.l2)
    print_evaluation(
        "refitted on fair views (side_trump then a sum of the trump counts)",
        evaluate(fair_rows, refit.predicted, refit.base, seed=args.seed, folds=refit.folds),
    )
    baseline, before, shipped = results.values()
    for name, other, q in (("baseline", baseline, predicted[0]), ("before", before, predicted[1])):
        low, high = auc_gain(rows, predicted[2], q, args.seed)
        print(
            f"\nAUC shipped - {name}: {shipped.auc - other.auc:+.3f} (95% {low:+.3f} to "
            f"{high:+.3f}, resampling deals)"
        )
    if args.write:
        record = fit_record(
            rows, sorted(set(files)), args.l2, shipped, baseline, dealing=shipped_dealing().version
        )
        model = fit_model(rows, MODEL_FEATURES, l2=args.l2, fit=record)
        SHIPPED_PATH.write_text(model.dumps(), encoding="utf-8")
        print(f"\nwrote {SHIPPED_PATH} ({model.version})")
    print(f"\n{time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
