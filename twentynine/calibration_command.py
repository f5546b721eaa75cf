"""``twentynine calibration``: how well the contract model predicts the calls of some logs,
and, with ``--fit``, a model refitted on them.

The walk: the importers read the matches, :mod:`analysis.models.fit` takes one row per
scored contract and measures the model on them (or fits one, and measures it out of fold);
this module prints the tables. cli.py registers :func:`calibration_command`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from twentynine.analysis.models.contract import (
    FEW_CALLS,
    SHIPPED_PATH,
    ContractModel,
    ModelError,
    few_calls_text,
    load_model,
    shipped_model,
)
from twentynine.analysis.models.fit import (
    L2,
    MODEL_FEATURES,
    ContractRow,
    Evaluation,
    contract_rows,
    cross_validate,
    evaluate,
    fit_model,
    fit_record,
    predict,
)
from twentynine.importers.errors import no_logs_found
from twentynine.importers.formats import FORMAT_NAMES, atomic_file
from twentynine.options import fail, named_file
from twentynine.outputs import refuse_overwrite
from twentynine.reports.warehouse import DEFAULT_DB
from twentynine.schema.log import MatchLog
from twentynine.schema.words import plural, signed
from twentynine.textout import error_line, printable, text_table, warning_line

NO_AUC = "none (every call made, or every call failed: no pair to rank)"
"""What the AUC is said to be when the calls leave it undefined."""

MAX_FOLDS = 10
"""Out-of-fold checks of a refit on one file: the matches dealt into this many folds."""


def calibration_command(
    paths: Annotated[
        list[str],
        typer.Argument(metavar="PATH", help="Files or folders of match logs; - is stdin."),
    ],
    fit: Annotated[
        bool, typer.Option("--fit", help="Refit the model on these logs and write it to -o.")
    ] = False,
    output: Annotated[
        Path | None,
        typer.Option(
            "-o",
            "--output",
            metavar="FILE",
            help="Where --fit writes the model.",
            parser=named_file,
        ),
    ] = None,
    model_file: Annotated[
        Path | None,
        typer.Option(
            "--model", metavar="FILE", help="Measure this model file instead of the shipped one."
        ),
    ] = None,
    seed: Annotated[
        int,
        typer.Option(
            "--seed", min=0, metavar="N", help="The bootstrap's draws and the refit's folds."
        ),
    ] = 0,
    from_format: Annotated[
        str | None,
        typer.Option(
            "--from",
            metavar="FORMAT",
            help=f"The input format, of: {', '.join(FORMAT_NAMES)}; detected when not given.",
        ),
    ] = None,
) -> None:
    """Print how well the contract model's chance to make a call matched the calls of
    these logs (docs/analysis.md, "The contract model"); with --fit, write a model refitted
    on them, which `twentynine analyze --model` uses.

    Exit status: 0 done, 2 an input, the model file or the output could not be used.

    \b
    Example: twentynine calibration club_logs/ --fit -o club-model.json
    """
    if fit and output is None:
        raise fail("--fit needs -o FILE: where to write the refitted model")
    if output is not None and not fit:
        raise fail("-o is where --fit writes a model: give --fit too")
    if output is not None and not output.resolve().parent.is_dir():
        raise fail(f"{output}: no such folder to write the model in")
    try:
        model = load_model(model_file) if model_file is not None else shipped_model()
    except ModelError as exc:
        raise fail(str(exc)) from None
    matches, sources, unreadable = _read(paths, from_format)
    if output is not None:
        read = [*paths, *sources, *([str(model_file)] if model_file is not None else [])]
        _check_output(output, read)
    rows = contract_rows(matches, sources)
    if not rows:
        raise fail("no scored contract with the caller's first four cards in the input")
    files = sorted(set(sources))
    where = "shipped" if model_file is None else printable(str(model_file))
    name = f"{printable(model.version)} ({where})"
    typer.echo(
        f"{plural(len(files), 'file')}, {plural(len(matches), 'match')}: "
        f"{plural(len(rows), 'scored contract')}"
    )
    typer.echo(f"\nmodel {name}")
    typer.echo(_tables(evaluate(rows, predict(model, rows), seed=seed)))
    if output is not None:
        if len(rows) < FEW_CALLS:
            typer.echo(warning_line(_few(len(rows))), err=True)
        try:
            refit = _refit(rows, files, seed)
        except ModelError as exc:  # a fit no model file could hold (a parameter beyond bounds)
            raise fail(f"the refit is not a usable model: {exc}") from None
        try:
            with atomic_file(output) as stream:
                stream.write(refit.dumps().encode())
        except OSError as exc:
            raise fail(f"{output}: cannot write the model: {exc.strerror}") from None
        typer.echo(f"wrote {printable(str(output))} ({printable(refit.version)})", err=True)
    if unreadable:
        raise typer.Exit(2)


def _few(calls: int) -> str:
    fit = shipped_model().fit or {}
    shipped = f" (the shipped model: {fit['calls']:,})" if "calls" in fit else ""
    return f"the refit is {few_calls_text(calls)}; compare the figures out of fold{shipped}"


def _read(paths: list[str], from_format: str | None) -> tuple[list[MatchLog], list[str], int]:
    """The matches read, the file each came from, and how many inputs could not be read
    (each named on standard error)."""
    from twentynine.cli import _read_inputs

    matches: list[MatchLog] = []
    sources: list[str] = []
    unreadable = 0
    for record in _read_inputs(paths, from_format, fast=False):
        if record.match is None:
            unreadable += 1
            for problem in record.problems:
                typer.echo(error_line(str(problem)), err=True)
            continue
        matches.append(record.match)
        sources.append(record.source)
    if not matches:
        if not unreadable:  # only empty files, each warned of
            raise fail(no_logs_found(paths))
        raise typer.Exit(2)  # each unreadable input has had its line
    return matches, sources, unreadable


def _check_output(output: Path, inputs: Sequence[str]) -> None:
    """Refuse to write over the shipped model or over an input."""
    target = output.resolve()
    if target == SHIPPED_PATH.resolve():
        raise fail(f"{output}: the shipped model is not written over; name another file")
    refuse_overwrite([output], inputs=inputs, warehouses=[DEFAULT_DB])
    if target.is_dir():
        raise fail(f"{output}: a folder; name a file to write the model to")


def _refit(rows: Sequence[ContractRow], files: Sequence[str], seed: int) -> ContractModel:
    """The model fitted on every row, its ``fit`` recording the out-of-fold figures (each
    file held out in turn, or, from one file, its matches dealt into folds by ``seed``)."""
    grouped = list(rows)
    how = "leave one file out"
    if len(files) < 2:
        matches = sorted({r.match_id for r in rows})
        random.Random(seed).shuffle(matches)
        folds = min(MAX_FOLDS, len(matches))
        fold = {m: f"fold {i % folds + 1}" for i, m in enumerate(matches)}
        grouped = [r._replace(group=fold[r.match_id]) for r in rows]
        how = f"matches dealt into {folds} folds (seed {seed})"
    held_out: Evaluation | None = None
    if len({r.group for r in grouped}) >= 2:
        checked = cross_validate(grouped, MODEL_FEATURES, l2=L2)
        held_out = evaluate(
            grouped, checked.predicted, checked.base, seed=seed, folds=checked.folds
        )
        typer.echo(f"\nrefitted, out of fold ({how})")
        typer.echo(_tables(held_out))
    record = fit_record(rows, [Path(f).name for f in files], L2, held_out, how=how)
    return fit_model(rows, MODEL_FEATURES, l2=L2, fit=record)


def _tables(e: Evaluation) -> str:
    """The figures and the three tables (bands, levels, trump lengths)."""

    def table(title: str, bands: Sequence[tuple[str, float, float, int]]) -> str:
        rows = [[b[0], f"{b[1]:.3f}", f"{b[2]:.3f}", str(b[3])] for b in bands]
        return text_table([title, "predicted", "observed", "calls"], rows)

    auc = f"{e.auc:.3f}" if math.isfinite(e.auc) else NO_AUC
    lines = [
        f"made {e.made:.3f}; AUC {auc}; Brier {e.brier:.4f} against {e.base_brier:.4f} "
        f"for the base rate: {signed(e.brier_gain, 4)} "
        f"(95% {signed(e.gain_low, 4)} to {signed(e.gain_high, 4)})",
        f"calibration error {100 * e.ece:.1f} points, largest band gap {100 * e.max_gap:.1f}",
        "",
        table("band", e.bands),
        "",
        table("level", e.by_level),
        "",
        table("trumps", e.by_trump_length),
    ]
    return "\n".join(lines)
