"""Text frames of a deal for ``twentynine replay``: the table after each action.

A frame is laid out like a hand viewer's: North above, West and East beside and South below
the trick on the table, each hand suit by suit under its player's name; the auction so far,
the contract with its stake, the trump, points and needs to the right; the tricks played
below. Every part has a fixed width, so nothing moves sideways from one action to the next.

>>> from twentynine.replay import deal_steps, random_match
>>> from twentynine.schema import Rules
>>> log = random_match(Rules.preset("pagat"), seed=1)
>>> frame = render_step(deal_steps(log, 1)[0], total=3, heading="demo")
>>> frame.splitlines()[0]
'demo'
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from twentynine.replay import AuditedMatch, DealFacts, StepView, audit_match, deal_steps
from twentynine.reports.html.words import (
    count_words,
    result_words,
    score_words,
    standing_words,
)
from twentynine.schema.cards import HAND_SUIT_ORDER, Card, Seat, Suit, Team
from twentynine.schema.log import (
    BidAction,
    DittoAction,
    MatchLog,
    PassAction,
    PlayAction,
    player_name,
)
from twentynine.schema.rules import Rules
from twentynine.schema.words import signed
from twentynine.textout import printable, shown_name

if TYPE_CHECKING:
    from twentynine.analysis.annotate import Annotation

_SYMBOL: Final = {suit.value: suit.symbol for suit in Suit}
_SIDE: Final = 22  # the West and East columns, and the indent of North and South
_BOX: Final = 17  # the trick on the table, frame included
_PANEL_AT: Final = 2 * _SIDE + _BOX + 3  # where the auction and the contract begin
_CELL: Final = 9  # one call in the auction grid (`ditto 17`)
_PANEL_WIDTH: Final = 40  # the standing's words beside the table, after their label
_RED: Final = re.compile(r"[♥♦](?:[AKQJT987?]|(?: [AKQJT987])+)?")
_CARD: Final = re.compile(r"\b([AKQJT987])([SHDC])\b")
_FSI: Final = "\u2068"
_PDI: Final = "\u2069"


@dataclass(frozen=True, slots=True)
class Review:
    """The analysis' marks on one deal, as the HTML review shows them: each judged action's
    mark (``?!``, ``?``, ``??``, ``!``: ``reports.html.judged``) and what its notes say; the
    action of each auction entry and of each card played, to set the marks beside them.
    """

    marks: Mapping[int, str]
    words: Mapping[int, tuple[str, ...]]
    auction: tuple[int, ...]
    plays: tuple[int, ...]
    cell: int = _CELL

    def auction_mark(self, entry: int) -> str:
        """The mark of the auction's ``entry``-th call (from 0)."""
        return self.marks.get(self.auction[entry], "") if entry < len(self.auction) else ""

    def play_mark(self, play: int) -> str:
        """The mark of the deal's ``play``-th card (from 0)."""
        return self.marks.get(self.plays[play], "") if play < len(self.plays) else ""


def isolated(text: str) -> str:
    """A name from a log as a frame prints it: :func:`textout.printable` (its own controls,
    bidirectional ones included, escaped), between Unicode isolates (FSI ... PDI), so that a
    right-to-left name reorders nothing after it on a terminal that lays out both directions.

    >>> shown = isolated("Asha\u202e")
    >>> shown[0] == "\u2068", shown[1:-1], shown[-1] == "\u2069"
    (True, 'Asha\\\\u202e', True)
    """
    return f"{_FSI}{printable(text)}{_PDI}"


def width(text: str) -> int:
    """The columns ``text`` takes: the isolates take none.

    >>> width(isolated("Joy")), len(isolated("Joy"))
    (3, 5)
    """
    return len(text) - text.count(_FSI) - text.count(_PDI)


def _pad(text: str, columns: int) -> str:
    return text + " " * max(columns - width(text), 0)


def card_text(card: Card) -> str:
    """A card with its suit symbol first, as a hand viewer prints it.

    >>> card_text(Card.parse("TH"))
    '♥T'
    """
    return f"{card.suit.symbol}{card.rank.value}"


def symbols(text: str) -> str:
    """Cards written ``9D`` in ``text`` (descriptions, findings) with suit symbols: ``♦9``.

    >>> symbols("W played 8C holding 9D: must follow diamonds")
    'W played ♣8 holding ♦9: must follow diamonds'
    """
    return _CARD.sub(lambda m: _SYMBOL[m.group(2)] + m.group(1), text)


def hand_text(cards: Sequence[Card | None]) -> str:
    """A hand grouped by suit, highest first, with ``??`` for each unknown card.

    >>> hand_text([Card.parse("9H"), None, Card.parse("JH"), Card.parse("7S")])
    '♠ 7  ♥ J 9  ??'
    """
    lines = hand_lines(cards)
    groups = [line for line in lines[1:] if line and not line.endswith("-")]
    unknown = len(cards) - sum(1 for card in cards if card is not None)
    if unknown:
        groups.append(" ".join(["??"] * unknown))
    return "  ".join(groups) if groups else "-"


def hand_lines(cards: Sequence[Card | None]) -> list[str]:
    """A hand as a hand viewer shows it: how many cards are unseen, then a line per suit.

    >>> hand_lines([Card.parse("9H"), None, Card.parse("JH"), Card.parse("7S")])
    ['1 unseen', '♠ 7', '♥ J 9', '♣ -', '♦ -']
    """
    known = [card for card in cards if card is not None]
    unknown = len(cards) - len(known)
    first = f"{unknown} unseen" if unknown else ""
    if not known and unknown:
        return [first, "", "", "", ""]
    lines = [first]
    for suit in HAND_SUIT_ORDER:
        ranks = sorted((c for c in known if c.suit is suit), key=lambda c: -c.strength)
        lines.append(f"{suit.symbol} " + (" ".join(c.rank.value for c in ranks) or "-"))
    return lines


def _standing(step: StepView) -> list[str]:
    """Where the call stands (``reports.html.words.standing_words``, as the HTML viewer
    says it), on lines short enough for the panel."""
    caller = step.bid[0] if step.bid is not None and step.needs is not None else None
    words = standing_words(
        caller=caller,
        target=_target(step),
        needs=step.needs,
        single=step.single_hand,
        winners=[trick.winner for trick in step.tricks],
        unshown=step.unshown,
    )
    return textwrap.wrap(words, _PANEL_WIDTH) or [""]


def _target(step: StepView) -> int | None:
    """The target now: what the caller's side needs plus what it has."""
    if step.needs is None or step.bid is None:
        return None
    team = step.bid[0].team
    return step.needs[team] + step.points[team]


def outcome_text(facts: DealFacts, before: Mapping[Team, int] | None = None) -> str:
    """How a deal ended, as the HTML viewer's result step says it
    (``reports.html.words.result_words``); ``before``: the match score before the deal.

    >>> from twentynine.replay import audit_match, random_match
    >>> from twentynine.schema import Rules
    >>> facts = audit_match(random_match(Rules.preset("pagat"), seed=1)).deals[0]
    >>> outcome_text(facts).startswith(("Thrown in", "NS", "EW", "Single hand"))
    True
    """
    return result_words(facts, before or dict.fromkeys(Team, 0))


def _label(seat: Seat, names: Mapping[Seat, str], unseen: str, step: StepView) -> str:
    """``N Asha (4 unseen) <``: the seat, its player (cut to fit the column, isolated), how
    many of its cards are unseen, and ``<`` when it is that seat's turn; each name as
    :func:`textout.shown_name` writes it, in the room the column leaves."""
    suffix = (f" ({unseen})" if unseen else "") + (" <" if step.current_seat is seat else "")
    name = shown_name(names.get(seat, ""), _SIDE - 1 - len(suffix) - 2)
    shown = f" {_FSI}{name}{_PDI}" if name else ""
    return f"{seat.value}{shown}{suffix}"


def _hand_block(seat: Seat, names: Mapping[Seat, str], step: StepView) -> list[str]:
    lines = hand_lines(step.hands[seat])
    return [_label(seat, names, lines[0], step), *lines[1:]]


def _trick_box(step: StepView) -> list[str]:
    cards = dict(step.trick)

    def cell(seat: Seat) -> str:
        if seat not in cards:
            return "   "
        return card_text(cards[seat]) + ("*" if seat is step.trick_winner else " ")

    inner = _BOX - 2
    middle = (inner - 3) // 2
    return [
        "┌" + "─" * inner + "┐",
        "│" + (" " * middle + cell(Seat.N)).ljust(inner) + "│",
        "│" + (" " + cell(Seat.W)).ljust(inner - 4) + cell(Seat.E) + " │",
        "│" + (" " * middle + cell(Seat.S)).ljust(inner) + "│",
        "└" + "─" * inner + "┘",
    ]


def _auction_grid(step: StepView, order: Sequence[Seat], review: Review | None) -> list[str]:
    """What each seat said, a column per seat in bidding order; a new row when a seat speaks
    again (so any auction style reads left to right, top to bottom); each call's mark
    beside it when the deal was analyzed."""
    rows: list[dict[Seat, str]] = [{}]
    column_of = {seat: i for i, seat in enumerate(order)}
    cell = review.cell if review is not None else _CELL
    last = -1
    for entry, (seat, word) in enumerate(step.auction):
        if column_of[seat] <= last:
            rows.append({})
        rows[-1][seat] = word + (review.auction_mark(entry) if review is not None else "")
        last = column_of[seat]
    header = "".join(seat.value.ljust(cell) for seat in order).rstrip()
    lines = [header]
    if step.auction:
        lines += ["".join(row.get(seat, "").ljust(cell) for seat in order).rstrip() for row in rows]
    return lines


def _contract(step: StepView) -> str:
    if step.single_hand is not None:
        return f"single hand by {step.single_hand.value} · stake {step.stake}"
    if step.needs is None or step.bid is None:
        return "-" if step.bid is None else f"{step.bid[0].value} {step.bid[1]} so far"
    seat, call = step.bid
    ladder = f" · {step.doubling}" if step.doubling else ""
    return f"{seat.value} {call}{ladder} · stake {step.stake}"


def trump_text(status: str) -> str:
    """The engine's trump status with the suit as its symbol.

    >>> trump_text("known to the caller: H"), trump_text("shown: no trump")
    ('known to the caller: ♥', 'shown: no trump')
    """
    return re.sub(r"\b([SHDC])$", lambda m: _SYMBOL[m.group(1)], status)


def _count(step: StepView, viewer: Seat | None) -> list[str]:
    """The count beside the table once there is a call (``reports.html.words.count_words``,
    as the HTML viewer says it), from the view shown, on lines short enough for the panel."""
    if step.needs is None and step.single_hand is None:
        return []
    played = [trick.cards for trick in step.tricks]
    if step.trick_winner is None:
        played.append(step.trick)
    words = count_words(played, step.hands, viewer)
    lines = textwrap.wrap(words, _PANEL_WIDTH) or [""]
    return [("Count     " if i == 0 else " " * 10) + line for i, line in enumerate(lines)]


def _panel(
    step: StepView, order: Sequence[Seat], review: Review | None, viewer: Seat | None = None
) -> list[str]:
    points = " · ".join(f"{team.value} {step.points[team]}" for team in Team)
    return [
        "Auction",
        *_auction_grid(step, order, review),
        "",
        "Contract  " + _contract(step),
        "Trump     " + trump_text(step.trump),
        "Points    " + points,
        *(("Needs     " if i == 0 else " " * 10) + line for i, line in enumerate(_standing(step))),
        *_count(step, viewer),
    ]


def _tricks(step: StepView, review: Review | None) -> list[str]:
    """The tricks played: ``*`` beside each trick's winning card and, when the deal was
    analyzed, each card's mark (in a column of its own, so the tricks stay aligned)."""
    lines = []
    play = 0
    for number, trick in enumerate(step.tricks, 1):
        cells = []
        for seat, card in trick.cards:
            cell = f"{seat.value} {card_text(card)}{'*' if seat is trick.winner else ' '}"
            if review is not None:
                cell += review.play_mark(play).ljust(2)
            cells.append(cell)
            play += 1
        cards = "  ".join(cells)
        lines.append(f"{number:>2}  {cards}   {trick.winner.value} {signed(trick.points)}")
    return lines


def render_step(
    step: StepView,
    *,
    total: int,
    heading: str,
    outcome: str | None = None,
    names: Mapping[Seat, str] | None = None,
    color: bool = False,
    review: Review | None = None,
    viewer: Seat | None = None,
    lead_from: str | None = None,
) -> str:
    """One step as a block of text: the heading, what happened, the table and the findings.

    ``total`` counts the steps (the start, then one per action); ``names`` are the players'
    names by seat; ``color`` prints hearts and diamonds in red (ANSI). ``outcome``: this is
    the deal's result step, after its last action (``step``), and these words state it.
    ``review``: the analysis' marks, beside the calls, the cards and this action, with what
    its notes say. ``viewer``: the seat whose view this is (None: every card), for the
    count. ``lead_from``: the opening lead's step, the leader's eight cards it was led from.
    """
    names = names or {}
    judged: tuple[str, ...] = ()
    if outcome is not None:
        last = f"after action {step.action_index}" if step.action_index is not None else "no action"
        where = f"the result ({last}; actions 0-{total - 2})"
    elif step.action_index is None:
        where = f"before the first action (actions 0-{total - 2})"
    else:
        where = f"action {step.action_index} of 0-{total - 2}: {symbols(step.description)}"
        if review is not None:
            mark = review.marks.get(step.action_index, "")
            where += f"  {mark}" if mark else ""
            judged = review.words.get(step.action_index, ())
    to_play = (
        f"  (to play: {step.current_seat.value})" if step.current_seat and outcome is None else ""
    )
    north = _hand_block(Seat.N, names, step)
    south = _hand_block(Seat.S, names, step)
    west = _hand_block(Seat.W, names, step)
    east = _hand_block(Seat.E, names, step)
    box = _trick_box(step)
    table = [" " * _SIDE + line for line in north]
    table += [_pad(w, _SIDE) + b + "  " + e for w, b, e in zip(west, box, east, strict=True)]
    table += [" " * _SIDE + line for line in south]
    panel = _panel(step, step.order, review, viewer)
    height = max(len(table), len(panel))
    table += [""] * (height - len(table))
    panel += [""] * (height - len(panel))
    lines = [heading, where + to_play]
    if lead_from is not None and outcome is None:
        lines.append(f"  led from: {lead_from}")
    for said in judged:
        lines += textwrap.wrap(symbols(said), 96, initial_indent="  ", subsequent_indent="    ")
    lines.append("")
    lines += [
        (_pad(left, _PANEL_AT) + right).rstrip() for left, right in zip(table, panel, strict=True)
    ]
    tricks = _tricks(step, review)
    if tricks:
        lines += ["", "Tricks", *tricks]
    if outcome is not None:
        lines += ["", *textwrap.wrap("Result: " + outcome, 96, subsequent_indent="        ")]
    # a finding about the whole deal is told with its result, one about an action at it
    told = [f for f in step.findings if (f.action is None) == (outcome is not None)]
    for finding in told:
        lines.append(f"!! {finding.code} ({finding.severity}): {symbols(finding.message)}")
    frame = "\n".join(lines)
    if color:
        frame = _RED.sub(lambda m: f"\x1b[31m{m.group(0)}\x1b[0m", frame)
    return frame


def deal_review(
    match: MatchLog,
    audited: AuditedMatch,
    deal_number: int,
    annotations: Sequence[Annotation],
    said: Sequence[tuple[Seat, str]] = (),
    seat: Seat | None = None,
) -> Review:
    """The marks of deal ``deal_number`` from a match's annotations, as the HTML review sets
    them (``reports.html.judged``): a decision's mark by its worst label, ``!`` for a best
    choice that had a worse one; the notes past a play that makes the deal unreal left out.
    What a marked note says is :func:`reports.html.viewer.note_text`'s words. ``said``:
    the deal's whole auction (the last step's), which sets the auction's column width.
    ``seat``: a seat's view, with only that seat's decisions (as the HTML's seat view).
    """
    # Here, not at the top: the judgement's words import the analysis, which `solve` (it
    # renders hands with this module) and an unanalyzed replay have no use for.
    from twentynine.analysis.judge.words import note_text
    from twentynine.reports.html.judged import (
        decision_mark,
        decisions,
        kept_notes,
        method_words,
        most_severe,
        note_mark,
        unreal_finding,
    )
    from twentynine.reports.html.viewer import defends

    deal = match.deals[deal_number - 1]
    found = [f for f in audited.findings if f.deal == deal_number]
    mine = [
        note
        for note in kept_notes(
            [a for a in annotations if a.deal == deal_number], unreal_finding(found)
        )
        if seat is None or note.seat == seat.value
    ]
    marks: dict[int, str] = {}
    words: dict[int, list[str]] = {}
    for (_, k, who, kind), notes in sorted(decisions(mine).items()):
        marks[k] = most_severe([marks.get(k, ""), decision_mark(notes)])
        for note in notes:
            mark = note_mark(note)
            if mark:
                text = note_text(note, defending=defends(note, deal))
                how = method_words(note.method)
                words.setdefault(k, []).append(
                    f"{mark} {who} {kind.replace('_', ' ')} ({how}): {text}"
                )
    bidding = (BidAction, PassAction, DittoAction)
    auction = tuple(i for i, a in enumerate(deal.actions) if isinstance(a, bidding))
    plays = tuple(i for i, a in enumerate(deal.actions) if isinstance(a, PlayAction))
    longest = max(
        (len(word) + len(marks.get(k, "")) for k, (_, word) in zip(auction, said, strict=False)),
        default=0,
    )
    return Review(
        {k: m for k, m in marks.items() if m},
        {k: tuple(lines) for k, lines in words.items()},
        auction,
        plays,
        max(_CELL, longest + 1),
    )


def deal_frames(
    match: MatchLog,
    deal_number: int,
    *,
    seat: Seat | None = None,
    rules: Rules | None = None,
    color: bool = False,
    annotations: Sequence[Annotation] | None = None,
    analyzed: bool | None = None,
) -> list[str]:
    """Every frame of deal ``deal_number`` (from 1): the start, one per action, then the
    result. ``annotations`` (the match's, when it was analyzed) set the review's marks
    beside the decisions and say what each marked one was; ``analyzed`` False: the heading
    says the deal is not analyzed (None: not known, nothing said).

    >>> from twentynine.replay import random_match
    >>> from twentynine.schema import Rules
    >>> log = random_match(Rules.preset("pagat"), seed=1)
    >>> frames = deal_frames(log, 1)
    >>> len(frames) == len(log.deals[0].actions) + 2, frames[1].splitlines()[1][:9]
    (True, 'action 0 ')
    >>> frames[-1].splitlines()[1][:10]
    'the result'
    """
    steps = deal_steps(match, deal_number, seat=seat, rules=rules)
    # Here, not at the top: the warehouse's rows import Arrow and numpy, which `solve` (it
    # renders hands with this module) has no use for.
    from twentynine.reports.warehouse.rows import preset_of

    audited = audit_match(match, rules)
    facts = audited.deals[deal_number - 1]
    before = audited.deals[deal_number - 2].score_after if deal_number > 1 else None
    deal = match.deals[deal_number - 1]
    view = f" · seen by {seat.value}" if seat else ""
    if analyzed is False:
        view += " · not analyzed"
    where = (
        f"match {printable(match.match_id)} · deal {deal_number} of {len(match.deals)}"
        f" · dealer {deal.dealer.value} · {preset_of(match.rules)}"
    )
    heading = f"{where} · score {score_words(before or dict.fromkeys(Team, 0))}{view}"
    names = {s: player_name(p) for s, p in match.players.items()}
    review = None
    if annotations:
        review = deal_review(match, audited, deal_number, annotations, steps[-1].auction, seat)
    lead = next((i for i, step in enumerate(steps) if isinstance(step.action, PlayAction)), None)
    frames = [
        render_step(
            step,
            total=len(steps),
            heading=heading,
            names=names,
            color=color,
            review=review,
            viewer=seat,
            lead_from=_lead_from(steps, i) if i == lead else None,
        )
        for i, step in enumerate(steps)
    ]
    result = render_step(
        steps[-1],
        total=len(steps),
        heading=f"{where} · score now {score_words(facts.score_after)}{view}",
        outcome=outcome_text(facts, before),
        names=names,
        color=color,
        review=review,
        viewer=seat,
    )
    return [*frames, result]


def _lead_from(steps: Sequence[StepView], lead: int) -> str | None:
    """The hand the opening lead (step ``lead``) was made from, as the view shown knows it:
    the leader's cards after it and the card led, ``N's 8 cards: ♠ J 9  ♥ A ...``."""
    action = steps[lead].action
    if not isinstance(action, PlayAction):
        return None
    held = (*steps[lead].hands[action.seat], action.card)
    return f"{action.seat.value}'s {len(held)} cards: {hand_text(held)}"


def finding_frames(audited: AuditedMatch) -> dict[int, list[int]]:
    """Each deal's frames with a finding: the frame after its action, or -1 (the deal's last
    frame) for a finding about the whole deal; for the pager's "next finding".

    >>> from twentynine.replay import audit_match, random_match
    >>> from twentynine.schema import Rules
    >>> finding_frames(audit_match(random_match(Rules.preset("pagat"), seed=1)))
    {}
    """
    frames: dict[int, list[int]] = {}
    for finding in audited.findings:
        if finding.deal is not None:
            at = finding.action + 1 if finding.action is not None else -1
            frames.setdefault(finding.deal, []).append(at)
    return frames


def first_finding(audited: AuditedMatch, deal_number: int | None = None) -> tuple[int, int] | None:
    """Where the first finding of a match (or of one deal) is: its deal and frame number
    (the frame after its action; the deal's last frame for a finding about the whole deal).

    >>> from twentynine.replay import audit_match, random_match
    >>> from twentynine.schema import Rules
    >>> first_finding(audit_match(random_match(Rules.preset("pagat"), seed=1))) is None
    True
    """
    for finding in audited.findings:
        if finding.deal is None or deal_number not in (None, finding.deal):
            continue
        if finding.action is not None:
            return finding.deal, finding.action + 1
        return finding.deal, -1
    return None
