"""The dealing audit (analysis.dealing_audit, `twentynine dealing`): the statistic on a set
made by hand, fair deals let pass, a biased set rejected, and one line for bad input."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

import pytest
from typer.testing import CliRunner

from twentynine.analysis.dealing_audit import audit_dealing, chi2_upper
from twentynine.cli import app
from twentynine.importers.formats import write_matches
from twentynine.replay import random_match
from twentynine.replay.simulate import deal_cards
from twentynine.schema import Rules
from twentynine.schema.cards import ALL_CARDS, SEATS, Card, Seat

runner = CliRunner()
KING = Card.parse("KD")


class Dealt(NamedTuple):
    dealer: Seat
    hands: Mapping[Seat, Sequence[Card | None]]
    actions: tuple[()] = ()
    result: None = None


def _in_order(dealer: Seat) -> Dealt:
    """Cards 0-7 to N (first four, second four), 8-15 to E, and so on."""
    hands = {seat: list(ALL_CARDS[8 * i : 8 * i + 8]) for i, seat in enumerate(SEATS)}
    return Dealt(dealer, hands)


def _fair(count: int, seed: int) -> list[Dealt]:
    rng = random.Random(seed)
    rules = Rules.preset("bhoos")
    return [Dealt(SEATS[k % 4], deal_cards(rng, SEATS[k % 4], rules)) for k in range(count)]


def _king_last(deal: Dealt) -> Dealt:
    """``deal`` with the K of diamonds swapped into the last card dealt (the Bhoos server's
    habit): the second four of the dealer's right."""
    hands = {s: list(h) for s, h in deal.hands.items()}
    right = SEATS[(SEATS.index(deal.dealer) + 3) % 4]
    holder = next(s for s, h in hands.items() if KING in h)
    i = hands[holder].index(KING)
    hands[holder][i], hands[right][7] = hands[right][7], KING
    return Dealt(deal.dealer, hands)


def test_the_statistic_on_a_set_made_by_hand() -> None:
    """Two deals of the same hands, dealt by N then by S: each card is once in packet c // 4
    and once four packets on; a third deal repeats the first (cards reordered within their
    packets) and a fourth has a card unseen: both left out."""
    first, second = _in_order(Seat.N), _in_order(Seat.S)
    again = {s: [*h[:4][::-1], *h[4:][::-1]] for s, h in first.hands.items()}
    unseen = {s: list(h) for s, h in first.hands.items()}
    unseen[Seat.E][5] = None
    audit = audit_dealing([first, second, Dealt(Seat.N, again), Dealt(Seat.W, unseen)], shown=3)
    assert (audit.deals, audit.repeated, audit.incomplete) == (2, 1, 1)
    for card in ALL_CARDS:
        expected = [0] * 8
        expected[card.index // 4] += 1
        expected[(card.index // 4 + 4) % 8] += 1
        assert list(audit.counts[card.index]) == expected
    # a fair shuffle: 2/8 a cell; a row: two cells of 1 (0.75^2 / 0.25 each), six of 0
    # (0.25^2 / 0.25 each) = 6; 32 rows = 192, times 31/32 = 186
    assert audit.statistic == pytest.approx(186.0)
    assert audit.degrees == 217
    # the upper tail of a chi-square on 217 (= 2 x 108 + 1) degrees of freedom, by the
    # closed form for half-integer shapes: erfc(sqrt y) + e^-y sum y^(j + 1/2) / G(j + 3/2)
    y = 186.0 / 2
    tail = math.erfc(math.sqrt(y)) + sum(
        math.exp((j + 0.5) * math.log(y) - y - math.lgamma(j + 1.5)) for j in range(108)
    )
    assert audit.p_value == pytest.approx(tail, rel=1e-10)
    assert not audit.rejected
    # a cell of 1: (1 - 0.25) / sqrt(2 x 7/64)
    top = audit.cells[0]
    assert top.residual == pytest.approx(0.75 / math.sqrt(2 * 7 / 64))
    assert (top.card, top.packet, top.observed) == (ALL_CARDS[0], 0, 1)


@pytest.mark.parametrize(("x", "degrees"), [(0.5, 2), (10.0, 10), (200.0, 216), (300.0, 218)])
def test_the_upper_tail_matches_the_closed_form_for_even_degrees(x: float, degrees: int) -> None:
    closed = math.exp(-x / 2) * sum((x / 2) ** i / math.factorial(i) for i in range(degrees // 2))
    assert chi2_upper(x, degrees) == pytest.approx(closed, rel=1e-10)


def test_fair_deals_pass_and_a_biased_set_is_rejected() -> None:
    fair = audit_dealing(_fair(500, seed=1))
    assert fair.deals == 500 and not fair.rejected
    assert fair.p_value > 0.05
    biased = audit_dealing([_king_last(d) for d in _fair(500, seed=1)])
    assert biased.rejected and biased.p_value < 1e-10
    top = biased.cells[0]
    assert (top.card, top.packet, top.observed) == (KING, 7, 500)


def _biased_logs(path: Path) -> Path:
    """Three matches whose deals all end with the K of diamonds, as canonical JSON lines."""
    matches = []
    for seed in range(3):
        log = random_match(Rules.preset("bhoos"), seed=seed)
        deals = []
        for deal in log.deals:
            hands = _king_last(Dealt(deal.dealer, deal.hands or {})).hands
            deals.append(deal.model_copy(update={"hands": hands, "actions": []}))
        matches.append(log.model_copy(update={"deals": deals, "result": None}))
    write_matches(iter(matches), str(path))
    return path


def test_the_command_rejects_a_biased_set_and_names_the_cell(tmp_path: Path) -> None:
    logs = _biased_logs(tmp_path / "biased.jsonl")
    result = runner.invoke(app, ["dealing", str(logs), "--format", "json", "--cells", "3"])
    assert result.exit_code == 1, result.output
    body = json.loads(result.stdout)
    assert body["fair"] is False and body["level"] == 0.01 and body["matches"] == 3
    assert len(body["cells"]) == 3
    assert body["cells"][0]["card"] == "KD"
    assert (body["cells"][0]["seat_from_dealer"], body["cells"][0]["four"]) == (3, "second")
    text = runner.invoke(app, ["dealing", str(logs)])
    assert text.exit_code == 1
    assert "not fair shuffles at the 0.01 level" in text.stdout
    assert "K♦  in the second four of the dealer's right" in text.stdout


def test_fair_logs_pass(tmp_path: Path) -> None:
    result = runner.invoke(app, ["dealing", "sample_logs/league.jsonl"])
    assert result.exit_code == 0, result.output
    assert "no evidence against fair shuffles at the 0.01 level" in result.stdout


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--level", "2"], "twentynine: --level: 2 is not a level; give a number between 0 and 1"),
        (["--level", "0"], "twentynine: --level: 0 is not a level; give a number between 0 and 1"),
    ],
)
def test_a_bad_level_is_one_line(args: list[str], line: str) -> None:
    result = runner.invoke(app, ["dealing", "sample_logs/pagat.json", *args])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [f"{line}, e.g. 0.01"]
    assert not result.stdout


def test_bad_inputs_are_one_line_each(tmp_path: Path) -> None:
    missing = runner.invoke(app, ["dealing", str(tmp_path / "nothing.json")])
    assert missing.exit_code == 2 and len(missing.stderr.splitlines()) == 1
    assert "nothing.json" in missing.stderr
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "twentynine", "deals": [', encoding="utf-8")
    result = runner.invoke(app, ["dealing", str(broken)])
    assert result.exit_code == 2 and "broken.json" in result.stderr
    assert not result.stdout
    # no deal whose 32 cards the log holds
    log = random_match(Rules.preset("pagat"), seed=1)
    hidden = [d.model_copy(update={"hands": {Seat.N: (d.hands or {})[Seat.N]}}) for d in log.deals]
    partial = tmp_path / "partial.jsonl"
    write_matches(iter([log.model_copy(update={"deals": hidden})]), str(partial))
    none = runner.invoke(app, ["dealing", str(partial)])
    assert none.exit_code == 2
    assert none.stderr.splitlines() == [
        "twentynine: no deal with every card known in 1 match: the test needs the 32 cards "
        "of a deal (docs/match-log.md, 'hands')"
    ]
