"""The Bhoos "Smart Bots 2023" game archive: a header and ``games``, each one deal.

Each game becomes a one-deal match under the ``bhoos`` preset (see :mod:`importers._bhoos`
for the seat mapping): the player ids, the hands (rank ``1`` is the ace), the auction (0 is
a pass; a defender matching the standing bid is a Ditto), the trump, the show before the
revealer's card in the trick ``trumpReveal.round``, the plays, and the recorded result:
card points from ``summary`` and, for a game recorded as void (``N``), a throw-in.
The header and the game's index go into ``meta``; the id is ``bhoos-<sid>-<index>``.

A file is one archive object (``{"sid": ..., "games": [...]}``), a list of games, one game,
or JSON lines of any of these. A bad game is reported and skipped; the others are read.

>>> import io
>>> [r.problems[0].reason for r in read_stream(io.BytesIO(b'{"games": [7]}'), "a.json")]
['a game must be a JSON object']
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO, Final, Literal, overload

import orjson
from pydantic import ValidationError

from twentynine.importers import _bhoos
from twentynine.importers._bhoos import Problems
from twentynine.importers.canonical import Match, Record
from twentynine.importers.errors import InputProblem, brief, describe_validation_error
from twentynine.schema.cards import Card, Seat, Suit
from twentynine.schema.fastlog import MAX_NESTING, decode_match, nesting
from twentynine.schema.log import MatchLog
from twentynine.schema.words import plural

FORMAT = "bhoos-archive"
GAME_KEYS = frozenset(
    {
        "result",
        "playerIds",
        "cards",
        "bidHistory",
        "handsHistory",
        "summary",
        "trump",
        "trumpReveal",
    }
)
NEVER_SHOWN = "never_shown"  # the engine's name for the reason
_DEALER = _bhoos.SEAT_TEXT_OF_INDEX[0]


@dataclass(frozen=True, slots=True)
class Header:
    """An archive's own fields (all but ``games``), read once for all its games: each game
    keeps them in ``meta.archive``, and its id is ``id_prefix`` and its index.

    >>> header = Header.of({"sid": 7, "games": [], "m": [[]]})
    >>> header.fields, header.id_prefix, header.nesting, header.unwritable
    ({'sid': 7, 'm': [[]]}, 'bhoos-7-', 2, None)
    >>> Header.of({"sid": 2**70}).unwritable
    'cannot keep the header and extra fields: Integer exceeds 64-bit range'
    """

    fields: dict[str, Any]
    id_prefix: str | None
    """``bhoos-<sid>-`` for a ``sid`` that is a string or an integer, else None (no id)."""
    unwritable: str | None
    """Why the fields cannot be kept, or None."""
    nesting: int
    """Levels of lists and objects in the fields (:func:`schema.fastlog.nesting`); 0 when
    they are unwritable."""

    @staticmethod
    def of(archive: dict[str, Any]) -> Header:
        fields = {key: value for key, value in archive.items() if key != "games"}
        sid = fields.get("sid")
        prefix = f"bhoos-{sid}-" if isinstance(sid, str) or _bhoos.is_int(sid) else None
        unwritable = _unwritable(fields)
        # orjson writes at most 255 levels: what it cannot write nests too deep to measure
        return Header(fields, prefix, unwritable, nesting(fields) if unwritable is None else 0)


def _unwritable(fields: dict[str, Any]) -> str | None:
    """Why free fields kept in ``meta`` cannot be written as JSON, or None."""
    try:
        orjson.dumps(fields)
    except TypeError as exc:
        return f"cannot keep the header and extra fields: {exc}"
    return None


@overload
def read_stream(
    stream: BinaryIO, source: str, *, fast: Literal[False] = False
) -> Iterator[Record[MatchLog]]: ...
@overload
def read_stream(
    stream: BinaryIO, source: str, *, fast: bool, copying: bool = False
) -> Iterator[Record[Match]]: ...
def read_stream(
    stream: BinaryIO, source: str, *, fast: bool = False, copying: bool = False
) -> Iterator[Record[Match]]:
    """Read an archive from a binary stream: one record per game.

    A first line that is a whole JSON value by itself means JSON lines (line numbers are
    given); anything else is read as one document. With ``fast``, a game whose canonical
    line the fast decoder accepts comes as that line and the decoder's match; with
    ``copying`` too, a game with an id comes as its line and id alone (:func:`read_game`).
    """
    first = stream.readline()
    number = 1
    while first and not first.strip():
        first = stream.readline()
        number += 1
    if not first.strip():
        yield Record(source, None, None, (InputProblem(source, None, None, "empty input"),))
        return
    try:
        document = orjson.loads(first)
    except orjson.JSONDecodeError:
        yield from read_document(first + stream.read(), source, None, fast=fast, copying=copying)
        return
    yield from _read_value(document, source, number, fast, copying)
    for later, raw in enumerate(stream, number + 1):
        if raw.strip():
            yield from read_document(raw, source, later, fast=fast, copying=copying)


def read_document(
    data: bytes, source: str, line: int | None, *, fast: bool = False, copying: bool = False
) -> Iterator[Record[Match]]:
    """Read one JSON document (an archive, a list of games or a game)."""
    try:
        document = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        where = line if line is not None else exc.lineno
        reason = f"invalid JSON: {exc.msg} (column {exc.colno})"
        yield Record(source, where, None, (InputProblem(source, where, None, reason),))
        return
    yield from _read_value(document, source, line, fast, copying)


def _read_value(
    document: object, source: str, line: int | None, fast: bool, copying: bool
) -> Iterator[Record[Match]]:
    if isinstance(document, dict) and "games" in document:
        header = Header.of(document)
        games = document["games"]
        if not isinstance(games, list):
            problem = InputProblem(source, line, "games", "must be a list of games")
            yield Record(source, line, None, (problem,))
            return
        for index, game in enumerate(games):
            yield read_game(
                game,
                source,
                line,
                header=header,
                index=index,
                base=f"games[{index}]",
                fast=fast,
                copying=copying,
            )
    elif isinstance(document, list):
        for index, game in enumerate(document):
            yield read_game(game, source, line, header=None, index=index, base=f"[{index}]")
    else:
        yield read_game(document, source, line, header=None, index=None, base="")


def read_game(
    game: object,
    source: str,
    line: int | None,
    *,
    header: Header | None,
    index: int | None,
    base: str,
    fast: bool = False,
    copying: bool = False,
) -> Record[Match]:
    """Turn one recorded game into a one-deal match, or into the problems that stop it.

    The game is mapped once, into the match's document (:func:`_document`), whose keys are
    in the models' order: orjson's dump of it is the canonical line. The models validate
    that document; with ``fast``, the line read by the fast decoder is the match instead,
    where the decoder accepts it, and the record carries the line to be copied. With
    ``copying`` too (a caller that only copies lines), a game with an id whose ``meta`` the
    models' parser reads whole gives its line and id and no match: every value in it was
    checked here, so the decoder could only accept it. Whichever way, the output is the same
    bytes; a game the decoder refuses goes to the models.
    """
    problems = Problems(source, line, base)
    if not isinstance(game, dict):
        problems.add("", "a game must be a JSON object")
        return Record(source, line, None, tuple(problems.items))
    document = _document(game, problems, header, index)
    if problems.items or document is None:
        return Record(source, line, None, tuple(problems.items))
    if fast:
        # Canonical as written: _document puts every key in the models' order, and the
        # free fields kept in meta (checked to be writable) are the models' to keep as
        # they come. A dict holds no key twice.
        data = orjson.dumps(document)
        match_id = document.get("id")
        if copying and match_id is not None and _meta_nesting(document, header) < MAX_NESTING:
            return Record(source, line, None, document=data, canonical=True, copied_id=match_id)
        decoded = decode_match(data, keys_checked=True)
        if decoded is not None:
            return Record(source, line, decoded, document=data, canonical=True)
    try:
        return Record(source, line, MatchLog.model_validate(document))
    except ValidationError as exc:  # pragma: no cover - the checks of _document forestall it
        problems.items.extend(describe_validation_error(exc, problems.source, problems.line))
        return Record(source, line, None, tuple(problems.items))


_REQUIRED: Final = ("playerIds", "cards", "bidHistory", "handsHistory")
_REQUIRED_SET: Final = frozenset(_REQUIRED)
_RESULTS: Final = ("W", "L", "N")  # a tuple: a recorded result may be unhashable
_DOCUMENT_HEAD: Final = {"format": "twentynine.match", "version": 1}


def _document(
    game: dict[str, Any],
    problems: Problems,
    header: Header | None,
    index: int | None,
) -> dict[str, Any] | None:
    """The game as a match document: plain JSON values, each object's keys in the models'
    order (what :func:`importers.canonical.dump_match` writes, where the models keep it)."""
    if not game.keys() >= _REQUIRED_SET:
        for key in _REQUIRED:
            if key not in game:
                problems.add(key, "missing required field")
        return None
    ids = _bhoos.player_ids(game["playerIds"], "playerIds", problems)
    if ids is None:
        return None
    seat_of = dict(zip(ids, _bhoos.SEAT_OF_INDEX, strict=True))

    hands = _hands(game["cards"], problems)
    bids = _bhoos.bid_history(
        _unwrap(game["bidHistory"], "bidHistory"), "bidHistory", seat_of, problems
    )
    trump = _trump(game.get("trump"), problems)
    show = _reveal(game.get("trumpReveal"), trump, problems)
    tricks = _tricks(_unwrap(game["handsHistory"], "handsHistory"), seat_of, problems)
    points = _summary(game.get("summary"), problems)
    recorded = game.get("result")
    if recorded is not None and recorded not in _RESULTS:
        problems.add("result", f"{brief(recorded)} is not W, L or N")
    if problems.items:
        return None

    auction, caller = _bhoos.bid_actions(bids)
    plays, placed = _bhoos.play_actions(tricks, show)
    if show is not None and not placed:
        problems.add("trumpReveal.round", f"names trick {show[0]}, which was not recorded")
        return None
    auction.append(_bhoos.trump_action(caller, trump))
    auction += plays

    meta: dict[str, Any] = {"importer": FORMAT}
    if header is not None:
        if header.unwritable is not None:
            problems.add("", header.unwritable)
            return None
        meta["archive"] = header.fields
    if index is not None:
        meta["game"] = index
    if recorded is not None:
        meta["result"] = recorded
    if not game.keys() <= GAME_KEYS:
        meta["extra"] = extra = {key: value for key, value in game.items() if key not in GAME_KEYS}
        unwritable = _unwritable(extra)
        if unwritable is not None:
            problems.add("", unwritable)
            return None
    deal: dict[str, Any] = {"dealer": _DEALER, "hands": hands, "actions": auction}
    if points is not None or recorded is not None:
        thrown_in = None
        if recorded == "N":
            thrown_in = NEVER_SHOWN if show is None else "void"
        deal["result"] = {"points": points, "thrown_in": thrown_in}
    document = _DOCUMENT_HEAD.copy()
    if header is not None and header.id_prefix is not None and index is not None:
        document["id"] = f"{header.id_prefix}{index}"
    document["rules"] = "bhoos"
    first, second, third, fourth = ids
    document["players"] = {
        _FIRST: {"name": first, "id": first},
        _SECOND: {"name": second, "id": second},
        _THIRD: {"name": third, "id": third},
        _FOURTH: {"name": fourth, "id": fourth},
    }
    document["meta"] = meta
    document["deals"] = [deal]
    return document


_SEATS: Final = _bhoos.SEAT_TEXT_OF_INDEX
_FIRST, _SECOND, _THIRD, _FOURTH = _SEATS  # the seats of playerIds in turn


def _meta_nesting(document: dict[str, Any], header: Header | None) -> int:
    """:func:`schema.fastlog.nesting` of the document's ``meta``, the header's known already:
    of meta's values only the header and the game's extra fields can hold lists or objects."""
    meta = document["meta"]
    extra = nesting(meta["extra"]) if "extra" in meta else 0
    return 1 + max(header.nesting if header is not None else 0, extra)


def _hands(value: object, problems: Problems) -> dict[str, list[str]]:
    """The four hands in the log's notation, by seat, in playerIds order."""
    if not isinstance(value, list) or len(value) != 4:
        problems.add("cards", "must be 4 lists of 8 cards, in playerIds order")
        return {}
    hands: dict[str, list[str]] = {}
    text = _bhoos.TEXT.__getitem__
    for i, (seat, raw) in enumerate(zip(_SEATS, value, strict=True)):
        found = _bhoos.known_cards(raw, 8)
        if found is None:  # the path is spelled out only where the quick read fails
            found = _bhoos.cards(raw, f"cards[{i}]", problems, size=8)
        hands[seat] = list(map(text, found))
    return hands


def _unwrap(value: object, key: str) -> object:
    """The server nests some lists in an object of the same name: ``{"bidHistory": [...]}``."""
    if type(value) is dict and len(value) == 1 and key in value:
        return value[key]
    return value


def _trump(value: object, problems: Problems) -> Suit | None:
    if value is None or value is False or value == "":
        return None
    found = _bhoos.suit(value)
    if found is None:
        problems.add("trump", f"{brief(value)} is not a suit (S, H, D or C)")
    return found


def _reveal(
    value: object, trump: Suit | None, problems: Problems
) -> tuple[int, Seat, Suit | None] | None:
    if not value:
        return None
    if not isinstance(value, dict):
        problems.add("trumpReveal", "must be an object {round, playerIdx} or empty")
        return None
    number, who = value.get("round"), value.get("playerIdx")
    if not _bhoos.is_int(number) or not 1 <= number <= 8:
        problems.add("trumpReveal.round", f"{brief(number)} is not a trick number from 1 to 8")
        return None
    if not _bhoos.is_int(who) or not 0 <= who <= 3:
        problems.add("trumpReveal.playerIdx", f"{brief(who)} is not a seat index from 0 to 3")
        return None
    return number, _bhoos.SEAT_OF_INDEX[who], trump


def _tricks(
    value: object, seat_of: dict[str, Seat], problems: Problems
) -> list[tuple[Seat, list[Card]]]:
    if not isinstance(value, list):
        problems.add("handsHistory", "must be a list of [leaderId, [cards], winnerId]")
        return []
    if len(value) > 8:
        problems.add("handsHistory", f"holds {plural(len(value), 'trick')}; a deal has 8")
        return []
    known = _bhoos.known_cards
    try:  # the common case, every trick as the checks below want it: in one pass
        quick = [
            (seat_of[trick[0]], found)  # a leader that is not a player's id: KeyError
            for trick in value
            if type(trick) is list
            and len(trick) == 3
            and type(trick[0]) is str
            and type(trick[2]) is str
            and trick[2] in seat_of
            and type(trick[1]) is list
            and 1 <= len(trick[1]) <= 4
            and (found := known(trick[1])) is not None
        ]
        if len(quick) == len(value):
            return quick
    except KeyError:
        pass
    tricks: list[tuple[Seat, list[Card]]] = []
    for i, trick in enumerate(value):
        where = f"handsHistory[{i}]"
        if not isinstance(trick, list) or len(trick) != 3:
            problems.add(where, "must be [leaderId, [cards], winnerId]")
            continue
        leader, played, winner = trick
        for position, who in ((0, leader), (2, winner)):
            if not isinstance(who, str) or who not in seat_of:
                problems.add(f"{where}[{position}]", f"{brief(who)} is not one of the playerIds")
        if isinstance(played, list) and not 1 <= len(played) <= 4:
            problems.add(f"{where}[1]", f"a trick holds 1 to 4 cards, not {len(played)}")
            continue
        found = _bhoos.cards(played, f"{where}[1]", problems)
        if isinstance(leader, str) and leader in seat_of:
            tricks.append((seat_of[leader], found))
    return tricks


def _summary(value: object, problems: Problems) -> dict[str, int] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2:
        problems.add("summary", "must be [{bid, score} of seats 0 and 2, {bid, score} of 1 and 3]")
        return None
    scores: list[int] = []
    for i, team in enumerate(value):
        score = team.get("score") if isinstance(team, dict) else None
        if not _bhoos.is_int(score) or not -1000 <= score <= 1000:
            problems.add(f"summary[{i}].score", f"{brief(score)} is not a number of card points")
            return None
        scores.append(score)
    # Index 0 of playerIds sits North, so the first team of the summary is North-South.
    return {"NS": scores[0], "EW": scores[1]}
