"""The inspection reads of the Postgres workflow store (`InspectionStore`), a mixin.

Each is one statement on an index the store keeps: steps by (run, step), events by
(run, slot) read for one run, streams by (run, name).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import _rows as rows
from .._inspection import RunCancels, StreamInfo
from .._records import EventRecord, StepRecord
from ._txn_reads import _EVENT_SELECT

__all__ = ["PostgresInspection"]

_STREAMS = "SELECT name, next_index, closed FROM tether_streams WHERE run_id = %s"


class PostgresInspection(RunCancels):
    """Reads through `_query`, the store's one-statement reads."""

    async def _query(self, sql: str, params: Any) -> list[tuple[Any, ...]]:
        raise NotImplementedError  # `StoreCalls._query`, ahead of this class in the MRO

    async def get_step(self, run_id: str, step_id: str) -> StepRecord | None:
        found = await self._query(
            rows.step_select("s.run_id = %s AND s.step_id = %s"),
            (run_id, step_id),
        )
        return rows.step_from_row(found[0]) if found else None

    async def list_correlated_events(self, run_id: str, correlation_id: str) -> list[EventRecord]:
        found = await self._query(
            f"SELECT {_EVENT_SELECT} FROM tether_events WHERE run_id = %s "
            "AND correlation_id = %s ORDER BY slot",
            (run_id, correlation_id),
        )
        return [rows.event_from_row(r) for r in found]

    async def list_streams(self, run_id: str) -> list[StreamInfo]:
        found = await self._query(_STREAMS + " ORDER BY name", (run_id,))
        return [_info(run_id, r) for r in found]

    async def get_stream_info(self, run_id: str, name: str) -> StreamInfo | None:
        found = await self._query(_STREAMS + " AND name = %s", (run_id, name))
        return _info(run_id, found[0]) if found else None


def _info(run_id: str, row: Sequence[Any]) -> StreamInfo:
    return StreamInfo(run_id=run_id, name=str(row[0]), length=int(row[1]), closed=bool(row[2]))
