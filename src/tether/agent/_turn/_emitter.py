"""Session events of one step: coordinates derived from what the step records.

A step's events are numbered by *part*, then by position in the part, so an event's
`sequence` does not depend on what else its attempt happened to emit::

    sequence = part * PART + index

Part 0 holds what happens as the step begins (a turn starting, answers recorded,
messages joining, requests withdrawn); part 1 the tools of a reply recorded by an
earlier step; part 2 the boundary after them. The n-th model call of the step (from 0)
has part ``3 + 3n`` (its deltas count from 0, ``message.completed`` is the last index of
the part), ``4 + 3n`` for its tools (call ``j``: ``tool.call`` at ``2j``, ``tool.result``
at ``2j + 1``; the requests of held calls after them) and ``5 + 3n`` for the boundary
after them (joins, the turn's end). A retry that adopts a recorded reply emits no
deltas for it, and its tool events keep their numbers.

Events are written through the step's stream (`durable.step_stream`): deltas are
flushed live in small bursts, and whatever is still buffered lands with the step's
next commit, in order.
"""

from __future__ import annotations

import asyncio
import contextlib

from ... import durable
from .._records._event_data import EventData
from .._records._events import EVENTS_STREAM, encode_event

__all__ = ["PART", "Emitter", "boundary_part", "model_part", "tools_part"]

#: Positions per part.
PART = 1_000_000
#: Seconds a burst of deltas may wait before it is written live.
FLUSH_INTERVAL = 0.02


def model_part(call: int) -> int:
    """The part of the step's `call`-th model call (from 0)."""
    return 3 + 3 * call


def tools_part(call: int | None) -> int:
    """The part of the tools of the `call`-th reply (None: a reply of an earlier step)."""
    return 1 if call is None else 4 + 3 * call


def boundary_part(call: int | None) -> int:
    """The part of the boundary after the `call`-th reply's tools (None: see `tools_part`)."""
    return 2 if call is None else 5 + 3 * call


class Emitter:
    """Emits one step's events with their coordinates (turn, step index, sequence)."""

    def __init__(self, turn_id: str | None, step_index: int | None) -> None:
        self.turn_id = turn_id
        self.step_index = step_index
        info = durable.step_info()
        self.attempt = info.attempt
        self._stream = durable.step_stream(EVENTS_STREAM)
        self._flusher: asyncio.Task[None] | None = None
        self._next: dict[int, int] = {}

    def emit(
        self, data: EventData, part: int = 0, index: int | None = None, *, at: float | None = None
    ) -> None:
        """Emit an event at (part, index); index defaults to the part's next one.

        `at` is the event's time (default: now).
        """
        if index is None:
            index = self._next.get(part, 0)
        self._next[part] = max(self._next.get(part, 0), index + 1)
        self._stream.write(
            encode_event(
                data,
                turn_id=self.turn_id,
                step_index=self.step_index,
                sequence=part * PART + index,
                attempt=self.attempt,
                at=at,
            )
        )

    def emit_live(self, data: EventData, part: int, index: int | None = None) -> None:
        """Emit an event readers should see soon (a delta): flushed within a burst."""
        self.emit(data, part, index)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush_soon())

    def emit_now(self, data: EventData, part: int, index: int | None = None) -> None:
        """Emit an event readers should see at once (a turn beginning): written now.

        One write of its own while the step goes on (the model is being called): a
        client sees the turn begin one write after the step's start, not when the
        model's first words or the step's end come.
        """
        self.emit(data, part, index)
        if self._flusher is None or self._flusher.done():
            # The write's own task is started here, not from inside the flusher: it
            # reaches the store at the loop's next turn (`await asyncio.sleep(0)` from
            # the caller sends it), not one turn after the flusher would start it.
            writing = asyncio.get_running_loop().create_task(self._stream.flush())
            self._flusher = asyncio.get_running_loop().create_task(self._finish(writing))

    async def written(self) -> None:
        """Wait until what was emitted with `emit_now` (or flushed live) is written."""
        task = self._flusher
        if task is not None and not task.done():
            # Shielded: the step being cancelled must not cancel a write under way.
            await asyncio.shield(task)

    async def _flush_soon(self, delay: float = FLUSH_INTERVAL) -> None:
        await asyncio.sleep(delay)
        await self._finish(asyncio.ensure_future(self._stream.flush()))

    @staticmethod
    async def _finish(writing: asyncio.Future[None]) -> None:
        # Shielded: `settle()` may cancel the flusher, and a write under way must still
        # land before what the commit writes after it (the stream orders them).
        await asyncio.shield(writing)

    async def settle(self) -> None:
        """Stop the live flusher; what it has not written rides on the next commit."""
        task = self._flusher
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def __repr__(self) -> str:
        return f"<Emitter turn={self.turn_id!r} step={self.step_index}>"
