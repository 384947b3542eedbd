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
from typing import TYPE_CHECKING, TypeVar

from ...errors import InvalidTransitionError
from ..kit import (
    DEFAULT_HOOK_RETENTION,
    TERMINAL_RUN_STATUSES,
    ChainRecord,
    Claim,
    Commit,
    CommitResult,
    EventRecord,
    FlowCandidate,
    FlowClaim,
    FlowLimit,
    FlowPolicy,
    HeldRun,
    HookRecord,
    Message,
    NewMessage,
    NewRun,
    Page,
    Permit,
    QueueDepth,
    QueueEntry,
    RunFork,
    RunRecord,
    RunStatus,
    StepRecord,
    StoreWrite,
    StreamChunk,
    StreamTaps,
    WaitRecord,
    WorkerRecord,
    apply_writes,
    check_labels,
    flow_rules,
    follow,
    misplaced,
    page_of,
    page_start,
    resolve_start,
    rows_from,
    wait_event,
    within,
    workflow_rules,
)
from ._gate import Gate, gated
from ._inspect import MemoryInspection
from ._permits import take_permit
from ._state import _Row, _State, _Stream, _Txn
from ._writes import MemoryWrites

if TYPE_CHECKING:
    from ._conversations import MemoryConversationStore
    from ._submissions import MemorySubmissionStore

T = TypeVar("T")


def _run_key(run: RunRecord) -> tuple[float, str]:
    """A run's place in listings (newest first: sorted on this, reversed)."""
    return (run.created_at, run.run_id)


def _partial(claim: Claim, known: Mapping[str, int] | None) -> Claim:
    """The claim with only the log after what the claimer holds (`known`)."""
    after = workflow_rules.known_after(claim, known)
    if not after:
        return claim
    events = tuple(e for e in claim.events if e.slot > after)
    return dataclasses.replace(claim, events=events, after=after)


@gated
class MemoryWorkflowStore(MemoryInspection):
    """The workflow store kept in this process's memory (tests, demos, reference)."""

    def __init__(
        self, *, hook_retention: float = DEFAULT_HOOK_RETENTION, gate: Gate | None = None
    ) -> None:
        self._gate = gate or Gate()
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
        result = self._write(lambda t: workflow_rules.create_run(t, run, time.time()))
        await self._notify([run.queue])
        return result

    async def fork_run(
        self, fork: RunFork, *, writes: Sequence[StoreWrite] = ()
    ) -> tuple[RunRecord, bool]:
        result = self._with_writes(writes, lambda t: workflow_rules.fork_run(t, fork, time.time()))
        await self._notify([fork.run.queue])
        return result

    async def start_run(
        self, run: NewRun, *, owner: str, lease_seconds: float
    ) -> tuple[RunRecord, bool, tuple[Message, Claim] | None]:
        return self._write(
            lambda t: workflow_rules.start_run(t, run, owner, lease_seconds, time.time())
        )

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
        start = page_start(cursor)
        wanted = check_labels(labels).items()
        # The reference store filters in place: it holds every run in memory anyway.
        runs = [
            r
            for r in sorted(self._s.runs.values(), key=_run_key, reverse=True)
            if (status is None or r.status == status)
            and (workflow_name is None or r.workflow_name == workflow_name)
            and wanted <= r.labels.items()
        ]
        return page_of(rows_from(runs, start, _run_key)[: limit + 1], limit, _run_key)

    async def list_chains(
        self,
        *,
        workflow_name: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
        labels: Mapping[str, str] | None = None,
    ) -> Page[ChainRecord]:
        start = page_start(cursor)
        wanted = check_labels(labels).items()
        firsts = [
            r
            for r in sorted(self._s.runs.values(), key=_run_key, reverse=True)
            if r.generation == 0
            and (workflow_name is None or r.workflow_name == workflow_name)
            and wanted <= r.labels.items()
        ]
        chains = [
            ChainRecord(first=r, current=self._s.runs.get(self._s.chains.get(r.run_id, ""), r))
            for r in rows_from(firsts, start, _run_key)[: limit + 1]
        ]
        return page_of(chains, limit, lambda c: _run_key(c.first))

    async def label_run(self, run_id: str, labels: Mapping[str, str]) -> RunRecord:
        run = workflow_rules.relabeled(self._s.runs.get(run_id), run_id, labels)
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

    async def list_run_messages(self, run_id: str) -> list[QueueEntry]:
        payload = run_id.encode()
        return sorted(
            (
                QueueEntry(
                    message_id=r.message_id,
                    queue=r.queue,
                    available_at=r.available_at,
                    deliveries=r.deliveries,
                    lease_owner=r.lease_owner,
                    lease_expires_at=r.lease_expires_at,
                )
                for r in self._s.queue.values()
                if r.payload == payload
            ),
            key=lambda m: (m.available_at, m.message_id),
        )

    # -- lease holder -----------------------------------------------------------------
    async def claim_run(self, run_id: str, *, owner: str, lease_seconds: float) -> Claim:
        return self._write(
            lambda t: workflow_rules.claim_run(t, run_id, owner, lease_seconds, time.time())
        )

    async def commit(self, commit: Commit) -> CommitResult:
        result = self._with_writes(
            commit.writes, lambda t: workflow_rules.apply_commit(t, commit, time.time())
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
            writes, lambda t: workflow_rules.resume_hook(t, token, payload, time.time(), run_id)
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
            lambda t: workflow_rules.resume_hook_and_claim(
                t, token, payload, time.time(), run_id, claim_for
            ),
        )
        if claimed is None:
            await self._notify(self._queues())
            return hook, None
        return hook, (claimed[0], _partial(claimed[1], known))

    async def request_cancel(self, run_id: str, *, reason: str | None = None) -> RunRecord:
        run = self._write(lambda t: workflow_rules.cancel_run(t, run_id, reason, time.time()))
        await self._notify(self._queues())
        return run

    async def wait_run_terminal(self, run_id: str, timeout: float) -> RunRecord | None:
        deadline = time.monotonic() + timeout
        async with self._changed:
            while True:
                self._gate.check()  # woken by a close (`_wake_closed`), too
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

    async def queue_depths(self) -> list[QueueDepth]:
        now = time.time()
        counts: dict[str, list[int]] = {}
        for r in self._s.queue.values():
            held = r.lease_owner is not None and r.lease_expires_at > now
            state = 2 if held else (0 if r.available_at <= now else 1)
            counts.setdefault(r.queue, [0, 0, 0])[state] += 1
        return [
            QueueDepth(queue=q, ready=n[0], delayed=n[1], leased=n[2])
            for q, n in sorted(counts.items())
        ]

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
        return [self._lease_row(row, owner, now + lease_seconds) for row in ready]

    def _lease_row(self, row: _Row, owner: str, until: float) -> Message:
        """Deliver a ready message to `owner` until `until`."""
        if row.lease_owner is None and row.idempotency_key is not None:
            self._s.pending_keys.pop((row.queue, row.idempotency_key), None)
        row.lease_owner = owner
        row.lease_expires_at = until
        row.deliveries += 1
        return Message(
            message_id=row.message_id,
            queue=row.queue,
            payload=row.payload,
            deliveries=row.deliveries,
            lease_owner=owner,
            lease_expires_at=until,
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
        taken = await self.dequeue(queue, owner=owner, lease_seconds=lease_seconds, limit=limit)
        claimed = self._write(
            lambda t: workflow_rules.claim_messages(t, taken, owner, lease_seconds, time.time())
        )
        return [(m, _partial(c, known)) for m, c in claimed]

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
        # One event-loop turn from the read to the lease: nothing else runs between.
        now = time.time()
        s = self._s
        head: list[FlowCandidate] = []
        probe: list[FlowCandidate] = []
        held: list[HeldRun] = []
        for row in sorted(s.queue.values(), key=lambda r: (r.available_at, r.message_id)):
            if row.queue != queue:
                continue
            run_id = row.payload.decode(errors="replace")
            run = s.runs.get(run_id)
            if row.lease_owner is not None and row.lease_expires_at > now:
                if run is not None:
                    held.append(
                        HeldRun(run_id=run_id, workflow_name=run.workflow_name, labels=run.labels)
                    )
                continue
            if row.available_at > now:
                continue
            found = FlowCandidate(
                message_id=row.message_id,
                run_id=run_id,
                available_at=row.available_at,
                workflow_name=None if run is None else run.workflow_name,
                labels={} if run is None else run.labels,
            )
            if len(head) < policy.window:
                head.append(found)
            if (
                scan_from is not None
                and (row.available_at, row.message_id) > scan_from
                and len(probe) < policy.window
            ):
                probe.append(found)
        ready, scanned_to = flow_rules.merged(head, probe, policy.window)
        keys = flow_rules.rate_keys(policy, ready)
        buckets = {k: s.flow_buckets[k] for k in keys if k in s.flow_buckets}
        choice = flow_rules.choose(policy, ready, held, buckets, now=now, limit=limit)
        s.flow_buckets.update(choice.buckets)
        taken = [
            self._lease_row(s.queue[i], owner, now + lease_seconds) for i in choice.message_ids
        ]
        claimed = self._write(
            lambda t: workflow_rules.claim_messages(t, taken, owner, lease_seconds, now)
        )
        return FlowClaim(
            claimed=[(m, _partial(c, known)) for m, c in claimed],
            blocked=choice.blocked,
            retry_after=choice.retry_after,
            scanned_to=scanned_to,
        )

    async def acquire_permit(
        self, key: str, *, holder: str, limit: FlowLimit, lease_seconds: float
    ) -> Permit:
        return take_permit(self._s, key, holder, limit, lease_seconds, time.time())

    async def release_permit(self, key: str, *, holder: str) -> None:
        self._s.flow_permits.get(key, {}).pop(holder, None)

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
        self._gate.check()  # woken by a close (`_wake_closed`), too

    async def _wake_closed(self) -> None:
        """Wake every waiter and follower of a closed store: their next call raises."""
        for event in self._queue_signal.values():
            event.set()
        self._taps.changed_anywhere()
        async with self._changed:
            self._changed.notify_all()

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

    async def purge_run_content(self, run_id: str, *, keep_input: bool = False) -> bool:
        s = self._s
        run = s.runs.get(run_id)
        first = run is not None and run_id not in s.purged
        if run is not None:
            s.purged.add(run_id)
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
                stream.chunks[:] = [b""] * len(stream.chunks)
                stream.purged = len(stream.chunks)
        return first

    async def list_prunable_runs(
        self, ended_before: float, *, limit: int, after: tuple[float, str] | None = None
    ) -> list[RunRecord]:
        s = self._s

        def ended(run_id: str | None) -> bool:
            run = None if run_id is None else s.runs.get(run_id)
            return (
                run is not None
                and run.completed_at is not None
                and (run.completed_at < ended_before)
            )

        # A chain ended before the time when every run of it did.
        chains: dict[str | None, bool] = {}
        for r in s.runs.values():
            chains[r.chain_id] = chains.get(r.chain_id, True) and ended(r.run_id)
        found = [
            r
            for r in s.runs.values()
            if r.run_id not in s.purged
            and chains[r.chain_id]
            and (r.parent_run_id is None or ended(r.parent_run_id))
            and (after is None or ((r.completed_at or 0.0), r.run_id) > after)
        ]
        found.sort(key=lambda r: (r.completed_at or 0.0, r.run_id))
        return found[:limit]

    # -- streams ----------------------------------------------------------------------
    async def write_stream(
        self, run_id: str, name: str, chunks: Sequence[bytes], *, at: int | None = None
    ) -> int:
        found = self._s.streams.get((run_id, name))
        if found is not None and found.closed:
            raise InvalidTransitionError(f"stream {name!r} of run {run_id!r} is closed")
        length = 0 if found is None else len(found.chunks)
        if at is not None and at != length:
            raise misplaced(run_id, name, at, length)
        stream = self._s.streams.setdefault((run_id, name), _Stream())
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
        begin = max(resolve_start(start, len(stream.chunks)), stream.purged)
        chunks = [
            StreamChunk(index=i, data=stream.chunks[i])
            for i in range(begin, min(len(stream.chunks), begin + limit))
        ]
        return chunks, stream.closed and begin + len(chunks) >= len(stream.chunks)

    def follow_stream(
        self, run_id: str, name: str, *, start: int = 0, poll_interval: float = 0.05
    ) -> AsyncIterator[StreamChunk]:
        return follow(self, run_id, name, start=start, poll_interval=poll_interval, taps=self._taps)
