"""Riding out a store outage: a caller that waits on a run waits through one.

A failover, a restart or a cut network makes store calls fail with
`StoreUnavailableError` for a while; the runs themselves outlive it (their workers take
them up again). Whoever waits on a run (`RunHandle.result`, a stream follower) should
outlive it too: each wait retries with a growing pause, and logs once per outage,
not once per failed call.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from ..errors import StoreUnavailableError
from ._tracing import count_outage

__all__ = ["Outage"]

T = TypeVar("T")

log = logging.getLogger("tether.durable")

#: The first and the longest pause between two tries during an outage.
FIRST_PAUSE = 0.05
LONGEST_PAUSE = 1.0


class Outage:
    """The state of one waiter's retries through store outages.

    Args:
        what: What waits, for the log line (``"following run r1's stream 'out'"``).
        level: The log level of an outage's first failure.
    """

    __slots__ = ("_level", "_pause", "what")

    def __init__(self, what: str, *, level: int = logging.WARNING) -> None:
        self.what = what
        self._level = level
        self._pause = 0.0

    async def pause(self, error: Exception, *, at_most: float | None = None) -> None:
        """Wait before the next try (logging the outage at its first failure).

        Args:
            error: The failure (`StoreUnavailableError`).
            at_most: The longest pause the caller can afford (its deadline).
        """
        if not self._pause:
            log.log(self._level, "%s: the store is unavailable: %s", self.what, error)
        count_outage("store")
        self._pause = min(max(self._pause * 2, FIRST_PAUSE), LONGEST_PAUSE)
        await asyncio.sleep(self._pause if at_most is None else min(self._pause, at_most))

    def over(self) -> None:
        """A call went through: the next failure starts (and logs) a new outage."""
        self._pause = 0.0

    async def retry(self, call: Callable[[], Awaitable[T]]) -> T:
        """`await call()`, tried again through outages until it goes through."""
        while True:
            try:
                result = await call()
            except StoreUnavailableError as exc:
                await self.pause(exc)
                continue
            self.over()
            return result
