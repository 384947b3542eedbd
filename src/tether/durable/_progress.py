"""What a run is doing now and what it waits on: an operator's view (`Client.progress`).

A run that does not move is either held by a worker (a step running, its lease
renewed), parked on something that has not happened (a hook, a timer), waiting for a
worker to take its wake-up from the queue, or left with nothing that will ever move it.
`RunProgress` holds what tells these apart, read in one go from the store: the run's
lease and whether its holder's worker is alive, its unfinished steps, its open timers
and hooks, its wake-ups in the queue and how many live workers serve its versions.
Times are seconds on the store's clock, relative to the moment of the read.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import NotFoundError
from ..stores import (
    TERMINAL_RUN_STATUSES,
    RunLog,
    RunStatus,
    StepStatus,
    WorkerRegistry,
    WorkQueue,
)
from ._handle import LIVE_WORKER_SECONDS

__all__ = ["RunProgress", "StepProgress", "WakeUp", "read_progress"]


class ProgressReads(RunLog, WorkQueue, WorkerRegistry, Protocol):
    """The roles of a `WorkflowStore` `read_progress` reads: a run, its wake-ups, the workers."""


@dataclass(frozen=True, slots=True, kw_only=True)
class StepProgress:
    """An unfinished step of a run.

    Attributes:
        name: The step's name.
        slot: Its position in the run's journal.
        status: ``running`` (an attempt started) or ``retrying`` (waiting to run again).
        attempt: The attempt that started last.
        running_for: Seconds since that attempt started.
        retry_in: (``retrying``) seconds until the next attempt may start.
    """

    name: str
    slot: int
    status: StepStatus
    attempt: int
    running_for: float
    retry_in: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class WakeUp:
    """A wake-up of the run in the queue.

    Attributes:
        queue: The queue it is in (one per version pair).
        due_in: Seconds until it may be taken (negative: overdue by that much).
        deliveries: How many times a worker took it.
        held_by: The worker holding it now; None while it waits to be taken.
    """

    queue: str
    due_in: float
    deliveries: int
    held_by: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class RunProgress:
    """What a run is doing now and what it waits on.

    Attributes:
        run_id: The run.
        status: Its status.
        holder: The worker holding its lease, while the lease has not run out.
        lease_left: Seconds left on the last lease (negative: ran out that long ago);
            None if no worker ever held it or it was given back.
        holder_alive: Whether the lease holder's worker stamped itself alive lately
            (None without a holder).
        steps: Its unfinished steps.
        timers: Seconds until each open timer fires (negative: due).
        hooks: How many hooks it has open (what a message or an answer resumes).
        wake_ups: Its wake-ups in the queue.
        serving_workers: Live workers of the run's tether version and deployment.
    """

    run_id: str
    status: RunStatus
    holder: str | None
    lease_left: float | None
    holder_alive: bool | None
    steps: tuple[StepProgress, ...]
    timers: tuple[float, ...]
    hooks: int
    wake_ups: tuple[WakeUp, ...]
    serving_workers: int

    @property
    def ended(self) -> bool:
        """Whether the run is over (nothing more will happen to it)."""
        return self.status in TERMINAL_RUN_STATUSES

    @property
    def held(self) -> bool:
        """Whether a live worker holds the run now (a step of it may be running)."""
        return self.holder is not None and bool(self.holder_alive)

    @property
    def movable(self) -> bool:
        """Whether something will move the run without anyone sending it anything.

        A live worker holds it; or a wake-up or a timer will bring a worker to it and
        a live worker serves its versions; or its lease ran out (a live worker of its
        versions takes it over).
        """
        if self.ended or self.held:
            return True
        if not self.serving_workers:
            return False
        lapsed = self.holder is None and self.lease_left is not None
        return bool(self.wake_ups or self.timers or lapsed)

    def to_json(self) -> dict[str, Any]:
        """The JSON form (the server's wire form)."""
        return {
            "run_id": self.run_id,
            "status": self.status,
            "holder": self.holder,
            "lease_left": self.lease_left,
            "holder_alive": self.holder_alive,
            "steps": [
                {
                    "name": s.name,
                    "slot": s.slot,
                    "status": s.status,
                    "attempt": s.attempt,
                    "running_for": s.running_for,
                    "retry_in": s.retry_in,
                }
                for s in self.steps
            ],
            "timers": list(self.timers),
            "hooks": self.hooks,
            "wake_ups": [
                {
                    "queue": w.queue,
                    "due_in": w.due_in,
                    "deliveries": w.deliveries,
                    "held_by": w.held_by,
                }
                for w in self.wake_ups
            ],
            "serving_workers": self.serving_workers,
        }


def _r(seconds: float) -> float:
    return round(seconds, 3)


async def read_progress(store: ProgressReads, run_id: str) -> RunProgress:
    """What `run_id` is doing now (see `RunProgress`).

    Raises:
        NotFoundError: No run has that id.
    """
    run = await store.get_run(run_id)
    if run is None:
        raise NotFoundError(f"run {run_id!r} does not exist")
    now, steps, waits, hooks, messages, workers = await asyncio.gather(
        store.clock(),
        store.list_steps(run_id),
        store.list_waits(run_id),
        store.list_hooks(run_id),
        store.list_run_messages(run_id),
        store.list_workers(),
    )
    live = {w.worker_id: w for w in workers if now - w.heartbeat_at <= LIVE_WORKER_SECONDS}
    serving = sum(
        (w.engine_version, w.deployment) == (run.engine_version, run.deployment)
        for w in live.values()
    )
    lease_live = run.lease_owner is not None and run.lease_expires_at > now
    holder = run.lease_owner if lease_live else None
    # A lease given back leaves no owner; one that ran out keeps its last owner.
    lease_left = None if run.lease_owner is None else _r(run.lease_expires_at - now)
    return RunProgress(
        run_id=run.run_id,
        status=run.status,
        holder=holder,
        lease_left=lease_left,
        holder_alive=None if holder is None else holder in live,
        steps=tuple(
            StepProgress(
                name=s.name.rsplit("//", 1)[-1],
                slot=s.slot,
                status=s.status,
                attempt=s.attempt,
                running_for=_r(now - s.started_at),
                retry_in=None if s.retry_after is None else _r(s.retry_after - now),
            )
            for s in sorted(steps, key=lambda s: s.slot)
            if s.status in ("running", "retrying")
        ),
        timers=tuple(_r(w.resume_at - now) for w in waits if not w.completed),
        hooks=len(hooks),
        wake_ups=tuple(
            WakeUp(
                queue=m.queue,
                due_in=_r(m.available_at - now),
                deliveries=m.deliveries,
                held_by=m.lease_owner if m.lease_expires_at > now else None,
            )
            for m in messages
        ),
        serving_workers=serving,
    )
