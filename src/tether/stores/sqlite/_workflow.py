"""SQLite workflow store: the shared rules of `stores._logic` over SQL rows.

Every write runs on the database's writer thread inside one savepoint of a
group-committed transaction, so the rules see a consistent snapshot and their writes
land all together or not at all, across processes too (BEGIN IMMEDIATE).
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any, TypeVar

import orjson

from ..._ids import new_ulid
from ...errors import InvalidTransitionError
from .. import _logic
from .._records import (
    TERMINAL_RUN_STATUSES,
    Claim,
    Commit,
    CommitResult,
    EventRecord,
    HookRecord,
    Message,
    NewMessage,
    NewRun,
    Page,
    RunRecord,
    RunStatus,
    StepRecord,
    StreamChunk,
    WaitRecord,
    WorkerRecord,
)
from .._streams import follow, resolve_start
from ._db import SqliteDatabase

T = TypeVar("T")

_RUN_COLS = (
    "run_id, workflow_name, status, deployment, engine_version, queue, input, output, error, "
    "head, parent_run_id, parent_slot, lease_owner, lease_epoch, lease_expires_at, created_at, "
    "updated_at, completed_at"
)
_STEP_COLS = (
    "run_id, step_id, slot, name, status, attempt, format_version, input, output, error, "
    "started_at, completed_at, retry_after"
)


def _run(row: Any) -> RunRecord:
    return RunRecord(
        run_id=row[0],
        workflow_name=row[1],
        status=row[2],
        deployment=row[3],
        engine_version=row[4],
        queue=row[5],
        input=row[6],
        output=row[7],
        error=row[8],
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
        input=row[7],
        output=row[8],
        error=row[9],
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
        payload=row[5],
        created_at=row[6],
    )


def _hook(row: Any) -> HookRecord:
    return HookRecord(hook_id=row[0], run_id=row[1], token=row[2], slot=row[3], created_at=row[4])


class _Txn:
    """`ViewTxn` over one SQLite connection inside the writer's transaction."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.c = conn

    def get_run(self, run_id: str) -> RunRecord | None:
        row = self.c.execute(
            f"SELECT {_RUN_COLS} FROM tether_runs WHERE run_id = ?", (run_id,)
        ).fetchone()
        return None if row is None else _run(row)

    def insert_run(self, r: RunRecord) -> None:
        self.c.execute(
            f"INSERT INTO tether_runs ({_RUN_COLS}) VALUES "
            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
            "UPDATE tether_runs SET status = ?, output = ?, error = ?, head = ?, lease_owner = ?, "
            "lease_epoch = ?, lease_expires_at = ?, updated_at = ?, completed_at = ? "
            "WHERE run_id = ?",
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

    def insert_event(self, e: EventRecord) -> None:
        self.c.execute(
            "INSERT INTO tether_events (run_id, slot, event_type, correlation_id, attrs, payload, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                e.run_id,
                e.slot,
                e.event_type,
                e.correlation_id,
                orjson.dumps(dict(e.attrs)),
                e.payload,
                e.created_at,
            ),
        )

    def list_events(self, run_id: str) -> list[EventRecord]:
        return _events(self.c, run_id, 0, None)

    def has_creation(self, run_id: str, correlation_id: str | None, event_type: str) -> bool:
        row = self.c.execute(
            "SELECT 1 FROM tether_events WHERE run_id = ? AND correlation_id IS ? "
            "AND event_type = ?",
            (run_id, correlation_id, event_type),
        ).fetchone()
        return row is not None

    def get_step(self, run_id: str, step_id: str) -> StepRecord | None:
        row = self.c.execute(
            f"SELECT {_STEP_COLS} FROM tether_steps WHERE run_id = ? AND step_id = ?",
            (run_id, step_id),
        ).fetchone()
        return None if row is None else _step(row)

    def insert_step(self, s: StepRecord) -> None:
        self.c.execute(
            f"INSERT INTO tether_steps ({_STEP_COLS}) VALUES ({', '.join('?' * 13)})",
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
            "UPDATE tether_steps SET status = ?, attempt = ?, output = ?, error = ?, "
            "started_at = ?, completed_at = ?, retry_after = ? WHERE run_id = ? AND step_id = ?",
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
            "WHERE run_id = ? AND wait_id = ?",
            (run_id, wait_id),
        ).fetchone()
        return (
            None
            if row is None
            else WaitRecord(
                run_id=row[0], wait_id=row[1], slot=row[2], resume_at=row[3], completed=bool(row[4])
            )
        )

    def put_wait(self, w: WaitRecord) -> None:
        self.c.execute(
            "INSERT INTO tether_waits (run_id, wait_id, slot, resume_at, completed) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (run_id, wait_id) DO UPDATE SET "
            "completed = excluded.completed",
            (w.run_id, w.wait_id, w.slot, w.resume_at, int(w.completed)),
        )

    def get_hook_by_token(self, token: str) -> HookRecord | None:
        row = self.c.execute(
            "SELECT hook_id, run_id, token, slot, created_at FROM tether_hooks WHERE token = ?",
            (token,),
        ).fetchone()
        return None if row is None else _hook(row)

    def hooks_of_run(self, run_id: str) -> list[HookRecord]:
        rows = self.c.execute(
            "SELECT hook_id, run_id, token, slot, created_at FROM tether_hooks "
            "WHERE run_id = ? ORDER BY slot",
            (run_id,),
        ).fetchall()
        return [_hook(r) for r in rows]

    def insert_hook(self, h: HookRecord) -> None:
        self.c.execute(
            "INSERT INTO tether_hooks (hook_id, run_id, token, slot, created_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (h.hook_id, h.run_id, h.token, h.slot, h.created_at),
        )

    def delete_hook(self, hook_id: str) -> None:
        self.c.execute("DELETE FROM tether_hooks WHERE hook_id = ?", (hook_id,))

    def enqueue(self, m: NewMessage, now: float) -> str:
        if m.idempotency_key is not None:
            row = self.c.execute(
                "SELECT message_id FROM tether_queue WHERE queue = ? AND idempotency_key = ? "
                "AND lease_owner IS NULL",
                (m.queue, m.idempotency_key),
            ).fetchone()
            if row is not None:
                self.c.execute(
                    "UPDATE tether_queue SET available_at = MIN(available_at, ?) "
                    "WHERE message_id = ?",
                    (m.available_at, row[0]),
                )
                return str(row[0])
        message_id = new_ulid("msg_")
        self.c.execute(
            "INSERT INTO tether_queue (message_id, queue, payload, available_at, idempotency_key, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?)",
            (message_id, m.queue, m.payload, m.available_at, m.idempotency_key, now),
        )
        return message_id

    def ack(self, message_id: str, owner: str) -> bool:
        cur = self.c.execute(
            "DELETE FROM tether_queue WHERE message_id = ? AND lease_owner = ?", (message_id, owner)
        )
        return cur.rowcount == 1


def _events(
    conn: sqlite3.Connection, run_id: str, after: int, limit: int | None
) -> list[EventRecord]:
    rows = conn.execute(
        "SELECT run_id, slot, event_type, correlation_id, attrs, payload, created_at "
        "FROM tether_events WHERE run_id = ? AND slot > ? ORDER BY slot LIMIT ?",
        (run_id, after, -1 if limit is None else limit),
    ).fetchall()
    return [_event(r) for r in rows]


class SqliteWorkflowStore:
    """The workflow store in a SQLite file."""

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db
        self._changed = asyncio.Event()
        self._queue_signal: dict[str, asyncio.Event] = {}

    async def _write(self, fn: Callable[[_Txn], T]) -> T:
        return await self._db.write(lambda conn: fn(_Txn(conn)))

    def _notify(self, queues: Sequence[str] = (), *, everyone: bool = False) -> None:
        if everyone:
            queues = list(self._queue_signal)
        for q in queues:
            self._queue_signal.setdefault(q, asyncio.Event()).set()
        self._changed.set()
        self._changed = asyncio.Event()

    # -- runs -------------------------------------------------------------------------------
    async def create_run(self, run: NewRun) -> tuple[RunRecord, bool]:
        result = await self._write(lambda t: _logic.create_run(t, run, time.time()))
        self._notify([run.queue])
        return result

    async def get_run(self, run_id: str) -> RunRecord | None:
        return await self._db.read(lambda c: _Txn(c).get_run(run_id))

    async def list_runs(
        self,
        *,
        status: RunStatus | None = None,
        workflow_name: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page[RunRecord]:
        offset = int(cursor) if cursor else 0

        def read(c: sqlite3.Connection) -> list[RunRecord]:
            rows = c.execute(
                f"SELECT {_RUN_COLS} FROM tether_runs WHERE (? IS NULL OR status = ?) AND "
                "(? IS NULL OR workflow_name = ?) ORDER BY created_at DESC, run_id DESC "
                "LIMIT ? OFFSET ?",
                (status, status, workflow_name, workflow_name, limit + 1, offset),
            ).fetchall()
            return [_run(r) for r in rows]

        runs = await self._db.read(read)
        more = len(runs) > limit
        return Page(items=tuple(runs[:limit]), next_cursor=str(offset + limit) if more else None)

    async def list_steps(self, run_id: str) -> list[StepRecord]:
        rows = await self._db.read(
            lambda c: c.execute(
                f"SELECT {_STEP_COLS} FROM tether_steps WHERE run_id = ? ORDER BY slot", (run_id,)
            ).fetchall()
        )
        return [_step(r) for r in rows]

    async def list_events(
        self, run_id: str, *, after: int = 0, limit: int | None = None
    ) -> list[EventRecord]:
        return await self._db.read(lambda c: _events(c, run_id, after, limit))

    async def list_hooks(self, run_id: str | None = None) -> list[HookRecord]:
        rows = await self._db.read(
            lambda c: c.execute(
                "SELECT hook_id, run_id, token, slot, created_at FROM tether_hooks "
                "WHERE ? IS NULL OR run_id = ? ORDER BY run_id, slot",
                (run_id, run_id),
            ).fetchall()
        )
        return [_hook(r) for r in rows]

    async def get_hook(self, token: str) -> HookRecord | None:
        return await self._db.read(lambda c: _Txn(c).get_hook_by_token(token))

    async def list_waits(self, run_id: str) -> list[WaitRecord]:
        rows = await self._db.read(
            lambda c: c.execute(
                "SELECT run_id, wait_id, slot, resume_at, completed FROM tether_waits "
                "WHERE run_id = ? ORDER BY slot",
                (run_id,),
            ).fetchall()
        )
        return [
            WaitRecord(run_id=r[0], wait_id=r[1], slot=r[2], resume_at=r[3], completed=bool(r[4]))
            for r in rows
        ]

    # -- lease holder ---------------------------------------------------------------------
    async def claim_run(self, run_id: str, *, owner: str, lease_seconds: float) -> Claim:
        return await self._write(
            lambda t: _logic.claim_run(t, run_id, owner, lease_seconds, time.time())
        )

    async def commit(self, commit: Commit) -> CommitResult:
        result = await self._write(lambda t: _logic.apply_commit(t, commit, time.time()))
        self._notify([m.queue for m in commit.enqueue], everyone=True)
        return result

    async def renew_lease(
        self, run_id: str, *, owner: str, epoch: int, lease_seconds: float
    ) -> bool:
        def renew(c: sqlite3.Connection) -> bool:
            cur = c.execute(
                "UPDATE tether_runs SET lease_expires_at = ? WHERE run_id = ? AND lease_owner = ? "
                "AND lease_epoch = ?",
                (time.time() + lease_seconds, run_id, owner, epoch),
            )
            return cur.rowcount == 1

        return await self._db.write(renew)

    async def release_run(self, run_id: str, *, owner: str, epoch: int) -> None:
        await self._db.write(
            lambda c: c.execute(
                "UPDATE tether_runs SET lease_owner = NULL, lease_expires_at = 0 WHERE run_id = ? "
                "AND lease_owner = ? AND lease_epoch = ?",
                (run_id, owner, epoch),
            )
        )

    # -- outside writes ---------------------------------------------------------------------
    async def resume_hook(self, token: str, payload: bytes) -> HookRecord:
        hook = await self._write(lambda t: _logic.resume_hook(t, token, payload, time.time()))
        self._notify(everyone=True)
        return hook

    async def request_cancel(self, run_id: str, *, reason: str | None = None) -> RunRecord:
        run = await self._write(lambda t: _logic.cancel_run(t, run_id, reason, time.time()))
        self._notify(everyone=True)
        return run

    async def wait_run_terminal(self, run_id: str, timeout: float) -> RunRecord | None:
        deadline = time.monotonic() + timeout
        poll = 0.01
        while True:
            changed = self._changed
            run = await self.get_run(run_id)
            remaining = deadline - time.monotonic()
            if run is None or run.status in TERMINAL_RUN_STATUSES or remaining <= 0:
                return run
            # In-process commits wake us at once; other processes' within `poll`.
            try:
                await asyncio.wait_for(changed.wait(), min(poll, remaining))
            except TimeoutError:
                poll = min(poll * 2, 0.2)

    # -- queue ----------------------------------------------------------------------------
    async def enqueue(self, message: NewMessage) -> str:
        message_id = await self._write(lambda t: t.enqueue(message, time.time()))
        self._notify([message.queue])
        return message_id

    async def dequeue(
        self, queue: str, *, owner: str, lease_seconds: float, limit: int
    ) -> list[Message]:
        def take(c: sqlite3.Connection) -> list[Message]:
            now = time.time()
            rows = c.execute(
                "SELECT message_id, payload, deliveries FROM tether_queue WHERE queue = ? AND "
                "available_at <= ? AND (lease_owner IS NULL OR lease_expires_at <= ?) "
                "ORDER BY available_at, message_id LIMIT ?",
                (queue, now, now, limit),
            ).fetchall()
            out = []
            for message_id, payload, deliveries in rows:
                c.execute(
                    "UPDATE tether_queue SET lease_owner = ?, lease_expires_at = ?, "
                    "deliveries = deliveries + 1 WHERE message_id = ?",
                    (owner, now + lease_seconds, message_id),
                )
                out.append(
                    Message(
                        message_id=message_id,
                        queue=queue,
                        payload=payload,
                        deliveries=deliveries + 1,
                        lease_owner=owner,
                        lease_expires_at=now + lease_seconds,
                    )
                )
            return out

        return await self._db.write(take)

    async def ack(self, message_id: str, *, owner: str) -> bool:
        return await self._write(lambda t: t.ack(message_id, owner))

    async def nack(self, message_id: str, *, owner: str, delay: float) -> bool:
        def release(c: sqlite3.Connection) -> tuple[bool, str | None]:
            row = c.execute(
                "SELECT queue, idempotency_key FROM tether_queue WHERE message_id = ? "
                "AND lease_owner = ?",
                (message_id, owner),
            ).fetchone()
            if row is None:
                return False, None
            queue, key = row
            if (
                key is not None
                and c.execute(
                    "SELECT 1 FROM tether_queue WHERE queue = ? AND idempotency_key = ? AND "
                    "lease_owner IS NULL",
                    (queue, key),
                ).fetchone()
            ):
                # A newer undelivered message carries the key; this one is redundant.
                c.execute("DELETE FROM tether_queue WHERE message_id = ?", (message_id,))
                return True, queue
            c.execute(
                "UPDATE tether_queue SET lease_owner = NULL, lease_expires_at = 0, "
                "available_at = ? WHERE message_id = ?",
                (time.time() + delay, message_id),
            )
            return True, queue

        ok, queue = await self._db.write(release)
        if queue is not None:
            self._notify([queue])
        return ok

    async def renew_messages(
        self, message_ids: Sequence[str], *, owner: str, lease_seconds: float
    ) -> int:
        def renew(c: sqlite3.Connection) -> int:
            until = time.time() + lease_seconds
            return sum(
                c.execute(
                    "UPDATE tether_queue SET lease_expires_at = ? WHERE message_id = ? AND "
                    "lease_owner = ?",
                    (until, m, owner),
                ).rowcount
                for m in message_ids
            )

        return await self._db.write(renew)

    async def wait_for_messages(self, queue: str, timeout: float) -> None:
        event = self._queue_signal.setdefault(queue, asyncio.Event())
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            pass
        event.clear()

    # -- workers ----------------------------------------------------------------------------
    async def register_worker(self, worker: WorkerRecord) -> None:
        w = worker
        await self._db.write(
            lambda c: c.execute(
                "INSERT INTO tether_workers (worker_id, host, pid, deployment, engine_version, "
                "started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (worker_id) DO "
                "UPDATE SET heartbeat_at = excluded.heartbeat_at",
                (
                    w.worker_id,
                    w.host,
                    w.pid,
                    w.deployment,
                    w.engine_version,
                    w.started_at,
                    w.heartbeat_at,
                ),
            )
        )

    async def heartbeat_worker(self, worker_id: str) -> None:
        await self._db.write(
            lambda c: c.execute(
                "UPDATE tether_workers SET heartbeat_at = ? WHERE worker_id = ?",
                (time.time(), worker_id),
            )
        )

    async def list_workers(self) -> list[WorkerRecord]:
        rows = await self._db.read(
            lambda c: c.execute(
                "SELECT worker_id, host, pid, deployment, engine_version, started_at, heartbeat_at "
                "FROM tether_workers"
            ).fetchall()
        )
        return [
            WorkerRecord(
                worker_id=r[0],
                host=r[1],
                pid=r[2],
                deployment=r[3],
                engine_version=r[4],
                started_at=r[5],
                heartbeat_at=r[6],
            )
            for r in rows
        ]

    async def expire_worker(self, worker_id: str) -> int:
        def expire(c: sqlite3.Connection) -> int:
            runs = c.execute(
                "UPDATE tether_runs SET lease_expires_at = 0 WHERE lease_owner = ?", (worker_id,)
            ).rowcount
            messages = c.execute(
                "UPDATE tether_queue SET lease_expires_at = 0 WHERE lease_owner = ?", (worker_id,)
            ).rowcount
            c.execute("DELETE FROM tether_workers WHERE worker_id = ?", (worker_id,))
            return int(runs + messages)

        freed = await self._db.write(expire)
        self._notify(everyone=True)
        return freed

    # -- streams ----------------------------------------------------------------------------
    async def write_stream(self, run_id: str, name: str, chunks: Sequence[bytes]) -> int:
        def write(c: sqlite3.Connection) -> int:
            c.execute(
                "INSERT INTO tether_streams (run_id, name) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (run_id, name),
            )
            next_index, closed = c.execute(
                "SELECT next_index, closed FROM tether_streams WHERE run_id = ? AND name = ?",
                (run_id, name),
            ).fetchone()
            if closed:
                raise InvalidTransitionError(f"stream {name!r} of run {run_id!r} is closed")
            for i, chunk in enumerate(chunks):
                c.execute(
                    "INSERT INTO tether_stream_chunks (run_id, name, idx, data) "
                    "VALUES (?, ?, ?, ?)",
                    (run_id, name, next_index + i, bytes(chunk)),
                )
            c.execute(
                "UPDATE tether_streams SET next_index = ? WHERE run_id = ? AND name = ?",
                (next_index + len(chunks), run_id, name),
            )
            return int(next_index + len(chunks) - 1)

        last = await self._db.write(write)
        self._notify()
        return last

    async def close_stream(self, run_id: str, name: str) -> None:
        await self._db.write(
            lambda c: c.execute(
                "INSERT INTO tether_streams (run_id, name, closed) VALUES (?, ?, 1) "
                "ON CONFLICT (run_id, name) DO UPDATE SET closed = 1",
                (run_id, name),
            )
        )
        self._notify()

    async def read_stream(
        self, run_id: str, name: str, *, start: int = 0, limit: int = 1000
    ) -> tuple[list[StreamChunk], bool]:
        def read(c: sqlite3.Connection) -> tuple[list[StreamChunk], bool]:
            row = c.execute(
                "SELECT next_index, closed FROM tether_streams WHERE run_id = ? AND name = ?",
                (run_id, name),
            ).fetchone()
            if row is None:
                return [], False
            length, closed = int(row[0]), bool(row[1])
            begin = resolve_start(start, length)
            rows = c.execute(
                "SELECT idx, data FROM tether_stream_chunks WHERE run_id = ? AND name = ? AND "
                "idx >= ? ORDER BY idx LIMIT ?",
                (run_id, name, begin, limit),
            ).fetchall()
            chunks = [StreamChunk(index=r[0], data=r[1]) for r in rows]
            return chunks, closed and begin + len(chunks) >= length

        return await self._db.read(read)

    def follow_stream(
        self, run_id: str, name: str, *, start: int = 0, poll_interval: float = 0.05
    ) -> AsyncIterator[StreamChunk]:
        return follow(self, run_id, name, start=start, poll_interval=poll_interval)
