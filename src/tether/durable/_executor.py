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
import contextvars
import inspect
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from .._codec import decode, encode
from .._ids import new_token, new_ulid
from .._version import step_name_tag
from ..errors import (
    FatalError,
    FencedError,
    HookTokenInUseError,
    InvalidTransitionError,
    NonDeterminismError,
    NotFoundError,
    RetryableError,
    SerializationError,
    StaleHeadError,
    StepFailedError,
    StoreError,
)
from ..stores import Commit, NewEvent, NewMessage, NewRun, RunRecord, StoreWrite, WorkflowStore
from ._context import ChildRun, Hook, StepInfo, WorkflowContext, reset_step_info, set_step_info
from ._journal import ChildOp, HookOp, Journal, StepOp, WaitOp
from ._registry import Registry, WorkflowDef, workflow_name_of
from ._retry import RetryPolicy, parse_duration
from ._step_scope import StepScope, bind_scope, unbind_scope

if TYPE_CHECKING:
    from ..stores import EventRecord

__all__ = ["Activation"]

FORMAT_VERSION = 1
_TRANSIENT_TRIES = 6
T = TypeVar("T")


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
        threads: Executor | None,
        lease_seconds: float | None = None,
    ) -> None:
        self.store = store
        self.registry = registry
        self.workflow = workflow
        self.run = run
        self.run_id = run.run_id
        self.epoch = epoch
        self.owner = owner
        self.message_id = message_id
        self.threads = threads
        self.lease_seconds = lease_seconds
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
        self._hook_errors: dict[str, HookTokenInUseError] = {}
        self._unconfirmed_hooks: set[str] = set()
        self._task: asyncio.Task[None] | None = None
        self._done: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._park_check_scheduled = False
        self._flush_scheduled = False
        self._executing: set[asyncio.Future[Any]] = set()

    # -- lifecycle -----------------------------------------------------------------------
    async def run_to_boundary(self) -> str:
        """Run until the activation ends.

        Returns "completed", "failed", "cancelled", "parked" or "abandoned".
        """
        if self.journal.cancel_requested is not None:
            await self._end_cancelled(self.journal.cancel_requested)
            return self.outcome
        self._task = asyncio.create_task(self._body(), name=f"tether-run:{self.run_id}")
        return await self._done

    async def _body(self) -> None:
        ctx = WorkflowContext(self)
        try:
            inputs = decode(self.run.input or b"", what=f"input of run {self.run_id!r}")
            value = await self.workflow.fn(ctx, *inputs.get("args", ()), **inputs.get("kwargs", {}))
        except (_Suspend, asyncio.CancelledError):
            return
        except Exception as exc:
            await self._end_with("failed", exc)
            return
        await self._end_with("completed", value)

    def _settle(self, outcome: str) -> None:
        if self.outcome == "running":
            self.outcome = outcome
        if not self._done.done():
            self._done.set_result(self.outcome)
        task = self._task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()

    @property
    def ended(self) -> bool:
        """Whether the activation is over."""
        return self.outcome != "running"

    async def quiesce(self) -> None:
        """Wait until no step body of this activation is still running.

        Step bodies in threads run to their end; the body task (async steps) unwinds
        from its cancellation.
        """
        while self._executing:
            await asyncio.wait(set(self._executing))
        task = self._task
        if task is not None and not task.done() and task is not asyncio.current_task():
            await asyncio.wait({task})

    def abandon(self) -> None:
        """Give the run up without writing (lease lost, worker stopping)."""
        self._settle("abandoned")

    async def _end_with(self, status: str, value: Any) -> None:
        try:
            if status == "completed":
                try:
                    payload = encode(value, what=f"output of workflow {self.workflow.name!r}")
                except SerializationError as exc:
                    status, payload = "failed", encode(exc)
            else:
                payload = encode(value, what="error")
            event = (
                NewEvent(event_type="run_completed", payload=payload)
                if status == "completed"
                else NewEvent(event_type="run_failed", payload=payload)
            )
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
        writes: Sequence[StoreWrite] = (),
    ) -> bool:
        """Commit pending writes plus `events`; False when `park_guard` vetoed a park."""
        async with self._lock:
            if self.ended:
                raise _Suspend
            batch = (self._pending if keep_pending else []) + list(events)
            store_writes = (self._pending_writes if keep_pending else []) + list(writes)
            self._pending = []
            self._pending_writes = []
            tries = 0
            stale = False
            while True:
                try:
                    if stale:
                        # Another writer appended (a hook payload, a child's end, a cancel):
                        # fold it in, then commit again at the new head.
                        await self._merge()
                        stale = False
                    # A park is decided under the lock, on the latest journal: a commit that
                    # held the lock before this one may have folded in what the body waits
                    # for, and parking then would leave the run asleep with its answer.
                    if park_guard is not None and not park_guard():
                        self._pending = batch + self._pending
                        self._pending_writes = store_writes + self._pending_writes
                        return False
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
                        # Each commit renews the lease. A commit that went through
                        # after an outage long enough for the lease to lapse (nobody
                        # took the run meanwhile: the epoch held) must not leave it
                        # lapsed: the step it starts would run while another worker,
                        # or this one, claims the run and runs the step again.
                        lease_seconds=None if end else self.lease_seconds,
                        writes=tuple(store_writes),
                    )
                    result = await self.store.commit(commit)
                except StaleHeadError:
                    stale = True
                    continue
                except HookTokenInUseError as exc:
                    batch = self._drop_hook(batch, exc)
                    continue
                except (FencedError, InvalidTransitionError, NotFoundError):
                    self._settle("abandoned")
                    raise _Suspend from None
                except StoreError:
                    # Transient (the database restarted, a lock timed out): the same
                    # commit, or the same merge, is tried again.
                    tries += 1
                    if tries >= _TRANSIENT_TRIES:
                        self._settle("abandoned")
                        raise _Suspend from None
                    await asyncio.sleep(0.05 * 2**tries)
                    continue
                self.head = result.head
                for event in batch:
                    if event.event_type == "hook_created":
                        self._unconfirmed_hooks.discard(str(event.correlation_id))
                if self.journal.cancel_requested is not None and not end:
                    asyncio.get_running_loop().create_task(
                        self._end_cancelled(self.journal.cancel_requested)
                    )
                return True

    def _drop_hook(self, batch: list[NewEvent], exc: HookTokenInUseError) -> list[NewEvent]:
        kept = []
        for event in batch:
            if event.event_type == "hook_created" and event.attrs.get("token") == exc.token:
                hook_id = str(event.correlation_id)
                self._hook_errors[hook_id] = exc
                self._unconfirmed_hooks.discard(hook_id)
                continue
            kept.append(event)
        self._poke()
        return kept

    async def _merge(self) -> None:
        """Fold events others appended and wake the waiters they satisfy.

        Others append hook payloads, child results and cancel requests.
        """
        for event in await self.store.list_events(self.run_id, after=self.head):
            self.journal.apply(event)
        self.head = self.journal.head
        if self.journal.cancelled:
            self._settle("cancelled")
            raise _Suspend
        self._poke()

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
        for _ in range(3):
            await asyncio.sleep(0)
        self._park_check_scheduled = False
        # A thread still running a step's call keeps the run here: parking would let
        # another worker start the call again alongside it.
        if self.ended or self._active_steps or self._executing or not self._waiters:
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
                and not self._executing
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
            await self._attempt(op, slot, label, fn, args, kwargs, policy, start)

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
    ) -> None:
        """Run one attempt; leaves `op` completed, failed or retrying."""
        self._active_steps += 1
        try:
            await self._commit([start])
            info = StepInfo(
                run_id=self.run_id,
                step_id=op.step_id,
                slot=slot,
                name=label,
                attempt=op.attempt,
                idempotency_key=f"{self.run_id}:{slot}",
            )
            scope = StepScope(self)
            try:
                result = await self._execute(fn, args, kwargs, info, scope)
            except Exception as exc:
                await scope.discard()
                await self._attempt_failed(op, exc, policy)
                return
            writes = await scope.finish()
            if self.ended:
                raise _Suspend
            try:
                output = encode(result, what=f"output of step {label!r} ({type(result).__name__})")
            except SerializationError as exc:
                await self._fail_step(op, exc)
                return
            op.status, op.output, op.at = "completed", output, time.time()
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

    async def _execute(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        info: StepInfo,
        scope: StepScope,
    ) -> Any:
        token = set_step_info(info)
        bound = bind_scope(scope)
        try:
            if inspect.iscoroutinefunction(fn):
                return await fn(*args, **kwargs)
            result = await self.run_in_thread(fn, *args, **kwargs)
            if inspect.isawaitable(result):
                return await result
            return result
        finally:
            unbind_scope(bound)
            reset_step_info(token)

    async def run_in_thread(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run `fn` on the step threads, tracked until it returns (see `to_thread`)."""
        ctx = contextvars.copy_context()
        loop = asyncio.get_running_loop()
        running = loop.run_in_executor(self.threads, lambda: ctx.run(fn, *args, **kwargs))
        # Shielded: an abandoned activation cannot stop a thread, so it keeps track of
        # it until the body returns (see `quiesce`); nor does it park while one runs.
        self._executing.add(running)
        running.add_done_callback(self._thread_done)
        return await asyncio.shield(running)

    def _thread_done(self, running: asyncio.Future[Any]) -> None:
        self._executing.discard(running)
        if self._waiters:
            self._schedule_park_check()

    async def checkpoint(self, writes: Sequence[StoreWrite]) -> None:
        """Commit `writes` now, fenced by the lease (a step's `checkpoint`)."""
        if writes:
            await self._commit(writes=writes)

    async def _fail_step(self, op: StepOp, error: BaseException) -> None:
        payload = encode(error, what="error")
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
        cause = decode(op.error) if op.error else None
        err = StepFailedError(self.run_id, slot, label, op.attempt, str(cause))
        if isinstance(cause, BaseException):
            err.__cause__ = cause
        return err

    async def _attempt_failed(self, op: StepOp, exc: Exception, policy: RetryPolicy) -> None:
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
                payload=encode(exc),
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
        error = self._hook_errors.get(op.hook_id)
        if error is not None:
            raise error
        await self._wait(
            resume_at=None,
            check=lambda: len(op.payloads) > index or op.hook_id in self._hook_errors,
        )
        error = self._hook_errors.get(op.hook_id)
        if error is not None:
            raise error
        return decode(op.payloads[index], what=f"payload of hook {op.token!r}")

    async def start_child(
        self,
        workflow: Callable[..., Any] | str,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        run_id: str | None,
    ) -> ChildRun:
        name = workflow_name_of(workflow)
        slot = self._next_slot()
        op = self.journal.ops.get(slot)
        if op is not None:
            if not isinstance(op, ChildOp) or op.workflow_name != name:
                raise self._nondeterminism(slot, op.name, f"child:{name}")
            return ChildRun(self, slot, op.child_run_id)
        self.registry.get(name)
        child_id = run_id or f"{self.run_id}:{slot}"
        new = NewRun(
            run_id=child_id,
            workflow_name=name,
            input=encode({"args": list(args), "kwargs": kwargs}, what=f"input of child {name!r}"),
            deployment=self.run.deployment,
            engine_version=self.run.engine_version,
            queue=self.run.queue,
            parent_run_id=self.run_id,
            parent_slot=slot,
        )
        child = ChildOp(child_run_id=child_id, workflow_name=name)
        self.journal._add(slot, child_id, child)
        await self._commit(
            [
                NewEvent(
                    event_type="child_started",
                    correlation_id=child_id,
                    attrs={"slot": slot, "workflow_name": name},
                )
            ],
            start_runs=[new],
        )
        return ChildRun(self, slot, child_id)

    async def child_outcome(self, child: ChildRun) -> tuple[str, bytes | None]:
        op = self.journal.ops[child.slot]
        assert isinstance(op, ChildOp)
        await self._wait(resume_at=None, check=lambda: op.status is not None)
        return str(op.status), op.result
