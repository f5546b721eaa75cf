"""Benchmark: self-play simulation throughput, one core.

Simulates complete matches between bots (every decision from the seat's view, among the
engine's legal actions) for each preset, and prints deals and matches per second. Writing
the logs is not timed; building the MatchLog models is.

    python bench/bench_simulate.py              # 2,000 deals a preset
    python bench/bench_simulate.py --deals 300  # a quick look
"""

from __future__ import annotations

import argparse
import time

from twentynine.replay.selfplay import simulate_matches
from twentynine.schema import PRESET_NAMES, Rules


def run(preset: str, deals: int, seed: int) -> tuple[int, int, float]:
    """Simulate matches until at least ``deals`` deals; returns (deals, matches, seconds)."""
    rules = Rules.preset(preset)
    done = matches = 0
    started = time.perf_counter()
    for match in simulate_matches(rules, 10**9, seed):
        done += len(match.deals)
        matches += 1
        if done >= deals:
            break
    return done, matches, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals a preset")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    total_deals = 0
    total_seconds = 0.0
    print(
        f"{'preset':<11} {'deals':>6} {'matches':>7} {'seconds':>7} {'deals/s':>8} {'matches/s':>9}"
    )
    for preset in PRESET_NAMES:
        deals, matches, seconds = run(preset, args.deals, args.seed)
        total_deals += deals
        total_seconds += seconds
        print(
            f"{preset:<11} {deals:>6} {matches:>7} {seconds:>7.2f} "
            f"{deals / seconds:>8.0f} {matches / seconds:>9.1f}"
        )
    rate = total_deals / total_seconds
    print(f"{'all':<11} {total_deals:>6} {'':>7} {total_seconds:>7.2f} {rate:>8.0f}")


if __name__ == "__main__":
    main()
