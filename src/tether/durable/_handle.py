"""A handle to a run (`RunHandle`), with the views of a run it returns (`RunInfo`, `StepView`).

Also the look-up of whether live workers serve a run's versions, which `Client` shares.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from .._codec import decode, decode_error, describe
from .._validate import check_optional_duration, check_text
from ..errors import (
    NotFoundError,
    RunCancelledError,
    RunDormantError,
    RunFailedError,
    RunTimeoutError,
    StoreUnavailableError,
    StrandedRunError,
)
from ..stores import (
    TERMINAL_RUN_STATUSES,
    InspectionStore,
    RunLog,
    RunRecord,
    RunStatus,
    RunStreams,
    StepRecord,
    WorkerRegistry,
    chain_of,
    successor_run_id,
)
from ._generations import is_dev_generation
from ._outage import Outage
from ._run_reads import HookView, RunInput, run_hooks, run_input, run_output
from ._streams import RunStream

__all__ = [
    "DEFAULT_STREAM",
    "LIVE_WORKER_SECONDS",
    "ChainInfo",
    "RunHandle",
    "RunInfo",
    "StepView",
]


class HandleStore(RunLog, RunStreams, WorkerRegistry, InspectionStore, Protocol):
    """The roles of a `WorkflowStore` a `RunHandle` reads and writes (all but the queue's)."""


#: A worker whose heartbeat is older than this is not counted as live by clients.
LIVE_WORKER_SECONDS = 15.0
#: The stream `Client.stream` and `RunHandle.stream` name when given none.
DEFAULT_STREAM = "default"


@dataclass(frozen=True, slots=True, kw_only=True)
class RunInfo:
    """A run as a client sees it.

    A run that continued as new (status ``continued``) names its successor in
    `continued_to`; `chain_id` and `generation` place a run in its chain (the first
    run is generation 0 and its id is the chain's).
    """

    run_id: str
    workflow_name: str
    status: RunStatus
    deployment: str
    engine_version: str
    created_at: datetime
    updated_at: datetime
    completed_at: datetime | None
    parent_run_id: str | None
    stranded: bool
    chain_id: str = ""
    generation: int = 0
    continued_to: str | None = None
    #: The run's labels (`Client.start(labels=...)`): clear-text metadata listings
    #: filter on. Empty once the run's content was purged.
    labels: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class ChainInfo:
    """A chain as `Client.page_chains` lists it: its first run and the run current now.

    `current` is `first` when the chain never continued. `input` is the first run's
    (empty once its content is gone).
    """

    chain_id: str
    first: RunInfo
    current: RunInfo
    input: RunInput


@dataclass(frozen=True, slots=True, kw_only=True)
class StepView:
    """A journal entry decoded for reading."""

    slot: int
    step_id: str
    name: str
    status: str
    attempt: int
    input: Any
    output: Any
    error: Any
    started_at: datetime
    completed_at: datetime | None


def _ts(value: float | None) -> datetime | None:
    return None if value is None else datetime.fromtimestamp(value, tz=UTC)


#: Seconds a client trusts that live workers serve a run's versions before looking again.
SERVED_TTL = 2.0


class _Liveness:
    """Whether live workers serve a run's versions; a "served" answer is kept briefly.

    A look costs two reads at once (the store's clock, the worker records), and every send to a
    session asks. Only "served" is kept, for `SERVED_TTL`: a stranded run, or a store
    with no live worker, is looked up again each time, so a run strands as soon as the
    records say so. A worker that dies still counts as serving for at most `SERVED_TTL`
    more seconds, well inside the `LIVE_WORKER_SECONDS` its heartbeat is trusted for.
    """

    def __init__(self, store: WorkerRegistry) -> None:
        self._store = store
        self._served: set[tuple[str, str]] = set()
        self._until = 0.0

    async def stranded(self, run: RunRecord | RunInfo) -> bool:
        if run.status in TERMINAL_RUN_STATUSES:
            return False
        versions = (run.engine_version, run.deployment)
        if versions in self._served and time.monotonic() < self._until:
            return False
        looked = time.monotonic()
        # Heartbeats are stamped on the store's clock. The two reads are independent
        # (a heartbeat landing between them reads as live in either order): at once,
        # one round trip's wait on a networked store instead of two.
        now, workers = await asyncio.gather(self._store.clock(), self._store.list_workers())
        live = [w for w in workers if now - w.heartbeat_at <= LIVE_WORKER_SECONDS]
        self._served = {(w.engine_version, w.deployment) for w in live}
        self._until = looked + SERVED_TTL
        return bool(live) and versions not in self._served


async def _is_stranded(store: WorkerRegistry, run: RunRecord) -> bool:
    """`_Liveness.stranded` looked up now, nothing kept (result waits, dormancy checks)."""
    return await _Liveness(store).stranded(run)


async def _current(store: RunLog, run: RunRecord) -> RunRecord:
    """The run of `run`'s chain that is current now (`run` unless it continued as new)."""
    if run.status != "continued":
        return run
    latest = await store.latest_run(chain_of(run))
    # A run ends continued in the commit that creates its successor: never missing.
    return run if latest is None or latest.generation <= run.generation else latest


class RunHandle:
    """A reference to a run, and through it to the run's chain.

    A handle follows the chain (`follow`, the default): when the run continued as new
    (``ctx.continue_as_new``), `status`, `info`, `steps` and `result` speak of the
    chain's current run, and `result` waits for the chain's last run. (A chain started
    again after it ended, `Client.restart`, is a new execution: handles to its earlier
    runs keep their outcome.) With
    ``follow=False`` they speak of this one run (whose status may be ``continued``),
    except `result`, which always follows. `cancel` cancels the chain's current run.
    """

    def __init__(
        self,
        store: HandleStore,
        run_id: str,
        *,
        follow: bool = True,
        liveness: _Liveness | None = None,
    ) -> None:
        self._store = store
        self.run_id = run_id
        self.follow = follow
        self._liveness = liveness or _Liveness(store)

    async def _run(self) -> RunRecord:
        run = await self._store.get_run(self.run_id)
        if run is None:
            raise NotFoundError(f"run {self.run_id!r} does not exist")
        return await _current(self._store, run) if self.follow else run

    async def status(self) -> RunStatus:
        """The status: pending, running, completed, failed, cancelled or continued."""
        return (await self._run()).status

    async def info(self) -> RunInfo:
        """The run's record (the chain's current run when following), and if stranded."""
        run = await self._run()
        return _info(run, await self._liveness.stranded(run))

    async def steps(self) -> list[StepView]:
        """The decoded journal (of the chain's current run when following), in slot order."""
        run = await self._run()
        return [_step_view(s) for s in await self._store.list_steps(run.run_id)]

    async def step(self, step_id: str) -> StepView | None:
        """One journal entry by its step id, decoded; None when the run has none.

        Of the chain's current run when following.
        """
        run = await self._run()
        found = await self._store.get_step(run.run_id, step_id)
        return None if found is None else _step_view(found)

    async def result(self, timeout: float | None = None) -> Any:
        """Wait for the run to end and return its output.

        Args:
            timeout: Seconds to wait; None waits as long as it takes.

        Raises:
            ConfigurationError: `timeout` is negative, NaN or infinite.
            RunFailedError: The run failed; `.cause` holds the workflow's error.
            RunCancelledError: The run was cancelled.
            StrandedRunError: Live workers exist, but none runs the run's versions.
            RunTimeoutError: `timeout` passed first (the run goes on).
            StoreUnavailableError: The store was still unreachable when `timeout`
                passed. Until then an outage is waited through, as the run outlives it
                (logged once per outage).
        """
        timeout = check_optional_duration(timeout, what="timeout")
        deadline = None if timeout is None else time.monotonic() + timeout
        next_check = time.monotonic() + 1.0
        current = self.run_id
        outage = Outage(f"waiting for run {current}")
        while True:
            remaining = 1.0 if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                run = await self._store.wait_run_terminal(current, min(remaining, 1.0))
                if run is not None and run.status == "continued":
                    # The chain goes on: wait for its current run instead, at once.
                    current = (await _current(self._store, run)).run_id
                    if current != run.run_id:
                        continue
                check = (
                    run is not None
                    and run.status not in TERMINAL_RUN_STATUSES
                    and time.monotonic() >= next_check
                )
                stranded = check and run is not None and await _is_stranded(self._store, run)
            except StoreUnavailableError as exc:
                # An outage (a failover, a restart, a cut network) that the run itself
                # outlives: the wait goes on through it, within the caller's timeout.
                if deadline is not None and time.monotonic() >= deadline:
                    raise
                await outage.pause(exc, at_most=None if deadline is None else remaining)
                continue
            outage.over()
            if run is None:
                raise NotFoundError(f"run {current!r} does not exist")
            if run.status in TERMINAL_RUN_STATUSES:
                return _outcome(run)
            if check:
                next_check = time.monotonic() + 2.0
                if stranded:
                    error = (
                        RunDormantError if is_dev_generation(run.deployment) else StrandedRunError
                    )
                    raise error(run.run_id, run.engine_version, run.deployment)
            if deadline is not None and time.monotonic() >= deadline:
                raise RunTimeoutError(self.run_id, timeout or 0.0, run.status)

    async def cancel(self, reason: str | None = None) -> None:
        """Cancel the run: at once if it is parked or waiting, else at its next boundary.

        A run that continued as new stands for its chain: the chain's current run is
        cancelled, and a cancel that reaches a run just before it continues ends it
        cancelled instead.

        Raises:
            InvalidInputError: `reason` holds a NUL character or a lone surrogate.
        """
        if reason is not None:
            check_text(reason, what="reason")
        await self._store.request_cancel(self.run_id, reason=reason)

    async def input(self) -> RunInput:
        """The arguments the run was started with (decoded).

        Raises:
            NotFoundError: No run has this id.
        """
        return await run_input(self._store, self.run_id)

    async def output(self) -> Any:
        """The run's decoded output if it completed, else None; never waits.

        Raises:
            NotFoundError: No run has this id.
        """
        return await run_output(self._store, self.run_id)

    async def hooks(self) -> list[HookView]:
        """The run's active hooks (what it waits for payloads on), in slot order.

        Raises:
            NotFoundError: No run has this id.
        """
        return await run_hooks(self._store, self.run_id)

    async def purge_content(self, *, keep_input: bool = False) -> bool:
        """Delete the run's content (retention).

        Inputs, outputs, errors, event payloads, stream chunks and the run's labels go;
        ids, slots, names, statuses and timestamps stay.

        Args:
            keep_input: Keep the run's own input (when it holds identity, not content),
                and its labels with it.

        Returns:
            Whether this was the run's first purge (of purges at once, exactly one is).
        """
        return await self._store.purge_run_content(self.run_id, keep_input=keep_input)

    def stream(self, name: str = DEFAULT_STREAM) -> RunStream:
        """One of the run's named streams (read, follow)."""
        return RunStream(self._store, self.run_id, name)


def _info(run: RunRecord, stranded: bool) -> RunInfo:
    return RunInfo(
        run_id=run.run_id,
        workflow_name=run.workflow_name,
        status=run.status,
        deployment=run.deployment,
        engine_version=run.engine_version,
        created_at=datetime.fromtimestamp(run.created_at, tz=UTC),
        updated_at=datetime.fromtimestamp(run.updated_at, tz=UTC),
        completed_at=_ts(run.completed_at),
        parent_run_id=run.parent_run_id,
        stranded=stranded,
        chain_id=chain_of(run),
        generation=run.generation,
        labels=dict(run.labels),
        continued_to=(
            successor_run_id(chain_of(run), run.generation + 1)
            if run.status == "continued"
            else None
        ),
    )


def _outcome(run: RunRecord) -> Any:
    if run.status == "completed":
        return decode(run.output, what=f"output of run {run.run_id!r}") if run.output else None
    if run.status == "cancelled":
        raise RunCancelledError(run.run_id)
    raise failed_error(run.run_id, run.error)


def failed_error(run_id: str, error: bytes | None) -> RunFailedError:
    """The `RunFailedError` of a run that failed with the recorded `error`."""
    facts = decode_error(error, what=f"error of run {run_id!r}")
    return RunFailedError(
        run_id,
        facts.summary,
        facts.error,
        error_type=facts.error_type,
        error_message=facts.message,
        error_traceback=facts.traceback,
    )


def _step_view(step: StepRecord) -> StepView:
    started = datetime.fromtimestamp(step.started_at, tz=UTC)
    return StepView(
        slot=step.slot,
        step_id=step.step_id,
        name=step.name,
        status=step.status,
        attempt=step.attempt,
        input=describe(step.input),
        output=describe(step.output),
        error=describe(step.error),
        started_at=started,
        completed_at=_ts(step.completed_at),
    )
