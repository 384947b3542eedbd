"""How long an activation may still trust its lease, on this process's monotonic clock.

The store sets a lease's end on its own clock when it writes it. This process cannot
read that clock, but it knows when it sent the write: the store wrote it after that,
so the lease lasts at least until ``sent + lease_seconds`` here, whatever the two
clocks say and however long the answer took to come back. Every decision to trust the
lease (start a step body, keep running one) is made on that lower bound.
"""

from __future__ import annotations

import time

__all__ = ["Lease"]


class Lease:
    """The lower bound of when a run's lease ends, renewed by each write that renews it.

    Args:
        seconds: The lease length every renewal asks for; None when nobody renews
            (an activation outside a worker), and then the lease is always trusted.
        sent: When (``time.monotonic()``) the write that took or last renewed the
            lease was sent.
    """

    def __init__(self, seconds: float | None, sent: float) -> None:
        self.seconds = seconds
        self._until = float("inf") if seconds is None else sent + seconds

    def renewed(self, sent: float) -> None:
        """A write sent at `sent` renewed the lease."""
        if self.seconds is not None:
            self._until = max(self._until, sent + self.seconds)

    def remaining(self) -> float:
        """Seconds the lease surely lasts from now (negative once it may have ended)."""
        return self._until - time.monotonic()

    def fresh_enough(self) -> bool:
        """Whether a step body may start now: at least half a lease is left.

        Half a lease leaves room for renewals (every third of a lease) to keep it
        alive while the body runs; a commit that took longer than that to come back
        (a stall) does not qualify until a quick renewal does.
        """
        return self.seconds is None or self.remaining() >= self.seconds / 2

    def expired(self) -> bool:
        """Whether the lease may have ended: the holder must stop trusting it."""
        return self.remaining() <= 0
