"""`EncryptedWorkflowStore`: any `WorkflowStore` with its payloads sealed.

What is bound where, and the runs' key scopes: see `_encrypted_runs`.

Writes to other stores riding on a commit or a hook resume (`Commit.writes`) are sealed
as those stores seal them, under the run's scope (see `_encrypted_writes`).

Queue messages (run ids), names, statuses, timestamps and attributes stay in clear.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import ClassVar

from ..errors import BatchPositionError, NotFoundError
from ._encrypted_inspection import EncryptedInspection
from ._encrypted_runs import RunSealing, event_place
from ._encrypted_streams import MAX_PLACINGS, BatchPositions, StreamPositions
from ._encrypted_writes import seal_writes
from ._flow import FlowClaim, FlowLimit, FlowPolicy
from ._permits import Permit
from ._protocols import WorkflowStore
from ._records import (
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
from ._sealer import Sealer, mark_running
from ._writes import AppendStream, StoreWrite

__all__ = ["EncryptedWorkflowStore", "event_place"]


class EncryptedWorkflowStore(RunSealing, EncryptedInspection):
    """Seals what it writes and opens what it reads; only `PAYLOAD_FREE` passes through."""

    #: The protocol methods that carry no payload, passed to the inner store as they
    #: are; every other one seals what it writes and opens what it reads.
    PAYLOAD_FREE: ClassVar[frozenset[str]] = frozenset(
        {
            "ack",
            "acquire_permit",
            "clock",
            "close_stream",
            "dequeue",
            "enqueue",
            "expire_worker",
            "get_hook",
            "heartbeat_worker",
            "list_hooks",
            "list_run_messages",
            "list_waits",
            "list_workers",
            "nack",
            "purge_run_content",
            "queue_depths",
            "register_worker",
            "release_permit",
            "release_run",
            "renew_lease",
            "renew_messages",
            "wait_for_messages",
        }
    )

    def __init__(
        self, inner: WorkflowStore, sealer: Sealer, batches: BatchPositions | None = None
    ) -> None:
        super().__init__(inner, sealer)
        # With `batches`, conversation appends riding on commits are bound to their
        # offsets (without, they are sealed for their place alone).
        self._positions = StreamPositions(inner, batches)

    # -- runs --------------------------------------------------------------------------------
    async def create_run(self, run: NewRun) -> tuple[RunRecord, bool]:
        stored, created = await self.inner.create_run(await self._seal_new_run(run))
        opened = await self._open_run(stored)
        assert opened is not None
        return opened, created

    async def fork_run(
        self, fork: RunFork, *, writes: Sequence[StoreWrite] = ()
    ) -> tuple[RunRecord, bool]:
        # The copies are sealed again, for the fork's own places and key scope: a
        # ciphertext is bound to its run (and step or hook), so none is carried over.
        new = await self._seal_new_run(fork.run)
        scope = self._scopes.get(new.run_id) or await self.scope_of(new.run_id)
        events = tuple([await self._seal_event(scope, new.run_id, e) for e in fork.events])
        sealed = evolve(fork, run=new, events=events)

        async def send(placed: tuple[StoreWrite, ...]) -> tuple[RunRecord, bool]:
            return await self.inner.fork_run(
                sealed, writes=await seal_writes(self._sealer, scope, placed) if placed else ()
            )

        stored, created = await self._positions.placed(writes, send)
        if not created:  # the fork existed: its writes were not applied
            self._positions.forget_writes(writes)
        opened = await self._open_run(stored)
        assert opened is not None
        return opened, created

    async def start_run(
        self, run: NewRun, *, owner: str, lease_seconds: float
    ) -> tuple[RunRecord, bool, tuple[Message, Claim] | None]:
        stored, created, claimed = await self.inner.start_run(
            await self._seal_new_run(run), owner=owner, lease_seconds=lease_seconds
        )
        opened = await self._open_run(stored)
        assert opened is not None
        if claimed is not None:
            message, claim = claimed
            claimed = (message, await self._open_claim(claim))
        return opened, created, claimed

    async def get_run(self, run_id: str) -> RunRecord | None:
        return await self._open_run(await self.inner.get_run(run_id))

    async def latest_run(self, chain_id: str) -> RunRecord | None:
        return await self._open_run(await self.inner.latest_run(chain_id))

    async def list_runs(
        self,
        *,
        status: RunStatus | None = None,
        workflow_name: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
        labels: Mapping[str, str] | None = None,
    ) -> Page[RunRecord]:
        # Labels are clear text (like names and statuses): the inner store filters on them.
        page = await self.inner.list_runs(
            status=status, workflow_name=workflow_name, limit=limit, cursor=cursor, labels=labels
        )
        items = [await self._open_run(r) for r in page.items]
        return Page(items=tuple(r for r in items if r is not None), next_cursor=page.next_cursor)

    async def list_chains(
        self,
        *,
        workflow_name: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
        labels: Mapping[str, str] | None = None,
    ) -> Page[ChainRecord]:
        page = await self.inner.list_chains(
            workflow_name=workflow_name, limit=limit, cursor=cursor, labels=labels
        )
        items: list[ChainRecord] = []
        for chain in page.items:
            first = await self._open_run(chain.first)
            same = chain.current.run_id == chain.first.run_id
            current = first if same else await self._open_run(chain.current)
            assert first is not None and current is not None
            items.append(ChainRecord(first=first, current=current))
        return Page(items=tuple(items), next_cursor=page.next_cursor)

    async def label_run(self, run_id: str, labels: Mapping[str, str]) -> RunRecord:
        run = await self._open_run(await self.inner.label_run(run_id, labels))
        assert run is not None
        return run

    async def list_steps(self, run_id: str) -> list[StepRecord]:
        return [await self._open_step(s) for s in await self.inner.list_steps(run_id)]

    async def list_events(
        self, run_id: str, *, after: int = 0, limit: int | None = None
    ) -> list[EventRecord]:
        events = await self.inner.list_events(run_id, after=after, limit=limit)
        return [await self._open_event(e) for e in events]

    async def list_hooks(self, run_id: str | None = None) -> list[HookRecord]:
        return await self.inner.list_hooks(run_id)

    async def get_hook(self, token: str) -> HookRecord | None:
        return await self.inner.get_hook(token)

    async def list_waits(self, run_id: str) -> list[WaitRecord]:
        return await self.inner.list_waits(run_id)

    async def list_run_messages(self, run_id: str) -> list[QueueEntry]:
        # Queue entries carry no payload (a wake-up's is its run's id, never sealed).
        return await self.inner.list_run_messages(run_id)

    async def queue_depths(self) -> list[QueueDepth]:
        return await self.inner.queue_depths()  # counts: nothing sealed

    # -- the lease holder's writes -----------------------------------------------------------
    async def claim_run(self, run_id: str, *, owner: str, lease_seconds: float) -> Claim:
        claim = await self.inner.claim_run(run_id, owner=owner, lease_seconds=lease_seconds)
        return await self._open_claim(claim)

    async def commit(self, commit: Commit) -> CommitResult:
        scope = self._scopes.get(commit.run_id) or await self.scope_of(commit.run_id)
        # The step body that runs after this commit (its start is in it) runs in this
        # context: what it writes to other stores belongs to this run's scope.
        mark_running(scope)
        events = commit.events
        if any(e.payload is not None for e in events):
            events = tuple([await self._seal_event(scope, commit.run_id, e) for e in events])
        start_runs = commit.start_runs
        if start_runs:
            start_runs = tuple([await self._seal_new_run(r) for r in start_runs])
        writes = commit.writes
        if events is not commit.events or start_runs is not commit.start_runs:
            commit = evolve(commit, events=events, start_runs=start_runs)
        if commit.continuation is not None:
            commit = evolve(
                commit, continuation=await self._seal_continuation(scope, commit.continuation)
            )
        if not writes:
            return await self.inner.commit(commit)
        ready = commit

        async def send(placed: tuple[StoreWrite, ...]) -> CommitResult:
            # Chunks sealed for the indexes `placed` states (see `_encrypted_streams`).
            return await self.inner.commit(
                evolve(ready, writes=await seal_writes(self._sealer, scope, placed))
            )

        return await self._positions.placed(writes, send)

    async def renew_lease(
        self, run_id: str, *, owner: str, epoch: int, lease_seconds: float
    ) -> bool:
        return await self.inner.renew_lease(
            run_id, owner=owner, epoch=epoch, lease_seconds=lease_seconds
        )

    async def release_run(self, run_id: str, *, owner: str, epoch: int) -> None:
        await self.inner.release_run(run_id, owner=owner, epoch=epoch)

    # -- writes from outside the run ---------------------------------------------------------
    async def resume_hook(
        self,
        token: str,
        payload: bytes,
        *,
        writes: Sequence[StoreWrite] = (),
        run_id: str | None = None,
    ) -> HookRecord:
        return (await self._resume(token, payload, writes, run_id, None))[0]

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
        return await self._resume(token, payload, writes, run_id, claim_for, known)

    async def _resume(
        self,
        token: str,
        payload: bytes,
        writes: Sequence[StoreWrite],
        run_id: str | None,
        claim_for: tuple[str, float, str] | None,
        known: Mapping[str, int] | None = None,
    ) -> tuple[HookRecord, tuple[Message, Claim] | None]:
        hook = await self.inner.get_hook(token)
        refusals = 0
        while True:
            if hook is None or (run_id is not None and hook.run_id != run_id):
                # Never hand the inner store a plaintext payload, even to be refused: a
                # hook created meanwhile would take it.
                raise NotFoundError(
                    f"no active hook has token {token!r}; it was never created, or its run ended"
                )
            scope = await self.scope_of(hook.run_id)
            place = ("hook.payload", hook.run_id, hook.hook_id)
            sealed = await self._sealer.seal(scope, place, payload)
            try:
                # Sealed for the run holding the hook now, and delivered only if it still
                # does: a hook moved to a successor meanwhile (continue-as-new) is sealed
                # again for its new run. What rides on the resume (a message admitted
                # with its ring) belongs to the hook's run: under its scope, erased with it.
                # (A reservation a failure leaves is refused at the next append, then relearned.)
                placed, streams = await self._positions.place(writes)
                sealed_writes = await seal_writes(self._sealer, scope, placed)
                if claim_for is None:
                    resumed = await self.inner.resume_hook(
                        token, sealed, writes=sealed_writes, run_id=hook.run_id
                    )
                    self._positions.landed(placed)
                    return resumed, None
                owner, lease_seconds, queue = claim_for
                resumed, claimed = await self.inner.resume_hook_and_claim(
                    token,
                    sealed,
                    owner=owner,
                    lease_seconds=lease_seconds,
                    queue=queue,
                    writes=sealed_writes,
                    run_id=hook.run_id,
                    known=known,
                )
                self._positions.landed(placed)
                if claimed is not None:
                    message, claim = claimed
                    claimed = (message, await self._open_claim(claim))
                return resumed, claimed
            except NotFoundError:
                self._positions.forget(streams)
                moved = await self.inner.get_hook(token)
                if moved is None or moved.run_id == hook.run_id:
                    raise
                hook = moved
            except BatchPositionError as exc:
                # A batch riding on the resume lands elsewhere (another process appended
                # meanwhile, or it replays one): sealed again for where it lands.
                self._positions.forget(streams)
                self._positions.refused(exc, placed)
                refusals += 1
                if refusals >= MAX_PLACINGS:
                    raise
            except BaseException:
                self._positions.forget(streams)
                raise

    async def request_cancel(self, run_id: str, *, reason: str | None = None) -> RunRecord:
        run = await self._open_run(await self.inner.request_cancel(run_id, reason=reason))
        assert run is not None
        return run

    async def wait_run_terminal(self, run_id: str, timeout: float) -> RunRecord | None:
        return await self._open_run(await self.inner.wait_run_terminal(run_id, timeout))

    # -- queue -------------------------------------------------------------------------------
    async def enqueue(self, message: NewMessage) -> str:
        return await self.inner.enqueue(message)

    async def dequeue(
        self, queue: str, *, owner: str, lease_seconds: float, limit: int
    ) -> list[Message]:
        return await self.inner.dequeue(
            queue, owner=owner, lease_seconds=lease_seconds, limit=limit
        )

    async def clock(self) -> float:
        return await self.inner.clock()

    async def claim_next(
        self,
        queue: str,
        *,
        owner: str,
        lease_seconds: float,
        limit: int,
        known: Mapping[str, int] | None = None,
    ) -> list[tuple[Message, Claim]]:
        claimed = await self.inner.claim_next(
            queue, owner=owner, lease_seconds=lease_seconds, limit=limit, known=known
        )
        return [(m, await self._open_claim(c)) for m, c in claimed]

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
        # Limits read names and labels, which are never sealed: the claim passes through.
        got = await self.inner.claim_flow(
            queue,
            owner=owner,
            lease_seconds=lease_seconds,
            limit=limit,
            policy=policy,
            known=known,
            scan_from=scan_from,
        )
        claimed = [(m, await self._open_claim(c)) for m, c in got.claimed]
        return dataclasses.replace(got, claimed=claimed)

    async def acquire_permit(
        self, key: str, *, holder: str, limit: FlowLimit, lease_seconds: float
    ) -> Permit:
        # Keys and holders are names, never sealed.
        return await self.inner.acquire_permit(
            key, holder=holder, limit=limit, lease_seconds=lease_seconds
        )

    async def release_permit(self, key: str, *, holder: str) -> None:
        await self.inner.release_permit(key, holder=holder)

    async def ack(self, message_id: str, *, owner: str) -> bool:
        return await self.inner.ack(message_id, owner=owner)

    async def nack(self, message_id: str, *, owner: str, delay: float) -> bool:
        return await self.inner.nack(message_id, owner=owner, delay=delay)

    async def renew_messages(
        self, message_ids: Sequence[str], *, owner: str, lease_seconds: float
    ) -> int:
        return await self.inner.renew_messages(
            message_ids, owner=owner, lease_seconds=lease_seconds
        )

    async def wait_for_messages(self, queue: str, timeout: float) -> None:
        await self.inner.wait_for_messages(queue, timeout)

    # -- workers -----------------------------------------------------------------------------
    async def register_worker(self, worker: WorkerRecord) -> None:
        await self.inner.register_worker(worker)

    async def heartbeat_worker(self, worker_id: str) -> None:
        await self.inner.heartbeat_worker(worker_id)

    async def list_workers(self) -> list[WorkerRecord]:
        return await self.inner.list_workers()

    async def expire_worker(self, worker_id: str) -> int:
        return await self.inner.expire_worker(worker_id)

    async def purge_run_content(self, run_id: str, *, keep_input: bool = False) -> bool:
        return await self.inner.purge_run_content(run_id, keep_input=keep_input)

    async def list_prunable_runs(
        self, ended_before: float, *, limit: int, after: tuple[float, str] | None = None
    ) -> list[RunRecord]:
        found = await self.inner.list_prunable_runs(ended_before, limit=limit, after=after)
        items = [await self._open_run(r) for r in found]
        return [r for r in items if r is not None]

    # -- streams -----------------------------------------------------------------------------
    async def write_stream(
        self, run_id: str, name: str, chunks: Sequence[bytes], *, at: int | None = None
    ) -> int:
        if not chunks:
            return await self.inner.write_stream(run_id, name, [], at=at)
        scope = await self.scope_of(run_id)
        place = ("stream", run_id, name)

        async def send(placed: tuple[StoreWrite, ...]) -> int:
            (write,) = placed
            assert isinstance(write, AppendStream) and write.at is not None
            start = write.at
            sealed = [
                await self._sealer.seal(scope, place, c, at=start + i) for i, c in enumerate(chunks)
            ]
            return await self.inner.write_stream(run_id, name, sealed, at=start)

        append = AppendStream(run_id=run_id, name=name, chunks=tuple(chunks), at=at)
        return await self._positions.placed((append,), send)

    async def close_stream(self, run_id: str, name: str) -> None:
        await self.inner.close_stream(run_id, name)

    async def _open_chunk(self, run_id: str, name: str, chunk: StreamChunk) -> StreamChunk:
        data = await self._sealer.open(("stream", run_id, name), chunk.data, at=chunk.index)
        assert data is not None
        return StreamChunk(index=chunk.index, data=data)

    async def read_stream(
        self, run_id: str, name: str, *, start: int = 0, limit: int = 1000
    ) -> tuple[list[StreamChunk], bool]:
        chunks, closed = await self.inner.read_stream(run_id, name, start=start, limit=limit)
        return [await self._open_chunk(run_id, name, c) for c in chunks], closed

    async def follow_stream(
        self, run_id: str, name: str, *, start: int = 0, poll_interval: float = 0.05
    ) -> AsyncIterator[StreamChunk]:
        async for chunk in self.inner.follow_stream(
            run_id, name, start=start, poll_interval=poll_interval
        ):
            yield await self._open_chunk(run_id, name, chunk)
