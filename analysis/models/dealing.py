"""How a server deals: the chance each card lands in each four-card packet, where the deals
are not the fair shuffle the layouts would otherwise assume.

A deal gives each seat two packets of four cards, its first four (the bidding hand) and its
second four. On a fair shuffle every card is as likely to land in any of the eight packets.
The Bhoos "Smart Bots 2023" server does not deal so: on the 3,668 deals of its archive the
K of diamonds is always the last card dealt (the second four of the seat before the dealer),
and every other card lands about twice as often in one packet as in the others, each suit
mostly with one seat (docs/analysis.md, "How the server deals"). The layouts of what a seat
could not see are a fair shuffle unless the server's dealing is asked for (``analyze
--dealing server``: :func:`asked_dealing`, :func:`dealt_as`); then, for a game under the
server's rules, they are drawn as the server deals (:mod:`analysis.sampling`): each unseen
card goes to a packet with chance in proportion to the packet's room times the card's weight
for it, the weight being how much more often than fair the card lands there. The weights are
data: ``dealing_model.json`` beside this module, written by ``bench/fit_dealing_model.py``.

>>> model = shipped_model()
>>> king = Card.parse("KD")
>>> model.weight(king, 3, 1) > 7 > 0.01 > model.weight(king, 0, 0)
True
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from twentynine.analysis.models.files import (
    ModelFileError,
    named_version,
    number,
    numbers,
    read_body,
)
from twentynine.schema.cards import ALL_CARDS, SEATS, Card, Seat
from twentynine.schema.rules import Rules
from twentynine.schema.shapes import DealLike

FORMAT: Final = "twentynine.dealing_model"
"""The ``format`` every file of this model names."""

SHIPPED_PATH: Final = Path(__file__).resolve().parent / "dealing_model.json"
"""The Bhoos server's dealing, fitted on its archive."""

PACKETS: Final = 8
"""Four seats, counted from the dealer (0 the dealer, then in the order of ``SEATS``), times
the first and the second four."""

PRIOR: Final = 1.0
"""Deals added to every card's packet counts, spread as a fair shuffle would (so a packet no
card of the archive reached keeps a small chance)."""

FAIR_SIDE_SHARE: Final = 3 / 7
"""On a fair shuffle, the chance that a card a bidder does not hold in its first four lands
with its side (its own second four or its partner's eight: 12 of the 28 places left)."""

_SERVER_RULES: Final = ("match_target", "stake", "end_when_decided")
"""Options a Bhoos game's rules may change and still be the server's game."""


DealingFileError = ModelFileError
"""This model's name for a model file that cannot be used (one class for every model's)."""


def packet(seat: Seat, dealer: Seat, second: bool) -> int:
    """The packet of ``seat``'s first (or ``second``) four on a deal by ``dealer``.

    >>> packet(Seat.N, Seat.N, False), packet(Seat.W, Seat.N, True)
    (0, 7)
    """
    return (SEATS.index(seat) - SEATS.index(dealer)) % 4 * 2 + int(second)


@dataclass(frozen=True, slots=True)
class DealingModel:
    """For each card (by its index) and packet, how many times more often than a fair
    shuffle the card lands in that packet."""

    version: str
    weights: tuple[tuple[float, ...], ...]
    deals: int
    _side: tuple[tuple[float, ...], ...] = field(init=False, repr=False, compare=False)
    """For each seat from the dealer, :meth:`side_shares`, worked out once."""

    def __post_init__(self) -> None:
        if len(self.weights) != len(ALL_CARDS) or any(len(w) != PACKETS for w in self.weights):
            raise DealingFileError(f"weights must be {len(ALL_CARDS)} rows of {PACKETS}")
        if any(not w >= 0.0 for row in self.weights for w in row):
            raise DealingFileError("weights must be numbers of 0 or more")
        side = []
        for offset in range(4):
            first, partner = offset * 2, (offset + 2) % 4 * 2
            ours = (first + 1, partner, partner + 1)
            shares = []
            for row in self.weights:
                elsewhere = sum(row) - row[first]
                share = sum(row[k] for k in ours) / elsewhere if elsewhere > 0 else 0.0
                shares.append(round(share, 6))
            side.append(tuple(shares))
        object.__setattr__(self, "_side", tuple(side))

    def side_shares(self, seat: Seat, dealer: Seat) -> tuple[float, ...]:
        """For each card (by its index) that ``seat`` does not hold in its first four, the
        chance it lands with ``seat``'s side: its own second four or its partner's eight
        (:data:`FAIR_SIDE_SHARE` on a fair shuffle). Each card alone, by its weights for the
        seven packets left: what a bidder can expect of the cards it has not seen.

        >>> model = shipped_model()
        >>> shares = model.side_shares(Seat.E, Seat.N)
        >>> len(shares), min(shares) < FAIR_SIDE_SHARE < max(shares)
        (32, True)
        """
        return self._side[(SEATS.index(seat) - SEATS.index(dealer)) % 4]

    def weight(self, card: Card, seat_from_dealer: int, round_: int) -> float:
        """The weight of ``card`` for the packet of the seat ``seat_from_dealer`` places
        after the dealer, its first (``round_`` 0) or second four (1)."""
        return self.weights[card.index][seat_from_dealer * 2 + round_]

    def as_json(self) -> dict[str, Any]:
        """The file's content (what :func:`load_model` reads back)."""
        return {
            "format": FORMAT,
            "version": self.version,
            "deals": self.deals,
            "packets": "seat from the dealer x (first four, second four)",
            "weights": {card.text: list(self.weights[card.index]) for card in ALL_CARDS},
        }

    def dumps(self) -> str:
        """The file's text: JSON with a two-space indent and a newline at the end."""
        return json.dumps(self.as_json(), indent=2) + "\n"


def side_shares(dealing: DealingModel | None, seat: Seat, dealer: Seat) -> tuple[float, ...] | None:
    """``dealing``'s :meth:`DealingModel.side_shares` for ``seat`` (None for a fair
    shuffle, as a contract view takes it).

    >>> side_shares(None, Seat.E, Seat.N) is None
    True
    """
    return dealing.side_shares(seat, dealer) if dealing is not None else None


def fit_model(deals: Iterable[DealLike]) -> DealingModel:
    """The weights of the deals whose 32 cards are all known: each card's count in each
    packet, plus :data:`PRIOR` deals spread evenly, over what a fair shuffle gives.

    >>> from twentynine.replay import random_match
    >>> from twentynine.schema import Rules
    >>> fair = [random_match(Rules.preset("bhoos"), seed=s).deals[0] for s in range(40)]
    >>> model = fit_model(fair)
    >>> model.deals, all(0 <= w < 8 for row in model.weights for w in row)
    (40, True)
    """
    counts = [[0] * PACKETS for _ in ALL_CARDS]
    used = 0
    for deal in deals:
        hands = deal.hands or {}
        if len(hands) != 4 or any(len(h) != 8 or None in h for h in hands.values()):
            continue
        used += 1
        for seat, hand in hands.items():
            for i, card in enumerate(hand):
                if card is not None:
                    counts[card.index][packet(seat, deal.dealer, i >= 4)] += 1
    fair = (used + PRIOR) / PACKETS
    weights = tuple(tuple(round((n + PRIOR / PACKETS) / fair, 4) for n in row) for row in counts)
    return DealingModel(weights_version(weights), weights, used)


def weights_version(weights: Iterable[Iterable[float]]) -> str:
    """A version named after the weights: the same weights, the same version; a file whose
    version is not its weights' is refused.

    >>> weights_version([[1.0] * PACKETS] * 32)
    'dealing-f1e30162'
    """
    return named_version("dealing", [list(row) for row in weights])


def load_model(path: Path) -> DealingModel:
    """The model in ``path``; :class:`ModelFileError` says in one line what is wrong."""
    body = read_body(path, FORMAT)
    try:
        unknown = [k for k in body if k not in ("format", "version", "deals", "packets", "weights")]
        if unknown:
            raise ModelFileError(f"unknown key {unknown[0][:40]!r}")
        table = body["weights"]
        if not isinstance(table, dict):
            raise ModelFileError("weights: not an object of cards")
        weights = tuple(numbers(table[card.text], f"weights.{card.text}") for card in ALL_CARDS)
        deals = number(body["deals"], "deals")
        if deals != int(deals) or deals < 0:
            raise ModelFileError("deals: not a count of deals")
        model = DealingModel(str(body["version"]), weights, int(deals))
    except KeyError as exc:
        raise ModelFileError(f"{path}: the model has no {exc.args[0]!r}") from None
    except ModelFileError as exc:
        raise ModelFileError(f"{path}: {exc}") from None
    if model.version != weights_version(weights):
        raise ModelFileError(f"{path}: its version is not the one its weights make")
    return model


@functools.cache
def shipped_model() -> DealingModel:
    """The Bhoos server's dealing (read once)."""
    return load_model(SHIPPED_PATH)


def server_dealing(rules: Rules) -> DealingModel | None:
    """How the deals of a game under ``rules`` were dealt, where the product knows: the Bhoos
    server's model for its rules (the ``bhoos`` preset, whatever the match target, stake or
    stop), None (a fair shuffle) for any other. The analysis follows it only when asked
    (:func:`dealt_as`); the contract model's fit reads it (``analysis.models.fit``).

    >>> server_dealing(Rules.preset("bhoos")) is shipped_model()
    True
    >>> server_dealing(Rules.preset("bangladesh")) is None
    True
    """
    if _without_server_options(rules) != _BHOOS:
        return None
    return shipped_model()


FAIR: Final = "fair"
"""What a run, a note or a file records for a fair shuffle where it would name a dealing's
version (``analyze --dealing fair``, the default)."""

DEALINGS: Final = (FAIR, "server")
"""The dealings ``analyze --dealing`` takes: a fair shuffle, or as the server deals where the
rules are its own (:func:`server_dealing`)."""

SERVER_WORDS: Final = "dealt as the Bhoos server deals"
"""What a note judged on layouts dealt as the server deals says in words."""


def note_dealing(detail: Mapping[str, Any] | str) -> str:
    """The dealing a note rests on, from its ``detail`` (or its JSON text): the server's
    version where its layouts (``dealing``) or the contract model's view of the bidder's
    side (``model_dealing``) were dealt as the server deals, else :data:`FAIR`.

    >>> note_dealing({"dealing": "fair", "model_dealing": "dealing-1"}), note_dealing("{}")
    ('dealing-1', 'fair')
    """
    if isinstance(detail, str):
        try:
            detail = json.loads(detail)
        except ValueError:
            return FAIR
        if not isinstance(detail, dict):
            return FAIR
    for key in ("dealing", "model_dealing"):
        name = detail.get(key, FAIR)
        if name != FAIR:
            return str(name)
    return FAIR


def dealing_words(names: Iterable[str]) -> str:
    """How the layouts behind some notes were dealt, in words, from the dealings they rest
    on (:func:`note_dealing`): what the match and players reports say of the analysis.

    >>> dealing_words(["fair"]), dealing_words(["dealing-1", "dealing-1"])
    ('layouts dealt as fair shuffles', 'layouts dealt as the Bhoos server deals (dealing-1)')
    >>> dealing_words(["fair", "dealing-1"])
    'layouts dealt as fair shuffles, and for some notes as the Bhoos server deals (dealing-1)'
    """
    seen = set(names)
    server = ", ".join(sorted(seen - {FAIR}))
    if not server:
        return "layouts dealt as fair shuffles"
    if FAIR not in seen:
        return f"layouts {SERVER_WORDS} ({server})"
    return (
        f"layouts dealt as fair shuffles, and for some notes as the Bhoos server deals ({server})"
    )


def dealing_name(model: DealingModel | None) -> str:
    """What a record names ``model`` by: its version, or :data:`FAIR` for a fair shuffle.

    >>> dealing_name(None), dealing_name(shipped_model()).startswith("dealing-")
    ('fair', True)
    """
    return FAIR if model is None else model.version


def asked_dealing(name: str) -> DealingModel | None:
    """The dealing ``analyze --dealing name`` asks for (None: a fair shuffle; ``server``: the
    shipped server's, which :func:`dealt_as` applies to the server's rules only);
    ``ValueError`` names another name.

    >>> asked_dealing("fair") is None, asked_dealing("server") is shipped_model()
    (True, True)
    """
    if name not in DEALINGS:
        raise ValueError(f"unknown dealing {name!r} (known: {', '.join(DEALINGS)})")
    return None if name == FAIR else shipped_model()


def dealt_as(asked: DealingModel | None, rules: Rules) -> DealingModel | None:
    """How the layouts of a game under ``rules`` are dealt when ``asked`` (None: a fair
    shuffle, the default) is the dealing asked for: ``asked`` where the rules are the
    server's (:func:`server_dealing`), a fair shuffle for any other.

    >>> dealt_as(shipped_model(), Rules.preset("bhoos")) is shipped_model()
    True
    >>> dealt_as(shipped_model(), Rules.preset("pagat")), dealt_as(None, Rules.preset("bhoos"))
    (None, None)
    """
    if asked is None or server_dealing(rules) is None:
        return None
    return asked


def dealt_by(model: DealingModel) -> Callable[[Rules], DealingModel | None]:
    """:func:`server_dealing` with ``model`` for the server's (one refitted on some files).

    >>> fair = DealingModel("fair", ((1.0,) * PACKETS,) * len(ALL_CARDS), 0)
    >>> dealt_by(fair)(Rules.preset("bhoos")) is fair, dealt_by(fair)(Rules.preset("pagat"))
    (True, None)
    """

    def dealing(rules: Rules) -> DealingModel | None:
        return model if server_dealing(rules) is not None else None

    return dealing


def _without_server_options(rules: Rules) -> dict[str, Any]:
    return {k: v for k, v in rules.options().items() if k not in _SERVER_RULES}


_BHOOS: Final = _without_server_options(Rules.preset("bhoos"))
