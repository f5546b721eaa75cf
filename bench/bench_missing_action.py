"""What the search for a missing action costs the audit: simulated matches with breaches,
audited with the search and with it switched off, and a log with one action left out.

    python bench/bench_missing_action.py [--matches 40] [--inject 0.3]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from twentynine.replay import audit, engine_build
from twentynine.replay.selfplay import simulate_matches
from twentynine.schema.log import MatchLog
from twentynine.schema.rules import Rules


def timed(matches: Sequence[MatchLog]) -> tuple[float, int]:
    start = time.perf_counter()
    findings = sum(len(audit.audit_match(match).findings) for match in matches)
    return time.perf_counter() - start, findings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--inject", type=float, default=0.3)
    args = parser.parse_args()
    rules = Rules.preset("bangladesh")
    matches = list(simulate_matches(rules, args.matches, 5, inject_rate=args.inject))
    deals = sum(len(match.deals) for match in matches)
    with_search, found = timed(matches)
    search = audit.missing_action
    audit.missing_action = lambda *_args, **_kwargs: None
    try:
        without, _ = timed(matches)
    finally:
        audit.missing_action = search
    print(f"engine: {engine_build()}; {args.matches} matches, {deals} deals, inject {args.inject}")
    print(f"audit with the search:    {with_search:.2f} s ({deals / with_search:,.0f} deals/s)")
    print(f"audit without the search: {without:.2f} s ({deals / without:,.0f} deals/s)")
    print(f"findings: {found}")


if __name__ == "__main__":
    main()
