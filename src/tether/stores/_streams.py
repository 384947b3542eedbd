"""Workflow stream helpers shared by the backends: tail-relative starts, live following."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Protocol

from .._aio import wait_event
from ._records import StreamChunk

__all__ = ["follow", "resolve_start"]

#: Chunks a follower reads at a time.
_BATCH = 1000


class _ReadsStreams(Protocol):
    async def read_stream(
        self, run_id: str, name: str, *, start: int = 0, limit: int = 1000
    ) -> tuple[list[StreamChunk], bool]: ...


def resolve_start(start: int, length: int) -> int:
    """The first chunk index to read.

    A negative `start` counts back from the tail, clamped to the data chunks.
    """
    if start < 0:
        return max(0, length + start)
    return min(start, length)


async def follow(
    store: _ReadsStreams,
    run_id: str,
    name: str,
    *,
    start: int = 0,
    poll_interval: float = 0.05,
    wake: Callable[[], asyncio.Event] | None = None,
) -> AsyncIterator[StreamChunk]:
    """Yield the chunks of a stream from `start`, live, until the stream is closed.

    `wake` returns an event set when this process writes a stream: a quiet follower
    waits on it (up to `poll_interval`) instead of sleeping the whole interval.
    """
    event = wake() if wake is not None else None
    chunks, closed = await store.read_stream(run_id, name, start=start, limit=_BATCH)
    index = start
    while True:
        for chunk in chunks:
            yield chunk
            index = chunk.index + 1
        if closed:
            return
        if len(chunks) < _BATCH:
            # Read to the tail: wait for more. (The event was taken before the read,
            # so a chunk written since has set it already.)
            if event is None:
                await asyncio.sleep(poll_interval)
            else:
                await wait_event(event, poll_interval)
        # Take the event before reading: a write in between still wakes the next wait.
        event = wake() if wake is not None else None
        chunks, closed = await store.read_stream(run_id, name, start=max(index, 0), limit=_BATCH)
