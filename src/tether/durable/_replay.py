"""Dry replay: drive a workflow body against a run's recorded journal, writing nothing.

Before a deploy, the question is whether the new code would take over the runs in
flight: every parked, idle or interrupted run replays its journal from the top when it
is next activated, and new code that asks for another operation at a recorded slot
fails it with `NonDeterminismError`. A dry replay asks that question without the
deploy: it runs the new body against the journal exactly as an activation would, and
stops at the first thing not on record — a new operation (the code is compatible up to
there), a park (the run waits, as recorded), a step that would run again (it was
interrupted), or the body's end. It executes no step and commits nothing: the store is
only read.

It reuses `Activation` itself, so what it checks is what the worker would do: the same
slot order, the same comparisons, the same decoded outputs handed back to the body.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from .._aio import within
from ..errors import NonDeterminismError, NotFoundError, UnknownWorkflowError
from ..stores import Backend, EventRecord, RunRecord, RunStatus, StoreWrite
from ._ambient import bind_backend, unbind_backend
from ._continue import Handoff
from ._executor import Activation, _Suspend
from ._registry import Registry
from ._threads import StepThreads

__all__ = [
    "REPLAY_OUTCOMES",
    "ReplayOutcome",
    "ReplayReport",
    "check_runs",
    "replay_run",
]

ReplayOutcome = Literal[
    "compatible", "nondeterministic", "unknown_workflow", "error", "timeout", "cancelling"
]
REPLAY_OUTCOMES: tuple[str, ...] = get_args(ReplayOutcome)

#: Statuses of runs a worker may still activate (and so replay).
UNFINISHED: tuple[RunStatus, ...] = ("pending", "running")

_TAG_PREFIX = "step//tether@"


def _untagged(name: str) -> str:
    """``charge`` for ``step//tether@0.1.0//charge``; other names unchanged."""
    if name.startswith(_TAG_PREFIX):
        _, _, rest = name[len(_TAG_PREFIX) :].partition("//")
        return rest
    return name


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplayReport:
    """What a dry replay of one run against some code found.

    Attributes:
        run_id: The run.
        workflow_name: Its workflow.
        deployment: The deployment that built it.
        status: Its status in the store (``pending`` or ``running``).
        outcome: ``compatible`` (the code replays every operation it reaches as
            recorded), ``nondeterministic`` (it asks for another operation at a
            recorded slot: `slot`, `expected`, `found`), ``unknown_workflow`` (the code
            has no workflow of that name), ``error`` (the body raised something else
            while replaying, e.g. it no longer takes the run's arguments), ``timeout``
            (the body blocked on something that is not a durable operation) or
            ``cancelling`` (a cancel is requested: the run ends without replaying).
        recorded: How many operations (steps, sleeps, hooks, child runs) the journal holds.
        replayed: How many of them the code asked for again, as recorded.
        stopped_at: Where the replay stopped, for people: ``parked``, ``new step
            'charge' at slot 4``, ``step 'charge' would run again (attempt 2)``,
            ``completed``, ...
        slot: For ``nondeterministic``: the slot of the divergence.
        expected: For ``nondeterministic``: the recorded operation (step names
            without their version tag).
        found: For ``nondeterministic``: what the code asked for instead.
        error: For ``nondeterministic``, ``unknown_workflow`` and ``error``: the message.
    """

    run_id: str
    workflow_name: str
    deployment: str
    status: RunStatus
    outcome: ReplayOutcome
    recorded: int
    replayed: int
    stopped_at: str
    slot: int | None = None
    expected: str | None = None
    found: str | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        """Whether the code would take the run over without failing it."""
        return self.outcome in ("compatible", "cancelling")

    @property
    def unreached(self) -> int:
        """Recorded operations the code did not ask for again.

        It ended, or went another way, before them: not a failure, but the run will not
        do what it recorded.
        """
        return max(0, self.recorded - self.replayed) if self.outcome == "compatible" else 0


class _DryActivation(Activation):
    """An activation whose store writes go nowhere and whose frontier ends it.

    Every way a real activation moves past its journal goes through one of the
    overrides: a new slot (`_next_slot`), a step attempt (`_attempt`), or a commit (a
    park, the run's end, the completion of a recorded timer). So nothing new runs and
    nothing is written, whatever the body does.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.asking = "an operation"
        self.stopped_at = ""
        self.divergence: NonDeterminismError | None = None
        self.replayed = 0
        self.error: BaseException | None = None

    def _stop(self, where: str) -> None:
        if not self.stopped_at:
            self.stopped_at = where
        self._settle("replayed")

    def _next_slot(self) -> int:
        slot = super()._next_slot()
        if slot not in self.journal.ops:
            self._stop(f"new {self.asking} at slot {slot}")
            raise _Suspend
        self.replayed = max(self.replayed, slot)
        return slot

    def _nondeterminism(self, slot: int, recorded: str, requested: str) -> NonDeterminismError:
        error = super()._nondeterminism(slot, _untagged(recorded), _untagged(requested))
        if self.divergence is None:
            self.divergence = error
        return error

    async def run_step(self, label: str, *args: Any, **kwargs: Any) -> Any:
        self.asking = f"step {label!r}"
        return await super().run_step(label, *args, **kwargs)

    async def sleep(self, duration: Any) -> None:
        self.asking = "sleep"
        await super().sleep(duration)

    def create_hook(self, token: str | None) -> Any:
        self.asking = "hook"
        return super().create_hook(token)

    async def start_child(self, workflow: Any, *args: Any, **kwargs: Any) -> Any:
        self.asking = f"child run of {workflow if isinstance(workflow, str) else 'a workflow'}"
        return await super().start_child(workflow, *args, **kwargs)

    async def continue_as_new(self, *args: Any, **kwargs: Any) -> Any:
        self.asking = "continue_as_new"
        return await super().continue_as_new(*args, **kwargs)

    async def _attempt(self, op: Any, slot: int, label: str, *args: Any, **kwargs: Any) -> None:
        # A recorded step that is not done (interrupted, or due for a retry) would run
        # again here: compatible so far, and the end of what can be checked dry.
        self._stop(f"step {label!r} would run again (attempt {op.attempt})")
        raise _Suspend

    async def _commit(
        self,
        events: Sequence[Any] = (),
        *,
        end: bool = False,
        park_guard: Callable[[], bool] | None = None,
        **_: Any,
    ) -> bool:
        if self.ended:
            raise _Suspend
        self._pending.clear()
        self._pending_writes.clear()
        self._pending_after.clear()
        if park_guard is not None and not park_guard():
            return False
        if end and park_guard is not None:
            self.stopped_at = self.stopped_at or "parked"
        return True

    async def _end_with(self, status: str, value: Any) -> None:
        if status == "failed":
            self.error = value
        self.stopped_at = self.stopped_at or status
        await super()._end_with(status, value)

    async def checkpoint(self, writes: Sequence[StoreWrite]) -> None:
        return None


async def replay_run(
    backend: Backend,
    registry: Registry,
    run: str | RunRecord,
    *,
    timeout: float = 10.0,
) -> ReplayReport:
    """Replay one run's journal against `registry`'s code without running or writing.

    Args:
        backend: The store that holds the run (only read).
        registry: The code to check: the workflows of the deployment about to start.
        run: The run (its id or its record).
        timeout: How long the body may take to reach its frontier; a body blocked on
            something other than a durable operation is reported as ``timeout``.

    Returns:
        The `ReplayReport`; its ``ok`` says whether the code would take the run over.

    Raises:
        NotFoundError: No run has that id.
    """
    store = backend.stores.workflow
    record = run if isinstance(run, RunRecord) else await store.get_run(run)
    if record is None:
        raise NotFoundError(f"run {run!r} does not exist")
    events = await store.list_events(record.run_id)

    def report(outcome: ReplayOutcome, **facts: Any) -> ReplayReport:
        fields: dict[str, Any] = {
            "run_id": record.run_id,
            "workflow_name": record.workflow_name,
            "deployment": record.deployment,
            "status": record.status,
            "outcome": outcome,
            "recorded": 0,
            "replayed": 0,
            "stopped_at": "",
        }
        fields.update(facts)
        return ReplayReport(**fields)

    try:
        workflow = registry.get(record.workflow_name)
    except UnknownWorkflowError as exc:
        return report("unknown_workflow", error=str(exc), stopped_at="before its first operation")
    threads = StepThreads("tether-replay")
    # A body declared without a backend finds this one, as under a worker.
    bound = bind_backend(backend)
    try:
        return await _drive(backend, registry, workflow, record, events, threads, timeout, report)
    finally:
        unbind_backend(bound)
        threads.shutdown()


async def _drive(
    backend: Backend,
    registry: Registry,
    workflow: Any,
    record: RunRecord,
    events: Sequence[EventRecord],
    threads: StepThreads,
    timeout: float,
    report: Callable[..., ReplayReport],
) -> ReplayReport:
    activation = _DryActivation(
        store=backend.stores.workflow,
        registry=registry,
        workflow=workflow,
        run=record,
        epoch=0,
        events=events,
        message_id=None,
        owner="tether-dry-replay",
        threads=threads,
        handoff=Handoff(backend),
    )
    recorded = len(activation.journal.ops)
    if activation.journal.cancel_requested is not None:
        return report("cancelling", recorded=recorded, stopped_at="cancel requested")
    try:
        outcome = await within(activation.run_to_boundary(), timeout)
    except TimeoutError:
        activation.abandon()
        outcome = "timeout"
    # The body task unwinds from its cancellation; a body that swallows it is left.
    with contextlib.suppress(TimeoutError):
        await within(activation.quiesce(), 1.0)
    facts: dict[str, Any] = {
        "recorded": recorded,
        "replayed": activation.replayed,
        "stopped_at": activation.stopped_at or outcome,
    }
    divergence = activation.divergence
    if divergence is not None:
        return report(
            "nondeterministic",
            slot=divergence.slot,
            expected=divergence.recorded,
            found=divergence.requested,
            error=str(divergence),
            **facts,
        )
    if outcome == "timeout":
        facts["stopped_at"] = (
            f"blocked for {timeout:g}s on something other than a durable operation"
        )
        return report("timeout", **facts)
    if activation.error is not None:
        error = activation.error
        return report("error", error=f"{type(error).__name__}: {error}", **facts)
    return report("compatible", **facts)


async def check_runs(
    backend: Backend,
    registry: Registry,
    *,
    deployments: Collection[str] | None = None,
    timeout: float = 10.0,
    on_progress: Callable[[int, int], None] | None = None,
) -> list[ReplayReport]:
    """Dry-replay every unfinished run of the store against `registry`'s code.

    The runs a new deployment's workers would activate (parked, idle, interrupted or
    not yet started) are replayed as `replay_run` does; nothing runs, nothing is
    written. Use it before a deploy (``tether check-deploy``): any report that is not
    ``ok`` is a run the new code would fail.

    Args:
        backend: The store (only read).
        registry: The new code.
        deployments: Replay only runs built by these deployments (default: every
            unfinished run, whatever built it).
        timeout: Per run, as in `replay_run`.
        on_progress: Called with (runs replayed, runs to replay) after each run
            (``tether check-deploy`` draws it).

    Returns:
        One report per unfinished run, oldest first.
    """
    store = backend.stores.workflow
    runs: list[RunRecord] = []
    for status in UNFINISHED:
        cursor: str | None = None
        while True:
            page = await store.list_runs(status=status, limit=500, cursor=cursor)
            runs.extend(r for r in page.items if deployments is None or r.deployment in deployments)
            cursor = page.next_cursor
            if cursor is None:
                break
    runs.sort(key=lambda r: (r.created_at, r.run_id))
    reports: list[ReplayReport] = []
    for run in runs:
        reports.append(await replay_run(backend, registry, run, timeout=timeout))
        if on_progress is not None:
            on_progress(len(reports), len(runs))
    return reports
