"""Noticing other processes' commits to the file: who needs it, and whom it wakes.

Only the writer thread can tell that another connection committed (`SqliteDatabase.watch`:
``PRAGMA data_version``), and only by looking, so it looks only while this process
has someone to tell: stream followers (their taps, see `StreamTaps`), and workers
waiting for queue messages. A worker in another process (`tether dev`'s generation
workers, `tether serve --no-worker` beside `tether worker`) would otherwise hear of a
message only at its next poll. A worker's waits come one after another with claims in
between, so the watch lingers a few seconds after the last wait ends rather than
stopping and starting (each start is a look that says "maybe": everyone reads).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

__all__ = ["OtherCommits"]

#: Seconds the watch stays on after the last queue wait ended.
QUEUE_LINGER = 5.0


class OtherCommits:
    """Turns the database's watch on while followers or queue waiters need it.

    Args:
        watch: `SqliteDatabase.watch`.
        followers: Called when another connection committed (the taps' ``changed_anywhere``).
        queues: The queue signals to set when another connection committed.
    """

    def __init__(
        self,
        watch: Callable[[Callable[[], None] | None], None],
        followers: Callable[[], None],
        queues: dict[str, asyncio.Event],
    ) -> None:
        self._watch = watch
        self._followers = followers
        self._queues = queues
        self._following = False
        self._waiting = 0
        self._linger_until = 0.0
        self._linger: asyncio.TimerHandle | None = None
        self._on = False

    def following(self, on: bool) -> None:
        """Whether this process has stream followers (the taps' ``watching``)."""
        self._following = on
        self._update()

    def wait_started(self) -> None:
        """A queue wait begins."""
        self._waiting += 1
        self._update()

    def wait_ended(self) -> None:
        """A queue wait ended (the watch lingers, see `QUEUE_LINGER`)."""
        self._waiting -= 1
        if self._waiting == 0:
            self._linger_until = time.monotonic() + QUEUE_LINGER
            if self._linger is None:
                self._linger = asyncio.get_running_loop().call_later(QUEUE_LINGER, self._expire)

    def _expire(self) -> None:
        self._linger = None
        remaining = self._linger_until - time.monotonic()
        if self._waiting == 0 and remaining > 0:
            self._linger = asyncio.get_running_loop().call_later(remaining, self._expire)
            return
        self._update()

    def _update(self) -> None:
        on = (
            self._following
            or self._waiting > 0
            or (self._linger is not None and time.monotonic() < self._linger_until)
        )
        if on != self._on:
            self._on = on
            self._watch(self._committed if on else None)

    def _committed(self) -> None:
        self._followers()
        for event in self._queues.values():
            event.set()
