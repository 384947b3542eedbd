"""Workflow stream helpers shared by the backends: tail-relative starts, live following."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Protocol

from ._records import StreamChunk

__all__ = ["follow", "resolve_start"]


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
    store: _ReadsStreams, run_id: str, name: str, *, start: int = 0, poll_interval: float = 0.05
) -> AsyncIterator[StreamChunk]:
    """Yield the chunks of a stream from `start`, live, until the stream is closed."""
    chunks, closed = await store.read_stream(run_id, name, start=start)
    index = start
    while True:
        for chunk in chunks:
            yield chunk
            index = chunk.index + 1
        if closed:
            return
        if not chunks:
            await asyncio.sleep(poll_interval)
        chunks, closed = await store.read_stream(run_id, name, start=max(index, 0))
