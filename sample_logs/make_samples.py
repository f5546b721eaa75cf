"""Rebuild the sample logs from fixed seeds, byte for byte.

    python sample_logs/make_samples.py            # write every sample (not the golden files)
    python sample_logs/make_samples.py --check    # compare with the files on disk, write nothing
    python sample_logs/make_samples.py --golden   # also write bad/X.expected afresh

The golden files of ``bad/`` are written only on request: they are checked by hand once
and then pinned, and ``tests/test_sample_logs.py`` compares the auditor's findings with them.

What is made (seeds and players below):

- ``<preset>.json``: one complete match per preset, bots of mixed styles, with notes.
- ``league.jsonl``: a league of eight players in rotating partnerships (bangladesh rules).
- ``bad/<kind>.json``: short matches with injected breaches of one kind each, listed in
  ``meta.injected``; ``bad/mixed.json`` a complete match with breaches of every kind.
- ``bad/hand_*.json``: edited by hand (here, by code): a wrong recorded score, a deal that
  stops before it is decided, a deal played after the match was won.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from twentynine.replay.audit import audit_match
from twentynine.replay.bots import Bot
from twentynine.replay.match import MatchState
from twentynine.replay.selfplay import DealRunner, parse_players, seating, simulate_match, simulate_matches
from twentynine.replay.simulate import deal_cards
from twentynine.schema import PRESET_NAMES, MatchLog, Rules
from twentynine.schema.cards import SEATS, Team
from twentynine.schema.log import Deal, DealResult, MatchResult, TeamScores, dump_json

HERE = Path(__file__).resolve().parent
SOURCE = "sample_logs/make_samples.py"

PRESET_SAMPLES: dict[str, tuple[int, list[str]]] = {
    "bangladesh": (60, ["Rahim:aggressive", "Karim:cautious", "Mitu:balanced", "Joy:aggressive"]),
    "standard": (
        162,
        ["Arjun:balanced", "Priya:aggressive", "Vikram:cautious", "Meera:aggressive"],
    ),
    "beginner": (1, ["Sam:balanced", "Alex:cautious", "Jo:aggressive", "Kim:balanced"]),
    "pagat": (5, ["John:cautious", "Mary:aggressive", "Peter:balanced", "Anne:balanced"]),
    "classic29": (
        6,
        ["Li Wei:balanced", "Zhang Min:aggressive", "Wang Fang:cautious", "Chen Jie:balanced"],
    ),
    "bhoos": (
        3,
        [
            "bot-sparrow:aggressive",
            "bot-heron:balanced",
            "bot-kestrel:cautious",
            "bot-osprey:balanced",
        ],
    ),
}

LEAGUE_PRESET = "bangladesh"
LEAGUE_SEED = 2026
LEAGUE_MATCHES = 70  # five cycles of the eight-player round robin: over 2,000 deals
LEAGUE_PLAYERS = [
    "Rahim:aggressive",
    "Karim:cautious",
    "Mitu:balanced",
    "Joy:aggressive",
    "Shila:cautious",
    "Tanvir:balanced",
    "Nadia:aggressive",
    "Farhan:cautious",
]

# name: (preset, seed, kinds (None for all), inject rate, deals (None: the whole match))
INJECTED: dict[str, tuple[str, int, list[str] | None, float, int | None]] = {
    "revoke": ("pagat", 1, ["revoke"], 0.5, 6),
    "card_not_held": ("standard", 1, ["card_not_held"], 0.5, 6),
    "out_of_turn": ("beginner", 1, ["out_of_turn"], 0.5, 6),
    "bad_bid": ("bhoos", 1, ["bad_bid"], 0.5, 6),
    "show_while_able": ("classic29", 1, ["show_while_able"], 0.5, 6),
    "no_trump_after_show": ("bangladesh", 1, ["no_trump_after_show"], 1.0, 8),
    "wrong_score": ("standard", 2, ["wrong_score"], 0.4, 6),
    "wrong_points": ("bhoos", 2, ["wrong_points"], 0.4, 6),
    "mixed": ("bangladesh", 8, None, 0.3, None),
}
HAND_MADE = ("hand_wrong_score", "hand_incomplete_deal", "hand_after_match_end")


def _with_meta(match: MatchLog, **extra: Any) -> MatchLog:
    meta = {**(match.meta or {}), "source": SOURCE, **extra}
    return match.model_copy(update={"meta": meta})


def json_bytes(match: MatchLog) -> bytes:
    """A ``.json`` sample: the canonical document, indented, as ``write_json`` writes it."""
    return dump_json(match.to_canonical(), indent=True) + b"\n"


def line_bytes(match: MatchLog) -> bytes:
    """A ``.jsonl`` line: the canonical document, compact, as ``write_jsonl`` writes it."""
    return dump_json(match.to_canonical()) + b"\n"


# ---------------------------------------------------------------------------- good samples
def preset_sample(preset: str) -> MatchLog:
    """The sample match of a preset."""
    seed, players = PRESET_SAMPLES[preset]
    match = next(simulate_matches(Rules.preset(preset), 1, seed, players=players, notes=True))
    return _with_meta(match, description=f"a complete {preset} match between bots")


def preset_files() -> dict[str, bytes]:
    """``<preset>.json`` name -> bytes, for every preset."""
    return {f"{preset}.json": json_bytes(preset_sample(preset)) for preset in PRESET_NAMES}


def league_match(number: int) -> MatchLog:
    """Match ``number`` (0-based) of the league; each match stands on its own seed."""
    rules = Rules.preset(LEAGUE_PRESET)
    players = parse_players(LEAGUE_PLAYERS)
    match = simulate_match(
        rules, LEAGUE_SEED, number, seating(players, number, LEAGUE_SEED), label=LEAGUE_PRESET
    )
    return _with_meta(match, league="sample league of eight")


def league_lines() -> Iterator[bytes]:
    """The lines of ``league.jsonl``."""
    for number in range(LEAGUE_MATCHES):
        yield line_bytes(league_match(number))


# ---------------------------------------------------------------------------- bad samples
def injected_sample(name: str) -> MatchLog:
    """A known-bad match with breaches injected by the simulator."""
    preset, seed, kinds, rate, deals = INJECTED[name]
    match = next(
        simulate_matches(
            Rules.preset(preset),
            1,
            seed,
            players=PRESET_SAMPLES[preset][1],
            inject_rate=rate,
            inject_kinds=kinds,
            max_deals=deals,
        )
    )
    what = "breaches of every kind" if kinds is None else f"{name} breaches"
    return _with_meta(match, description=f"{what}, injected: see meta.injected")


def record_results(match: MatchLog) -> MatchLog:
    """The match with every deal's result and the match result as the engine finds them."""
    rules = match.resolved_rules()
    table = MatchState(rules, first_dealer=match.deals[0].dealer)
    deals = []
    for deal in match.deals:
        state = table.new_deal(deal.hands, dealer=deal.dealer)
        for action in deal.actions:
            state.apply(action)
        table.record(state)
        outcome = state.result()
        points = outcome.points
        result = DealResult(
            points=TeamScores(NS=points[Team.NS], EW=points[Team.EW]),
            score=TeamScores(NS=table.score[Team.NS], EW=table.score[Team.EW]),
            thrown_in=outcome.thrown_in,
        )
        deals.append(deal.model_copy(update={"result": result}))
    score = TeamScores(NS=table.score[Team.NS], EW=table.score[Team.EW])
    return match.model_copy(
        update={"deals": deals, "result": MatchResult(score=score, winner=table.winner)}
    )


def _short(preset: str, seed: int, deals: int | None) -> MatchLog:
    return next(
        simulate_matches(
            Rules.preset(preset), 1, seed, players=PRESET_SAMPLES[preset][1], max_deals=deals
        )
    )


def hand_made(name: str) -> MatchLog:
    """A known-bad match edited by hand from a good one (the edit is in meta.description)."""
    if name == "hand_wrong_score":
        match = _short("pagat", 7, 5)
        deal = match.deals[2]
        assert deal.result is not None and deal.result.score is not None
        score = deal.result.score.model_copy(update={"NS": deal.result.score.NS + 2})
        deals = list(match.deals)
        deals[2] = deal.model_copy(
            update={"result": deal.result.model_copy(update={"score": score})}
        )
        match = match.model_copy(update={"deals": deals})
        why = "deal 3's recorded score is 2 too high for NS (deal 4's then looks wrong too)"
    elif name == "hand_incomplete_deal":
        match = _short("standard", 7, 5)
        deal = match.deals[1]
        plays = [i for i, a in enumerate(deal.actions) if a.type == "play"]
        cut = plays[11] + 1  # three tricks
        deals = list(match.deals)
        deals[1] = deal.model_copy(update={"actions": deal.actions[:cut]})
        match = record_results(match.model_copy(update={"deals": deals}))
        why = "deal 2 stops after three tricks, before it is decided; the match goes on"
    elif name == "hand_after_match_end":
        match = _short("bhoos", 4, None)
        match = _play_one_more(match)
        why = "a deal is played after the match was won"
    else:
        raise KeyError(name)
    return _with_meta(match, description=f"hand-made: {why}")


def _play_one_more(match: MatchLog) -> MatchLog:
    rules = match.resolved_rules()
    table = MatchState(rules, first_dealer=match.deals[0].dealer)
    for deal in match.deals:
        state = table.new_deal(deal.hands, dealer=deal.dealer)
        for action in deal.actions:
            state.apply(action)
        table.record(state)
    rng = random.Random("after the match")
    dealer = table.next_dealer
    hands = deal_cards(rng, dealer, rules)
    state = table.new_deal(hands)
    styles = (match.meta or {}).get("styles", {})
    bots = {seat: Bot(styles.get(seat.value, "balanced")) for seat in SEATS}
    runner = DealRunner(state, bots, rng)
    runner.run()
    extra = Deal(dealer=dealer, hands=hands, actions=runner.log)
    return record_results(match.model_copy(update={"deals": [*match.deals, extra]}))


def bad_logs() -> dict[str, MatchLog]:
    """``bad/`` name (without ``.json``) -> match."""
    logs = {name: injected_sample(name) for name in INJECTED}
    logs.update({name: hand_made(name) for name in HAND_MADE})
    # an id of its own, so that loading the whole folder keeps the good and the bad apart
    return {name: match.model_copy(update={"id": f"bad-{name}"}) for name, match in logs.items()}


def golden_bytes(match: MatchLog) -> bytes:
    """The expected findings of a match, one JSON object a line."""
    return b"".join(dump_json(f.to_dict()) + b"\n" for f in audit_match(match).findings)


def bad_files(golden: bool = False) -> dict[str, bytes]:
    """``bad/X.json`` name -> bytes (and ``bad/X.expected`` with ``golden``)."""
    files: dict[str, bytes] = {}
    for name, match in bad_logs().items():
        files[f"bad/{name}.json"] = json_bytes(match)
        if golden:
            files[f"bad/{name}.expected"] = golden_bytes(match)
    return files


# ---------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    """Write (or ``--check``) the samples; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    parser.add_argument("--golden", action="store_true", help="also write the golden files")
    args = parser.parse_args(argv)
    files = {**preset_files(), **bad_files(golden=args.golden)}
    files["league.jsonl"] = b"".join(league_lines())
    stale = []
    for name, data in files.items():
        path = HERE / name
        if args.check:
            if not path.exists() or path.read_bytes() != data:
                stale.append(name)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    for name in stale:
        print(f"differs: {name}", file=sys.stderr)
    if not args.check:
        print(f"wrote {len(files)} files under {HERE}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
