"""A run's named streams as clients read them: `Client.stream(run_id, name)`.

Streams carry what a run publishes while it works (an agent's session events, say).
Chunks are written by the run's steps (`step_stream`); anyone may read them from any
index and follow them live. A follower ends when the stream is closed or the run
has ended and every chunk is read, so it never hangs on a run that is gone.

A stream belongs to a chain (see `WorkflowContext.continue_as_new`): every run of the
chain writes it under the chain's id, so its indexes go on across moves, and a
follower ends only once the chain's current run has ended without a successor.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import AsyncIterator
from typing import Any, Protocol

from ..errors import NotFoundError, StoreUnavailableError
from ..stores import TERMINAL_RUN_STATUSES, RunLog, RunStreams, StreamChunk, chain_of
from ._outage import Outage

__all__ = ["DEFAULT_STATUS_INTERVAL", "RunStream"]


class ChainStreams(RunLog, RunStreams, Protocol):
    """The roles of a `WorkflowStore` a `RunStream` reads: runs, to follow a chain, and streams."""


#: Seconds between looks at the run's status while a followed stream is quiet.
DEFAULT_STATUS_INTERVAL = 1.0


class RunStream:
    """One named stream of one run.

    Args:
        store: The workflow store holding the run.
        run_id: The run.
        name: The stream's name.
        chain_id: The run's chain, if known (else read when first needed).
    """

    def __init__(
        self, store: ChainStreams, run_id: str, name: str, *, chain_id: str | None = None
    ) -> None:
        self._store = store
        self.run_id = run_id
        self.name = name
        self._chain = chain_id

    async def chain_id(self) -> str:
        """The chain the stream belongs to (the id its chunks are stored under)."""
        if self._chain is None:
            run = await self._store.get_run(self.run_id)
            # A run that does not exist (yet) keeps its own id: a first run's is its chain's.
            self._chain = self.run_id if run is None else chain_of(run)
        return self._chain

    async def read(self, start: int = 0, *, limit: int = 1000) -> tuple[list[StreamChunk], bool]:
        """Chunks from `start` (negative counts back from the tail), at most `limit`.

        Returns:
            The chunks, and whether the stream is closed with nothing after them.
        """
        chain = await self.chain_id()
        return await self._store.read_stream(chain, self.name, start=start, limit=limit)

    async def read_all(self, start: int = 0) -> list[StreamChunk]:
        """Every chunk from `start` (negative counts back from the tail) to the end."""
        out: list[StreamChunk] = []
        while True:
            chunks, _ = await self.read(start)
            out.extend(chunks)
            if len(chunks) < 1000:
                return out
            start = chunks[-1].index + 1

    async def run_ended(self) -> bool:
        """Whether the chain's current run has ended (completed, failed or cancelled).

        A run that continued as new has not (its successor writes on), nor one whose
        chain was started again.

        Raises:
            NotFoundError: The run does not exist.
        """
        run = await self._store.get_run(self.run_id)
        if run is None:
            raise NotFoundError(f"run {self.run_id!r} does not exist")
        if run.status in TERMINAL_RUN_STATUSES:
            # Its chain may go on: continued as new, or started again (`Client.restart`).
            latest = await self._store.latest_run(chain_of(run))
            run = latest if latest is not None and latest.generation > run.generation else run
        return run.status in TERMINAL_RUN_STATUSES and run.status != "continued"

    async def follow(
        self,
        start: int = 0,
        *,
        poll_interval: float = 0.05,
        status_interval: float = DEFAULT_STATUS_INTERVAL,
        known_running: bool = False,
    ) -> AsyncIterator[StreamChunk]:
        """Yield chunks from `start` live, until the stream closes or the run has ended.

        Args:
            start: The first index; negative counts back from the tail.
            poll_interval: Longest wait between reads where the store cannot announce
                new chunks.
            status_interval: How often a quiet stream looks whether its run ended.
            known_running: The caller has just seen the chain's current run not ended:
                the first look at its status comes after `status_interval`, not at once.
        """
        # A store outage (a failover, a cut network) is waited through, as the run
        # outlives it: the follower neither fails nor ends before the run's end. Reads
        # and status looks pace (and log) their retries apart: one going through says
        # nothing of the other.
        what = f"following stream {self.name!r} of run {self.run_id}"
        outage = Outage(what, level=logging.INFO)
        looks = Outage(f"{what} (looking whether it ended)", level=logging.INFO)
        chain = await outage.retry(self.chain_id)
        # One task moves the source's chunks into a bounded queue (a slow reader holds
        # it back), another puts `_ENDED` in once the run has ended. A chunk the source
        # has at hand reaches the reader with no task or wait of its own: a burst of
        # events costs no more than one wake-up.
        queue: asyncio.Queue[StreamChunk | _Signal] = asyncio.Queue(_BUFFER)
        pump = asyncio.ensure_future(self._pump(chain, start, poll_interval, queue, outage))
        ended = asyncio.ensure_future(
            self._wait_ended(
                queue, status_interval, status_interval if known_running else 0.0, looks
            )
        )
        index = start
        try:
            while True:
                item = await queue.get()
                if isinstance(item, StreamChunk):
                    index = item.index + 1
                    yield item
                elif item is _CLOSED:
                    return
                elif isinstance(item, _Failed):
                    raise item.error
                else:
                    # The run ended: what it wrote is all there is. Read the rest, then
                    # stop (chunks the pump queued behind this are among them).
                    await _stop(pump)
                    for chunk in await outage.retry(functools.partial(self.read_all, index)):
                        yield chunk
                    return
        finally:
            ended.cancel()
            await _stop(pump)

    async def _pump(
        self,
        chain: str,
        start: int,
        poll_interval: float,
        queue: asyncio.Queue[StreamChunk | _Signal],
        outage: Outage,
    ) -> None:
        index = start
        while True:
            source = self._store.follow_stream(
                chain, self.name, start=index, poll_interval=poll_interval
            )
            try:
                async for chunk in source:
                    outage.over()
                    await queue.put(chunk)
                    index = chunk.index + 1
            except StoreUnavailableError as exc:
                # Followed again from the first chunk not yet queued, once reachable.
                await outage.pause(exc)
                continue
            except Exception as exc:
                await queue.put(_Failed(exc))
                return
            finally:
                with contextlib.suppress(Exception):
                    await source.aclose()  # type: ignore[attr-defined]
            await queue.put(_CLOSED)
            return

    async def _wait_ended(
        self,
        queue: asyncio.Queue[StreamChunk | _Signal],
        interval: float,
        first: float,
        outage: Outage,
    ) -> None:
        # Starts with a look unless the caller has just looked (`first`): a follower of a
        # run that already ended must not wait.
        next_look = time.monotonic() + first
        with contextlib.suppress(Exception):  # a failed look (the run gone) ends it too
            while True:
                delay = next_look - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
                try:
                    if await self.run_ended():
                        break
                except StoreUnavailableError as exc:
                    await outage.pause(exc)  # an outage says nothing of the run: look again
                    continue
                outage.over()
                next_look = time.monotonic() + interval
        await queue.put(_ENDED)


class _Signal:
    """What a follower's queue holds besides chunks."""


#: The stream is closed and every chunk was queued.
_CLOSED = _Signal()
#: The run has ended.
_ENDED = _Signal()
#: Chunks a follower's pump may queue ahead of its reader: a burst of events flows
#: without a wait, and a reader that stops early (`wait_for`) leaves little read for
#: nothing.
_BUFFER = 64


class _Failed(_Signal):
    def __init__(self, error: Exception) -> None:
        self.error = error


async def _stop(task: asyncio.Future[Any]) -> None:
    # Waited for, not awaited: the caller's own cancellation must not be swallowed.
    task.cancel()
    await asyncio.wait({task})
