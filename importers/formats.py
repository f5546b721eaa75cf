"""Every input format by name: detection, reading any file, and importing into canonical logs.

>>> FORMAT_NAMES
('canonical', 'bhoos-archive', 'bhoos-play', 'text')
>>> detect_format("games.json", b'{"sid": 1, "games": [{"playerIds": []}]}')
'bhoos-archive'

``import_paths`` is what ``twentynine import PATH... [--from FORMAT] -o OUT`` runs: it reads
every input as a stream, writes the matches to OUT as they come (atomically, through a
temporary file), and returns an :class:`ImportSummary` of what was found, imported, skipped
and seen twice.
"""

from __future__ import annotations

import errno
import io
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Final, Literal, Protocol, cast, overload

from twentynine.importers import bhoos_archive, bhoos_play, canonical, text
from twentynine.importers.canonical import Match, Record
from twentynine.importers.errors import (
    MAX_DOCUMENT,
    MAX_SKIPPED,
    NO_INPUT_FILES,
    InputProblem,
    InputTooLargeError,
    no_logs_found,
    not_the_format,
    reader_failed,
    unknown_format,
    unreadable,
    where,
)
from twentynine.schema.fastlog import is_decoded
from twentynine.schema.log import MatchLog
from twentynine.schema.words import plural

HEAD_SIZE: Final = 64 * 1024
READ_BUFFER: Final = 1 << 20
"""Bytes read from a file at a time: a log line is often 10 to 20 kB, and reading such lines
through the default 8 kB buffer costs as much as a fifth of decoding them."""
MAX_KEPT_PROBLEMS: Final = 1000
_TELL_EVERY: Final = 16  # records between updates of the bytes read (for a progress bar)
_BOM: Final = b"\xef\xbb\xbf"


class Reader(Protocol):
    """A format's reader: the stream, its name, its path where it is a file, whether the fast
    decoder may read, and whether the caller only copies canonical lines (``import``), so that
    a reader may leave out what the copy proves itself: the canonical reader its count of
    repeated keys (:func:`importers.canonical.parse_document`), the Bhoos archive the
    decoding of the lines it writes (:attr:`importers.canonical.Record.copied_id`); and
    ``first_seat``, the index in ``playerIds`` of the first speaker for a Bhoos payload log
    that does not show it (``--first-seat``; the other readers take no such hint)."""

    def __call__(
        self,
        stream: BinaryIO,
        source: str,
        path: Path | None,
        fast: bool,
        copying: bool = False,
        first_seat: int | None = None,
        /,
    ) -> Iterator[Record[Match]]: ...


@dataclass(frozen=True)
class Format:
    """An input format: its name, the file extensions it goes by, and its reader."""

    name: str
    extensions: tuple[str, ...]
    description: str
    read: Reader


FORMATS: Final[dict[str, Format]] = {
    "canonical": Format(
        "canonical",
        (".json", ".jsonl", ".ndjson"),
        "the project's match log (.json: one match, .jsonl: one a line)",
        lambda stream, source, path, fast, copying=False, *_: canonical.read_stream(
            stream, source, canonical.layout_of(path), fast=fast, keys_checked=copying
        ),
    ),
    "bhoos-archive": Format(
        "bhoos-archive",
        (".json",),
        'Bhoos "Smart Bots 2023" game archive: a header and its games',
        lambda stream, source, path, fast, copying=False, *_: bhoos_archive.read_stream(
            stream, source, fast=fast, copying=copying
        ),
    ),
    "bhoos-play": Format(
        "bhoos-play",
        (".jsonl", ".log"),
        "a Bhoos bot's log of the /bid, /chooseTrump and /play requests, one a line",
        lambda stream, source, path, fast, copying=False, first_seat=None: bhoos_play.read_stream(
            stream, source, first_seat
        ),
    ),
    "text": Format(
        "text",
        text.EXTENSIONS,
        "the compact text notation (tags, hands, actions), see docs/formats.md",
        lambda stream, source, *_: text.read_stream(stream, source),
    ),
}
FORMAT_NAMES: Final[tuple[str, ...]] = tuple(FORMATS)
INPUT_EXTENSIONS: Final = frozenset(ext for f in FORMATS.values() for ext in f.extensions)
# Extensions that other programs use too: a directory's such files count only when they
# look like one of ours.
_AMBIGUOUS: Final = frozenset({".txt", ".log"})

_CANONICAL = re.compile(rb'"format"\s*:\s*"twentynine\.match"')
_PAYLOAD = re.compile(rb'"playerId"\s*:')
_ARCHIVE = re.compile(rb'"(games|playerIds|handsHistory|trumpReveal)"\s*:')


def sniff(head: bytes) -> str | None:
    """The format the start of a file shows, or None when its content does not tell.

    >>> sniff(b'{"playerId": "a", "playerIds": ["a"], "played": []}'), sniff(b"hello")
    ('bhoos-play', None)
    """
    stripped = head.lstrip().removeprefix(b"\xef\xbb\xbf").lstrip()
    if stripped[:1] in (b"{", b"["):
        if _CANONICAL.search(head):
            return "canonical"
        if _PAYLOAD.search(head):
            return "bhoos-play"
        if _ARCHIVE.search(head):
            return "bhoos-archive"
    if text.looks_like_text(head):
        return "text"
    return None


def detect_format(path: str | Path, head_bytes: bytes) -> str:
    """The format of a file, from its first bytes and then its extension.

    Content wins over the name (a Bhoos archive is a ``.json`` too); a file whose content
    does not tell is read by its extension, and as canonical JSON when that does not tell.

    >>> detect_format("deal.29", b""), detect_format("x.jsonl", b'{"format": "twentynine.match"}')
    ('text', 'canonical')
    """
    found = sniff(head_bytes)
    if found is not None:
        return found
    suffix = Path(path).suffix.lower()
    if suffix in text.EXTENSIONS:
        return "text"
    if suffix == ".log":
        return "bhoos-play"
    return "canonical"


@dataclass
class Reading:
    """How far a read of many inputs has got, kept up to date as records are read: for a
    progress bar (bytes) and for the counts a command reports.

    ``inputs`` are the files to read (folders expanded), ``current`` the number of the one
    being read (from 0), ``formats`` how many files of each format were read, ``unreadable``
    how many could not be opened at all.
    """

    inputs: list[Path] = field(default_factory=list)
    current: int = 0
    bytes_total: int = 0
    bytes_read: int = 0
    unreadable: int = 0
    formats: dict[str, int] = field(default_factory=dict)


@overload
def read_paths(
    paths: Iterable[str | Path],
    from_format: str | None = None,
    *,
    fast: Literal[False] = False,
    reading: Reading | None = None,
) -> Iterator[Record[MatchLog]]: ...
@overload
def read_paths(
    paths: Iterable[str | Path],
    from_format: str | None = None,
    *,
    fast: bool,
    reading: Reading | None = None,
) -> Iterator[Record[Match]]: ...
def read_paths(
    paths: Iterable[str | Path],
    from_format: str | None = None,
    *,
    fast: bool = False,
    reading: Reading | None = None,
) -> Iterator[Record[Match]]:
    """The one reading path: files and folders (``-`` for standard input) in, one record per
    match out, each with its source file and line, or the problems that stopped it.

    Folders are searched (:func:`expand_inputs`), each file's format detected (unless
    ``from_format`` names it), every line and document held to :data:`MAX_DOCUMENT`, a
    byte-order mark skipped; a file that cannot be opened gives one record with the reason.
    The match is the models; with ``fast``, canonical logs are read by the fast decoder where
    it is sure of a document (for the engine and the warehouse, which take either).
    ``reading`` is kept up to date as records come. Raises ``ValueError`` (the message for
    the user) for an unknown format name, or paths that hold no match log.

    >>> [is_decoded(r.match) for r in read_paths(["sample_logs/pagat.json"], fast=True)]
    [True]
    >>> [str(r.problems[0]) for r in read_paths(["/no/such.json"])]
    ['/no/such.json: cannot read: No such file or directory']
    """
    _check_format(from_format)
    reading = reading if reading is not None else Reading()
    reading.inputs = expand_inputs(paths)
    if not reading.inputs:
        raise ValueError(no_logs_found(list(paths) if not isinstance(paths, list) else paths))
    reading.bytes_total = sum(map(_size, reading.inputs))
    return _read_inputs(reading, from_format, fast)


def _read_inputs(
    reading: Reading,
    from_format: str | None,
    fast: bool,
    *,
    copying: bool = False,
    first_seat: int | None = None,
) -> Iterator[Record[Match]]:
    done = 0
    for number, path in enumerate(reading.inputs):
        reading.current = number
        yield from _read_file(str(path), from_format, fast, reading, copying, first_seat)
        done += _size(path)
        reading.bytes_read = done


def _size(path: Path) -> int:
    try:
        return path.stat().st_size if str(path) != "-" else 0
    except OSError:
        return 0


@overload
def read_any(
    path: str | Path, from_format: str | None = None, *, fast: Literal[False] = False
) -> Iterator[Record[MatchLog]]: ...
@overload
def read_any(
    path: str | Path, from_format: str | None = None, *, fast: bool
) -> Iterator[Record[Match]]: ...
def read_any(
    path: str | Path, from_format: str | None = None, *, fast: bool = False
) -> Iterator[Record[Match]]:
    """One file (``-`` for standard input) as :func:`read_paths` reads it.

    Raises ``ValueError`` for an unknown format name.

    >>> [r.problems[0].reason[:11] for r in read_any("/no/such/file.json")]
    ['cannot read']
    >>> [is_decoded(r.match) for r in read_any("sample_logs/pagat.json", fast=True)]
    [True]
    """
    _check_format(from_format)
    return _read_file(str(path), from_format, fast, Reading())


def _check_format(from_format: str | None) -> None:
    if from_format is not None and from_format not in FORMATS:
        raise ValueError(unknown_format(from_format, FORMAT_NAMES))


def _read_file(
    path: str,
    from_format: str | None,
    fast: bool,
    reading: Reading,
    copying: bool = False,
    first_seat: int | None = None,
) -> Iterator[Record[Match]]:
    if path == "-":
        head = sys.stdin.buffer.read(HEAD_SIZE)
        prefixed = io.BufferedReader(_Prefixed(head, sys.stdin.buffer))
        if (mismatch := _not_as_named(head, from_format, "<stdin>", reading)) is not None:
            yield mismatch
            return
        name = from_format or detect_format("-", head)
        reading.formats[name] = reading.formats.get(name, 0) + 1
        stdin = limited(prefixed, head)
        records = FORMATS[name].read(stdin, "<stdin>", None, fast, copying, first_seat)
        yield from guarded(records, "<stdin>", name)
        return
    source = shown_name(path)
    try:
        with Path(path).open("rb", buffering=READ_BUFFER) as stream:
            head = stream.read(HEAD_SIZE)
            seekable = stream.seekable()
            if seekable:
                if is_blank(head, stream):
                    return  # no document, whatever the format (a warning)
                stream.seek(0)
                rest: BinaryIO = stream
            else:  # a pipe (`<(command)`): read on from its head, as standard input is
                rest = io.BufferedReader(_Prefixed(head, stream))
            if (mismatch := _not_as_named(head, from_format, source, reading)) is not None:
                yield mismatch
                return
            name = from_format or detect_format(path, head)
            reading.formats[name] = reading.formats.get(name, 0) + 1
            reader = FORMATS[name].read
            records = reader(limited(rest, head), source, Path(path), fast, copying, first_seat)
            start = reading.bytes_read
            for count, record in enumerate(guarded(records, source, name)):
                if seekable and not count % _TELL_EVERY:  # tell() is a system call
                    reading.bytes_read = start + stream.tell()
                yield record
    except OSError as exc:
        reading.unreadable += 1
        problem = unreadable(source, exc)
        yield Record(source, None, None, (problem,))


def shown_name(path: str) -> str:
    """A file's name as records, messages and the warehouse give it: a byte that is not UTF-8
    (a name made under another locale) written as ``\\xff``, which JSON, DuckDB and a
    terminal take, where Python's stand-in for it is taken by none.

    >>> shown_name("club.json"), shown_name(os.fsdecode(b"caf\\xe9.json"))
    ('club.json', 'caf\\\\xe9.json')
    """
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def _not_as_named(
    head: bytes, from_format: str | None, source: str, reading: Reading
) -> Record[Match] | None:
    """The one record of a file whose content shows another format than ``--from`` names,
    counted into ``reading`` as a file not read (None when it shows that format, or none)."""
    shown = sniff(head) if from_format is not None else None
    if from_format is None or shown is None or shown == from_format:
        return None
    reading.unreadable += 1
    return Record(source, None, None, (not_the_format(source, from_format, shown),))


def is_blank(head: bytes, stream: BinaryIO) -> bool:
    """Whether a file whose first :data:`HEAD_SIZE` bytes are ``head`` (``stream`` read past
    them) holds nothing but white space: no document in it, whatever its format.

    >>> is_blank(b" \\n", io.BytesIO()), is_blank(b" \\n", io.BytesIO(b"{}"))
    (True, False)
    """
    return not head.strip() and not stream.read(1)


def guarded(records: Iterator[Record[Match]], source: str, name: str) -> Iterator[Record[Match]]:
    """``records`` as a reader of format ``name`` yields them, ending in one problem record
    instead of a traceback if the reader itself fails (it reports bad input as problems; a
    failure is its own fault, and the record says so).

    >>> def broken():
    ...     yield from ()
    ...     raise KeyError("x")
    >>> [r.problems[0].reason for r in guarded(broken(), "a.json", "canonical")]
    ["the canonical reader failed (KeyError: 'x'); please report it"]
    """
    try:
        yield from records
    except (OSError, MemoryError):
        raise
    except InputTooLargeError as exc:  # a reader that does not read on past it
        problem = InputTooLargeError(exc.line).problem(source)
        yield Record(source, problem.line, None, (problem,))
    except Exception as exc:
        yield Record(source, None, None, (reader_failed(source, name, exc),))


class _Limited:
    """What every reader reads: a binary stream whose lines and whole-file reads are at most
    :data:`MAX_DOCUMENT` bytes (else :class:`InputTooLargeError`), with a leading UTF-8
    byte-order mark left out (format detection skips it too).

    >>> stream = limited(io.BytesIO(b"\\xef\\xbb\\xbf{}\\n[]\\n"), b"\\xef\\xbb\\xbf{}")
    >>> list(stream)
    [b'{}\\n', b'[]\\n']
    """

    def __init__(self, stream: BinaryIO, head: bytes) -> None:
        self._stream = stream
        self._lines = 0
        if head.startswith(_BOM):
            stream.read(len(_BOM))

    def readline(self, size: int = -1) -> bytes:
        if 0 <= size <= MAX_DOCUMENT:
            return self._stream.readline(size)
        line = self._stream.readline(MAX_DOCUMENT + 1)
        self._lines += 1
        if len(line) > MAX_DOCUMENT:
            raise InputTooLargeError(self._lines, resumable=self._skip_line(line))
        return line

    def _skip_line(self, start: bytes) -> bool:
        """Read past the rest of a line too long, a chunk at a time: whether its end came
        within :data:`MAX_SKIPPED` bytes (else the stream is left at its end)."""
        skipped = len(start)
        chunk = start
        while not chunk.endswith(b"\n"):
            if skipped > MAX_SKIPPED:
                self._stream = io.BytesIO()  # nothing more is read from this one
                return False
            chunk = self._stream.readline(1 << 20)
            if not chunk:
                return True
            skipped += len(chunk)
        return True

    def read(self, size: int = -1) -> bytes:
        if 0 <= size <= MAX_DOCUMENT:
            return self._stream.read(size)
        data = self._stream.read(MAX_DOCUMENT + 1)
        if len(data) > MAX_DOCUMENT:
            raise InputTooLargeError(None)
        return data

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def tell(self) -> int:
        return self._stream.tell()


def limited(stream: BinaryIO, head: bytes) -> BinaryIO:
    """``stream``, at its start, as every reader reads it (see :class:`_Limited`); ``head``
    is its first bytes, as read for detection."""
    return cast(BinaryIO, _Limited(stream, head))


class _Prefixed(io.RawIOBase):
    """A stream that gives back bytes already read from its start, then the rest."""

    def __init__(self, head: bytes, rest: BinaryIO) -> None:
        self._head = head
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        if self._head:
            size = min(len(view), len(self._head))
            view[:size] = self._head[:size]
            self._head = self._head[size:]
            return size
        # what is there, not a full buffer: a pipe's reader gets each line once it is sent
        read = getattr(self._rest, "read1", self._rest.read)
        data = read(len(view))
        view[: len(data)] = data
        return len(data)


def expand_inputs(paths: Iterable[str | Path]) -> list[Path]:
    """The files to read: files as given, directories searched for known extensions.

    Hidden files and folders are left out, a ``.txt`` or ``.log`` file in a directory only
    when its content looks like one of our formats, and a file named twice is read once.
    Whatever cannot be looked at (a folder one may not enter or read, a symlink loop) is kept
    as it is, so that reading it gives the one-line reason: nothing is skipped in silence.

    >>> expand_inputs(["-", "a.json", "a.json"])
    [PosixPath('-'), PosixPath('a.json')]
    """
    found: list[Path] = []
    seen: set[Path] = set()

    def add(path: Path) -> None:
        key = path if str(path) == "-" else _real(path)
        if key not in seen:
            seen.add(key)
            found.append(path)

    for given in paths:
        path = Path(given)
        if not _is(path, Path.is_dir):
            add(path)
            continue
        files, unreadable = _walk(path)
        for candidate in sorted(files + unreadable):
            hidden = any(part.startswith(".") for part in candidate.relative_to(path).parts)
            suffix = candidate.suffix.lower()
            if hidden or (suffix not in INPUT_EXTENSIONS and candidate not in unreadable):
                continue
            if suffix in _AMBIGUOUS and sniff(_head(candidate)) is None:
                continue
            # a folder that could not be read, or a symlink loop, is kept: reading it says why
            if candidate in unreadable or _is(candidate, Path.is_file) or _looped(candidate):
                add(candidate)
    return found


def _real(path: Path) -> Path:
    """The path with its links followed, or as given when that cannot be known (a loop)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # Python 3.11 raises RuntimeError on a symlink loop
        return path.absolute()


def _is(path: Path, test: Callable[[Path], bool]) -> bool:
    """``path.is_dir()`` or ``is_file()``, False where the path cannot be looked at."""
    try:
        return test(path)
    except OSError:
        return False


def _looped(path: Path) -> bool:
    """Whether ``path`` is a symlink loop."""
    try:
        path.stat()
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


def _walk(top: Path) -> tuple[list[Path], list[Path]]:
    """The files under ``top`` (folders not followed through links), and the folders that
    could not be read (``top`` itself among them, if it could not)."""
    failed: list[OSError] = []
    files = [
        Path(folder) / name
        for folder, _, names in os.walk(top, onerror=failed.append)
        for name in names
    ]
    return files, [Path(e.filename) for e in failed if e.filename is not None]


def _head(path: Path) -> bytes:
    try:
        with path.open("rb") as stream:
            return stream.read(HEAD_SIZE)
    except OSError:
        return b""


@dataclass
class ImportSummary:
    """What an import found and did; ``lines()`` is the report a person reads.

    ``found`` = ``imported`` + ``skipped`` + ``duplicates``. ``problems`` holds the reasons
    records were skipped (the first ``MAX_KEPT_PROBLEMS``; ``problems_dropped`` counts the
    rest), ``duplicate_lines`` one line per match whose id was already imported, ``notes``
    what a reader assumed for a match it read (:attr:`importers.canonical.Record.notes`).
    ``error`` is set when nothing was written (e.g. a ``.json`` output for more than one
    match).

    >>> s = ImportSummary(output="out.jsonl", files=1, found=2, imported=2)
    >>> s.lines(), s.exit_code
    (['2 matches found in 1 file: 2 imported, 0 skipped, 0 duplicates -> out.jsonl'], 0)
    """

    output: str
    files: int = 0
    found: int = 0
    imported: int = 0
    skipped: int = 0
    duplicates: int = 0
    unread: int = 0
    formats: dict[str, int] = field(default_factory=dict)
    problems: list[InputProblem] = field(default_factory=list)
    problems_dropped: int = 0
    duplicate_lines: list[str] = field(default_factory=list)
    notes: list[InputProblem] = field(default_factory=list)
    error: str | None = None
    unread_for_the_output: bool = False
    """The output could not be made, so nothing was read: the counts say nothing."""

    @property
    def ok(self) -> bool:
        """Whether the output was written (some records may still have been skipped)."""
        return self.error is None

    @property
    def exit_code(self) -> int:
        """0 when every record was imported or was a duplicate, 1 when some were skipped or
        a file could not be read, 2 when nothing was written."""
        if self.error is not None:
            return 2
        return 1 if self.skipped or self.unread else 0

    def add_problems(self, problems: Iterable[InputProblem]) -> None:
        for problem in problems:
            if len(self.problems) < MAX_KEPT_PROBLEMS:
                self.problems.append(problem)
            else:
                self.problems_dropped += 1

    def lines(self, prefix: str = "") -> list[str]:
        """Problems, notes and duplicates one a line, then the counts (and the error, if any);
        problem and error lines start with ``prefix`` (the CLI's error prefix), notes with
        ``prefix`` and ``warning:``."""
        error = [] if self.error is None else [f"{prefix or 'error: '}{self.error}"]
        if self.unread_for_the_output:
            return error
        lines = [f"{prefix}{problem}" for problem in self.problems]
        lines.extend(f"{prefix}warning: {note}" for note in self.notes)
        if self.problems_dropped:
            lines.append(f"... and {self.problems_dropped} more problems")
        lines.extend(self.duplicate_lines[:MAX_KEPT_PROBLEMS])
        unread = f" ({self.unread} not read)" if self.unread else ""
        lines.append(
            f"{plural(self.found, 'match')} found in {plural(self.files, 'file')}{unread}: "
            f"{self.imported} imported, {self.skipped} skipped, "
            f"{plural(self.duplicates, 'duplicate')} -> {self.output}"
        )
        return lines + error

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON-ready data."""
        return {
            "output": self.output,
            "files": self.files,
            "formats": dict(self.formats),
            "found": self.found,
            "imported": self.imported,
            "skipped": self.skipped,
            "duplicates": self.duplicates,
            "unread": self.unread,
            "problems": [problem.to_dict() for problem in self.problems],
            "problems_dropped": self.problems_dropped,
            "notes": [note.to_dict() for note in self.notes],
            "error": self.error,
        }


OUTPUT_EXTENSIONS: Final = (".json", ".jsonl", ".ndjson", *text.EXTENSIONS)


def import_paths(
    paths: Iterable[str | Path],
    from_format: str | None,
    out: str | Path,
    *,
    first_seat: int | None = None,
) -> ImportSummary:
    """Import files (and directories) into one canonical output, streaming.

    ``out`` is a ``.jsonl`` file (one match a line), a ``.json`` file (only when exactly one
    match is imported), a ``.29``/``.txt`` file (text notation), or ``-`` for JSON lines on
    standard output. A bad record is reported and skipped; a match whose id was already
    imported is counted as a duplicate and not written again. The output appears only
    when the import is done: a failed import leaves no half-written file, and an import of
    nothing leaves an existing output as it was. The caller refuses an output that is also an
    input (``twentynine import`` does, with :func:`twentynine.outputs.refuse_overwrite`).
    ``first_seat`` is the index in ``playerIds`` of the first speaker for a Bhoos payload log
    whose game does not show it (:func:`importers.bhoos_play.read_stream`).

    >>> import tempfile
    >>> out = Path(tempfile.mkdtemp()) / "out.jsonl"
    >>> summary = import_paths(["/no/such.json"], None, out)
    >>> summary.found, summary.unread, summary.problems[0].reason[:11], out.exists()
    (0, 1, 'cannot read', False)
    >>> summary.error == f"nothing imported: {out} was not written"
    True
    """
    target = str(out)
    summary = ImportSummary(output=target)
    if from_format is not None and from_format not in FORMATS:
        summary.error = unknown_format(from_format, FORMAT_NAMES)
        return summary
    suffix = Path(target).suffix.lower()
    if target != "-" and suffix not in OUTPUT_EXTENSIONS:
        summary.error = f"cannot tell how to write {target}: use {', '.join(OUTPUT_EXTENSIONS)}"
        return summary
    inputs = expand_inputs(paths)
    summary.files = len(inputs)
    if not inputs:
        summary.error = NO_INPUT_FILES
        return summary
    if target == "-":
        try:
            _run(inputs, from_format, summary, sys.stdout.buffer, "jsonl", first_seat)
            sys.stdout.buffer.flush()
        except BrokenPipeError:
            summary.error = "standard output was closed before the import ended"
        return summary
    began = False
    try:
        with atomic_file(Path(target)) as stream:
            began = True
            _run(inputs, from_format, summary, stream, layout_for(target), first_seat)
            if summary.error is None and not summary.imported:
                summary.error = f"nothing imported: {target} was not written"
            if summary.error is not None:
                raise _AbandonedError
    except _AbandonedError:
        pass
    except OSError as exc:
        summary.error = f"cannot write {target}: {exc.strerror or exc}"
        summary.unread_for_the_output = not began
    return summary


class _AbandonedError(Exception):
    """Leaves an atomic output unwritten."""


def layout_for(target: str) -> str:
    """How an output file name is written: ``json``, ``jsonl`` or ``text``.

    >>> layout_for("a.json"), layout_for("b.jsonl"), layout_for("c.29"), layout_for("-")
    ('json', 'jsonl', 'text', 'jsonl')
    """
    suffix = Path(target).suffix.lower()
    return "json" if suffix == ".json" else "text" if suffix in text.EXTENSIONS else "jsonl"


# The temporary files atomic_file is writing now, for remove_partial_files.
_BEING_WRITTEN: set[str] = set()


@contextmanager
def atomic_file(destination: Path) -> Iterator[BinaryIO]:
    """A binary stream to a temporary file beside ``destination``, renamed over it only when
    the block ends without an exception: a failed write leaves no half file. A symbolic link
    is written through (the file it names is replaced, the link kept); a folder, or a link to
    one, is refused before anything is written (``IsADirectoryError``). What is there and is
    not a file (a named pipe, ``/dev/null``, a terminal) is written into as the shell's ``>``
    does: replacing it would put a file in its place."""
    if destination.is_symlink():
        destination = Path(os.path.realpath(destination))
    if destination.is_dir():
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(destination))
    if destination.exists() and not destination.is_file():
        with destination.open("wb") as stream:
            yield stream
        return
    handle, temporary = tempfile.mkstemp(
        prefix=f".{destination.name}.", suffix=".tmp", dir=destination.parent or None
    )
    _BEING_WRITTEN.add(temporary)
    try:
        with os.fdopen(handle, "wb", buffering=1 << 20) as stream:
            yield stream
        Path(temporary).chmod(_file_mode(destination))
        Path(temporary).replace(destination)
    finally:
        _BEING_WRITTEN.discard(temporary)
        if Path(temporary).exists():
            Path(temporary).unlink()


def remove_partial_files() -> None:
    """Remove the temporary files ``atomic_file`` is writing: what a process that SIGTERM
    ends (and so runs no ``finally``) calls first, so as to leave no hidden part behind.

    >>> remove_partial_files()  # nothing being written: nothing to remove
    """
    for temporary in list(_BEING_WRITTEN):
        with suppress(OSError):
            Path(temporary).unlink()


def write_matches(matches: Iterable[MatchLog], target: str) -> int:
    """Write matches to ``target`` (``.json`` for exactly one, ``.jsonl``, ``.29``/``.txt``, or
    ``-`` for JSON lines on standard output), atomically; returns how many were written.

    Raises ``ValueError`` for an unknown extension or a ``.json`` given more than one match,
    and ``OSError`` when the file cannot be written; either way no file is left behind.
    """
    suffix = Path(target).suffix.lower()
    if target != "-" and suffix not in OUTPUT_EXTENSIONS:
        raise ValueError(f"cannot tell how to write {target}: use {', '.join(OUTPUT_EXTENSIONS)}")
    layout = layout_for(target)
    if target == "-":
        return _write_all(matches, sys.stdout.buffer, layout)
    with atomic_file(Path(target)) as stream:
        return _write_all(matches, stream, layout)


def _write_all(matches: Iterable[MatchLog], stream: BinaryIO, layout: str) -> int:
    count = 0
    for match in matches:
        if layout == "json" and count:
            raise ValueError("a .json output holds exactly one match: write to .jsonl instead")
        if layout == "text" and count:
            stream.write(b"\n")
        stream.write(_encode(match, layout))
        count += 1
    stream.flush()
    return count


def _file_mode(destination: Path) -> int:
    # mkstemp makes the file private; the output gets the mode a new file would get.
    try:
        return destination.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _run(
    inputs: list[Path],
    from_format: str | None,
    summary: ImportSummary,
    stream: BinaryIO,
    layout: str,
    first_seat: int | None = None,
) -> None:
    # Per match only its id and where it was first seen (file number and line packed in one
    # int) stay in memory, so a long import grows by little more than its ids.
    seen: dict[str, int] = {}
    single = b""
    reading = Reading(inputs, formats=summary.formats)
    # A canonical line the fast decoder accepts is copied as it is; the rest is validated
    # into the models and written from them. The decoder leaves out its count for repeated
    # keys: a line is copied only when orjson's round trip gives it back (which a repeated
    # key never does), and any other decoded line is read again by the models, which refuse
    # a repeated key in the same words. A reader that writes canonical lines itself (the
    # Bhoos archive) gives them with their ids, undecoded.
    copying = layout == "jsonl"
    records = _read_inputs(reading, from_format, copying, copying=copying, first_seat=first_seat)
    for read in records:
        number = reading.current
        if reading.unreadable > summary.unread:  # a file not read at all: no match found
            summary.unread += 1
            summary.add_problems(read.problems)
            continue
        summary.found += 1
        summary.notes.extend(read.notes[: max(0, MAX_KEPT_PROBLEMS - len(summary.notes))])
        record = _as_models(read) if layout != "jsonl" else read
        summary.add_problems(record.problems)
        match = record.match
        if match is None and (record.copied_id is None or record.document is None):
            summary.skipped += 1
            continue
        data = _copied(record)
        if data is None and match is not None and is_decoded(match):
            record = _as_models(record)
            if record.match is None:  # the models refuse what the decoder took: their words
                summary.add_problems(record.problems)
                summary.skipped += 1
                continue
            match = record.match
        try:
            match_id = match.match_id if match is not None else cast(str, record.copied_id)
            data = data if data is not None else _encode(cast(MatchLog, match), layout)
        except (TypeError, ValueError) as exc:
            reason = f"cannot be written: {exc}"
            summary.add_problems([InputProblem(record.source, record.line, None, reason)])
            summary.skipped += 1
            continue
        if match_id in seen:
            first = divmod(seen[match_id], 1 << 40)
            summary.duplicates += 1
            summary.duplicate_lines.append(
                f"{record.where}: match {match_id!r} was already imported from "
                f"{where(_source(inputs[first[0]]), first[1] or None)}"
            )
            continue
        seen[match_id] = (number << 40) + (record.line or 0)
        summary.imported += 1
        if layout == "json":
            single = data if summary.imported == 1 else b""
            continue
        if layout == "text" and summary.imported > 1:
            stream.write(b"\n")
        stream.write(data)
    if layout == "json":
        if not single:
            summary.error = (
                f"a .json output holds exactly one match, and {summary.imported} were imported: "
                "write to .jsonl instead"
            )
            return
        stream.write(single)


def _copied(record: Record[Match]) -> bytes | None:
    """A fast-decoded match's line as it is, when it is already canonical JSON; the line a
    reader wrote itself, undecoded."""
    if record.document is None:
        return None
    if record.match is None:
        return None if record.copied_id is None else _as_bytes(record.document) + b"\n"
    if not is_decoded(record.match):
        return None
    if record.canonical:  # its reader wrote it and proved it canonical
        return _as_bytes(record.document) + b"\n"
    line = canonical.canonical_line(record.document)
    return None if line is None else line + b"\n"


def _as_bytes(document: bytes | str) -> bytes:
    return document.encode() if isinstance(document, str) else document


def _as_models(record: Record[Match]) -> Record[MatchLog]:
    """A record whose match is the models: the fast decoder's document read again by them."""
    if record.match is not None and is_decoded(record.match) and record.document is not None:
        return canonical.parse_document(record.document, record.source, record.line)
    return cast(Record[MatchLog], record)


def _source(path: Path) -> str:
    return "<stdin>" if str(path) == "-" else str(path)


def _encode(match: MatchLog, layout: str) -> bytes:
    if layout == "text":
        return text.format_match(match).encode("utf-8")
    return canonical.dump_match(match, indent=layout == "json") + b"\n"
