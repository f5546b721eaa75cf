"""What a deal's standing and result are, in a player's words: one home for the HTML viewer
and the terminal replay (``twentynine/frames.py``), so that both tell one story.

>>> from twentynine.replay import audit_match, random_match
>>> from twentynine.schema import Rules
>>> facts = audit_match(random_match(Rules.preset("pagat"), seed=1)).deals[0]
>>> result_words(facts, {Team.NS: 0, Team.EW: 0}).startswith(("NS", "EW", "Thrown in"))
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from twentynine.replay import DealFacts
from twentynine.schema.cards import ALL_CARDS, HAND_SUIT_ORDER, Card, Seat, Suit, Team

THROWN_IN_WORDS: Final[dict[str, str]] = {
    "zero_point": "a player's first four cards held no point",
    "redeal": "a redeal was asked for",
    "all_pass": "all four passed",
    "seventh_no_scoring_trump": "the seventh card gave a trump that does not score",
    "opponents_no_trump": "the opponents held no trump (or only its 7)",
    "never_shown": "the trump was never shown",
}
"""Each throw-in reason of the engine (``replay.THROWN_IN_REASONS``) in words."""


def game_points(count: int) -> str:
    """``+1 game point``, ``-2 game points``.

    >>> game_points(1), game_points(-2), game_points(0)
    ('+1 game point', '-2 game points', '0 game points')
    """
    sign = "+" if count > 0 else ""
    return f"{sign}{count} game point{'' if abs(count) == 1 else 's'}"


def card_points(count: int) -> str:
    """``1 card point``, ``17 card points``."""
    return f"{count} card point{'' if count == 1 else 's'}"


def score_words(score: Mapping[Team, int]) -> str:
    """``NS 2, EW -1``."""
    return f"NS {score[Team.NS]}, EW {score[Team.EW]}"


def standing_words(
    *,
    caller: Seat | None,
    target: int | None,
    needs: Mapping[Team, int] | None,
    single: Seat | None,
    winners: Sequence[Seat],
    unshown: bool = False,
) -> str:
    """Where the call stands: what each side still needs, or that it is decided (``unshown``:
    not while the trump is hidden where a deal that never shows it is thrown in); for a single
    hand, the tricks the lone player has won, or the trick that beat it.

    >>> needs = {Team.NS: 5, Team.EW: 8}
    >>> standing_words(caller=Seat.N, target=17, needs=needs, single=None, winners=[])
    'target 17: NS need 5 more, EW need 8 to stop them'
    >>> standing_words(caller=Seat.N, target=17, needs={Team.NS: 3, Team.EW: 0}, single=None,
    ...     winners=[])
    'target 17: EW stopped the call (NS can no longer reach 17)'
    >>> standing_words(caller=Seat.N, target=17, needs={Team.NS: 0, Team.EW: 3}, single=None,
    ...     winners=[], unshown=True)
    'target 17: NS reached it; unless the trump is shown the deal is thrown in'
    >>> standing_words(caller=Seat.S, target=16, needs=needs, single=Seat.S,
    ...     winners=[Seat.S, Seat.E])
    'single hand by S: lost, E won trick 2'
    """
    if single is not None:
        beaten = next((i for i, w in enumerate(winners, 1) if w is not single), None)
        if beaten is not None:
            winner = winners[beaten - 1].value
            return f"single hand by {single.value}: lost, {winner} won trick {beaten}"
        won = len(winners)
        return f"single hand by {single.value}: must win every trick; {won} of 8 won so far"
    if caller is None or target is None or needs is None:
        return "no call yet"
    side, other = caller.team, caller.team.other
    unless = "; unless the trump is shown the deal is thrown in" if unshown else ""
    if needs[side] <= 0:
        if unshown:
            return f"target {target}: {side.value} reached it{unless}"
        return f"target {target}: {side.value} reached it, the call is made"
    if needs[other] <= 0:
        return (
            f"target {target}: {other.value} stopped the call "
            f"({side.value} can no longer reach {target}){unless}"
        )
    return (
        f"target {target}: {side.value} need {needs[side]} more, "
        f"{other.value} need {needs[other]} to stop them"
    )


def result_words(facts: DealFacts, before: Mapping[Team, int]) -> str:
    """How a deal ended: made or failed by how much, the game points, the new score; a single
    hand, a throw-in, a deal ended once decided and a record that stops each in its own words.
    ``before`` is the match score before the deal.
    """
    after = score_words(facts.score_after)
    if facts.thrown_in is not None:
        why = THROWN_IN_WORDS.get(facts.thrown_in, facts.thrown_in.replace("_", " "))
        return f"Thrown in: {why}. Nobody scores; the score stays {score_words(before)}."
    if facts.single_hand is not None:
        lone = facts.single_hand
        team = lone.team
        change = game_points(facts.score_change[team])
        if facts.made:
            return (
                f"Single hand by {lone.value} won: all eight tricks alone. "
                f"{team.value} {change}; the score is now {after}."
            )
        winners = [t.winner for t in facts.tricks]
        beaten = next((i for i, w in enumerate(winners, 1) if w is not lone), None)
        lost = f"lost at trick {beaten}, won by {winners[beaten - 1].value}" if beaten else "lost"
        return (
            f"Single hand by {lone.value} {lost}. {team.value} {change}; the score is now {after}."
        )
    if facts.caller is None or facts.target is None or facts.made is None:
        played = len(facts.tricks)
        where = f"after trick {played}" if played else "before the first card"
        return (
            f"The record stops {where}, before the deal was decided: nobody scores; "
            f"the score stays {score_words(before)}."
        )
    team = facts.caller.team
    took = facts.points[team]
    margin = took - facts.target
    target = f"target {facts.target}" + (" after a Pair" if facts.target != facts.call else "")
    change = f"{team.value} {game_points(facts.score_change[team])}"
    if facts.stake != 1:
        change += f" (stake {facts.stake})"
    called = f"{team.value} called {facts.call} ({target})"
    if len(facts.tricks) < 8:  # ended once decided
        done = len(facts.tricks)
        if facts.made:
            how = f"reached the target with {card_points(took)} after trick {done}: made"
        else:
            how = (
                f"{team.other.value} stopped the call after trick {done}, with {team.value} "
                f"at {card_points(took)}: failed"
            )
        return (
            f"{called} and {how}; the deal ended there, once decided. "
            f"{change}; the score is now {after}."
        )
    if facts.made:
        verdict = f"made by {margin}" if margin > 0 else "made exactly" if margin == 0 else "made"
    else:
        verdict = f"failed by {-margin}" if margin < 0 else "failed"
    return f"{called} and took {card_points(took)}: {verdict}. {change}; the score is now {after}."


def masters_out(
    played: Sequence[Sequence[tuple[Seat, Card]]],
    hands: Mapping[Seat, Sequence[Card | None]],
    viewer: Seat | None,
) -> list[str]:
    """The master of each suit still out (its highest card not yet played), as the view
    shown knows it: with its holder where the view sees it (``yours`` for the viewer's own).

    >>> hands = {Seat.N: [Card.parse("JS"), None], Seat.E: [None, None]}
    >>> masters_out([[(Seat.E, Card.parse("JH"))]], hands, Seat.N)[:2]
    ['J♠ yours', '9♥']
    """
    gone = {card for trick in played for _, card in trick}
    holder = {card: seat for seat, cards in hands.items() for card in cards if card is not None}
    out = []
    for suit in HAND_SUIT_ORDER:
        left = [c for c in ALL_CARDS if c.suit is suit and c not in gone]
        if not left:
            continue
        master = max(left, key=lambda c: c.strength)
        seat = holder.get(master)
        if seat is None:
            out.append(master.display)
        elif seat is viewer:
            out.append(f"{master.display} yours")
        else:
            out.append(f"{master.display} {seat.value}")
    return out


def voids_shown(played: Sequence[Sequence[tuple[Seat, Card]]]) -> dict[Seat, list[Suit]]:
    """The suits each seat showed it lacks: a suit led that it did not follow (the caller's
    face-down trump card aside, where the rules have one).

    >>> trick = [(Seat.N, Card.parse("7S")), (Seat.E, Card.parse("7H"))]
    >>> voids_shown([trick])
    {<Seat.E: 'E'>: [<Suit.SPADES: 'S'>]}
    """
    voids: dict[Seat, list[Suit]] = {}
    for trick in played:
        if not trick:
            continue
        led = trick[0][1].suit
        for seat, card in trick[1:]:
            if card.suit is not led and led not in voids.setdefault(seat, []):
                voids[seat].append(led)
    return {seat: suits for seat, suits in voids.items() if suits}


def count_words(
    played: Sequence[Sequence[tuple[Seat, Card]]],
    hands: Mapping[Seat, Sequence[Card | None]],
    viewer: Seat | None,
) -> str:
    """The count a player keeps beside the table, from the view shown: the masters still
    out and the voids shown (what each side still needs is the standing's:
    :func:`standing_words`).

    >>> trick = [(Seat.N, Card.parse("JS")), (Seat.E, Card.parse("7H"))]
    >>> count_words([trick], {Seat.N: [Card.parse("9S")]}, None)
    'masters out: 9♠ N, J♥, J♣, J♦; voids shown: E ♠'
    >>> count_words([trick], {Seat.E: [Card.parse("8S")]}, None)  # E revoked
    'masters out: 9♠, J♥, J♣, J♦; voids shown: none'
    """
    masters = ", ".join(masters_out(played, hands, viewer)) or "none"
    # a seat seen to hold a suit it did not follow revoked: no void
    voids = {
        seat: kept
        for seat, suits in voids_shown(played).items()
        if (kept := [u for u in suits if not any(c and c.suit is u for c in hands.get(seat, ()))])
    }
    shown = "; ".join(
        f"{seat.value} {' '.join(suit.symbol for suit in suits)}" for seat, suits in voids.items()
    )
    return f"masters out: {masters}; voids shown: {shown or 'none'}"
