"""Retry policy and duration parsing."""

from __future__ import annotations

from dataclasses import dataclass

from .._validate import check_duration, parse_duration
from ..errors import ConfigurationError

__all__ = ["DEFAULT_MAX_ATTEMPTS", "RetryPolicy", "parse_duration"]

DEFAULT_MAX_ATTEMPTS = 4


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
