"""A reason in card terms beside a judged decision: what a player can learn from it.

Each labelled sampled note (and each best choice, ``!``, of a trump choice or a call) gets a
``reason`` in its ``detail``, which the reports print after the note ("Why: ..."):

- a card or a show: the line of play on the real deal with all cards known, from the choice
  made and from the best, to the first trick where they part, and what each side ends
  with; where the real deal shows no difference in the goal, it says so and gives the lines
  on the first sampled layout of the seat's view that does (marked as a sample);
- a trump choice: what the caller held in the chosen and the best suit (J, 9, length,
  points) and what the layouts gave each side of them;
- a bid, pass or Ditto (and a labelled double, redouble or Set): the four cards' jacks,
  nines and longest suit, the trump in mind,
  the calls heard and, for a label, what the model of the calls reads into them: the
  jacks and points partner and the opponents hold in their first four on the layouts.

>>> from twentynine.schema.cards import Card
>>> holding([Card.parse(t) for t in ("JH", "9H", "AS", "7H")], "H")
'J♥ 9♥ 7♥ (3 cards, 5 points)'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Final

from twentynine.analysis.annotate import Annotation, choice_words, detail_of
from twentynine.analysis.judge.playout import PLAYOUTS, bot_card, play_out, reached
from twentynine.analysis.judging import DealContext, sample_rng
from twentynine.analysis.models.dealing import DealingModel
from twentynine.analysis.models.others import AuctionModel
from twentynine.analysis.positions import Position, deal_positions, full_play_rules
from twentynine.analysis.solver import caller_team, solve
from twentynine.replay import DealState
from twentynine.schema.cards import Card, Rank, Seat, Suit
from twentynine.schema.log import Action, Deal, PlayAction, ShowAction
from twentynine.schema.rules import Rules

LAYOUTS: Final = 16
"""Layouts a trump or bid reason reads (the first of those its note was judged on)."""

SEARCHED: Final = 32
"""Layouts searched for one that shows a card's difference, where the real deal shows none."""

_SUITS: Final = ("S", "H", "D", "C")
_APART: Final = "the lines part"
_DOUBLING: Final = ("double", "redouble", "set")


def holding(cards: Sequence[Card], suit: str) -> str:
    """The cards of ``suit`` among ``cards``, highest first, with their count and points."""
    mine = sorted((c for c in cards if c.suit.value == suit), key=lambda c: -c.strength)
    if not mine:
        return f"no {Suit(suit).display.split()[-1]}"
    points = sum(c.rank.points for c in mine)
    shown = " ".join(c.display for c in mine)
    count = f"{len(mine)} card{'s' if len(mine) > 1 else ''}"
    return f"{shown} ({count}, {points} point{'' if points == 1 else 's'})"


def _with_reason(note: Annotation, reason: str | None) -> Annotation:
    if not reason:
        return note
    body = detail_of(note)
    body["reason"] = reason
    return note._replace(detail=json.dumps(body))


def wants_reason(note: Annotation) -> bool:
    """Whether a note gets a reason: a sampled note with a label, or the best choice of a
    trump choice or a call among worse ones."""
    if note.method != "sampled" or note.action is None or note.seat is None:
        return False
    if note.label is not None:
        return note.kind in ("card", "show", "trump", "bid", *_DOUBLING)
    if note.kind in ("trump", "bid") and note.best == note.chosen:
        values = [a["value"] for a in detail_of(note).get("alternatives", [])]
        return len(values) > 1 and max(values) - min(values) > 1e-9
    return False


def with_reasons(
    match_id: str,
    rules: Rules,
    deal: Deal,
    number: int,
    notes: Sequence[Annotation],
    *,
    samples: int = 32,
    seed: int = 0,
    auction_model: AuctionModel | None = None,
    dealing: DealingModel | None = None,
) -> list[Annotation]:
    """``notes`` with a ``reason`` in the detail of each that wants one (:func:`wants_reason`)."""
    wanted = [n for n in notes if wants_reason(n)]
    if not wanted:
        return list(notes)
    positions = {p.at: p for p in deal_positions(rules, deal, number)}
    played = {p.at: p for p in deal_positions(full_play_rules(rules), deal, number)}
    context = DealContext(
        match_id, rules, deal, number, samples, seed, auction_model=auction_model, dealing=dealing
    )
    play_context = context._replace(rules=full_play_rules(rules))
    out = []
    for note in notes:
        reason = None
        if wants_reason(note) and note.action is not None:
            if note.kind in ("card", "show") and note.action in played:
                at = positions.get(note.action) if note.kind == "show" else None
                reason = _play_reason(play_context, played[note.action], note, at, context)
            elif note.kind == "trump" and note.action in positions:
                reason = _trump_reason(context, positions[note.action], note)
            elif note.kind in ("bid", *_DOUBLING) and note.action in positions:
                reason = _bid_reason(context, positions[note.action], note)
        out.append(_with_reason(note, reason))
    return out


# ------------------------------------------------------------------------- cards, shows
def _move(state: DealState, seat: Seat, choice: str) -> Action | None:
    """The action a note's choice names at ``state``: a card, ``show``, or ``no show`` (the
    best card without showing, all cards known)."""
    if choice == "show":
        return ShowAction.model_construct(seat=seat, type="show")
    if choice == "no show":
        plays = [a for a, _ in solve(state).actions if isinstance(a, PlayAction)]
        return plays[0] if plays else None
    try:
        card = Card.parse(choice)
    except ValueError:
        return None
    return PlayAction.model_construct(seat=seat, card=card, type="play")


def best_line(state: DealState, first: Action) -> DealState:
    """``state`` after ``first`` and best play by both sides to the end, all cards known
    (each move the solver's best: a principal variation)."""
    line = state.copy()
    line.apply(first)
    while not line.is_over and line.current_seat is not None:
        moves = solve(line).actions
        if not moves:
            break
        line.apply(moves[0][0])
    return line


def _trick_words(state: DealState, number: int) -> str:
    view = state.seat_view(None)
    cards = view.tricks[number - 1]
    winner = view.winners[number - 1]
    points = sum(card.rank.points for _, card in cards)
    shown = ", ".join(f"{seat.value} {card.display}" for seat, card in cards)
    return f"{shown}: {winner.value} wins {points}"


def _taker(state: DealState, number: int) -> str:
    """Who takes trick ``number`` and with which card: ``E with J♠``."""
    view = state.seat_view(None)
    winner = view.winners[number - 1]
    card = next(c for s, c in view.tricks[number - 1] if s is winner)
    return f"{winner.value} with {card.display}"


def _tells(best: DealState, chosen: DealState, number: int, b_words: str, c_words: str) -> str:
    """The trick where two lines part, in words: who takes it in each, then its cards.

    For example ``. Trick 6 goes to E with J♠ after J♠, to S with A♠ after K♠ (after J♠:
    W Q♠, N 8♠, E J♠, S A♠: E wins 4; after K♠: ...)``.
    """
    return (
        f". Trick {number} goes to {_taker(best, number)} after {b_words}, to "
        f"{_taker(chosen, number)} after {c_words} (after {b_words}: "
        f"{_trick_words(best, number)}; after {c_words}: {_trick_words(chosen, number)})"
    )


def _parting(a: DealState, b: DealState, start: int) -> int | None:
    """The first trick, from ``start`` on, played otherwise in the two lines."""
    ta, tb = a.seat_view(None).tricks, b.seat_view(None).tricks
    for number in range(start, min(len(ta), len(tb)) + 1):
        if ta[number - 1] != tb[number - 1]:
            return number
    return None


def _lines(
    state: DealState, seat: Seat, note: Annotation, *, only_if_apart: bool = False
) -> tuple[str, bool] | None:
    """The two lines from ``state`` in words (the best choice's, then the one made), and
    whether their goals differ; ``only_if_apart``: None unless they do (one solve, no
    line, for a layout whose goals agree)."""
    chosen, best = _move(state, seat, note.chosen), _move(state, seat, note.best)
    if chosen is None or best is None:
        return None
    values = dict(solve(state).actions)
    if chosen not in values or best not in values:
        return None
    side = seat.team
    team = caller_team(state)
    target = state.seat_view(None).target or 0
    total = state.rules.total_points
    made_b, made_c = values[best] >= target, values[chosen] >= target
    if only_if_apart and made_b == made_c:
        return None

    def ours(value: int) -> int:
        return value if side is team else total - value

    b_words, c_words = _choice(note.best), _choice(note.chosen)
    pb, pc = ours(values[best]), ours(values[chosen])
    if made_b == made_c:
        fate = "made" if made_b else "beaten"
        kept = f"{side.value} {pb} after {b_words}, {pc} after {c_words}"
        return f"the call is {fate} either way ({kept})", False
    text = (
        f"after {b_words} best play gives {side.value} {pb} card points and the call is "
        f"{'made' if made_b else 'beaten'}; after {c_words}, {pc} and it is "
        f"{'made' if made_c else 'beaten'}"
    )
    lb, lc = best_line(state, best), best_line(state, chosen)
    parts = _parting(lb, lc, len(state.seat_view(None).tricks) + 1)
    if parts is not None:
        text += _tells(lb, lc, parts, b_words, c_words)
    return text, True


def _choice(choice: str) -> str:
    return {"show": "the show", "no show": "playing on"}.get(choice, choice_words(choice))


def _play_reason(
    context: DealContext,
    pos: Position,
    note: Annotation,
    shown_at: Position | None = None,
    show_context: DealContext | None = None,
) -> str:
    """A card's or a show's lines: on the real deal with all cards known; where they reach
    the same goal, for a show (``shown_at``: its position under the deal's own rules) the
    real deal played out by the bots as it was judged, else the first sampled layout whose
    goals differ."""
    seat = Seat(note.seat or "N")
    state = pos.state
    if state.caller_seat is None or None in (context.deal.hands or {}).get(seat, [None]):
        return "the real deal's cards are not all known"
    try:
        real = _lines(state, seat, note)
    except ValueError:  # a card of the deal unknown: no real line
        real = None
    if real is not None and real[1]:
        return f"on the real deal, all cards known ({_APART}): {real[0]}"
    lead = (
        f"on the real deal, all cards known, {real[0]}"
        if real is not None
        else "the real deal's cards are not all known"
    )
    if shown_at is not None and show_context is not None:
        bots = _played_out(show_context, shown_at, note)
        if bots is not None:
            return f"{lead}; {bots}"
    for k in range(SEARCHED):
        layout = context.layout(pos.at, seat, k)
        if layout is None:
            continue
        sample = _lines(layout.state, seat, note, only_if_apart=True)
        if sample is not None:
            return (
                f"{lead}; on a sampled layout of {seat.value}'s view (a sample, {_APART}): "
                f"{sample[0]}"
            )
    return f"{lead}; none of the first {SEARCHED} sampled layouts of {seat.value}'s view parts them"


def _played_out(context: DealContext, pos: Position, note: Annotation) -> str | None:
    """A show decision played out on the real deal by players who see only their own cards
    (as it was judged, :mod:`analysis.judge.playout`), from both choices with the same
    random choices: the first play-out whose goals differ, in words (None: none of
    :data:`~analysis.judge.playout.PLAYOUTS` does)."""
    seat = Seat(note.seat or "N")
    history = list(context.deal.actions[: pos.at])
    show = next((a for a in pos.state.legal_actions(seat) if a.type == "show"), None)
    if show is None:
        return None
    for j in range(PLAYOUTS):
        ends: dict[str, tuple[DealState, float, float]] = {}
        for text in ("show", "no show"):
            rng = sample_rng(
                context.seed, context.match_id, context.number, pos.at, f"{seat}:why:{j}", 0
            )
            start = pos.state.copy()
            move = show if text == "show" else bot_card(start, seat, history, rng)
            start.apply(move)
            end = play_out(start, [*history, move], rng)
            ends[text] = (end, *reached(end, seat))
        best, chosen = ends[note.best], ends[note.chosen]
        if best[1] == chosen[1]:
            continue
        b_words, c_words = _choice(note.best), _choice(note.chosen)
        goal = "reaches its goal" if best[1] else "misses its goal"
        other = "reaches it" if chosen[1] else "misses it"
        text = (
            f"played out on the real deal by players who see only their own cards (the lines "
            f"part): after {b_words} {seat.team.value} take {best[2]:g} card points and "
            f"{goal}; after {c_words}, {chosen[2]:g} and {other}"
        )
        parts = _parting(best[0], chosen[0], len(pos.state.seat_view(None).tricks) + 1)
        if parts is not None:
            text += _tells(best[0], chosen[0], parts, b_words, c_words)
        return text
    return None


# -------------------------------------------------------------------------------- trump
def _suit_of(choice: str) -> str | None:
    parts = choice.split()
    if len(parts) >= 2 and parts[0] == "trump" and parts[1] in _SUITS:
        return parts[1]
    return None


def _trump_reason(context: DealContext, pos: Position, note: Annotation) -> str | None:
    seat = Seat(note.seat or "N")
    held = list(pos.state.seat_view(seat).hand)
    ranked = [str(a["choice"]) for a in detail_of(note).get("alternatives", [])]
    runner_up = next((c for c in ranked if c != note.best), note.best)
    named = [note.best, note.chosen if note.chosen != note.best else runner_up]
    suits = [s for s in dict.fromkeys(_suit_of(c) for c in named) if s]
    if not suits:
        return None
    # per suit: your unseen cards, partner's, the opponents', J and 9 with the opponents
    counts = {s: [0.0, 0.0, 0.0, 0.0, 0.0] for s in suits}
    drawn = 0
    for k in range(min(LAYOUTS, note.samples or LAYOUTS)):
        layout = context.layout(pos.at, seat, k)
        if layout is None:
            continue
        drawn += 1
        for other, cards in layout.hands.items():
            where = 0 if other is seat else 1 if other.team is seat.team else 2
            for card in cards:
                if card is None or card.suit.value not in counts or card in held:
                    continue
                row = counts[card.suit.value]
                row[where] += 1
                if where == 2 and card.rank is Rank.JACK:
                    row[3] += 1
                if where == 2 and card.rank is Rank.NINE:
                    row[4] += 1
    parts = []
    for suit in suits:
        role = []
        if suit == _suit_of(note.best):
            role.append("best")
        if suit == _suit_of(note.chosen):
            role.append("chosen")
        if not role:
            role.append("next best")
        name = Suit(suit).display + (f" ({', '.join(role)})" if role else "")
        text = f"{name}: you held {holding(held, suit)}"
        if drawn:
            own, partner, them, jack, nine = (v / drawn for v in counts[suit])
            mine = sum(1 for c in held if c.suit.value == suit)
            later = f"your own unseen cards {own:.1f}, " if len(held) < 8 else ""
            text += (
                f"; of the {8 - mine} you did not see, the layouts gave {later}partner "
                f"{partner:.1f} and the opponents {them:.1f}"
            )
            honours = [
                f"the {r}{Suit(suit).symbol} to the opponents {share:.0%} of the time"
                for r, share, have in (("J", jack, Rank.JACK), ("9", nine, Rank.NINE))
                if not any(c.suit.value == suit and c.rank is have for c in held)
            ]
            if honours:
                text += ", " + " and ".join(honours)
        parts.append(text)
    held_at = "four" if len(held) <= 4 else f"{len(held)}"
    return f"from your {held_at} cards at the choice, over {drawn} layouts: " + "; ".join(parts)


# --------------------------------------------------------------------------------- bids
_CALLS: Final = ("bid", "pass", "ditto")


def _said(action: Action) -> str:
    value = getattr(action, "value", None)
    return f"bid {value}" if action.type == "bid" else action.type


def _bid_reason(context: DealContext, pos: Position, note: Annotation) -> str | None:
    seat = Seat(note.seat or "N")
    four = [c for c in (context.deal.hands or {}).get(seat, [])[:4] if c is not None]
    if len(four) < 4:
        return None
    jacks = [c.display for c in four if c.rank is Rank.JACK]
    nines = [c.display for c in four if c.rank is Rank.NINE]
    trump = detail_of(note).get("trump")
    longest = (
        trump
        if trump in _SUITS
        else max(_SUITS, key=lambda s: sum(c.suit.value == s for c in four))
    )
    features = (
        f"your four: {len(jacks)} jack{'s' if len(jacks) != 1 else ''}"
        + (f" ({' '.join(jacks)})" if jacks else "")
        + f", {len(nines)} nine{'s' if len(nines) != 1 else ''}"
        + (f" ({' '.join(nines)})" if nines else "")
        + f", longest suit {holding(four, longest)}"
    )
    if trump in _SUITS:
        features += f"; the trump in mind {Suit(trump).display}"
    heard = [(a.seat, _said(a)) for a in context.deal.actions[: pos.at] if a.type in _CALLS]
    if heard:
        calls = ", ".join(f"{_who(s, seat)} {w}" for s, w in heard)
        features += f"; heard: {calls}"
    else:
        features += "; you spoke first"
    if note.label is None or not heard:
        return features
    read = _read_calls(context, pos, seat, four)
    return f"{features}; {read}" if read else features


def _who(other: Seat, seat: Seat) -> str:
    if other is seat:
        return "you"
    return "partner" if other.team is seat.team else other.value


def _read_calls(context: DealContext, pos: Position, seat: Seat, four: Sequence[Card]) -> str:
    """What the model of the calls reads into the calls heard: the jacks and points partner
    and the opponents hold in their first four, on average over the layouts drawn by it."""
    sums: dict[str, list[float]] = {"partner": [0.0, 0.0], "the opponents": [0.0, 0.0]}
    drawn = 0
    for k in range(LAYOUTS):
        layout = context.layout(pos.at, seat, k)
        if layout is None:
            continue
        drawn += 1
        for other, cards in layout.hands.items():
            if other is seat:
                continue
            who = "partner" if other.team is seat.team else "the opponents"
            first = [c for c in cards[:4] if c is not None]
            sums[who][0] += sum(c.rank is Rank.JACK for c in first)
            sums[who][1] += sum(c.rank.points for c in first)
    if not drawn:
        return ""
    partner, them = sums["partner"], sums["the opponents"]
    # a fair shuffle deals each other seat 4 of the 28 cards unseen
    jacks = (4 - sum(c.rank is Rank.JACK for c in four)) * 4 / 28
    points = (28 - sum(c.rank.points for c in four)) * 4 / 28
    return (
        f"as the model of the calls reads them, over {drawn} layouts partner's first four held "
        f"{partner[0] / drawn:.1f} jacks and {partner[1] / drawn:.1f} points on average, the "
        f"opponents' {them[0] / drawn / 2:.1f} jacks and {them[1] / drawn / 2:.1f} points "
        f"each (a fair shuffle: {jacks:.1f} jacks and {points:.1f} points a seat)"
    )
