"""Do a set of deals look like fair shuffles? One overall test on where each card lands.

Each deal puts every one of the 32 cards in one of eight packets of four (each seat from the
dealer, its first four and its second four: :func:`analysis.models.dealing.packet`). Counted
over the deals, a fair shuffle puts each card in each packet an eighth of the time. The
test is Pearson's chi-square on the 32 x 8 table of counts against that eighth, times 31/32
(the 32 cards of a deal are dealt without replacement, which makes the plain sum 32/31 times
too large), on (32 - 1) x (8 - 1) = 217 degrees of freedom; its p-value is the chi-square
distribution's upper tail (:func:`chi2_upper`), and the deals are rejected as fair shuffles
when it is below the level. Each cell's standardised residual is its count less the eighth,
over the count's standard deviation on a fair shuffle (the square root of deals x 7/64).

Only deals whose 32 cards are all in the log are counted (a deal with a card unseen is
skipped and counted as such), and a deal recorded more than once (the same cards in the
same packets, whatever their order within a packet, the seats' names or the match) counts
once: a deal played twice is one shuffle (the Bhoos archive plays most of its deals twice,
the players swapped).

>>> from twentynine.replay import random_match
>>> from twentynine.schema import Rules
>>> deals = [random_match(Rules.preset("pagat"), seed=s).deals[0] for s in range(60)]
>>> audit = audit_dealing(deals)
>>> audit.deals, audit.degrees, audit.rejected
(60, 217, False)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from twentynine.analysis.models.dealing import PACKETS, packet
from twentynine.schema.cards import ALL_CARDS, Card
from twentynine.schema.shapes import DealLike
from twentynine.schema.words import plural

LEVEL: Final = 0.01
"""The level the test rejects fair shuffles at, unless told another."""

SHOWN: Final = 10
"""The cells most off that an audit names."""

FEW_DEALS: Final = 40
"""Below this many deals a fair shuffle's count is under 5 a cell, where the chi-square
distribution is a rough guide to the statistic's: said beside the p-value."""

DEGREES: Final = (len(ALL_CARDS) - 1) * (PACKETS - 1)
"""The test's degrees of freedom: 217."""

WITHOUT_REPLACEMENT: Final = (len(ALL_CARDS) - 1) / len(ALL_CARDS)
"""The correction of Pearson's sum for cards dealt without replacement: 31/32."""

SEATS_FROM_DEALER: Final = (
    "the dealer",
    "the dealer's left",
    "the dealer's partner",
    "the dealer's right",
)
"""How a packet's seat is named, by its place from the dealer (clockwise: N, E, S, W, as
:func:`~analysis.models.dealing.packet` counts, whichever way the rules play)."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One card's count in one packet, against a fair shuffle's."""

    card: Card
    packet: int
    observed: int
    expected: float
    residual: float

    @property
    def place(self) -> str:
        """The packet in words.

        >>> Cell(Card.parse("KD"), 7, 10, 1.25, 8.4).place
        "the second four of the dealer's right"
        """
        four = "second" if self.packet % 2 else "first"
        return f"the {four} four of {SEATS_FROM_DEALER[self.packet // 2]}"

    def as_json(self) -> dict[str, Any]:
        return {
            "card": self.card.text,
            "seat_from_dealer": self.packet // 2,
            "four": "second" if self.packet % 2 else "first",
            "observed": self.observed,
            "expected": round(self.expected, 4),
            "residual": round(self.residual, 4),
        }


@dataclass(frozen=True, slots=True)
class DealingAudit:
    """The test's figures on a set of deals."""

    deals: int
    """Deals counted: every card known, each shuffle once."""
    repeated: int
    """Deals left out as recorded before (the same cards in the same packets)."""
    incomplete: int
    """Deals left out for a card the log does not hold."""
    counts: tuple[tuple[int, ...], ...]
    """For each card (by its index), its count in each packet."""
    statistic: float
    degrees: int
    p_value: float
    level: float
    cells: tuple[Cell, ...]
    """The cells most off, the largest standardised residual (either way) first."""

    @property
    def rejected(self) -> bool:
        """True when the deals do not look like fair shuffles at :attr:`level`."""
        return self.p_value < self.level

    def as_json(self) -> dict[str, Any]:
        """The figures, as ``twentynine dealing --format json`` writes them."""
        return {
            "deals": self.deals,
            "repeated": self.repeated,
            "incomplete": self.incomplete,
            "statistic": round(self.statistic, 4),
            "degrees_of_freedom": self.degrees,
            "p_value": self.p_value,
            "level": self.level,
            "fair": not self.rejected,
            "cells": [cell.as_json() for cell in self.cells],
        }

    def lines(self) -> list[str]:
        """The figures in words, as ``twentynine dealing`` prints them."""
        left = []
        if self.repeated:
            left.append(f"{plural(self.repeated, 'deal')} recorded again left out")
        if self.incomplete:
            left.append(f"{plural(self.incomplete, 'deal')} without every card left out")
        out = [
            f"{plural(self.deals, 'deal')} with every card known"
            + (f" ({'; '.join(left)})" if left else "")
        ]
        if not self.deals:
            return [*out, "no deal to test"]
        verdict = "not fair shuffles" if self.rejected else "no evidence against fair shuffles"
        out.append(
            f"chi-square {self.statistic:.1f} on {self.degrees} degrees of freedom "
            f"(32 cards x 8 packets), p-value {p_text(self.p_value)}: {verdict} "
            f"at the {self.level:g} level"
        )
        if self.deals < FEW_DEALS:
            out.append(
                f"fewer than {FEW_DEALS} deals: a fair shuffle's count is under 5 a cell, "
                "so the p-value is rough"
            )
        out.append(
            f"the {len(self.cells)} cells most off "
            "(count, a fair shuffle's, standardised residual):"
        )
        for cell in self.cells:
            out.append(
                f"  {cell.card.display:<3} in {cell.place:<39} {cell.observed:>6,} "
                f"{cell.expected:>9,.1f} {cell.residual:>+8.1f}"
            )
        return out


def p_text(p: float) -> str:
    """A p-value in words: three figures, or a bound where it underflows.

    >>> p_text(0.01234), p_text(0.0)
    ('0.0123', 'below 1e-300')
    """
    return "below 1e-300" if p < 1e-300 else f"{p:.3g}"


class DealCounter:
    """The card-by-packet counts of deals given one at a time (:meth:`add`)."""

    def __init__(self) -> None:
        self.counts = [[0] * PACKETS for _ in ALL_CARDS]
        self.deals = 0
        self.repeated = 0
        self.incomplete = 0
        self._seen: set[frozenset[tuple[int, int]]] = set()

    def add(self, deal: DealLike) -> None:
        """Count ``deal`` (or count it left out: a card unknown, or recorded before)."""
        hands = deal.hands or {}
        if len(hands) != 4 or any(len(h) != 8 or None in h for h in hands.values()):
            self.incomplete += 1
            return
        packets: list[tuple[int, int]] = []  # (card, packet) of each card
        for seat, hand in hands.items():
            for i, card in enumerate(hand):
                if card is not None:
                    packets.append((card.index, packet(seat, deal.dealer, i >= 4)))
        key = frozenset(packets)  # the same cards in the same packets: the same shuffle
        if key in self._seen:
            self.repeated += 1
            return
        self._seen.add(key)
        self.deals += 1
        for index, where in packets:
            self.counts[index][where] += 1

    def audit(self, level: float = LEVEL, shown: int = SHOWN) -> DealingAudit:
        """The test on the deals counted so far."""
        n = self.deals
        expected = n / PACKETS
        spread = math.sqrt(n * (PACKETS - 1) / PACKETS**2)
        statistic = 0.0
        cells: list[Cell] = []
        for card in ALL_CARDS:
            for p, observed in enumerate(self.counts[card.index]):
                if n:
                    statistic += (observed - expected) ** 2 / expected
                    residual = (observed - expected) / spread
                    cells.append(Cell(card, p, observed, expected, residual))
        statistic *= WITHOUT_REPLACEMENT
        p_value = chi2_upper(statistic, DEGREES) if n else 1.0
        cells.sort(key=lambda c: (-abs(c.residual), c.card.index, c.packet))
        return DealingAudit(
            deals=n,
            repeated=self.repeated,
            incomplete=self.incomplete,
            counts=tuple(tuple(row) for row in self.counts),
            statistic=statistic,
            degrees=DEGREES,
            p_value=p_value,
            level=level,
            cells=tuple(cells[:shown]),
        )


def audit_dealing(
    deals: Iterable[DealLike], level: float = LEVEL, shown: int = SHOWN
) -> DealingAudit:
    """The test on ``deals`` at ``level``, naming the ``shown`` cells most off."""
    counter = DealCounter()
    for deal in deals:
        counter.add(deal)
    return counter.audit(level, shown)


def chi2_upper(x: float, degrees: int) -> float:
    """The chance a chi-square variable on ``degrees`` degrees of freedom exceeds ``x``.

    >>> round(chi2_upper(3.841459, 1), 6), round(chi2_upper(2.0, 2), 6)
    (0.05, 0.367879)
    """
    if x <= 0:
        return 1.0
    return gamma_upper(degrees / 2, x / 2)


def gamma_upper(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x), for a > 0 and x >= 0: by its
    series below a + 1, by its continued fraction (modified Lentz) above.

    >>> round(gamma_upper(1.0, 1.0), 12) == round(math.exp(-1.0), 12)
    True
    """
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        k = a
        for _ in range(10_000):
            k += 1
            term *= x / k
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-16:
            break
    return math.exp(log_front) * h
