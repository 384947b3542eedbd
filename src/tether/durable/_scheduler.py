"""The scheduler: the workflow that drives a schedule, and what a client does with it.

See `_schedule_spec` for what a schedule is and what its runs are called. Here:
`scheduler_body` (the ``tether.scheduler`` workflow of a registry), `ensure_schedules`
(a worker makes sure every schedule of its registry has its chain) and `Schedules`
(list, pause, resume, trigger).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import orjson

from ..errors import ConflictError, NotFoundError
from ._ambient import current_backend
from ._client import Client
from ._registry import Registry
from ._schedule_spec import (
    RUN_ALL_LIMIT,
    SCHEDULER,
    STATE_STREAM,
    TICKS_PER_RUN,
    chain_id_of,
    control_token,
    tick_run_id,
)
from ._step_scope import step_stream

if TYPE_CHECKING:
    from ._context import Hook, WorkflowContext

__all__ = ["SCHEDULE_CHECK", "ScheduleInfo", "Schedules", "ensure_schedules", "scheduler_body"]

#: Seconds between two checks of a worker that its registry's schedules run somewhere.
SCHEDULE_CHECK = 30.0


def _now() -> float:
    return time.time()


def scheduler_body(registry: Registry) -> Any:
    """The ``tether.scheduler`` workflow of `registry` (its schedules by name)."""

    def spec_of(name: str) -> dict[str, Any] | None:
        found = registry.schedules.get(name)
        return None if found is None else found.to_json()

    async def start_tick(name: str, tick: float | None, manual: str | None) -> str:
        spec = registry.schedules[name]
        at = _now() if tick is None else tick
        run_id = tick_run_id(name, at) if manual is None else f"{chain_id_of(name)}:{manual}"
        scheduled_at = spec.iso(at)
        client = Client(current_backend(), registry=registry)
        # Starting an id twice returns the first run: a retried step starts nothing.
        handle = await client.start(
            spec.workflow,
            *spec.args,
            run_id=run_id,
            labels={"tether.schedule": name, "tether.schedule.tick": scheduled_at},
            scheduled_at=scheduled_at,
            **spec.kwargs,
        )
        return handle.run_id

    async def publish(state: dict[str, Any]) -> None:
        step_stream(STATE_STREAM).write(orjson.dumps(state))

    async def scheduler(ctx: WorkflowContext, name: str, state: dict[str, Any] | None) -> str:
        control = ctx.create_hook(token=control_token(name))
        spec_json = await ctx.step(spec_of, name, name="schedule_spec")
        if spec_json is None:
            await ctx.step(publish, {"removed": True}, name="schedule_state")
            return "removed"
        spec = registry.schedules[name]
        now: float = await ctx.step(_now, name="schedule_clock")
        state = dict(state or {"last": now, "paused": False})
        ticks = taken = 0
        while ticks < TICKS_PER_RUN or not ctx.can_continue_as_new:
            last, paused = float(state["last"]), bool(state["paused"])
            next_at = None if paused else spec.next_after(last)
            shown = {**spec_json, **state, "next": next_at, "run_id": ctx.run_id}
            await ctx.step(publish, shown, name="schedule_state")
            command, taken = await _wait(
                ctx, control, taken, None if next_at is None else next_at - now
            )
            now = await ctx.step(_now, name="schedule_clock")
            if command is not None:
                op = command.get("op") if isinstance(command, dict) else None
                if op == "pause":
                    state["paused"] = True
                elif op == "resume" and paused:
                    # The pause's ticks are not missed ones: nobody wanted them.
                    state.update(paused=False, last=now)
                elif op == "trigger":
                    await ctx.step(start_tick, name, None, str(ctx.uuid()), name="start_tick")
                continue
            if next_at is None or next_at > now:
                continue  # woken before the tick (a timer's rounding): wait again
            due = spec.due(last, now, RUN_ALL_LIMIT if spec.missed == "run_all" else 10**6)
            if spec.missed == "run_all":
                chosen = due
            elif spec.missed == "run_once":
                chosen = due[-1:]
            else:
                chosen = [t for t in due[-1:] if now - t <= spec.grace]
            for tick in chosen:
                await ctx.step(start_tick, name, tick, None, name="start_tick")
            state["last"] = due[-1] if due else now
            ticks += 1
        await ctx.continue_as_new(name, state)

    return scheduler


async def _wait(
    ctx: WorkflowContext, control: Hook, taken: int, seconds: float | None
) -> tuple[Any | None, int]:
    """The next control payload (taken) or None once `seconds` passed; payloads taken."""
    if seconds is not None and seconds <= 0:
        return None, taken
    ring = asyncio.ensure_future(control.wait_beyond(taken))
    waits: set[asyncio.Future[Any]] = {ring}
    if seconds is not None:
        waits.add(asyncio.ensure_future(ctx.sleep(seconds)))
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waits:
            waiter.cancel()
        await asyncio.gather(*waits, return_exceptions=True)
    if ring.done() and not ring.cancelled() and ring.exception() is None:
        return await control.receive(), taken + 1
    return None, taken


async def ensure_schedules(client: Client, registry: Registry) -> list[str]:
    """Register the scheduler and start each schedule's chain that is not running.

    Idempotent (a chain's id is its schedule's name), so every worker may call it.
    A chain whose last run ended (its schedule was removed, then defined again) starts
    again. A chain whose scheduler is stranded (no live worker serves the deployment
    that runs it: a deploy replaced them) moves to this registry's deployment, with its
    state (last tick, paused). Returns the chains started or moved now.
    """
    if not registry.schedules:
        return []
    if SCHEDULER not in registry.names():
        registry.workflow(name=SCHEDULER)(scheduler_body(registry))
    started: list[str] = []
    store = client.backend.stores.workflow
    for name in sorted(registry.schedules):
        chain = chain_id_of(name)
        labels = {"tether.schedule": name}
        current = await store.latest_run(chain)
        if current is None:
            try:
                await client.start(SCHEDULER, name, None, run_id=chain, labels=labels)
            except ConflictError:
                continue  # another worker started it first, differently: it runs
            started.append(chain)
        elif current.status in ("completed", "failed", "cancelled"):
            await client.restart(chain, SCHEDULER, name, None)
            started.append(chain)
        elif (current.deployment, current.engine_version) != (
            registry.deployment,
            registry.engine_version,
        ) and await _move(client, chain, name):
            started.append(chain)
    return started


async def _move(client: Client, chain: str, name: str) -> bool:
    """Move a stranded scheduler to `client`'s deployment; whether it moved."""
    info = await (await client.get(chain)).info()
    if not await client.is_stranded(info):
        return False  # its deployment's workers still run it: they keep it
    held = await client.take_over(chain)
    if held is None:
        return False  # not parked now (or the backend cannot move runs)
    async with held:
        tail, _ = await client.backend.stores.workflow.read_stream(chain, STATE_STREAM, start=-1)
        published = orjson.loads(tail[-1].data) if tail else {}
        state = None
        if "last" in published:
            state = {"last": published["last"], "paused": bool(published.get("paused"))}
        await held.continue_as_new(name, state, workflow=SCHEDULER)
    return True


@dataclass(frozen=True, slots=True, kw_only=True)
class ScheduleInfo:
    """A schedule as its scheduler last published it (`Schedules.list`).

    Attributes:
        name: The schedule.
        workflow: The workflow each tick runs.
        cron: Its cron expression, or None.
        every: Its interval in seconds, or None.
        timezone: The time zone of `cron`.
        missed: What a late wake-up runs.
        paused: Whether it is paused.
        last_tick: The last tick handled (run or, by `missed`, skipped).
        next_tick: The next tick due (None while paused).
        run_id: The scheduler's current run.
        status: That run's status (``running`` while it waits for a tick, holding no worker).
        deployment: The deployment that runs it.
    """

    name: str
    workflow: str
    cron: str | None
    every: float | None
    timezone: str
    missed: str
    paused: bool
    last_tick: datetime | None
    next_tick: datetime | None
    run_id: str
    status: str
    deployment: str

    def to_json(self) -> dict[str, Any]:
        """The JSON form (the CLI's ``--json``)."""
        return {
            "name": self.name,
            "workflow": self.workflow,
            "cron": self.cron,
            "every": self.every,
            "timezone": self.timezone,
            "missed": self.missed,
            "paused": self.paused,
            "last_tick": None if self.last_tick is None else self.last_tick.isoformat(),
            "next_tick": None if self.next_tick is None else self.next_tick.isoformat(),
            "run_id": self.run_id,
            "status": self.status,
            "deployment": self.deployment,
        }


def _when(value: Any) -> datetime | None:
    return None if value is None else datetime.fromtimestamp(float(value), tz=UTC)


class Schedules:
    """The schedules of a store: list them, pause, resume, trigger a tick now.

    Args:
        client: A client of the store the schedules' runs live in.
    """

    def __init__(self, client: Client) -> None:
        self._client = client

    async def list(self, *, limit: int = 500) -> list[ScheduleInfo]:
        """Every schedule whose scheduler has published its state, by name."""
        page = await self._client.page_chains(workflow=SCHEDULER, limit=limit)
        store = self._client.backend.stores.workflow
        found: list[ScheduleInfo] = []
        for chain in page.items:
            name = chain.first.labels.get("tether.schedule")
            if name is None:
                continue
            tail, _ = await store.read_stream(chain.chain_id, STATE_STREAM, start=-1)
            if not tail:  # its scheduler has not published its state yet
                continue
            state = orjson.loads(tail[-1].data)
            if state.get("removed"):
                continue
            found.append(
                ScheduleInfo(
                    name=name,
                    workflow=str(state.get("workflow", "")),
                    cron=state.get("cron"),
                    every=state.get("every"),
                    timezone=str(state.get("timezone", "UTC")),
                    missed=str(state.get("missed", "")),
                    paused=bool(state.get("paused", False)),
                    last_tick=_when(state.get("last")),
                    next_tick=_when(state.get("next")),
                    run_id=chain.current.run_id,
                    status=chain.current.status,
                    deployment=chain.current.deployment,
                )
            )
        return sorted(found, key=lambda s: s.name)

    async def pause(self, name: str) -> None:
        """Stop starting ticks of `name` until `resume`.

        Raises:
            NotFoundError: No scheduler of that name is running.
        """
        await self._send(name, {"op": "pause"})

    async def resume(self, name: str) -> None:
        """Start ticks of `name` again, from now (the pause's ticks are not run).

        Raises:
            NotFoundError: No scheduler of that name is running.
        """
        await self._send(name, {"op": "resume"})

    async def trigger(self, name: str) -> None:
        """Start a run of `name`'s workflow now, once, besides its ticks.

        Raises:
            NotFoundError: No scheduler of that name is running.
        """
        await self._send(name, {"op": "trigger"})

    async def _send(self, name: str, command: dict[str, str]) -> None:
        try:
            await self._client.resume_hook(control_token(name), command)
        except NotFoundError:
            raise NotFoundError(
                f"no schedule {name!r} is running; a worker whose registry defines it "
                "starts it (registry.schedule(...))"
            ) from None
