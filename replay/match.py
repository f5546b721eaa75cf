"""The state of a match: the running score, whose deal it is, and when the match is won.

>>> from twentynine.schema import Rules, Seat, Team
>>> from twentynine.schema.log import PassAction
>>> match = MatchState(Rules.preset("bangladesh"), first_dealer=Seat.N)
>>> deal = match.new_deal()
>>> for seat in (Seat.W, Seat.S, Seat.E):
...     _ = deal.apply(PassAction(seat=seat))
>>> match.record(deal), match.next_dealer  # thrown in; the deal still passes on
({<Team.NS: 'NS'>: 0, <Team.EW: 'EW'>: 0}, <Seat.W: 'W'>)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from twentynine.replay.deal import DealOutcome, DealState
from twentynine.schema.cards import SEATS, Card, Direction, Seat, Team
from twentynine.schema.rules import Rules

_NS: Final = Team.NS
_EW: Final = Team.EW
_NEXT_OF: Final = {
    direction: tuple([seat.next(direction) for seat in SEATS]) for direction in Direction
}
"""By the direction of play, then the dealer's number: who deals next."""


class MatchState:
    """Score, dealer rotation and match end under one set of rules.

    The deal passes to the next player in the rules' direction after every deal, thrown-in
    deals included. A team wins at ``+match_target``; a team at ``-match_target`` loses.
    """

    __slots__ = ("_next_of", "_target", "deals_played", "next_dealer", "rules", "score", "winner")

    def __init__(self, rules: Rules, first_dealer: Seat = Seat.N) -> None:
        self.rules = rules
        self.score: dict[Team, int] = {_NS: 0, _EW: 0}
        self.next_dealer = first_dealer
        self.winner: Team | None = None
        self.deals_played = 0
        # by the dealer's number: who deals next (a table: this runs once a deal)
        self._next_of = _NEXT_OF[rules.direction]
        self._target = rules.match_target

    def __reduce__(self) -> tuple[object, ...]:
        # for pickle and copy: compiled, the class cannot be rebuilt without its arguments
        state = (self.rules, self.next_dealer, dict(self.score), self.winner, self.deals_played)
        return _restored, state

    @property
    def is_over(self) -> bool:
        """True once a team has won."""
        return self.winner is not None

    def new_deal(
        self,
        hands: Mapping[Seat, Sequence[Card | None]] | None = None,
        dealer: Seat | None = None,
    ) -> DealState:
        """A fresh deal, dealt by ``dealer`` (default: whose turn it is to deal)."""
        return DealState(
            self.rules,
            dealer if dealer is not None else self.next_dealer,
            hands,
            number=self.deals_played + 1,
        )

    def record(self, deal: DealState, outcome: DealOutcome | None = None) -> dict[Team, int]:
        """Score a deal (nothing for a thrown-in or unfinished one), pass the deal on.

        ``outcome`` is ``deal.result()`` when the caller has it already. Returns the score
        change.
        """
        result = outcome if outcome is not None else deal.result()
        for team, change in result.score_change.items():
            self.score[team] += change
        self.deals_played += 1
        self.next_dealer = self._next_of[deal.dealer]
        if self.winner is None:
            self.winner = self.decide(self.score)
        return result.score_change

    def decide(self, score: Mapping[Team, int]) -> Team | None:
        """The winner given a score: a team at +target wins; a team at -target loses."""
        target = self._target
        ns, ew = score[_NS], score[_EW]
        if ns >= target:
            return _NS
        if ew >= target:
            return _EW
        if ns <= -target:  # NS lose
            return _EW
        if ew <= -target:
            return _NS
        return None


def _restored(
    rules: Rules, next_dealer: Seat, score: dict[Team, int], winner: Team | None, played: int
) -> MatchState:
    """A :class:`MatchState` as pickled (see ``MatchState.__reduce__``)."""
    table = MatchState(rules, next_dealer)
    table.score = score
    table.winner = winner
    table.deals_played = played
    return table
