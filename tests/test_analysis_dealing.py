"""Layouts dealt as the server deals: the Bhoos server's packets, fitted and followed."""

from __future__ import annotations

import json
import random

import pytest

from twentynine.analysis.fair import fair_deal
from twentynine.analysis.judge.words import tell
from twentynine.analysis.models.dealing import (
    DealingModel,
    fit_model,
    packet,
    server_dealing,
    shipped_model,
)
from twentynine.analysis.models.others import shipped_model as shipped_others
from twentynine.analysis.run import AnalysisOptions, run_record
from twentynine.analysis.sampling import sample_layouts
from twentynine.replay import random_match
from twentynine.schema import Rules
from twentynine.schema.cards import ALL_CARDS, SEATS, Card, Seat

KING = Card.parse("KD")


def test_a_fair_shuffle_fits_weights_near_one() -> None:
    deals = [random_match(Rules.preset("bhoos"), seed=s).deals[0] for s in range(300)]
    model = fit_model(deals)
    assert model.deals == 300
    flat = [w for row in model.weights for w in row]
    assert sum(flat) / len(flat) == pytest.approx(1.0, abs=0.01)
    assert max(flat) < 1.8 and min(flat) > 0.3  # 37 cards a packet: no packet favoured


def test_the_shipped_model_holds_what_the_archive_showed() -> None:
    """The Bhoos server deals the K of diamonds last, every time, and favours one packet
    for every other card."""
    model = shipped_model()
    assert model.weight(KING, 3, 1) > 7.9
    assert max(model.weights[KING.index][:7]) < 0.01
    others = [c for c in ALL_CARDS if c is not KING]
    assert all(1.5 < max(model.weights[c.index]) < 2.5 for c in others)


def test_the_bhoos_rules_name_the_server_and_no_other_does() -> None:
    bhoos = Rules.preset("bhoos")
    assert server_dealing(bhoos) is shipped_model()
    assert server_dealing(bhoos.with_options(match_target=10)) is shipped_model()
    assert server_dealing(bhoos.with_options(show_trump="compulsory")) is None
    for name in ("bangladesh", "standard", "beginner", "pagat", "classic29"):
        assert server_dealing(Rules.preset(name)) is None


def _lopsided(card: Card, where: int) -> DealingModel:
    """A dealing that puts ``card`` in packet ``where`` nearly always."""
    rows = [[1.0] * 8 for _ in ALL_CARDS]
    rows[card.index] = [0.001] * 8
    rows[card.index][where] = 7.99
    return DealingModel("test", tuple(tuple(r) for r in rows), 1)


def test_layouts_put_a_card_where_the_server_deals_it() -> None:
    """A card the seat cannot see goes to its favoured packet under the server's dealing,
    and anywhere under a fair shuffle; the layouts stay consistent with the deal."""
    log = random_match(Rules.preset("bhoos"), seed=3)
    rules, deal = log.resolved_rules(), log.deals[0]
    at = next(i for i, a in enumerate(deal.actions) if a.type == "trump")
    seat = deal.actions[at].seat
    hidden = next(c for c in ALL_CARDS if c not in (deal.hands or {})[seat][:4])
    target = next(s for s in SEATS if s is not seat)
    where = packet(target, deal.dealer, True)
    model = _lopsided(hidden, where)
    rng = random.Random(4)
    dealt = sample_layouts(rules, deal, 1, at, seat, rng, 40, dealing=model)
    fair = sample_layouts(rules, deal, 1, at, seat, random.Random(4), 40)
    assert len(dealt) == len(fair) == 40
    there = sum(hidden in layout.hands[target][4:] for layout in dealt)
    assert there >= 38
    assert sum(hidden in layout.hands[target][4:] for layout in fair) < 15
    for layout in dealt:
        assert layout.hands[seat][:4] == list((deal.hands or {})[seat][:4])
        assert sorted(c.index for h in layout.hands.values() for c in h if c) == list(range(32))


def test_the_first_four_are_dealt_by_the_packet_weights_too() -> None:
    """A card favoured in a seat's first four is found there more often than in its
    second four, where a fair shuffle splits them evenly."""
    log = random_match(Rules.preset("bhoos"), seed=5)
    rules, deal = log.resolved_rules(), log.deals[0]
    seat = Seat.N
    hidden = next(c for c in ALL_CARDS if c not in (deal.hands or {})[seat][:4])
    target = next(s for s in SEATS if s is not seat)
    model = _lopsided(hidden, packet(target, deal.dealer, False))
    layouts = sample_layouts(rules, deal, 1, 0, seat, random.Random(6), 40, dealing=model)
    assert sum(hidden in layout.hands[target][:4] for layout in layouts) >= 38


def test_every_sampled_note_names_its_dealing_fair_unless_the_server_is_asked() -> None:
    """Fair shuffles for every preset by default; the server's table only when asked, and
    then only for the games under its rules, every note made under it saying so in words."""
    server = shipped_model()
    for preset, asked, dealt in (
        ("bhoos", None, False),
        ("bangladesh", None, False),
        ("bhoos", server, True),
        ("bangladesh", server, False),
    ):
        log = random_match(Rules.preset(preset), seed=2)
        notes = tell(
            fair_deal(log.match_id, log.resolved_rules(), log.deals[0], 1, samples=8, dealing=asked)
        )
        sampled = [n for n in notes if n.method == "sampled"]
        assert sampled, preset
        for note in sampled:
            detail = json.loads(note.detail)
            assert detail["others"] == shipped_others().version
            # every kind's layouts, the bids' too, are dealt as asked
            assert detail["dealing"] == (server.version if dealt else "fair"), note
            if note.kind == "bid":
                assert detail.get("model_dealing", "fair") == (server.version if dealt else "fair")
            assert note.explanation.endswith("(dealt as the Bhoos server deals)") is dealt, note
    assert json.loads(run_record(AnalysisOptions()))["dealing"] == "fair"
    server_run = run_record(AnalysisOptions(dealing=server))
    assert json.loads(server_run)["dealing"] == server.version


def test_the_server_table_changes_the_layouts_of_a_bhoos_game() -> None:
    log = random_match(Rules.preset("bhoos"), seed=2)
    rules, deal = log.resolved_rules(), log.deals[0]
    seat = deal.actions[0].seat
    fair = sample_layouts(rules, deal, 1, 0, seat, random.Random(4), 20)
    fair_again = sample_layouts(rules, deal, 1, 0, seat, random.Random(4), 20)
    served = sample_layouts(rules, deal, 1, 0, seat, random.Random(4), 20, dealing=shipped_model())
    assert [x.hands for x in fair] == [x.hands for x in fair_again]
    assert [x.hands for x in fair] != [x.hands for x in served]
    # the K of diamonds, when unseen, is last under the server's table, anywhere when fair
    last = SEATS[(SEATS.index(deal.dealer) + 3) % 4]
    if KING not in (deal.hands or {}).get(seat, [])[:4]:
        assert all(KING in x.hands[last][4:] for x in served)
        assert not all(KING in x.hands[last][4:] for x in fair)


def test_a_seats_side_shares_follow_the_packet_weights() -> None:
    """The chance an unseen card lands with a bidder's side (its second four, its partner's
    eight): each card alone, by its weights for the seven packets left; 3/7 when fair."""
    fair = [1.0] * 8
    weights = [tuple(fair) for _ in ALL_CARDS]
    weights[KING.index] = (0.0,) * 7 + (8.0,)  # always the last packet: W's second, N deals
    model = DealingModel("test", tuple(weights), 1)
    dealer = Seat.N
    for seat in SEATS:
        shares = model.side_shares(seat, dealer)
        ours = seat in (Seat.W, Seat.E)  # W's own second four, or E's partner's
        assert shares[KING.index] == (1.0 if ours else 0.0)
        others = [s for c, s in enumerate(shares) if c != KING.index]
        assert others == pytest.approx([3 / 7] * 31, abs=1e-6)
    shipped = shipped_model().side_shares(Seat.E, Seat.N)
    assert shipped[KING.index] > 0.99  # the archive's K of diamonds, its partner's last card
