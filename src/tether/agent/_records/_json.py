"""The JSON form of the agent layer's records, and reading them back (validated once).

Records are frozen dataclasses. Their JSON form is a dict of their fields (tuples as
lists); reading one back goes through a cached pydantic `TypeAdapter`, so a stored
value that does not fit its record is refused with a `SerializationError` at the
boundary, never half-read.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from functools import cache
from typing import Any

from pydantic import TypeAdapter, ValidationError

from ...errors import SerializationError

__all__ = ["adapter", "json_value", "read_record"]


def json_value(value: Any) -> Any:
    """`value` as plain JSON data: records become dicts, tuples lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: json_value(getattr(value, f.name)) for f in dataclasses.fields(value) if f.repr
        }
    if isinstance(value, list | tuple):
        return [json_value(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): json_value(v) for k, v in value.items()}
    return value


@cache
def adapter(kind: Any) -> TypeAdapter[Any]:
    """The (cached) pydantic adapter of a record type or a union of them."""
    return TypeAdapter(kind)


def read_record(kind: Any, value: Any, *, what: str) -> Any:
    """Validate stored JSON data into the record type `kind`.

    Raises:
        SerializationError: The data does not fit the record.
    """
    try:
        return adapter(kind).validate_python(value)
    except ValidationError as exc:
        raise SerializationError(f"{what} is malformed: {exc}") from None
