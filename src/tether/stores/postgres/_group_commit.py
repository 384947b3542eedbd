"""Group commit: the one-round-trip commits of many runs that come at once, as one.

A worker that holds many runs (a recovery that claimed two hundred, a burst of
callers) has many step commits ready in the same turn of the event loop. Each sent
alone costs a connection's checkout, a pipeline, a wait on its socket and a
transaction with its own WAL flush on the server. `GroupCommits` collects the commits
handed to it during one turn of the loop and sends them together: the first at once,
alone (a commit that comes alone waits for nothing), the others at the end of that
turn, up to `max_batch` in one pipeline on one connection, as one transaction,
committed by its single Sync.

All or nothing, and no worse than alone: a batch's statements share one transaction,
so the first that raises (a copy out of date, any error) rolls the whole batch back and
nothing of it is written. Each of its commits is then sent alone, exactly as it would
have been without batching, and meets its own outcome (its refusal, which sends it to
the ordinary path). Two commits of one run never share a batch in a healthy process: a
run's commits come one after another from its activation; if they did (a stale
activation beside a new one), the second would raise on the first's stamp and both would
go alone.

Rows written by one batch share its transaction id, so their stamps (``xmin``) are
equal; a stamp is only ever compared with its own run's row, which any later write
changes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from . import _fast
from ._pool import CommitLane

__all__ = ["GroupCommits"]

log = logging.getLogger("tether.stores.postgres")

#: Commits in one batch at most: its row locks are held until its Sync, and psycopg
#: prepares each statement on the client; more go in further batches, on other
#: connections, at the same time.
MAX_BATCH = 32

_Notes = Sequence[tuple[str, str]]
_Item = tuple[_fast.FastCommit, _Notes, "asyncio.Future[_fast.Sent]"]


class GroupCommits:
    """Sends one-round-trip commits, those that come during one turn of the loop together.

    Only the event loop's thread uses it (as the lane it sends on).

    Args:
        lane: The commit lane whose connections carry the batches.
        checkout: Seconds to wait for a connection of the lane.
        max_batch: Commits in one batch at most.
    """

    def __init__(self, lane: CommitLane, *, checkout: float, max_batch: int = MAX_BATCH) -> None:
        self._lane = lane
        self._checkout = checkout
        self._max_batch = max_batch
        self._pending: list[_Item] = []
        self._scheduled = False
        self._sending: set[asyncio.Task[None]] = set()

    async def send(self, fast: _fast.FastCommit, notes: _Notes) -> _fast.Sent:
        """Write `fast` with `notes`, perhaps in a batch; returns what it returned.

        Raises:
            Exception: What sending it alone raised (a refusal when its run changed
                since the copy was taken); nothing of it was written.
        """
        loop = asyncio.get_running_loop()
        if not self._scheduled:
            # The first commit of this turn of the loop goes at once, alone: no wait
            # for others that may never come. Those that do come in this turn wait for
            # its end, and go together.
            self._scheduled = True
            loop.call_soon(self._flush)
            done: asyncio.Future[_fast.Sent] = loop.create_future()
            await self._alone(fast, notes, done)
            return await done
        done = loop.create_future()
        self._pending.append((fast, notes, done))
        return await done

    def _flush(self) -> None:
        self._scheduled = False
        pending, self._pending = self._pending, []
        size = self._max_batch
        for i in range(0, len(pending), size):
            task = asyncio.get_running_loop().create_task(self._send(pending[i : i + size]))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)

    async def _send(self, batch: list[_Item]) -> None:
        try:
            if len(batch) > 1:
                try:
                    async with self._lane.connection(timeout=self._checkout) as conn:
                        sent = await _fast.send_many(conn, [(f, n) for f, n, _ in batch])
                except Exception as exc:
                    # Rolled back whole: each goes alone, to meet its own outcome.
                    log.debug("a batch of %d commits was refused (%s)", len(batch), exc)
                else:
                    for (_, _, done), answer in zip(batch, sent, strict=True):
                        _settle(done, answer)
                    return
            await asyncio.gather(*(self._alone(*item) for item in batch))
        except BaseException as exc:
            # Cancelled (the store closing) or worse: no caller may wait forever.
            for _, _, done in batch:
                _settle(done, exc if isinstance(exc, Exception) else asyncio.CancelledError())
            raise

    async def _alone(
        self, fast: _fast.FastCommit, notes: _Notes, done: asyncio.Future[_fast.Sent]
    ) -> None:
        try:
            async with self._lane.connection(timeout=self._checkout) as conn:
                answer = await _fast.send(conn, fast, notes)
        except Exception as exc:
            _settle(done, exc)
        else:
            _settle(done, answer)


def _settle(done: asyncio.Future[Any], outcome: _fast.Sent | BaseException) -> None:
    # A caller that stopped waiting (cancelled) has no one to tell; the write stands
    # or not as it would had it been sent alone and abandoned.
    if done.done():
        return
    if isinstance(outcome, BaseException):
        done.set_exception(outcome)
    else:
        done.set_result(outcome)
