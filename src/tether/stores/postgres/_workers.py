"""The worker registry of the Postgres workflow store, on the server's clock.

Heartbeats, and every judge of a worker's silence, read the server's clock: workers on
hosts whose clocks disagree are judged alike.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from .. import _rows as rows
from .._records import WorkerRecord
from ._schema import SERVER_NOW
from ._txn import Conn, _Txn

__all__ = ["clock", "expire", "heartbeat", "list_all", "register"]

#: The store's one-statement runner (`PostgresWorkflowStore._sql`).
Sql = Callable[[Callable[[Conn], Any]], Awaitable[Any]]


async def clock(sql: Sql) -> float:
    """The server's clock (seconds since the epoch)."""
    row = await sql(lambda c: c.execute(f"SELECT {SERVER_NOW}").fetchone())
    assert row is not None
    return float(row[0])


async def register(sql: Sql, worker: WorkerRecord) -> None:
    """Register `worker` (again: its heartbeat is renewed)."""
    values = rows.worker_values(worker)
    await sql(
        lambda c: c.execute(
            f"INSERT INTO tether_workers ({rows.WORKER_COLS}) "
            f"VALUES (%s, %s, %s, %s, %s, %s, {SERVER_NOW}, %s) "
            "ON CONFLICT (worker_id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at",
            values[:6] + values[7:],
        )
    )


async def heartbeat(sql: Sql, worker_id: str) -> None:
    """Renew the worker's heartbeat."""
    await sql(
        lambda c: c.execute(
            f"UPDATE tether_workers SET heartbeat_at = {SERVER_NOW} WHERE worker_id = %s",
            (worker_id,),
        )
    )


async def list_all(sql: Sql) -> list[WorkerRecord]:
    """Every registered worker, by id."""
    found = await sql(
        lambda c: c.execute(
            f"SELECT {rows.WORKER_COLS} FROM tether_workers ORDER BY worker_id"
        ).fetchall()
    )
    return [rows.worker_from_row(r) for r in found]


def expire(t: _Txn, worker_id: str) -> int:
    """Lapse the leases of a dead worker and forget it; how many leases lapsed.

    Runs are not indexed by owner (`LEANER_INDEXES`): this rare write scans them.
    """
    runs = len(
        t.c.execute(
            "UPDATE tether_runs SET lease_expires_at = 0 WHERE lease_owner = %s RETURNING run_id",
            (worker_id,),
        ).fetchall()
    )
    queues = t.c.execute(
        "UPDATE tether_queue SET lease_expires_at = 0 WHERE lease_owner = %s RETURNING queue",
        (worker_id,),
    ).fetchall()
    t.queues.update(str(q[0]) for q in queues)
    t.c.execute("DELETE FROM tether_workers WHERE worker_id = %s", (worker_id,))
    return int(runs + len(queues))
