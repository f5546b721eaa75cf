"""analysis.packets, the layouts' dealing into packets: the same draws and the same cards as
the generator's own shuffle and the sampler's loop as it was written before it was compiled,
and the module imported (compiled by setup.py, or not) dealing as its source does."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from twentynine.analysis import packets
from twentynine.analysis.packets import Step, deal_weighted, hands_of, shuffle
from twentynine.schema.cards import ALL_CARDS, SEATS, Card, Seat


def reference(
    placed: tuple[tuple[Card, ...], ...],
    room: tuple[int, ...],
    floating: tuple[Step, ...],
    pool: tuple[Step, ...],
    own: int,
    rng: random.Random,
) -> dict[Seat, list[Card | None]] | None:
    """The weighted deal as analysis.sampling wrote it before the loop moved to
    analysis.packets: shares in a list, sum(), the generator's own shuffle."""
    left = list(room)
    out = [list(cards) for cards in placed]
    order = list(floating)
    rng.shuffle(order)
    draw = rng.random
    for card, options, weights in (*order, *pool):
        shares = [left[p] * w for p, w in zip(options, weights, strict=True)]
        share_pick = draw() * sum(shares)
        target = -1
        for p, share in zip(options, shares, strict=True):
            if share > 0:
                target = p
                share_pick -= share
                if share_pick < 0:
                    break
        if target < 0:
            return None
        out[target].append(card)
        left[target] -= 1
    hands: dict[Seat, list[Card | None]] = {}
    for i, s in enumerate(SEATS):
        first, second = out[2 * i], out[2 * i + 1]
        if i != own:
            rng.shuffle(first)
            rng.shuffle(second)
        hands[s] = [*first, *second]
    return hands


def problem(
    rng: random.Random,
) -> tuple[tuple[tuple[Card, ...], ...], tuple[int, ...], tuple[Step, ...], tuple[Step, ...], int]:
    """A random start of a layout: some cards placed, some floating with their seat, the rest
    in the pool with the packets their suit may go to, weights as uneven as the server's
    (zeros among them, so that a card may find no room)."""
    cards = list(ALL_CARDS)
    rng.shuffle(cards)
    own = rng.randrange(4)
    placed: list[list[Card]] = [[] for _ in range(8)]
    for _ in range(rng.randrange(9)):
        placed[rng.randrange(8)].append(cards.pop())
    placed = [p[:4] for p in placed]
    room = tuple(4 - len(p) for p in placed)

    def weight() -> float:
        return rng.choice((0.0, 0.05, 0.9, 1.0, 1.7, 7.9)) * rng.random() + rng.random() / 3

    floating: list[Step] = []
    for _ in range(rng.randrange(5)):
        seat = rng.randrange(4)
        floating.append((cards.pop(), (2 * seat, 2 * seat + 1), (weight(), weight())))
    pool: list[Step] = []
    while cards and len(pool) < sum(room) - len(floating):
        options = tuple(sorted(rng.sample(range(8), rng.randrange(1, 9))))
        pool.append((cards.pop(), options, tuple(weight() for _ in options)))
    return tuple(tuple(p) for p in placed), room, tuple(floating), tuple(pool), own


def source_module() -> ModuleType:
    """analysis/packets.py run from its source, whether or not the one imported is compiled."""
    path = Path(packets.__file__ or "").parent / "packets.py"
    if not path.is_file():  # mypyc gives a compiled module's __file__ a folder too deep
        path = Path(packets.__file__ or "").parent.parent / "packets.py"
    spec = importlib.util.spec_from_file_location("packets_from_source", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


@pytest.mark.parametrize("size", [0, 1, 2, 3, 4, 5, 8, 17, 32])
def test_shuffle_draws_as_the_generators_own(size: int) -> None:
    for seed in range(40):
        mine, theirs = list(range(size)), list(range(size))
        ours, its = random.Random(seed), random.Random(seed)
        shuffle(ours, mine)
        its.shuffle(theirs)
        assert mine == theirs
        assert ours.getstate() == its.getstate()


def test_another_kind_of_generator_shuffles_by_its_own_method() -> None:
    class Counted(random.Random):
        shuffles = 0

        def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
            Counted.shuffles += 1
            super().shuffle(x)

    items = list(range(10))
    shuffle(Counted(1), items)
    assert Counted.shuffles == 1
    assert sorted(items) == list(range(10))


def test_deals_as_the_sampler_did_before() -> None:
    dealt = failed = 0
    for seed in range(600):
        start = problem(random.Random(seed))
        ours, its = random.Random(seed + 1), random.Random(seed + 1)
        hands = deal_weighted(*start, ours)
        assert hands == reference(*start, its)
        assert ours.getstate() == its.getstate()
        if hands is None:
            failed += 1
        else:
            dealt += 1
    assert dealt > 50 and failed > 50, (dealt, failed)  # both ends of the loop were taken


def test_the_module_imported_deals_as_its_source() -> None:
    source = source_module()
    for seed in range(300):
        start = problem(random.Random(seed))
        ours, its = random.Random(seed), random.Random(seed)
        assert deal_weighted(*start, ours) == source.deal_weighted(*start, its)
        assert ours.getstate() == its.getstate()
        table = [[Card.from_index(4 * p + i) for i in range(4)] for p in range(8)]
        again = [list(cards) for cards in table]
        assert hands_of(table, seed % 4, ours) == source.hands_of(again, seed % 4, its)
