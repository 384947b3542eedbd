r"""Payload codec: typed JSON, framed with a short header, zstd above a threshold.

Frames (the first four bytes say what follows):

- ``TJ1\\x00`` plain JSON: only JSON types inside.
- ``TJ1\\x01`` tagged JSON: some values are objects tagged ``{"$tether": kind, ...}``
  (datetimes, bytes, dataclasses, pydantic models, exceptions, sets, decimals, ...).
- ``TZ1\\x00`` a zstd frame whose content is one of the above. Payloads of at least
  `COMPRESS_THRESHOLD` bytes are compressed when that saves at least 5 %.

Lossy on purpose, and the same live and on replay because the engine hands a step's
*decoded* output to the workflow in both cases: tuples become lists, UUIDs strings and
enums their values. Dict keys must be strings.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime as dt
import decimal
import importlib
from typing import Any

import orjson
import pydantic
import zstandard

from .errors import SerializationError

__all__ = ["COMPRESS_THRESHOLD", "decode", "describe", "encode", "is_frame"]

COMPRESS_THRESHOLD = 1024
_PLAIN = b"TJ1\x00"
_TAGGED = b"TJ1\x01"
_ZSTD = b"TZ1\x00"
_TAG = "$tether"
_OPTS = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME


def _path(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def _import(path: str) -> Any:
    module_name, _, qualname = path.partition(":")
    try:
        obj: Any = importlib.import_module(module_name)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise SerializationError(
            f"stored payload names type {path!r}, which cannot be imported here: {exc}"
        ) from exc
    return obj


class _Encoder:
    __slots__ = ("tagged",)

    def __init__(self) -> None:
        self.tagged = False

    def __call__(self, value: Any) -> Any:
        self.tagged = True
        if isinstance(value, dt.datetime):
            return {_TAG: "datetime", "v": value.isoformat()}
        if isinstance(value, dt.date):
            return {_TAG: "date", "v": value.isoformat()}
        if isinstance(value, dt.time):
            return {_TAG: "time", "v": value.isoformat()}
        if isinstance(value, dt.timedelta):
            return {_TAG: "timedelta", "v": value.total_seconds()}
        if isinstance(value, bytes | bytearray | memoryview):
            return {_TAG: "bytes", "v": base64.b64encode(bytes(value)).decode("ascii")}
        if isinstance(value, pydantic.BaseModel):
            return {_TAG: "model", "cls": _path(type(value)), "v": value.model_dump(mode="json")}
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value) if f.init}
            return {_TAG: "dataclass", "cls": _path(type(value)), "v": fields}
        if isinstance(value, BaseException):
            out: dict[str, Any] = {
                _TAG: "exception",
                "cls": _path(type(value)),
                "message": str(value),
                "args": [_safe_arg(a) for a in value.args],
            }
            attrs = getattr(value, "__dict__", {})
            out["attrs"] = {k: _safe_arg(v) for k, v in attrs.items() if not k.startswith("_")}
            return out
        if isinstance(value, frozenset):
            return {_TAG: "frozenset", "v": list(value)}
        if isinstance(value, set):
            return {_TAG: "set", "v": list(value)}
        if isinstance(value, decimal.Decimal):
            return {_TAG: "decimal", "v": str(value)}
        raise TypeError(f"values of type {_path(type(value))!r} cannot be serialized")


def _safe_arg(value: Any) -> Any:
    try:
        orjson.dumps(value, default=_Encoder(), option=_OPTS)
    except TypeError:
        return repr(value)
    return value


def encode(value: Any, *, what: str = "value") -> bytes:
    """Serialize `value` into a framed payload.

    Args:
        value: Any JSON value, or the typed values the module docstring lists.
        what: Names the value in error messages (e.g. "output of step 'charge'").

    Raises:
        SerializationError: The value holds something that cannot be serialized.
    """
    encoder = _Encoder()
    try:
        body = orjson.dumps(value, default=encoder, option=_OPTS)
    except TypeError as exc:
        raise SerializationError(
            f"{what} cannot be serialized: {exc}; return JSON values, dataclasses, pydantic "
            "models, datetimes, bytes or exceptions (dict keys must be strings)"
        ) from exc
    frame = (_TAGGED if encoder.tagged else _PLAIN) + body
    if len(frame) >= COMPRESS_THRESHOLD:
        packed = _ZSTD + zstandard.compress(frame, 3)
        if len(packed) <= len(frame) * 0.95:
            return packed
    return frame


def is_frame(data: bytes) -> bool:
    """Whether `data` starts with a tether frame header."""
    return data[:4] in (_PLAIN, _TAGGED, _ZSTD)


def decode(data: bytes, *, what: str = "payload") -> Any:
    """Decode a framed payload back into values.

    Raises:
        SerializationError: The bytes are not a tether frame, are corrupt, or name a
            type that cannot be imported here.
    """
    header = bytes(data[:4])
    if header == _ZSTD:
        try:
            data = zstandard.decompress(bytes(data[4:]))
        except zstandard.ZstdError as exc:
            raise SerializationError(f"{what} is corrupt: its zstd frame fails: {exc}") from exc
        header = bytes(data[:4])
    if header not in (_PLAIN, _TAGGED):
        raise SerializationError(
            f"{what} is not a tether payload (header {header!r}); the store holds foreign or "
            "corrupt data"
        )
    try:
        value = orjson.loads(data[4:])
    except orjson.JSONDecodeError as exc:
        raise SerializationError(f"{what} is corrupt: {exc}") from exc
    if header == _TAGGED:
        return _revive(value)
    return value


def _revive(value: Any) -> Any:
    if isinstance(value, list):
        return [_revive(v) for v in value]
    if not isinstance(value, dict):
        return value
    kind = value.get(_TAG)
    if kind is None:
        return {k: _revive(v) for k, v in value.items()}
    try:
        return _revive_tagged(kind, value)
    except SerializationError:
        raise
    except Exception as exc:
        raise SerializationError(f"stored {kind!r} value cannot be rebuilt: {exc}") from exc


def _revive_tagged(kind: str, value: dict[str, Any]) -> Any:
    if kind == "datetime":
        return dt.datetime.fromisoformat(value["v"])
    if kind == "date":
        return dt.date.fromisoformat(value["v"])
    if kind == "time":
        return dt.time.fromisoformat(value["v"])
    if kind == "timedelta":
        return dt.timedelta(seconds=value["v"])
    if kind == "bytes":
        return base64.b64decode(value["v"])
    if kind == "set":
        return set(_revive(value["v"]))
    if kind == "frozenset":
        return frozenset(_revive(value["v"]))
    if kind == "decimal":
        return decimal.Decimal(value["v"])
    cls = _import(value["cls"])
    if kind == "model":
        if not (isinstance(cls, type) and issubclass(cls, pydantic.BaseModel)):
            raise SerializationError(f"{value['cls']!r} is not a pydantic model")
        return cls.model_validate(value["v"])
    if kind == "dataclass":
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
            raise SerializationError(f"{value['cls']!r} is not a dataclass")
        return cls(**{k: _revive(v) for k, v in value["v"].items()})
    if kind == "exception":
        return _revive_exception(cls, value)
    raise SerializationError(f"unknown tagged kind {kind!r}")


def _revive_exception(cls: Any, value: dict[str, Any]) -> BaseException:
    if not (isinstance(cls, type) and issubclass(cls, BaseException)):
        raise SerializationError(f"{value['cls']!r} is not an exception type")
    # Rebuilt without calling __init__: constructors of exception types take whatever
    # arguments their authors chose, while args and attributes are what was stored.
    exc: BaseException = cls.__new__(cls)
    exc.args = tuple(_revive(value["args"]))
    for key, attr in _revive(value.get("attrs", {})).items():
        try:
            setattr(exc, key, attr)
        except AttributeError:
            pass
    return exc


def describe(data: bytes | None) -> Any:
    """Decode for display: never raises; undecodable payloads describe themselves."""
    if data is None:
        return None
    try:
        return decode(data)
    except SerializationError as exc:
        return f"<undecodable payload: {exc}>"
