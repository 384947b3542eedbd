"""SQLite workflow store: the shared rules of `stores._logic` over SQL rows.

Every write runs on the database's writer thread inside one savepoint of a
group-committed transaction, so the rules see a consistent snapshot and their writes
land all together or not at all, across processes too (BEGIN IMMEDIATE).
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from typing import TypeVar

import orjson

from ..._aio import wait_event
from ..._validate import check_labels
from .. import _listings as listings
from .. import _logic
from .. import _rows as rows
from .._flow import FlowChoice, FlowClaim, FlowLimit, FlowPolicy
from .._pages import page_of, page_start
from .._permits import Permit
from .._prune_rows import prunable_runs, purge_run
from .._records import (
    DEFAULT_HOOK_RETENTION,
    TERMINAL_RUN_STATUSES,
    ChainRecord,
    Claim,
    Commit,
    CommitResult,
    EventRecord,
    HookRecord,
    Message,
    NewMessage,
    NewRun,
    Page,
    QueueDepth,
    QueueEntry,
    RunFork,
    RunRecord,
    RunStatus,
    StepRecord,
    StreamChunk,
    WaitRecord,
    WorkerRecord,
    evolve,
)
from .._streams import StreamTaps, follow, resolve_start
from .._write_rules import apply_writes
from .._writes import StoreWrite
from ._db import SqliteDatabase
from ._delivery import DELIVERABLE, take
from ._ends import RunEnds
from ._inspect import SqliteInspection
from ._others import OtherCommits
from ._permits import permit_release, permit_take
from ._takes import flow_take
from ._txn import _SQL, _events, _replay_log, _Txn
from ._writes import SqliteWrites, append_stream_rows

T = TypeVar("T")
M = TypeVar("M")


class SqliteWorkflowStore(SqliteInspection):
    """The workflow store in a SQLite file."""

    def __init__(
        self, db: SqliteDatabase, *, hook_retention: float = DEFAULT_HOOK_RETENTION
    ) -> None:
        self._db = db
        self._hook_retention = hook_retention
        # Waiters on a run's end, woken by this process's commits that end it: one
        # watch per run, so an end wakes its own waiters and no others.
        self._ends = RunEnds(self._ended_runs)
        self._queue_signal: dict[str, asyncio.Event] = {}
        # This process's stream appends, handed to its followers; other processes'
        # commits are noticed by the writer thread while someone follows or waits for
        # queue messages (`OtherCommits`).
        self._taps = StreamTaps(watching=lambda on: self._others.following(on))
        self._others = OtherCommits(db.watch, self._taps.changed_anywhere, self._queue_signal)
        self._conversation_listeners: Callable[[str], None] | None = None

    def attach_conversations(self, notify: Callable[[str], None]) -> None:
        """Who to tell about conversation batches that `Commit.writes` appended."""
        self._conversation_listeners = notify

    async def _write(
        self,
        fn: Callable[[_Txn], T],
        writes: Sequence[StoreWrite] = (),
        after: Callable[[], None] | None = None,
    ) -> T:
        def run(conn: sqlite3.Connection) -> tuple[T, _Txn, SqliteWrites | None]:
            targets = None
            if writes:
                # The other stores' writes go first (see `stores._writes`), in the same
                # savepoint: they land with the commit or not at all.
                targets = SqliteWrites(conn)
                apply_writes(targets, writes)
            txn = _Txn(conn, self._hook_retention, self._db.kept)
            return fn(txn), txn, targets

        # `_Txn` keeps the writer's kept rows current; the other stores' writes touch
        # none of them.
        result, txn, targets = await self._db.write(run, after=after, keeps=True)
        # Wake only who has something new: a worker pull loop woken for nothing costs a
        # write transaction (its dequeue), a result waiter a read.
        self._ends.created(txn.created)
        self._notify(txn.ready_queues, finished=txn.finished)
        if targets is not None:
            for run_id, name, first, chunks in targets.streams:
                self._taps.appended(run_id, name, first, chunks)
            if self._conversation_listeners is not None:
                for path in targets.paths:
                    self._conversation_listeners(path)
        return result

    def _notify(self, queues: Iterable[str] = (), *, finished: Iterable[RunRecord] = ()) -> None:
        for q in queues:
            self._queue_signal.setdefault(q, asyncio.Event()).set()
        self._ends.finished(finished)

    # -- runs -------------------------------------------------------------------------------
    async def create_run(self, run: NewRun) -> tuple[RunRecord, bool]:
        return await self._write(lambda t: _logic.create_run(t, run, time.time()))

    async def fork_run(
        self, fork: RunFork, *, writes: Sequence[StoreWrite] = ()
    ) -> tuple[RunRecord, bool]:
        return await self._write(lambda t: _logic.fork_run(t, fork, time.time()), writes)

    async def start_run(
        self, run: NewRun, *, owner: str, lease_seconds: float
    ) -> tuple[RunRecord, bool, tuple[Message, Claim] | None]:
        return await self._write(
            lambda t: _logic.start_run(t, run, owner, lease_seconds, time.time())
        )

    async def get_run(self, run_id: str) -> RunRecord | None:
        return await self._db.read(lambda c: _Txn(c, self._hook_retention).get_run(run_id))

    async def latest_run(self, chain_id: str) -> RunRecord | None:
        def read(c: sqlite3.Connection) -> RunRecord | None:
            txn = _Txn(c, self._hook_retention)
            run_id = txn.last_run_of_chain(chain_id)
            return None if run_id is None else txn.get_run(run_id)

        return await self._db.read(read)

    async def list_runs(
        self,
        *,
        status: RunStatus | None = None,
        workflow_name: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
        labels: Mapping[str, str] | None = None,
    ) -> Page[RunRecord]:
        sql, params = listings.runs_query(
            "?",
            labels=check_labels(labels),
            status=status,
            workflow_name=workflow_name,
            start=page_start(cursor),
            limit=limit,
        )
        found = await self._db.read(lambda c: c.execute(sql, params).fetchall())
        runs = [rows.run_from_row(r) for r in found]
        return page_of(runs, limit, lambda r: (r.created_at, r.run_id))

    async def list_chains(
        self,
        *,
        workflow_name: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
        labels: Mapping[str, str] | None = None,
    ) -> Page[ChainRecord]:
        sql, params = listings.chains_query(
            "?",
            labels=check_labels(labels),
            workflow_name=workflow_name,
            start=page_start(cursor),
            limit=limit,
        )
        found = await self._db.read(lambda c: c.execute(sql, params).fetchall())
        chains = [ChainRecord(first=f, current=c) for f, c in listings.chains_from_rows(found)]
        return page_of(chains, limit, lambda c: (c.first.created_at, c.first.run_id))

    async def label_run(self, run_id: str, labels: Mapping[str, str]) -> RunRecord:
        def label(c: sqlite3.Connection) -> RunRecord:
            run = _logic.relabeled(_Txn(c, self._hook_retention).get_run(run_id), run_id, labels)
            c.execute(
                "UPDATE tether_runs SET labels = ? WHERE run_id = ?",
                (rows.labels_text(run.labels), run_id),
            )
            c.executemany(_SQL.insert_label, rows.label_values(run))
            return run

        return await self._db.write(label)

    async def list_steps(self, run_id: str) -> list[StepRecord]:
        found = await self._db.read(
            lambda c: c.execute(
                rows.step_select("s.run_id = ?") + " ORDER BY s.slot",
                (run_id,),
            ).fetchall()
        )
        return [rows.step_from_row(r) for r in found]

    async def list_events(
        self, run_id: str, *, after: int = 0, limit: int | None = None
    ) -> list[EventRecord]:
        return await self._db.read(lambda c: _events(c, run_id, after, limit))

    async def list_hooks(self, run_id: str | None = None) -> list[HookRecord]:
        # One statement each way: with the run named, its entries of the index of
        # active hooks, never a scan of every open hook.
        sql = rows.ACTIVE_HOOKS if run_id is None else _SQL.hooks_of_run
        params = () if run_id is None else (run_id,)
        found = await self._db.read(lambda c: c.execute(sql, params).fetchall())
        return [rows.hook_from_row(r) for r in found]

    async def get_hook(self, token: str) -> HookRecord | None:
        def read(c: sqlite3.Connection) -> HookRecord | None:
            hook = _Txn(c, self._hook_retention).get_hook_by_token(token)
            return None if hook is None or hook.retained_until is not None else hook

        return await self._db.read(read)

    async def list_waits(self, run_id: str) -> list[WaitRecord]:
        sql = f"SELECT {rows.WAIT_COLS} FROM tether_waits WHERE run_id = ? ORDER BY slot"
        found = await self._db.read(lambda c: c.execute(sql, (run_id,)).fetchall())
        return [rows.wait_from_row(r) for r in found]

    async def list_run_messages(self, run_id: str) -> list[QueueEntry]:
        sql = f"SELECT {rows.QUEUE_ENTRY_COLS} FROM tether_queue WHERE payload = ?"
        found = await self._db.read(lambda c: c.execute(sql, (run_id.encode(),)).fetchall())
        return sorted(map(rows.queue_entry_from_row, found), key=lambda m: m.available_at)

    async def queue_depths(self) -> list[QueueDepth]:
        sql, now = rows.queue_depths_query("?"), time.time()
        found = await self._db.read(lambda c: c.execute(sql, (now,) * 5).fetchall())
        return [rows.queue_depth_from_row(r) for r in found]

    # -- lease holder ---------------------------------------------------------------------
    async def claim_run(self, run_id: str, *, owner: str, lease_seconds: float) -> Claim:
        def claim(t: _Txn) -> Claim:
            t.defer_logs = True
            return _logic.claim_run(t, run_id, owner, lease_seconds, time.time())

        return (await self._with_logs([(None, await self._write(claim))]))[0][1]

    async def _with_logs(
        self,
        claims: list[tuple[M, Claim]],
        known: Mapping[str, int] | None = None,
        txn: _Txn | None = None,
    ) -> list[tuple[M, Claim]]:
        """Read the logs of claimed runs on a reader connection, after the claim commits.

        A long run's log is thousands of rows: read inside the claim's transaction it
        would hold the database's one write lock (every process's commits) meanwhile.
        Read after the commit it is the log as of the claim or later, which is all a
        replay needs: its commits check the head the log ends at, so anything appended
        since is caught up with, as it is during any activation. Of a run in `known`,
        only the events after the slot the claimer holds are read; none when the claim's
        transaction `txn` appended all of them (a warm run woken: its payload's event).
        """
        wanted = {
            c.run.run_id: _logic.known_after(c, known)
            for _, c in claims
            if c.outcome == "claimed" and c.run
        }
        if not wanted:
            return claims
        logs: dict[str, list[EventRecord]] = {}
        if txn is not None:
            for run_id, after in wanted.items():
                written = txn.written_log(run_id, after)
                if written is not None:
                    logs[run_id] = written
        unread = {r: after for r, after in wanted.items() if r not in logs}
        if unread:
            logs.update(
                await self._db.read(
                    lambda c: {r: _replay_log(c, r, after) for r, after in unread.items()}
                )
            )
        return [
            (
                m,
                evolve(c, events=tuple(logs[c.run.run_id]), after=wanted[c.run.run_id])
                if c.outcome == "claimed" and c.run
                else c,
            )
            for m, c in claims
        ]

    async def commit(self, commit: Commit) -> CommitResult:
        return await self._write(
            lambda t: _logic.apply_commit(t, commit, time.time()),
            commit.writes,
            commit.on_durable,
        )

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
    async def resume_hook(
        self,
        token: str,
        payload: bytes,
        *,
        writes: Sequence[StoreWrite] = (),
        run_id: str | None = None,
    ) -> HookRecord:
        return await self._write(
            lambda t: _logic.resume_hook(t, token, payload, time.time(), run_id), writes
        )

    async def resume_hook_and_claim(
        self,
        token: str,
        payload: bytes,
        *,
        owner: str,
        lease_seconds: float,
        queue: str,
        writes: Sequence[StoreWrite] = (),
        run_id: str | None = None,
        known: Mapping[str, int] | None = None,
    ) -> tuple[HookRecord, tuple[Message, Claim] | None]:
        claim_for = (owner, lease_seconds, queue)

        txns: list[_Txn] = []

        def resume(t: _Txn) -> tuple[HookRecord, tuple[Message, Claim] | None]:
            txns.append(t)  # run again after a batch's rollback: the last one committed
            t.defer_logs = True
            return _logic.resume_hook_and_claim(t, token, payload, time.time(), run_id, claim_for)

        hook, claimed = await self._write(resume, writes)
        if claimed is None:
            return hook, None
        return hook, (await self._with_logs([claimed], known, txns[-1]))[0]

    async def request_cancel(self, run_id: str, *, reason: str | None = None) -> RunRecord:
        return await self._write(lambda t: _logic.cancel_run(t, run_id, reason, time.time()))

    async def wait_run_terminal(self, run_id: str, timeout: float) -> RunRecord | None:
        # In-process commits hand the waiters the run's final row at once; other
        # processes' ends are found by one watcher reading every watched run.
        return await self._ends.wait(run_id, timeout, lambda: self.get_run(run_id))

    async def _ended_runs(self, run_ids: list[str]) -> dict[str, RunRecord | None]:
        """Of `run_ids`, those that ended (their rows) or do not exist (None)."""
        ids = orjson.dumps(run_ids).decode()

        def read(c: sqlite3.Connection) -> dict[str, RunRecord | None]:
            # The states in one row: a row per run would hand the GIL back and forth
            # with the writer thread once per run, each time the watcher looks.
            (states,) = c.execute(
                "SELECT json_group_object(run_id, status) FROM tether_runs WHERE run_id IN "
                "(SELECT value FROM json_each(?))",
                (ids,),
            ).fetchone()
            status = orjson.loads(states)
            found: dict[str, RunRecord | None] = {r: None for r in run_ids if r not in status}
            ended = [r for r in run_ids if status.get(r) in TERMINAL_RUN_STATUSES]
            if ended:
                found.update(
                    (row[0], rows.run_from_row(row))
                    for row in c.execute(
                        f"SELECT {rows.RUN_COLS} FROM tether_runs WHERE run_id IN "
                        "(SELECT value FROM json_each(?))",
                        (orjson.dumps(ended).decode(),),
                    ).fetchall()
                )
            return found

        return await self._db.read(read)

    # -- queue ----------------------------------------------------------------------------
    async def enqueue(self, message: NewMessage) -> str:
        return await self._write(lambda t: t.enqueue(message, time.time()))

    async def dequeue(
        self, queue: str, *, owner: str, lease_seconds: float, limit: int
    ) -> list[Message]:
        return await self._db.write(
            lambda c: take(c, queue, owner, lease_seconds, limit, time.time()), keeps=True
        )

    async def claim_next(
        self,
        queue: str,
        *,
        owner: str,
        lease_seconds: float,
        limit: int,
        known: Mapping[str, int] | None = None,
    ) -> list[tuple[Message, Claim]]:
        # An idle poll is a read (on the calling thread, no hand-off): the write
        # transaction, its hop to the writer and the file's write lock, only when a
        # message is there to take. One that lands just after the read is taken at the
        # next poll, or at once when it was this process's (its wake-up is kept).
        now = time.time()
        if not await self._db.read(lambda c: c.execute(DELIVERABLE, (queue, now, now)).fetchone()):
            return []
        txns: list[_Txn] = []

        def claim(t: _Txn) -> list[tuple[Message, Claim]]:
            txns.append(t)  # run again after a batch's rollback: the last one committed
            t.defer_logs = True
            now = time.time()
            taken = take(t.c, queue, owner, lease_seconds, limit, now)
            return _logic.claim_messages(t, taken, owner, lease_seconds, now) if taken else []

        claimed = await self._write(claim)
        return await self._with_logs(claimed, known, txns[-1])

    async def claim_flow(
        self,
        queue: str,
        *,
        owner: str,
        lease_seconds: float,
        limit: int,
        policy: FlowPolicy,
        known: Mapping[str, int] | None = None,
        scan_from: tuple[float, str] | None = None,
    ) -> FlowClaim:
        done: list[tuple[_Txn, FlowChoice, tuple[float, str] | None]] = []

        def claim(t: _Txn) -> list[tuple[Message, Claim]]:
            t.defer_logs = True
            now = time.time()
            claimed, choice, to = flow_take(
                t, queue, owner, lease_seconds, limit, policy, now, scan_from
            )
            done.append((t, choice, to))  # run again after a batch's rollback: the last holds
            return claimed

        claimed = await self._write(claim)
        txn, choice, to = done[-1]
        claimed = await self._with_logs(claimed, known, txn)
        return FlowClaim(
            claimed=claimed, blocked=choice.blocked, retry_after=choice.retry_after, scanned_to=to
        )

    async def acquire_permit(
        self, key: str, *, holder: str, limit: FlowLimit, lease_seconds: float
    ) -> Permit:
        return await self._write(
            lambda t: permit_take(t, key, holder, limit, lease_seconds, time.time())
        )

    async def release_permit(self, key: str, *, holder: str) -> None:
        await self._write(lambda t: permit_release(t, key, holder))

    async def ack(self, message_id: str, *, owner: str) -> bool:
        return await self._write(lambda t: t.ack(message_id, owner))

    async def nack(self, message_id: str, *, owner: str, delay: float) -> bool:
        return await self._write(lambda t: t.nack(message_id, owner, time.time() + delay))

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

        return await self._db.write(renew, keeps=True)

    async def wait_for_messages(self, queue: str, timeout: float) -> None:
        event = self._queue_signal.setdefault(queue, asyncio.Event())
        self._others.wait_started()
        try:
            await wait_event(event, timeout)
        finally:
            self._others.wait_ended()
        event.clear()

    # -- workers ----------------------------------------------------------------------------
    async def clock(self) -> float:
        return time.time()

    async def register_worker(self, worker: WorkerRecord) -> None:
        await self._db.write(
            lambda c: c.execute(
                f"INSERT INTO tether_workers ({rows.WORKER_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (worker_id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at",
                rows.worker_values(worker),
            ),
            keeps=True,
        )

    async def heartbeat_worker(self, worker_id: str) -> None:
        await self._db.write(
            lambda c: c.execute(
                "UPDATE tether_workers SET heartbeat_at = ? WHERE worker_id = ?",
                (time.time(), worker_id),
            ),
            keeps=True,
        )

    async def list_workers(self) -> list[WorkerRecord]:
        found = await self._db.read(
            lambda c: c.execute(f"SELECT {rows.WORKER_COLS} FROM tether_workers").fetchall()
        )
        return [rows.worker_from_row(r) for r in found]

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
        self._notify(list(self._queue_signal))
        return freed

    async def purge_run_content(self, run_id: str, *, keep_input: bool = False) -> bool:
        return await self._db.write(lambda c: purge_run(c, "?", run_id, keep_input))

    async def list_prunable_runs(
        self, ended_before: float, *, limit: int, after: tuple[float, str] | None = None
    ) -> list[RunRecord]:
        return await self._db.read(lambda c: prunable_runs(c, "?", ended_before, limit, after))

    # -- streams ----------------------------------------------------------------------------
    async def write_stream(
        self, run_id: str, name: str, chunks: Sequence[bytes], *, at: int | None = None
    ) -> int:
        data = [bytes(chunk) for chunk in chunks]
        last = await self._db.write(
            lambda c: append_stream_rows(c, run_id, name, data, at), keeps=True
        )
        if data:
            self._taps.appended(run_id, name, last - len(data) + 1, data)
        return last

    async def close_stream(self, run_id: str, name: str) -> None:
        await self._db.write(
            lambda c: c.execute(
                "INSERT INTO tether_streams (run_id, name, closed) VALUES (?, ?, 1) "
                "ON CONFLICT (run_id, name) DO UPDATE SET closed = 1",
                (run_id, name),
            )
        )
        self._taps.changed(run_id, name)

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
        # This process's appends are handed over without a read; other processes'
        # commits are noticed within `WATCH_INTERVAL` and read.
        return follow(self, run_id, name, start=start, poll_interval=poll_interval, taps=self._taps)
