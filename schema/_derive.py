"""msgspec structs made from pydantic models: the same fields, types, defaults, constraints
and tags, so that decoding into the structs accepts what the models accept strictly
(:mod:`schema.fastlog` uses it for the match log).

What the structs cannot follow (a validator on a model below the root, a constraint msgspec
has no word for, a default other than None) stops the import with :class:`SchemaError`
rather than read a document differently.

>>> from typing import Annotated, Literal
>>> from pydantic import ConfigDict, Field, create_model
>>> Note = create_model(
...     "Note", __config__=ConfigDict(frozen=True, extra="forbid"),
...     kind=(Literal["note"], ...),
...     lines=(Annotated[list[str], Field(min_length=1)], ...),
...     author=(str | None, None))
>>> Struct = Derived(Note).root
>>> msgspec.json.decode(b'{"kind": "note", "lines": ["hi"]}', type=Struct)
FastNote(kind='note', lines=['hi'], author=None)
>>> msgspec.json.decode(b'{"kind": "note", "lines": []}', type=Struct)
Traceback (most recent call last):
  ...
msgspec.ValidationError: Expected `array` of length >= 1 - at `$.lines`
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, Literal, get_args, get_origin

import annotated_types
import msgspec
from msgspec import UNSET, UnsetType
from pydantic import BaseModel, PlainSerializer, PlainValidator, WithJsonSchema
from pydantic.fields import FieldInfo

from twentynine.schema.log import LEFT_OUT_IS_NOT_NULL

_CONSTRAINTS: Final[dict[type, str]] = {
    annotated_types.MinLen: "min_length",
    annotated_types.MaxLen: "max_length",
    annotated_types.Ge: "ge",
    annotated_types.Gt: "gt",
    annotated_types.Le: "le",
    annotated_types.Lt: "lt",
    annotated_types.MultipleOf: "multiple_of",
}
"""pydantic's constraints (from ``annotated_types``) and msgspec's names for them."""

_FOR_WRITING: Final = (PlainSerializer, WithJsonSchema)
"""Metadata about writing a field or documenting it, which reading need not follow."""


class SchemaError(TypeError):
    """The models use something the structs cannot follow: extend :mod:`schema._derive`."""


Check = tuple[str, Callable[..., object]]
"""A root model's own validator, as (field, check): run on the decoded field's value; a
refusal raises ``ValueError`` (pydantic's custom errors are ``ValueError``)."""


class Derived:
    """The structs reading what ``root`` and the models it holds read, and the root's own
    checks. A model's struct is named ``Fast`` + its name (less ``Action``); ``methods`` go
    on the root's struct."""

    def __init__(
        self,
        root: type[BaseModel],
        *,
        module: str = __name__,
        methods: Mapping[str, object] | None = None,
    ) -> None:
        self.module = module
        self.structs: Final[dict[type[BaseModel], type[msgspec.Struct]]] = {}
        self.checks: Final[list[Check]] = _validators(root)
        self._root_model = root
        self.root: Final = self._struct(root, None, methods or {})

    def _struct(
        self, model: type[BaseModel], tag_field: str | None, methods: Mapping[str, object]
    ) -> type[msgspec.Struct]:
        """The struct reading what ``model`` reads, made once (a union member: tagged by
        ``tag_field``, whose value is then a class attribute, as on the model's instances)."""
        if model in self.structs:
            return self.structs[model]
        config = model.model_config
        if config.get("extra") != "forbid" or not config.get("frozen"):
            raise SchemaError(f"{model.__name__}: the structs read frozen models, no extras")
        if model is not self._root_model and _validators(model):
            raise SchemaError(f"{model.__name__}: validators only on the root model")
        fields: list[tuple[str, Any] | tuple[str, Any, Any]] = []
        namespace: dict[str, object] = dict(methods)
        tag: str | None = None
        for name, info in model.model_fields.items():
            where = f"{model.__name__}.{name}"
            if name == tag_field:
                tag = info.default
                if get_args(info.annotation) != (tag,):
                    raise SchemaError(f"{where}: a tag is a Literal with its own default")
                namespace[name] = tag
                continue
            read = self._read_type(info.annotation, where)
            meta, _ = _constraints(info.metadata, where, of_field=True)
            if meta:
                read = typing.Annotated[read, msgspec.Meta(**meta)]
            if info.is_required():
                fields.append((name, read))
            elif LEFT_OUT_IS_NOT_NULL in info.metadata:
                fields.append((name, read | UnsetType, UNSET))
            elif info.default is None and info.default_factory is None:
                fields.append((name, read, None))
            else:
                raise SchemaError(f"{where}: the structs read fields that default to None")
        struct = msgspec.defstruct(
            "Fast" + model.__name__.removesuffix("Action"),
            fields,
            module=self.module,
            namespace=namespace,
            tag_field=tag_field,
            tag=tag,
            kw_only=True,
            frozen=True,
            forbid_unknown_fields=True,
            gc=False,  # data only, never a cycle: the collector need not walk them
        )
        struct.__doc__ = f"Reads what :class:`{model.__module__}.{model.__name__}` reads."
        self.structs[model] = struct
        return struct

    def _read_type(self, annotation: Any, where: str) -> Any:
        """The msgspec type reading what the pydantic annotation reads."""
        origin = get_origin(annotation)
        if origin is typing.Annotated:
            inner, *metadata = get_args(annotation)
            meta, discriminator = _constraints(metadata, where)
            if discriminator is not None:
                read = self._union(get_args(inner), where, discriminator)
            else:
                read = self._read_type(inner, where)
            return typing.Annotated[read, msgspec.Meta(**meta)] if meta else read
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return self._struct(annotation, None, {})
        if origin in (typing.Union, types.UnionType):
            return self._union(get_args(annotation), where, None)
        if origin in (list, dict):
            args = tuple(self._read_type(arg, where) for arg in get_args(annotation))
            return origin[args] if len(args) > 1 else origin[args[0]]
        if origin is Literal or annotation in (int, str, bool, float, type(None), Any):
            return annotation
        if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
            return annotation
        raise SchemaError(f"{where}: no struct reading for {annotation!r}")

    def _union(self, members: tuple[Any, ...], where: str, discriminator: str | None) -> Any:
        if discriminator is None:
            read = [self._read_type(member, where) for member in members]
        else:
            read = [self._struct(member, discriminator, {}) for member in members]
        return typing.Union[tuple(read)]  # noqa: UP007 (built from a tuple)


def _constraints(
    metadata: Iterable[object], where: str, *, of_field: bool = False
) -> tuple[dict[str, Any], str | None]:
    """msgspec ``Meta`` arguments for pydantic field metadata, and the union's discriminator
    (a field's own plain validator is left to :func:`_validators`)."""
    meta: dict[str, Any] = {}
    discriminator: str | None = None
    for item in metadata:
        if type(item) in _CONSTRAINTS:
            name = _CONSTRAINTS[type(item)]
            meta[name] = getattr(item, name)
        elif isinstance(item, FieldInfo):  # Field(...) inside Annotated
            inner, _ = _constraints(item.metadata, where)
            meta |= inner
            if isinstance(item.discriminator, str):
                discriminator = item.discriminator
            elif item.discriminator is not None:
                raise SchemaError(f"{where}: a callable discriminator")
        elif isinstance(item, PlainValidator) and of_field:
            pass
        elif not isinstance(item, _FOR_WRITING) and item is not LEFT_OUT_IS_NOT_NULL:
            raise SchemaError(f"{where}: no struct reading for {item!r}")
    return meta, discriminator


def _validators(model: type[BaseModel]) -> list[Check]:
    """A model's own checks: field validators (``after``) and plain validators."""
    decorators = model.__pydantic_decorators__
    if decorators.model_validators or decorators.root_validators or decorators.validators:
        raise SchemaError(f"{model.__name__}: model validators have no struct reading")
    checks: list[Check] = []
    for decorator in decorators.field_validators.values():
        if decorator.info.mode != "after":
            raise SchemaError(f"{model.__name__}.{decorator.cls_var_name}: not an 'after' check")
        checks += [(field, decorator.func) for field in decorator.info.fields]
    for name, info in model.model_fields.items():
        checks += [(name, m.func) for m in info.metadata if isinstance(m, PlainValidator)]
    return checks
