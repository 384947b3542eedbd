"""The inspection reads of the encrypting workflow store, opened as its other reads are.

A mixin of `EncryptedWorkflowStore`: a step's input, output and error and an event's
payload are opened like those `list_steps` and `list_events` return; stream states
carry no payload and pass through; `cancel_runs` cancels through the store's own
`request_cancel`, so the runs it returns are opened.
"""

from __future__ import annotations

from typing import ClassVar

from ._inspection import RunCancels, StreamInfo
from ._protocols import WorkflowStore
from ._records import EventRecord, StepRecord

__all__ = ["EncryptedInspection"]


class EncryptedInspection(RunCancels):
    """Uses the store's `inner` store and its `_open_step` and `_open_event`."""

    #: Its protocol methods that carry no payload (see `EncryptedWorkflowStore`).
    PAYLOAD_FREE: ClassVar[frozenset[str]] = frozenset({"get_stream_info", "list_streams"})

    inner: WorkflowStore

    async def _open_step(self, step: StepRecord) -> StepRecord:
        raise NotImplementedError  # `EncryptedWorkflowStore._open_step`, ahead in the MRO

    async def _open_event(self, event: EventRecord) -> EventRecord:
        raise NotImplementedError  # `EncryptedWorkflowStore._open_event`, ahead in the MRO

    async def get_step(self, run_id: str, step_id: str) -> StepRecord | None:
        step = await self.inner.get_step(run_id, step_id)
        return None if step is None else await self._open_step(step)

    async def list_correlated_events(self, run_id: str, correlation_id: str) -> list[EventRecord]:
        events = await self.inner.list_correlated_events(run_id, correlation_id)
        return [await self._open_event(e) for e in events]

    async def list_streams(self, run_id: str) -> list[StreamInfo]:
        return await self.inner.list_streams(run_id)

    async def get_stream_info(self, run_id: str, name: str) -> StreamInfo | None:
        return await self.inner.get_stream_info(run_id, name)
