"""The HTML rooms' shared tools: the jinja2 environment, JSON safe inside a page, plotly.

Templates live beside this module (``templates/``) and hold no logic beyond loops and ifs
over the typed context the report modules build. Every value is escaped (autoescape on);
data for the page's scripts goes in as :func:`script_json`, which cannot end its script tag.

>>> str(script_json({"name": "</script><b>"}))
'{"name":"\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e"}'
"""

from __future__ import annotations

import base64
import functools
import gzip
from typing import Any, Final

import orjson
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from twentynine.schema.names import cut, visible
from twentynine.schema.words import plural

_SCRIPT_UNSAFE: Final = {
    ord("<"): "\\u003c",
    ord(">"): "\\u003e",
    ord("&"): "\\u0026",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


def script_json(value: Any) -> Markup:
    """``value`` as JSON that is safe inside ``<script>``: ``<``, ``>``, ``&`` and the line
    separators U+2028/9 escaped, so no text in it can close the tag or break the script.

    Keys keep their insertion order: the same context gives the same bytes.

    >>> str(script_json(["a & b", "\\u2028"]))
    '["a \\\\u0026 b","\\\\u2028"]'
    """
    text = orjson.dumps(value).decode()
    return Markup(text.translate(_SCRIPT_UNSAFE))


@functools.cache
def environment() -> Environment:
    """The reports' jinja2 environment: templates from this package, autoescape always on."""
    env = Environment(
        loader=PackageLoader("twentynine.reports.html", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["script_json"] = script_json
    env.filters["isolate"] = isolate
    env.filters["plural"] = plural  # {{ n|plural("deal") }}: 1 deal, 2 deals
    return env


def render(template: str, **context: Any) -> str:
    """Render one template of ``templates/`` with ``context``."""
    return environment().get_template(template).render(**context)


@functools.cache
def plotly_bundle() -> str:
    """plotly.js from the installed plotly package, gzipped and base64-encoded.

    The page inflates it with the browser's ``DecompressionStream`` (no network, no server):
    gzipped, the 4.8 MB library takes about a third of the room, which keeps a 20-deal
    match report under 5 MB. ``mtime=0`` keeps the bytes the same from run to run.
    """
    from plotly.offline import get_plotlyjs

    packed = gzip.compress(get_plotlyjs().encode(), compresslevel=9, mtime=0)
    return base64.b64encode(packed).decode()


_OPENS: Final = {"\u202a": "E", "\u202b": "E", "\u202d": "E", "\u202e": "E"}
_ISOLATES: Final = frozenset("\u2066\u2067\u2068")
_PDF: Final = "\u202c"
_PDI: Final = "\u2069"


def bidi_balanced(text: str) -> str:
    """``text`` with its bidirectional controls balanced: a closer with nothing to close is
    dropped, and whatever is left open is closed at the end. Inside an isolate (``<bdi>``,
    or :func:`isolate`), a name can then reorder nothing outside itself: an unclosed
    right-to-left override in a player's name would otherwise turn the rest of the line.

    >>> bidi_balanced("Asha\u202e"), bidi_balanced("\u2069\u2067x")
    ('Asha\u202e\u202c', '\u2067x\u2069')
    """
    out: list[str] = []
    open_: list[str] = []
    for char in text:
        if char in _OPENS:
            open_.append("E")
        elif char in _ISOLATES:
            open_.append("I")
        elif char == _PDF:
            if not open_ or open_[-1] != "E":
                continue
            open_.pop()
        elif char == _PDI:
            if "I" not in open_:
                continue
            while open_.pop() != "I":
                pass
        out.append(char)
    out.extend(_PDF if kind == "E" else _PDI for kind in reversed(open_))
    return "".join(out)


def isolate(text: str) -> str:
    """``text`` between Unicode isolates (FSI ... PDI), its own controls balanced: a name
    set in a sentence or an attribute keeps its direction to itself (``<bdi>`` where a
    name stands as an element of its own).

    >>> isolate("Joy") == "\u2068Joy\u2069"
    True
    """
    return f"\u2068{bidi_balanced(text)}\u2069"


NAME_ROOM: Final = 40
"""The most characters of a player's name a report shows in a table, a heading or a sentence;
the whole name is on hover (``title``) or in the player's details."""


def shown_name(name: str) -> str:
    """A player's name as a report shows it: what shows nothing written so it shows
    (``schema.names.visible``: three players that all look like "Anne" are told apart), cut
    to :data:`NAME_ROOM` characters, ``…`` last (a name of 10,000 characters made a page
    100,000 px wide). Escaped and isolated where it is set, as any name.

    >>> shown_name("An\\u200bne"), len(shown_name("L" * 10_000))
    ('An\\\\u200bne', 40)
    """
    return cut(visible(name), NAME_ROOM)


def whole_name(name: str) -> str:
    """The whole name, for its ``title`` or its details, when :func:`shown_name` cut it;
    empty when it did not.

    >>> whole_name("Anne"), whole_name("An\\u200bne" * 9)[:12]
    ('', 'An\\\\u200bneAn')
    """
    written = visible(name)
    return written if len(written) > NAME_ROOM else ""


def plotly_text(text: str) -> str:
    """A name as plotly draws it in a label, a legend or a hover: plotly reads a few HTML
    tags (``<a href>``, ``<br>``, ``<sup>``) and entities in its text, so ``&``, ``<`` and
    ``>`` go in as entities, which it shows as the characters; isolated like any name.

    >>> plotly_text("<b>R&D</b>") == isolate("&lt;b&gt;R&amp;D&lt;/b&gt;")
    True
    """
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return isolate(escaped)


def figure_json(figure: Any) -> Markup:
    """A plotly figure's data and layout as :func:`script_json` (drawn by the page's script).

    >>> import plotly.graph_objects as go
    >>> str(figure_json(go.Figure(go.Bar(x=[1], y=[2]))))[:30]
    '{"data":[{"x":[1],"y":[2],"typ'
    """
    plain = figure.to_plotly_json()
    layout = dict(plain.get("layout", {}))
    layout.pop("template", None)  # the page sets one small template for every figure
    return script_json({"data": plain["data"], "layout": layout})
