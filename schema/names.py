"""A player's name as every room shows it: what cannot be seen written so it can, and a long
name cut, ``…`` last. The terminal (``twentynine.textout``) and the HTML reports
(``reports.html.render``) build on these, so a name reads the same in both.

>>> visible("An\\u200bne"), cut("Alexandria", 6)
('An\\\\u200bne', 'Alexa…')
"""

from __future__ import annotations

from typing import Final

INVISIBLE: Final = (
    0x00AD,  # soft hyphen
    0x180E,  # Mongolian vowel separator
    *range(0x200B, 0x2010),  # zero-width space, non-joiner, joiner; the two direction marks
    *range(0x2060, 0x2065),  # word joiner; invisible function application, times, comma, plus
    0xFEFF,  # zero-width no-break space (byte-order mark)
)
"""Characters that take no room and show nothing: in a name they make ``An\\u200bne`` look
like ``Anne``, so each is written as Python writes it (``\\u200b``), wherever a name is shown."""

_WRITTEN: Final = {code: f"\\u{code:04x}" for code in INVISIBLE}


def visible(text: str) -> str:
    """``text`` with each :data:`INVISIBLE` character written ``\\uXXXX``; the rest as it is.

    >>> [visible(n) for n in ("Anne", "An\\u200bne", "An\\ufeffne")]
    ['Anne', 'An\\\\u200bne', 'An\\\\ufeffne']
    """
    return text.translate(_WRITTEN)


def cut(text: str, room: int) -> str:
    """``text`` in at most ``room`` characters: a longer one cut, ``…`` last.

    >>> cut("Asha", 4), cut("Ashanti", 4)
    ('Asha', 'Ash…')
    """
    if len(text) <= room:
        return text
    return text[: max(room - 1, 0)] + "…"
