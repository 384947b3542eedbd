r"""Payload codec: typed JSON, framed with a short header, zstd above a threshold.

Frames (the first four bytes say what follows):

- ``TJ1\\x00`` plain JSON: only JSON types inside.
- ``TJ1\\x01`` tagged JSON: some values are objects tagged ``{"$tether": kind, ...}``
  (datetimes, bytes, dataclasses, pydantic models, exceptions, sets, decimals, NaN and
  infinities, ...).
- ``TZ1\\x00`` a zstd frame whose content is one of the above. Payloads of at least
  `COMPRESS_THRESHOLD` bytes are compressed when that saves at least 5 %.

Lossy on purpose, and the same live and on replay because the engine hands a step's
*decoded* output to the workflow in both cases: tuples become lists, UUIDs strings and
enums their values. Dict keys must be strings. Floats round-trip exactly, NaN and
infinities included.

Canonical where it matters: a set is written in the order of its members' encodings
(not in iteration order, which depends on the hash seed of the process), and `digest`
hashes a value with dict keys sorted, so equal values have equal digests in any
process.

Exceptions are written with their class, text, arguments, public attributes and
traceback, and encoding one never fails: what cannot be written is replaced by its
``repr`` or a placeholder. Decoding one never fails either: an exception whose class
cannot be rebuilt here comes back as a `RecordedError` with the recorded facts.
"""

from __future__ import annotations

import base64
import contextvars
import dataclasses
import datetime as dt
import decimal
import hashlib
import importlib
import math
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

import orjson
import pydantic
import zstandard

from .errors import RecordedError, SerializationError

__all__ = [
    "COMPRESS_THRESHOLD",
    "ErrorFacts",
    "decode",
    "decode_error",
    "describe",
    "digest",
    "encode",
    "encode_error",
    "is_frame",
    "journaled",
]

_T = TypeVar("_T", bound=type)

COMPRESS_THRESHOLD = 1024
#: Longest traceback text kept with an error (its last lines, where it was raised).
TRACEBACK_LIMIT = 16_000
_PLAIN = b"TJ1\x00"
_TAGGED = b"TJ1\x01"
_ZSTD = b"TZ1\x00"
_SEGMENTED = b"TS1\x00"
#: Byte strings at least this long are written raw beside the JSON (a segment), not in
#: it as base64: a 10 MB tool result then costs a copy, not an encoding and a parse.
SEGMENT_THRESHOLD = 64 * 1024
#: The segments of the payload being encoded or decoded (None outside `encode`/`decode`).
_SEGMENTS: contextvars.ContextVar[list[bytes] | None] = contextvars.ContextVar(
    "tether_codec_segments", default=None
)
_TAG = "$tether"
#: How a tagged object starts in orjson's output (the tag is always its first key).
_TAGGED_MARK = b'{"$tether":'
_OPTS = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME


#: tether's journaled records by stable name (see `journaled`), and the names by class.
_NAMED: dict[str, type] = {}
_NAME_OF: dict[type, str] = {}
#: What journals written by tether 0.1.0 call the types that now have a stable name (or
#: moved): their module paths of then. A journal keeps its paths forever, so an entry
#: here is never removed; moving a journaled type without a stable name adds one.
FORMER_PATHS: dict[str, str] = {
    **{
        f"tether.agent.{module}:{name}": f"agent.{name}"
        for module, names in {
            "_cursor": (
                "Producer",
                "TurnState",
                "Cursor",
                "ParkedCall",
                "ParkedResult",
                "StepResult",
            ),
            "_parked": ("Question", "Deadline", "Task", "Verdict"),
            "_requests": ("InputRequest", "TaskRef"),
            "_questions": ("Option", "Answer"),
            "_line": ("Predecessor", "SessionLine"),
        }.items()
        for name in names
    },
    "tether.agent._work:TranscriptLostError": "tether.errors:TranscriptLostError",
}


def journaled(name: str) -> Callable[[_T], _T]:
    """Give a record that steps take or return a stable name in the journal.

    The codec writes `name` where it would write the class's ``module:qualname``, so a
    module can move without stranding the journals that hold its records: replay,
    ``check-deploy`` and fork read them by name. A name is ``<wing>.<Type>``; decoding
    one imports ``tether.<wing>``, which registers every record of that wing.
    """
    wing, _, type_name = name.partition(".")
    if not wing or not type_name or ":" in name:
        raise ValueError(f"a journaled name is '<wing>.<Type>', not {name!r}")

    def register(cls: _T) -> _T:
        if _NAMED.setdefault(name, cls) is not cls:
            raise ValueError(f"journaled name {name!r} is taken by {_NAMED[name]!r}")
        _NAME_OF[cls] = name
        return cls

    return register


def _path(cls: type) -> str:
    name = _NAME_OF.get(cls)
    return name if name is not None else f"{cls.__module__}:{cls.__qualname__}"


def _type_name(path: str) -> str:
    """``module.Qualname`` from a stored ``module:Qualname`` (or a stable name)."""
    return path.replace(":", ".", 1)


def _named(name: str) -> type:
    cls = _NAMED.get(name)
    if cls is None:
        # The wing registers its records when it is imported.
        importlib.import_module(f"tether.{name.partition('.')[0]}")
        cls = _NAMED.get(name)
    if cls is None:
        raise SerializationError(
            f"stored payload names the journaled type {name!r}, which this release of "
            "tether does not define"
        )
    return cls


def _import(path: str) -> Any:
    path = FORMER_PATHS.get(path, path)
    if ":" not in path:
        try:
            return _named(path)
        except ImportError as exc:
            raise SerializationError(
                f"stored payload names type {path!r}, which cannot be imported here: {exc}"
            ) from exc
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


def _tag(value: Any) -> Any:
    """The `default` orjson calls: a tagged object for what JSON cannot hold."""
    if isinstance(value, dt.datetime):
        return {_TAG: "datetime", "v": value.isoformat()}
    if isinstance(value, dt.date):
        return {_TAG: "date", "v": value.isoformat()}
    if isinstance(value, dt.time):
        return {_TAG: "time", "v": value.isoformat()}
    if isinstance(value, dt.timedelta):
        return {_TAG: "timedelta", "v": value.total_seconds()}
    if isinstance(value, bytes | bytearray | memoryview):
        segments = _SEGMENTS.get()
        if segments is not None and len(value) >= SEGMENT_THRESHOLD:
            segments.append(bytes(value))
            return {_TAG: "segment", "i": len(segments) - 1}
        return {_TAG: "bytes", "v": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, pydantic.BaseModel):
        return {_TAG: "model", "cls": _path(type(value)), "v": value.model_dump(mode="json")}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value) if f.init}
        return {_TAG: "dataclass", "cls": _path(type(value)), "v": fields}
    if isinstance(value, BaseException):
        return _error_record(value)
    if isinstance(value, frozenset):
        return {_TAG: "frozenset", "v": _canonical_members(value)}
    if isinstance(value, set):
        return {_TAG: "set", "v": _canonical_members(value)}
    if isinstance(value, decimal.Decimal):
        return {_TAG: "decimal", "v": str(value)}
    raise TypeError(f"values of type {_path(type(value))!r} cannot be serialized")


def _fix(value: Any) -> Any:
    """`value` with NaN and infinities tagged, through dicts and lists."""
    if isinstance(value, float):
        return value if math.isfinite(value) else {_TAG: "float", "v": repr(value)}
    if isinstance(value, dict):
        return {k: _fix(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_fix(v) for v in value]
    return value


def _tag_finite(value: Any) -> Any:
    """`_tag`, with NaN and infinities in what it returns tagged too."""
    return _fix(_tag(value))


_LEAVES = frozenset({str, int, bool, type(None)})


def _has_non_finite(value: Any) -> bool:
    """Whether a NaN or an infinity hides in `value` (where orjson writes it as null).

    Only called for values orjson has just written, so they hold no cycles. Exceptions
    are not entered: their records tag such floats themselves. The common containers
    are scanned inline: this runs for every payload whose JSON holds a null.
    """
    stack = [value]
    pop, push = stack.pop, stack.append
    while stack:
        item = pop()
        kind = type(item)
        if kind is dict or kind is list or kind is tuple:
            for member in item.values() if kind is dict else item:
                member_kind = type(member)
                if member_kind is float:
                    if member - member != 0.0:  # NaN - NaN and inf - inf are NaN
                        return True
                elif member_kind not in _LEAVES:
                    push(member)
        elif kind in _LEAVES:
            continue
        elif isinstance(item, float):
            if not math.isfinite(item):
                return True
        elif isinstance(item, dict):
            push(dict(item))
        elif isinstance(item, list | tuple | set | frozenset):
            push(list(item))
        elif isinstance(item, pydantic.BaseModel):
            push(list(item.__dict__.values()))
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            push([getattr(item, f.name) for f in dataclasses.fields(item) if f.init])
    return False


def _canonical_members(members: set[Any] | frozenset[Any]) -> list[Any]:
    # Iteration order of a set of strings depends on the process's hash seed: the same
    # set written by two processes must give the same bytes (run input comparison).
    def key(member: Any) -> bytes:
        return orjson.dumps(member, default=_tag, option=_OPTS | orjson.OPT_SORT_KEYS)

    try:
        return sorted(members, key=key)
    except TypeError:
        # A member that cannot be written fails the encoding below, with its type named.
        return list(members)


def _safe_repr(value: Any) -> str:
    try:
        return repr(value)
    except Exception:
        return f"<{type(value).__qualname__} object (repr() raised)>"


def _safe_str(exc: BaseException) -> str:
    try:
        return str(exc)
    except Exception as inner:
        return f"<unprintable {type(exc).__qualname__}: its __str__ raised {type(inner).__name__}>"


def _safe_arg(value: Any) -> Any:
    try:
        orjson.dumps(value, default=_tag, option=_OPTS)
    except Exception:
        return _safe_repr(value)
    return _fix(value)


def _traceback_text(exc: BaseException) -> str | None:
    if exc.__traceback__ is None:
        return None
    try:
        text = "".join(traceback.format_exception(exc))
    except Exception:
        return None
    if len(text) > TRACEBACK_LIMIT:
        text = "(earlier lines cut)\n" + text[-TRACEBACK_LIMIT:]
    return text


def _error_record(value: BaseException) -> dict[str, Any]:
    """An exception as a tagged object; never raises, whatever the exception does.

    The engine writes every failure it sees: an error it could not write would leave
    the run with no recorded outcome.
    """
    out: dict[str, Any] = {
        _TAG: "exception",
        "cls": _path(type(value)),
        "message": _safe_str(value),
        "args": [],
        "attrs": {},
        "traceback": _traceback_text(value),
    }
    try:
        out["args"] = [_safe_arg(a) for a in value.args]
    except Exception:
        out["args"] = []
    try:
        attrs = dict(vars(value))
    except Exception:
        attrs = {}
    out["attrs"] = {
        k: _safe_arg(v) for k, v in attrs.items() if isinstance(k, str) and not k.startswith("_")
    }
    return out


def _dumps(value: Any, option: int) -> tuple[bytes, bool]:
    """JSON bytes of `value` and whether they hold tagged values."""
    body = orjson.dumps(value, default=_tag, option=option)
    # orjson writes NaN and infinities as null: only a body holding "null" can have
    # lost one, and only then is the value searched (and, if one is found, written
    # again with them tagged).
    if b"null" in body and _has_non_finite(value):
        segments = _SEGMENTS.get()
        if segments is not None:
            segments.clear()  # written again below
        return orjson.dumps(_fix(value), default=_tag_finite, option=option), True
    # A one-byte search (memchr) first: most payloads hold no "$" at all.
    return body, b"$" in body and _TAGGED_MARK in body


def encode(value: Any, *, what: str = "value") -> bytes:
    """Serialize `value` into a framed payload.

    Args:
        value: Any JSON value, or the typed values the module docstring lists.
        what: Names the value in error messages (e.g. "output of step 'charge'").

    Raises:
        SerializationError: The value holds something that cannot be serialized.
    """
    segments: list[bytes] = []
    # An error is written whole (its readers parse it without its segments).
    token = _SEGMENTS.set(None if isinstance(value, BaseException) else segments)
    try:
        body, tagged = _dumps(value, _OPTS)
    except Exception as exc:
        if isinstance(value, BaseException):
            # Only reached if the exception changed while it was written: an error must
            # always be written, so write what cannot fail.
            body, tagged = orjson.dumps(_minimal_error(value)), True
        elif not isinstance(exc, TypeError):
            raise
        else:
            raise SerializationError(
                f"{what} cannot be serialized: {exc}; return JSON values, dataclasses, "
                "pydantic models, datetimes, bytes or exceptions (dict keys must be strings)"
            ) from exc
    finally:
        _SEGMENTS.reset(token)
    frame = _packed((_TAGGED if tagged else _PLAIN) + body)
    if not segments:
        return frame
    # A segmented frame: the JSON frame (its length first), then each segment with
    # its length and whether it is compressed.
    parts = [_SEGMENTED, len(frame).to_bytes(4, "big"), frame]
    for segment in segments:
        packed = zstandard.compress(segment, 1)
        compressed = len(packed) <= len(segment) * 0.95
        data = packed if compressed else segment
        parts += [len(data).to_bytes(8, "big"), b"\x01" if compressed else b"\x00", data]
    return b"".join(parts)


def encode_error(error: BaseException) -> bytes:
    """The journal form of an error; never raises, whatever the error's methods do."""
    try:
        return encode(error, what="error")
    except Exception:
        name = type(error).__qualname__
        return encode(RuntimeError(f"{name} (its details could not be recorded)"), what="error")


def _packed(frame: bytes) -> bytes:
    """`frame`, or its zstd frame when at least 5 % smaller."""
    if len(frame) >= COMPRESS_THRESHOLD:
        packed = _ZSTD + zstandard.compress(frame, 3)
        if len(packed) <= len(frame) * 0.95:
            return packed
    return frame


def _segments(data: bytes, what: str) -> tuple[memoryview, list[bytes]]:
    """The JSON frame of a segmented frame and its segments."""
    view = memoryview(data)
    try:
        size = int.from_bytes(view[4:8], "big")
        frame, pos, segments = view[8 : 8 + size], 8 + size, []
        while pos < len(view):
            length = int.from_bytes(view[pos : pos + 8], "big")
            compressed = view[pos + 8] == 1
            piece = view[pos + 9 : pos + 9 + length]
            if len(piece) != length:
                raise ValueError("a segment is cut short")
            segments.append(zstandard.decompress(piece) if compressed else piece.tobytes())
            pos += 9 + length
    except (ValueError, IndexError, zstandard.ZstdError) as exc:
        raise SerializationError(f"{what} is corrupt: its segments fail: {exc}") from exc
    return frame, segments


def is_frame(data: bytes) -> bool:
    """Whether `data` starts with a tether frame header."""
    return data[:4] in (_PLAIN, _TAGGED, _ZSTD, _SEGMENTED)


def _load(data: bytes, what: str) -> tuple[bytes, Any]:
    """The frame's header (plain or tagged) and its JSON, not yet revived."""
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
        return header, orjson.loads(data[4:])
    except orjson.JSONDecodeError as exc:
        raise SerializationError(f"{what} is corrupt: {exc}") from exc


def decode(data: bytes, *, what: str = "payload") -> Any:
    """Decode a framed payload back into values.

    Exceptions inside never fail the decoding: one whose class cannot be rebuilt here
    comes back as a `RecordedError`.

    Raises:
        SerializationError: The bytes are not a tether frame, are corrupt, or name a
            (non-exception) type that cannot be imported here.
    """
    if data[:4] == _SEGMENTED:
        frame, segments = _segments(data, what)
        token = _SEGMENTS.set(segments)
        try:
            return decode(frame.tobytes(), what=what)
        finally:
            _SEGMENTS.reset(token)
    header, value = _load(data, what)
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
    if kind == "segment":
        segments = _SEGMENTS.get()
        if segments is None or not 0 <= value["i"] < len(segments):
            raise SerializationError(f"segment {value['i']!r} is missing from the payload")
        return segments[value["i"]]
    if kind == "set":
        return set(_revive(value["v"]))
    if kind == "frozenset":
        return frozenset(_revive(value["v"]))
    if kind == "decimal":
        return decimal.Decimal(value["v"])
    if kind == "float":
        return float(value["v"])
    if kind == "exception":
        return _revive_exception(value)
    cls = _import(value["cls"])
    if kind == "model":
        if not (isinstance(cls, type) and issubclass(cls, pydantic.BaseModel)):
            raise SerializationError(f"{value['cls']!r} is not a pydantic model")
        # The dump is JSON but for tagged NaN and infinities.
        return cls.model_validate(_revive(value["v"]))
    if kind == "dataclass":
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
            raise SerializationError(f"{value['cls']!r} is not a dataclass")
        return cls(**{k: _revive(v) for k, v in value["v"].items()})
    raise SerializationError(f"unknown tagged kind {kind!r}")


def _revive_exception(value: dict[str, Any]) -> BaseException:
    path = str(value.get("cls", "builtins:Exception"))
    try:
        cls = _import(path)
        if not (isinstance(cls, type) and issubclass(cls, BaseException)):
            raise SerializationError(f"{path!r} is not an exception type")
        # Rebuilt without calling __init__: constructors of exception types take whatever
        # arguments their authors chose, while args and attributes are what was stored.
        exc: BaseException = cls.__new__(cls)
        exc.args = tuple(_revive(value.get("args", [])))
        for key, attr in _revive(value.get("attrs", {})).items():
            try:
                setattr(exc, key, attr)
            except Exception:
                pass
        # An instance whose text cannot be made is useless to whoever catches it (and
        # fails whoever logs it): keep the recorded facts instead.
        str(exc)
    except Exception as failure:
        reason = str(failure) if isinstance(failure, SerializationError) else _safe_str(failure)
        return RecordedError(
            _type_name(path),
            str(value.get("message", "")),
            _str_or_none(value.get("traceback")),
            reason=f"{type(failure).__name__}: {reason}",
        )
    return exc


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _minimal_error(value: BaseException) -> dict[str, Any]:
    """The least that is written of an exception: its class and a safe text."""
    cls = type(value)
    return {
        _TAG: "exception",
        "cls": f"{cls.__module__}:{cls.__qualname__}",
        "message": _safe_str(value),
        "args": [],
        "attrs": {},
        "traceback": None,
    }


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ErrorFacts:
    """A recorded error: the exception (rebuilt or a `RecordedError`) and what was kept."""

    error: BaseException
    error_type: str
    message: str
    traceback: str | None

    @property
    def summary(self) -> str:
        """``ShortTypeName: message``."""
        return f"{self.error_type.rsplit('.', 1)[-1]}: {self.message}"


def decode_error(data: bytes | None, *, what: str = "error") -> ErrorFacts:
    """Decode a recorded error; never raises.

    Undecodable bytes (corrupt, foreign) give a `RecordedError` saying so.
    """
    if not data:
        missing = RecordedError("unknown", "no error was recorded")
        return _facts(missing)
    try:
        header, raw = _load(data, what)
        if isinstance(raw, dict) and raw.get(_TAG) == "exception":
            error = _revive_exception(raw)
            return ErrorFacts(
                error=error,
                error_type=_type_name(str(raw.get("cls"))),
                message=str(raw.get("message", "")),
                traceback=_str_or_none(raw.get("traceback")),
            )
        value = _revive(raw) if header == _TAGGED else raw
    except SerializationError as exc:
        undecodable = RecordedError("unknown", f"<undecodable {what}: {exc}>", reason=str(exc))
        return _facts(undecodable)
    if isinstance(value, BaseException):
        return ErrorFacts(
            error=value,
            error_type=_type_name(_path(type(value))),
            message=_safe_str(value),
            traceback=None,
        )
    return _facts(
        RecordedError("unknown", _safe_repr(value), reason="the record is not an exception")
    )


def _facts(error: RecordedError) -> ErrorFacts:
    return ErrorFacts(
        error=error,
        error_type=error.error_type,
        message=error.error_message,
        traceback=error.error_traceback,
    )


def digest(value: Any) -> str:
    """A digest of `value` that equal values share in every process.

    Sets are written in a canonical order and dict keys sorted, so neither the hash
    seed nor insertion order changes it; it depends on values, not on how their bytes
    are stored (compressed, encrypted).

    Raises:
        SerializationError: The value cannot be serialized.
    """
    try:
        body, _ = _dumps(value, _OPTS | orjson.OPT_SORT_KEYS)
    except TypeError as exc:
        raise SerializationError(f"value cannot be serialized: {exc}") from exc
    return "sha256:" + hashlib.sha256(body).hexdigest()


def describe(data: bytes | None) -> Any:
    """Decode for display: never raises; undecodable payloads describe themselves."""
    if data is None:
        return None
    try:
        return decode(data)
    except SerializationError as exc:
        return f"<undecodable payload: {exc}>"
