"""Fit how the Bhoos server deals (analysis/models/dealing.py) on its archive.

Every deal of the archive whose 32 cards are known counts each card in its packet (its
seat from the dealer, and whether among the first or the second four); a deal found in two
files counts once. Measured leaving one file out: the weights fitted on the other files, the
log-likelihood a card of the left-out file gains over a fair shuffle (in nats: 0 is no
better than fair), and the share of cards that land in the packet the weights favour most
(a fair shuffle: 1/8). Shipped fitted on the files the issue-20 checks do not hold back.

    nice python bench/fit_dealing_model.py            # print the tables
    nice python bench/fit_dealing_model.py --write    # and write analysis/models/dealing_model.json
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path

# Run as a script, bench/ comes first on the path: put the repository root before it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fit_auction_model import ARCHIVE, HELD_BACK
from judge_bids import read_files

from twentynine.analysis.models.dealing import (
    PACKETS,
    SHIPPED_PATH,
    DealingModel,
    fit_model,
    packet,
)
from twentynine.schema.cards import ALL_CARDS, Card
from twentynine.schema.log import Deal


def score(model: DealingModel, deals: Sequence[Deal]) -> tuple[float, float, int]:
    """The mean log-likelihood gain a card, the share in its favoured packet, the cards."""
    gain = 0.0
    favoured = 0
    cards = 0
    for deal in deals:
        for seat, hand in (deal.hands or {}).items():
            for i, card in enumerate(hand):
                if card is None:
                    continue
                row = model.weights[card.index]
                # The weights are over fair (1/8 a packet): the card's chance is weight / 8.
                gain += math.log(max(row[packet(seat, deal.dealer, i >= 4)], 1e-12))
                favoured += row.index(max(row)) == packet(seat, deal.dealer, i >= 4)
                cards += 1
    return gain / cards, favoured / cards, cards


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, default=ARCHIVE)
    parser.add_argument("--write", action="store_true", help="write the shipped model")
    args = parser.parse_args(argv)
    files = {name: [m.deals[0] for m in games] for name, games in read_files(args.archive).items()}
    print("| left out | deals | gain a card (nats) | in the favoured packet |")
    print("|---|---:|---:|---:|")
    for name, deals in files.items():
        model = fit_model(d for other, ds in files.items() if other != name for d in ds)
        gain, favoured, _ = score(model, deals)
        print(f"| {name} | {len(deals)} | {gain:+.4f} | {favoured:.3f} |")
    shipped = fit_model(d for name, ds in files.items() if name not in HELD_BACK for d in ds)
    held = [d for name in HELD_BACK for d in files.get(name, [])]
    gain, favoured, cards = score(shipped, held)
    print(
        f"\nshipped: fitted on {shipped.deals} deals ({len(files) - len(HELD_BACK)} files), "
        f"on the {len(held)} held-back deals {gain:+.4f} nats a card, "
        f"{favoured:.3f} in the favoured packet ({cards} cards); fair 1/{PACKETS}"
    )
    king = Card.parse("KD")
    print(f"{king.text}'s weights: {shipped.weights[king.index]}")
    strongest = sorted(ALL_CARDS, key=lambda c: -max(shipped.weights[c.index]))[:5]
    print(
        "the most lopsided:",
        ", ".join(f"{c.text} {max(shipped.weights[c.index]):.2f}" for c in strongest),
    )
    if args.write:
        SHIPPED_PATH.write_text(shipped.dumps(), encoding="utf-8")
        print(f"wrote {SHIPPED_PATH} ({shipped.version})")


if __name__ == "__main__":
    main()
