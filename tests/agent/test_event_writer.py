"""`EventWriter`: a step's events are all written, in order, before `close()` returns."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from tether.agent._events import decode_event
from tether.agent._transcript import EventWriter


class SlowStreams:
    """A stream store whose writes take a while and stop if cancelled (like a network
    database driver)."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []

    async def write_stream(self, run_id: str, name: str, chunks: Sequence[bytes]) -> int:
        await asyncio.sleep(0.05)
        self.chunks.extend(chunks)
        return len(self.chunks)


async def test_close_does_not_cancel_a_background_write_under_way() -> None:
    store = SlowStreams()
    stores: Any = SimpleNamespace(workflow=store)
    writer = EventWriter(stores, "r1", turn_id="t1", step_index=0, flush_interval=0.01)
    writer.emit("message.delta", text="a")
    await asyncio.sleep(0.03)  # the background flush is now writing "a"
    writer.emit("message.delta", text="b")
    await writer.close()
    events = [decode_event(c, i) for i, c in enumerate(store.chunks)]
    assert [(e.data.text, e.meta.sequence) for e in events] == [("a", 0), ("b", 1)]
