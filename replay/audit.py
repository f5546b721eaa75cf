"""The auditor: replay a match log, derive each deal's facts, and report every breach.

It never stops at the first breach (unless ``strict``): each finding is recorded and the deal
goes on as the table went on. Recorded results (card points, match score, throw-in, match
result) are recomputed, and a mismatch is an error.

>>> from twentynine.schema import MatchLog
>>> log = MatchLog.model_validate({
...     "format": "twentynine.match", "version": 1, "rules": "bangladesh",
...     "players": {"N": "a", "E": "b", "S": "c", "W": "d"},
...     "deals": [{"dealer": "N", "actions": [
...         {"seat": "W", "type": "pass"}, {"seat": "S", "type": "pass"},
...         {"seat": "E", "type": "pass"}]}]})
>>> audited = audit_match(log)
>>> audited.deals[0].thrown_in, audited.errors, [f.code for f in audited.findings]
('all_pass', 0, [])
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple, cast, overload

from twentynine.replay.deal import (
    ALL_CARDS,
    MODE_NO_TRUMP,
    MODE_REVERSE,
    SEATS,
    TEAMS,
    THROWN_IN_REASONS,
    DealOutcome,
    DealState,
    Trick,
)
from twentynine.replay.findings import LARGEST_RECORDED, AuditError, Finding, make_finding
from twentynine.replay.match import MatchState
from twentynine.schema.cards import Card, Seat, Team
from twentynine.schema.dates import unreadable_start
from twentynine.schema.fastlog import recorded_thrown_in
from twentynine.schema.rules import Rules
from twentynine.schema.shapes import DealLike, DealResultLike, MatchLike
from twentynine.schema.words import plural


class TrickFacts(NamedTuple):
    """One trick: its number (1-based), leader, cards in order with seats, winner, points."""

    number: int
    leader: Seat
    cards: tuple[tuple[Seat, Card], ...]
    winner: Seat
    points: int


class ShowFacts(NamedTuple):
    """The show: the action index, the seat that asked (or showed), the trick (1-based)."""

    action: int
    seat: Seat
    trick: int


class PairFacts(NamedTuple):
    """A Pair: who showed it, at which action, and how far it moved the target."""

    seat: Seat
    action: int
    target_change: int


class TrickList(Sequence[TrickFacts]):
    """A deal's tricks as :class:`TrickFacts`, built on first use (most audits never look).

    Immutable; compares equal to the tuple of the same tricks.
    """

    __slots__ = ("_built", "_raw")

    def __init__(self, raw: Sequence[Trick]) -> None:
        self._raw = raw
        self._built: tuple[TrickFacts, ...] | None = None

    def _all(self) -> tuple[TrickFacts, ...]:
        if self._built is None:
            self._built = tuple(
                TrickFacts(
                    i,
                    SEATS[leader],
                    tuple([_PLAYED[s * 32 + c] for s, c in zip(seats, cards, strict=True)]),
                    SEATS[winner],
                    pts,
                )
                for i, (leader, seats, cards, winner, pts) in enumerate(self._raw, 1)
            )
        return self._built

    def __len__(self) -> int:
        return len(self._raw)

    @overload
    def __getitem__(self, index: int) -> TrickFacts: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[TrickFacts, ...]: ...
    def __getitem__(self, index: int | slice) -> TrickFacts | tuple[TrickFacts, ...]:
        return self._all()[index]

    def __iter__(self) -> Iterator[TrickFacts]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TrickList):
            return self._all() == other._all()
        if isinstance(other, tuple):
            return self._all() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._all())

    def __repr__(self) -> str:
        return repr(self._all())


class DealFacts(NamedTuple):
    """What a deal's replay establishes. Points and scores are keyed by team.

    A named tuple: the auditor makes one a deal, and a tuple is made several times faster
    than a frozen dataclass.
    """

    number: int
    dealer: Seat
    caller: Seat | None
    call: int | None
    trump: str | None
    trump_mode: str | None
    seventh: bool
    show: ShowFacts | None
    tricks: TrickList
    points: dict[Team, int]
    target: int | None
    stake: int
    doubling: str | None
    pairs: tuple[PairFacts, ...]
    single_hand: Seat | None
    thrown_in: str | None
    made: bool | None
    score_change: dict[Team, int]
    score_after: dict[Team, int]
    complete: bool
    decided: bool


@dataclass(frozen=True, slots=True)
class AuditedMatch:
    """The audit of one match: facts per deal, every finding in order, the final score."""

    match_id: str
    rules: Rules
    deals: tuple[DealFacts, ...]
    findings: tuple[Finding, ...]
    score: dict[Team, int]
    winner: Team | None

    @property
    def errors(self) -> int:
        """How many findings are errors."""
        return sum(1 for f in self.findings if f.severity == "error")

    @property
    def warnings(self) -> int:
        """How many findings are warnings."""
        return sum(1 for f in self.findings if f.severity == "warning")


_ALIASES: Final[dict[str, str]] = {
    "trump_never_shown": "never_shown",
    "not_shown": "never_shown",
    "no_show": "never_shown",
    "zero_points": "zero_point",
    "no_points": "zero_point",
    "all_passed": "all_pass",
    "three_passes": "all_pass",
}


_ENGINE_REASONS: Final = frozenset(THROWN_IN_REASONS)


def normalize_reason(text: str) -> str:
    """A recorded throw-in reason in the engine's spelling, where it is a known alias.

    >>> normalize_reason("trump never shown"), normalize_reason("All-Pass")
    ('never_shown', 'all_pass')
    """
    if text in _ENGINE_REASONS:  # the usual case, already in the engine's spelling
        return text
    key = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
    return _ALIASES.get(key, key)


_NS: Final = TEAMS[0]  # module constants: an enum member looked up on its class is slow
_EW: Final = TEAMS[1]


def _team_text(scores: dict[Team, int]) -> str:
    return f"NS {scores[_NS]} EW {scores[_EW]}"


def _team_mismatch(
    code: str, number: int | None, what: str, recorded: tuple[int, int], replayed: tuple[int, int]
) -> Finding:
    """The finding that a recorded pair of numbers by team (NS, EW) is not the replay's."""
    return make_finding(
        code,
        number,
        None,
        f"recorded {what} NS {recorded[0]} EW {recorded[1]}, "
        f"replayed NS {replayed[0]} EW {replayed[1]}",
    )


def replay_deal(
    rules: Rules, deal: DealLike, number: int = 1, *, strict: bool = False
) -> DealState:
    """Replay one deal's actions from its dealt hands; the state holds the findings.

    >>> from twentynine.schema import Rules, Seat
    >>> from twentynine.schema.log import Deal
    >>> state = replay_deal(Rules.preset("pagat"), Deal(dealer=Seat.N, actions=[]))
    >>> state.current_seat
    <Seat.E: 'E'>
    """
    state = DealState(rules, deal.dealer, deal.hands, number=number)
    if not strict:
        state.run(deal.actions)
        return state
    _raise_first_error(state.findings, 0)
    for action in deal.actions:
        seen = len(state.findings)
        state.apply(action)
        if len(state.findings) > seen:
            _raise_first_error(state.findings, seen)
    return state


_GUESSED: Final = ("show", "pass", "play")
"""The actions a log most often leaves out; bids, trumps and declarations are not guessed."""
_GAP_SIGNS: Final = frozenset({"OUT_OF_TURN", "ACTION_OUT_OF_PHASE", "SHOW_REQUIRED"})
"""First errors a gap gives: a missing card or pass puts the next one out of turn; a missing
show changes a trick's winner, so the next lead is out of turn."""
_LOOK_BACK: Final = 6  # the first error's place and five before: a trick and its show


def missing_action(
    rules: Rules, deal: DealLike, number: int, findings: Sequence[Finding]
) -> Finding | None:
    """A ``MISSING_ACTION`` finding when one show, pass or card inserted at the deal's first
    error, or at one of the five places before it, makes every action of the deal legal;
    else None. Tried only when the first error is one a gap gives (out of turn, out of phase,
    a show required), nearest place first, each legal candidate replayed.

    >>> from twentynine.schema import Rules
    >>> from twentynine.replay.script import make_deal
    >>> deal = make_deal("N", None, "E:16 W:p N:p")  # S's pass left out
    >>> state = replay_deal(Rules.preset("pagat"), deal)
    >>> missing_action(Rules.preset("pagat"), deal, 1, state.findings).message
    'a pass by S seems to be missing before action 1: with it the rest of the deal is legal'
    """
    if not findings:  # the usual case
        return None
    errors = [f for f in findings if f.severity == "error"]
    if not errors or errors[0].code not in _GAP_SIGNS or errors[0].action is None:
        return None
    actions = list(deal.actions)
    first = errors[0].action
    for position in range(first, max(first - _LOOK_BACK, -1), -1):
        before = DealState(rules, deal.dealer, deal.hands, number=number)
        before.run(actions[:position])
        fitting = []
        for candidate in before.legal_actions():
            if candidate.type not in _GUESSED:
                continue
            trial = DealState(rules, deal.dealer, deal.hands, number=number)
            trial.run([*actions[:position], candidate, *actions[position:]])
            if not any(f.severity == "error" for f in trial.findings):
                fitting.append(candidate)
        kinds = {(c.type, c.seat) for c in fitting}
        if len(kinds) == 1:
            [(kind, seat)] = kinds
            what = f"a {kind} by {seat}"
            if len(fitting) == 1 and kind == "play":
                what += f" ({fitting[0].card})"  # type: ignore[union-attr]
            return make_finding(
                "MISSING_ACTION",
                number,
                position,
                f"{what} seems to be missing before action {position}: with it the rest of "
                "the deal is legal",
            )
    return None


def _raise_first_error(findings: Sequence[Finding], start: int) -> None:
    for finding in findings[start:]:
        if finding.severity == "error":
            raise AuditError(finding)


def audit_match(
    match: MatchLike, rules: Rules | None = None, *, strict: bool = False
) -> AuditedMatch:
    """Replay and audit a whole match; ``rules`` overrides the log's own rules.

    With ``strict``, raise :class:`~replay.findings.AuditError` at the first error finding.
    """
    rules = rules if rules is not None else match.resolved_rules()
    given: Sequence[DealLike] = match.deals
    deals = given if isinstance(given, list) else list(given)  # a list is walked directly
    first = deals[0].dealer if deals else Seat.N
    table = MatchState(rules, first_dealer=first)
    facts: list[DealFacts] = []
    findings: list[Finding] = []
    # The score recorded after the previous deal (NS, EW), which this deal's recorded score is
    # judged from; None when that deal recorded none
    recorded_before: tuple[int, int] | None = (0, 0)
    last = len(deals)
    for index, deal in enumerate(deals):  # compiled, enumerate with a start is a Python call
        number = index + 1
        extra: list[Finding] = []
        if number > 1 and deal.dealer != table.next_dealer:
            extra.append(
                make_finding(
                    "DEALER_OUT_OF_TURN",
                    number,
                    None,
                    f"the dealer is {deal.dealer} but after {deals[number - 2].dealer}'s deal "
                    f"the deal passes to {table.next_dealer}",
                )
            )
        if table.winner is not None:
            extra.append(
                make_finding(
                    "PLAY_AFTER_MATCH_END",
                    number,
                    None,
                    f"deal {number} is played after {table.winner} won the match "
                    f"({_team_text(table.score)})",
                )
            )
        if strict:
            _raise_first_error(extra, 0)
        state = replay_deal(rules, deal, number, strict=strict)
        deal_findings = state.findings
        if not strict:
            gap = missing_action(rules, deal, number, deal_findings)
            if gap is not None:
                extra.append(gap)
        thrown_in = _close_deal(state, deal, number == last, extra)
        outcome = state.result()
        change = table.record(state, outcome)
        result = deal.result
        if result is not None:
            recorded_before = _compare_result(
                state, result, thrown_in, change, table.score, recorded_before, extra
            )
        else:
            recorded_before = None
        _out_of_range(deal, number, extra)
        if strict:
            _raise_first_error(extra, 0)
        deal_findings.extend(extra)
        if len(deal_findings) > 1:
            deal_findings.sort(key=_order)
        findings.extend(deal_findings)
        facts.append(_facts(state, number, thrown_in, change, dict(table.score), outcome))
    findings.extend(_compare_match(match, table))
    findings.extend(_match_out_of_range(match))
    unreadable = unreadable_start(match.meta)
    if unreadable is not None:
        findings.append(make_finding("DATE_UNREADABLE", None, None, unreadable))
    if strict:
        _raise_first_error(findings, 0)
    # Made without the frozen dataclass's __init__, which runs in Python
    audited = AuditedMatch.__new__(AuditedMatch)
    _set_field(audited, "match_id", match.match_id)
    _set_field(audited, "rules", rules)
    _set_field(audited, "deals", tuple(facts))
    _set_field(audited, "findings", tuple(findings))
    _set_field(audited, "score", dict(table.score))
    _set_field(audited, "winner", table.winner)
    return audited


_set_field: Final = object.__setattr__


def _order(finding: Finding) -> int:
    return finding.action if finding.action is not None else 1 << 30


def _close_deal(
    state: DealState, deal: DealLike, is_last: bool, extra: list[Finding]
) -> str | None:
    """Deal-level findings at the end of the deal's actions; returns the throw-in reason."""
    number = state.number
    partial = state.partial_hands()
    if partial is not None and state.played:
        extra.append(
            make_finding(
                "PARTIAL_HANDS",
                number,
                None,
                f"hands not fully recorded ({partial}): breaches are judged from the plays",
            )
        )
    if state.is_over:
        return state.thrown_in
    recorded = _recorded_thrown_in(deal.result)[1] if deal.result is not None else None
    plays = state.played or state.single >= 0
    if state.possible_throw_in is not None and not plays:
        reason = state.possible_throw_in
        if recorded is not None:
            extra.append(
                make_finding(
                    "UNVERIFIED",
                    number,
                    None,
                    f"the deal is recorded as thrown in ({recorded}) but the cards that "
                    f"would show it ({reason}) are not recorded",
                )
            )
            return normalize_reason(recorded)
        extra.append(
            make_finding(
                "UNVERIFIED",
                number,
                None,
                f"the deal stops where it may have been thrown in ({reason}), but the cards "
                "that would show it are not recorded",
            )
        )
        return None
    where = _where(state)
    if state.rules.end_when_decided and state.result_fixed(pairs=False):
        extra.append(
            make_finding(
                "UNVERIFIED",
                number,
                None,
                f"the deal stops {where}, decided unless a Pair was still to be shown",
            )
        )
        return None
    if is_last and deal.result is None:
        extra.append(
            make_finding(
                "MATCH_ABANDONED",
                number,
                None,
                f"the last deal stops {where} with no recorded result",
            )
        )
    else:
        extra.append(
            make_finding(
                "DEAL_INCOMPLETE", number, None, f"the deal stops {where}, before it is decided"
            )
        )
    return None


def _recorded_thrown_in(result: DealResultLike) -> tuple[bool, str | None]:
    """Whether the result says if the deal was thrown in, and the reason it gives."""
    # Either reader's result: schema.fastlog.recorded_thrown_in tells the two apart.
    return recorded_thrown_in(cast(Any, result))


def _where(state: DealState) -> str:
    if state.phase == 0:
        return "during the auction"
    if state.phase == 1:
        return "before the trump is chosen"
    if not state.trick_no and not state.trick_cards:
        return "before the first card"
    return f"after {plural(state.trick_no, 'trick')}"


def _compare_result(
    state: DealState,
    result: DealResultLike,
    thrown_in: str | None,
    change: dict[Team, int],
    after: dict[Team, int],
    recorded_before: tuple[int, int] | None,
    extra: list[Finding],
) -> tuple[int, int] | None:
    """Check a deal's recorded result against its replay: the deal's score ``change`` and the
    match score ``after`` it. Returns the recorded score (NS, EW) to judge the next deal from.
    """
    number = state.number
    given, recorded_text = _recorded_thrown_in(result)
    if given:
        recorded = normalize_reason(recorded_text) if recorded_text is not None else None
        if (recorded is None) != (thrown_in is None):
            said = f"thrown in ({recorded_text})" if recorded is not None else "played out"
            found = f"thrown in ({thrown_in})" if thrown_in is not None else "played out"
            extra.append(
                make_finding(
                    "THROWN_IN_MISMATCH", number, None, f"recorded {said}, replayed {found}"
                )
            )
        elif recorded is not None and recorded != thrown_in:
            code = "THROWN_IN_MISMATCH" if recorded in THROWN_IN_REASONS else "THROWN_IN_REASON"
            extra.append(
                make_finding(
                    code,
                    number,
                    None,
                    f"recorded reason {recorded_text!r}, replayed {thrown_in}",
                )
            )
    # Numbers compared as ints, and worded only for a mismatch
    recorded_points = result.points
    if recorded_points is not None:
        if state.points_uncertain:
            extra.append(
                make_finding(
                    "UNVERIFIED",
                    number,
                    None,
                    "the recorded card points cannot be checked: a trick's winner depends on "
                    "the unrecorded trump",
                )
            )
        else:
            ours = state.points
            theirs = recorded_points.NS, recorded_points.EW
            if ours != theirs:
                extra.append(_team_mismatch("POINTS_MISMATCH", number, "points", theirs, ours))
    score = result.score
    if score is None:
        return None
    their_ns, their_ew = score.NS, score.EW
    # Judge this deal's change only: from the previous recorded score where there is one.
    if recorded_before is None:
        expected_ns, expected_ew = after[_NS], after[_EW]
    else:
        expected_ns = recorded_before[0] + change[_NS]
        expected_ew = recorded_before[1] + change[_EW]
    if (expected_ns != their_ns or expected_ew != their_ew) and not state.points_uncertain:
        extra.append(
            _team_mismatch(
                "SCORE_MISMATCH", number, "score", (their_ns, their_ew), (expected_ns, expected_ew)
            )
        )
    return their_ns, their_ew


def _beyond(value: int) -> bool:
    largest = LARGEST_RECORDED  # compared as ints: compiled, abs() is a Python call
    return not -largest <= value <= largest


_LIMIT: Final = f"at most {LARGEST_RECORDED:,}"


def _out_of_range(deal: DealLike, number: int, extra: list[Finding]) -> None:
    """Add a finding for each of a deal's recorded numbers that no real deal holds
    (:data:`LARGEST_RECORDED`)."""
    limit = _LIMIT
    if len(deal.actions) > LARGEST_RECORDED:
        message = f"the deal has {len(deal.actions):,} actions, beyond any real deal ({limit})"
        extra.append(make_finding("VALUE_OUT_OF_RANGE", number, None, message))
    result = deal.result
    if result is None:
        return
    points, score = result.points, result.score
    if (points is None or not (_beyond(points.NS) or _beyond(points.EW))) and (
        score is None or not (_beyond(score.NS) or _beyond(score.EW))
    ):  # the usual case, told without a loop
        return
    for what, scores in (("points", points), ("score", score)):
        if scores is not None and (_beyond(scores.NS) or _beyond(scores.EW)):
            message = (
                f"the recorded {what} NS {scores.NS} EW {scores.EW} are beyond any real match "
                f"({limit})"
            )
            extra.append(make_finding("VALUE_OUT_OF_RANGE", number, None, message))


def _match_out_of_range(match: MatchLike) -> list[Finding]:
    """The match's recorded numbers that no real match holds."""
    out: list[Finding] = []
    limit = _LIMIT
    if len(match.deals) > LARGEST_RECORDED:
        message = f"the match has {len(match.deals):,} deals, beyond any real match ({limit})"
        out.append(make_finding("VALUE_OUT_OF_RANGE", None, None, message))
    score = match.result.score if match.result is not None else None
    if score is not None and (_beyond(score.NS) or _beyond(score.EW)):
        message = (
            f"the recorded final score NS {score.NS} EW {score.EW} is beyond any real match "
            f"({limit})"
        )
        out.append(make_finding("VALUE_OUT_OF_RANGE", None, None, message))
    return out


def _compare_match(match: MatchLike, table: MatchState) -> list[Finding]:
    result = match.result
    if result is None:
        return []
    out: list[Finding] = []
    theirs = result.score.NS, result.score.EW
    ours = table.score[_NS], table.score[_EW]
    if theirs != ours:
        out.append(_team_mismatch("MATCH_SCORE_MISMATCH", None, "final score", theirs, ours))
    if result.winner != table.winner:
        out.append(
            make_finding(
                "WINNER_MISMATCH",
                None,
                None,
                f"recorded winner {result.winner or 'none'}, replayed {table.winner or 'none'}",
            )
        )
    return out


_LADDER: Final[tuple[str | None, ...]] = (None, "double", "redouble", "set")
_PLAYED: Final = tuple((seat, card) for seat in SEATS for card in ALL_CARDS)


_MODES: Final = {MODE_NO_TRUMP: "no_trump", MODE_REVERSE: "reverse"}
_new_facts: Final = tuple.__new__
_TRUMP_LETTER: Final[tuple[str, ...]] = ("S", "H", "D", "C")


def _facts(
    state: DealState,
    number: int,
    thrown_in: str | None,
    change: dict[Team, int],
    score_after: dict[Team, int],
    outcome: DealOutcome,
) -> DealFacts:
    show = (
        _new_facts(ShowFacts, (state.show_action, SEATS[state.asker], state.show_trick + 1))
        if state.shown
        else None
    )
    called = state.caller >= 0
    over = state.is_over
    trump = state.trump
    pairs = state.pairs
    # tuple.__new__ with the fields in order: a named tuple's own __new__ binds 21 arguments
    # in Python, a cost paid once a deal
    return _new_facts(
        DealFacts,
        (
            number,
            SEATS[state.dealer],
            SEATS[state.caller] if called else None,
            state.call if called else None,
            _TRUMP_LETTER[trump] if 0 <= trump < 4 else None,
            _MODES.get(state.trump_mode),
            state.seventh,
            show,
            TrickList(state.tricks),  # the state is dropped: nothing else changes the list
            outcome.points,  # {NS: points, EW: points}, made for this deal and not kept
            state.target if called else None,
            state.stake,
            _LADDER[state.doubled],
            tuple([PairFacts(SEATS[s], a, d) for s, a, d in pairs]) if pairs else (),
            SEATS[state.single] if state.single >= 0 else None,
            thrown_in,
            outcome.made if thrown_in is None and over else None,
            change,
            score_after,
            state.played_out or thrown_in is not None,
            over or thrown_in is not None,
        ),
    )
