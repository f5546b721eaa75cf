"""The sampler's inner loop: cards dealt at random into the eight four-card packets (a seat's
first and second four), as :mod:`analysis.sampling` draws each layout under the server's
dealing. setup.py compiles this module with mypyc: the same draws from the same generator, in
the same order, compiled or not, so the same layouts.

>>> import random
>>> from twentynine.schema.cards import Card
>>> mine = [Card.parse(t) for t in ("JS", "9S", "AS", "TS", "KS")]
>>> theirs = list(mine)
>>> shuffle(random.Random(3), mine)
>>> random.Random(3).shuffle(theirs)
>>> mine == theirs
True
"""

from __future__ import annotations

import random
from typing import TypeVar

from twentynine.schema.cards import SEATS, Card, Seat

T = TypeVar("T")

Step = tuple[Card, tuple[int, ...], tuple[float, ...]]
"""A card to place, the packets it may go to, and its weight in each."""


def shuffle(rng: random.Random, items: list[T]) -> None:
    """``rng.shuffle(items)``: the same swaps from the same draws of ``rng.getrandbits``
    (a :class:`random.Random`'s ``_randbelow``), without the interpreter's loop; another
    kind of generator shuffles by its own method."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def deal_weighted(
    placed: tuple[tuple[Card, ...], ...],
    room: tuple[int, ...],
    floating: tuple[Step, ...],
    pool: tuple[Step, ...],
    own: int,
    rng: random.Random,
) -> dict[Seat, list[Card | None]] | None:
    """Every seat's eight cards: ``placed`` in each packet, then the ``floating`` steps (in a
    random order) and the ``pool`` steps, each card to one of its packets with chance in
    proportion to the packet's ``room`` left times the card's weight there; each packet but
    the seat ``own``'s (its index in ``SEATS``) shuffled. None: a card found no room.

    >>> from twentynine.schema.cards import Card
    >>> card = Card.parse("JS")
    >>> hands = deal_weighted(((),) * 8, (4,) * 8, (), ((card, (2, 3), (1.0, 1.0)),), 0,
    ...     random.Random(1))
    >>> hands is not None and card in hands[SEATS[1]]
    True
    """
    left = list(room)
    packets = [list(cards) for cards in placed]
    order = list(floating)
    shuffle(rng, order)
    draw = rng.random
    for steps in (order, pool):
        for card, options, weights in steps:
            # the sum of the shares in their order, as sum() adds them; each share worked
            # out again below (the same product, so the same float)
            total = 0.0
            for i in range(len(options)):
                total += left[options[i]] * weights[i]
            pick = draw() * total
            target = -1
            for i in range(len(options)):
                share = left[options[i]] * weights[i]
                if share > 0:
                    target = options[i]
                    pick -= share
                    if pick < 0:
                        break
            if target < 0:
                return None
            packets[target].append(card)
            left[target] -= 1
    return hands_of(packets, own, rng)


def hands_of(
    packets: list[list[Card]], own: int, rng: random.Random
) -> dict[Seat, list[Card | None]]:
    """Each seat's first four then second four, every packet but the seat ``own``'s
    shuffled (in the order of ``SEATS``, first four then second).

    >>> from twentynine.schema.cards import Card
    >>> packets = [[Card.from_index(4 * p + i) for i in range(4)] for p in range(8)]
    >>> hands = hands_of(packets, 0, random.Random(0))
    >>> [c.text for c in hands[SEATS[0]]] == [c.text for c in packets[0] + packets[1]]
    True
    """
    hands: dict[Seat, list[Card | None]] = {}
    for i in range(4):
        first = packets[2 * i]
        second = packets[2 * i + 1]
        if i != own:  # its own cards where it holds them
            shuffle(rng, first)
            shuffle(rng, second)
        hand: list[Card | None] = []
        hand.extend(first)
        hand.extend(second)
        hands[SEATS[i]] = hand
    return hands
