"""Numbers in words, written one way by every room: a count with its noun, a figure with
or without its sign, never a negative zero.

>>> plural(1, "deal"), plural(2, "match"), signed(-0.001, 2), signed(3), decimal(-0.04, 1)
('1 deal', '2 matches', '0.00', '+3', '0.0')
"""

from __future__ import annotations


def plural(count: int | str, word: str, many: str | None = None) -> str:
    """``3 errors``, ``1 error``: the count (thousands grouped) and its noun (the last word
    takes the plural; ``many`` gives a plural no rule makes). ``count`` may be a figure
    already written, ``"0.07"``: only ``"1"`` is one.

    >>> plural(1, "match"), plural(2, "match"), plural(0, "card point"), plural(3668, "game")
    ('1 match', '2 matches', '0 card points', '3,668 games')
    >>> plural(2, "inaccuracy", "inaccuracies"), plural("1", "game point"), plural("0.5", "point")
    ('2 inaccuracies', '1 game point', '0.5 points')
    """
    written = count if isinstance(count, str) else f"{count:,}"
    if written == "1":
        return f"1 {word}"
    if many is None:
        many = word + ("es" if word.endswith(("s", "ch", "sh", "x")) else "s")
    return f"{written} {many}"


def signed(value: float, places: int = 0) -> str:
    """A gain or loss with its sign (``+0.13``, ``-2``), to ``places`` decimals; a figure
    that rounds to zero has no sign (``0.00``, never ``-0.00``).

    >>> signed(0.125, 2), signed(-2), signed(-0.004, 2), signed(0)
    ('+0.12', '-2', '0.00', '0')
    """
    text = f"{value:+.{places}f}"
    if float(text) == 0:
        return text[1:]
    return text


def decimal(value: float, places: int = 2) -> str:
    """A figure to ``places`` decimals; one that rounds to zero is ``0.00``, never ``-0.00``.

    >>> decimal(-0.25, 1), decimal(-0.004), decimal(17.118, 3)
    ('-0.2', '0.00', '17.118')
    """
    text = f"{value:.{places}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def part_of(part: int, whole: int, noun: str) -> str:
    """``3 of 18 matches``, ``all 18 matches``, ``the one match``: a part of a count.

    >>> part_of(3, 18, "match"), part_of(18, 18, "match"), part_of(1, 1, "player")
    ('3 of 18 matches', 'all 18 matches', 'the one player')
    """
    if part == whole:
        return f"the one {noun}" if whole == 1 else f"all {plural(whole, noun)}"
    return f"{part:,} of {plural(whole, noun)}"
