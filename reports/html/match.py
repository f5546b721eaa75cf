"""The match report: one self-contained HTML file for one match.

Players and rules, the score over the match, and per deal the auction (each bid with its
annotation), the trump, the show, the tricks, points against the target, doubling and stake,
the audit's findings and the analysis' annotations; above them the step-by-step viewer.

>>> from twentynine.replay import audit_match, random_match
>>> from twentynine.schema import Rules
>>> log = random_match(Rules.preset("pagat"), seed=3)
>>> page = match_report(log, audit_match(log), None)
>>> page.startswith("<!DOCTYPE html>"), "not analyzed" in page
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import plotly.graph_objects as go
from markupsafe import Markup

from twentynine.analysis.annotate import Annotation
from twentynine.analysis.models.dealing import dealing_words, note_dealing
from twentynine.replay import AuditedMatch, DealFacts, Finding
from twentynine.reports.html.annotations import Coverage
from twentynine.reports.html.judged import (
    Legend,
    SeatSummary,
    Tally,
    kept_notes,
    legend,
    seat_summaries,
    unreal_finding,
)
from twentynine.reports.html.render import (
    bidi_balanced,
    figure_json,
    plotly_bundle,
    render,
    script_json,
    whole_name,
)
from twentynine.reports.html.viewer import (
    CARD_LABELS,
    deal_data,
    seat_and_name,
    seat_names,
    suit_words,
)
from twentynine.schema.cards import SEATS, Card, Suit, Team, cards_as_read
from twentynine.schema.log import MatchLog, PlayAction, player_name
from twentynine.schema.words import plural, signed

_RED: Final = frozenset({Suit.HEARTS, Suit.DIAMONDS})


@dataclass(frozen=True, slots=True)
class CardView:
    """A card as the page shows it: ``10♥``, red or not, with its log text for tests."""

    text: str
    label: str
    red: bool

    @staticmethod
    def of(card: Card) -> CardView:
        """The card's view.

        >>> CardView.of(Card.parse("TH"))
        CardView(text='TH', label='10♥', red=True)
        """
        return CardView(card.text, card.display, card.suit in _RED)


@dataclass(frozen=True, slots=True)
class FindingView:
    code: str
    severity: str
    message: str
    anchor: str


@dataclass(frozen=True, slots=True)
class NoteView:
    """An annotation as shown: its label (or none) and mark, whose decision it judges when
    not the player of the action it sits at (``by``), what it says (``viewer.note_text``)
    and what the choice changed (``judged.changed_words``)."""

    label: str | None
    mark: str
    kind: str
    by: str
    method: str
    text: str
    changed: str


@dataclass(frozen=True, slots=True)
class MarkView:
    """A decision's mark beside its action: whose, the mark, and its label (or ``best``)."""

    seat: str
    mark: str
    label: str


@dataclass(frozen=True, slots=True)
class CountLink:
    """A count in a summary, linked to the first decision it counts (no link at 0)."""

    text: str
    link: str


@dataclass(frozen=True, slots=True)
class SummaryRow:
    """One seat's judged decisions (``judged.SeatSummary``), as a summary table shows them."""

    seat: str
    player: str
    judged: CountLink
    labels: tuple[CountLink, ...]
    card_loss: str


@dataclass(frozen=True, slots=True)
class AuctionRow:
    number: int
    anchor: str
    seat: str
    player: str
    said: str
    findings: tuple[FindingView, ...]
    notes: tuple[NoteView, ...]
    marks: tuple[MarkView, ...]


@dataclass(frozen=True, slots=True)
class PlayedView:
    seat: str
    card: CardView
    won: bool
    anchor: str
    findings: tuple[FindingView, ...]
    notes: tuple[NoteView, ...]
    marks: tuple[MarkView, ...]


@dataclass(frozen=True, slots=True)
class TrickRow:
    number: int
    leader: str
    cards: tuple[PlayedView, ...]
    winner: str
    points: int


@dataclass(frozen=True, slots=True)
class DealView:
    """One deal's summary."""

    number: int
    anchor: str
    dealer: str
    headline: str
    contract: str
    trump: str
    show: str
    doubling: str
    points: str
    score: str
    auction: tuple[AuctionRow, ...]
    tricks: tuple[TrickRow, ...]
    findings: tuple[FindingView, ...]
    deal_notes: tuple[NoteView, ...]
    has_errors: bool
    result: str
    result_anchor: str
    summary: tuple[SummaryRow, ...]
    stop: str
    analyzed: bool = True
    """Whether the deal was analysed (a run of ``--deal`` leaves the others not)."""


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A seat of the players' table: its player's name as shown (:func:`render.shown_name`),
    and the whole name when that one is cut (else empty)."""

    seat: str
    team: str
    name: str
    whole: str = ""


@dataclass(frozen=True, slots=True)
class MatchContext:
    """Everything the match template shows, already in words."""

    title: str
    match_id: str
    players: tuple[PlayerView, ...]
    rules: tuple[tuple[str, str], ...]
    preset: str
    result: str
    findings_count: str
    match_findings: tuple[FindingView, ...]
    analyzed: bool
    notes_count: int
    coverage: str
    """Which deals were analysed, when not every one, and the options, in words."""
    dealing: str
    """How the layouts of the sampled notes were dealt, in words (``analyze --dealing``)."""
    summary: tuple[SummaryRow, ...]
    legend: Legend
    deals: tuple[DealView, ...]
    score_figure: Markup
    viewer_data: Markup
    plotly: str


def _anchor(deal: int, action: int | None) -> str:
    """The page address of a step: ``#deal=3&action=17`` (the deal's start without action)."""
    return f"#deal={deal}" if action is None else f"#deal={deal}&action={action}"


def _finding(f: Finding) -> FindingView:
    anchor = _anchor(f.deal or 1, f.action) if f.action is not None else f"#deal={f.deal or 1}&end"
    return FindingView(f.code, f.severity, cards_as_read(f.message), anchor)


def _note(data: dict[str, Any]) -> NoteView:
    """A note of the viewer's data (``viewer.deal_data``): one story in both places."""
    return NoteView(
        data["label"],
        data["mark"],
        str(data["kind"]).replace("_", " "),  # single_hand
        data["by"],
        data["method"],
        data["text"],
        data["changed"],
    )


def _said(text: str) -> str:
    """An action's words without the seat in front: ``bids 17``, ``chooses the trump: ...``."""
    return text.split(" ", 1)[1] if " " in text else text


def _suit_text(trump: str | None, mode: str | None, seventh: bool) -> str:
    if mode == "no_trump":
        return "no trump"
    if mode == "reverse":
        return "reverse"
    chosen = suit_words(trump) if trump else "not seen by the recorder"
    return f"{chosen} (the seventh card)" if seventh else chosen


def summary_rows(
    summaries: tuple[SeatSummary, ...], names: dict[str, str], link: Callable[[int, int], str]
) -> tuple[SummaryRow, ...]:
    """The summary table's rows: each count linked (``link(deal, action)``) to its first."""

    def count(t: Tally) -> CountLink:
        return CountLink(f"{t.count:,}", link(*t.first) if t.first is not None else "")

    return tuple(
        SummaryRow(
            s.seat,
            names[s.seat],
            count(s.judged),
            tuple(count(t) for t in s.labels),
            f"{s.card_loss:.2f} (n={s.cards})" if s.card_loss is not None else "-",
        )
        for s in summaries
    )


def _deal_view(
    match: MatchLog,
    audited: AuditedMatch,
    number: int,
    data: dict[str, Any],
    notes: list[Annotation],
) -> DealView:
    """One deal's section, from the viewer's data of the deal and its kept annotations."""
    deal = match.deals[number - 1]
    facts = audited.deals[number - 1]
    names = seat_names(match)
    found = [f for f in audited.findings if f.deal == number]
    steps: list[dict[str, Any]] = data["steps"]

    def findings_at(k: int) -> tuple[FindingView, ...]:
        return tuple(_finding(f) for f in found if f.action == k)

    def notes_at(k: int) -> tuple[NoteView, ...]:
        return tuple(_note(n) for n in data["notes"] if n["k"] == k)

    def marks_at(k: int) -> tuple[MarkView, ...]:
        if not 0 <= k < len(steps) - 2:
            return ()
        return tuple(MarkView(*m) for m in steps[k + 1]["marks"])

    auction = tuple(
        AuctionRow(
            k,
            _anchor(number, k),
            action.seat.value,
            names[action.seat.value],
            cards_as_read(_said(steps[k + 1]["say"])),
            findings_at(k),
            notes_at(k),
            marks_at(k),
        )
        for k, action in enumerate(deal.actions)
        if not isinstance(action, PlayAction)
    )
    tricks: list[TrickRow] = []
    for trick, shown in zip(facts.tricks, data["tricks"], strict=True):
        cards: list[PlayedView] = []
        # Each card links to the play that put it there (a log's stray plays skipped).
        for (seat, card), at in zip(trick.cards, shown["steps"], strict=True):
            k = at - 1 if at is not None else -1
            cards.append(
                PlayedView(
                    seat.value,
                    CardView.of(card),
                    seat is trick.winner,
                    _anchor(number, k),
                    findings_at(k),
                    notes_at(k),
                    marks_at(k),
                )
            )
        tricks.append(
            TrickRow(
                trick.number, trick.leader.value, tuple(cards), trick.winner.value, trick.points
            )
        )
    end = steps[-1]
    summary: tuple[SummaryRow, ...] = ()
    if data["summary"] is not None:
        mine = kept_notes([a for a in notes if a.deal == number], unreal_finding(found))
        summary = summary_rows(seat_summaries(mine, [seat.value for seat in SEATS]), names, _anchor)
    return DealView(
        number=number,
        anchor=_anchor(number, None),
        dealer=seat_and_name(deal.dealer.value, names),
        headline=_headline(facts, names),
        contract=_contract(facts, names),
        trump=_suit_text(facts.trump, facts.trump_mode, facts.seventh) if facts.caller else "-",
        show=_show_text(facts, names, [step["say"] for step in steps]),
        doubling=_doubling_text(facts),
        points=_points_text(facts),
        score=f"NS {facts.score_after[Team.NS]}, EW {facts.score_after[Team.EW]}",
        auction=auction,
        tricks=tuple(tricks),
        findings=tuple(_finding(f) for f in found if f.action is None),
        deal_notes=tuple(_note(n) for n in data["notes"] if n["k"] is None),
        has_errors=any(f.severity == "error" for f in found),
        result=end["say"],
        result_anchor=f"#deal={number}&end",
        summary=summary,
        stop=end.get("stop", "") or next((s["stop"] for s in steps if "stop" in s), ""),
        analyzed=data["summary"] is not None,
    )


def _headline(facts: DealFacts, names: dict[str, str]) -> str:
    if facts.thrown_in is not None:
        return f"thrown in ({facts.thrown_in.replace('_', ' ')})"
    if facts.single_hand is not None:
        won = "won" if facts.made else "lost"
        return f"single hand by {seat_and_name(facts.single_hand.value, names)}: {won}"
    if facts.caller is None or facts.made is None:
        return "unfinished"
    change = facts.score_change[facts.caller.team]
    verb = "made" if facts.made else "failed"
    return (
        f"{facts.caller.value} {verb} {facts.call} ({signed(change)} for {facts.caller.team.value})"
    )


def _contract(facts: DealFacts, names: dict[str, str]) -> str:
    if facts.caller is None:
        return "no call"
    return f"{seat_and_name(facts.caller.value, names)} called {facts.call}; target {facts.target}"


def _show_text(facts: DealFacts, names: dict[str, str], says: list[str]) -> str:
    show = facts.show
    if show is None:
        return "never shown" if facts.caller is not None else "-"
    what = cards_as_read(says[show.action + 1])
    text = f"trick {show.trick}, action {show.action}: {what}"
    if 0 < show.trick <= len(facts.tricks):
        trick = facts.tricks[show.trick - 1]
        side = "won" if trick.winner.team is show.seat.team else "lost"
        text += (
            f"; {seat_and_name(show.seat.value, names)}'s side {side} that trick "
            f"({plural(trick.points, 'point')})"
        )
    return text


def _doubling_text(facts: DealFacts) -> str:
    word = facts.doubling or "none"
    return f"{word}; stake {facts.stake}"


def _points_text(facts: DealFacts) -> str:
    ns, ew = facts.points[Team.NS], facts.points[Team.EW]
    if facts.caller is None or facts.target is None:
        return f"NS {ns}, EW {ew}"
    team = facts.caller.team
    return (
        f"NS {ns}, EW {ew}: the caller's side ({team.value}) took {facts.points[team]} "
        f"against a target of {facts.target}"
    )


_EVERY_DEAL_TICKED: Final = 11
"""Up to this many points on the score chart (the start and ten deals), each deal gets its
tick; beyond, plotly's own ticks fall on whole deals."""


def _score_figure(audited: AuditedMatch) -> Markup:
    deals = list(range(len(audited.deals) + 1))
    figure = go.Figure()
    for team in (Team.NS, Team.EW):
        scores = [0, *(d.score_after[team] for d in audited.deals)]
        figure.add_trace(go.Scatter(x=deals, y=scores, mode="lines+markers", name=team.value))
    target = audited.rules.match_target
    # A match is won at +target and lost at -target (the rules' match_target).
    figure.add_hline(y=target, line_dash="dot", annotation_text=f"won at {target}")
    figure.add_hline(y=-target, line_dash="dot", annotation_text=f"lost at {-target}")
    if len(deals) <= _EVERY_DEAL_TICKED:  # else plotly ticks at fifths of a deal
        figure.update_xaxes(tickmode="linear", tick0=0, dtick=1)
    figure.update_layout(
        title="Match score after each deal",
        xaxis_title="deal",
        yaxis_title="game points",
        height=320,
        margin={"l": 50, "r": 20, "t": 50, "b": 40},
    )
    return figure_json(figure)


def _coverage_words(coverage: Coverage | None, deals: int) -> str:
    """The deals analysed when not all, and the options, as the page's heading says them."""
    if coverage is None:
        return ""
    words = []
    if coverage.deals is not None:
        done = sorted(n for n in coverage.deals if n <= deals)
        which = "deal" if len(done) == 1 else "deals"
        words.append(f"{which} {', '.join(map(str, done))} analyzed, the others not analyzed")
    words.append(f"options: {coverage.options}" if coverage.options else "options not recorded")
    return "; ".join(words)


def match_context(
    match: MatchLog,
    audited: AuditedMatch,
    annotations: list[Annotation] | None,
    coverage: Coverage | None = None,
) -> MatchContext:
    """The match report's context; ``annotations`` None when the match was not analyzed;
    ``coverage``: the deals they cover (every deal when None) and their options."""
    notes = annotations or []
    names = seat_names(match)
    numbers = range(1, len(match.deals) + 1)
    analysed = [
        annotations is not None and (coverage is None or coverage.covers(n)) for n in numbers
    ]
    viewer_deals = [
        deal_data(match, audited, n, annotations if analysed[n - 1] else None) for n in numbers
    ]
    for data, done in zip(viewer_deals, analysed, strict=True):
        data["analyzed"] = done
    kept = [
        note
        for n in numbers
        for note in kept_notes(
            [a for a in notes if a.deal == n],
            unreal_finding(f for f in audited.findings if f.deal == n),
        )
    ]
    errors, warnings = audited.errors, audited.warnings
    winner = audited.winner.value if audited.winner else "nobody yet"
    score = audited.score
    options = audited.rules.options()
    rules = tuple((key, _show(value)) for key, value in options.items())
    viewer = {
        "match": audited.match_id,
        "names": names,
        "teams": {seat.value: seat.team.value for seat in SEATS},
        "cards": CARD_LABELS,
        "analyzed": annotations is not None,
        "deals": viewer_deals,
    }
    summary: tuple[SummaryRow, ...] = ()
    if annotations is not None:
        summary = summary_rows(seat_summaries(kept, [s.value for s in SEATS]), names, _anchor)
    return MatchContext(
        title=f"Match {audited.match_id}",
        match_id=audited.match_id,
        players=tuple(
            PlayerView(
                s.value,
                s.team.value,
                names[s.value],
                bidi_balanced(whole_name(player_name(match.players[s]))),
            )
            for s in SEATS
        ),
        rules=rules,
        preset=_preset(match),
        result=f"NS {score[Team.NS]}, EW {score[Team.EW]}: {winner} won",
        findings_count=f"{plural(errors, 'error')}, {plural(warnings, 'warning')}",
        match_findings=tuple(_finding(f) for f in audited.findings if f.deal is None),
        analyzed=annotations is not None,
        notes_count=len(kept),
        coverage=_coverage_words(coverage, len(match.deals)),
        dealing=_dealing(notes),
        summary=summary,
        legend=legend(),
        deals=tuple(_deal_view(match, audited, n, viewer_deals[n - 1], notes) for n in numbers),
        score_figure=_score_figure(audited),
        viewer_data=script_json(viewer),
        plotly=plotly_bundle(),
    )


def _dealing(notes: list[Annotation]) -> str:
    """How the sampled notes' layouts were dealt (:func:`dealing_words`)."""
    return dealing_words(note_dealing(note.detail) for note in notes if note.method == "sampled")


def _preset(match: MatchLog) -> str:
    rules = match.rules
    return rules if isinstance(rules, str) else f"{rules['preset']} (with options changed)"


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def match_report(
    match: MatchLog,
    audited: AuditedMatch,
    annotations: list[Annotation] | None,
    coverage: Coverage | None = None,
) -> str:
    """The match report's HTML; the same match, audit and annotations give the same bytes.
    ``coverage`` (:func:`~reports.html.annotations.read_coverage`): the deals analysed, the
    others said not analyzed, and the options the annotations were worked out with."""
    return render("match.html", page=match_context(match, audited, annotations, coverage))
