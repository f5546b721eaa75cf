"""A compact text notation for matches that people can type and read (``.29``, ``.txt``).

In the spirit of PBN for bridge: tags in square brackets for what is said once, then for
each deal the hands, the actions in order (the auction, then the play trick by trick) and
the result. The full grammar, with an example, is in ``docs/formats.md``::

    [Match "club-t3"]
    [Rules "bangladesh" set=true]
    [North "Rahim"]
    [East "Karim"]
    [South "Mitu"]
    [West "Joy" id="u-77"]

    [Deal 1]
    [Dealer "N"]
    [Hands]
    N: JD 9C AH QS  TS KD 7H 8D
    W 16  S 17  W ditto  S pass
    N pass  E pass  W trump=H
    1. W AS {probing spades}  S 8C  E 7S  N QS
    [Points NS=12 EW=16]

Tag values are JSON values (``"text"``, numbers, ``true``, ``null``, objects) or bare words
(``N``, ``bangladesh``); ``key=value`` pairs follow the first value. In the actions, ``@123``
is the action's time, ``{...}`` its note (``\\}``, ``\\\\`` and ``\\n`` escape), ``?`` an unknown
card or suit, and ``;`` starts a comment. Line breaks and trick numbers (``1.``) are only
layout. Writing a match and reading it back gives the same canonical JSON.

>>> [record] = parse_text('[Rules "pagat"]\\n[North "a"]\\n[East "b"]\\n[South "c"]\\n[West "d"]')
>>> record.match.rules, record.match.deals
('pagat', [])
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Final

from pydantic import ValidationError

from twentynine.importers.canonical import Record
from twentynine.importers.errors import InputProblem, describe_validation_error
from twentynine.importers.notation import parse_card
from twentynine.schema.cards import Seat
from twentynine.schema.log import Action, Deal, MatchLog, PlayerRef
from twentynine.schema.words import plural

FORMAT = "text"
EXTENSIONS: Final = (".29", ".txt")
MAX_DEPTH: Final = 64
_SEAT_TAGS: Final[dict[str, Seat]] = {
    "North": Seat.N,
    "East": Seat.E,
    "South": Seat.S,
    "West": Seat.W,
}
_TAG_OF_SEAT: Final = {seat: tag for tag, seat in _SEAT_TAGS.items()}
_MATCH_TAGS: Final = frozenset({"Match", "Rules", "Meta", "Result", *_SEAT_TAGS})
_DEAL_TAGS: Final = frozenset(
    {"Deal", "Dealer", "Hands", "Points", "Score", "ThrownIn", "DealResult"}
)
_SIMPLE_VERBS: Final = frozenset(
    {"pass", "ditto", "double", "redouble", "set", "single_hand", "redeal", "pair"}
)
_OPTIONS: Final[dict[str, frozenset[str]]] = {
    "trump": frozenset({"suit", "seventh", "card", "mode"}),
    "show": frozenset({"suit"}),
}
_TAG = re.compile(r"\[([A-Za-z][A-Za-z0-9_]*)")
_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=")
_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_INTEGER = re.compile(r"[+-]?[0-9]+")
_BARE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+\-]*")
_TRICK_NUMBER = re.compile(r"[0-9]+\.")
_SEATS: Final = ("N", "E", "S", "W")
_HAND_LINE = re.compile(r"([NESW]):(.*)")
_SNIFF = re.compile(rb"\s*\[(Match|Rules|North|East|South|West|Meta|Result|Deal|Dealer)\b")


# ---------------------------------------------------------------- writing


def format_match(match: MatchLog) -> str:
    """The match in text notation; reading it back gives the same canonical JSON.

    >>> from twentynine.schema.log import MatchLog
    >>> m = MatchLog.model_validate({"format": "twentynine.match", "version": 1,
    ...     "rules": "pagat", "players": {"N": "a", "E": "b", "S": "c", "W": "d"},
    ...     "deals": [{"dealer": "N", "actions": [{"seat": "E", "type": "bid", "value": 15}]}]})
    >>> print(format_match(m), end="")
    [Match]
    [Rules "pagat"]
    [North "a"]
    [East "b"]
    [South "c"]
    [West "d"]
    <BLANKLINE>
    [Deal 1]
    [Dealer "N"]
    E 15
    """
    given = match.model_fields_set
    lines = [f"[Match {_json(match.id)}]" if "id" in given else "[Match]"]
    lines.append(_rules_tag(match.rules))
    for seat, player in match.players.items():
        if isinstance(player, PlayerRef):
            lines.append(f"[{_TAG_OF_SEAT[seat]} {_json(player.name)} id={_json(player.id)}]")
        else:
            lines.append(f"[{_TAG_OF_SEAT[seat]} {_json(player)}]")
    if "meta" in given:
        lines.append(f"[Meta {_json(match.meta)}]")
    if "result" in given:
        if match.result is None:
            lines.append("[Result null]")
        else:
            score = match.result.score
            winner = ""
            if "winner" in match.result.model_fields_set:
                winner = f" winner={_json(match.result.winner)}"
            lines.append(f"[Result NS={score.NS} EW={score.EW}{winner}]")
    for number, deal in enumerate(match.deals, 1):
        lines.extend(["", f"[Deal {number}]", f'[Dealer "{deal.dealer.value}"]'])
        lines.extend(_hand_lines(deal))
        lines.extend(_action_lines(deal.actions))
        lines.extend(_deal_result_lines(deal))
    return "\n".join(lines) + "\n"


def write_text(matches: Iterable[MatchLog], stream: BinaryIO) -> int:
    """Write matches in text notation, a blank line between them; returns how many."""
    count = 0
    for match in matches:
        if count:
            stream.write(b"\n")
        stream.write(format_match(match).encode("utf-8"))
        count += 1
    return count


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _rules_tag(rules: str | dict[str, Any]) -> str:
    if isinstance(rules, str):
        return f"[Rules {_json(rules)}]"
    keys = list(rules)
    plain = all(_KEY.fullmatch(f"{key}=") for key in keys)
    if len(keys) > 1 and keys[0] == "preset" and plain:
        options = " ".join(f"{key}={_json(rules[key])}" for key in keys[1:])
        return f"[Rules {_json(rules['preset'])} {options}]"
    return f"[Rules {_json(rules)}]"


def _hand_lines(deal: Deal) -> list[str]:
    if "hands" not in deal.model_fields_set:
        return []
    if deal.hands is None:
        return ["[Hands null]"]
    lines = ["[Hands]"]
    for seat, cards in deal.hands.items():
        texts = [card.text if card is not None else "?" for card in cards]
        lines.append(f"{seat.value}: {' '.join(texts[:4])}  {' '.join(texts[4:])}")
    return lines


def _action_lines(actions: list[Action]) -> list[str]:
    lines: list[str] = []
    current: list[str] = []
    plays = 0
    for action in actions:
        starts_trick = action.type == "play" and plays % 4 == 0
        if current and (starts_trick or (plays == 0 and len(current) == 4)):
            lines.append("  ".join(current))
            current = []
        text = _action_text(action)
        current.append(f"{plays // 4 + 1}. {text}" if starts_trick else text)
        plays += action.type == "play"
    if current:
        lines.append("  ".join(current))
    return lines


def _action_text(action: Action) -> str:
    given = action.model_fields_set
    words = [action.seat.value]
    if action.type == "bid":
        words.append(str(action.value))
    elif action.type == "play":
        words.append(action.card.text)
    elif action.type in ("trump", "show"):
        suit = ""
        if "suit" in given:
            suit = "=" + (action.suit.value if action.suit is not None else "?")
        words.append(action.type + suit)
        if action.type == "trump":
            for key in ("seventh", "card", "mode"):
                if key in given:
                    value = getattr(action, key)
                    words.append(f"{key}={_json(value.text if key == 'card' and value else value)}")
    else:
        words.append(action.type)
    if "t" in given:
        words.append(f"@{action.t}" if action.t is not None else "t=null")
    if "note" in given:
        words.append(_note(action.note) if action.note is not None else "note=null")
    return " ".join(words)


def _note(note: str) -> str:
    escaped = note.replace("\\", "\\\\").replace("}", "\\}").replace("\n", "\\n")
    return "{" + escaped.replace("\r", "\\r") + "}"


def _deal_result_lines(deal: Deal) -> list[str]:
    if "result" not in deal.model_fields_set:
        return []
    if deal.result is None:
        return ["[DealResult null]"]
    given = deal.result.model_fields_set
    lines: list[str] = []
    for key, tag in (("points", "Points"), ("score", "Score")):
        if key in given:
            scores = getattr(deal.result, key)
            lines.append(f"[{tag} NS={scores.NS} EW={scores.EW}]" if scores else f"[{tag} null]")
    if "thrown_in" in given:
        lines.append(f"[ThrownIn {_json(deal.result.thrown_in)}]")
    return lines or ["[DealResult]"]


# ---------------------------------------------------------------- reading


class _BadTextError(ValueError):
    """A problem with one line of text; the reader turns it into an InputProblem."""


def looks_like_text(head: bytes) -> bool:
    """Whether the start of a file looks like this notation (its first tag is a known one).

    >>> looks_like_text(b"; a comment\\n[Rules \\"bhoos\\"]"), looks_like_text(b"[null]")
    (True, False)
    """
    for raw in head.splitlines():
        stripped = raw.strip().lstrip(b"\xef\xbb\xbf")
        if not stripped or stripped[:1] in (b";", b"%"):
            continue
        return _SNIFF.match(stripped) is not None
    return False


def parse_text(text: str, source: str = "<text>") -> list[Record[MatchLog]]:
    """Read matches from a string (convenience over :func:`read_stream`)."""
    return list(read_stream(text.encode("utf-8").splitlines(keepends=True), source))


def read_stream(stream: Iterable[bytes], source: str) -> Iterator[Record[MatchLog]]:
    """Read matches in text notation from a binary stream of lines: one record per match.

    Every problem names the file and line; a match with a problem is skipped, the others
    are read.
    """
    builder = _Builder(source, 1)
    seen_any = False
    for number, raw in enumerate(stream, 1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            builder.problem(number, f"invalid UTF-8 at byte {exc.start}")
            continue
        if number == 1:
            line = line.removeprefix("\ufeff")
        line = line.rstrip("\n").removesuffix("\r")
        stripped = line.strip()
        if not stripped or stripped[0] in ";%":
            continue
        seen_any = True
        if stripped.startswith("[Match") and _TAG.match(stripped)[1] == "Match":  # type: ignore[index]
            if builder.started:
                yield builder.finish()
                builder = _Builder(source, number)
            builder.start_line = number
        builder.started = True
        try:
            builder.feed(number, stripped)
        except _BadTextError as exc:
            builder.problem(number, str(exc))
    if builder.started or builder.problems:
        yield builder.finish()
    elif not seen_any:
        yield Record(source, None, None, (InputProblem(source, None, None, "empty input"),))


@dataclass
class _Builder:
    """One match being read: the document so far, its problems, and where things were."""

    source: str
    start_line: int
    started: bool = False
    doc: dict[str, Any] = field(default_factory=dict)
    players: dict[str, Any] = field(default_factory=dict)
    deals: list[dict[str, Any]] = field(default_factory=list)
    tokens: list[tuple[int, bool, str]] = field(default_factory=list)
    problems: list[InputProblem] = field(default_factory=list)
    lines: dict[str, int] = field(default_factory=dict)

    def problem(self, line: int, reason: str) -> None:
        self.problems.append(InputProblem(self.source, line, None, reason))

    @property
    def deal(self) -> dict[str, Any] | None:
        return self.deals[-1] if self.deals else None

    def feed(self, number: int, text: str) -> None:
        if text.startswith("["):
            self.tag(number, *_parse_tag(text))
            return
        if self.deal is None:
            raise _BadTextError("hands and actions belong in a deal: start it with [Deal]")
        hand = _HAND_LINE.fullmatch(text)
        if hand:
            self.hand(number, hand[1], hand[2])
            return
        self.tokens.extend((number, is_note, word) for is_note, word in _tokens(text))

    def tag(self, number: int, name: str, args: list[Any], options: dict[str, Any]) -> None:
        deal = self.deal
        if name in _MATCH_TAGS:
            if deal is not None:
                raise _BadTextError(f"[{name}] belongs before the first [Deal]")
            self.match_tag(number, name, args, options)
        elif name in _DEAL_TAGS:
            if name == "Deal":
                _expect(name, args, options, max_args=1)
                if args and (not isinstance(args[0], int) or isinstance(args[0], bool)):
                    raise _BadTextError("[Deal] takes the deal's number, e.g. [Deal 2]")
                self.end_deal()
                self.deals.append({"actions": []})
                self.lines[f"deals[{len(self.deals) - 1}]"] = number
                return
            if deal is None:
                raise _BadTextError(f"[{name}] belongs in a deal: start it with [Deal]")
            self.deal_tag(number, deal, name, args, options)
        else:
            raise _BadTextError(f"unknown tag [{name}]; free information goes in [Meta]")

    def match_tag(self, number: int, name: str, args: list[Any], options: dict[str, Any]) -> None:
        key = {"Match": "id", "Rules": "rules", "Meta": "meta", "Result": "result"}.get(name)
        if name in _SEAT_TAGS:
            seat = _SEAT_TAGS[name].value
            if seat in self.players:
                raise _BadTextError(f"[{name}] is given twice")
            _expect(name, args, options, args_needed=1, allowed={"id"})
            if "id" in options:
                self.players[seat] = {"name": args[0], "id": options["id"]}
            else:
                self.players[seat] = args[0]
            self.lines[f"players.{seat}"] = number
            return
        assert key is not None
        if key in self.doc:
            raise _BadTextError(f"[{name}] is given twice")
        self.lines[key] = number
        if name == "Match":
            _expect(name, args, options, max_args=1)
            if args:
                self.doc["id"] = args[0]
        elif name == "Rules":
            _expect(name, args, options, args_needed=1, allowed=None)
            self.doc["rules"] = {"preset": args[0], **options} if options else args[0]
        elif name == "Meta":
            _expect(name, args, options, args_needed=1)
            self.doc["meta"] = args[0]
        else:
            self.doc["result"] = _scores(name, args, options, extra={"winner"})

    def deal_tag(
        self, number: int, deal: dict[str, Any], name: str, args: list[Any], options: dict[str, Any]
    ) -> None:
        where = f"deals[{len(self.deals) - 1}]"
        if name == "Dealer":
            _expect(name, args, options, args_needed=1)
            _once(deal, "dealer", name)
            deal["dealer"] = args[0]
            self.lines[f"{where}.dealer"] = number
            return
        if name == "Hands":
            _expect(name, args, options, max_args=1)
            if args and args[0] is not None:
                raise _BadTextError("[Hands] is followed by one line per seat, e.g. N: JS 9S ...")
            _once(deal, "hands", name)
            deal["hands"] = None if args else {}
            self.lines[f"{where}.hands"] = number
            return
        self.lines[f"{where}.result"] = number
        if name == "DealResult":
            _expect(name, args, options, max_args=1)
            if args and args[0] is not None:
                raise _BadTextError("[DealResult] takes nothing, or null")
            _once(deal, "result", name)
            deal["result"] = None if args else {}
            return
        result = deal.setdefault("result", {})
        if not isinstance(result, dict):
            raise _BadTextError(f"[{name}] after [DealResult null]")
        key = {"Points": "points", "Score": "score", "ThrownIn": "thrown_in"}[name]
        _once(result, key, name)
        if name == "ThrownIn":
            _expect(name, args, options, args_needed=1)
            result[key] = args[0]
        else:
            result[key] = _scores(name, args, options)

    def hand(self, number: int, seat: str, text: str) -> None:
        deal = self.deal
        assert deal is not None
        hands = deal.setdefault("hands", {})
        if not isinstance(hands, dict):
            raise _BadTextError("a hand after [Hands null]")
        if seat in hands:
            raise _BadTextError(f"{seat}'s hand is given twice")
        words = text.split(";", 1)[0].split()
        if len(words) != 8:
            lists = plural(len(words), "card")
            raise _BadTextError(f"{seat}'s hand lists {lists}, not 8 (? if unseen)")
        hands[seat] = [None if word == "?" else _card(word) for word in words]
        self.lines[f"deals[{len(self.deals) - 1}].hands.{seat}"] = number

    def end_deal(self) -> None:
        deal = self.deal
        if deal is None:
            return
        index = len(self.deals) - 1
        actions = _actions(self.tokens, self.problem)
        for position, (line, _) in enumerate(actions):
            self.lines[f"deals[{index}].actions[{position}]"] = line
        deal["actions"] = [action for _, action in actions]
        self.tokens = []

    def finish(self) -> Record[MatchLog]:
        self.end_deal()
        line = self.start_line
        if "rules" not in self.doc:
            self.problem(line, "no [Rules] tag in this match")
        missing = [tag for tag, seat in _SEAT_TAGS.items() if seat.value not in self.players]
        if missing:
            self.problem(line, f'no player for {", ".join(missing)}: add [{missing[0]} "name"]')
        for index, deal in enumerate(self.deals):
            if "dealer" not in deal:
                self.problem(self.lines[f"deals[{index}]"], "no [Dealer] in this deal")
        if self.problems:
            return Record(self.source, line, None, tuple(self.problems))
        document = {
            "format": "twentynine.match",
            "version": 1,
            **self.doc,
            "players": self.players,
            "deals": self.deals,
        }
        try:
            match = MatchLog.model_validate(document)
        except ValidationError as exc:
            problems = [
                InputProblem(self.source, self._line_of(p.path), p.path, p.reason)
                for p in describe_validation_error(exc, self.source, line)
            ]
            return Record(self.source, line, None, tuple(problems))
        return Record(self.source, line, match, places=dict(self.lines))

    def _line_of(self, path: str | None) -> int:
        best, found = -1, self.start_line
        for key, number in self.lines.items():
            fits = path is not None and (path == key or path.startswith((key + ".", key + "[")))
            if fits and len(key) > best:
                best, found = len(key), number
        return found


def _expect(
    name: str,
    args: list[Any],
    options: dict[str, Any],
    *,
    args_needed: int = 0,
    max_args: int | None = None,
    allowed: frozenset[str] | set[str] | None = frozenset(),
) -> None:
    top = max_args if max_args is not None else args_needed
    if not args_needed <= len(args) <= top:
        wanted = f"{args_needed}" if args_needed == top else f"{args_needed} to {top}"
        raise _BadTextError(f"[{name}] takes {wanted} value(s), not {len(args)}")
    if allowed is not None:
        unknown = sorted(set(options) - set(allowed))
        if unknown:
            raise _BadTextError(f"[{name}] has no option {unknown[0]!r}")


def _once(container: dict[str, Any], key: str, name: str) -> None:
    if key in container:
        raise _BadTextError(f"[{name}] is given twice")


def _scores(
    name: str, args: list[Any], options: dict[str, Any], extra: set[str] | None = None
) -> dict[str, Any] | None:
    if args == [None] and not options:
        return None
    _expect(name, args, options, allowed={"NS", "EW", *(extra or set())})
    if "NS" not in options or "EW" not in options:
        raise _BadTextError(f"[{name}] needs both NS=... and EW=...")
    scores = {"NS": options.pop("NS"), "EW": options.pop("EW")}
    return {"score": scores, **options} if extra else scores


def _card(text: str) -> str:
    try:
        return parse_card(text).text
    except ValueError as exc:
        raise _BadTextError(str(exc)) from None


# -- tags and values


def _parse_tag(text: str) -> tuple[str, list[Any], dict[str, Any]]:
    head = _TAG.match(text)
    if head is None:
        raise _BadTextError('a tag is [Name value ...], e.g. [Dealer "N"]')
    name = head[1]
    args: list[Any] = []
    options: dict[str, Any] = {}
    i = head.end()
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            raise _BadTextError(f"[{name} is not closed with ]")
        if text[i] == "]":
            i += 1
            break
        key = _KEY.match(text, i)
        if key:
            i = key.end()
        end = _value_end(text, i)
        value = _value(text[i:end])
        i = end
        if key is None:
            if options:
                raise _BadTextError(f"in [{name}], plain values come before key=value pairs")
            args.append(value)
        elif key[1] in options:
            raise _BadTextError(f"in [{name}], {key[1]} is given twice")
        else:
            options[key[1]] = value
    rest = text[i:].strip()
    if rest and not rest.startswith(";"):
        raise _BadTextError(f"unexpected text after [{name} ...]: {rest[:20]!r}")
    return name, args, options


def _value_end(text: str, i: int) -> int:
    """Where the tag value starting at ``i`` ends (a JSON value, or a bare word)."""
    if i >= len(text):
        raise _BadTextError("a value is missing")
    if text[i] == '"':
        return _string_end(text, i)
    if text[i] in "[{":
        depth = 0
        j = i
        while j < len(text):
            c = text[j]
            if c == '"':
                j = _string_end(text, j)
                continue
            if c in "[{":
                depth += 1
                if depth > MAX_DEPTH:
                    raise _BadTextError(f"a value is nested deeper than {MAX_DEPTH}")
            elif c in "]}":
                depth -= 1
                if depth == 0:
                    return j + 1
            j += 1
        raise _BadTextError("a value's brackets are not closed")
    j = i
    while j < len(text) and not text[j].isspace() and text[j] != "]":
        j += 1
    return j


def _string_end(text: str, i: int) -> int:
    j = i + 1
    while j < len(text):
        if text[j] == "\\":
            j += 2
        elif text[j] == '"':
            return j + 1
        else:
            j += 1
    raise _BadTextError('a "quoted text" is not closed on its line')


def _value(text: str) -> Any:
    """One value: ``?`` (unknown), JSON, or a bare word (a string)."""
    if text == "?":
        return None
    if text[:1] in ('"', "{", "[") or text in ("true", "false", "null") or _NUMBER.fullmatch(text):
        try:
            value = json.loads(text, parse_constant=_no_constant)
        except ValueError as exc:
            raise _BadTextError(f"{text[:30]!r} is not a valid value: {exc}") from None
        _check(value)
        return value
    if _BARE.fullmatch(text):
        return text
    raise _BadTextError(f'{text[:30]!r} is not a value: put text in "quotes"')


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not allowed")


def _check(value: Any) -> None:
    """Refuse what JSON allows but a match log cannot keep."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, float) and not math.isfinite(item):
            raise _BadTextError("a number is too large")
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise _BadTextError("a text holds an unpaired surrogate escape") from None
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)


# -- actions


def _tokens(text: str) -> list[tuple[bool, str]]:
    """Split an action line into words and notes (``True`` marks a note); ``;`` ends it."""
    tokens: list[tuple[bool, str]] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c.isspace():
            i += 1
        elif c == ";":
            break
        elif c == "{":
            buffer: list[str] = []
            j = i + 1
            while j < len(text) and text[j] != "}":
                if text[j] == "\\" and j + 1 < len(text):
                    buffer.append({"n": "\n", "r": "\r"}.get(text[j + 1], text[j + 1]))
                    j += 2
                else:
                    buffer.append(text[j])
                    j += 1
            if j >= len(text):
                raise _BadTextError("a {note} is not closed with } on its line")
            tokens.append((True, "".join(buffer)))
            i = j + 1
        else:
            j = i
            while j < len(text) and not text[j].isspace() and text[j] not in ";{":
                j = _string_end(text, j) if text[j] == '"' else j + 1
            tokens.append((False, text[i:j]))
            i = j
    return tokens


def _actions(
    tokens: list[tuple[int, bool, str]], problem: Callable[[int, str], None]
) -> list[tuple[int, dict[str, Any]]]:
    """Turn the tokens of one deal into action documents, each with its line."""
    actions: list[tuple[int, dict[str, Any]]] = []
    i = 0
    while i < len(tokens):
        line, is_note, word = tokens[i]
        i += 1
        if not is_note and _TRICK_NUMBER.fullmatch(word):
            continue
        if is_note or word not in _SEATS:
            shown = "{" + word[:20] + "}" if is_note else word[:20]
            problem(line, f"expected a seat (N, E, S or W) to start an action, not {shown!r}")
            continue
        if i >= len(tokens) or tokens[i][1] or tokens[i][2] in _SEATS:
            problem(line, f"{word} does nothing: give a bid, a card or an action after the seat")
            continue
        try:
            action = _verb(word, tokens[i][2])
        except _BadTextError as exc:
            problem(tokens[i][0], str(exc))
            action = None
        i += 1
        while i < len(tokens) and not _starts_action(tokens[i]):
            at, note, text = tokens[i]
            i += 1
            if action is None:
                continue
            try:
                _option(action, note, text)
            except _BadTextError as exc:
                problem(at, str(exc))
        if action is not None:
            actions.append((line, action))
    return actions


def _starts_action(token: tuple[int, bool, str]) -> bool:
    _, is_note, word = token
    return not is_note and (word in _SEATS or _TRICK_NUMBER.fullmatch(word) is not None)


def _verb(seat: str, word: str) -> dict[str, Any]:
    if _INTEGER.fullmatch(word):
        return {"seat": seat, "type": "bid", "value": _int(word)}
    verb, _, value = word.partition("=")
    verb = verb.lower()
    if verb in _SIMPLE_VERBS and not value:
        return {"seat": seat, "type": verb}
    if verb in _OPTIONS:
        action: dict[str, Any] = {"seat": seat, "type": verb}
        if value:
            action["suit"] = _suit(value)
        return action
    if verb == "bid" and value:
        return {"seat": seat, "type": "bid", "value": _int(value)}
    if verb == "play" and value:
        return {"seat": seat, "type": "play", "card": _card(value)}
    try:
        return {"seat": seat, "type": "play", "card": parse_card(word).text}
    except ValueError:
        raise _BadTextError(f"{word[:20]!r} is not a bid, a card or an action") from None


def _option(action: dict[str, Any], is_note: bool, word: str) -> None:
    value: Any
    if is_note:
        key, value = "note", word
    elif word.startswith("@"):
        key, value = "t", _int(word[1:])
    else:
        key, equals, text = word.partition("=")
        if not equals or key not in {"t", "note", *_OPTIONS.get(action["type"], ())}:
            raise _BadTextError(f"unexpected {word[:20]!r} after a {action['type']}")
        value = _value(text) if text else _bad_value(key)
        if key == "suit" and value is not None:
            value = _suit(str(value))
        elif key == "card" and isinstance(value, str):
            value = _card(value)
    if key in action:
        raise _BadTextError(f"{key} is given twice for one action")
    action[key] = value


def _bad_value(key: str) -> Any:
    raise _BadTextError(f"{key}= needs a value")


def _int(text: str) -> int:
    if not _INTEGER.fullmatch(text):
        raise _BadTextError(f"{text[:20]!r} is not a whole number")
    try:
        return int(text)
    except ValueError:  # more digits than Python converts
        raise _BadTextError("a number is too long") from None


def _suit(text: str) -> str | None:
    if text == "?":
        return None
    letter = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.get(text, text.upper())
    if letter not in ("S", "H", "D", "C"):
        raise _BadTextError(f"{text[:20]!r} is not a suit (S, H, D, C or ?)")
    return letter
