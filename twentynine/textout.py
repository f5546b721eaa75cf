"""Plain text for the terminal and for pipes: tables without width guessing, the error line.

>>> print(text_table(["option", "a"], [["min_bid", "16"]]))
option   a
-------  --
min_bid  16
"""

from __future__ import annotations

from collections.abc import Sequence


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


def plural(count: int, word: str) -> str:
    """``3 errors``, ``1 error``.

    >>> plural(1, "match"), plural(2, "match")
    ('1 match', '2 matches')
    """
    if count == 1:
        return f"{count} {word}"
    suffix = "es" if word.endswith(("s", "ch", "sh", "x")) else "s"
    return f"{count} {word}{suffix}"


ERROR_PREFIX = "twentynine: "
"""What every error line on standard error starts with, whichever command or layer wrote it."""


def error_line(message: str) -> str:
    """One error line: the prefix, then what went wrong, where and why.

    >>> error_line("x.json:3: 'XS' is not a card")
    "twentynine: x.json:3: 'XS' is not a card"
    """
    return f"{ERROR_PREFIX}{message}"


def warning_line(message: str) -> str:
    """One warning line: the same prefix and ``warning:``; the command goes on.

    >>> warning_line("empty.jsonl: no match in it")
    'twentynine: warning: empty.jsonl: no match in it'
    """
    return f"{ERROR_PREFIX}warning: {message}"
