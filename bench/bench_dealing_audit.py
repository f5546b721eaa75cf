"""The dealing audit's false alarms: how often `twentynine dealing` rejects deals that are
fair shuffles (docs/analysis.md, "The dealing audit").

Sets of fair deals are dealt by the simulator's shuffle (``replay.simulate.deal_cards``, the
dealer going round), each set audited on its own (``analysis.dealing_audit``), and the share
of sets rejected at the level is printed with its standard error: it must be at most the
level plus two standard errors. The statistic's mean and variance over the sets are printed
too (217 and 434 on fair shuffles: the chi-square's).

    nice python bench/bench_dealing_audit.py                       # 1,000 sets of 500 deals
    nice python bench/bench_dealing_audit.py --sets 200 --deals 100
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

# Run as a script, bench/ comes first on the path: put the repository root before it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from twentynine.analysis.dealing_audit import LEVEL, DealCounter
from twentynine.replay.simulate import deal_cards
from twentynine.schema.cards import SEATS, Card, Seat
from twentynine.schema.rules import Rules


class FairDeal(NamedTuple):
    """A deal as the audit reads it: the dealer and the hands (no actions played)."""

    dealer: Seat
    hands: Mapping[Seat, Sequence[Card | None]]
    actions: tuple[()] = ()
    result: None = None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=1000)
    parser.add_argument("--deals", type=int, default=500, help="fair deals a set")
    parser.add_argument("--level", type=float, default=LEVEL)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--preset", default="bhoos")
    args = parser.parse_args()
    rules = Rules.preset(args.preset)
    rng = random.Random(args.seed)
    start = time.perf_counter()
    alarms = 0
    statistics = []
    for _ in range(args.sets):
        counter = DealCounter()
        for k in range(args.deals):
            dealer = SEATS[k % 4]
            counter.add(FairDeal(dealer, deal_cards(rng, dealer, rules)))
        audit = counter.audit(args.level)
        alarms += audit.rejected
        statistics.append(audit.statistic)
    rate = alarms / args.sets
    error = math.sqrt(args.level * (1 - args.level) / args.sets)
    bound = args.level + 2 * error
    mean = sum(statistics) / len(statistics)
    variance = sum((x - mean) ** 2 for x in statistics) / max(len(statistics) - 1, 1)
    print(
        f"{args.sets:,} sets of {args.deals:,} fair deals ({args.preset}, seed {args.seed}): "
        f"{alarms} rejected at the {args.level:g} level, a false-alarm rate of {rate:.4f} "
        f"(the level plus two standard errors: {bound:.4f}: "
        f"{'within' if rate <= bound else 'OVER'}); the statistic's mean {mean:.1f} "
        f"(217 expected) and variance {variance:.0f} (434 expected); "
        f"{time.perf_counter() - start:.0f} s"
    )
    return 0 if rate <= bound else 1


if __name__ == "__main__":
    sys.exit(main())
