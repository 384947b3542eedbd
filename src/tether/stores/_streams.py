"""Workflow stream helpers shared by the backends: tail-relative starts, live following."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Protocol

from .._aio import wait_event
from ..errors import StreamPositionError
from ._records import StreamChunk

__all__ = ["StreamTaps", "follow", "misplaced", "resolve_start"]

#: Chunks a follower reads at a time.
_BATCH = 1000
#: Chunks a tap holds for a follower that does not take them; past that it reads.
TAP_LIMIT = 4096


class _ReadsStreams(Protocol):
    async def read_stream(
        self, run_id: str, name: str, *, start: int = 0, limit: int = 1000
    ) -> tuple[list[StreamChunk], bool]: ...


def misplaced(run_id: str, name: str, at: int, next_index: int | None) -> StreamPositionError:
    """The refusal of an append expected at `at` (`next_index` None: not known, or closed)."""
    found = (
        "is closed or has another next index"
        if next_index is None
        else (f"has its next chunk at index {next_index}")
    )
    return StreamPositionError(
        f"stream {name!r} of run {run_id!r} {found}, not at {at}, where the append "
        "expected its first chunk; nothing was written (read the stream's tail and "
        "append again)"
    )


def resolve_start(start: int, length: int) -> int:
    """The first chunk index to read.

    A negative `start` counts back from the tail, clamped to the data chunks.
    """
    if start < 0:
        return max(0, length + start)
    return min(start, length)


class _Tap:
    """What one follower has been handed and not yet taken."""

    __slots__ = ("batches", "event", "size")

    def __init__(self) -> None:
        # (first index, chunks), or None: something the tap cannot vouch for changed.
        self.batches: list[tuple[int, list[bytes]] | None] = []
        self.size = 0
        self.event = asyncio.Event()

    def put(self, batch: tuple[int, list[bytes]] | None) -> None:
        if self.batches and self.batches[-1] is None:
            pass  # a read is due anyway: it reads these too
        elif batch is None or self.size + len(batch[1]) > TAP_LIMIT:
            # A follower that does not keep up reads the store instead of holding
            # everything written since in memory.
            self.batches = [None]
            self.size = 0
        else:
            self.batches.append(batch)
            self.size += len(batch[1])
        self.event.set()

    def take(self, index: int) -> list[StreamChunk] | None:
        """The chunks handed over from `index` on; None if the store must be read.

        Only chunks that follow on from `index` without a gap are taken from the tap:
        a gap (an append this process did not make, or one announced out of order)
        or a change it cannot vouch for means reading.
        """
        batches, self.batches, self.size = self.batches, [], 0
        self.event.clear()
        if not batches or index < 0:
            return None
        out: list[StreamChunk] = []
        for batch in batches:
            if batch is None:
                return None
            first, data = batch
            if first > index:
                return None
            out.extend(
                StreamChunk(index=i, data=d) for i, d in enumerate(data, first) if i >= index
            )
            index = max(index, first + len(data))
        return out


class StreamTaps:
    """This process's appends to run streams, handed to its followers once durable.

    A follower opens a tap on its stream before its first read. From then on, every
    append this process makes to the stream is put on the tap after it committed (the
    chunks and the index of the first), so the follower goes on without reading them
    back. What a tap cannot vouch for (another process's commits, a close, a purge)
    is announced with `changed`, and the follower reads the store.

    Args:
        watching: Called with True when the first tap opens and False when the last
            one closes (a store that can notice other processes' commits watches for
            them only while someone follows).
    """

    def __init__(self, watching: Callable[[bool], None] | None = None) -> None:
        self._taps: dict[tuple[str, str], set[_Tap]] = {}
        self._count = 0
        self._watching = watching

    @contextlib.contextmanager
    def tap(self, run_id: str, name: str) -> Iterator[_Tap]:
        """A tap on one stream, open while the block runs."""
        key = (run_id, name)
        tap = _Tap()
        self._taps.setdefault(key, set()).add(tap)
        self._count += 1
        if self._count == 1 and self._watching is not None:
            self._watching(True)
        try:
            yield tap
        finally:
            taps = self._taps.get(key)
            if taps is not None:
                taps.discard(tap)
                if not taps:
                    del self._taps[key]
            self._count -= 1
            if self._count == 0 and self._watching is not None:
                self._watching(False)

    def appended(self, run_id: str, name: str, first: int, chunks: list[bytes]) -> None:
        """This process appended `chunks` at `first` (call once they are durable)."""
        for tap in self._taps.get((run_id, name), ()):
            tap.put((first, chunks))

    def changed(self, run_id: str, name: str) -> None:
        """The stream changed otherwise (closed, purged): its followers must read it."""
        for tap in self._taps.get((run_id, name), ()):
            tap.put(None)

    def changed_anywhere(self) -> None:
        """Another process committed: every follower must read its stream."""
        for taps in self._taps.values():
            for tap in taps:
                tap.put(None)


async def follow(
    store: _ReadsStreams,
    run_id: str,
    name: str,
    *,
    start: int = 0,
    poll_interval: float | Callable[[], float] = 0.05,
    taps: StreamTaps | None = None,
) -> AsyncIterator[StreamChunk]:
    """Yield the chunks of a stream from `start`, live, until the stream is closed.

    With `taps` (the store's `StreamTaps`), what this process appends is handed over
    without a read, and a quiet follower waits on its tap, up to `poll_interval`,
    before it reads; without, it reads every `poll_interval`. A callable
    `poll_interval` is asked before each wait (a store whose notifications may lapse
    polls faster meanwhile).
    """
    tapped: contextlib.AbstractContextManager[_Tap | None] = (
        contextlib.nullcontext() if taps is None else taps.tap(run_id, name)
    )
    with tapped as tap:
        # The tap is open before the first read: an append that read misses is on it.
        chunks, closed = await store.read_stream(run_id, name, start=start, limit=_BATCH)
        index = start
        while True:
            for chunk in chunks:
                yield chunk
                index = chunk.index + 1
            if closed:
                return
            if len(chunks) < _BATCH:
                # At the tail: wait for more.
                wait = poll_interval() if callable(poll_interval) else poll_interval
                if tap is None:
                    await asyncio.sleep(wait)
                else:
                    await wait_event(tap.event, wait)
                    taken = tap.take(index)
                    if taken is not None:
                        chunks = taken  # empty when it held only what was read already
                        continue
            chunks, closed = await store.read_stream(
                run_id, name, start=max(index, 0), limit=_BATCH
            )
