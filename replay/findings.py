"""Findings: what the auditor reports, each with a stable code from :data:`CATALOGUE`.

A finding names the deal (1-based), the action (0-based index in that deal's ``actions``, or
None for the deal as a whole) and a message that names the seat, the card or bid and the
rule. The CLI puts ``file:deal:action:`` in front of the message.

>>> f = Finding("REVOKE", "error", 3, 17, "S played 9D holding JS: must follow spades")
>>> f.to_dict()["code"], str(f)
('REVOKE', 'deal 3, action 17: S played 9D holding JS: must follow spades')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Severity = Literal["error", "warning"]

LARGEST_RECORDED: Final = 32_767
"""The largest number (points, score, count of deals or actions) a log may record before the
auditor calls it out of range: what the warehouse's SMALLINT columns hold."""


@dataclass(frozen=True, slots=True)
class Code:
    """One entry of the catalogue: a code's severity, meaning, example and the rule it cites."""

    severity: Severity
    meaning: str
    example: str
    rule: str


def _c(severity: Severity, meaning: str, example: str, rule: str) -> Code:
    return Code(severity, meaning, example, rule)


# The catalogue. docs/findings.md documents every code (a test keeps the two in step).
CATALOGUE: Final[dict[str, Code]] = {
    # --- turn and phase
    "OUT_OF_TURN": _c(
        "error",
        "An action by a seat whose turn it is not (or a trump chosen by a seat that is not the "
        "caller).",
        "W played 7C but it is N's turn to play",
        "Bidding and play go round in the rules' direction from P1; a trick's winner leads the "
        "next (every seed).",
    ),
    "ACTION_OUT_OF_PHASE": _c(
        "error",
        "An action the deal's phase does not allow: a bid during play, a card before the trump "
        "is chosen, a trump before the auction ends.",
        "S played 9D but the auction is not over",
        "A deal runs: four cards, auction, trump, doubling, four more, single hand, tricks "
        "(seed 000 §3-9).",
    ),
    "ACTION_AFTER_DEAL_END": _c(
        "error",
        "An action after the deal ended: thrown in, all eight tricks played, or a single hand's "
        "first trick lost. Reported once per deal; the rest of the deal's actions are not "
        "audited.",
        "E bid 17 after the deal was thrown in (all_pass)",
        "A thrown-in deal is over at once and the deal passes on; a deal has eight tricks; the "
        "first trick a single hand loses ends the deal (seed 000 §9).",
    ),
    "MISSING_ACTION": _c(
        "warning",
        "A likely gap in the log: one show, pass or card inserted before the deal's first "
        "error makes the rest of the deal legal. The errors that follow are still reported, "
        "as the log stands.",
        "a show by E seems to be missing before action 12: with it the rest of the deal is legal",
        "A log records every action (the match-log contract); the auditor tries each show, "
        "pass or card legal at the first error, and one before it.",
    ),
    # --- auction
    "BID_TOO_LOW": _c(
        "error",
        "A bid below the minimum bid, or not above the standing bid (only the senior duelist "
        "may equal it, as a Ditto).",
        "S bid 17 after W's 17: a bid must be higher than the standing bid",
        "Bids run from min_bid to max_bid, each above the standing bid; only the duel's senior "
        "may equal it (seeds 000 §4, 001 §3, 002).",
    ),
    "BID_TOO_HIGH": _c(
        "error",
        "A bid above the maximum bid.",
        "S bid 29: the highest bid is 28",
        "max_bid: 28 in every preset.",
    ),
    "DITTO_NOT_ALLOWED": _c(
        "error",
        "A Ditto outside a duel, by the junior duelist, or with no standing bid to equal.",
        "E said ditto but only the senior duelist may equal the standing bid",
        "Duel: the senior may say Ditto; the junior must bid higher or pass (seed 000 §4).",
    ),
    "FORCED_BID": _c(
        "error",
        "After the first three passed, the dealer did not take the call at the minimum bid.",
        "N bid 17 after three passes: the dealer takes the call at 16",
        "First three pass: the dealer takes min_bid (seeds 001 §3, 002; bhoos: 16).",
    ),
    "REDEAL_NOT_ALLOWED": _c(
        "error",
        "A redeal asked for where the rules do not allow one, after the auction, or with points "
        "in the first four cards.",
        "E asked for a redeal holding JS in the first four: only a hand without points may",
        "zero_point_throw_in on_request: any player without points in the first four (seed 003 "
        "§7 variant).",
    ),
    # --- trump
    "TRUMP_CHOICE_INVALID": _c(
        "error",
        "A trump choice the rules do not allow: the seventh card, no trump or reverse where "
        "off; an own card not in the first four or not of the named suit; a suit that "
        "contradicts the seventh card.",
        "W chose hearts with 9S as its card: the face-down card must be of the trump suit",
        "The trump from the first four; the seventh card (seeds 000 §5, 002); the caller's own "
        "card face down (seed 003 §3, §7); no trump and reverse (seed 002 variants).",
    ),
    "DOUBLE_NOT_ALLOWED": _c(
        "error",
        "A Double where the rules have none, by the caller's side, a second time, or after the "
        "second four cards were dealt.",
        "S doubled but S is on the caller's side",
        "Double: an opponent of the caller, after the trump, before the second four (seed 000 §6).",
    ),
    "REDOUBLE_NOT_ALLOWED": _c(
        "error",
        "A Redouble where the rules have none, without a Double, or by the doubling side.",
        "E redoubled but nobody has doubled",
        "Redouble: after a Double, the caller or the partner (seed 000 §6).",
    ),
    "SET_NOT_ALLOWED": _c(
        "error",
        "A Set where the rules have none, without a Redouble, or by the caller's side.",
        "N said set but these rules have no Set",
        "Set: where allowed, the doubling side answers a Redouble (seeds 000 §6, 002).",
    ),
    "SINGLE_HAND_NOT_ALLOWED": _c(
        "error",
        "Single hand where the rules have none, twice, or after the first card was played.",
        "E declared single hand but these rules have no single hand",
        "Single hand: after all eight cards are dealt, before the lead (seeds 000 §9, 002).",
    ),
    # --- play
    "CARD_NOT_HELD": _c(
        "error",
        "A card played that the seat does not hold (another seat holds it, or the seat's "
        "remaining cards are all known and it is not among them).",
        "S played 9D, which E holds",
        "A player plays from their own hand.",
    ),
    "CARD_ALREADY_PLAYED": _c(
        "error",
        "A card played a second time in the deal.",
        "S played 9D, which was already played in trick 2",
        "Each of the 32 cards is played once.",
    ),
    "REVOKE": _c(
        "error",
        "A failure to follow suit while holding the suit led. With hidden hands it is proved "
        "when the seat later plays a card of that suit; the finding then points at the failure.",
        "S played 9D holding JS: must follow spades",
        "Follow suit if you can (every seed); classic29: the revoking side loses the deal (seed "
        "003 §7).",
    ),
    "TRUMP_CARD_PLAYED_EARLY": _c(
        "error",
        "The face-down trump card (own card or seventh card) played before the trump was shown "
        "while it was not the caller's last card. Once played, it is no longer face down.",
        "S played 7H, the face-down trump card, before the trump was shown",
        "The face-down trump card is played only once the trump is shown, or as the caller's "
        "last card (seed 003 §7; our reading for the seventh card).",
    ),
    "SHOW_NOT_ALLOWED": _c(
        "error",
        "A show by the leader of the trick, after the trump was already shown, before the trump "
        "was chosen, or in a single hand.",
        "E asked for the trump while leading: the leader never shows the trump",
        "Only a player who cannot follow asks, never the leader, once a deal; a single hand has "
        "no trump (seed 000 §7, §9).",
    ),
    "SHOW_WHILE_ABLE_TO_FOLLOW": _c(
        "error",
        "A show by a seat that could follow suit (proved at once, or later when the seat plays "
        "the suit).",
        "W asked for the trump holding KS: only a player who cannot follow may ask",
        "Only a player who cannot follow may ask for the trump (seeds 000 §7, 002, 003 §5).",
    ),
    "SHOW_REQUIRED": _c(
        "error",
        "Compulsory show: a seat that did not follow suit played without asking for the hidden "
        "trump.",
        "E played 7C on a spade lead without asking for the trump: the first player who cannot "
        "follow must ask",
        "show_trump compulsory: the first player who cannot follow asks (seed 002; standard).",
    ),
    "SHOW_SUIT_MISMATCH": _c(
        "error",
        "The suit recorded at the show differs from the trump recorded at the choice.",
        "N shows clubs but the caller chose hearts",
        "The trump shown is the trump the caller chose.",
    ),
    "MUST_TRUMP_AFTER_SHOW": _c(
        "error",
        "The seat that asked for the trump then did not play a trump while holding one "
        "(a seat that asked while able to follow owes no trump: it must follow suit).",
        "W played 8D after asking, holding 9H: must play a trump after asking",
        "must_trump_after_show: after asking, play a trump if you have one (seeds 000 §7, 003 "
        "§5; bhoos).",
    ),
    "MUST_OVERTRUMP_AFTER_SHOW": _c(
        "error",
        "bhoos: the asker did not beat an opponent's winning trump while holding a higher trump.",
        "W played 7H after asking, holding JH, while E's AH wins: must beat an opponent's "
        "winning trump",
        "must_overtrump_after_show (bhoos server): the asker beats an opponent's winning trump "
        "if able.",
    ),
    "SEVENTH_CARD_NOT_PLAYED": _c(
        "error",
        "Pagat seventh card: the caller turned up the seventh card but played another card "
        "(not when it could follow suit: following comes first).",
        "S played 8C after turning up the seventh card: turning it up plays it (7D)",
        "Seventh card, Pagat form: turning it up declares trumps and plays it to the trick "
        "(seed 002).",
    ),
    "PAIR_NOT_ALLOWED": _c(
        "error",
        "A Pair where the rules have none, before the trump was shown, at the wrong moment for "
        "the rules' timing, with no trump suit, or a second time.",
        "N showed the Pair but the trump has not been shown",
        "The Pair: only after the show, at the preset's moment (pair option; seeds 000 §8, 002, "
        "003 §5).",
    ),
    "PAIR_NOT_HELD": _c(
        "error",
        "A Pair by a seat that does not hold both the King and the Queen of trumps.",
        "N showed the Pair but KH was played in trick 3",
        "The Pair: King and Queen of trumps, both still held (seeds 000 §8, 002).",
    ),
    # --- deal as a whole
    "HANDS_INVALID": _c(
        "error",
        "The recorded hands name a card twice; the second is treated as unknown.",
        "JS is dealt to both N and E",
        "32 different cards, eight to each seat.",
    ),
    "DEALER_OUT_OF_TURN": _c(
        "error",
        "The deal's dealer is not the seat after the previous deal's dealer.",
        "the dealer is S but after E's deal the deal passes to N",
        "The deal passes to the next player after every deal, thrown-in deals included (seed "
        "000 §3).",
    ),
    "DEAL_INCOMPLETE": _c(
        "error",
        "A deal whose actions stop before it is decided, while later deals follow or a result "
        "is recorded for it.",
        "the deal stops after 5 tricks, before it is decided",
        "Eight tricks, or where end_when_decided, until the result can no longer change (seed "
        "000 §10).",
    ),
    "PLAY_AFTER_MATCH_END": _c(
        "error",
        "A deal played after a team had already won the match.",
        "deal 14 is played after NS won the match at +6",
        "A team wins at +match_target and loses at -match_target (6 in every preset).",
    ),
    "POINTS_MISMATCH": _c(
        "error",
        "The recorded card points differ from the points in the tricks as replayed.",
        "recorded points NS 16 EW 12, replayed NS 15 EW 13",
        "Card points J 3, 9 2, A 1, 10 1 (28), plus last_trick_bonus for the last trick.",
    ),
    "SCORE_MISMATCH": _c(
        "error",
        "The recorded match score after the deal differs from the replayed one.",
        "recorded score NS 2 EW 0, replayed NS 1 EW 0",
        "The caller's side gains or loses the stake (doubled, single hand, under half, revoke "
        "penalty); the defenders' score never moves.",
    ),
    "THROWN_IN_MISMATCH": _c(
        "error",
        "The recorded throw-in (or its absence) contradicts the replay.",
        "recorded thrown in (all_pass), replayed: played out",
        "Throw-ins: zero-point first four, all pass, seventh card without a scoring trump, "
        "opponents without trump, trump never shown (seed 000 §3-7), redeal.",
    ),
    "MATCH_SCORE_MISMATCH": _c(
        "error",
        "The match's recorded final score differs from the replayed one.",
        "recorded final score NS 6 EW -2, replayed NS 5 EW -2",
        "The match score is the sum of the deals' score changes.",
    ),
    "WINNER_MISMATCH": _c(
        "error",
        "The match's recorded winner differs from the replayed one.",
        "recorded winner EW, replayed NS",
        "A team wins at +match_target and loses at -match_target.",
    ),
    # --- numbers beyond any real match
    "VALUE_OUT_OF_RANGE": _c(
        "error",
        "A recorded number no real match holds: card points or a score beyond "
        f"±{LARGEST_RECORDED:,}, or more than {LARGEST_RECORDED:,} deals in a match or actions "
        "in a deal (`twentynine load` keeps points and scores as recorded, and skips a match "
        "with more deals or actions than that).",
        "the recorded points NS 40000 EW 0 are beyond any real match (at most 32,767)",
        "A deal has 28 card points (plus any last-trick bonus); a match ends at ±6.",
    ),
    # --- warnings
    "PARTIAL_HANDS": _c(
        "warning",
        "Some cards of the deal were not recorded: holding and follow-suit checks use what the "
        "plays reveal, and some breaches cannot be proved.",
        "hands not fully recorded (E: 8 unknown, W: 3 unknown): breaches are judged from the plays",
        "LOG-FORMAT: null cards and missing seats are cards the recorder did not see.",
    ),
    "TRUMP_UNKNOWN": _c(
        "warning",
        "The trump was shown but its suit was never recorded nor could be inferred: trick "
        "winners with trumps and trump rules are not checked.",
        "the trump suit is not recorded: trick winners after the show are taken from the log",
        "LOG-FORMAT: a trump recorded as null until shown.",
    ),
    "UNVERIFIED": _c(
        "warning",
        "Something the rules require that the recorded cards cannot confirm: a throw-in claimed "
        "on unseen cards, a Pair or redeal by a seat whose cards are unknown, a face-down card "
        "not recorded.",
        "the deal is recorded as thrown in (zero_point) but P1's first four are not recorded",
        "LOG-FORMAT: partial information is reported, never judged as a breach.",
    ),
    "IGNORED_FIELD": _c(
        "warning",
        "A recorded field the rules give no meaning to; it is ignored.",
        "the trump action names a card but these rules use a separate marker",
        "LOG-FORMAT: trump.card is the face-down card only where it is one of the caller's own.",
    ),
    "THROWN_IN_REASON": _c(
        "warning",
        "The deal is thrown in as recorded, but the recorded reason is not one the engine knows "
        "or differs from the replayed one.",
        "recorded reason 'misdeal', replayed all_pass",
        "Throw-in reasons the engine gives: zero_point, redeal, all_pass, "
        "seventh_no_scoring_trump, opponents_no_trump, never_shown.",
    ),
    "DATE_UNREADABLE": _c(
        "warning",
        "The match's meta names when it began (start, started_at, start_time, started or date) "
        "but not as a date it can be read as: the match has no date, and `--since`, `--until` "
        "and the reports' periods leave it out.",
        "meta.date '2026-02-30' is not a date (YYYY-MM-DD, or an ISO 8601 time): the match "
        "has no date",
        "LOG-FORMAT: meta is free provenance; a start under those keys is read as ISO 8601 "
        "(a day alone: midnight UTC).",
    ),
    "MATCH_ABANDONED": _c(
        "warning",
        "The log's last deal stops before it is decided and records no result: the match was "
        "left unfinished.",
        "the last deal stops after 3 tricks with no recorded result",
        "Every deal is played out; a log may stop mid-match.",
    ),
}

CODES: Final[tuple[str, ...]] = tuple(CATALOGUE)

# A seat's faults at the arena (replay/arena.py): not breaches found in a log, but answers a
# bot gave, or failed to give, the referee. Listed in docs/findings.md after the catalogue.
SEAT_FAULTS: Final[dict[str, Code]] = {
    "SEAT_TIMEOUT": _c(
        "error",
        "The seat did not answer within its time (the request's limit, or its bank).",
        "E timed out on /play after 1000 ms: played 7H for it",
        "docs/arena.md: 1,000 ms a request by default; --bank-ms gives a bank per deal.",
    ),
    "SEAT_ILLEGAL_CALL": _c(
        "error",
        "A bid or a trump the rules do not allow now.",
        "S bid 16 after E's 17: not allowed now; passed for it",
        "RULES.md, the bhoos preset: bids 16 to 28 and above the standing bid (the defender "
        "may equal it), 0 a pass; the caller names a suit.",
    ),
    "SEAT_ILLEGAL_CARD": _c(
        "error",
        "A card the seat does not hold, or may not play now (it must follow suit, or trump "
        "after asking).",
        "W played 9D: W played 9D holding JS: must follow spades",
        "RULES.md, the bhoos preset: follow suit; the asker must trump, and overtrump an "
        "opponent's trump.",
    ),
    "SEAT_ILLEGAL_REVEAL": _c(
        "error",
        "A request to show the trump the rules do not allow: by the leader, by a seat that can "
        "follow suit, or (with no card) after the trump was shown.",
        "N asked for the trump, but it can follow suit",
        "RULES.md, the bhoos preset: only a seat that cannot follow may ask, never the leader.",
    ),
    "SEAT_GARBAGE": _c(
        "error",
        "An answer that is not a JSON object, a field of the wrong type, or an HTTP status "
        "other than 200.",
        "N answered /bid with 'ok' (not a JSON object)",
        'docs/arena.md: answers {"bid": n}, {"suit": s}, {"card": c} or {"revealTrump": true}.',
    ),
    "SEAT_MISSING_FIELD": _c(
        "error",
        "A JSON object without the field the call needs (bid, suit or card), or null there.",
        "E answered /play without a card",
        "docs/arena.md: each call's answer and its field.",
    ),
    "SEAT_REFUSED": _c(
        "error",
        "The seat's address refused the connection (nothing listens there).",
        "N refused the connection to http://127.0.0.1:8001",
        "docs/arena.md: a seat's URL must answer GET /hi and the three calls.",
    ),
    "SEAT_DIED": _c(
        "error",
        "The connection closed or was reset before an answer came: the bot died or dropped it.",
        "W closed the connection before answering /play",
        "docs/arena.md: a seat answers every request while the match lasts.",
    ),
}


@dataclass(frozen=True, slots=True)
class Finding:
    """One breach or doubt: a stable code, severity, deal (1-based), action (0-based), message.

    >>> Finding("OUT_OF_TURN", "error", 1, 0, "E bid 16 but it is S's turn to speak").severity
    'error'
    """

    code: str
    severity: Severity
    deal: int | None
    action: int | None
    message: str

    def to_dict(self) -> dict[str, object]:
        """The finding as a JSON-ready dict (the CLI adds ``file`` and ``match``)."""
        return {
            "deal": self.deal,
            "action": self.action,
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
        }

    def __str__(self) -> str:
        where = f"deal {self.deal}" if self.deal is not None else "match"
        if self.action is not None:
            where += f", action {self.action}"
        return f"{where}: {self.message}"


def make_finding(code: str, deal: int | None, action: int | None, message: str) -> Finding:
    """A finding whose severity comes from the catalogue."""
    return Finding(code, CATALOGUE[code].severity, deal, action, message)


class AuditError(Exception):
    """Raised by a strict audit at the first error finding; ``finding`` is that finding."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(str(finding))
        self.finding = finding


def catalogue_markdown() -> str:
    """docs/findings.md: every code with its severity, meaning, example message and rule."""
    lines = [
        "# Findings",
        "",
        "What `twentynine audit` reports. Each finding has a stable `code`, a `severity`",
        "(`error`: a breach of the rules or a recorded result the replay contradicts; `warning`:",
        "suspicious but legal, or not checkable from what was recorded), the 1-based `deal`, the",
        "0-based `action` index in that deal's `actions` (empty for a finding about the deal or",
        "the match as a whole) and a `message` naming the seat, the card or bid, and the rule.",
        "The auditor never stops at the first breach: it records it and goes on as the table",
        "went on (`--strict` stops at the first error).",
        "",
        "With hidden cards the auditor infers what the plays show (a card played was held) and",
        "proves a breach later when it can: a seat that failed to follow and later plays that",
        "suit is reported at the failure. What cannot be checked is a warning, never an error.",
        "",
        "This page is generated from `replay.findings.CATALOGUE` (a test keeps them equal).",
        "",
        "| code | severity | meaning |",
        "|---|---|---|",
    ]
    for code, entry in CATALOGUE.items():
        lines.append(f"| [`{code}`](#{code.lower()}) | {entry.severity} | {entry.meaning} |")
    for code, entry in CATALOGUE.items():
        lines += [
            "",
            f"## {code}",
            "",
            f"- severity: {entry.severity}",
            f"- meaning: {entry.meaning}",
            f"- example: `{entry.example}`",
            f"- rule: {entry.rule}",
        ]
    lines += [
        "",
        "## Seat faults (twentynine arena)",
        "",
        "What `twentynine arena` reports about a bot at its table (docs/arena.md): each fault",
        "is kept in the match's `meta.arena.faults` with the request and the answer, and the",
        "move is made for the seat by the documented default.",
        "",
        "| code | severity | meaning |",
        "|---|---|---|",
    ]
    for code, entry in SEAT_FAULTS.items():
        lines.append(f"| [`{code}`](#{code.lower()}) | {entry.severity} | {entry.meaning} |")
    for code, entry in SEAT_FAULTS.items():
        lines += [
            "",
            f"### {code}",
            "",
            f"- severity: {entry.severity}",
            f"- meaning: {entry.meaning}",
            f"- example: `{entry.example}`",
            f"- rule: {entry.rule}",
        ]
    return "\n".join(lines) + "\n"
