"""Rows of the workflow tables and `_Txn`, the `ViewTxn` the shared rules run on."""

from __future__ import annotations

from typing import Any

import orjson
import psycopg

from ..._ids import new_ulid
from .._records import (
    TERMINAL_RUN_STATUSES,
    EventRecord,
    HookRecord,
    NewMessage,
    RunRecord,
    StepRecord,
    WaitRecord,
)
from ._notify import channels

Conn = psycopg.Connection[Any]

_RUN_COLS = (
    "run_id, workflow_name, status, deployment, engine_version, queue, input, output, error, "
    "head, parent_run_id, parent_slot, lease_owner, lease_epoch, lease_expires_at, created_at, "
    "updated_at, completed_at"
)
_STEP_COLS = (
    "run_id, step_id, slot, name, status, attempt, format_version, input, output, error, "
    "started_at, completed_at, retry_after"
)
_EVENT_COLS = "run_id, slot, event_type, correlation_id, attrs::text, payload, created_at"
_HOOK_COLS = "hook_id, run_id, token, slot, created_at"


def _b(value: Any) -> bytes | None:
    return None if value is None else bytes(value)


def _run(row: Any) -> RunRecord:
    return RunRecord(
        run_id=row[0],
        workflow_name=row[1],
        status=row[2],
        deployment=row[3],
        engine_version=row[4],
        queue=row[5],
        input=_b(row[6]),
        output=_b(row[7]),
        error=_b(row[8]),
        head=row[9],
        parent_run_id=row[10],
        parent_slot=row[11],
        lease_owner=row[12],
        lease_epoch=row[13],
        lease_expires_at=row[14],
        created_at=row[15],
        updated_at=row[16],
        completed_at=row[17],
    )


def _step(row: Any) -> StepRecord:
    return StepRecord(
        run_id=row[0],
        step_id=row[1],
        slot=row[2],
        name=row[3],
        status=row[4],
        attempt=row[5],
        format_version=row[6],
        input=_b(row[7]),
        output=_b(row[8]),
        error=_b(row[9]),
        started_at=row[10],
        completed_at=row[11],
        retry_after=row[12],
    )


def _event(row: Any) -> EventRecord:
    return EventRecord(
        run_id=row[0],
        slot=row[1],
        event_type=row[2],
        correlation_id=row[3],
        attrs=orjson.loads(row[4]),
        payload=_b(row[5]),
        created_at=row[6],
    )


def _hook(row: Any) -> HookRecord:
    return HookRecord(hook_id=row[0], run_id=row[1], token=row[2], slot=row[3], created_at=row[4])


def _events(conn: Conn, run_id: str, after: int, limit: int | None) -> list[EventRecord]:
    rows = conn.execute(
        f"SELECT {_EVENT_COLS} FROM tether_events WHERE run_id = %s AND slot > %s "
        "ORDER BY slot LIMIT %s",
        (run_id, after, limit),
    ).fetchall()
    return [_event(r) for r in rows]


class _Txn:
    """`ViewTxn` over one connection inside a write transaction.

    It also collects what the transaction must announce; `notify()` sends it just
    before COMMIT, so listeners hear of a write only once it is visible.
    """

    def __init__(self, conn: Conn) -> None:
        self.c = conn
        self.queues: set[str] = set()
        self.finished: set[str] = set()
        self.streams: set[str] = set()

    def notify(self, namespace: str) -> list[tuple[str, str]]:
        queue_ch, run_ch, stream_ch = channels(namespace)
        notes = [(queue_ch, q) for q in sorted(self.queues)]
        notes += [(run_ch, r) for r in sorted(self.finished)]
        notes += [(stream_ch, s) for s in sorted(self.streams)]
        if notes:
            calls = ", ".join("pg_notify(%s, %s)" for _ in notes)
            self.c.execute(f"SELECT {calls}", [v for note in notes for v in note])
        return notes

    def get_run(self, run_id: str) -> RunRecord | None:
        # Writers lock the run: concurrent writes to one run serialize here.
        row = self.c.execute(
            f"SELECT {_RUN_COLS} FROM tether_runs WHERE run_id = %s FOR UPDATE", (run_id,)
        ).fetchone()
        return None if row is None else _run(row)

    def insert_run(self, r: RunRecord) -> None:
        self.c.execute(
            f"INSERT INTO tether_runs ({_RUN_COLS}) VALUES "
            "(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                r.run_id,
                r.workflow_name,
                r.status,
                r.deployment,
                r.engine_version,
                r.queue,
                r.input,
                r.output,
                r.error,
                r.head,
                r.parent_run_id,
                r.parent_slot,
                r.lease_owner,
                r.lease_epoch,
                r.lease_expires_at,
                r.created_at,
                r.updated_at,
                r.completed_at,
            ),
        )

    def update_run(self, r: RunRecord) -> None:
        self.c.execute(
            "UPDATE tether_runs SET status = %s, output = %s, error = %s, head = %s, "
            "lease_owner = %s, lease_epoch = %s, lease_expires_at = %s, updated_at = %s, "
            "completed_at = %s WHERE run_id = %s",
            (
                r.status,
                r.output,
                r.error,
                r.head,
                r.lease_owner,
                r.lease_epoch,
                r.lease_expires_at,
                r.updated_at,
                r.completed_at,
                r.run_id,
            ),
        )
        if r.status in TERMINAL_RUN_STATUSES:
            self.finished.add(r.run_id)

    def insert_event(self, e: EventRecord) -> None:
        self.c.execute(
            "INSERT INTO tether_events (run_id, slot, event_type, correlation_id, attrs, "
            "payload, created_at) VALUES (%s, %s, %s, %s, %s::jsonb, %s, %s)",
            (
                e.run_id,
                e.slot,
                e.event_type,
                e.correlation_id,
                orjson.dumps(dict(e.attrs)).decode(),
                e.payload,
                e.created_at,
            ),
        )

    def list_events(self, run_id: str) -> list[EventRecord]:
        return _events(self.c, run_id, 0, None)

    def has_creation(self, run_id: str, correlation_id: str | None, event_type: str) -> bool:
        row = self.c.execute(
            "SELECT 1 FROM tether_events WHERE run_id = %s AND "
            "correlation_id IS NOT DISTINCT FROM %s AND event_type = %s",
            (run_id, correlation_id, event_type),
        ).fetchone()
        return row is not None

    def get_step(self, run_id: str, step_id: str) -> StepRecord | None:
        row = self.c.execute(
            f"SELECT {_STEP_COLS} FROM tether_steps WHERE run_id = %s AND step_id = %s",
            (run_id, step_id),
        ).fetchone()
        return None if row is None else _step(row)

    def insert_step(self, s: StepRecord) -> None:
        self.c.execute(
            f"INSERT INTO tether_steps ({_STEP_COLS}) VALUES "
            "(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                s.run_id,
                s.step_id,
                s.slot,
                s.name,
                s.status,
                s.attempt,
                s.format_version,
                s.input,
                s.output,
                s.error,
                s.started_at,
                s.completed_at,
                s.retry_after,
            ),
        )

    def update_step(self, s: StepRecord) -> None:
        self.c.execute(
            "UPDATE tether_steps SET status = %s, attempt = %s, output = %s, error = %s, "
            "started_at = %s, completed_at = %s, retry_after = %s "
            "WHERE run_id = %s AND step_id = %s",
            (
                s.status,
                s.attempt,
                s.output,
                s.error,
                s.started_at,
                s.completed_at,
                s.retry_after,
                s.run_id,
                s.step_id,
            ),
        )

    def get_wait(self, run_id: str, wait_id: str) -> WaitRecord | None:
        row = self.c.execute(
            "SELECT run_id, wait_id, slot, resume_at, completed FROM tether_waits "
            "WHERE run_id = %s AND wait_id = %s",
            (run_id, wait_id),
        ).fetchone()
        return (
            None
            if row is None
            else WaitRecord(
                run_id=row[0], wait_id=row[1], slot=row[2], resume_at=row[3], completed=row[4]
            )
        )

    def put_wait(self, w: WaitRecord) -> None:
        self.c.execute(
            "INSERT INTO tether_waits (run_id, wait_id, slot, resume_at, completed) "
            "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (run_id, wait_id) DO UPDATE SET "
            "completed = excluded.completed",
            (w.run_id, w.wait_id, w.slot, w.resume_at, w.completed),
        )

    def get_hook_by_token(self, token: str) -> HookRecord | None:
        row = self.c.execute(
            f"SELECT {_HOOK_COLS} FROM tether_hooks WHERE token = %s", (token,)
        ).fetchone()
        return None if row is None else _hook(row)

    def hooks_of_run(self, run_id: str) -> list[HookRecord]:
        rows = self.c.execute(
            f"SELECT {_HOOK_COLS} FROM tether_hooks WHERE run_id = %s ORDER BY slot", (run_id,)
        ).fetchall()
        return [_hook(r) for r in rows]

    def insert_hook(self, h: HookRecord) -> None:
        self.c.execute(
            f"INSERT INTO tether_hooks ({_HOOK_COLS}) VALUES (%s, %s, %s, %s, %s)",
            (h.hook_id, h.run_id, h.token, h.slot, h.created_at),
        )

    def delete_hook(self, hook_id: str) -> None:
        self.c.execute("DELETE FROM tether_hooks WHERE hook_id = %s", (hook_id,))

    def enqueue(self, m: NewMessage, now: float) -> str:
        # One statement, race-free: an undelivered message with the same key absorbs
        # this one (the unique partial index `tether_queue_pending_key` arbitrates).
        row = self.c.execute(
            "INSERT INTO tether_queue (message_id, queue, payload, available_at, "
            "idempotency_key, created_at) VALUES (%s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (queue, idempotency_key) "
            "WHERE idempotency_key IS NOT NULL AND lease_owner IS NULL "
            "DO UPDATE SET available_at = LEAST(tether_queue.available_at, "
            "excluded.available_at) RETURNING message_id",
            (new_ulid("msg_"), m.queue, m.payload, m.available_at, m.idempotency_key, now),
        ).fetchone()
        assert row is not None  # RETURNING of an upsert always yields the row
        self.queues.add(m.queue)
        return str(row[0])

    def ack(self, message_id: str, owner: str) -> bool:
        # RETURNING, not rowcount: in pipeline mode rowcount is unknown until a sync.
        row = self.c.execute(
            "DELETE FROM tether_queue WHERE message_id = %s AND lease_owner = %s "
            "RETURNING message_id",
            (message_id, owner),
        ).fetchone()
        return row is not None
