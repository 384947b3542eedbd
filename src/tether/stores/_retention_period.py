"""The retention period of ended runs: a backend option, validated and read here."""

from __future__ import annotations

from datetime import timedelta

from .._validate import parse_duration
from ..errors import ConfigurationError

__all__ = ["retention_period", "retention_seconds"]


def retention_seconds(value: object, *, what: str = "retention") -> float | None:
    """Validate a retention period of ended runs: None (keep forever) or a duration > 0.

    A duration is seconds, a timedelta, or a string such as ``"30d"``, ``"12h"`` or
    ``"86400"`` (seconds).

    Raises:
        ConfigurationError: Not a duration, or zero, negative, NaN or infinite.
    """
    if value is None:
        return None
    if not isinstance(value, int | float | timedelta | str) or isinstance(value, bool):
        raise ConfigurationError(
            f"{what} must be None (keep ended runs forever), seconds, a timedelta or a "
            f"string such as '30d', not {value!r}"
        )
    try:
        # A string of a number is seconds (``TETHER_RETENTION=86400``, ``--older-than 60``).
        seconds = parse_duration(_number_or(value))
    except ConfigurationError as exc:
        raise ConfigurationError(f"{what}: {exc}") from None
    if seconds <= 0:
        raise ConfigurationError(
            f"{what} must be longer than 0, not {value!r}: None keeps ended runs forever; "
            "retention=0 of a session deletes its content as it ends"
        )
    return seconds


def _number_or(value: float | timedelta | str) -> float | timedelta | str:
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value
    return value


def retention_period(backend: object) -> float | None:
    """The backend's retention period of ended runs in seconds (None: kept forever).

    The ``retention`` attribute of the built-in backends (`open_backend(retention=...)`);
    a backend without one keeps ended runs forever.
    """
    value = getattr(backend, "retention", None)
    return value if isinstance(value, float) else None
