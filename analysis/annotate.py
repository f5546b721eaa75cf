"""The annotation record shared by the analysis, the warehouse and the HTML reports.

An :class:`Annotation` judges one decision (or, for ``par``, a deal as a whole). Its fields
are the columns of the warehouse's ``annotations`` table and the keys of the JSON lines
``twentynine analyze`` writes without ``--db``; docs/analysis.md says what each means.

>>> note = Annotation(
...     match_id="m1", deal=1, action=12, seat="N", kind="card", method="exact",
...     chosen="7H", best="JH", value_chosen=10.0, value_best=14.0, loss=4.0,
...     unit="card_points", samples=None, ci_low=None, ci_high=None, label=None,
...     explanation="JH kept 4 more points", detail='{"alternatives": []}', seed=0)
>>> note.as_dict()["loss"], FIELDS[:3]
(4.0, ('match_id', 'deal', 'action'))
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, Final, Literal, NamedTuple

from twentynine.schema.cards import Card, Suit

Kind = Literal["card", "show", "bid", "trump", "double", "redouble", "set", "single_hand", "par"]
"""What was judged: a card, a show decision, a bid (or pass or ditto), the trump choice,
a doubling step, a single-hand decision, or the deal as a whole (par)."""

Method = Literal["exact", "sampled"]
Unit = Literal["card_points", "make_probability", "game_points"]

KINDS: Final[tuple[str, ...]] = (
    "card",
    "show",
    "bid",
    "trump",
    "double",
    "redouble",
    "set",
    "single_hand",
    "par",
)


class Annotation(NamedTuple):
    """One judged decision; the fields are the ``annotations`` table's columns."""

    match_id: str
    deal: int
    action: int | None
    seat: str | None
    kind: str
    method: str
    chosen: str
    best: str
    value_chosen: float
    value_best: float
    loss: float
    unit: str
    samples: int | None
    ci_low: float | None
    ci_high: float | None
    label: str | None
    explanation: str
    detail: str
    seed: int

    def as_dict(self) -> dict[str, Any]:
        """The record as a JSON-ready mapping (the keys of ``twentynine analyze``'s lines)."""
        return self._asdict()


FIELDS: Final[tuple[str, ...]] = Annotation._fields
"""The column names, in order."""


_TRUMP_CHOICE: Final = re.compile(r"(reverse )?trump ([SHDC?])(?: \((\w\w)\))?")


def choice_words(choice: str) -> str:
    """A ``chosen`` or ``best`` text as a player reads it: cards and suits with their
    symbols (:attr:`schema.cards.Card.display`); the stored text keeps the log notation,
    which queries match (``chosen = 'TD'``). Explanations and reports use this.

    >>> [choice_words(c) for c in ("TD", "trump H", "trump S (9S)", "seventh card", "bid 17")]
    ['10♦', '♥ hearts', '♠ spades (9♠ face down)', 'the seventh card', 'bid 17']
    """
    try:
        return Card.parse(choice).display
    except ValueError:
        pass
    trump = _TRUMP_CHOICE.fullmatch(choice)
    if trump is not None:
        reverse, suit, card = trump.groups()
        words = Suit(suit).display if suit != "?" else "a trump the log does not record"
        if card is not None:
            words += f" ({Card.parse(card).display} face down)"
        return f"reverse, {words}" if reverse else words
    return "the seventh card" if choice == "seventh card" else choice


class Alternative(NamedTuple):
    """One choice that could have been made, with its value (and interval when sampled)."""

    choice: str
    value: float
    ci_low: float | None = None
    ci_high: float | None = None


def detail_of(note: Annotation) -> dict[str, Any]:
    """A note's ``detail`` read back: the JSON object, or empty where it is not one.

    >>> detail_of(Annotation("m", 1, 0, "N", "card", "exact", "JH", "JH", 1.0, 1.0, 0.0,
    ...     "card_points", None, None, None, None, "x", '{"par": 14}', 0))
    {'par': 14}
    """
    try:
        body = json.loads(note.detail)
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def detail_json(alternatives: Sequence[Alternative], **extra: Any) -> str:
    """The ``detail`` column: the alternatives best first, and any extra facts.

    >>> detail_json([Alternative("JH", 14.0)], par=14)[:50]
    '{"alternatives": [{"choice": "JH", "value": 14.0, '
    """
    body: dict[str, Any] = {"alternatives": [a._asdict() for a in alternatives], **extra}
    return json.dumps(body)
