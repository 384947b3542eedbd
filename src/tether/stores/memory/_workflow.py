"""In-memory workflow store: the reference implementation, no I/O.

Writes run the shared rules in `stores._logic` against dicts, keeping an undo log so
a write that raises leaves nothing behind (the same all-or-nothing a SQL transaction
gives).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from ..._aio import wait_event, within
from ..._ids import new_ulid
from ..._validate import check_labels
from ...errors import ConflictError, InvalidTransitionError
from .. import _logic
from .._records import (
    ACTIVE_RUN_STATUSES,
    DEFAULT_HOOK_RETENTION,
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
    chain_of,
)
from .._streams import StreamTaps, follow, resolve_start
from .._write_rules import apply_writes
from .._writes import StoreWrite
from ._writes import MemoryWrites

if TYPE_CHECKING:
    from ._conversations import MemoryConversationStore
    from ._submissions import MemorySubmissionStore

T = TypeVar("T")


def _partial(claim: Claim, known: Mapping[str, int] | None) -> Claim:
    """The claim with only the log after what the claimer holds (`known`)."""
    after = _logic.known_after(claim, known)
    if not after:
        return claim
    events = tuple(e for e in claim.events if e.slot > after)
    return dataclasses.replace(claim, events=events, after=after)


@dataclass(slots=True)
class _Row:
    message_id: str
    queue: str
    payload: bytes
    available_at: float
    idempotency_key: str | None
    lease_owner: str | None = None
    lease_expires_at: float = 0.0
    deliveries: int = 0


@dataclass(slots=True)
class _Stream:
    chunks: list[bytes] = field(default_factory=list)
    closed: bool = False


class _State:
    def __init__(self) -> None:
        self.runs: dict[str, RunRecord] = {}
        self.events: dict[str, list[EventRecord]] = {}
        self.creations: set[tuple[str, str | None, str]] = set()
        self.steps: dict[tuple[str, str], StepRecord] = {}
        self.waits: dict[tuple[str, str], WaitRecord] = {}
        self.hooks: dict[str, HookRecord] = {}
        self.tokens: dict[str, str] = {}
        self.queue: dict[str, _Row] = {}
        self.pending_keys: dict[tuple[str, str], str] = {}
        self.streams: dict[tuple[str, str], _Stream] = {}
        self.workers: dict[str, WorkerRecord] = {}
        #: Each chain's current run: the run id of its highest generation.
        self.chains: dict[str, str] = {}


class _Txn:
    """`ViewTxn` over `_State` with an undo log."""

    def __init__(self, state: _State, hook_retention: float = DEFAULT_HOOK_RETENTION) -> None:
        self.s = state
        self.hook_retention = hook_retention
        self.undo: list[Callable[[], None]] = []

    def _set(self, d: dict[Any, Any], key: Any, value: Any) -> None:
        if key in d:
            old = d[key]
            self.undo.append(lambda: d.__setitem__(key, old))
        else:
            self.undo.append(lambda: d.pop(key, None))
        d[key] = value

    def _del(self, d: dict[Any, Any], key: Any) -> None:
        if key in d:
            old = d.pop(key)
            self.undo.append(lambda: d.__setitem__(key, old))

    def rollback(self) -> None:
        for fn in reversed(self.undo):
            fn()

    def get_run(self, run_id: str) -> RunRecord | None:
        return self.s.runs.get(run_id)

    def insert_run(self, run: RunRecord) -> None:
        chain = chain_of(run)
        current = self.s.runs.get(self.s.chains.get(chain, ""))
        if current is not None and current.generation >= run.generation:
            # What the unique (chain_id, generation) index is to the SQL backends.
            raise ConflictError(f"chain {chain!r} already has a run of generation {run.generation}")
        self._set(self.s.runs, run.run_id, run)
        if run.run_id not in self.s.events:
            self._set(self.s.events, run.run_id, [])
        self._set(self.s.chains, chain, run.run_id)

    def update_run(self, run: RunRecord) -> None:
        self._set(self.s.runs, run.run_id, run)

    def insert_event(self, event: EventRecord) -> None:
        if event.run_id not in self.s.events:
            self._set(self.s.events, event.run_id, [])
        log = self.s.events[event.run_id]
        log.append(event)
        self.undo.append(lambda: log.__delitem__(-1))
        key = (event.run_id, event.correlation_id, event.event_type)
        if key not in self.s.creations:
            self.s.creations.add(key)
            self.undo.append(lambda: self.s.creations.discard(key))

    def list_events(self, run_id: str) -> list[EventRecord]:
        return list(self.s.events.get(run_id, ()))

    def prefetch(self, run_ids: Sequence[str], *, events: bool) -> None:
        """Nothing to read ahead: each read is a local call."""

    def has_creation(self, run_id: str, correlation_id: str | None, event_type: str) -> bool:
        return (run_id, correlation_id, event_type) in self.s.creations

    def get_step(self, run_id: str, step_id: str) -> StepRecord | None:
        return self.s.steps.get((run_id, step_id))

    def insert_step(self, step: StepRecord) -> None:
        self._set(self.s.steps, (step.run_id, step.step_id), step)

    update_step = insert_step

    def get_wait(self, run_id: str, wait_id: str) -> WaitRecord | None:
        return self.s.waits.get((run_id, wait_id))

    def put_wait(self, wait: WaitRecord) -> None:
        self._set(self.s.waits, (wait.run_id, wait.wait_id), wait)

    def get_hook_by_token(self, token: str) -> HookRecord | None:
        hook_id = self.s.tokens.get(token)
        return None if hook_id is None else self.s.hooks.get(hook_id)

    def hooks_of_run(self, run_id: str) -> list[HookRecord]:
        return sorted(
            (h for h in self.s.hooks.values() if h.run_id == run_id and h.retained_until is None),
            key=lambda h: h.slot,
        )

    def active_children(self, run_id: str) -> list[str]:
        return sorted(
            r.run_id
            for r in self.s.runs.values()
            if r.parent_run_id == run_id and r.status in ACTIVE_RUN_STATUSES
        )

    def insert_hook(self, hook: HookRecord) -> None:
        self._set(self.s.hooks, hook.hook_id, hook)
        self._set(self.s.tokens, hook.token, hook.hook_id)

    def update_hook(self, hook: HookRecord) -> None:
        self._set(self.s.hooks, hook.hook_id, hook)

    def delete_hook(self, hook_id: str) -> None:
        hook = self.s.hooks.get(hook_id)
        if hook is not None:
            self._del(self.s.hooks, hook_id)
            self._del(self.s.tokens, hook.token)

    def last_run_of_chain(self, chain_id: str) -> str | None:
        return self.s.chains.get(chain_id)

    def enqueue(self, message: NewMessage, now: float) -> str:
        if message.idempotency_key is not None:
            key = (message.queue, message.idempotency_key)
            existing = self.s.pending_keys.get(key)
            if existing is not None:
                row = self.s.queue[existing]
                if message.available_at < row.available_at:
                    self._set(
                        self.s.queue,
                        existing,
                        dataclasses.replace(row, available_at=message.available_at),
                    )
                return existing
        message_id = new_ulid("msg_")
        row = _Row(
            message_id,
            message.queue,
            message.payload,
            message.available_at,
            message.idempotency_key,
        )
        self._set(self.s.queue, message_id, row)
        if message.idempotency_key is not None:
            self._set(self.s.pending_keys, (message.queue, message.idempotency_key), message_id)
        return message_id

    def enqueue_leased(self, message: NewMessage, owner: str, until: float) -> Message:
        message_id = new_ulid("msg_")
        row = _Row(message_id, message.queue, message.payload, message.available_at,
                   message.idempotency_key, owner, until, 1)  # fmt: skip
        self._set(self.s.queue, message_id, row)
        return Message(
            message_id=message_id, queue=message.queue, payload=message.payload,
            deliveries=1, lease_owner=owner, lease_expires_at=until,
        )  # fmt: skip

    def ack(self, message_id: str, owner: str) -> bool:
        row = self.s.queue.get(message_id)
        if row is None or row.lease_owner != owner:
            return False
        self._del(self.s.queue, message_id)
        return True

    def nack(self, message_id: str, owner: str, available_at: float) -> bool:
        row = self.s.queue.get(message_id)
        if row is None or row.lease_owner != owner:
            return False
        if row.idempotency_key is not None:
            key = (row.queue, row.idempotency_key)
            if key in self.s.pending_keys:
                # A newer undelivered message carries the key; this one is redundant.
                self._del(self.s.queue, message_id)
                return True
            self._set(self.s.pending_keys, key, message_id)
        released = dataclasses.replace(
            row, lease_owner=None, lease_expires_at=0.0, available_at=available_at
        )
        self._set(self.s.queue, message_id, released)
        return True

    def drop_pending(self, queue: str, idempotency_key: str) -> None:
        message_id = self.s.pending_keys.get((queue, idempotency_key))
        if message_id is not None:
            self._del(self.s.pending_keys, (queue, idempotency_key))
            self._del(self.s.queue, message_id)


class MemoryWorkflowStore:
    """The workflow store kept in this process's memory (tests, demos, reference)."""

    def __init__(self, *, hook_retention: float = DEFAULT_HOOK_RETENTION) -> None:
        self._s = _State()
        self._hook_retention = hook_retention
        self._changed = asyncio.Condition()
        self._queue_signal: dict[str, asyncio.Event] = {}
        self._submissions: MemorySubmissionStore | None = None
        self._conversations: MemoryConversationStore | None = None
        # Every append is in this process: followers are handed it, never read it back.
        self._taps = StreamTaps()

    def attach_agent_stores(
        self, submissions: MemorySubmissionStore, conversations: MemoryConversationStore
    ) -> None:
        """The stores `Commit.writes` and `resume_hook(writes=...)` write to."""
        self._submissions = submissions
        self._conversations = conversations

    def _with_writes(self, writes: Sequence[StoreWrite], fn: Callable[[_Txn], T]) -> T:
        """`fn` in a write whose transaction first applies `writes` (all or nothing)."""
        if not writes:
            return self._write(fn)
        targets = MemoryWrites(self._s.streams, _Stream, self._submissions, self._conversations)

        def run(t: _Txn) -> T:
            try:
                apply_writes(targets, writes)
                return fn(t)
            except BaseException:
                targets.rollback()
                raise

        result = self._write(run)
        targets.committed()
        for run_id, name, first, chunks in targets.streams:
            self._taps.appended(run_id, name, first, chunks)
        return result

    def _write(self, fn: Callable[[_Txn], T]) -> T:
        txn = _Txn(self._s, self._hook_retention)
        try:
            return fn(txn)
        except BaseException:
            txn.rollback()
            raise

    async def _notify(self, queues: Sequence[str] = ()) -> None:
        for q in queues:
            self._queue_signal.setdefault(q, asyncio.Event()).set()
        async with self._changed:
            self._changed.notify_all()

    def _queues(self) -> list[str]:
        return list({row.queue for row in self._s.queue.values()})

    # -- runs -------------------------------------------------------------------------
    async def create_run(self, run: NewRun) -> tuple[RunRecord, bool]:
        result = self._write(lambda t: _logic.create_run(t, run, time.time()))
        await self._notify([run.queue])
        return result

    async def start_run(
        self, run: NewRun, *, owner: str, lease_seconds: float
    ) -> tuple[RunRecord, bool, tuple[Message, Claim] | None]:
        return self._write(lambda t: _logic.start_run(t, run, owner, lease_seconds, time.time()))

    async def get_run(self, run_id: str) -> RunRecord | None:
        return self._s.runs.get(run_id)

    async def latest_run(self, chain_id: str) -> RunRecord | None:
        return self._s.runs.get(self._s.chains.get(chain_id, ""))

    async def list_runs(
        self,
        *,
        status: RunStatus | None = None,
        workflow_name: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
        labels: Mapping[str, str] | None = None,
    ) -> Page[RunRecord]:
        wanted = check_labels(labels).items()
        runs = sorted(self._s.runs.values(), key=lambda r: (r.created_at, r.run_id), reverse=True)
        # The reference store filters in place: it holds every run in memory anyway.
        runs = [
            r
            for r in runs
            if (status is None or r.status == status)
            and (workflow_name is None or r.workflow_name == workflow_name)
            and wanted <= r.labels.items()
        ]
        start = int(cursor) if cursor else 0
        page = runs[start : start + limit]
        more = start + limit < len(runs)
        return Page(items=tuple(page), next_cursor=str(start + limit) if more else None)

    async def label_run(self, run_id: str, labels: Mapping[str, str]) -> RunRecord:
        run = _logic.relabeled(self._s.runs.get(run_id), run_id, labels)
        self._s.runs[run_id] = run
        return run

    async def list_steps(self, run_id: str) -> list[StepRecord]:
        return sorted(
            (s for (r, _), s in self._s.steps.items() if r == run_id), key=lambda s: s.slot
        )

    async def list_events(
        self, run_id: str, *, after: int = 0, limit: int | None = None
    ) -> list[EventRecord]:
        events = [e for e in self._s.events.get(run_id, ()) if e.slot > after]
        return events if limit is None else events[:limit]

    async def list_hooks(self, run_id: str | None = None) -> list[HookRecord]:
        return sorted(
            (
                h
                for h in self._s.hooks.values()
                if run_id in (None, h.run_id) and h.retained_until is None
            ),
            key=lambda h: (h.run_id, h.slot),
        )

    async def get_hook(self, token: str) -> HookRecord | None:
        hook = _Txn(self._s).get_hook_by_token(token)
        return None if hook is None or hook.retained_until is not None else hook

    async def list_waits(self, run_id: str) -> list[WaitRecord]:
        return sorted(
            (w for (r, _), w in self._s.waits.items() if r == run_id), key=lambda w: w.slot
        )

    # -- lease holder -----------------------------------------------------------------
    async def claim_run(self, run_id: str, *, owner: str, lease_seconds: float) -> Claim:
        return self._write(lambda t: _logic.claim_run(t, run_id, owner, lease_seconds, time.time()))

    async def commit(self, commit: Commit) -> CommitResult:
        result = self._with_writes(
            commit.writes, lambda t: _logic.apply_commit(t, commit, time.time())
        )
        await self._notify([m.queue for m in commit.enqueue] + self._queues())
        return result

    async def renew_lease(
        self, run_id: str, *, owner: str, epoch: int, lease_seconds: float
    ) -> bool:
        run = self._s.runs.get(run_id)
        if run is None or run.lease_owner != owner or run.lease_epoch != epoch:
            return False
        self._s.runs[run_id] = dataclasses.replace(
            run, lease_expires_at=time.time() + lease_seconds
        )
        return True

    async def release_run(self, run_id: str, *, owner: str, epoch: int) -> None:
        run = self._s.runs.get(run_id)
        if run is not None and run.lease_owner == owner and run.lease_epoch == epoch:
            self._s.runs[run_id] = dataclasses.replace(run, lease_owner=None, lease_expires_at=0.0)

    # -- outside writes ---------------------------------------------------------------
    async def resume_hook(
        self,
        token: str,
        payload: bytes,
        *,
        writes: Sequence[StoreWrite] = (),
        run_id: str | None = None,
    ) -> HookRecord:
        hook = self._with_writes(
            writes, lambda t: _logic.resume_hook(t, token, payload, time.time(), run_id)
        )
        await self._notify(self._queues())
        return hook

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
        hook, claimed = self._with_writes(
            writes,
            lambda t: _logic.resume_hook_and_claim(
                t, token, payload, time.time(), run_id, claim_for
            ),
        )
        if claimed is None:
            await self._notify(self._queues())
            return hook, None
        return hook, (claimed[0], _partial(claimed[1], known))

    async def request_cancel(self, run_id: str, *, reason: str | None = None) -> RunRecord:
        run = self._write(lambda t: _logic.cancel_run(t, run_id, reason, time.time()))
        await self._notify(self._queues())
        return run

    async def wait_run_terminal(self, run_id: str, timeout: float) -> RunRecord | None:
        deadline = time.monotonic() + timeout
        async with self._changed:
            while True:
                run = self._s.runs.get(run_id)
                if run is None or run.status in TERMINAL_RUN_STATUSES:
                    return run
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return run
                try:
                    await within(self._changed.wait(), remaining)
                except TimeoutError:
                    return self._s.runs.get(run_id)

    # -- queue ------------------------------------------------------------------------
    async def enqueue(self, message: NewMessage) -> str:
        message_id = self._write(lambda t: t.enqueue(message, time.time()))
        await self._notify([message.queue])
        return message_id

    async def dequeue(
        self, queue: str, *, owner: str, lease_seconds: float, limit: int
    ) -> list[Message]:
        now = time.time()
        ready = sorted(
            (
                r
                for r in self._s.queue.values()
                if r.queue == queue
                and r.available_at <= now
                and (r.lease_owner is None or r.lease_expires_at <= now)
            ),
            key=lambda r: (r.available_at, r.message_id),
        )[:limit]
        out = []
        for row in ready:
            if row.lease_owner is None and row.idempotency_key is not None:
                self._s.pending_keys.pop((row.queue, row.idempotency_key), None)
            row.lease_owner = owner
            row.lease_expires_at = now + lease_seconds
            row.deliveries += 1
            out.append(
                Message(
                    message_id=row.message_id,
                    queue=row.queue,
                    payload=row.payload,
                    deliveries=row.deliveries,
                    lease_owner=owner,
                    lease_expires_at=row.lease_expires_at,
                )
            )
        return out

    async def claim_next(
        self,
        queue: str,
        *,
        owner: str,
        lease_seconds: float,
        limit: int,
        known: Mapping[str, int] | None = None,
    ) -> list[tuple[Message, Claim]]:
        taken = await self.dequeue(queue, owner=owner, lease_seconds=lease_seconds, limit=limit)
        claimed = self._write(
            lambda t: _logic.claim_messages(t, taken, owner, lease_seconds, time.time())
        )
        return [(m, _partial(c, known)) for m, c in claimed]

    async def ack(self, message_id: str, *, owner: str) -> bool:
        return self._write(lambda t: t.ack(message_id, owner))

    async def nack(self, message_id: str, *, owner: str, delay: float) -> bool:
        row = self._s.queue.get(message_id)
        ok = self._write(lambda t: t.nack(message_id, owner, time.time() + delay))
        if ok and row is not None:
            await self._notify([row.queue])
        return ok

    async def renew_messages(
        self, message_ids: Sequence[str], *, owner: str, lease_seconds: float
    ) -> int:
        n = 0
        for message_id in message_ids:
            row = self._s.queue.get(message_id)
            if row is not None and row.lease_owner == owner:
                row.lease_expires_at = time.time() + lease_seconds
                n += 1
        return n

    async def wait_for_messages(self, queue: str, timeout: float) -> None:
        event = self._queue_signal.setdefault(queue, asyncio.Event())
        await wait_event(event, timeout)
        event.clear()

    # -- workers ----------------------------------------------------------------------
    async def clock(self) -> float:
        return time.time()

    async def register_worker(self, worker: WorkerRecord) -> None:
        self._s.workers[worker.worker_id] = worker

    async def heartbeat_worker(self, worker_id: str) -> None:
        worker = self._s.workers.get(worker_id)
        if worker is not None:
            self._s.workers[worker_id] = dataclasses.replace(worker, heartbeat_at=time.time())

    async def list_workers(self) -> list[WorkerRecord]:
        return list(self._s.workers.values())

    async def expire_worker(self, worker_id: str) -> int:
        freed = 0
        for run_id, run in list(self._s.runs.items()):
            if run.lease_owner == worker_id:
                self._s.runs[run_id] = dataclasses.replace(run, lease_expires_at=0.0)
                freed += 1
        for row in self._s.queue.values():
            if row.lease_owner == worker_id:
                row.lease_expires_at = 0.0
                freed += 1
        self._s.workers.pop(worker_id, None)
        await self._notify(self._queues())
        return freed

    async def purge_run_content(self, run_id: str, *, keep_input: bool = False) -> None:
        s = self._s
        run = s.runs.get(run_id)
        if run is not None:
            # Labels go with the input (they may name whom it was about), not before.
            if keep_input:
                s.runs[run_id] = dataclasses.replace(run, output=None, error=None)
            else:
                s.runs[run_id] = dataclasses.replace(
                    run, input=None, output=None, error=None, input_digest=None, labels={}
                )
        for key, step in list(s.steps.items()):
            if key[0] == run_id:
                s.steps[key] = dataclasses.replace(step, input=None, output=None, error=None)
        s.events[run_id] = [
            e
            if keep_input and e.event_type == "run_created"
            else dataclasses.replace(e, payload=None)
            for e in s.events.get(run_id, ())
        ]
        for key, stream in s.streams.items():
            if key[0] == run_id:
                stream.chunks.clear()

    # -- streams ----------------------------------------------------------------------
    async def write_stream(self, run_id: str, name: str, chunks: Sequence[bytes]) -> int:
        stream = self._s.streams.setdefault((run_id, name), _Stream())
        if stream.closed:
            raise InvalidTransitionError(f"stream {name!r} of run {run_id!r} is closed")
        data = [bytes(c) for c in chunks]
        stream.chunks.extend(data)
        if data:
            self._taps.appended(run_id, name, len(stream.chunks) - len(data), data)
        await self._notify()
        return len(stream.chunks) - 1

    async def close_stream(self, run_id: str, name: str) -> None:
        self._s.streams.setdefault((run_id, name), _Stream()).closed = True
        self._taps.changed(run_id, name)
        await self._notify()

    async def read_stream(
        self, run_id: str, name: str, *, start: int = 0, limit: int = 1000
    ) -> tuple[list[StreamChunk], bool]:
        stream = self._s.streams.get((run_id, name))
        if stream is None:
            return [], False
        begin = resolve_start(start, len(stream.chunks))
        chunks = [
            StreamChunk(index=i, data=stream.chunks[i])
            for i in range(begin, min(len(stream.chunks), begin + limit))
        ]
        return chunks, stream.closed and begin + len(chunks) >= len(stream.chunks)

    def follow_stream(
        self, run_id: str, name: str, *, start: int = 0, poll_interval: float = 0.05
    ) -> AsyncIterator[StreamChunk]:
        return follow(self, run_id, name, start=start, poll_interval=poll_interval, taps=self._taps)
