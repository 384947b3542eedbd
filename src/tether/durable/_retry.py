"""Retry policy and duration parsing."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import timedelta

from .._validate import check_duration
from ..errors import ConfigurationError

__all__ = ["DEFAULT_MAX_ATTEMPTS", "RetryPolicy", "parse_duration"]

DEFAULT_MAX_ATTEMPTS = 4

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


@dataclass(frozen=True, slots=True, kw_only=True)
class RetryPolicy:
    """How often a step is attempted and how long to wait between attempts.

    Crashes and lost leases count as attempts. `FatalError` is never retried. A
    `RetryableError(retry_after=...)` overrides the computed delay.

    Args:
        max_attempts: Attempts in all, the first included.
        initial_delay: Seconds before the second attempt.
        backoff: Factor applied to the delay after each attempt.
        max_delay: Upper bound of the delay.
    """

    max_attempts: int = DEFAULT_MAX_ATTEMPTS
    initial_delay: float = 1.0
    backoff: float = 2.0
    max_delay: float = 60.0

    def __post_init__(self) -> None:
        attempts = self.max_attempts
        if isinstance(attempts, bool) or not isinstance(attempts, int) or attempts < 1:
            raise ConfigurationError(
                f"max_attempts must be an integer of at least 1, not {attempts!r}"
            )
        check_duration(self.initial_delay, what="RetryPolicy(initial_delay=...)")
        check_duration(self.max_delay, what="RetryPolicy(max_delay=...)")
        backoff = check_duration(self.backoff, what="RetryPolicy(backoff=...)")
        if backoff < 1:
            raise ConfigurationError(f"RetryPolicy(backoff=...) must be >= 1, not {backoff!r}")

    def delay(self, failed_attempt: int) -> float:
        """Seconds to wait after attempt number `failed_attempt` failed."""
        return min(self.max_delay, self.initial_delay * self.backoff ** (failed_attempt - 1))
