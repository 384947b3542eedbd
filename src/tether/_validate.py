"""What every layer checks in what it is given: durations, identifiers and text.

One rule for every backend, applied at the public API (before anything is written)
and again by the stores' shared rules, so a value one database would take and another
refuse (PostgreSQL refuses NUL characters, SQLite takes them) is refused everywhere,
with a typed error, and never reaches a database as a raw driver error that a worker
would retry forever.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from .errors import ConfigurationError, InvalidInputError

__all__ = [
    "MAX_IDENTIFIER_BYTES",
    "MAX_LABELS",
    "MAX_LABEL_KEY_BYTES",
    "MAX_LABEL_VALUE_BYTES",
    "check_attrs",
    "check_duration",
    "check_identifier",
    "check_labels",
    "check_optional_duration",
    "check_text",
    "parse_duration",
]

#: Longest identifier (run id, workflow name, step name, hook token), in UTF-8 bytes.
#: PostgreSQL's b-tree entries hold at most 2,704 bytes; the event log's unique index
#: holds a run id next to a child run id, so each stays well under half of that.
MAX_IDENTIFIER_BYTES = 1024

_IDENTIFIER_HINT = (
    f"use a non-empty string of at most {MAX_IDENTIFIER_BYTES} UTF-8 bytes without NUL characters"
)


def _text_problem(value: str) -> str | None:
    """Why `value` cannot be stored as text on every backend, or None."""
    if "\x00" in value:
        return "it contains a NUL character ('\\x00'), which PostgreSQL cannot store"
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            return f"it is not valid UTF-8 (a lone surrogate at position {exc.start})"
    return None


def check_identifier(value: Any, *, what: str) -> str:
    """Return `value` if it can name something on every backend.

    Args:
        value: The identifier, e.g. a run id.
        what: What it names, for the message (e.g. ``"run_id"``).

    Raises:
        InvalidInputError: It is not a string, is empty, holds a NUL character or a
            lone surrogate, or is longer than `MAX_IDENTIFIER_BYTES`.
    """
    if not isinstance(value, str):
        raise InvalidInputError(what, value, f"it is a {type(value).__name__}, not a string")
    if not value:
        raise InvalidInputError(what, value, "it is empty", hint=_IDENTIFIER_HINT)
    problem = _text_problem(value)
    if problem is None and len(value) * 4 > MAX_IDENTIFIER_BYTES:
        size = len(value.encode("utf-8"))
        if size > MAX_IDENTIFIER_BYTES:
            problem = f"it is {size} UTF-8 bytes long"
    if problem is not None:
        raise InvalidInputError(what, value, problem, hint=_IDENTIFIER_HINT)
    return value


#: Most labels one run carries, and the longest key and value, in UTF-8 bytes. A label
#: index entry holds the key, the value, a timestamp and the run id (at most
#: `MAX_IDENTIFIER_BYTES`): together well under PostgreSQL's 2,704-byte b-tree limit.
MAX_LABELS = 32
MAX_LABEL_KEY_BYTES = 128
MAX_LABEL_VALUE_BYTES = 512


def _bounded(value: Any, *, what: str, limit: int) -> str:
    hint = f"use a non-empty string of at most {limit} UTF-8 bytes without NUL characters"
    if not isinstance(value, str):
        raise InvalidInputError(what, value, f"it is a {type(value).__name__}, not a string")
    if not value:
        raise InvalidInputError(what, value, "it is empty", hint=hint)
    problem = _text_problem(value)
    if problem is None and len(value.encode("utf-8")) > limit:
        problem = f"it is {len(value.encode('utf-8'))} UTF-8 bytes long"
    if problem is not None:
        raise InvalidInputError(what, value, problem, hint=hint)
    return value


def check_labels(labels: Any, *, what: str = "labels") -> dict[str, str]:
    """Return `labels` as a dict if every backend can store and index them.

    Args:
        labels: A mapping of label keys to values (None is no labels).
        what: What they label, for the message.

    Raises:
        InvalidInputError: It is not a mapping, has more than `MAX_LABELS` entries, or a
            key or value is not a non-empty string of at most `MAX_LABEL_KEY_BYTES` /
            `MAX_LABEL_VALUE_BYTES` UTF-8 bytes without NUL characters.
    """
    if labels is None:
        return {}
    if not isinstance(labels, Mapping):
        raise InvalidInputError(
            what, labels, f"it is a {type(labels).__name__}, not a mapping of str to str"
        )
    if len(labels) > MAX_LABELS:
        raise InvalidInputError(
            what, None, f"there are {len(labels)} of them", hint=f"use at most {MAX_LABELS}"
        )
    checked: dict[str, str] = {}
    for key, value in labels.items():
        _bounded(key, what=f"label key of {what}", limit=MAX_LABEL_KEY_BYTES)
        checked[key] = _bounded(value, what=f"label {key!r} of {what}", limit=MAX_LABEL_VALUE_BYTES)
    return checked


def check_text(value: str, *, what: str) -> str:
    """Return `value` if every backend can store it as text (any length).

    Raises:
        InvalidInputError: It holds a NUL character or a lone surrogate.
    """
    problem = _text_problem(value)
    if problem is not None:
        raise InvalidInputError(what, value, problem, hint="remove it")
    return value


def check_attrs(attrs: Mapping[str, Any], *, what: str) -> None:
    """Refuse string attributes no backend can store alike (see `check_text`).

    Raises:
        InvalidInputError: One of them holds a NUL character or a lone surrogate.
    """
    for key, value in attrs.items():
        if isinstance(value, str) and _text_problem(value) is not None:
            check_text(value, what=f"{key} of {what}")


def check_duration(value: Any, *, what: str, positive: bool = False) -> float:
    """Return `value` as seconds if it is a usable duration.

    Args:
        value: Seconds, an int or a float.
        what: The option or argument, for the message (e.g. ``"lease_seconds"``).
        positive: Refuse zero too.

    Raises:
        ConfigurationError: It is not a number, is NaN or infinite, or negative (or
            zero when `positive`).
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigurationError(
            f"{what} must be a number of seconds, not {value!r} ({type(value).__name__})"
        )
    seconds = float(value)
    if math.isnan(seconds):
        raise ConfigurationError(
            f"{what} is NaN, which is not a duration: pass a number of seconds"
        )
    if math.isinf(seconds):
        raise ConfigurationError(
            f"{what} is {value!r}, and an infinite duration is not allowed: pass a finite "
            "number of seconds"
        )
    if seconds < 0 or (positive and seconds == 0):
        bound = "> 0" if positive else ">= 0"
        raise ConfigurationError(f"{what} must be {bound} seconds, not {value!r}")
    return seconds


def check_optional_duration(value: Any, *, what: str) -> float | None:
    """Like `check_duration`, and None stays None (no limit).

    Raises:
        ConfigurationError: As `check_duration`; for infinity the message names None.
    """
    if value is None:
        return None
    if isinstance(value, float) and math.isinf(value):
        raise ConfigurationError(
            f"{what} is {value!r}, and an infinite duration is not allowed: pass None to "
            "wait without a limit"
        )
    return check_duration(value, what=what)


_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0, "w": 604800.0}
_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)")


def parse_duration(value: float | int | timedelta | str) -> float:
    """Seconds from a number of seconds, a timedelta, or a string like "4h" or "1h30m".

    Raises:
        ConfigurationError: The value is negative, NaN, infinite or not a duration.
    """
    if isinstance(value, timedelta):
        seconds = value.total_seconds()
    elif isinstance(value, bool):
        raise ConfigurationError(f"{value!r} is not a duration")
    elif isinstance(value, int | float):
        seconds = float(value)
    elif isinstance(value, str):
        text = value.strip().lower().replace(" ", "")
        parts = _DURATION.findall(text)
        if not parts or "".join(n + u for n, u in parts) != text:
            raise ConfigurationError(
                f"{value!r} is not a duration; write seconds, a timedelta, or a string "
                "like '500ms', '30s', '10m', '4h', '2d', '1h30m'"
            )
        seconds = sum(float(n) * _UNITS[u] for n, u in parts)
    else:
        raise ConfigurationError(f"{value!r} is not a duration")
    # NaN and infinity would reach the store as a wake-up time no database orders.
    if not math.isfinite(seconds):
        check_duration(seconds, what=f"the duration {value!r}")
    if seconds < 0:
        raise ConfigurationError(f"a duration cannot be negative, got {value!r}")
    return seconds
