"""Waiting for runs to end: one watcher per store, not one poll loop per waiter.

A run can end in this process (a commit of its own worker: the waiters are handed the
final row at once) or in another process sharing the file (only a read can tell). One
task reads the state of every watched run in one query, at an interval that starts
short when a waiter arrives and backs off while nothing ends: with many callers waiting
at once (a server starting runs for its requests), one read serves them all instead of
one read per waiter per poll, which had cost more than the runs themselves.

A run this process created and has not seen end is not read when its waiter arrives
(most waits are of a run just started): had it ended here, its end would have been
seen; had it ended in another process, the watcher's first read, `FIRST_POLL` later,
finds it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping

from ..._aio import wait_event
from ...errors import StoreError
from .._records import TERMINAL_RUN_STATUSES, RunRecord

__all__ = ["RunEnds"]

#: The watcher's first interval after a waiter arrives, and the longest it backs off to.
FIRST_POLL = 0.01
LAST_POLL = 0.2
#: How many runs created here, not yet seen to end, are remembered (the oldest are
#: forgotten first: a wait for a forgotten one reads the run, as for any other).
BORN_HERE = 4096


class _Watch:
    __slots__ = ("ended", "record", "waiters")

    def __init__(self) -> None:
        self.ended = asyncio.Event()
        #: The run's final row, once known to have ended (None: it does not exist).
        self.record: RunRecord | None = None
        self.waiters = 0


class RunEnds:
    """The runs waiters watch, woken by this process's commits and by one poller.

    Args:
        read: Of the given run ids, those that ended (with their rows) or do not exist
            (with None); runs still going are left out.
    """

    def __init__(
        self, read: Callable[[list[str]], Awaitable[Mapping[str, RunRecord | None]]]
    ) -> None:
        self._read = read
        self._watched: dict[str, _Watch] = {}
        # Insertion-ordered, used as a bounded set.
        self._born: dict[str, None] = {}
        self._poller: asyncio.Task[None] | None = None
        self._interval = FIRST_POLL
        self._arrived = asyncio.Event()
        self._backed_off = False

    def created(self, run_ids: Iterable[str]) -> None:
        """Runs this process's commit just created."""
        born = self._born
        for run_id in run_ids:
            born[run_id] = None
            if len(born) > BORN_HERE:
                del born[next(iter(born))]

    def finished(self, records: Iterable[RunRecord]) -> None:
        """Runs this process's commit just ended: wake their waiters with the rows."""
        for record in records:
            self._born.pop(record.run_id, None)
            watch = self._watched.get(record.run_id)
            if watch is not None:
                watch.record = record
                watch.ended.set()

    async def wait(
        self, run_id: str, timeout: float, get: Callable[[], Awaitable[RunRecord | None]]
    ) -> RunRecord | None:
        """The run's row once it ended (None if it does not exist), else after `timeout`.

        `get` reads the run's current row.
        """
        watch = self._watched.get(run_id)
        if watch is None:
            watch = self._watched[run_id] = _Watch()
        watch.waiters += 1
        try:
            if run_id not in self._born or timeout < FIRST_POLL:
                # Watched before this read: an end committed after it wakes the watch.
                run = await get()
                if run is None or run.status in TERMINAL_RUN_STATUSES:
                    return run
            self._start_polling()
            await wait_event(watch.ended, timeout)
            if watch.ended.is_set():
                return watch.record
            return await get()
        finally:
            watch.waiters -= 1
            if watch.waiters == 0 and self._watched.get(run_id) is watch:
                del self._watched[run_id]

    def _start_polling(self) -> None:
        self._interval = FIRST_POLL
        if self._poller is None or self._poller.done():
            self._poller = asyncio.get_running_loop().create_task(
                self._poll(), name="tether-sqlite-run-ends"
            )
        elif self._backed_off:
            self._arrived.set()  # a new waiter's run may end elsewhere soon: look sooner

    async def _poll(self) -> None:
        while self._watched:
            self._arrived.clear()
            # Only a backed-off wait is cut short by a new waiter: waiters arriving
            # all the time must not keep the watcher from ever reading.
            self._backed_off = self._interval > FIRST_POLL
            await wait_event(self._arrived, self._interval)
            self._backed_off = False
            if self._arrived.is_set():
                continue
            pending = [r for r, w in self._watched.items() if not w.ended.is_set()]
            if not pending:
                continue
            started = time.monotonic()
            try:
                ended = await self._read(pending)
            except StoreError:
                # The file is busy or closing: the waiters' own timeouts still bound
                # their wait; look again at the longest interval.
                self._interval = LAST_POLL
                continue
            for run_id, run in ended.items():
                # Seen to end, here too: this read can come between a commit of this
                # process that ended the run and its `finished` (which runs once the
                # commit's answer is back on the loop); a wait after it must read.
                self._born.pop(run_id, None)
                watch = self._watched.get(run_id)
                if watch is None or watch.ended.is_set():
                    continue
                watch.record = run
                watch.ended.set()
            # Backs off while nothing arrives; a slow read (a busy file) stretches the
            # interval rather than reading back to back.
            self._interval = max(min(self._interval * 2, LAST_POLL), time.monotonic() - started)
