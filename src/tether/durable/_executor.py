"""One activation of a run: replay, run what is new, commit each boundary.

An activation ends by finishing the run, parking it, or giving it up.

Write discipline (one write per step): a step's completion is not committed alone. It
waits in `_pending` until the body asks for its next durable operation, and goes out
in the same transaction as that operation's start (or the run's end, or its park).
The body between two operations is deterministic and side-effect free, so deferring
the completion costs nothing on a crash but the re-run that any crash before a commit
costs, while the start of every step is still durable before its body runs — which
is what makes a crash count as an attempt.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from .._codec import decode, decode_error, digest, encode, encode_error
from .._ids import new_token, new_ulid
from .._version import step_name_tag
from ..errors import (
    ConflictError,
    FatalError,
    FencedError,
    HookTokenInUseError,
    InvalidInputError,
    InvalidTransitionError,
    NonDeterminismError,
    NotFoundError,
    RetryableError,
    SerializationError,
    StaleHeadError,
    StepFailedError,
    StoreError,
    StoreUnavailableError,
)
from ..stores import (
    Commit,
    Continuation,
    NewEvent,
    NewMessage,
    NewRun,
    RunRecord,
    StoreWrite,
    WorkflowStore,
)
from ._bodies import StepBodies
from ._context import ChildRun, Hook, StepInfo, WorkflowContext
from ._continue import Handoff, prepare_successor
from ._journal import ChildOp, HookOp, Journal, StepOp, WaitOp
from ._lease import Lease
from ._registry import Registry, WorkflowDef, workflow_name_of
from ._retry import RetryPolicy, parse_duration
from ._step_scope import StepScope
from ._threads import StepThreads

if TYPE_CHECKING:
    from ..stores import EventRecord

__all__ = ["Activation"]

T = TypeVar("T")
log = logging.getLogger("tether.worker")

FORMAT_VERSION = 1
#: Without a lease to go by (an activation outside a worker), how often a commit is
#: tried while the store is unavailable before the activation gives the run up.
_TRANSIENT_TRIES = 6


#: Types whose values decode back equal to themselves (a NaN does not: it is unequal).
_SAME_AFTER_DECODE = frozenset({str, bytes, int, float, bool, type(None)})


#: Loop turns a park check lets the body run before it decides (see `_park_check`).
_PARK_CHECK_TURNS = 3


class _Suspend(BaseException):
    """Unwinds a body whose activation ended (parked, fenced, cancelled).

    A BaseException, so a user's `except Exception` cannot swallow it.
    """


@dataclass(slots=True)
class _Waiter:
    resume_at: float | None
    check: Callable[[], bool]
    future: asyncio.Future[None]


class StepInterruptedError(Exception):
    """Recorded when a step's last allowed attempt was cut short by a crash or lost lease."""


class Activation:
    """Drives one run from a claim to its end, park or hand-over."""

    def __init__(
        self,
        *,
        store: WorkflowStore,
        registry: Registry,
        workflow: WorkflowDef,
        run: RunRecord,
        epoch: int,
        events: Sequence[EventRecord],
        message_id: str | None,
        owner: str,
        threads: StepThreads,
        lease_seconds: float | None = None,
        lease_sent: float | None = None,
        handoff: Handoff | None = None,
    ) -> None:
        self.store = store
        self.handoff = handoff or Handoff(None)
        self.registry = registry
        self.workflow = workflow
        self.run = run
        self.run_id = run.run_id
        # Every run of a chain writes the chain's streams: one offset space across moves.
        self.stream_id = run.chain_id or run.run_id
        self.epoch = epoch
        self.owner = owner
        self.message_id = message_id
        self.threads = threads
        self.lease = Lease(lease_seconds, time.monotonic() if lease_sent is None else lease_sent)
        self.journal = Journal.from_events(run.run_id, list(events))
        self.head = self.journal.head
        self.clock = self.journal.created_at or run.created_at
        self.outcome: str = "running"
        self._slot = 0
        self._pending: list[NewEvent] = []
        # Other stores' writes of completed steps, committed with `_pending`.
        self._pending_writes: list[StoreWrite] = []
        self._lock = asyncio.Lock()
        self._active_steps = 0
        self._waiters: list[_Waiter] = []
        self._unconfirmed_hooks: set[str] = set()
        self._task: asyncio.Task[None] | None = None
        loop = asyncio.get_running_loop()
        self._done: asyncio.Future[str] = loop.create_future()
        self._park_check_scheduled = False
        self._flush_scheduled = False
        self.bodies = StepBodies(run.run_id, threads)
        self._lease_timer: asyncio.TimerHandle | None = None
        self._cancelling = False
        if lease_seconds is not None:
            self._lease_timer = loop.call_at(time.monotonic() + lease_seconds, self._lease_check)

    # -- lifecycle -----------------------------------------------------------------------
    async def run_to_boundary(self) -> str:
        """Run until the activation ends.

        Returns "completed", "failed", "cancelled", "continued", "parked" or "abandoned".
        """
        if self.journal.cancel_requested is not None:
            await self._end_cancelled(self.journal.cancel_requested)
            return self.outcome
        self._task = asyncio.create_task(self._body(), name=f"tether-run:{self.run_id}")
        self._task.add_done_callback(self._body_done)
        return await self._done

    async def _body(self) -> None:
        ctx = WorkflowContext(self)
        try:
            inputs = decode(self.run.input or b"", what=f"input of run {self.run_id!r}")
            value = await self.workflow.fn(ctx, *inputs.get("args", ()), **inputs.get("kwargs", {}))
        except _Suspend:
            return
        except asyncio.CancelledError as exc:
            task = asyncio.current_task()
            if self.ended or (task is not None and task.cancelling()):
                return
            # The body raised it itself (it awaited a task that was cancelled): a failure
            # like any other, or the run would hang on a body that is gone.
            await self._end_with("failed", exc)
            return
        except BaseException as exc:
            await self._end_with("failed", exc)
            return
        await self._end_with("completed", value)

    def _body_done(self, task: asyncio.Task[None]) -> None:
        if self._done.done():
            return
        # The body ended without an outcome: something escaped the engine's own
        # handling. Give the lease up rather than hold the run forever.
        error = None if task.cancelled() else task.exception()
        log.error("run %s: its activation ended without an outcome", self.run_id, exc_info=error)
        self._settle("abandoned")

    def _settle(self, outcome: str) -> None:
        if self.outcome == "running":
            self.outcome = outcome
        if self._lease_timer is not None:
            self._lease_timer.cancel()
            self._lease_timer = None
        if not self._done.done():
            self._done.set_result(self.outcome)
        task = self._task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()

    def _lease_check(self) -> None:
        self._lease_timer = None
        if self.ended:
            return
        remaining = self.lease.remaining()
        if remaining > 0:
            loop = asyncio.get_running_loop()
            self._lease_timer = loop.call_at(time.monotonic() + remaining, self._lease_check)
            return
        # Renewals did not get through (the store is unreachable, or this process was
        # stalled): another worker may take the run from now on. Stop trusting the
        # lease before it can: async step bodies are cancelled here, and nothing more
        # is committed under it.
        log.warning("run %s: its lease may have run out; giving the run up", self.run_id)
        self._settle("abandoned")

    @property
    def ended(self) -> bool:
        """Whether the activation is over."""
        return self.outcome != "running"

    async def quiesce(self) -> None:
        """Wait until no step body of this activation is still running.

        Step bodies in threads run to their end; the body task (async steps) unwinds
        from its cancellation.
        """
        await self.bodies.quiesce()
        task = self._task
        if task is not None and not task.done() and task is not asyncio.current_task():
            await asyncio.wait({task})

    def abandon(self) -> None:
        """Give the run up without writing (lease lost, worker stopping)."""
        self._settle("abandoned")

    async def _end_with(self, status: str, value: Any) -> None:
        if status == "completed":
            try:
                payload = encode(value, what=f"output of workflow {self.workflow.name!r}")
            except SerializationError as exc:
                status, payload = "failed", encode_error(exc)
        else:
            payload = encode_error(value)
        event = NewEvent(
            event_type="run_completed" if status == "completed" else "run_failed",
            payload=payload,
        )
        try:
            await self._commit([event], end=True)
        except _Suspend:
            return
        self._settle(status)

    async def _end_cancelled(self, reason: str) -> None:
        try:
            event = NewEvent(event_type="run_cancelled", attrs={"reason": reason})
            await self._commit([event], end=True, keep_pending=False)
        except _Suspend:
            return
        self._settle("cancelled")

    # -- commits --------------------------------------------------------------------------
    async def _commit(
        self,
        events: Sequence[NewEvent] = (),
        *,
        start_runs: Sequence[NewRun] = (),
        enqueue: Sequence[NewMessage] = (),
        end: bool = False,
        keep_pending: bool = True,
        park_guard: Callable[[], bool] | None = None,
        refusals: tuple[type[StoreError], ...] = (),
        writes: Sequence[StoreWrite] = (),
        continuation: Callable[[], Continuation] | None = None,
        start_body: Callable[[], bool] | None = None,
    ) -> bool:
        """Commit pending writes plus `events`; False when `park_guard` vetoed a park.

        Only "store unavailable" is tried again. A refusal of a type in `refusals` is
        raised to the caller with the pending writes kept; any other refusal fails the
        run with it (asking again would get the same answer). `start_body` is offered
        to the store to call once the commit is durable (see `_when_durable`).
        """
        async with self._lock:
            if self.ended:
                raise _Suspend
            batch = (self._pending if keep_pending else []) + list(events)
            store_writes = (self._pending_writes if keep_pending else []) + list(writes)
            self._pending = []
            self._pending_writes = []
            stale = False
            refused: StoreError | InvalidInputError | None = None
            tries = 0
            while True:
                try:
                    if stale:
                        # Another writer appended (a hook payload, a child's end, a
                        # cancel), or an earlier try of this very batch was written and
                        # its answer lost: fold in what is new, then commit again at the
                        # new head, unless the batch is already there.
                        stale = False
                        if await self._catch_up(batch):
                            break
                    # A park is decided under the lock, on the latest journal: a commit that
                    # held the lock before this one may have folded in what the body waits
                    # for, and parking then would leave the run asleep with its answer.
                    if park_guard is not None and not park_guard():
                        self._pending = batch + self._pending
                        self._pending_writes = store_writes + self._pending_writes
                        return False
                    sent = time.monotonic()
                    commit = Commit(
                        run_id=self.run_id,
                        owner=self.owner,
                        epoch=self.epoch,
                        expected_head=self.head,
                        events=tuple(batch),
                        start_runs=tuple(start_runs),
                        enqueue=tuple(enqueue),
                        ack_message_id=self.message_id if end else None,
                        release=end,
                        # Each commit renews the lease (from the moment the store writes
                        # it): a step it starts must not run on a lease about to lapse.
                        lease_seconds=None if end else self.lease.seconds,
                        writes=tuple(store_writes),
                        # Built per try: a catch-up may have folded in payloads to carry.
                        continuation=None if continuation is None else continuation(),
                        on_durable=(
                            None if start_body is None else self._when_durable(start_body, sent)
                        ),
                    )
                    result = await self.store.commit(commit)
                except StaleHeadError:
                    stale = True
                    continue
                except HookTokenInUseError as exc:
                    batch = self._hook_conflict(batch, exc)
                    continue
                except (FencedError, InvalidTransitionError, NotFoundError):
                    self._settle("abandoned")
                    raise _Suspend from None
                except StoreUnavailableError as exc:
                    # Not now (the database restarted, the disk is full, the network is
                    # down): the same commit, or the same merge, is tried again while
                    # the lease holds. It may have been written all the same: the head
                    # check then refuses the retry, and catching up finds it.
                    tries += 1
                    out_of_time = (
                        self.lease.expired()
                        if self.lease.seconds is not None
                        else tries >= _TRANSIENT_TRIES
                    )
                    if out_of_time:
                        log.warning("run %s: the store stayed unavailable: %s", self.run_id, exc)
                        self._settle("abandoned")
                        raise _Suspend from None
                    await asyncio.sleep(min(0.05 * 2**tries, 1.0))
                    continue
                except (StoreError, InvalidInputError) as exc:
                    # InvalidInputError: a value the store refuses alike on every backend.
                    if refused is not None:
                        # Even the run's failure was refused: hand it back.
                        log.error("run %s: the store refused its failure: %s", self.run_id, exc)
                        self._settle("abandoned")
                        raise _Suspend from None
                    if isinstance(exc, refusals):
                        # The caller's events are refused; the writes that rode along go
                        # out with the next commit, ahead of any queued meanwhile.
                        refused_ids = set(map(id, events))
                        kept = [e for e in batch if id(e) not in refused_ids]
                        self._pending = kept + self._pending
                        self._pending_writes = store_writes + self._pending_writes
                        raise
                    # A refusal (a value the store cannot hold, a rule the commit broke):
                    # the run fails with it, nothing of the refused commit written.
                    refused = exc
                    log.error("run %s: the store refused a commit: %s", self.run_id, exc)
                    batch = [NewEvent(event_type="run_failed", payload=encode_error(exc))]
                    start_runs, enqueue, end, park_guard = (), (), True, None
                    store_writes = []
                    continuation = start_body = None
                    continue
                self.head = result.head
                if not end:
                    self.lease.renewed(sent)
                break
            for event in batch:
                if event.event_type == "hook_created":
                    self._unconfirmed_hooks.discard(str(event.correlation_id))
            if refused is not None:
                self._settle("failed")
                raise _Suspend
            return True

    def _when_durable(self, start_body: Callable[[], bool], sent: float) -> Callable[[], None]:
        """What the store calls once a step's start is durable (on its writer thread).

        It starts the body there and then only if `_ensure_lease` would let it start
        on the loop: the activation goes on, and at least half a lease is surely left
        from `sent`, when the commit that renewed it was sent. Otherwise the body
        starts, or not, on the loop as before, once the commit returns.
        """
        seconds = self.lease.seconds

        def on_durable() -> None:
            if self.ended:
                return
            if seconds is not None and sent + seconds - time.monotonic() < seconds / 2:
                return
            start_body()

        return on_durable

    def _obey_cancel(self) -> None:
        """Once a cancel request is folded in, end the run cancelled (once).

        It must be obeyed, not just seen: a park commit drops the run's waiting
        wake-ups, the one the request enqueued among them.
        """
        reason = self.journal.cancel_requested
        if reason is not None and not self._cancelling:
            self._cancelling = True
            asyncio.get_running_loop().create_task(self._end_cancelled(reason))

    async def _catch_up(self, batch: list[NewEvent]) -> bool:
        """Fold in what others appended; True when `batch` itself is already written.

        A commit whose answer was lost (a cut connection) may have been written: then
        the log after our head starts with exactly our events. The journal already
        holds them (this process made them), so only the head moves past them; what
        follows is folded in. Whatever the store did behind the call (a fast path that
        fell back to a locked one), this tells the two cases apart.
        """
        found = await self.store.list_events(self.run_id, after=self.head)
        ours = found[: len(batch)]
        written = (
            bool(batch)
            and len(ours) == len(batch)
            and all(
                (e.event_type, e.correlation_id, e.attrs.get("attempt"))
                == (n.event_type, n.correlation_id, n.attrs.get("attempt"))
                for e, n in zip(ours, batch, strict=True)
            )
        )
        if written:
            self.journal.skip_to(ours[-1].slot)
            found = found[len(batch) :]
        for event in found:
            self.journal.apply(event)
        self.head = self.journal.head
        if self.journal.cancelled:
            self._settle("cancelled")
            raise _Suspend
        self._obey_cancel()
        self._poke()
        return written

    def _hook_conflict(self, batch: list[NewEvent], exc: HookTokenInUseError) -> list[NewEvent]:
        """Record the refused hook as such: replay must see the refusal the body saw."""
        kept = []
        for event in batch:
            if event.event_type == "hook_created" and event.attrs.get("token") == exc.token:
                hook_id = str(event.correlation_id)
                op = self.journal.ops.get(int(event.attrs.get("slot") or 0))
                if isinstance(op, HookOp):
                    op.conflict = exc.run_id
                    op.conflict_until = exc.retained_until
                self._unconfirmed_hooks.discard(hook_id)
                event = NewEvent(
                    event_type="hook_conflict",
                    correlation_id=hook_id,
                    attrs={
                        **event.attrs,
                        "holder": exc.run_id,
                        "retained_until": exc.retained_until,
                    },
                )
            kept.append(event)
        self._poke()
        return kept

    def _schedule_flush(self) -> None:
        if self._flush_scheduled:
            return
        self._flush_scheduled = True
        asyncio.get_running_loop().call_soon(self._start_flush)

    def _start_flush(self) -> None:
        self._flush_scheduled = False
        if self._pending and not self.ended:
            asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        # A few loop turns more than a park check waits (`_park_check`): a body that
        # parks right after its step carries the step's completion in its park commit,
        # and one that starts its next step carries it in that step's start: one write,
        # not two. Only a body that does neither leaves it to this flush.
        for _ in range(_PARK_CHECK_TURNS + 2):
            await asyncio.sleep(0)
        if self._pending and not self.ended:
            with contextlib.suppress(_Suspend):
                await self._commit()

    # -- waiting and parking --------------------------------------------------------------
    async def _wait(self, *, resume_at: float | None, check: Callable[[], bool]) -> None:
        while not check():
            if self.ended:
                raise _Suspend
            waiter = _Waiter(resume_at, check, asyncio.get_running_loop().create_future())
            self._waiters.append(waiter)
            self._schedule_park_check()
            try:
                await waiter.future
            finally:
                self._waiters.remove(waiter)

    async def _wait_until(self, when: float) -> None:
        await self._wait(resume_at=when, check=lambda: time.time() >= when)

    def _poke(self) -> None:
        now = time.time()
        for waiter in self._waiters:
            due = waiter.resume_at is not None and waiter.resume_at <= now
            if (due or waiter.check()) and not waiter.future.done():
                waiter.future.set_result(None)

    def _schedule_park_check(self) -> None:
        if not self._park_check_scheduled:
            self._park_check_scheduled = True
            asyncio.get_running_loop().create_task(self._park_check())

    async def _park_check(self) -> None:
        # Let the body run until it blocks: a few loop turns cover awaits between ops.
        for _ in range(_PARK_CHECK_TURNS):
            await asyncio.sleep(0)
        self._park_check_scheduled = False
        if self.ended or self._active_steps or not self._waiters:
            return
        self._poke()
        if any(w.future.done() for w in self._waiters):
            return
        timers = [w.resume_at for w in self._waiters if w.resume_at is not None]
        enqueue: tuple[NewMessage, ...] = ()
        if timers:
            enqueue = (
                NewMessage(
                    queue=self.run.queue,
                    payload=self.run_id.encode(),
                    available_at=min(timers),
                    idempotency_key=self.run_id,
                ),
            )

        def still_blocked() -> bool:
            # Blocked means: nothing running, and every waiter still waiting. A body that
            # moved on while this park waited for the lock has no waiters left, or a step.
            self._poke()
            return (
                not self._active_steps
                and self.journal.cancel_requested is None
                and bool(self._waiters)
                and not any(w.future.done() for w in self._waiters)
            )

        try:
            parked = await self._commit(enqueue=enqueue, end=True, park_guard=still_blocked)
        except _Suspend:
            return
        if parked:
            self._settle("parked")

    # -- operations -------------------------------------------------------------------------
    def _next_slot(self) -> int:
        if self.ended:
            raise _Suspend
        self._slot += 1
        return self._slot

    def _nondeterminism(self, slot: int, recorded: str, requested: str) -> NonDeterminismError:
        return NonDeterminismError(self.run_id, slot, recorded, requested)

    async def run_step(
        self,
        label: str,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        policy: RetryPolicy,
        timeout: float | None = None,
    ) -> Any:
        slot = self._next_slot()
        name = step_name_tag(label)
        op = self.journal.ops.get(slot)
        if op is None:
            payload = encode(
                {"args": list(args), "kwargs": kwargs}, what=f"input of step {label!r}"
            )
            op = StepOp(step_id=new_ulid("step_"), name=name, status="new", attempt=0)
            self.journal._add(slot, op.step_id, op)
            created = NewEvent(
                event_type="step_created",
                correlation_id=op.step_id,
                attrs={"slot": slot, "name": name, "attempt": 1, "format_version": FORMAT_VERSION},
                payload=payload,
            )
        elif not isinstance(op, StepOp) or op.name != name:
            raise self._nondeterminism(slot, op.name, name)
        else:
            created = None
        while True:
            if op.status == "completed":
                self.clock = max(self.clock, op.at)
                if op.live is not None:
                    (value,), op.live = op.live, None
                    return value
                return decode(op.output or b"", what=f"output of step {label!r}")
            if op.status == "failed":
                raise self._failure(op, slot, label)
            if op.status == "retrying" and op.retry_after is not None:
                # The backoff is a durable timer: once nothing else runs, the run parks
                # and the queue's delayed delivery brings it back for the next attempt.
                await self._wait_until(op.retry_after)
            if op.attempt >= policy.max_attempts:
                error = StepInterruptedError(
                    f"attempt {op.attempt} of step {label!r} was interrupted (crash or lost "
                    "lease) and the retry budget is spent"
                )
                await self._fail_step(op, error)
                raise self._failure(op, slot, label) from error
            op.attempt += 1
            op.status = "running"
            start = created or NewEvent(
                event_type="step_started", correlation_id=op.step_id, attrs={"attempt": op.attempt}
            )
            created = None
            await self._attempt(op, slot, label, fn, args, kwargs, policy, start, timeout)

    async def _attempt(
        self,
        op: StepOp,
        slot: int,
        label: str,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        policy: RetryPolicy,
        start: NewEvent,
        timeout: float | None,
    ) -> None:
        """Run one attempt; leaves `op` completed, failed or retrying."""
        self._active_steps += 1
        try:
            info = StepInfo(
                run_id=self.run_id,
                step_id=op.step_id,
                slot=slot,
                name=label,
                attempt=op.attempt,
                idempotency_key=f"{self.run_id}:{slot}",
            )
            step_scope = StepScope(self)
            # A sync body may be started by the store the moment its start is durable
            # (on SQLite's writer thread): one hand-off through the event loop fewer.
            prepared = self.bodies.prepare(fn, args, kwargs, info, step_scope)
            try:
                await self._commit([start], start_body=None if prepared is None else prepared.start)
            finally:
                # Whatever happened, no start from now on; one that happened is tracked,
                # so the run is handed to no one while the body runs on.
                running = None if prepared is None else prepared.withdraw()
            if running is None:
                await self._ensure_lease()
            try:
                result = await self.bodies.execute(
                    fn, args, kwargs, info, timeout, step_scope, running
                )
            except _Suspend:
                raise
            except asyncio.CancelledError as exc:
                task = asyncio.current_task()
                if self.ended or (task is not None and task.cancelling()):
                    raise
                # The step raised it itself (it awaited a task that was cancelled): a
                # failed attempt, not a reason to leave the run hanging.
                await step_scope.discard()
                await self._attempt_failed(op, exc, policy)
                return
            except BaseException as exc:
                # Any failure of the body, Exception or not, ends the attempt in the
                # journal; only the engine's own signals unwind past it.
                await step_scope.discard()
                await self._attempt_failed(op, exc, policy)
                return
            writes = await step_scope.finish()
            if self.ended:
                raise _Suspend
            try:
                output = encode(result, what=f"output of step {label!r} ({type(result).__name__})")
            except SerializationError as exc:
                await self._fail_step(op, exc)
                return
            op.status, op.output, op.at = "completed", output, time.time()
            # The workflow sees a step's decoded output, live and on replay alike; for
            # immutable scalars (a 10 MB string, say) that is the result itself.
            if type(result) in _SAME_AFTER_DECODE and result == result:
                op.live = (result,)
            self._pending_writes.extend(writes)
            self._pending.append(
                NewEvent(
                    event_type="step_completed",
                    correlation_id=op.step_id,
                    attrs={"at": op.at},
                    payload=output,
                )
            )
            self._schedule_flush()
        finally:
            self._active_steps -= 1
            if self._waiters:
                self._schedule_park_check()

    async def _ensure_lease(self) -> None:
        """Return once at least half a lease is surely left; never start a body sooner.

        The commit that starts a step renews the lease, but if its answer took long to
        come back (a stall) the lease may be nearly or wholly gone by now: another
        worker could take the run and run the step alongside this one. A quick renewal
        settles it; a fenced one gives the run up.
        """
        while not self.lease.fresh_enough():
            if self.ended:
                raise _Suspend
            sent = time.monotonic()
            try:
                held = await self.store.renew_lease(
                    self.run_id,
                    owner=self.owner,
                    epoch=self.epoch,
                    lease_seconds=self.lease.seconds or 0.0,
                )
            except StoreUnavailableError:
                if self.lease.expired():
                    self._settle("abandoned")
                    raise _Suspend from None
                await asyncio.sleep(0.05)
                continue
            if not held:
                self._settle("abandoned")
                raise _Suspend
            self.lease.renewed(sent)

    async def run_in_thread(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Await `fn` on the step threads for a running step (`durable.to_thread`)."""
        return await self.bodies.run_in_thread(fn, *args, **kwargs)

    async def checkpoint(self, writes: Sequence[StoreWrite]) -> None:
        """Commit `writes` now, fenced by the lease (a step's `checkpoint`)."""
        if writes:
            await self._commit(writes=writes)

    async def _fail_step(self, op: StepOp, error: BaseException) -> None:
        payload = encode_error(error)
        await self._commit(
            [
                NewEvent(
                    event_type="step_failed",
                    correlation_id=op.step_id,
                    attrs={"at": time.time()},
                    payload=payload,
                )
            ]
        )
        op.status, op.error = "failed", payload

    def _failure(self, op: StepOp, slot: int, label: str) -> StepFailedError:
        # Whatever the step raised reaches the body as StepFailedError: an error whose
        # class cannot be rebuilt here is a RecordedError, never a decoding failure.
        facts = decode_error(op.error, what=f"error of step {label!r}")
        err = StepFailedError(
            self.run_id,
            slot,
            label,
            op.attempt,
            facts.summary,
            error_type=facts.error_type,
            error_message=facts.message,
            error_traceback=facts.traceback,
        )
        err.__cause__ = facts.error
        return err

    async def _attempt_failed(self, op: StepOp, exc: BaseException, policy: RetryPolicy) -> None:
        if isinstance(exc, FatalError) or op.attempt >= policy.max_attempts:
            await self._fail_step(op, exc)
            return
        delay = policy.delay(op.attempt)
        if isinstance(exc, RetryableError) and exc.retry_after is not None:
            delay = exc.retry_after
        retry_at = time.time() + delay
        self._pending.append(
            NewEvent(
                event_type="step_retrying",
                correlation_id=op.step_id,
                attrs={"retry_after": retry_at, "attempt": op.attempt},
                payload=encode_error(exc),
            )
        )
        op.status, op.retry_after = "retrying", retry_at

    async def sleep(self, duration: float | Any) -> None:
        seconds = parse_duration(duration)
        slot = self._next_slot()
        op = self.journal.ops.get(slot)
        if op is not None and not isinstance(op, WaitOp):
            raise self._nondeterminism(slot, op.name, "sleep")
        if op is None:
            op = WaitOp(wait_id=new_ulid("wait_"), resume_at=time.time() + seconds)
            self.journal._add(slot, op.wait_id, op)
            self._pending.append(
                NewEvent(
                    event_type="wait_created",
                    correlation_id=op.wait_id,
                    attrs={"slot": slot, "resume_at": op.resume_at},
                )
            )
        if not op.completed:
            await self._wait_until(op.resume_at)
            op.completed = True
            self._pending.append(NewEvent(event_type="wait_completed", correlation_id=op.wait_id))
            self._schedule_flush()
        self.clock = max(self.clock, op.resume_at)

    def create_hook(self, token: str | None) -> Hook:
        slot = self._next_slot()
        op = self.journal.ops.get(slot)
        if op is not None:
            if not isinstance(op, HookOp):
                raise self._nondeterminism(slot, op.name, "hook")
            return Hook(self, slot, op.token, op.hook_id)
        moved = None if token is None else self.journal.moved.get(token)
        if moved is not None:
            # The predecessor's hook, moved here by continue-as-new: adopted, not made,
            # so what was sent to it since the move is this slot's to receive.
            hook = moved
            self.journal.adopt(slot, hook)
        else:
            hook = HookOp(hook_id=new_ulid("hook_"), token=token or new_token())
            self.journal._add(slot, hook.hook_id, hook)
        self._unconfirmed_hooks.add(hook.hook_id)
        self._pending.append(
            NewEvent(
                event_type="hook_created",
                correlation_id=hook.hook_id,
                attrs={"slot": slot, "token": hook.token},
            )
        )
        return Hook(self, slot, hook.token, hook.hook_id)

    async def hook_payload(self, hook: Hook, index: int) -> Any:
        op = self.journal.ops[hook.slot]
        assert isinstance(op, HookOp)
        if op.hook_id in self._unconfirmed_hooks:
            # Durable before anyone can be told the token.
            await self._commit()
        await self._wait(
            resume_at=None,
            check=lambda: len(op.payloads) > index or op.conflict is not None,
        )
        if op.conflict is not None:
            raise HookTokenInUseError(op.token, op.conflict, retained_until=op.conflict_until)
        op.consumed = max(op.consumed, index + 1)
        return decode(op.payloads[index], what=f"payload of hook {op.token!r}")

    async def hook_beyond(self, hook: Hook, count: int) -> None:
        """Wait until `hook` holds more than `count` payloads (`Hook.wait_beyond`)."""
        op = self.journal.ops[hook.slot]
        assert isinstance(op, HookOp)
        if op.hook_id in self._unconfirmed_hooks:
            await self._commit()
        await self._wait(
            resume_at=None,
            check=lambda: len(op.payloads) > count or op.conflict is not None,
        )
        if op.conflict is not None:
            raise HookTokenInUseError(op.token, op.conflict, retained_until=op.conflict_until)

    def hook_consumed(self, hook: Hook, count: int) -> None:
        """Mark `hook`'s first `count` payloads taken (`Hook.consume_through`)."""
        op = self.journal.ops[hook.slot]
        assert isinstance(op, HookOp)
        op.consumed = max(op.consumed, min(count, len(op.payloads)))

    def hook_received(self, token: str) -> int:
        """How many payloads this activation has seen arrive at its hook `token`."""
        for op in self.journal.ops.values():
            if isinstance(op, HookOp) and op.token == token:
                return len(op.payloads)
        return 0

    async def start_child(
        self,
        workflow: Callable[..., Any] | str,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        run_id: str | None,
        labels: Mapping[str, str] | None = None,
    ) -> ChildRun:
        name = workflow_name_of(workflow)
        slot = self._next_slot()
        op = self.journal.ops.get(slot)
        if op is not None:
            if not isinstance(op, ChildOp) or op.workflow_name != name:
                raise self._nondeterminism(slot, op.name, f"child:{name}")
            if op.refused is not None:
                raise ConflictError(op.refused)
            return ChildRun(self, slot, op.child_run_id)
        self.registry.get(name)
        child_id = run_id or f"{self.run_id}:{slot}"
        arguments = {"args": list(args), "kwargs": kwargs}
        new = NewRun(
            run_id=child_id,
            workflow_name=name,
            input=encode(arguments, what=f"input of child {name!r}"),
            input_digest=digest(arguments),
            deployment=self.run.deployment,
            engine_version=self.run.engine_version,
            queue=self.run.queue,
            parent_run_id=self.run_id,
            parent_slot=slot,
            labels=dict(labels or {}),
        )
        child = ChildOp(child_run_id=child_id, workflow_name=name)
        self.journal._add(slot, child_id, child)
        started = NewEvent(
            event_type="child_started",
            correlation_id=child_id,
            attrs={"slot": slot, "workflow_name": name},
        )
        try:
            await self._commit([started], start_runs=[new], refusals=(ConflictError,))
        except ConflictError as exc:
            # The id names another run. The workflow is told, and the refusal is
            # journaled (ahead of anything it does next) so replay tells it the same.
            child.refused = str(exc)
            self._pending.append(
                NewEvent(
                    event_type="child_refused",
                    correlation_id=child_id,
                    attrs={"slot": slot, "workflow_name": name, "reason": child.refused},
                )
            )
            self._schedule_flush()
            raise ConflictError(child.refused) from None
        return ChildRun(self, slot, child_id)

    async def continue_as_new(
        self,
        workflow: Callable[..., Any] | str | None,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> Any:
        """End the run continued and start its successor, in one commit; never returns."""
        successor = prepare_successor(self, self._next_slot(), workflow, args, kwargs)
        # A cancel requested of this run before the commit lands applies to the chain:
        # the run ends cancelled (by `_obey_cancel`) and no successor starts.
        continued = await self._commit(
            [successor.event],
            end=True,
            continuation=successor.build,
            park_guard=lambda: self.journal.cancel_requested is None,
        )
        if continued:
            self._settle("continued")
        else:
            self._obey_cancel()
            await self._done
        raise _Suspend

    async def child_outcome(self, child: ChildRun) -> tuple[str, bytes | None]:
        op = self.journal.ops[child.slot]
        assert isinstance(op, ChildOp)
        await self._wait(resume_at=None, check=lambda: op.status is not None)
        return str(op.status), op.result
