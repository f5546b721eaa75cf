"""Why so few cards are labelled: every card decision of held-back games, counted step by step.

On the Bhoos archive's held-back files (``fit_auction_model.HELD_BACK``, ``--games`` per file,
the games ``judge_archive.py`` picks with the same seed), every card played is put in the
first row it fails: forced (one legal card), no real choice (every legal card equivalent
from the seat's view: :func:`analysis.judge.cards.card_classes`), no loss with all cards
known, or a suspect (it lost card points in hindsight: the only cards the fair judgement
looks at). Each suspect's layouts are drawn up to ``--draw`` (at least the cap) and kept in
``bench/out/<name>_cards.jsonl``, so that the judgement at any starting sample count, and
any schedule, is replayed from the same layouts (``--tables-only``): how many suspects lose
make-chance on the layouts at all, how wide their intervals are, how many stop at the cap,
and how many are labelled; and, from the saved layouts taken as each suspect's whole world
and drawn again with replacement, how often a label claims more loss than there is.

    nice python bench/judge_cards.py --games 60 --jobs 2
    python bench/judge_cards.py --tables-only
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

# Run as a script, bench/ comes first on the path: put the repository root before it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fit_auction_model import ARCHIVE, HELD_BACK
from judge_archive import held_back_games

from twentynine.analysis.hindsight import hindsight_deal
from twentynine.analysis.judge.cards import (
    CHEAP_CAP_FACTOR,
    CHEAP_FROM_TRICK,
    CHEAP_SAMPLES,
    card_classes,
    card_draw,
)
from twentynine.analysis.judging import CAP_FACTOR, DealContext, Judgement, Outcome, judge
from twentynine.analysis.labels import THRESHOLDS, label_of
from twentynine.analysis.positions import deal_positions, full_play_rules
from twentynine.schema.log import MatchLog, PlayAction

OUT = Path(__file__).resolve().parent / "out"


def survey(task: tuple[str, MatchLog, tuple[int, int], int]) -> dict[str, Any]:
    """One game's line: each card played, where it stops, and each suspect's layouts."""
    name, match, draws, seed = task
    rules = full_play_rules(match.resolved_rules())
    deal = match.deals[0]
    started = time.process_time()
    exact = {
        n.action: n
        for n in hindsight_deal(match.match_id, rules, deal, 1, kinds={"card"}, seed=seed)
        if n.kind == "card" and n.method == "exact"
    }
    context = DealContext(match.match_id, rules, deal, 1, 32, seed)
    hands = deal.hands or {}
    cards = []
    for pos in deal_positions(rules, deal, 1):
        note = exact.get(pos.at)
        if note is None or not isinstance(pos.action, PlayAction):
            continue
        state = pos.state
        legal = [a for a in state.legal_actions() if isinstance(a, PlayAction)]
        classes = card_classes(state, pos.action.seat)
        values = {a["choice"]: a["value"] for a in json.loads(note.detail)["alternatives"]}
        row: dict[str, Any] = {
            "action": pos.at,
            "trick": len(state.seat_view().tricks) + 1,
            "legal": len(legal),
            "classes": len(classes),
            "distinct": len(set(values.values())),
            "loss": note.loss,
            "turned": bool(json.loads(note.detail).get("turned")),
        }
        if note.loss > 0 and None not in hands.get(pos.action.seat, [None]):
            draw = card_draw(context, pos)
            if draw is not None:
                row["chosen"] = pos.action.card.text
                count = draws[0] if row["trick"] < CHEAP_FROM_TRICK else draws[1]
                row["outcomes"] = [draw(k) for k in range(count)]
        cards.append(row)
    return {
        "file": name,
        "match_id": match.match_id,
        "cpu": round(time.process_time() - started, 3),
        "cards": cards,
    }


def replay(
    outcomes: Sequence[Outcome | None], chosen: str, samples: int, trick: int, cheap: bool
) -> Judgement | None:
    """The judgement :func:`analysis.judging.judge` gives at ``samples``, on the saved layouts:
    with ``cheap``, as :func:`analysis.judge.cards.judge_card` schedules a card of ``trick``
    (more samples from :data:`CHEAP_FROM_TRICK` on), else every card alike."""

    def draw(k: int) -> Outcome | None:
        if k >= len(outcomes):
            raise ValueError(f"{k} layouts asked, {len(outcomes)} saved: run with a larger --draw")
        found = outcomes[k]
        return None if found is None else {c: (v[0], v[1]) for c, v in found.items()}

    if cheap and trick >= CHEAP_FROM_TRICK:
        return judge(
            draw, chosen, samples * CHEAP_SAMPLES, cap_factor=CHEAP_CAP_FACTOR, until_settled=True
        )
    return judge(draw, chosen, samples)


def print_tables(games: Sequence[dict[str, Any]], starts: Sequence[int]) -> None:
    cards = [c for g in games for c in g["cards"]]
    cpu = sum(g["cpu"] for g in games)
    print(f"{len(games)} games, {len(cards)} cards played; survey {cpu:.0f} s CPU")
    forced = [c for c in cards if c["legal"] < 2]
    equal = [c for c in cards if c["legal"] >= 2 and c["classes"] < 2]
    choices = [c for c in cards if c["classes"] >= 2]
    no_loss = [c for c in choices if c["loss"] <= 0]
    suspects = [c for c in choices if c["loss"] > 0]
    sampled = [c for c in suspects if "outcomes" in c]
    print("\n| cards played | cards | share |")
    print("|---|---:|---:|")
    for name, part in (
        ("forced: one legal card", forced),
        ("every legal card equivalent from the seat's view", equal),
        ("a real choice (2+ cards that differ)", choices),
        ("... no loss with all cards known", no_loss),
        ("... a loss with all cards known (suspects)", suspects),
        ("... ... the loss turns the result", [c for c in suspects if c["turned"]]),
    ):
        print(f"| {name} | {len(part)} | {len(part) / len(cards):.3f} |")
    print(
        "\n| schedule | start | suspects judged | loss > 0 on layouts | low end > 0 | at the cap "
        "| median half-width, loss > 0 | labelled | mistake+ | every card | real choices |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for cheap in (False, True):
        for start in starts:
            verdicts = [
                (c, replay(c["outcomes"], c["chosen"], start, c["trick"], cheap)) for c in sampled
            ]
            judged = [(c, v) for c, v in verdicts if v is not None]
            labels = [label_of(v.loss, v.low, v.high, 1.0, v.samples) for _, v in judged]
            halves = sorted((v.high - v.low) / 2 for _, v in judged if v.loss > 0)
            capped = sum(1 for c, v in judged if (v.samples or 0) >= _cap(start, c["trick"], cheap))
            labelled = sum(1 for x in labels if x)
            worse = sum(1 for x in labels if x in ("mistake", "blunder"))
            print(
                f"| {'more where cheap' if cheap else 'every card alike'} | {start} | "
                f"{len(judged)} | {sum(1 for _, v in judged if v.loss > 0)} | "
                f"{sum(1 for _, v in judged if v.low > 0)} | {capped} | "
                f"{halves[len(halves) // 2] if halves else float('nan'):.3f} | {labelled} | "
                f"{worse} | {_rate(labelled, len(cards))} | {_rate(labelled, len(choices))} |"
            )

    print(
        "\n| schedule | start | no loss on layouts | below 0.05 | 0.05 or more, unconfirmed: "
        "stopped early | at the cap | labelled |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for cheap in (False, True):
        for start in starts:
            rows = [0, 0, 0, 0, 0]
            for c in sampled:
                v = replay(c["outcomes"], c["chosen"], start, c["trick"], cheap)
                if v is None:
                    continue
                if label_of(v.loss, v.low, v.high, 1.0, v.samples):
                    rows[4] += 1
                elif v.loss <= 0:
                    rows[0] += 1
                elif v.loss < 0.05:
                    rows[1] += 1
                else:
                    rows[3 if (v.samples or 0) >= _cap(start, c["trick"], cheap) else 2] += 1
            name = "more where cheap" if cheap else "every card alike"
            print(f"| {name} | {start} | " + " | ".join(str(x) for x in rows) + " |")


def print_honesty(games: Sequence[dict[str, Any]], start: int, reps: int) -> None:
    """How often a label claims more than the loss is: each suspect's saved layouts taken as
    its whole world (its true loss: the best card's share over them all against the card
    played), layouts drawn from them with replacement ``reps`` times and judged by each
    schedule; a label over-claims when its threshold lies above that true loss, and names
    no real loss when that true loss is below the first threshold."""
    thresholds = dict(THRESHOLDS)
    print(
        f"\n| schedule (start {start}, {reps} resampled worlds) | labels a world | "
        "over-claimed | share | no real loss | share |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    suspects = [c for g in games for c in g["cards"] if "outcomes" in c]
    for cheap in (False, True):
        labels = over = unreal = 0
        for c in suspects:
            world = [o for o in c["outcomes"] if o is not None and c["chosen"] in o]
            if not world:
                continue
            names = [x for x in world[0] if all(x in o for o in world)]
            share = {x: sum(o[x][0] for o in world) / len(world) for x in names}
            truth = max(share.values()) - share[c["chosen"]]
            rng = random.Random(f"{c['action']}|{c['chosen']}|{len(world)}")
            for _ in range(reps):
                drawn = [
                    world[rng.randrange(len(world))] for _ in range(_cap(start, c["trick"], cheap))
                ]
                v = replay(drawn, c["chosen"], start, c["trick"], cheap)
                label = v and label_of(v.loss, v.low, v.high, 1.0, v.samples)
                if label:
                    labels += 1
                    over += thresholds[label] > truth + 1e-9
                    unreal += THRESHOLDS[0][1] > truth + 1e-9
        name = "more where cheap" if cheap else "every card alike"
        print(
            f"| {name} | {labels / reps:.1f} | {over / reps:.1f} | "
            f"{100 * over / max(labels, 1):.1f}% | {unreal / reps:.1f} | "
            f"{100 * unreal / max(labels, 1):.1f}% |"
        )


def _cap(start: int, trick: int, cheap: bool) -> int:
    if cheap and trick >= CHEAP_FROM_TRICK:
        return start * CHEAP_SAMPLES * CHEAP_CAP_FACTOR
    return start * CAP_FACTOR


def _rate(k: int, n: int) -> str:
    p = k / n
    half = 1.959964 * math.sqrt(p * (1 - p) / n)
    return f"{100 * p:.1f}% ({100 * max(p - half, 0):.1f} to {100 * (p + half):.1f})"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, default=ARCHIVE)
    parser.add_argument("--games", type=int, default=60, help="games per held-back file")
    parser.add_argument("--draw", type=int, default=256, help="layouts kept per suspect")
    parser.add_argument(
        "--draw-cheap", type=int, default=1024, help="layouts kept per suspect from trick 3 on"
    )
    parser.add_argument("--starts", default="32", help="starting sample counts to replay")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reps", type=int, default=5, help="resampled worlds (0: none)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--tables-only", action="store_true")
    parser.add_argument("--name", default="cards", help="the saved file's prefix (bench/out/)")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    saved = OUT / f"{args.name}_cards.jsonl"
    if not args.tables_only:
        games = held_back_games(args.archive, args.games, args.seed, HELD_BACK)
        tasks = [(n, m, (args.draw, args.draw_cheap), args.seed) for n, m in games]
        with ProcessPoolExecutor(max_workers=args.jobs) as pool, saved.open("w") as out:
            for line in pool.map(survey, tasks, chunksize=1):
                out.write(json.dumps(line) + "\n")
                out.flush()
    lines = [json.loads(t) for t in saved.read_text().splitlines()]
    starts = [int(s) for s in args.starts.split(",")]
    print_tables(lines, starts)
    if args.reps:
        print_honesty(lines, starts[-1], args.reps)


if __name__ == "__main__":
    main()
