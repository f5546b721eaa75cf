"""A parsed HTML page for the reports' tests: its text, its scripts and its elements."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

_VOID = frozenset({"meta", "br", "img", "input", "link", "hr", "col", "source", "wbr"})


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    parent: Element | None = None
    text: list[str] = field(default_factory=list)

    def within(self, element_id: str) -> bool:
        """True when an ancestor (or the element) has this id."""
        node: Element | None = self
        while node is not None:
            if node.attrs.get("id") == element_id:
                return True
            node = node.parent
        return False

    @property
    def content(self) -> str:
        return "".join(self.text)


class Page(HTMLParser):
    """Every element with its attributes and text; the text outside scripts and styles."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self._open: list[Element] = []
        self.text_parts: list[str] = []
        self.feed(html)
        self.close()
        assert not [e.tag for e in self._open if e.tag not in ("p", "li")], "unclosed elements"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        parent = self._open[-1] if self._open else None
        element = Element(tag, {k: v or "" for k, v in attrs}, parent)
        self.elements.append(element)
        if tag not in _VOID:
            self._open.append(element)

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i].tag == tag:
                del self._open[i:]
                return
        raise AssertionError(f"</{tag}> closes nothing")

    def handle_data(self, data: str) -> None:
        for element in self._open:
            element.text.append(data)
        if not any(e.tag in ("script", "style") for e in self._open):
            self.text_parts.append(data)

    @property
    def text(self) -> str:
        return " ".join("".join(self.text_parts).split())

    def by_id(self, element_id: str) -> Element:
        found = [e for e in self.elements if e.attrs.get("id") == element_id]
        assert len(found) == 1, f"{len(found)} elements with id {element_id!r}"
        return found[0]

    def all(self, tag: str, cls: str | None = None) -> list[Element]:
        return [
            e
            for e in self.elements
            if e.tag == tag and (cls is None or cls in e.attrs.get("class", "").split())
        ]

    def table(self, element_id: str) -> list[list[str]]:
        """The body rows of a table: each cell's text, spaces collapsed."""
        rows = [e for e in self.elements if e.tag == "tr" and e.within(element_id)]
        return [
            [
                " ".join(c.content.split())
                for c in self.elements
                if c.parent is row and c.tag == "td"
            ]
            for row in rows
            if any(c.parent is row and c.tag == "td" for c in self.elements)
        ]

    def json(self, element_id: str) -> Any:
        return json.loads(self.by_id(element_id).content)
