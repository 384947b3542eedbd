"""Reads of runs a client needs beyond status and result: input, output, pages, purge.

These back `RunHandle.input`, `RunHandle.output`, `RunHandle.purge_content` and
`Client.page_runs`; the handle and the client keep only the delegating methods.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from .._codec import decode
from ..errors import NotFoundError
from ..stores import TERMINAL_RUN_STATUSES, Page, RunLog, RunRecord, RunStatus, WorkerRegistry

__all__ = [
    "HookView",
    "LiveDeployment",
    "RunInput",
    "RunsAndWorkers",
    "input_of",
    "is_stranded",
    "live_deployments",
    "live_versions",
    "page_runs",
    "run_hooks",
    "run_input",
    "run_output",
]


class RunsAndWorkers(RunLog, WorkerRegistry, Protocol):
    """The roles of a `WorkflowStore` a listing of runs and their serving workers reads."""


#: A worker whose heartbeat is older than this is not counted as live by clients.
_LIVE_WORKER_SECONDS = 15.0


@dataclass(frozen=True, slots=True, kw_only=True)
class RunInput:
    """The arguments a run was started with (decoded)."""

    args: tuple[Any, ...] = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class HookView:
    """An active hook of a run: its token (send payloads with `Client.resume_hook`)."""

    token: str
    slot: int
    created_at: float


async def run_hooks(store: RunLog, run_id: str) -> list[HookView]:
    """The run's active hooks, in slot order."""
    hooks = await store.list_hooks(run_id)
    if not hooks:
        await _run(store, run_id)  # a run with hooks exists: only an empty answer may not
    return [
        HookView(token=h.token, slot=h.slot, created_at=h.created_at)
        for h in sorted(hooks, key=lambda h: h.slot)
    ]


async def _run(store: RunLog, run_id: str) -> RunRecord:
    run = await store.get_run(run_id)
    if run is None:
        raise NotFoundError(f"run {run_id!r} does not exist")
    return run


async def run_input(store: RunLog, run_id: str) -> RunInput:
    """The decoded input of a run."""
    return input_of(await _run(store, run_id))


def input_of(run: RunRecord) -> RunInput:
    """The decoded input of a run record (empty when its content is gone)."""
    if run.input is None:
        return RunInput()
    value = decode(run.input, what=f"input of run {run.run_id!r}")
    return RunInput(args=tuple(value.get("args", ())), kwargs=dict(value.get("kwargs", {})))


async def run_output(store: RunLog, run_id: str) -> Any:
    """The decoded output of a completed run; None for a run that has not completed."""
    run = await _run(store, run_id)
    if run.status != "completed" or run.output is None:
        return None
    return decode(run.output, what=f"output of run {run_id!r}")


async def page_runs(
    store: RunsAndWorkers,
    *,
    status: RunStatus | None,
    workflow: str | None,
    limit: int,
    cursor: str | None,
    labels: Mapping[str, str] | None = None,
) -> tuple[Page[RunRecord], set[tuple[str, str]]]:
    """A page of runs, newest first, and the (engine, deployment) pairs live workers serve."""
    page = await store.list_runs(
        status=status, workflow_name=workflow, limit=limit, cursor=cursor, labels=labels
    )
    return page, await live_versions(store)


async def live_versions(store: WorkerRegistry) -> set[tuple[str, str]]:
    """The (engine, deployment) pairs live workers serve (one read of the workers)."""
    now = time.time()
    return {
        (w.engine_version, w.deployment)
        for w in await store.list_workers()
        if now - w.heartbeat_at <= _LIVE_WORKER_SECONDS
    }


def is_stranded(run: RunRecord, served: set[tuple[str, str]]) -> bool:
    """Whether live workers exist and none serves the run's versions."""
    if run.status in TERMINAL_RUN_STATUSES:
        return False
    return bool(served) and (run.engine_version, run.deployment) not in served


@dataclass(frozen=True, slots=True, kw_only=True)
class LiveDeployment:
    """A (tether version, deployment) pair live workers serve (`Client.live_deployments`).

    Attributes:
        engine_version: The tether version.
        deployment: The deployment.
        workers: How many live workers serve it.
        since: When the first of them that is still live started (Unix seconds, store
            clock): the newest deployment is the one that came up last.
    """

    engine_version: str
    deployment: str
    workers: int
    since: float


async def live_deployments(store: WorkerRegistry) -> list[LiveDeployment]:
    """The versions live workers serve, newest first (`Client.live_deployments`)."""
    now = await store.clock()
    found: dict[tuple[str, str], list[float]] = {}
    for w in await store.list_workers():
        if now - w.heartbeat_at <= _LIVE_WORKER_SECONDS:
            found.setdefault((w.engine_version, w.deployment), []).append(w.started_at)
    out = [
        LiveDeployment(engine_version=e, deployment=d, workers=len(s), since=min(s))
        for (e, d), s in found.items()
    ]
    return sorted(out, key=lambda x: x.since, reverse=True)
