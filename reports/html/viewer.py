"""The step-by-step viewer's data: every step of a deal as each seat could see it.

The engine computes what a seat may know (``DealState.hand``, ``trump_status``,
``seat_view``); the page's script only shows it. A step is the position after one action
(``k``, the audit's 0-based action index), or before any (``k`` None). Each step carries five
views: ``all`` (every recorded card) and one per seat.

>>> from twentynine.replay import audit_match, random_match
>>> from twentynine.schema import Rules
>>> log = random_match(Rules.preset("pagat"), seed=1)
>>> deal = deal_data(log, audit_match(log), 1, None)
>>> first = deal["steps"][0]
>>> first["k"], sorted(first["hands"]), first["hands"]["N"][1]
(None, ['E', 'N', 'S', 'W', 'all'], 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from twentynine.analysis.annotate import Annotation, choice_words
from twentynine.analysis.judge.words import note_text
from twentynine.replay import AuditedMatch, DealFacts, DealState, describe, walk_deal
from twentynine.replay.steps import may_be_thrown_in, side_needs, step_hands
from twentynine.reports.html.graph import graph_data
from twentynine.reports.html.judged import (
    card_values,
    changed_words,
    decision_mark,
    decisions,
    disagreement,
    is_best,
    is_forced,
    kept_notes,
    note_mark,
    seat_summaries,
    stop_words,
    target_at,
    unreal_finding,
    worst_label,
)
from twentynine.reports.html.render import bidi_balanced, isolate, shown_name
from twentynine.reports.html.words import count_words, result_words, standing_words
from twentynine.reports.warehouse.predicted import deal_prediction
from twentynine.schema.cards import ALL_CARDS, SEATS, Card, Seat, Suit, Team, as_held, cards_as_read
from twentynine.schema.log import Action, Deal, MatchLog, PlayAction, player_name

VIEWERS: Final[tuple[str, ...]] = ("all", "N", "E", "S", "W")
"""The views of each step: every card, then each seat's own."""

TEAMS: Final = (Team.NS, Team.EW)
_LEVELS: Final = ("", "doubled", "redoubled", "set")


CARD_LABELS: Final[dict[str, str]] = {card.text: card.display for card in ALL_CARDS}
"""Each card's log text (the viewer's data) and the form a player reads, for the script."""


def defends(note: Annotation, deal: Deal) -> bool:
    """Whether the seat an annotation judges is on the side against the call: its chances
    are of beating the contract, not of making it.

    >>> from twentynine.analysis.annotate import Annotation
    >>> from twentynine.schema.log import Deal
    >>> deal = Deal.model_validate({"dealer": "N", "actions": [
    ...     {"seat": "E", "type": "bid", "value": 16}, {"seat": "S", "type": "pass"},
    ...     {"seat": "W", "type": "pass"}, {"seat": "N", "type": "pass"},
    ...     {"seat": "E", "type": "trump", "suit": "H"}]})
    >>> show = Annotation("m", 1, 9, "S", "show", "sampled", "show", "show", 0.5, 0.5, 0.0,
    ...     "make_probability", 32, 0.0, 0.0, None, "", "{}", 0)
    >>> defends(show, deal), defends(show._replace(seat="W"), deal)
    (True, False)
    """
    caller = next((a.seat for a in deal.actions if a.type == "trump"), None)
    if caller is None or note.seat not in ("N", "E", "S", "W"):
        return False
    return Seat(note.seat).team is not caller.team


def decided_by(note: Annotation, deal: Deal, names: dict[str, str]) -> str:
    """Whose decision an annotation judges, ``W (Joy)``, when not the player of the action it
    sits at (nobody doubled: the defender is judged at the first lead); else empty, as for
    the deal as a whole.

    >>> from twentynine.analysis.annotate import Annotation
    >>> from twentynine.schema.log import Deal
    >>> deal = Deal.model_validate({"dealer": "N", "actions": [{"seat": "E", "type": "pass"}]})
    >>> note = Annotation("m", 1, 0, "W", "double", "sampled", "no double", "no double",
    ...     0.0, 0.0, 0.0, "game_points", 8, 0.0, 0.0, None, "", "{}", 0)
    >>> decided_by(note, deal, {"W": "Joy"}), decided_by(note._replace(seat="E"), deal, {})
    ('W (\u2068Joy\u2069)', '')
    """
    k, seat = note.action, note.seat
    if k is None or seat is None or not 0 <= k < len(deal.actions):
        return ""
    return "" if deal.actions[k].seat.value == seat else seat_and_name(seat, names)


def seat_and_name(seat: str, names: dict[str, str]) -> str:
    """``W (Joy)``: a seat and its player, the name isolated (:func:`render.isolate`), so
    that a right-to-left name reorders nothing of the sentence around it.

    >>> seat_and_name("W", {"W": "Joy"}) == "W (\u2068Joy\u2069)"
    True
    """
    return f"{seat} ({isolate(names.get(seat, seat))})"


def _viewer(name: str) -> Seat | None:
    return None if name == "all" else Seat(name)


def hand_text(cards: list[Card | None]) -> str | int:
    """A hand as the page reads it: the cards a player holds (in log notation, suit by suit,
    highest first: ``schema.cards.as_held``), ``??`` for each one not known; a hand of which
    nothing is known is just its number of cards (most of a seat's view).

    >>> hand_text([Card.parse("7S"), None, Card.parse("JS")]), hand_text([None, None])
    ('JS 7S ??', 2)
    """
    known = [card for card in cards if card is not None]
    if not known:
        return len(cards)
    unknown = ["??"] * (len(cards) - len(known))
    return " ".join([card.text for card in as_held(known)] + unknown)


def suit_words(letter: str) -> str:
    """A suit letter as the page says it; anything else (``no trump``) as it is.

    >>> suit_words("H"), suit_words("no trump")
    ('♥ hearts', 'no trump')
    """
    if letter not in ("S", "H", "D", "C"):
        return letter
    return Suit(letter).display


def trump_words(status: str, caller: Seat | None) -> str:
    """The engine's trump status in words, with who knows it.

    >>> trump_words("known to the caller: H", Seat.W)
    '♥ hearts, hidden: known to the caller (W) only'
    >>> trump_words("shown: D", Seat.W), trump_words("hidden", Seat.W)
    ('♦ diamonds, shown to all', 'hidden (chosen by W)')
    """
    if status.startswith("shown: "):
        suit = status.removeprefix("shown: ")
        return f"{suit_words(suit)}, shown to all"
    if status.startswith("known to the caller: "):
        suit = status.removeprefix("known to the caller: ")
        who = f" ({caller.value})" if caller is not None else ""
        return f"{suit_words(suit)}, hidden: known to the caller{who} only"
    if status == "hidden" and caller is not None:
        return f"hidden (chosen by {caller.value})"
    return status


def _step(
    state: DealState,
    before: DealState | None,
    action: Action | None,
    k: int | None,
    who: Seat | None,
    says: dict[str, str],
) -> dict[str, Any]:
    """One step's data, after ``action`` (``before``: the state before it); the hands are
    those the replay shows at that step (``replay.steps.step_hands``)."""
    public = state.seat_view(None)
    caller = public.caller
    hands: dict[str, list[str | int]] = {}
    trump: dict[str, str] = {}
    face_down: dict[str, str] = {}
    caller_view = state.seat_view(caller) if caller is not None else None
    count: dict[str, str] = {}
    played = [*public.tricks, public.trick]
    for name in VIEWERS:
        viewer = _viewer(name)
        shown = step_hands(before, state, action, viewer)
        hands[name] = [hand_text(list(shown[seat])) for seat in SEATS]
        if caller is not None:
            count[name] = count_words(played, shown, viewer)
        trump[name] = trump_words(state.trump_status(viewer), caller)
        # The face-down trump card: seen by the caller, and in the view of every card.
        known = caller_view.face_down if caller_view is not None else None
        if known is not None and (viewer is None or viewer is caller):
            face_down[name] = known.text
    standing = public.standing
    step: dict[str, Any] = {
        "k": k,
        "who": who.value if who is not None else None,
        "say": says["all"],
        "to": public.to_act.value if public.to_act is not None else None,
        "phase": "over" if state.is_over else public.phase,
        "bid": [standing[0].value, standing[1]] if standing is not None else None,
        "caller": caller.value if caller is not None else None,
        "target": public.target,
        "doubled": _LEVELS[public.doubled],
        "stake": state.stake if caller is not None else None,
        "trick": [[seat.value, card.text] for seat, card in public.trick],
        "tricks": len(public.tricks),
        "points": list(public.points),
        "standing": standing_words(
            caller=caller,
            target=public.target,
            needs=side_needs(state),
            single=public.single,
            winners=public.winners,
            unshown=may_be_thrown_in(state),
        ),
        "hands": hands,
        "count": count,
        "trump": trump,
        "face_down": face_down,
        "findings": [],
        "notes": [],
        "marks": [],
    }
    others = {name: text for name, text in says.items() if text != says["all"]}
    if others:
        step["say_seen"] = others
    return step


def _note_data(
    note: Annotation, deal: Deal, facts: DealFacts, names: dict[str, str], total: int
) -> dict[str, Any]:
    target = target_at(facts, note.action) if note.action is not None else facts.target
    caller = facts.caller.team if facts.caller is not None else None
    return {
        "k": note.action,
        "seat": note.seat,
        "kind": note.kind,
        "method": note.method,
        "chosen": choice_words(note.chosen),
        "best": choice_words(note.best),
        "loss": round(note.loss, 3),
        "unit": note.unit,
        "label": note.label,
        "mark": note_mark(note),
        "is_best": is_best(note),
        "forced": is_forced(note),
        "explanation": note.explanation,
        "text": note_text(note, defending=defends(note, deal)),
        "changed": changed_words(note, target=target, caller=caller, total=total),
        "by": decided_by(note, deal, names),
    }


def deal_data(
    match: MatchLog,
    audited: AuditedMatch,
    number: int,
    annotations: Sequence[Annotation] | None,
) -> dict[str, Any]:
    """Deal ``number`` (1-based) for the viewer: steps, tricks, findings and annotations
    (``annotations`` None: not analyzed), the result, the summary per seat, the evaluation
    graph's series and, where analyzed, each legal card's value with all cards known.

    ``findings`` and ``notes`` of a step are indices into the deal's lists; ``marks`` the
    mark of each decision judged at its action. The last step (``end``) states the result
    and holds the findings and the annotations about the deal as a whole.
    """
    deal = match.deals[number - 1]
    facts = audited.deals[number - 1]
    names = seat_names(match)
    total = audited.rules.total_points
    found = [f for f in audited.findings if f.deal == number]
    stop = unreal_finding(found) if annotations is not None else None
    mine = kept_notes([a for a in annotations or () if a.deal == number], stop)
    values, exact, source = (
        card_values(match, audited, number, mine) if annotations is not None else ({}, [], "")
    )
    steps: list[dict[str, Any]] = []
    auction: list[int] = []
    plays: dict[tuple[str, str], int] = {}
    for k, action, before, state in walk_deal(audited.rules, deal, number):
        if action is None or before is None:
            says = dict.fromkeys(VIEWERS, "the deal begins")
        else:
            says = {name: describe(before, state, action, _viewer(name)) for name in VIEWERS}
            if isinstance(action, PlayAction):
                plays.setdefault((action.seat.value, action.card.text), len(steps))
            else:
                auction.append(len(steps))
        who = action.seat if action is not None else None
        steps.append(_step(state, before, action, k, who, says))
    last = dict(steps[-1])
    before_score = audited.deals[number - 2].score_after if number > 1 else dict.fromkeys(TEAMS, 0)
    last.update(
        k=None,
        end=True,
        who=None,
        say=result_words(facts, before_score),
        to=None,
        findings=[],
        notes=[],
        marks=[],
    )
    last.pop("say_seen", None)
    steps.append(last)

    def step_of(k: int | None) -> dict[str, Any]:
        return steps[-1] if k is None or not 0 <= k < len(steps) - 2 else steps[k + 1]

    for i, f in enumerate(found):
        step_of(f.action)["findings"].append(i)
    for i, note in enumerate(mine):
        step_of(note.action)["notes"].append(i)
    for (_, k, seat, _), notes in decisions(mine).items():
        here = step_of(k)
        mark = decision_mark(notes)
        if mark:
            here["marks"].append([seat, mark, worst_label(notes) or "best"])
        told = disagreement(notes, seat_and_name(seat, names))
        if told:
            here.setdefault("disagree", []).append([seat, told])
    for k, choices in values.items():
        if 0 <= k < len(steps) - 2:
            seat = deal.actions[k].seat.value
            steps[k]["values"] = {"seat": seat, "choices": [[c, v] for c, v in choices]}
    chance = _chance(deal, audited, facts)
    model = float(chance["value"]) if chance is not None else None
    for k, seat, text in chance_steps(mine, deal, facts, model):
        step_of(k).setdefault("estimates", []).append([seat, text])
    if stop is not None:
        step_of(stop.action)["stop"] = stop_words(stop)
        if stop.action is None:
            steps[0]["stop"] = stop_words(stop)
    for step in steps:
        step["marks"].sort()
    return {
        "number": number,
        "dealer": deal.dealer.value,
        "steps": steps,
        "auction": auction,
        "tricks": [
            {
                "leader": trick.leader.value,
                "cards": [[seat.value, card.text] for seat, card in trick.cards],
                "steps": [plays.get((seat.value, card.text)) for seat, card in trick.cards],
                "winner": trick.winner.value,
                "points": trick.points,
            }
            for trick in facts.tricks
        ],
        "findings": [
            {
                "k": f.action,
                "code": f.code,
                "severity": f.severity,
                "message": cards_as_read(f.message),
                "seat": deal.actions[f.action].seat.value if f.action is not None else None,
            }
            for f in found
        ],
        "notes": [_note_data(a, deal, facts, names, total) for a in mine],
        "score": [[before_score[t] for t in TEAMS], [facts.score_after[t] for t in TEAMS]],
        "summary": (
            [s.as_data() for s in seat_summaries(mine, [seat.value for seat in SEATS])]
            if annotations is not None
            else None
        ),
        "values_from": source,
        "graph": graph_data(facts, mine, exact, total) if annotations is not None else None,
        "chance": chance,
    }


CHANCE_GAP: Final = 0.05
"""Two estimates of a call's chance this far apart get a word on which is which."""


def _estimate(note: Annotation) -> str | None:
    """Whose estimate of the call's chance a sampled note's figures are, in words (None: a
    note without one: an exact note, a bid, a double)."""
    if note.method != "sampled" or note.unit != "make_probability" or note.seat is None:
        return None
    view = f"{note.seat}'s view"
    if note.kind in ("trump", "show"):
        return (
            f"the play-outs' estimate: layouts of {view} played out from the "
            f"{'trump choice' if note.kind == 'trump' else 'step'} by players who see only "
            "their own cards"
        )
    if note.kind == "card":
        return f"the solver's estimate: layouts of {view}, each solved with all its cards known"
    return None


def chance_steps(
    notes: Sequence[Annotation], deal: Deal, facts: DealFacts, model: float | None
) -> list[tuple[int | None, str, str]]:
    """Where a call's chance comes from another estimate than the one before it and
    differs from it by :data:`CHANCE_GAP` or more: (the note's action, its seat, which
    estimate each figure is), at the first note of each estimate. The contract model's
    (the "chance to make" beside the table) is from the caller's first four cards and the
    auction, before the trump; the notes' from the trump choice on are the play-outs'
    (trump, shows) or the solver's on layouts (cards).
    """
    if facts.caller is None:
        return []
    caller = facts.caller.value
    out: list[tuple[int | None, str, str]] = []
    before: tuple[float, str, str] | None = None
    if model is not None:
        before = (
            model,
            f"{model:.0%} beside the table is the contract model's estimate, from {caller}'s "
            "first four cards and the auction, before the trump",
            "model",
        )
    told: set[str] = set()
    for note in notes:
        source = _estimate(note)
        if source is None or note.seat is None:
            continue
        key = source.split(":")[0]
        beats = defends(note, deal)
        chance = 1.0 - note.value_chosen if beats else note.value_chosen
        shown = f"{note.value_chosen:.0%} to beat it, so {chance:.0%}" if beats else f"{chance:.0%}"
        if (
            before is not None
            and key != before[2]
            and key not in told
            and abs(chance - before[0]) >= CHANCE_GAP
        ):
            text = (
                f"Two estimates of the chance {caller}'s call is made: {before[1]}; this "
                f"{note.kind} note's {shown} is {source}."
            )
            out.append((note.action, note.seat, text))
            told.add(key)
        where = f"action {note.action}" if note.action is not None else "the deal"
        before = (chance, f"{chance:.0%} at {where} ({note.kind} note) is {source}", key)
    return out


def _chance(deal: Deal, audited: AuditedMatch, facts: DealFacts) -> dict[str, str] | None:
    """The caller's chance to make its call by the contract model, from its view at its last
    bid (``contracts.predicted_make``), as the viewer shows it once the call is made: only
    in the views that know the caller's first four cards (all, and the caller's own), and
    at the result (``seat``: the caller)."""
    if facts.caller is None:
        return None
    chance, model = deal_prediction(deal, audited.rules, facts.caller, facts.single_hand)
    if chance is None:
        return None
    return {
        "seat": facts.caller.value,
        "value": f"{chance:.6f}",
        "text": f"{chance:.0%}, from {facts.caller.value}'s first four cards and the auction "
        f"(contract model {model})",
    }


def seat_names(match: MatchLog) -> dict[str, str]:
    """Each seat's player name as the report shows it (:func:`render.shown_name`: what
    shows nothing made visible, a long name cut), its bidirectional controls balanced
    (:func:`render.bidi_balanced`: the page shows each name isolated).

    >>> from twentynine.replay import random_match
    >>> from twentynine.schema import Rules
    >>> seat_names(random_match(Rules.preset("pagat"), seed=1))["N"]
    'Bot N'
    """
    return {
        seat.value: bidi_balanced(shown_name(player_name(match.players[seat]))) for seat in SEATS
    }
