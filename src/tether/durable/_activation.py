"""The core of one activation: its state and its commits.

`Activation` (`_executor`) adds the operations a workflow body asks for (steps,
sleeps, hooks, children); this module holds what they all stand on, with its waits
and parks (`_parking`). An activation ends by finishing the run, parking it, or
giving it up.

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
import logging
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from .._codec import decode, encode, encode_error
from .._ids import new_ulid
from ..errors import (
    FencedError,
    HookTokenInUseError,
    InvalidInputError,
    InvalidTransitionError,
    NonDeterminismError,
    NotFoundError,
    SerializationError,
    StaleHeadError,
    StoreError,
    StoreUnavailableError,
)
from ..stores import (
    EVENT_KINDS,
    Commit,
    Continuation,
    NewEvent,
    NewMessage,
    NewRun,
    RunLog,
    RunRecord,
    RunStreams,
    StepPermits,
    StoreWrite,
)
from ._bodies import StepBodies
from ._context import WorkflowContext
from ._continue import Handoff
from ._crash_points import commit_landed, commit_sending
from ._journal import HookOp, Journal
from ._lease import Lease
from ._parking import Parking, _Suspend, _Waiter
from ._registry import Registry, WorkflowDef
from ._threads import StepThreads
from ._tracing import count_outage, run_ended

if TYPE_CHECKING:
    from ..stores import EventRecord

__all__ = ["ActivationCore", "StepInterruptedError"]


class ActivationStore(RunLog, RunStreams, StepPermits, Protocol):
    """The roles of a `WorkflowStore` an activation uses.

    Its commits and catch-up reads (`RunLog`), its steps' streams (`RunStreams`) and
    their permits (`StepPermits`); the queue and the worker records are its worker's.
    """


log = logging.getLogger("tether.worker")

FORMAT_VERSION = 1
#: Without a lease to go by (an activation outside a worker), how often a commit is
#: tried while the store is unavailable before the activation gives the run up.
_TRANSIENT_TRIES = 6


#: Types whose values decode back equal to themselves (a NaN does not: it is unequal).
_SAME_AFTER_DECODE = frozenset({str, bytes, int, float, bool, type(None)})


#: Events others append to a run that ran no step of it (see `ActivationCore._fold`).
_OUTSIDE_INPUT = frozenset(k.name for k in EVENT_KINDS.values() if k.wakes)


class StepInterruptedError(Exception):
    """Recorded when a step's last allowed attempt was cut short by a crash or lost lease."""


class ActivationCore(Parking):
    """Drives one run from a claim to its end, park or hand-over (see `Activation`)."""

    def __init__(
        self,
        *,
        store: ActivationStore,
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
        # What this process keeps of the run's writes (`StepInfo.lineage`) starts anew
        # with every activation: its predecessor may have been fenced mid-commit.
        self.lineage = new_ulid("lin_")
        self.clock = self.journal.created_at or run.created_at
        self.outcome: str = "running"
        self._slot = 0
        self._pending: list[NewEvent] = []
        # Other stores' writes of completed steps, committed with `_pending`.
        self._pending_writes: list[StoreWrite] = []
        # Told once the commit carrying `_pending_writes` landed (`after_commit`).
        self._pending_after: list[Callable[[], None]] = []
        self._lock = asyncio.Lock()
        self._active_steps = 0
        self._waiters: list[_Waiter] = []
        self._unconfirmed_hooks: set[str] = set()
        self._task: asyncio.Task[None] | None = None
        loop = asyncio.get_running_loop()
        self._done: asyncio.Future[str] = loop.create_future()
        self._park_check_scheduled = False
        self._flush_scheduled = False
        # Steps whose start waits for their body's reads (see `Activation._attempt`).
        self._starts_held = 0
        self.bodies = StepBodies(run.run_id, threads)
        self._lease_timer: asyncio.TimerHandle | None = None
        self._cancelling = False
        #: Whether a park leaves the body suspended where it waits (the worker keeps
        #: the activation warm, `resume_parked`) instead of unwinding it; then
        #: `on_parked` is told at once, in the step that settles the park.
        self.keep_parked = False
        self.on_parked: Callable[[ActivationCore], None] | None = None
        if lease_seconds is not None:
            self._lease_timer = loop.call_at(time.monotonic() + lease_seconds, self._lease_check)

    # -- lifecycle -----------------------------------------------------------------------
    async def run_to_boundary(self) -> str:
        """Run until the activation ends.

        Returns "completed", "failed", "cancelled", "continued", "parked" or "abandoned".
        """
        if self._task is not None:
            # Resumed warm: the body waits where it parked; what arrived may free it.
            self._obey_cancel()
            self._poke()
            self._schedule_park_check()
            return await self._done
        if self.journal.cancel_requested is not None:
            await self._end_cancelled(self.journal.cancel_requested)
            return self.outcome
        self._task = asyncio.create_task(self._body(), name=f"tether-run:{self.run_id}")
        self._task.add_done_callback(self._body_done)
        return await self._done

    def resume_parked(
        self,
        *,
        run: RunRecord,
        epoch: int,
        events: Sequence[EventRecord],
        message_id: str | None,
        lease_sent: float,
        after: int = 0,
    ) -> bool:
        """Take this parked activation up again under a new claim, without a replay.

        The body is still suspended where it parked, having consumed exactly the log up
        to this activation's head: the park was committed at that head, and the store
        appends only after it (a head check fences every commit). So the body is where a
        replay of that prefix would leave it, and folding in what was appended since (a
        hook payload, a timer's wake-up, a cancel, even another worker's progress) and
        going on is the replay's own continuation. False, and nothing changed, when that
        cannot be shown: the log does not hold this head, or the body is gone.

        Args:
            run: The run as the new claim returned it.
            epoch: The new claim's fencing epoch.
            events: The log as the claim returned it: whole, or after `after`.
            message_id: The message the new claim holds.
            lease_sent: When the write that took the lease was sent (monotonic).
            after: The slot the claim's log starts after (`Claim.after`; 0: whole).
        """
        task = self._task
        if self.outcome != "parked" or task is None or task.done():
            return False
        # The head of the last commit (the journal's own head moves only on a fold).
        head = self.head
        holds_head = after == head if after else any(e.slot == head for e in events)
        if not holds_head or run.head < head:
            return False
        loop = asyncio.get_running_loop()
        self.run = run
        self.epoch = epoch
        self.message_id = message_id
        self.lease = Lease(self.lease.seconds, lease_sent)
        self.outcome = "running"
        self._done = loop.create_future()
        self._cancelling = False
        self.journal.skip_to(head)
        self._fold([e for e in events if e.slot > head])
        self.head = self.journal.head
        if self.lease.seconds is not None:
            self._lease_timer = loop.call_at(lease_sent + self.lease.seconds, self._lease_check)
        if self.journal.cancelled:
            self._settle("cancelled")
        return True

    def _fold(self, events: Sequence[EventRecord]) -> None:
        """Apply events others appended; a new lineage unless all are outside input.

        A payload, a cancel request or a child's end is written by others while the
        run is parked or leased here; anything else (a step, a park, a run's end) was
        written by another activation, whose steps this process did not see run.
        """
        for event in events:
            self.journal.apply(event)
            if event.event_type not in _OUTSIDE_INPUT:
                self.lineage = new_ulid("lin_")

    def discard(self) -> None:
        """Unwind the body of a parked activation kept warm (evicted, worker stopping)."""
        self.keep_parked = False
        task = self._task
        if task is not None and not task.done():
            task.cancel()

    def _context(self) -> WorkflowContext:
        """The context the workflow body gets (`Activation` builds it over itself)."""
        raise NotImplementedError

    async def _body(self) -> None:
        ctx = self._context()
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
        settles = self.outcome == "running"
        if settles:
            self.outcome = outcome
        if self._lease_timer is not None:
            self._lease_timer.cancel()
            self._lease_timer = None
        if not self._done.done():
            self._done.set_result(self.outcome)
        if self.outcome == "parked" and self.keep_parked:
            # The body stays suspended where it waits (`resume_parked`). Kept warm now,
            # not once the caller hears of the park: a wake-up claimed in between (the
            # park is already visible) finds it.
            if settles and self.on_parked is not None:
                self.on_parked(self)
            return
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
        if self.outcome == "parked" and self.keep_parked:
            return  # a body kept warm waits where it parked: it runs nothing
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
        run_ended(self.run, self.workflow.name, status, None if status == "completed" else value)

    async def _end_cancelled(self, reason: str) -> None:
        try:
            event = NewEvent(event_type="run_cancelled", attrs={"reason": reason})
            await self._commit([event], end=True, keep_pending=False)
        except _Suspend:
            return
        self._settle("cancelled")
        run_ended(self.run, self.workflow.name, "cancelled")

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
            after = self._pending_after if keep_pending else []
            self._pending = []
            self._pending_writes = []
            self._pending_after = []
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
                        self._pending_after = after + self._pending_after
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
                    commit_sending()  # the crash kit's boundary (nothing unless asked for)
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
                    count_outage("store")
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
                        self._pending_after = after + self._pending_after
                        raise
                    # A refusal (a value the store cannot hold, a rule the commit broke):
                    # the run fails with it, nothing of the refused commit written.
                    refused = exc
                    log.error("run %s: the store refused a commit: %s", self.run_id, exc)
                    batch = [NewEvent(event_type="run_failed", payload=encode_error(exc))]
                    start_runs, enqueue, end, park_guard = (), (), True, None
                    store_writes, after = [], []
                    continuation = start_body = None
                    continue
                self.head = result.head
                if not end:
                    self.lease.renewed(sent)
                commit_landed()  # the crash kit's boundary (nothing unless asked for)
                break
            for event in batch:
                if event.event_type == "hook_created":
                    self._unconfirmed_hooks.discard(str(event.correlation_id))
            if refused is not None:
                self._settle("failed")
                raise _Suspend
            for landed in after:
                try:
                    landed()
                except Exception:  # a bystander's bug must not undo a landed commit
                    log.exception("run %s: an after_commit callback failed", self.run_id)
            return True

    def _when_durable(self, start_body: Callable[[], bool], sent: float) -> Callable[[], None]:
        """What the store calls once a step's start is durable (on its writer thread).

        It starts the body there and then only if `ensure_lease` would let it start
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
        self._fold(found)
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

    # -- operations -------------------------------------------------------------------------
    def _next_slot(self) -> int:
        if self.ended:
            raise _Suspend
        self._slot += 1
        return self._slot

    def _nondeterminism(self, slot: int, recorded: str, requested: str) -> NonDeterminismError:
        return NonDeterminismError(self.run_id, slot, recorded, requested)
