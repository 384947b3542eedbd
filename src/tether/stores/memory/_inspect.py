"""The inspection reads of the memory workflow store (`InspectionStore`), a mixin."""

from __future__ import annotations

from ..kit import EventRecord, RunCancels, StepRecord, StreamInfo
from ._gate import Gate, gated
from ._state import _State

__all__ = ["MemoryInspection"]


@gated
class MemoryInspection(RunCancels):
    """Reads `_s`, the store's state, and checks `_gate` as the store's methods do."""

    _s: _State
    _gate: Gate

    async def get_step(self, run_id: str, step_id: str) -> StepRecord | None:
        return self._s.steps.get((run_id, step_id))

    async def list_correlated_events(self, run_id: str, correlation_id: str) -> list[EventRecord]:
        return [e for e in self._s.events.get(run_id, ()) if e.correlation_id == correlation_id]

    async def list_streams(self, run_id: str) -> list[StreamInfo]:
        return sorted(
            (
                StreamInfo(run_id=run_id, name=name, length=len(s.chunks), closed=s.closed)
                for (r, name), s in self._s.streams.items()
                if r == run_id
            ),
            key=lambda info: info.name,
        )

    async def get_stream_info(self, run_id: str, name: str) -> StreamInfo | None:
        stream = self._s.streams.get((run_id, name))
        if stream is None:
            return None
        return StreamInfo(run_id=run_id, name=name, length=len(stream.chunks), closed=stream.closed)
