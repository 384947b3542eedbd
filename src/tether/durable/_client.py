"""Start, inspect, resume and cancel runs from any process."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, get_args

from .._codec import digest, encode
from .._ids import new_ulid
from .._validate import check_identifier, check_labels
from .._version import ENGINE_VERSION
from ..errors import ConfigurationError, NotFoundError
from ..stores import (
    TERMINAL_RUN_STATUSES,
    Backend,
    NewRun,
    Page,
    RunRecord,
    RunStatus,
    StoreWrite,
    WorkflowStore,
    successor_run_id,
)
from ._continue import Handoff
from ._dormancy import Dormancy
from ._fork import fork_run
from ._handle import (
    DEFAULT_STREAM,
    ChainInfo,
    RunHandle,
    RunInfo,
    StepView,
    _current,
    _info,
    _Liveness,
)
from ._progress import RunProgress, read_progress
from ._registry import Registry, queue_name, workflow_name_of
from ._run_reads import (
    HookView,
    LiveDeployment,
    input_of,
    is_stranded,
    live_deployments,
    live_versions,
    page_runs,
    run_hooks,
)
from ._streams import RunStream
from ._takeover import Takeover, take_over
from ._tracing import start_labels

__all__ = ["ChainInfo", "Client", "LiveDeployment", "RunHandle", "RunInfo", "StepView"]

#: Every run status, in lifecycle order (what `Client.list_runs(status=...)` takes).
RUN_STATUSES: tuple[str, ...] = get_args(RunStatus)


def _filter(labels: Mapping[str, str] | None) -> dict[str, str] | None:
    return check_labels(labels, what="label filter") or None


class Client:
    """Starts and controls runs; needs no worker in the same process.

    Args:
        backend: An open backend.
        registry: Optional; when given, workflow names are checked on start and its
            deployment is used.
    """

    def __init__(self, backend: Backend, *, registry: Registry | None = None) -> None:
        self.backend = backend
        self.registry = registry
        self._handoff: Handoff | None = None
        # Set on `Worker.client`: starts runs on that worker at once when it has room.
        self._eager: Callable[[NewRun], Awaitable[RunRecord]] | None = None
        # Set on `Worker.client` too: a run woken by a hook payload runs on that worker
        # at once, claimed in the payload's write, when it has room.
        self._eager_resume: (
            Callable[[str, bytes, Sequence[StoreWrite], str | None], Awaitable[None]] | None
        ) = None
        self._liveness = _Liveness(backend.stores.workflow)
        self._dormancy = Dormancy(backend.stores.workflow)

    @property
    def _store(self) -> WorkflowStore:
        return self.backend.stores.workflow

    async def start(
        self,
        workflow: Callable[..., Any] | str,
        *args: Any,
        run_id: str | None = None,
        labels: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> RunHandle:
        """Start a run, or return the existing run with the same id.

        Args:
            workflow: A registered workflow function, or its name.
            *args: Arguments after the context.
            run_id: The run's id; starting the same id again returns the same run (a
                different workflow or input under that id is a `ConflictError`).
            labels: Clear-text metadata (key to value, both strings) that `list_runs`
                and `page_runs` filter on through an index; stored unencrypted, like
                names and statuses. The run's later runs (continue-as-new, `restart`)
                keep them; child runs do not. Keys starting ``tether.`` are tether's own
                (the agent layer sets them).
            **kwargs: Keyword arguments of the workflow.

        Raises:
            InvalidInputError: `run_id` or the workflow name is not an identifier every
                backend stores (empty, a NUL character, over 1024 UTF-8 bytes), or a
                label is not a non-empty string (key at most 128, value at most 512
                UTF-8 bytes, no NUL), or there are more than 32.
            ConflictError: The run id names a run of another workflow or input.
        """
        if run_id is not None:
            check_identifier(run_id, what="run_id")
        new = self._new_run(workflow, args, kwargs, run_id or new_ulid("run_"))
        if labels:
            new = dataclasses.replace(new, labels=check_labels(labels, what="labels of the run"))
        traced = start_labels(dict(new.labels))
        if len(traced) != len(new.labels):
            # The caller's span is the run's parent: its traceparent rides on a label.
            new = dataclasses.replace(new, labels=traced)
        if self._eager is not None:
            run = await self._eager(new)
        else:
            run, _ = await self._store.create_run(new)
        return RunHandle(self._store, run.run_id, liveness=self._liveness)

    async def restart(
        self, chain_id: str, workflow: Callable[..., Any] | str, *args: Any, **kwargs: Any
    ) -> RunHandle:
        """Start a chain again after its last run ended (completed, failed, cancelled).

        The new run is the chain's next generation (id ``<chain id>~<n>``, under this
        client's deployment; `WorkflowStore.latest_run` finds it by the chain id), and
        it may take the hook tokens the chain still retains (hook retention), which
        other runs may not. Use it to open a new run at the same address after the old
        one ended. Calling it again while that run is still going returns it.

        Args:
            chain_id: The chain (its first run's id).
            workflow: A registered workflow function, or its name.
            *args: Arguments after the context.
            **kwargs: Keyword arguments of the workflow.

        Raises:
            NotFoundError: No run has that chain.
            ConflictError: The chain's current run has not ended.
            InvalidInputError: `chain_id` cannot be a run id on any backend.
        """
        check_identifier(chain_id, what="chain_id")
        latest = await self._store.latest_run(chain_id)
        if latest is None:
            raise NotFoundError(f"chain {chain_id!r} does not exist")
        generation = latest.generation + 1
        new = self._new_run(workflow, args, kwargs, successor_run_id(chain_id, generation))
        if (
            latest.status not in TERMINAL_RUN_STATUSES
            and latest.generation > 0
            and latest.workflow_name == new.workflow_name
            and latest.input_digest == new.input_digest
        ):
            # This very restart, again.
            return RunHandle(self._store, latest.run_id, liveness=self._liveness)
        new = dataclasses.replace(new, chain_id=chain_id, generation=generation)
        run, _ = await self._store.create_run(new)
        return RunHandle(self._store, run.run_id, liveness=self._liveness)

    async def fork(
        self,
        run_id: str,
        *,
        from_step: int | str,
        new_run_id: str | None = None,
        args: Sequence[Any] | None = None,
        kwargs: Mapping[str, Any] | None = None,
        labels: Mapping[str, str] | None = None,
    ) -> RunHandle:
        """Start a new run from a run's journal up to a step; the original is only read.

        The fork is a run of the same workflow whose journal holds copies of the
        operations before `from_step` (steps that ended, sleeps, hooks under new
        tokens, child runs that ended): a worker replays them without running their
        bodies again and runs the rest with the code it now serves. Any run may be
        forked, in any status; the fork and its copies are one store transaction.
        See the concepts page "Fork and resume" for what each kind of operation
        carries over.

        Args:
            run_id: The run to fork.
            from_step: Where the fork starts: a slot of the run's journal (1 for the
                very start, one past its last operation to replay them all) or a step
                name (its first step of that name).
            new_run_id: The fork's id (default: a new one); the same fork asked for
                again under the same id returns it.
            args: Replacement positional arguments of the workflow (with `kwargs`:
                a new input; by default the original's).
            kwargs: Replacement keyword arguments.
            labels: Labels of the fork, on top of the original's; the fork also
                carries ``tether.forked_from`` and ``tether.fork_slot``.

        Raises:
            NotFoundError: No run has that id.
            ForkError: `from_step` is not a slot of its journal or a step it has, its
                input or step outputs were deleted, or it is a run of tether's own
                workflows (an agent session, a sub-agent task, the scheduler).
            ConflictError: `new_run_id` names another run.
            UnknownWorkflowError: This client's registry has no such workflow.
        """
        return await self._fork(run_id, from_step, new_run_id, args, kwargs, labels, False)

    async def resume(
        self,
        run_id: str,
        *,
        from_step: int | str | None = None,
        new_run_id: str | None = None,
        args: Sequence[Any] | None = None,
        kwargs: Mapping[str, Any] | None = None,
    ) -> RunHandle:
        """Take a failed or cancelled run up again, as a new run from where it ended.

        A fork (see `fork`) from the failed step (or the steps a cancel cut short),
        with the code this client's registry holds now and, optionally, a new input.
        The run itself stays as it ended: its record and journal are history. The
        new run's id is ``<run id>.resumed-<slot>`` unless `new_run_id` is given, so
        asking again returns the same run and the failed step never runs twice.

        Args:
            run_id: The failed or cancelled run.
            from_step: Resume from this slot or step instead (default: where it ended).
            new_run_id: The new run's id.
            args: Replacement positional arguments (with `kwargs`: a new input).
            kwargs: Replacement keyword arguments.

        Raises:
            NotFoundError: No run has that id.
            ForkError: The run did not fail and was not cancelled, or `from_step` is
                not one of its journal.
            ConflictError: The id is taken by another run (a resume with another input:
                pass `new_run_id`).
        """
        return await self._fork(run_id, from_step, new_run_id, args, kwargs, None, True)

    async def _fork(
        self,
        run_id: str,
        from_step: int | str | None,
        new_run_id: str | None,
        args: Sequence[Any] | None,
        kwargs: Mapping[str, Any] | None,
        labels: Mapping[str, str] | None,
        resume: bool,
    ) -> RunHandle:
        arguments = None
        if args is not None or kwargs is not None:
            arguments = {"args": list(args or ()), "kwargs": dict(kwargs or {})}
        run = await fork_run(
            self._store,
            self.registry,
            run_id,
            from_step=from_step,
            new_run_id=new_run_id,
            arguments=arguments,
            labels=labels,
            resume=resume,
        )
        return RunHandle(self._store, run.run_id, liveness=self._liveness)

    def _new_run(
        self,
        workflow: Callable[..., Any] | str,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        run_id: str,
    ) -> NewRun:
        name = check_identifier(workflow_name_of(workflow), what="workflow name")
        deployment = getattr(workflow, "__tether_deployment__", None)
        if self.registry is not None:
            self.registry.get(name)
            deployment = self.registry.deployment
        if deployment is None:
            raise ConfigurationError(
                f"cannot tell which deployment runs {name!r}: pass the workflow function, or "
                "create the Client with registry=..."
            )
        arguments = {"args": list(args), "kwargs": kwargs}
        payload = encode(arguments, what=f"input of {name!r}")
        return NewRun(
            run_id=run_id,
            workflow_name=name,
            input=payload,
            input_digest=digest(arguments),
            deployment=deployment,
            engine_version=ENGINE_VERSION,
            queue=queue_name(ENGINE_VERSION, deployment),
        )

    async def get(self, run_id: str, *, follow: bool = True) -> RunHandle:
        """A handle to an existing run, or to a chain by its id (its first run's).

        Args:
            run_id: Any run's id; a chain's id is its first run's.
            follow: Whether the handle speaks of the chain's current run (default) or
                of this one run (see `RunHandle`).

        Raises:
            NotFoundError: No run has that id.
            InvalidInputError: `run_id` cannot be a run id on any backend.
        """
        check_identifier(run_id, what="run_id")
        if await self._store.get_run(run_id) is None:
            raise NotFoundError(f"run {run_id!r} does not exist")
        return RunHandle(self._store, run_id, follow=follow, liveness=self._liveness)

    async def list_runs(
        self,
        *,
        status: RunStatus | None = None,
        workflow: str | None = None,
        limit: int = 100,
        labels: Mapping[str, str] | None = None,
    ) -> list[RunInfo]:
        """Runs, newest first; with `labels`, only the runs carrying every one of them.

        Raises:
            ConfigurationError: `status` is not a run status.
            InvalidInputError: `workflow` cannot be a workflow name on any backend.
        """
        if status is not None and status not in RUN_STATUSES:
            raise ConfigurationError(
                f"status {status!r} is not a run status; use one of {', '.join(RUN_STATUSES)}"
            )
        if workflow is not None:
            check_identifier(workflow, what="workflow name")
        page = await self._store.list_runs(
            status=status, workflow_name=workflow, limit=limit, labels=_filter(labels)
        )
        return [
            await RunHandle(self._store, r.run_id, follow=False, liveness=self._liveness).info()
            for r in page.items
        ]

    async def page_runs(
        self,
        *,
        status: RunStatus | None = None,
        workflow: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
        labels: Mapping[str, str] | None = None,
    ) -> Page[RunInfo]:
        """A page of runs, newest first; pass its `next_cursor` back for the next one.

        With `labels`, only the runs carrying every one of them (key and value); the
        store finds them through its label index, so a page costs that page's runs.

        Raises:
            InvalidInputError: A label is not one a run could carry (see `start`).
        """
        page, served = await page_runs(
            self._store,
            status=status,
            workflow=workflow,
            limit=limit,
            cursor=cursor,
            labels=_filter(labels),
        )
        return Page(
            items=tuple(_info(run, is_stranded(run, served)) for run in page.items),
            next_cursor=page.next_cursor,
        )

    async def page_chains(
        self,
        *,
        workflow: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
        labels: Mapping[str, str] | None = None,
    ) -> Page[ChainInfo]:
        """A page of chains, newest first, each with its current run and its input.

        A chain is listed by its first run (filtered on its workflow and `labels` as
        `page_runs` filters runs); the store reads each chain's current run in the
        same statement, so a page costs one read of the store plus one of the
        workers, however many runs the chains hold or the store keeps.

        Raises:
            InvalidInputError: A label is not one a run could carry, or `cursor` is
                not a `next_cursor` of this listing.
        """
        if workflow is not None:
            check_identifier(workflow, what="workflow name")
        page, served = await asyncio.gather(
            self._store.list_chains(
                workflow_name=workflow, limit=limit, cursor=cursor, labels=_filter(labels)
            ),
            live_versions(self._store),
        )
        return Page(
            items=tuple(
                ChainInfo(
                    chain_id=c.first.run_id,
                    first=_info(c.first, is_stranded(c.first, served)),
                    current=_info(c.current, is_stranded(c.current, served)),
                    input=input_of(c.first),
                )
                for c in page.items
            ),
            next_cursor=page.next_cursor,
        )

    async def label_run(self, run_id: str, labels: Mapping[str, str]) -> RunInfo:
        """Add labels to an existing run (a backfill; new runs get theirs from `start`).

        A key it already has takes the new value; adding the same labels again changes
        nothing.

        Raises:
            NotFoundError: No run has this id.
            InvalidInputError: An invalid label, or more than 32 in all.
        """
        check_identifier(run_id, what="run_id")
        await self._store.label_run(run_id, check_labels(labels, what=f"run {run_id!r}"))
        return await RunHandle(self._store, run_id, follow=False, liveness=self._liveness).info()

    def stream(
        self, run_id: str, name: str = DEFAULT_STREAM, *, chain_id: str | None = None
    ) -> RunStream:
        """A named stream of a run's chain: `read(start)`, `follow(start)` (ends with the chain).

        Every run of a chain writes its streams under the chain's id, so the stream of
        any run of the chain is the same, its indexes going on across moves.

        Args:
            run_id: Any run of the chain.
            name: The stream's name.
            chain_id: The run's chain, when the caller knows it (a chain's first run is
                the chain: its id is the chain's): spares the read that finds it.
        """
        return RunStream(self._store, run_id, name, chain_id=chain_id)

    async def hooks(self, run_id: str) -> list[HookView]:
        """The active hooks of one run (not its chain's), in slot order.

        The same as ``(await get(run_id, follow=False)).hooks()``, in one read.

        Raises:
            NotFoundError: No run has this id.
        """
        check_identifier(run_id, what="run_id")
        return await run_hooks(self._store, run_id)

    async def resume_hook(
        self,
        token: str,
        payload: Any = None,
        *,
        writes: Sequence[StoreWrite] = (),
        run_id: str | None = None,
    ) -> None:
        """Send `payload` to the hook owning `token`; its run wakes up.

        Args:
            token: The hook's token.
            payload: What its `await` returns.
            writes: Writes of other stores (`tether.stores` write records) applied in
                the same transaction: they land with the payload or not at all.
            run_id: Deliver only while that run holds the hook (not once the hook moved
                on to a successor with ``continue_as_new``, or its run ended): a
                caller that checked the run before resuming knows it still holds.

        Raises:
            NotFoundError: No active hook has that token, or (with `run_id`) that run
                no longer holds it (nothing is written).
            RunDormantError: The hook's run belongs to a `tether dev` generation no
                worker serves (nothing is written): it would wait for no one.
            InvalidInputError: `token` cannot be a hook token on any backend.
        """
        check_identifier(token, what="hook token")
        await self._dormancy.refuse(token)
        data = encode(payload, what="hook payload")
        if self._eager_resume is not None:
            await self._eager_resume(token, data, writes, run_id)
        else:
            await self._store.resume_hook(token, data, writes=writes, run_id=run_id)

    async def take_over(self, run_id: str) -> Takeover | None:
        """Hold a parked run from outside, to move it (`Takeover.continue_as_new`) or not.

        Takes the lease of the chain's current run when no worker holds it and no step
        of it is unfinished; while held, no worker runs it. Use it as
        ``async with`` (leaving without moving hands the run back) or call
        `Takeover.release`. Moving starts the successor under this client's
        deployment: the way to carry a parked run to new code.

        Returns:
            The take-over, or None when the run is not parked now (a worker runs it,
            it ended, a step of it waits to run again) or its backend cannot move runs
            (see `WorkflowContext.can_continue_as_new`).

        Raises:
            NotFoundError: No run has that id.
            ConfigurationError: The client has no registry (its deployment is the
                successor's).
        """
        check_identifier(run_id, what="run_id")
        if self.registry is None:
            raise ConfigurationError("take_over needs a Client created with registry=...")
        if not self.can_take_over:
            return None
        return await take_over(self.backend, self.registry, run_id)

    @property
    def can_take_over(self) -> bool:
        """Whether this client's backend can move runs (`take_over`, continue-as-new).

        False on a backend that does not declare the hand-off capabilities; the first
        time it is asked, it logs ``session handoff unavailable`` (once per client).
        """
        if self._handoff is None:
            self._handoff = Handoff(self.backend)
        return self._handoff.available

    async def progress(self, run_id: str) -> RunProgress:
        """What a run is doing now and what it waits on (see `RunProgress`).

        For an operator telling a slow run from a stuck one: its lease and whether the
        holder is alive, unfinished steps, timers, hooks, wake-ups in the queue and the
        live workers serving its versions. Several reads; not for a hot path.

        Raises:
            NotFoundError: No run has that id.
        """
        check_identifier(run_id, what="run_id")
        return await read_progress(self._store, run_id)

    async def live_deployments(self) -> list[LiveDeployment]:
        """The versions live workers serve, newest first (the one that came up last)."""
        return await live_deployments(self._store)

    async def latest(self, chain_id: str) -> RunInfo:
        """The chain's current run (the run itself when it never continued).

        Raises:
            NotFoundError: No run has that chain.
        """
        check_identifier(chain_id, what="chain_id")
        run = await self._store.latest_run(chain_id)
        if run is None:
            run = await self._store.get_run(chain_id)
            if run is None:
                raise NotFoundError(f"chain {chain_id!r} does not exist")
            run = await _current(self._store, run)
        # A "served" answer is kept briefly (`_Liveness`): every send to a session asks.
        return _info(run, await self._liveness.stranded(run))

    async def is_stranded(self, info: RunInfo) -> bool:
        """Whether `info`'s run is stranded now: live workers exist, none serves its versions.

        Looks at the worker records only, not at the run again (a run's versions never
        change): for a caller holding a recent `RunInfo`. Like `latest`, it keeps a
        "served" answer for a few seconds; a stranded one is looked up each time.
        """
        return await self._liveness.stranded(info)

    async def cancel(self, run_id: str, reason: str | None = None) -> None:
        """Cancel a run (see `RunHandle.cancel`).

        Raises:
            InvalidInputError: `run_id` or `reason` cannot be stored on every backend.
        """
        check_identifier(run_id, what="run_id")
        await RunHandle(self._store, run_id).cancel(reason)
