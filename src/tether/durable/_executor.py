"""One activation of a run: replay, run what is new, commit each boundary.

The operations a workflow body asks for, each journaled at its slot: steps (with their
attempts, retries and timeouts), durable sleeps, hooks, child runs and continue-as-new.
They stand on `ActivationCore` (`_activation`): its commits, waits and parks.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .._codec import decode, decode_error, digest, encode, encode_error
from .._ids import new_token, new_ulid
from .._otel import summary
from .._version import step_name_tag
from ..errors import (
    ConflictError,
    ContinueAsNewError,
    FatalError,
    HookTokenInUseError,
    RetryableError,
    SerializationError,
    StepFailedError,
)
from ..stores import (
    AppendStream,
    NewEvent,
    NewRun,
    StoreWrite,
)
from ._activation import (
    _SAME_AFTER_DECODE,
    FORMAT_VERSION,
    ActivationCore,
    StepInterruptedError,
)
from ._context import ChildRun, Hook, StepInfo, WorkflowContext
from ._continue import Successor, plan_successor
from ._fresh_lease import ensure_lease
from ._journal import ChildOp, ContinueOp, HookOp, StepOp, WaitOp
from ._parking import _Suspend
from ._registry import workflow_name_of
from ._retry import RetryPolicy, parse_duration
from ._step_limits import noted, permit_for, wait_attrs
from ._step_scope import StepScope
from ._tracing import (
    AttemptTrace,
    begin_attempt,
    child_labels,
    end_attempt,
    leave_attempt,
    run_ended,
)

if TYPE_CHECKING:
    from ..stores import FlowLimit
    from ..stores._records import Attr

__all__ = ["Activation", "_Suspend"]

T = TypeVar("T")


class Activation(ActivationCore):
    """Drives one run from a claim to its end, park or hand-over."""

    def _context(self) -> WorkflowContext:
        return WorkflowContext(self)

    async def run_step(
        self,
        label: str,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        policy: RetryPolicy,
        timeout: float | None = None,
        read_ahead: bool = False,
        limit: FlowLimit | None = None,
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
            # Found running in the journal: the attempt before this one was cut short.
            interrupted = op.started if op.status == "running" else None
            # The permit comes first: an attempt that waits for one has not started.
            async with permit_for(self, limit) as held:
                op.attempt += 1
                op.status = "running"
                start = noted(held, created) or NewEvent(
                    event_type="step_started",
                    correlation_id=op.step_id,
                    attrs={"attempt": op.attempt, **wait_attrs(held)},
                )
                created = None
                await self._attempt(
                    op,
                    slot,
                    label,
                    fn,
                    args,
                    kwargs,
                    policy,
                    start,
                    timeout,
                    read_ahead,
                    interrupted,
                )

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
        read_ahead: bool = False,
        interrupted: float | None = None,
    ) -> None:
        """Run one attempt; leaves `op` completed, failed or retrying."""
        self._active_steps += 1
        trace = None
        try:
            # None unless tracing or metrics are on; its span is emitted once the
            # attempt's outcome is committed.
            trace = begin_attempt(
                self.run, self.workflow.name, slot, op.attempt, label, interrupted
            )
            info = StepInfo(
                run_id=self.run_id,
                step_id=op.step_id,
                slot=slot,
                name=label,
                attempt=op.attempt,
                idempotency_key=f"{self.run_id}:{slot}",
                lineage=self.lineage,
            )
            step_scope = StepScope(self)
            # A sync body may be started by the store the moment its start is durable
            # (on SQLite's writer thread): one hand-off through the event loop fewer.
            prepared = self.bodies.prepare(fn, args, kwargs, info, step_scope)
            ahead = asked = body = None
            early: list[StoreWrite] = []
            if (
                read_ahead
                and prepared is None
                and all(
                    isinstance(w, AppendStream) and w.run_id == self.run_id
                    for w in self._pending_writes
                )
                and not self._lock.locked()
            ):
                # The body reads before its start is committed; it does anything else
                # only once `step_started()` (and the scope's writes) see the start.
                # Not when a commit to come, or one under way, carries the store writes
                # of the step before (the body would read without them), except appends
                # to the run's own streams, which a body never reads ahead: they ride
                # with the start, and the step's first events with them.
                ahead, asked = step_scope.hold_start()
                self._starts_held += 1
                body = asyncio.ensure_future(
                    self.bodies.execute(fn, args, kwargs, info, timeout, step_scope)
                )
            try:
                if asked is not None and body is not None:
                    # The start waits for the body to ask for it (its reads done) or to
                    # end; what it buffered on its streams by then lands with the start:
                    # its first events cost no write of their own. Meanwhile the flush
                    # of the step before waits too (`_starts_held`): the start carries it.
                    try:
                        await asyncio.wait((asked, body), return_when=asyncio.FIRST_COMPLETED)
                    finally:
                        self._starts_held -= 1
                    early = await step_scope.take_buffered()
                try:
                    await self._commit(
                        [start],
                        writes=early,
                        start_body=None if prepared is None else prepared.start,
                    )
                finally:
                    # Whatever happened, no start from now on; one that happened is
                    # tracked, so the run is handed to no one while the body runs on.
                    running = None if prepared is None else prepared.withdraw()
                if running is None:
                    await ensure_lease(self)
            except BaseException:
                if ahead is not None and body is not None:
                    ahead.cancel()
                    await _stop(body)
                raise
            try:
                if ahead is not None and body is not None:
                    ahead.set_result(None)
                    try:
                        result = await body
                    except asyncio.CancelledError:
                        if not body.done():  # the run is being stopped: the body too
                            await _stop(body)
                        raise
                else:
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
                await self._attempt_failed(op, exc, policy, trace)
                return
            except BaseException as exc:
                # Any failure of the body, Exception or not, ends the attempt in the
                # journal; only the engine's own signals unwind past it.
                await step_scope.discard()
                await self._attempt_failed(op, exc, policy, trace)
                return
            writes = await step_scope.finish()
            if self.ended:
                raise _Suspend
            try:
                output = encode(result, what=f"output of step {label!r} ({type(result).__name__})")
            except SerializationError as exc:
                await self._fail_step(op, exc)
                if trace is not None:
                    end_attempt(trace, "failed", ended=time.time(), error=summary(exc))
                return
            op.status, op.output, op.at = "completed", output, time.time()
            if trace is not None:
                ended = op.at
                self._pending_after.append(
                    lambda: end_attempt(trace, "completed", ended=ended)  # once it landed
                )
            # The workflow sees a step's decoded output, live and on replay alike; for
            # immutable scalars (a 10 MB string, say) that is the result itself.
            if type(result) in _SAME_AFTER_DECODE and result == result:
                op.live = (result,)
            self._pending_writes.extend(writes)
            self._pending_after.extend(step_scope.after)
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
            if trace is not None:
                leave_attempt(trace)
            self._active_steps -= 1
            if self._waiters:
                self._schedule_park_check()

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

    async def _attempt_failed(
        self, op: StepOp, exc: BaseException, policy: RetryPolicy, trace: AttemptTrace | None
    ) -> None:
        ended = time.time()
        error = None if trace is None else summary(exc)
        if isinstance(exc, FatalError) or op.attempt >= policy.max_attempts:
            await self._fail_step(op, exc)
            if trace is not None:
                end_attempt(trace, "failed", ended=ended, error=error)
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
        if trace is not None:
            self._pending_after.append(
                lambda: end_attempt(trace, "retrying", ended=ended, error=error)
            )

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
            labels={**child_labels(self.run), **(labels or {})},
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

    def _successor(
        self,
        slot: int,
        workflow: Callable[..., Any] | str | None,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> Successor:
        """What `ctx.continue_as_new` at `slot` commits, or its refusal, journaled.

        A refusal recorded at the slot is raised again on replay. A new refusal because
        a child or a step is still running depends on timing, so it is journaled (ahead
        of anything the body does next) for replay to repeat it.
        """
        op = self.journal.ops.get(slot)
        if op is not None:
            if not isinstance(op, ContinueOp):
                raise self._nondeterminism(slot, op.name, "continue_as_new")
            raise ContinueAsNewError(self.run_id, op.refused)
        self.handoff.require(self.run_id)
        try:
            return plan_successor(
                run=self.run,
                journal=self.journal,
                registry=self.registry,
                current_workflow=self.workflow.name,
                workflow=workflow,
                args=args,
                kwargs=kwargs,
                active_steps=self._active_steps,
            )
        except ContinueAsNewError as exc:
            corr = f"continue:{slot}"
            self.journal._add(slot, corr, ContinueOp(refused=exc.reason))
            attrs: dict[str, Attr] = {"slot": slot, "reason": exc.reason}
            self._pending.append(
                NewEvent(event_type="continue_refused", correlation_id=corr, attrs=attrs)
            )
            self._schedule_flush()
            raise

    async def continue_as_new(
        self,
        workflow: Callable[..., Any] | str | None,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> Any:
        """End the run continued and start its successor, in one commit; never returns."""
        successor = self._successor(self._next_slot(), workflow, args, kwargs)
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
            run_ended(self.run, self.workflow.name, "continued")
        else:
            self._obey_cancel()
            await self._done
        raise _Suspend

    async def child_outcome(self, child: ChildRun) -> tuple[str, bytes | None]:
        op = self.journal.ops[child.slot]
        assert isinstance(op, ChildOp)
        await self._wait(resume_at=None, check=lambda: op.status is not None)
        return str(op.status), op.result


async def _stop(body: asyncio.Future[Any]) -> None:
    """Cancel a body that read ahead of its start and wait until it has unwound."""
    body.cancel()
    await asyncio.wait({body})
    if not body.cancelled():
        body.exception()  # its outcome is dropped (and so not reported as lost)
