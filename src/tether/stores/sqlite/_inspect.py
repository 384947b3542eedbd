"""The inspection reads of the SQLite workflow store (`InspectionStore`), a mixin.

Each is one statement on an index the store keeps: steps by (run, step), events by
(run, slot) read for one run, streams by (run, name).
"""

from __future__ import annotations

import sqlite3
from typing import Any

from .. import _rows as rows
from .._inspection import RunCancels, StreamInfo
from .._records import EventRecord, StepRecord
from ._db import SqliteDatabase

__all__ = ["SqliteInspection"]

_STREAMS = "SELECT name, next_index, closed FROM tether_streams WHERE run_id = ?"


class SqliteInspection(RunCancels):
    """Reads through `_db`, the store's database."""

    _db: SqliteDatabase

    async def get_step(self, run_id: str, step_id: str) -> StepRecord | None:
        found = await self._db.read(
            lambda c: c.execute(
                rows.step_select("s.run_id = ? AND s.step_id = ?"),
                (run_id, step_id),
            ).fetchone()
        )
        return None if found is None else rows.step_from_row(found)

    async def list_correlated_events(self, run_id: str, correlation_id: str) -> list[EventRecord]:
        found = await self._db.read(
            lambda c: c.execute(
                f"SELECT {rows.EVENT_COLS} FROM tether_events WHERE run_id = ? "
                "AND correlation_id = ? ORDER BY slot",
                (run_id, correlation_id),
            ).fetchall()
        )
        return [rows.event_from_row(r) for r in found]

    async def list_streams(self, run_id: str) -> list[StreamInfo]:
        def read(c: sqlite3.Connection) -> list[StreamInfo]:
            found = c.execute(_STREAMS + " ORDER BY name", (run_id,)).fetchall()
            return [_info(run_id, r) for r in found]

        return await self._db.read(read)

    async def get_stream_info(self, run_id: str, name: str) -> StreamInfo | None:
        found = await self._db.read(
            lambda c: c.execute(_STREAMS + " AND name = ?", (run_id, name)).fetchone()
        )
        return None if found is None else _info(run_id, found)


def _info(run_id: str, row: Any) -> StreamInfo:
    return StreamInfo(run_id=run_id, name=str(row[0]), length=int(row[1]), closed=bool(row[2]))
