"""The step-by-step viewer's data: every step of a deal as each seat could see it.

The engine computes what a seat may know (``DealState.hand``, ``trump_status``,
``seat_view``); the page's script only shows it. A step is the position after one action
(``k``, the audit's 0-based action index), or before any (``k`` None). Each step carries five
views: ``all`` (every recorded card) and one per seat.

>>> from twentynine.replay import audit_match, random_match
>>> from twentynine.schema import Rules
>>> log = random_match(Rules.preset("pagat"), seed=1)
>>> deal = deal_data(log, audit_match(log), 1, [])
>>> first = deal["steps"][0]
>>> first["k"], sorted(first["hands"]), first["hands"]["N"][1]
(None, ['E', 'N', 'S', 'W', 'all'], 4)
"""

from __future__ import annotations

from typing import Any, Final

from twentynine.analysis.annotate import Annotation, choice_words
from twentynine.analysis.judge.words import note_text
from twentynine.replay import AuditedMatch, DealState, describe, walk_deal
from twentynine.replay.steps import side_needs, step_hands
from twentynine.schema.cards import ALL_CARDS, SEATS, Card, Seat, Suit, Team, as_held, cards_as_read
from twentynine.schema.log import Action, Deal, MatchLog, PlayAction, player_name

VIEWERS: Final[tuple[str, ...]] = ("all", "N", "E", "S", "W")
"""The views of each step: every card, then each seat's own."""

TEAMS: Final = (Team.NS, Team.EW)
_LEVELS: Final = ("", "doubled", "redoubled", "set")


CARD_LABELS: Final[dict[str, str]] = {card.text: card.display for card in ALL_CARDS}
"""Each card's log text (the viewer's data) and the form a player reads, for the script."""


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
    ('W (Joy)', '')
    """
    k, seat = note.action, note.seat
    if k is None or seat is None or not 0 <= k < len(deal.actions):
        return ""
    return "" if deal.actions[k].seat.value == seat else f"{seat} ({names.get(seat, seat)})"


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
    findings: list[int],
    notes: list[int],
) -> dict[str, Any]:
    """One step's data, after ``action`` (``before``: the state before it); the hands are
    those the replay shows at that step (``replay.steps.step_hands``)."""
    public = state.seat_view(None)
    caller = public.caller
    hands: dict[str, list[str | int]] = {}
    trump: dict[str, str] = {}
    face_down: dict[str, str] = {}
    caller_view = state.seat_view(caller) if caller is not None else None
    for name in VIEWERS:
        viewer = _viewer(name)
        shown = step_hands(before, state, action, viewer)
        hands[name] = [hand_text(list(shown[seat])) for seat in SEATS]
        trump[name] = trump_words(state.trump_status(viewer), caller)
        # The face-down trump card: seen by the caller, and in the view of every card.
        known = caller_view.face_down if caller_view is not None else None
        if known is not None and (viewer is None or viewer is caller):
            face_down[name] = known.text
    standing = public.standing
    needs = side_needs(state)
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
        "needs": [needs[team] for team in TEAMS] if needs is not None else None,
        "hands": hands,
        "trump": trump,
        "face_down": face_down,
        "findings": findings,
        "notes": notes,
    }
    others = {name: text for name, text in says.items() if text != says["all"]}
    if others:
        step["say_seen"] = others
    return step


def deal_data(
    match: MatchLog, audited: AuditedMatch, number: int, annotations: list[Annotation]
) -> dict[str, Any]:
    """Deal ``number`` (1-based) for the viewer: steps, tricks, findings and annotations.

    ``findings`` and ``notes`` of a step are indices into the deal's lists; findings about
    the deal as a whole, and the par annotation, belong to the last step.
    """
    deal = match.deals[number - 1]
    facts = audited.deals[number - 1]
    names = seat_names(match)
    found = [f for f in audited.findings if f.deal == number]
    mine = [a for a in annotations if a.deal == number]
    last = len(deal.actions) - 1

    def at(k: int | None) -> tuple[list[int], list[int]]:
        here = [i for i, f in enumerate(found) if f.action == k or (k == last and f.action is None)]
        notes = [i for i, a in enumerate(mine) if a.action == k or (k == last and a.action is None)]
        return here, notes

    steps: list[dict[str, Any]] = []
    auction: list[int] = []
    for k, action, before, state in walk_deal(audited.rules, deal, number):
        if action is None or before is None:
            says = dict.fromkeys(VIEWERS, "the deal begins")
        else:
            says = {name: describe(before, state, action, _viewer(name)) for name in VIEWERS}
            if not isinstance(action, PlayAction):
                auction.append(len(steps))
        here, notes = at(k) if k is not None or last < 0 else ([], [])
        who = action.seat if action is not None else None
        steps.append(_step(state, before, action, k, who, says, here, notes))
    return {
        "number": number,
        "dealer": deal.dealer.value,
        "steps": steps,
        "auction": auction,
        "tricks": [
            {
                "leader": trick.leader.value,
                "cards": [[seat.value, card.text] for seat, card in trick.cards],
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
        "notes": [
            {
                "k": a.action,
                "seat": a.seat,
                "kind": a.kind,
                "method": a.method,
                "chosen": choice_words(a.chosen),
                "best": choice_words(a.best),
                "loss": round(a.loss, 3),
                "unit": a.unit,
                "label": a.label,
                "explanation": a.explanation,
                "text": note_text(a),
                "by": decided_by(a, deal, names),
            }
            for a in mine
        ],
    }


def seat_names(match: MatchLog) -> dict[str, str]:
    """Each seat's player name, for the viewer.

    >>> from twentynine.replay import random_match
    >>> from twentynine.schema import Rules
    >>> seat_names(random_match(Rules.preset("pagat"), seed=1))["N"]
    'Bot N'
    """
    return {seat.value: player_name(match.players[seat]) for seat in SEATS}
