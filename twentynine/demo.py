"""``twentynine demo``: every step of the walk on the bundled sample logs, with what it shows.

Each step prints a heading and what it found; the demo fails (returns False) when a step
does not give what the samples promise, so running it is also a check.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import orjson

from twentynine.analysis.run import AnalysisOptions, annotate_deal, match_tasks, run_record
from twentynine.frames import render_step
from twentynine.importers.formats import expand_inputs, import_paths, read_any, write_matches
from twentynine.loading import load_paths
from twentynine.replay import Finding, audit_match, deal_steps
from twentynine.replay.selfplay import simulate_matches
from twentynine.replay.summary import AuditSummary
from twentynine.report_commands import examples_folder, write_match_report, write_players_report
from twentynine.reports.html.annotations import read_analysed
from twentynine.reports.warehouse import companions
from twentynine.reports.warehouse.annotations import replace_annotations
from twentynine.reports.warehouse.export import export_parquet, format_result
from twentynine.reports.warehouse.stats import run_stats
from twentynine.reports.warehouse.store import QueryResult, open_warehouse, run_query
from twentynine.sample_logs import SAMPLES_DIR
from twentynine.schema.cards import Seat
from twentynine.schema.rules import Rules
from twentynine.schema.words import plural

Echo = Callable[[str], None]


@dataclass
class DemoResult:
    """What the demo made and whether every step gave what was expected."""

    out: Path
    failures: list[str] = field(default_factory=list)
    made: list[Path] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


def _audit(paths: list[Path]) -> tuple[AuditSummary, list[Finding]]:
    """The audit of some files as ``twentynine audit`` counts it, and its error findings."""
    summary = AuditSummary()
    errors: list[Finding] = []
    for path in paths:
        for record in read_any(path):
            if record.match is None:
                summary.add_unreadable(record.source)
                continue
            rows = summary.add(record.source, audit_match(record.match))
            errors.extend(row.finding for row in rows if row.finding.severity == "error")
    return summary, errors


def default_samples() -> Path:
    """``./sample_logs`` where the demo runs in a checkout (or beside a copy of the samples),
    else the samples installed with the package: the demo runs from any folder.

    >>> (default_samples() / "bad").is_dir()
    True
    """
    here = Path("sample_logs")
    if (here / "bad").is_dir() and (here / "formats").is_dir():
        return here
    return SAMPLES_DIR


IMPORTED: Final = "imported.jsonl"
SIMULATED: Final = "simulated.jsonl"
DATABASE: Final = "twentynine.duckdb"
EXPORT: Final = "parquet"
MATCH_REPORT: Final = "match.html"
PLAYERS_REPORT: Final = "players.html"
"""What the demo writes under its folder (:func:`demo_outputs`)."""


def demo_outputs(out: Path) -> tuple[list[Path], list[Path]]:
    """The files and the folders the demo writes under ``out``, replacing what is there:
    the warehouse with its write-ahead log, the export (whole), the players report's example
    matches.

    >>> [p.name for p in demo_outputs(Path("demo_out"))[1]]
    ['parquet', 'players_matches']
    """
    files: list[str | Path] = [IMPORTED, SIMULATED, DATABASE, *companions(DATABASE)]
    files += [MATCH_REPORT, PLAYERS_REPORT]
    return [out / name for name in files], [out / EXPORT, examples_folder(out / PLAYERS_REPORT)]


def run_demo(samples: Path, out: Path, echo: Echo) -> DemoResult:
    """Run the walk on ``samples`` and write what it makes under ``out``
    (:func:`demo_outputs`)."""
    result = DemoResult(out)
    out.mkdir(parents=True, exist_ok=True)

    echo(f"== 1. audit the sample matches in {samples}/")
    good = [p for p in expand_inputs([samples]) if p.parent == samples]
    audit, _ = _audit(good)
    echo(
        f"   {plural(len(good), 'file')}, {plural(audit.matches, 'match')}, "
        f"{plural(audit.deals, 'deal')}: {plural(audit.errors, 'error')}"
    )
    if audit.exit_code or not audit.matches:
        result.failures.append("the good samples should audit clean")

    bad_dir = samples / "bad"
    echo(f"\n== 2. audit the known-bad logs in {bad_dir}/ against their expected findings")
    for path in sorted(bad_dir.glob("*.json")):
        _, errors = _audit([path])
        got = [(f.deal, f.action, f.code) for f in errors]
        expected_path = path.with_suffix(".expected")
        expected = [
            (row["deal"], row["action"], row["code"])
            for row in map(orjson.loads, expected_path.read_bytes().splitlines())
            if row["severity"] == "error"
        ]
        verdict = "as expected" if got == expected else "DIFFERENT from expected"
        example = f": {errors[0].code} {errors[0].message}" if errors else ""
        echo(f"   {path.name}: {plural(len(got), 'error')}, {verdict}{example}"[:150])
        if got != expected:
            result.failures.append(f"{path.name} did not give its expected findings")

    echo(f"\n== 3. import the other formats in {samples / 'formats'}/")
    imported = out / IMPORTED
    summary = import_paths([samples / "formats"], None, imported)
    for line in summary.lines():
        echo(f"   {line}")
    if summary.exit_code != 0:
        result.failures.append("the format samples should import without problems")
    result.made.append(imported)

    echo("\n== 4. replay deal 1 of the bangladesh sample as South saw it: the start and the show")
    sample = next(r.match for r in read_any(samples / "bangladesh.json") if r.match)
    steps = deal_steps(sample, 1, seat=Seat.S)
    show = audit_match(sample).deals[0].show
    shown_at = show.action + 1 if show is not None else len(steps) - 1
    heading = f"match {sample.match_id} · deal 1"
    for step in (steps[0], steps[shown_at]):
        echo("   " + render_step(step, total=len(steps), heading=heading).replace("\n", "\n   "))
        echo("")

    echo("== 5. simulate: four bots play two bangladesh matches (seed 1), audited")
    simulated = out / SIMULATED
    logs = list(simulate_matches(Rules.preset("bangladesh"), 2, 1))
    write_matches(logs, str(simulated))
    result.made.append(simulated)
    simulated_audit = AuditSummary()
    for log in logs:
        simulated_audit.add(str(simulated), audit_match(log))
    echo(
        f"   {plural(simulated_audit.matches, 'match')}, "
        f"{plural(simulated_audit.deals, 'deal')} -> {simulated}: "
        f"{plural(simulated_audit.errors, 'error')}"
    )
    if simulated_audit.errors:
        result.failures.append("simulated matches should audit clean")

    database = out / DATABASE
    echo(f"\n== 6. load everything into {database} (DuckDB), then load it again")
    database.unlink(missing_ok=True)
    inputs = [samples, simulated]
    for attempt in ("first", "again"):
        loaded = load_paths(inputs, db=database)
        echo(f"   {attempt}: {loaded.lines()[-1]}")
    if loaded.stored:
        result.failures.append("loading the same logs twice should store nothing new")
    result.made.append(database)

    echo("\n== 7. player statistics of the league (twentynine stats)")
    stats = run_stats(db=database)
    wanted = ("name", "deals", "calls", "make_rate", "average_call", "ask_rate", "doubles")
    columns = [stats.columns.index(name) for name in wanted]
    league = [row for row in stats.rows if row[stats.columns.index("deals")] >= 1000]
    picked = QueryResult(
        wanted,
        tuple(stats.types[i] for i in columns),
        [tuple(row[i] for i in columns) for row in league],
    )
    echo("   " + format_result(picked, "table").rstrip("\n").replace("\n", "\n   "))
    if len(league) != 8:
        result.failures.append("the league should have eight players with over 1,000 deals")

    echo("\n== 8. in SQL (twentynine query): who asks for the trump most, and does it pay?")
    sql = (
        "select name, shows_asked, show_chances, round(ask_rate, 3) as ask_rate, "
        "round(asked_trick_win_rate, 3) as won_when_asked, "
        "round(not_asked_trick_win_rate, 3) as won_when_not "
        "from player_stats where deals >= 1000 order by ask_rate desc limit 3"
    )
    echo(f"   {sql}")
    answer = run_query(sql, db=database)
    echo("   " + format_result(answer, "table").rstrip("\n").replace("\n", "\n   "))

    parquet = out / EXPORT
    echo(f"\n== 9. export the warehouse as Parquet under {parquet}/")
    shutil.rmtree(parquet, ignore_errors=True)
    for line in export_parquet(parquet, db=database).lines():
        echo(f"   {line}")
    result.made.append(parquet)

    _analyze(samples / "bangladesh.json", database, echo, result)
    _render_reports(samples / "bangladesh.json", database, out, echo, result)
    return result


DEMO_DEAL = 11
"""The deal of the sample match the demo analyzes (every kind of decision, about a second):
one with a card labelled a blunder at the demo's samples, so that the output and the report
show what a labelled decision looks like."""
DEMO_SAMPLES = 8
"""Samples a fair decision starts with in the demo (`twentynine analyze` starts with 32)."""


def _analyze(match_file: Path, database: Path, echo: Echo, result: DemoResult) -> None:
    """Annotate one deal of a sample match into the warehouse, as `analyze --deal` does."""
    echo(
        f"\n== 10. analyze deal {DEMO_DEAL} of {match_file.name} (twentynine analyze --deal "
        f"{DEMO_DEAL} --samples {DEMO_SAMPLES}): every card and show exactly, the bids, trump, "
        "doubling and shows on what each seat knew"
    )
    match = next(r.match for r in read_any(match_file) if r.match)
    options = AnalysisOptions(samples=DEMO_SAMPLES, seed=0, deal=DEMO_DEAL)
    notes = [note for task in match_tasks(match, options) for note in annotate_deal(task)]
    with open_warehouse(database) as wh:
        replace_annotations(wh, match, notes, record=run_record(options), deal=DEMO_DEAL)
    kinds = sorted({note.kind for note in notes})
    labelled = [note for note in notes if note.label]
    echo(
        f"   {plural(len(notes), 'annotation')} ({', '.join(kinds)}), "
        f"{len(labelled)} labelled inaccuracy, mistake or blunder"
    )
    for note in labelled:
        echo(f"   {note.label} by {note.seat}: {note.explanation}")
        reason = json.loads(note.detail).get("reason")
        if reason:
            echo(f"     why: {reason}")
    if not {"card", "bid", "par"} <= set(kinds):
        result.failures.append("the analysis should judge the cards, bids and par")


def _render_reports(
    match_file: Path, database: Path, out: Path, echo: Echo, result: DemoResult
) -> None:
    """The HTML reports: one sample match, and the players of the demo's warehouse."""
    match_html = out / MATCH_REPORT
    players_html = out / PLAYERS_REPORT
    echo("\n== 11. render the HTML reports (twentynine report match, report players)")
    match = next(r.match for r in read_any(match_file) if r.match)
    with open_warehouse(database, read_only=True) as wh:
        annotations, coverage = read_analysed(wh, match.match_id)
    write_match_report(match, match_html, annotations, coverage)
    analyzed = "not analyzed" if annotations is None else plural(len(annotations), "annotation")
    echo(
        f"   match report of {match_file.name} ({plural(len(match.deals), 'deal')}, "
        f"{analyzed}): {match_html} (deal {DEMO_DEAL} analyzed: in its viewer, M steps to "
        "the next mistake)"
    )
    examples = write_players_report(database, players_html, min_deals=30, examples=2)
    echo(
        f"   players report: {players_html} (with {plural(len(examples), 'example match')} "
        f"in {examples_folder(players_html)}/)"
    )
    echo("   open them in a browser: they work offline, from the file")
    result.made.extend([match_html, players_html])
    if match_html.stat().st_size > 5_000_000:
        result.failures.append("the match report should stay under 5 MB")
