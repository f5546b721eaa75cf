"""Text frames of a deal for ``twentynine replay``: the table after each step.

>>> from replay import deal_steps, random_match
>>> from schema import Rules
>>> log = random_match(Rules.preset("pagat"), seed=1)
>>> frame = render_step(deal_steps(log, 1)[0], total=3, heading="demo")
>>> frame.splitlines()[0]
'demo'
"""

from __future__ import annotations

from collections.abc import Sequence

from replay import DealFacts, StepView
from schema.cards import Card, Seat, Suit, Team

_COLUMN = 26
_SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)


def hand_text(cards: Sequence[Card | None]) -> str:
    """A hand grouped by suit, highest first, with ``??`` for each unknown card.

    >>> hand_text([Card.parse("9H"), None, Card.parse("JH"), Card.parse("7S")])
    '♠ 7  ♥ J 9  ??'
    """
    known = [card for card in cards if card is not None]
    groups: list[str] = []
    for suit in _SUIT_ORDER:
        ranks = sorted((c for c in known if c.suit is suit), key=lambda c: -c.strength)
        if ranks:
            groups.append(f"{suit.symbol} " + " ".join(c.rank.value for c in ranks))
    unknown = len(cards) - len(known)
    if unknown:
        groups.append(" ".join(["??"] * unknown))
    return "  ".join(groups) if groups else "-"


def _needs_text(step: StepView) -> str:
    if step.needs is None:
        return "no call yet"
    return ", ".join(f"{team.value} need {max(need, 0)}" for team, need in step.needs.items())


def outcome_text(facts: DealFacts) -> str:
    """How a deal ended, in one line.

    >>> from replay import audit_match, random_match
    >>> from schema import Rules
    >>> facts = audit_match(random_match(Rules.preset("pagat"), seed=1)).deals[0]
    >>> outcome_text(facts).startswith(("thrown in", "NS", "EW", "single hand"))
    True
    """
    change = ", ".join(f"{team.value} {facts.score_change[team]:+d}" for team in Team)
    after = ", ".join(f"{team.value} {facts.score_after[team]}" for team in Team)
    if facts.thrown_in is not None:
        return f"thrown in ({facts.thrown_in}); score {after}"
    if facts.single_hand is not None:
        verdict = "won" if facts.made else "lost"
        return f"single hand by {facts.single_hand.value} {verdict}: {change}; score {after}"
    if facts.caller is None or facts.target is None:
        return f"score {after}"
    team = facts.caller.team
    verdict = {True: "made", False: "failed", None: "undecided"}[facts.made]
    return (
        f"{team.value} called {facts.call} (target {facts.target}), took "
        f"{facts.points[team]}: {verdict}; {change}; score {after}"
    )


def render_step(step: StepView, *, total: int, heading: str, outcome: str | None = None) -> str:
    """One step as a block of text: the heading, what happened, the table and the findings."""
    hands = {seat: hand_text(cards) for seat, cards in step.hands.items()}
    # fixed columns so the table does not jump about as the hands shrink
    indent = max(len(hands[Seat.W]) + 3, _COLUMN)
    east_at = indent + max(len(hands[Seat.N]), len(hands[Seat.S]), _COLUMN) + 3
    turn = f"  (to play: {step.current_seat.value})" if step.current_seat else ""
    lines = [
        heading,
        f"step {step.step}/{total - 1}: {step.description}{turn}",
        "",
        " " * indent + f"N  {hands[Seat.N]}",
        f"W  {hands[Seat.W]}".ljust(east_at) + f"E  {hands[Seat.E]}",
        " " * indent + f"S  {hands[Seat.S]}",
        "",
        "trick:  " + ("  ".join(f"{seat.value} {card}" for seat, card in step.trick) or "-"),
        "bid:    " + (f"{step.bid[0].value} {step.bid[1]}" if step.bid else "-"),
        "trump:  " + step.trump,
        "points: " + ", ".join(f"{team.value} {step.points[team]}" for team in Team),
        "needs:  " + _needs_text(step),
    ]
    if outcome is not None:
        lines.append("result: " + outcome)
    for finding in step.findings:
        lines.append(f"!! {finding.code} ({finding.severity}): {finding.message}")
    return "\n".join(lines)
