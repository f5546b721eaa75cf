"""The one writer of the words a player reads about a judged decision.

Every annotation's ``explanation`` is written here, from its figures (the chosen and best
choices, their values, the ``detail``) and from the other notes of its step and deal, by
:func:`tell`; the reports add the choice and the loss in front with :func:`note_text`. The
producers of annotations compute, this module words, so that the notes of one step tell
one story:

- a judgement with all 32 cards known (``exact``, double dummy: the defenders see the
  hidden trump) says so first, "with all cards known", and never carries a label;
- a judgement on what the seat could see (``sampled``) says so first, "from what you could
  see", and carries the label, if any;
- a card that was best among the cards while asking for the trump was better says "the best
  card without asking"; the par names the trump the caller's view preferred when it differs
  from the one double dummy prefers.

>>> from twentynine.analysis.annotate import Annotation
>>> card = Annotation("m", 1, 9, "N", "card", "exact", "TD", "JD", 9.0, 11.0, 2.0,
...     "card_points", None, None, None, None, "", '{"alternatives": []}', 0)
>>> tell([card])[0].explanation
'with all cards known, 10♦ gave away 2 points: J♦ kept 11 for NS, 10♦ leaves 9'
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Final

from twentynine.analysis.annotate import Annotation, choice_words, detail_of
from twentynine.analysis.models.dealing import FAIR as FAIR_DEALING
from twentynine.analysis.models.dealing import SERVER_WORDS, note_dealing
from twentynine.schema.cards import Seat
from twentynine.schema.words import decimal, plural, signed

HINDSIGHT: Final = "with all cards known"
"""How an exact (double-dummy) judgement begins."""

FAIR: Final = "from what you could see"
"""How a judgement on the seat's own view begins."""

PLAYED_OUT: Final = "played out by players who see only their own cards"
"""How a judgement by play-outs (:mod:`analysis.judge.playout`) names its method."""

ALONE: Final = "single hand"
NOT_ALONE: Final = "no single hand"


def tell(notes: Sequence[Annotation]) -> list[Annotation]:
    """``notes`` with every explanation written, each step and deal telling one story
    (the same notes give the same words: telling twice changes nothing).

    Exact notes never carry a label: a label rests on what the seat could know.
    """
    steps: dict[tuple[str, int, int | None], list[Annotation]] = defaultdict(list)
    deals: dict[tuple[str, int], list[Annotation]] = defaultdict(list)
    for note in notes:
        steps[(note.match_id, note.deal, note.action)].append(note)
        deals[(note.match_id, note.deal)].append(note)
    out = []
    for note in notes:
        step = steps[(note.match_id, note.deal, note.action)]
        deal = deals[(note.match_id, note.deal)]
        label = note.label if note.method == "sampled" else None
        out.append(note._replace(explanation=explain(note, step, deal), label=label))
    return out


def explain(
    note: Annotation, step: Sequence[Annotation] = (), deal: Sequence[Annotation] = ()
) -> str:
    """The explanation of one note, given the other notes of its step and its deal."""
    writer = _WRITERS.get((note.kind, note.method))
    if writer is None:
        return note.explanation
    return _dealt(note, writer(note, step, deal))


def _dealt(note: Annotation, text: str) -> str:
    """``text``, saying so where the note rests on the server's dealing (its layouts, or the
    contract model's view of the bidder's side: ``analyze --dealing server``)."""
    if note_dealing(note.detail) == FAIR_DEALING:
        return text
    return f"{text} ({SERVER_WORDS})"


# ----------------------------------------------------------------------------- helpers


def _values(note: Annotation) -> dict[str, float]:
    alternatives = detail_of(note).get("alternatives", [])
    return {str(a["choice"]): float(a["value"]) for a in alternatives}


def _secondary(note: Annotation) -> dict[str, float]:
    return {str(k): float(v) for k, v in detail_of(note).get("secondary", {}).items()}


def _team(note: Annotation) -> str:
    return Seat(note.seat).team.value if note.seat else "?"


def _other(note: Annotation, step: Sequence[Annotation], kind: str, method: str) -> Annotation:
    return next((n for n in step if n.kind == kind and n.method == method and n is not note), note)


def _goal(note: Annotation) -> tuple[str, str]:
    """What the deciding side wants, as a verb and as the contract's fate."""
    if detail_of(note).get("goal") == "beat":
        return "beat the contract", "the contract is beaten"
    return "make the contract", "the contract is made"


UNSURE: Final = "about as good (the samples cannot tell them apart)"
"""What a sampled note without a label says when the best choice's gain is not sure: its
interval holds 0."""


def _unsure(note: Annotation) -> bool:
    """Whether the best choice's gain over the one made is within the sampling's noise: no
    label, and the gain's 95% interval holds 0 (never beside a label)."""
    return (
        note.best != note.chosen
        and note.label is None
        and note.ci_low is not None
        and note.ci_high is not None
        and note.ci_low <= 0 <= note.ci_high
    )


def _no_better(note: Annotation) -> bool:
    """Whether the best choice did worse than the one made on the samples its loss rests on
    (its interval wholly below 0)."""
    return note.best != note.chosen and note.ci_high is not None and note.ci_high < 0


def _fresh(note: Annotation) -> str:
    """What a labelled sampled note's figures rest on, when a second independent set of
    samples confirmed its label (``detail.halves``, docs/analysis.md "Labels"):
    `` (two independent sets of 32 and 32 layouts agree)``; else empty."""
    halves = detail_of(note).get("halves")
    if not halves or note.label is None or len(halves) != 2:
        return ""
    (_, _, one), (_, _, two) = halves
    return f" (two independent sets of {one} and {two} layouts agree)"


def _shares(*values: float) -> list[str]:
    """Chances in percent, whole, or to a tenth where whole percents would show two
    different chances alike (a note never says "better" beside equal figures).

    >>> _shares(0.62, 0.58), _shares(0.621, 0.618)
    (['62%', '58%'], ['62.1%', '61.8%'])
    """
    texts: list[str] = []
    for digits in (0, 1):
        texts = [f"{v:.{digits}%}" for v in values]
        if len(set(texts)) == len({f"{v:.3f}" for v in values}):
            break
    return texts


def _same_share(a: float, b: float) -> bool:
    """Whether two chances read alike even to a tenth of a percent."""
    return f"{a:.1%}" == f"{b:.1%}"


def _same_points(a: float, b: float) -> bool:
    """Whether two values in game points read alike to two decimals."""
    return signed(a, 2) == signed(b, 2)


def _kept(note: Annotation) -> str:
    """Which of the best and the chosen choice, equal in chance, kept more card points on
    average (the tie-break), in words.

    >>> note = Annotation("m", 1, 9, "N", "card", "sampled", "7D", "JD", 0.5, 0.5, 0.0,
    ...     "make_probability", 8, 0.0, 0.0, None, "", '{"secondary": {"7D": 9.5, "JD": 9.0}}', 0)
    >>> _kept(note)
    '7♦ kept 0.5 more card points on average'
    """
    points = _secondary(note)
    gap = points.get(note.best, 0.0) - points.get(note.chosen, 0.0)
    if abs(gap) < 0.05:
        return "and alike in card points"
    more = note.best if gap > 0 else note.chosen
    return f"{choice_words(more)} kept {abs(gap):.1f} more card points on average"


def _caller_shows(note: Annotation) -> bool:
    """Whether a show note's seat is the caller, who shows the trump (anyone else asks)."""
    return note.seat is not None and detail_of(note).get("caller") == note.seat


def _show_word(note: Annotation) -> str:
    """Asking for the trump, or, for the caller, showing it: the show choice as a verb."""
    if "caller" not in detail_of(note):
        return "asking for (or showing) the trump"
    return "showing the trump" if _caller_shows(note) else "asking for the trump"


def _points(value: float) -> str:
    return f"{value:g}"


def _plural(value: float, word: str) -> str:
    return plural(_points(value), word)


# ------------------------------------------------------------------------- exact notes
def _card_exact(note: Annotation, step: Sequence[Annotation], deal: Sequence[Annotation]) -> str:
    card, best = choice_words(note.chosen), choice_words(note.best)
    team = _team(note)
    show = _other(note, step, "show", "exact")
    asking_better = show is not note and show.best == "show" and show.chosen == "no show"
    if note.chosen == note.best:
        if asking_better:
            ask = _show_word(show)
            return (
                f"{HINDSIGHT}, {card} was the best card without {ask} "
                f"({team} keeps {_plural(note.value_best, 'point')}); {ask} first kept "
                f"{_points(show.value_best)}"
            )
        return (
            f"{HINDSIGHT}, {card} was a best card: {team} keeps "
            f"{_plural(note.value_best, 'point')} with best play"
        )
    return (
        f"{HINDSIGHT}, {card} gave away {_plural(note.loss, 'point')}: {best} kept "
        f"{_points(note.value_best)} for {team}, {card} leaves {_points(note.value_chosen)}"
    )


def _show_exact(note: Annotation, step: Sequence[Annotation], deal: Sequence[Annotation]) -> str:
    values = _values(note)
    ask, play = values.get("show", note.value_chosen), values.get("no show", note.value_chosen)
    team = _team(note)
    word = _show_word(note)
    if ask == play:
        return f"{HINDSIGHT}, {word} or playing on: {team} keeps {_plural(ask, 'point')} either way"
    return (
        f"{HINDSIGHT}, {word} here keeps {_plural(ask, 'point')} for {team}, "
        f"playing on {_points(play)}"
    )


def _par(note: Annotation, step: Sequence[Annotation], deal: Sequence[Annotation]) -> str:
    detail = detail_of(note)
    team = _team(note)
    par = detail.get("par", note.value_chosen)
    chosen = choice_words(note.chosen)
    better = (
        f", {_points(note.value_best)} with {choice_words(note.best)}"
        if note.best != note.chosen
        else ""
    )
    gave = detail.get("gave_away", {})
    text = (
        f"{HINDSIGHT} (double dummy: the defenders see the trump), par {_points(par)} for "
        f"{team} with {chosen}{better}; {team} took {detail.get('actual', '?')}; NS gave away "
        f"{_points(gave.get('NS', 0))}, EW {_points(gave.get('EW', 0))}"
    )
    trump = next((n for n in deal if n.kind == "trump" and n.method == "sampled"), None)
    if trump is not None and trump.best != note.best:
        text += (
            f"; from what the caller could see, {choice_words(trump.best)} was the best trump "
            "(the trump note)"
        )
    return text


# ----------------------------------------------------------------------- sampled notes
def _share(value: float) -> str:
    return f"{value:.0%}"


def _card_sampled(note: Annotation, step: Sequence[Annotation], deal: Sequence[Annotation]) -> str:
    card, best = choice_words(note.chosen), choice_words(note.best)
    _, fate = _goal(note)
    if note.chosen == note.best:
        return (
            f"{FAIR}, {card} was as good as any card: {fate} "
            f"{_share(note.value_chosen)} of the time with it"
        )
    hi, lo = _shares(note.value_best, note.value_chosen)
    if _same_share(note.value_best, note.value_chosen):
        return f"{FAIR}, {fate} {hi} of the time with {card} or {best}; {_kept(note)}"
    figures = f"{fate} {hi} of the time with {best}, {lo} with {card}"
    if _unsure(note):
        return f"{FAIR}, {best} and {card} were {UNSURE}: {figures}"
    if _no_better(note):
        return f"{FAIR}, {best} was no better than {card}: {figures}"
    return f"{FAIR}, {best} was the better card: {fate} {hi} of the time with it, {lo} with {card}"


def _show_sampled(note: Annotation, step: Sequence[Annotation], deal: Sequence[Annotation]) -> str:
    values, points = _values(note), _secondary(note)
    _, fate = _goal(note)
    ask, play = values.get("show", 0.0), values.get("no show", 0.0)
    how = f", {PLAYED_OUT}" if detail_of(note).get("policy") else ""
    shows = _show_word(note)
    if _same_share(ask, play):
        chance = f"{fate} {_shares(ask)[0]} of the time either way"
        gap = points.get("show", 0.0) - points.get("no show", 0.0)
        if abs(gap) < 0.05:
            return f"{FAIR}, {shows} or playing on made no difference: {chance}{how}"
        keeps = shows if gap > 0 else "playing on"
        return f"{FAIR}, {chance}; {keeps} kept {abs(gap):.1f} more card points on average{how}"
    words = {"show": shows, "no show": "playing on"}
    best = words[note.best]
    worse = words["no show" if note.best == "show" else "show"]
    hi, lo = _shares(
        values.get(note.best, 0.0), values.get("no show" if note.best == "show" else "show", 0.0)
    )
    if _unsure(note):
        return (
            f"{FAIR}, {best} and {worse} were {UNSURE}: {fate} {hi} of the time "
            f"{best}, {lo} {worse}{how}"
        )
    if note.best == note.chosen:
        return f"{FAIR}, {best} was right: {fate} {hi} of the time, against {lo} {worse}{how}"
    return f"{FAIR}, {best} was better: {fate} {hi} of the time, against {lo} {worse}{how}"


def _trump_sampled(note: Annotation, step: Sequence[Annotation], deal: Sequence[Annotation]) -> str:
    values = _values(note)
    how = f", {PLAYED_OUT}" if detail_of(note).get("policy") else ""
    mine, best = choice_words(note.chosen), choice_words(note.best)
    if note.chosen == note.best:
        others = sorted((v, c) for c, v in values.items() if c != note.chosen)
        text = (
            f"{FAIR}, {mine} was the best trump: the call is made "
            f"{_share(note.value_chosen)} of the time with it{how}"
        )
        if others:
            value, choice = others[-1]
            shown, nxt = _shares(note.value_chosen, value)
            text = (
                f"{FAIR}, {mine} was the best trump: the call is made {shown} of the time "
                f"with it{how}; next, {choice_words(choice)} {nxt}"
            )
        return text
    hi, lo = _shares(note.value_best, note.value_chosen)
    fresh = _fresh(note)
    if _same_share(note.value_best, note.value_chosen):
        return (
            f"{FAIR}, the call is made {hi} of the time with {mine} or {best}{fresh}{how}; "
            f"{_kept(note)}"
        )
    if _unsure(note):
        return (
            f"{FAIR}, {best} and {mine} were {UNSURE}: the call is made {hi} of the time "
            f"with {best}, {lo} with {mine}{fresh}{how}"
        )
    if _no_better(note):
        return (
            f"{FAIR}, {best} looked best on the layouts that picked it, but was no better than "
            f"{mine}: the call is made {hi} of the time with {best}, {lo} with {mine}{fresh}{how}"
        )
    return (
        f"{FAIR}, {best} was the better trump: the call is made {hi} of the time with it, "
        f"{lo} with {mine}{fresh}{how}"
    )


def _bid(note: Annotation, step: Sequence[Annotation], deal: Sequence[Annotation]) -> str:
    values, made = _values(note), _secondary(note)
    detail = detail_of(note)
    stands: dict[str, float] = detail.get("stands", {})
    team = _team(note)

    others = "as the others bid on" if stands else "if the auction ended there"

    def worth(choice: str) -> str:
        text = f"{signed(values.get(choice, 0.0), 2)} game points for {team} {others}"
        if choice != "pass" and choice in made:
            if choice in stands:
                text += (
                    f" (the call stands {_share(stands[choice])} of the time, "
                    f"then chance to make: {_share(made[choice])})"
                )
            else:
                text += f" (chance to make: {_share(made[choice])})"
        return text

    def brief(choice: str) -> str:
        text = f"{choice} {signed(values.get(choice, 0.0), 2)} game points"
        if choice != "pass" and choice in made:
            text += f" (chance to make: {_share(made[choice])})"
        return text

    best, chosen = note.best, note.chosen
    if best == chosen:
        rest = sorted((v, c) for c, v in values.items() if c != chosen)
        text = f"{FAIR}, {chosen} was best: {worth(chosen)}"
        if rest:
            text += f"; next, {brief(rest[-1][1])}"
        return text
    if _same_points(values.get(best, 0.0), values.get(chosen, 0.0)):
        return (
            f"{FAIR}, {chosen} and {best} were worth the same: "
            f"{signed(values.get(chosen, 0.0), 2)} game points for {team} {others}"
        )
    if _unsure(note):
        return (
            f"{FAIR}, {best} and {chosen} were {UNSURE} for {team} {others}: {brief(best)}, "
            f"{brief(chosen)}"
        )
    if _no_better(note):
        return (
            f"{FAIR}, {best} was no better than {chosen} for {team} {others}: "
            f"{brief(best)}, {brief(chosen)}"
        )
    judgement = detail.get("judgement")
    said = f" ({judgement})" if judgement else ""
    return f"{FAIR}, {best} was better{said}: {worth(best)}; {brief(chosen)}"


def _doubling(note: Annotation, step: Sequence[Annotation], deal: Sequence[Annotation]) -> str:
    values, chances = _values(note), _secondary(note)
    _, fate = _goal(note)
    yes = note.kind  # double, redouble, set
    no = f"no {yes}"
    figures = (
        f"{yes} {signed(values.get(yes, 0.0), 2)}, {no} {signed(values.get(no, 0.0), 2)} "
        "game points"
    )
    chance = chances.get(note.chosen, 0.0)
    if note.best == note.chosen:
        verdict = "was right"
    elif _same_points(values.get(yes, 0.0), values.get(no, 0.0)):
        verdict = f"and {note.chosen} were worth the same"
    elif _unsure(note):
        verdict = f"and {note.chosen} were {UNSURE}"
    else:
        verdict = "was better"
    return f"{FAIR}, {fate} {_share(chance)} of the time: {note.best} {verdict} ({figures})"


def _single(note: Annotation, step: Sequence[Annotation], deal: Sequence[Annotation]) -> str:
    """One line: the chance of winning every trick alone, and both choices in game points.

    >>> from twentynine.analysis.annotate import Annotation
    >>> detail = ('{"alternatives": [{"choice": "no single hand", "value": 0.4}, '
    ...     '{"choice": "single hand", "value": -3.0}], '
    ...     '"secondary": {"single hand": 0.0, "no single hand": 0.7}}')
    >>> note = Annotation("m", 1, 3, "N", "single_hand", "sampled", "single hand",
    ...     "no single hand", -3.0, 0.4, 3.4, "game_points", 32, 3.2, 3.6, "blunder", "",
    ...     detail, 0)
    >>> print(_single(note, (), ()).replace(" (", "\\n("))
    playing alone loses: you win every trick only 0% of the time from your view
    (-3.00 game points, against +0.40 for the contract)
    """
    values, chances = _values(note), _secondary(note)
    alone, contract = values.get(ALONE, 0.0), values.get(NOT_ALONE, 0.0)
    chance = f"{_share(chances.get(ALONE, 0.0))} of the time from your view"
    figures = f"({signed(alone, 2)} game points, against {signed(contract, 2)} for the contract)"
    if note.chosen == ALONE:
        if note.best == ALONE:
            lead = f"playing alone was right: you win every trick {chance}"
        else:
            lead = f"playing alone loses: you win every trick only {chance}"
    elif note.best == ALONE:
        lead = f"you could play alone: you would win every trick {chance}"
    else:
        lead = f"playing the contract was right: alone you would win every trick only {chance}"
    return f"{lead} {figures}"


Writer = Callable[[Annotation, Sequence[Annotation], Sequence[Annotation]], str]

_WRITERS: Final[dict[tuple[str, str], Writer]] = {
    ("card", "exact"): _card_exact,
    ("show", "exact"): _show_exact,
    ("par", "exact"): _par,
    ("card", "sampled"): _card_sampled,
    ("show", "sampled"): _show_sampled,
    ("trump", "sampled"): _trump_sampled,
    ("bid", "sampled"): _bid,
    ("double", "sampled"): _doubling,
    ("redouble", "sampled"): _doubling,
    ("set", "sampled"): _doubling,
    ("single_hand", "sampled"): _single,
}


# --------------------------------------------------------------------- the reports' line
def _number(value: float) -> str:
    return decimal(value, 2).rstrip("0").rstrip(".")


def loss_text(note: Annotation, *, defending: bool = False) -> str:
    """What an annotation's choice lost, in words, with its 95% interval when sampled; a
    chance lost is in percent, as the explanations write chances: the chance to make the
    call, or for a seat ``defending`` against it, to beat it.

    >>> bid = Annotation("m", 1, 3, "N", "bid", "sampled", "pass", "bid 17", 0.0, 0.07,
    ...     0.07, "game_points", 32, 0.04, 0.1, None, "", "{}", 0)
    >>> loss_text(bid)
    '0.07 game points (95%: 0.04 to 0.1)'
    >>> chance = bid._replace(unit="make_probability", loss=0.0175, ci_low=0.3, ci_high=None)
    >>> loss_text(chance), loss_text(chance, defending=True)
    ('1.8% make chance', '1.8% chance to beat the contract')
    >>> loss_text(bid._replace(unit="card_points", loss=1.0, ci_low=None))
    '1 card point'
    """
    chance = note.unit == "make_probability"
    if chance:
        words = "chance to beat the contract" if defending else "make chance"
        loss = f"{_percent(note.loss)} {words}"
    else:  # card or game points
        loss = plural(_number(note.loss), note.unit.replace("_", " ").removesuffix("s"))
    number: Callable[[float], str] = _percent if chance else _number
    if note.ci_low is not None and note.ci_high is not None:
        loss += f" (95%: {number(note.ci_low)} to {number(note.ci_high)})"
    return loss


def _percent(share: float) -> str:
    return f"{_number(round(share * 100, 1))}%"


def note_text(note: Annotation, *, defending: bool = False) -> str:
    """What an annotation says after its kind and method, in the deal sections and the
    viewer alike: the choice, with the best and the loss when it was not the best, then the
    explanation (which, for a best choice, often names the choice itself: said once).
    ``defending``: the seat judged is against the call (:func:`defends`).

    >>> best = Annotation("m", 1, 9, "N", "card", "exact", "TD", "TD", 9.0, 9.0, 0.0,
    ...     "card_points", None, None, None, None, "10♦ was a best card", "{}", 0)
    >>> note_text(best)
    '10♦ was a best card'
    >>> note_text(best._replace(best="JD", loss=2.0, explanation="10♦ gave away 2 points"))
    'chose 10♦, best J♦, lost 2 card points. 10♦ gave away 2 points'
    """
    chosen, best = choice_words(note.chosen), choice_words(note.best)
    said = note.explanation[:1].upper() + note.explanation[1:]
    reason = detail_of(note).get("reason")
    why = f". Why: {reason}" if isinstance(reason, str) and reason else ""
    if note.best != note.chosen and note.loss > 1e-9:
        lost = loss_text(note, defending=defending)
        return f"chose {chosen}, best {best}, lost {lost}. {said}{why}"
    if note.explanation.startswith(chosen):
        return f"{said}{why}"
    return f"chose {chosen}. {said}{why}"
