"""Plain text for the terminal and for pipes: tables without width guessing, the error line.

>>> print(text_table(["option", "a"], [["min_bid", "16"]]))
option   a
-------  --
min_bid  16
"""

from __future__ import annotations

import codecs
import errno
import io
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from twentynine.schema.names import INVISIBLE, cut, visible

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

    # the warehouse (DuckDB, Arrow) loads only for a command that prints a table
    from twentynine.importers.canonical import Record
    from twentynine.reports.warehouse.store import QueryResult


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Left-aligned columns separated by two spaces, with a rule under the header."""
    widths = [len(h) for h in header]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))
    lines = [
        "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip(),
        "  ".join("-" * w for w in widths),
    ]
    lines.extend(
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows
    )
    return "\n".join(lines)


# C0 and C1 controls, DEL, and the bidirectional overrides that reorder what follows them
_CONTROLS: Final = [
    *range(0x20),
    *range(0x7F, 0xA0),
    *range(0x202A, 0x202F),
    *range(0x2066, 0x206A),
]
_ESCAPES: Final = {
    **{code: repr(chr(code))[1:-1] for code in _CONTROLS},
    # what takes no room and shows nothing (a zero-width space): written as a name shows it
    **{code: visible(chr(code)) for code in INVISIBLE},
    # a name's byte that is not UTF-8, as Python keeps it (a lone surrogate): the byte, as
    # importers.formats.shown_name writes it
    **{code: f"\\x{code - 0xDC00:02x}" for code in range(0xDC80, 0xDD00)},
}


def printable(text: str) -> str:
    """Text from a log or a file name as a terminal should show it: control characters
    escaped as Python writes them, so that a name can neither drive the terminal (retitle a
    window, clear the screen) nor forge a line of output, and the characters that show
    nothing (``schema.names.INVISIBLE``: a zero-width space) written so they show. Every
    text printer uses it.

    >>> printable("Asha\\x1b]0;title\\x07"), printable("a.json\\nb.json"), printable("Ñandú")
    ('Asha\\\\x1b]0;title\\\\x07', 'a.json\\\\nb.json', 'Ñandú')
    >>> printable("An\\u200bne")
    'An\\\\u200bne'
    >>> printable(os.fsdecode(b"caf\\xe9.duckdb"))
    'caf\\\\xe9.duckdb'
    """
    return text.translate(_ESCAPES)


NAME_ROOM: Final = 32
"""The most columns a player's name takes in a terminal table or line; a longer one is cut."""


def shown_name(name: str, room: int = NAME_ROOM) -> str:
    """A player's name as a terminal shows it: :func:`printable`, then cut to ``room``
    columns with ``…`` last (``schema.names.cut``), so that no name widens a table past
    reading. Every printer of a name in a table or a frame uses it; CSV and JSON keep the
    whole name.

    >>> shown_name("Asha"), shown_name("A" * 40), shown_name("An\\u200bne", 9)
    ('Asha', 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA…', 'An\\\\u200b…')
    """
    return cut(printable(name), room)


ERROR_PREFIX = "twentynine: "
"""What every error line on standard error starts with, whichever command or layer wrote it."""


def error_line(message: str) -> str:
    """One error line: the prefix, then what went wrong, where and why (made printable).

    >>> error_line("x.json:3: 'XS' is not a card")
    "twentynine: x.json:3: 'XS' is not a card"
    """
    return f"{ERROR_PREFIX}{printable(message)}"


def warning_line(message: str) -> str:
    """One warning line: the same prefix and ``warning:``; the command goes on.

    >>> warning_line("empty.jsonl: no match in it")
    'twentynine: warning: empty.jsonl: no match in it'
    """
    return f"{ERROR_PREFIX}warning: {printable(message)}"


def unreadable_lines(record: Record[Any]) -> list[str]:
    """What every command says of a document it could not read and went past: each of its
    problems (file, place and reason), one a line, without the error prefix.

    >>> from twentynine.importers.formats import read_paths
    >>> [unreadable_lines(r) for r in read_paths(["/no/such.json"])]
    [['/no/such.json: cannot read: No such file or directory']]
    """
    return [str(problem) for problem in record.problems] or [f"{record.where}: unreadable"]


def print_result(result: QueryResult, fmt: str) -> None:
    """Print :func:`result_text` to standard output, CSV with its data as it is: click
    strips what looks like a terminal's escape sequence from text not bound for a terminal,
    which would cut a name holding one (a table has them escaped already)."""
    import typer

    typer.echo(result_text(result, fmt), color=True)


def result_text(result: QueryResult, fmt: str) -> str:
    """A query's result as a command prints it: a table with names and text
    :func:`printable`; CSV and JSON lines as data, as they are.

    >>> from twentynine.reports.warehouse.store import QueryResult
    >>> print(result_text(QueryResult(("name",), ("VARCHAR",), [("A\\x1bB",)]), "table"))
    name
    ------
    A\\x1bB
    """
    from twentynine.reports.warehouse.export import format_result
    from twentynine.reports.warehouse.store import QueryResult

    if fmt == "table":
        rows = [tuple(printable(v) if isinstance(v, str) else v for v in r) for r in result.rows]
        result = QueryResult(tuple(map(printable, result.columns)), result.types, rows)
    return format_result(result, fmt).rstrip("\r\n")


STANDARD_OUTPUT: Final = "standard output"
"""The name an error writing standard output carries as its ``filename``."""


class _StandardOutput(io.RawIOBase):
    """File descriptor 1 (None when the shell closed it, ``>&-``), whose write errors name it:
    so that a full disk or a closed output is told apart from the other errors of a command."""

    def __init__(self, descriptor: int | None) -> None:
        super().__init__()
        self._descriptor = descriptor
        self._failed = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        if self._descriptor is None:
            raise io.UnsupportedOperation("standard output is closed")
        return self._descriptor

    def isatty(self) -> bool:
        return self._descriptor is not None and os.isatty(self._descriptor)

    def write(self, data: ReadableBuffer) -> int:
        size = len(memoryview(data))
        if self._failed:  # said once; what follows (Python's last flush) is dropped
            return size
        try:
            if self._descriptor is None:
                raise OSError(errno.EBADF, os.strerror(errno.EBADF))
            return os.write(self._descriptor, data)
        except BrokenPipeError:
            raise  # the reader went away (| head): the command ends quietly
        except OSError as exc:
            self._failed = True
            exc.filename = STANDARD_OUTPUT
            raise


def guard_standard_output() -> None:
    """Make ``sys.stdout`` say where its write errors come from (their ``filename`` is
    :data:`STANDARD_OUTPUT`; a closed standard output fails its first write with
    ``EBADF``, rather than dropping what is printed), keeping its encoding and buffering.
    Text reaches it whatever the locale says: an ASCII standard output (``LC_ALL=C``,
    ``PYTHONIOENCODING=ascii``) is written in UTF-8, as click writes it; another that cannot
    hold a card symbol writes it escaped. Only for the process's own standard output (a
    test's capture is left alone).

    >>> guard_standard_output()  # under doctest sys.stdout is not the process's: unchanged
    """
    stream = sys.stdout
    if stream is not None and (stream is not sys.__stdout__ or not hasattr(stream, "buffer")):
        return
    try:
        descriptor = None if stream is None else stream.fileno()
    except (OSError, ValueError):
        return
    encoding = "utf-8" if stream is None else stream.encoding
    errors = "strict" if stream is None else stream.errors
    if codecs.lookup(encoding).name == "ascii":  # a C locale's or PYTHONIOENCODING's: as click
        encoding = "utf-8"
    elif codecs.lookup(encoding).name != "utf-8":  # latin-1 has no card symbol: ♠ as \u2660
        errors = "backslashreplace"
    sys.stdout = io.TextIOWrapper(
        io.BufferedWriter(_StandardOutput(descriptor)),
        encoding=encoding,
        errors=errors,
        line_buffering=bool(stream is not None and stream.line_buffering),
    )
    if stream is not None:
        stream.flush()
