"""The keys a document must have had to decode to some structs: counting code made from the
structs' fields (see :func:`schema.fastlog._may_repeat_keys` for why it is counted).

For each struct class the document held, the count is a key for each field written, plus the
keys of the dicts and structs it holds, plus the colons in its strings; a list of structs is
counted a field at a time over every item (C loops, not Python ones), and a union tagged by
``type`` (the actions) by one byte an item. The counting is written as Python source from the
fields and compiled once (a walk of the fields at every document would cost three times more);
:data:`Counting.source` shows it.

>>> import msgspec
>>> fields = [("x", int), ("label", str | None, None)]
>>> Point = msgspec.defstruct("Point", fields, omit_defaults=True)  # null is not written
>>> Shape = msgspec.defstruct("Shape", [("points", list[Point])])
>>> counting = Counting(Shape)
>>> shape = Shape([Point(1, "a:b"), Point(2)])
>>> counting.but_deferred(shape)[0], msgspec.json.encode(shape).count(b":")
(5, 5)
"""

from __future__ import annotations

import enum
import functools
import itertools
import operator
import types
import typing
from collections.abc import Callable
from typing import Any, Final, Literal, cast, get_args, get_origin

import msgspec
from msgspec import UNSET, UnsetType

_UNION_NUMBERS: Final = itertools.count()
"""Tells apart the attributes that hold the kind bytes of different unions' members."""


class CountingError(TypeError):
    """A type the counting cannot follow: extend :mod:`schema._keycount`."""


def text_keys(value: object) -> tuple[int, int]:
    """Keys and colons in the strings of a free-form value (``meta``, ``rules`` overrides).

    >>> text_keys({"at": "10:30", "x": [{"y": None}, "a:b:c"]})
    (3, 3)
    """
    if isinstance(value, str):
        return 0, value.count(":")
    keys = colons = 0
    if isinstance(value, dict):
        keys = len(value)
        for key, item in value.items():
            inner_keys, inner_colons = text_keys(item)
            keys += inner_keys
            colons += key.count(":") + inner_colons
    elif isinstance(value, list):
        for item in value:
            inner_keys, inner_colons = text_keys(item)
            keys += inner_keys
            colons += inner_colons
    return keys, colons


def _free(value: object) -> int:
    return sum(text_keys(value))


@functools.cache
def _fields_of(struct: type[msgspec.Struct]) -> tuple[msgspec.structs.FieldInfo, ...]:
    """A struct class's fields (msgspec resolves the annotations again at every call)."""
    return msgspec.structs.fields(struct)


def _members(read: Any) -> list[Any]:
    """The types of a union but None and UNSET (the type itself when not a union)."""
    if get_origin(read) is typing.Annotated:
        read = get_args(read)[0]
    if get_origin(read) in (typing.Union, types.UnionType):
        return [m for m in get_args(read) if m not in (type(None), UnsetType)]
    return [read]


def _bare(read: Any) -> Any:
    """The type without its ``Annotated`` constraints."""
    return get_args(read)[0] if get_origin(read) is typing.Annotated else read


def _nullable(read: Any) -> bool:
    """Whether a value of the type may be None or UNSET."""
    read = _bare(read)
    return get_origin(read) in (typing.Union, types.UnionType) and any(
        m in (type(None), UnsetType) for m in get_args(read)
    )


@functools.cache
def _plain(read: Any) -> bool:
    """Whether values of the type hold no key and no string that may have a colon."""
    if read in (int, bool, float, type(None)):
        return True
    if get_origin(read) is Literal:
        return not any(isinstance(v, str) and ":" in v for v in get_args(read))
    if isinstance(read, type) and issubclass(read, enum.Enum):
        return not any(":" in str(member.value) for member in read)
    return False


def _struct(read: Any) -> bool:
    return isinstance(read, type) and issubclass(read, msgspec.Struct)


def _fixed(read: Any) -> int | None:
    """The keys every value of the type holds when that is fixed, else None.

    >>> Scores = msgspec.defstruct("Scores", [("NS", int), ("EW", int)])
    >>> _fixed(Scores), _fixed(list[int]), _fixed(int), _fixed(str), _fixed(Scores | None)
    (2, 0, 0, None, None)
    """
    if get_origin(read) is typing.Annotated:
        read = get_args(read)[0]
    members = _members(read)
    if all(map(_plain, members)):
        return 0
    if len(members) != 1 or members[0] is not read:
        return None  # a union or null: what it holds depends on which
    if _struct(read):
        return _fixed_fields(_fields_of(read))
    if get_origin(read) is list:
        return 0 if _fixed(get_args(read)[0]) == 0 else None
    return None


def _fixed_fields(fields: tuple[msgspec.structs.FieldInfo, ...]) -> int | None:
    """The keys structs with these fields hold when that is fixed, else None."""
    total = 0
    for field in fields:
        inner = _fixed(field.type)
        if not field.required or inner is None:
            return None
        total += 1 + inner
    return total


def _times(factor: int) -> str:
    """``factor * `` in the source, or nothing for 1."""
    return "" if factor == 1 else f"{factor} * "


class _Writer:
    """Python source for the count, and the values it refers to by name."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.names: dict[str, object] = {
            "_UNSET": UNSET,
            "_chain": itertools.chain.from_iterable,
            "_free": _free,
        }
        self.depth = 1
        self.made = 0

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    def fresh(self, stem: str) -> str:
        self.made += 1
        return f"{stem}{self.made}"

    def refer(self, stem: str, value: object) -> str:
        name = self.fresh(f"_{stem}")
        self.names[name] = value
        return name

    # ----------------------------------------------------------------- a single value
    def one(self, value: str, read: Any) -> None:
        """Count what ``value`` (a name; None or UNSET when not written) holds."""
        members = [m for m in _members(read) if not _plain(m)]
        if not members:
            return
        if len(members) > 1:
            for member in members:
                kind = self.refer("kind", get_origin(member) or member)
                self.line(f"if isinstance({value}, {kind}):")
                self.depth += 1
                self.one(value, member)
                self.depth -= 1
            return
        nullable = _nullable(read)
        [read] = members
        if nullable:
            self.line(f"if {value} is not None and {value} is not _UNSET:")
            self.depth += 1
        read = _bare(read)
        origin = get_origin(read)
        if read is str:
            self.line(f"k += {value}.count(':')")
        elif read is Any:
            self.line(f"k += _free({value})")
        elif _struct(read):
            self.fields(value, _fields_of(read), column=False)
        elif origin is list:
            self.column(value, get_args(read)[0])
        elif origin is dict:
            key, held = get_args(read)
            self.line(f"k += {_times(1 + (_fixed(held) or 0))}len({value})")
            if not _plain(key):
                self.line(f"k += ''.join({value}).count(':')")
            if _fixed(held) is None:
                values = self.fresh("held")
                self.line(f"{values} = list({value}.values())")
                self.column(values, held)
        else:
            raise CountingError(f"no count for {read!r}")
        if nullable:
            self.depth -= 1

    # ------------------------------------------------------ a list of values, none null
    def column(self, values: str, read: Any) -> None:
        """Count what the items of ``values`` (a name of a list; no None) hold."""
        members = [m for m in _members(read) if not _plain(m)]
        if not members:
            return
        if len(members) > 1:
            if all(map(_struct, members)):
                self.tagged(values, members)
                return
            for member in members:
                kind = self.refer("kind", get_origin(member) or member)
                alike = self.fresh("alike")
                self.line(f"{alike} = [v for v in {values} if isinstance(v, {kind})]")
                self.line(f"if {alike}:")
                self.depth += 1
                self.column(alike, member)
                self.depth -= 1
            return
        [read] = members
        origin = get_origin(read)
        if read is str:
            self.line(f"k += ''.join({values}).count(':')")
        elif read is Any:
            self.line(f"k += sum(map(_free, {values}))")
        elif _struct(read):
            self.fields(values, _fields_of(read), column=True)
        elif origin is list:
            [item] = get_args(read)
            fixed = _fixed(item)
            if fixed is not None:
                if fixed:
                    self.line(f"k += {_times(fixed)}sum(map(len, {values}))")
                return
            items = self.fresh("items")
            self.line(f"{items} = list(_chain({values}))")
            self.column(items, item)
        elif origin is dict:
            key, value = get_args(read)
            fixed = _fixed(value)
            self.line(f"k += {_times(1 + (fixed or 0))}sum(map(len, {values}))")
            if not _plain(key):
                self.line(f"k += ''.join(_chain({values})).count(':')")
            if fixed is None:
                held = self.fresh("held")
                self.line(f"{held} = list(_chain(map(dict.values, {values})))")
                self.column(held, value)
        else:
            raise CountingError(f"no count for {read!r}")

    def fields(
        self, structs: str, fields: tuple[msgspec.structs.FieldInfo, ...], *, column: bool
    ) -> None:
        """A key for each field written, and what the values hold: of one struct, or of
        every struct in a list (``column``)."""
        fixed = 0
        for field in fields:
            written = _members(field.type)  # what a value written holds, not null
            inner = _fixed(written[0]) if len(written) == 1 else None
            if field.required and inner is not None:
                fixed += 1 + inner
                continue
            if not column:
                value = self.fresh(field.name)
                self.line(f"{value} = {structs}.{field.name}")
                if field.required:
                    self.line("k += 1")
                else:
                    left_out = "_UNSET" if field.default is UNSET else repr(field.default)
                    self.line(f"k += {value} is not {left_out}")
                if inner is None:
                    self.one(value, field.type)
                elif inner:
                    self.line(f"k += {inner} * ({value} is not None and {value} is not _UNSET)")
                continue
            values = self.fresh(field.name)
            get = self.refer("get", operator.attrgetter(field.name))
            bare = _bare(written[0]) if len(written) == 1 else None
            if field.required and not _nullable(field.type) and get_origin(bare) is list:
                fixed += 1  # a list: its items, straight from every struct's list
                self.line(f"{values} = list(_chain(map({get}, {structs})))")
                self.column(values, get_args(bare)[0])
                continue
            if field.required:
                fixed += 1
                self.line(f"{values} = list(map({get}, {structs}))")
                if _nullable(field.type):
                    self.line(f"{values} = [v for v in {values} if v is not None]")
            elif field.default is None and inner is None:  # a key and a value, or neither
                self.line(f"{values} = [v for v in map({get}, {structs}) if v is not None]")
                self.line(f"k += len({values})")
            elif field.default is None:
                assert inner is not None
                self.line(f"{values} = list(map({get}, {structs}))")
                self.line(f"k += {_times(1 + inner)}(len({values}) - {values}.count(None))")
                continue
            elif field.default is UNSET:  # a key when written, even null
                self.line(f"{values} = list(map({get}, {structs}))")
                self.line(f"k += len({values}) - {values}.count(_UNSET)")
                if inner == 0:
                    continue
                self.line(f"{values} = [v for v in {values} if v is not None and v is not _UNSET]")
            else:
                raise CountingError(f"{field.name}: an optional field defaults to None or UNSET")
            if inner is not None:
                if inner:
                    self.line(f"k += {_times(inner)}len({values})")
                continue
            self.column(values, field.type)
        if fixed:
            self.line(f"k += {fixed}" if not column else f"k += {_times(fixed)}len({structs})")

    def tagged(self, values: str, members: list[type[msgspec.Struct]]) -> None:
        """Actions: their type, the fields all kinds share (the optional ones are deferred),
        then each kind's own fields; one byte an action, its kind's, counted and searched at
        C speed (types compare slowly). Kinds whose own fields hold a fixed number of keys
        share a byte: that number."""
        fields = {m: {f.name: f for f in _fields_of(m)} for m in members}
        common = set.intersection(*(set(f) for f in fields.values()))
        shared = fields[members[0]]
        self.line(f"deferred.append({values})")
        self.line(f"k += len({values})")  # the type
        self.fields(
            values, tuple(shared[n] for n in sorted(common) if shared[n].required), column=True
        )
        kind_byte: dict[type, int] = {}
        looked_at: list[tuple[int, tuple[msgspec.structs.FieldInfo, ...]]] = []
        for member in members:
            own = tuple(f for name, f in fields[member].items() if name not in common)
            fixed = _fixed_fields(own)
            if fixed is not None and fixed < 128:
                kind_byte[member] = fixed
            else:
                kind_byte[member] = 128 + len(looked_at)
                looked_at.append((kind_byte[member], own))
        # Each kind's byte on its class, under a name of this union's own, read by one
        # attrgetter: a third quicker than looking each action's type up in a dict.
        attribute = f"_keycount_kind_{next(_UNION_NUMBERS)}"
        for member, byte in kind_byte.items():
            setattr(member, attribute, byte)
        kinds = self.fresh("kinds")
        get_kind = self.refer("get_kind", operator.attrgetter(attribute))
        self.line(f"{kinds} = bytes(map({get_kind}, {values}))")
        for own_keys in sorted({b for b in kind_byte.values() if 0 < b < 128}):
            self.line(f"k += {_times(own_keys)}{kinds}.count({own_keys})")
        for byte, own in looked_at:
            found = self.fresh("found")
            self.line(f"{found} = []")
            self.line("at = -1")
            self.line(f"for _ in range({kinds}.count({byte})):  # about once a deal")
            self.line(f"    at = {kinds}.index({byte}, at + 1)")
            self.line(f"    {found}.append({values}[at])")
            self.line(f"if {found}:")
            self.depth += 1
            self.fields(found, own, column=True)
            self.depth -= 1

    def function(self, name: str, argument: str) -> Callable[..., int]:
        """The lines so far as a function of ``argument`` (and ``deferred``) giving ``k``."""
        body = "\n".join(self.lines)
        self.source = f"def {name}({argument}, deferred):\n    k = 0\n{body}\n    return k\n"
        namespace = dict(self.names)
        exec(compile(self.source, f"<{__name__}.{name}>", "exec"), namespace)
        return cast(Callable[..., int], namespace[name])


class Counting:
    """The counting code for documents that decode to ``root`` structs.

    ``but_deferred(root)`` gives the count less the optional fields all actions share (a
    time, a note), and the lists of actions it met; ``deferred(lists)`` gives what those
    fields add. ``source`` and ``deferred_source`` are the code written.
    """

    def __init__(self, root: type[msgspec.Struct]) -> None:
        writer = _Writer()
        writer.fields("root", _fields_of(root), column=False)
        self._but_deferred = writer.function("count_but_deferred", "root")
        self.source: Final = writer.source
        self._deferred: Callable[..., int] = lambda actions, deferred: 0
        self.deferred_source = ""
        for union in _unions(root):
            fields = [{f.name: f for f in _fields_of(m)} for m in union]
            common = set.intersection(*(set(f) for f in fields))
            optional = tuple(fields[0][n] for n in sorted(common) if not fields[0][n].required)
            writer = _Writer()
            writer.fields("actions", optional, column=True)
            self._deferred = writer.function("count_deferred", "actions")
            self.deferred_source = writer.source

    def but_deferred(self, root: object) -> tuple[int, list[list[Any]]]:
        """The count less the actions' optional fields, and every list of actions met."""
        deferred: list[list[Any]] = []
        return self._but_deferred(root, deferred), deferred

    def deferred(self, lists: list[list[Any]]) -> int:
        """What the actions' optional fields add."""
        return sum(self._deferred(actions, None) for actions in lists if actions)


def _unions(root: type[msgspec.Struct]) -> list[list[type[msgspec.Struct]]]:
    """The tagged unions of structs the root holds, at any depth (the actions: one)."""
    found: list[list[type[msgspec.Struct]]] = []
    seen: set[object] = set()

    def visit(read: Any) -> None:
        if read in seen:
            return
        seen.add(read)
        members = _members(read)
        if len(members) > 1 and all(map(_struct, members)):
            found.append(members)
        for member in members:
            if _struct(member):
                for field in _fields_of(member):
                    visit(field.type)
            else:
                for arg in get_args(member):
                    visit(arg)

    visit(root)
    if len(found) > 1:
        raise CountingError("the deferred count reads one tagged union")
    return found
