"""The review in the match report (issue 21), parsed: marks, summaries, what a choice changed,
which judgement is which, the values of the cards, the graph's series, the result step."""

from __future__ import annotations

import json
import re

import pytest

from tests.analyzed import LABELS, analyzed_match, labelled
from tests.htmlpage import Page
from twentynine.analysis.annotate import Annotation
from twentynine.analysis.hindsight import hindsight_deal
from twentynine.analysis.labels import THRESHOLDS
from twentynine.replay import audit_match
from twentynine.reports.html.judged import (
    MARKS,
    alternatives,
    changed_words,
    disagreement,
    note_mark,
)
from twentynine.reports.html.match import match_report
from twentynine.reports.html.words import result_words
from twentynine.schema.cards import SEATS, Seat, Team

EXACT_CARD = Annotation(
    "m", 1, 9, "N", "card", "exact", "TD", "JD", 15.0, 17.0, 2.0, "card_points",
    None, None, None, None, "", "{}", 0,
)  # fmt: skip


@pytest.fixture(scope="module")
def review() -> tuple[Page, dict[str, object]]:
    match, notes = analyzed_match()
    html = match_report(match, audit_match(match), list(notes))
    return Page(html), {"html": html}


def _worst(notes: tuple[Annotation, ...], decision: tuple[int, int, str]) -> str:
    return LABELS[
        max(
            LABELS.index(str(n.label))
            for n in notes
            if (n.deal, n.action, n.seat) == decision and n.label in LABELS
        )
    ]


def test_the_same_analyzed_match_gives_the_same_bytes(
    review: tuple[Page, dict[str, object]],
) -> None:
    match, notes = analyzed_match()
    again = match_report(match, audit_match(match), list(notes))
    assert again == review[1]["html"]


def test_every_labelled_decision_is_marked_where_the_deal_lists_it(
    review: tuple[Page, dict[str, object]],
) -> None:
    page = review[0]
    _, notes = analyzed_match()
    found = labelled(notes)
    assert found  # the sample's analysis labels some decisions
    data = page.json("viewer-data")
    for deal, action, seat in found:
        worst = _worst(notes, (deal, action, seat))
        step = data["deals"][deal - 1]["steps"][action + 1]
        assert [seat, MARKS[worst], worst] in step["marks"]
        href = f"#deal={deal}&action={action}"
        row = next(
            e.parent.parent
            for e in page.all("a")
            if e.within(f"deal-{deal}") and e.attrs.get("href") == href and e.parent
            and (" plays " in e.attrs.get("aria-label", "")
                 or e.parent.attrs.get("data-label") == "action")
        )  # fmt: skip
        assert row is not None and MARKS[worst] in row.content, (deal, action)
    best = [n for n in notes if note_mark(n) == "!"]
    assert best and all(n.loss == 0 for n in best)


def test_the_summaries_count_each_seat_and_link_to_the_first(
    review: tuple[Page, dict[str, object]],
) -> None:
    page = review[0]
    _, notes = analyzed_match()
    found = labelled(notes)
    rows = {row[0]: row for row in page.table("summary")}
    assert sorted(rows) == sorted(s.value for s in SEATS)
    for seat in SEATS:
        mine = [d for d in found if d[2] == seat.value]
        counts = [str(sum(1 for d in mine if _worst(notes, d) == label)) for label in LABELS]
        assert rows[seat.value][3:6] == counts, seat
    links = [a.attrs["href"] for a in page.all("a") if a.within("summary")]
    for label in LABELS:
        first = next((d for d in found if _worst(notes, d) == label), None)
        if first is not None:
            assert f"#deal={first[0]}&action={first[1]}" in links
    deal = found[0][0]
    in_deal = {row[0]: row for row in page.table(f"summary-{deal}")}
    first_seat = found[0][2]
    assert (
        int(in_deal[first_seat][3]) + int(in_deal[first_seat][4]) + int(in_deal[first_seat][5]) >= 1
    )


def test_what_a_card_changed_is_said_against_the_target() -> None:
    crossed = changed_words(EXACT_CARD, target=16, caller=Team.NS, total=28)
    assert crossed.startswith("crossed the target: the call can no longer be made")
    enough = changed_words(EXACT_CARD, target=15, caller=Team.NS, total=28)
    assert enough.startswith("still enough for the call: NS keep 15 of the 15 needed")
    defender = EXACT_CARD._replace(seat="E")  # EW keep 15 of 28: NS can make 14 no more
    assert changed_words(defender, target=14, caller=Team.NS, total=28).startswith(
        "still enough for stopping the call"
    )
    assert changed_words(defender, target=12, caller=Team.NS, total=28).startswith(
        "crossed the target: NS can now make the call"
    )
    chance = EXACT_CARD._replace(unit="make_probability", loss=0.17, method="sampled")
    assert changed_words(chance, target=16, caller=Team.NS, total=28) == (
        "17% less chance to make the call"
    )
    beat = chance._replace(seat="W")
    assert changed_words(beat, target=16, caller=Team.NS, total=28).endswith("beat the call")
    assert changed_words(EXACT_CARD._replace(loss=0.0), target=16, caller=Team.NS, total=28) == ""


def test_two_judgements_of_one_show_say_which_is_which() -> None:
    exact = EXACT_CARD._replace(kind="show", chosen="no show", best="show", label="blunder")
    fair = exact._replace(method="sampled", best="no show", label=None, loss=0.0)
    told = disagreement([exact, fair], "N (Joy)")
    assert "with all cards known (exact), show was best" in told
    assert "from what N (Joy) could know (fair, sampled), no show was" in told
    assert told.endswith("The mark ?? is the judgement with all cards known.")
    assert disagreement([exact, exact._replace(method="sampled")], "N") == ""


def test_every_card_to_play_carries_its_value_stored_or_solved(
    review: tuple[Page, dict[str, object]],
) -> None:
    match, notes = analyzed_match()
    data = review[0].json("viewer-data")
    rules = match.resolved_rules()
    for number in (1, 9):
        deal = match.deals[number - 1]
        stored = {
            n.action: alternatives(n) for n in notes
            if n.deal == number and n.kind == "card" and n.method == "exact"
        }  # fmt: skip
        steps = data["deals"][number - 1]["steps"]
        plays = [k for k, a in enumerate(deal.actions) if a.type == "play"]
        assert plays
        for k in plays:
            values = steps[k]["values"]
            assert values["seat"] == deal.actions[k].seat.value
            cards = [c for c, _ in values["choices"] if c not in ("show", "no show")]
            assert [[c, v] for c, v in stored[k]] == [x for x in values["choices"] if x[0] in cards]
        assert data["deals"][number - 1]["values_from"] == "the stored analysis"
    # a match analyzed without its cards: the values are solved when the report is made
    bids = [n for n in notes if n.kind == "bid"]
    page = Page(match_report(match, audit_match(match), bids))
    first = page.json("viewer-data")["deals"][0]
    assert first["values_from"] == "solved for this report"
    solved = {
        n.action: alternatives(n)
        for n in hindsight_deal(match.match_id, rules, match.deals[0], 1, kinds={"card"})
    }
    k = next(k for k, a in enumerate(match.deals[0].actions) if a.type == "play")
    assert first["steps"][k]["values"]["choices"][: len(solved[k])] == [
        [c, v] for c, v in solved[k]
    ]


def test_the_graph_follows_the_caller_side_on_its_own_axes(
    review: tuple[Page, dict[str, object]],
) -> None:
    match, notes = analyzed_match()
    audited = audit_match(match)
    data = review[0].json("viewer-data")
    for number, facts in enumerate(audited.deals, start=1):
        graph = data["deals"][number - 1]["graph"]
        if facts.thrown_in is not None:
            assert graph["why"].startswith("the deal was thrown in (")
            continue
        lead = facts.single_hand or facts.caller
        assert lead is not None
        side = lead.team
        assert graph["side"] == side.value
        assert all(0 <= y <= audited.rules.total_points for _, y in graph["points"])
        assert all(0 <= y <= 100 for _, y in graph["chance"])
        cards = [n for n in notes if n.deal == number and n.kind == "card" and n.method == "exact"]
        if cards:
            last = cards[-1]
            value = last.value_chosen
            if Seat(last.seat).team is not side:  # type: ignore[arg-type]
                value = audited.rules.total_points - value
            assert graph["points"][-1] == [last.action + 1, value]  # type: ignore[operator]
        marks = [m[0] - 1 for m in graph["marks"]]
        assert marks == [k for d, k, _ in labelled(notes) if d == number]


def test_the_last_step_of_each_deal_states_its_result(
    review: tuple[Page, dict[str, object]],
) -> None:
    match, _ = analyzed_match()
    audited = audit_match(match)
    data = review[0].json("viewer-data")
    before = dict.fromkeys(Team, 0)
    kinds = set()
    for facts, deal in zip(audited.deals, data["deals"], strict=True):
        end = deal["steps"][-1]
        assert end["end"] and end["say"] == result_words(facts, before)
        after = facts.score_after
        assert deal["score"] == [
            [before[Team.NS], before[Team.EW]],
            [after[Team.NS], after[Team.EW]],
        ]
        kinds.add(end["say"].split(" ")[0])
        before = facts.score_after
    assert {"Thrown", "Single", "NS", "EW"} <= kinds  # each kind of end in its own words


def test_the_legend_states_the_thresholds_in_force(
    review: tuple[Page, dict[str, object]],
) -> None:
    legend = review[0].by_id("legend").content
    for name, threshold in THRESHOLDS:
        assert f"{MARKS[name]}" in legend and f"{threshold:.0%}" in legend
    for word in ("exact", "fair (sampled)", "interval", "card points", "game points"):
        assert word in legend


def test_a_report_not_analyzed_has_no_review_parts() -> None:
    match, _ = analyzed_match()
    page = Page(match_report(match, audit_match(match), None))
    data = page.json("viewer-data")
    assert not data["analyzed"] and all(d["graph"] is None for d in data["deals"])
    assert not any("values" in s for d in data["deals"] for s in d["steps"])
    assert "mistake" not in json.dumps([b.content for b in page.all("button")])
    assert not page.all("input")  # no "with best and forced moves" without an analysis


def test_no_letter_reads_as_both_a_suit_and_a_seat(review: tuple[Page, dict[str, object]]) -> None:
    """Suits are written as symbols or words (♠, spades), seats as letters: an ``S`` on the
    page is South, never spades; H, D and C (no seat's letter) never stand alone."""
    page = review[0]
    data = page.json("viewer-data")
    texts = [page.text]
    for deal in data["deals"]:
        for step in deal["steps"]:
            texts += [step["say"], step["standing"], *step["trump"].values()]
            texts += list(step.get("say_seen", {}).values())
        texts += [n["text"] + " " + n["changed"] for n in deal["notes"]]
        texts += [f["message"] for f in deal["findings"]]
    lone = re.compile(r"(?<![\w♠♥♦♣])[HDC](?![\w])")
    suit_letter = re.compile(r"\b(?:trump|suit|shows?)\W+[SHDC]\b")
    assert not [t for t in texts if lone.search(t)]
    assert not [t for t in texts if suit_letter.search(t)]
