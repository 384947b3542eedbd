"""A worker process for crash tests: `python crash_app.py DB_PATH EFFECTS_DIR`.

Steps append to EFFECTS_DIR/effects.log (outside the database), so the parent can count
executions after SIGKILLing this process. A step told to hang writes a ready marker and
sleeps until killed.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import tether
from tether import durable

registry = tether.Registry(deployment="crash")
EFFECTS = Path(sys.argv[2] if len(sys.argv) > 2 else ".")


def _log(line: str) -> None:
    with open(EFFECTS / "effects.log", "a") as f:
        f.write(line + "\n")
        f.flush()
        os.fsync(f.fileno())


def effect(label: str, value: int, hang_on_first: bool = False) -> int:
    info = tether.step_info()
    _log(f"start {info.run_id} {label} {info.attempt} {info.idempotency_key}")
    if hang_on_first and info.attempt == 1:
        (EFFECTS / f"ready-{info.run_id}-{label}").touch()
        time.sleep(3600)
    _log(f"end {info.run_id} {label} {info.attempt}")
    return value + 1


def flaky(label: str) -> str:
    info = tether.step_info()
    _log(f"start {info.run_id} {label} {info.attempt} {info.idempotency_key}")
    if info.attempt == 1:
        raise tether.RetryableError("try later", retry_after=2.0)
    _log(f"end {info.run_id} {label} {info.attempt}")
    return "ok"


@registry.workflow(name="chain")
async def chain(ctx: tether.WorkflowContext, hang: str) -> int:
    value = 0
    for label in ("a", "b", "c"):
        value = await ctx.step(effect, label, value, hang == label, name=label)
    return value


@registry.workflow(name="sleeper")
async def sleeper(ctx: tether.WorkflowContext) -> int:
    value = await ctx.step(effect, "a", 0, name="a")
    await ctx.sleep(1.5)
    return await ctx.step(effect, "b", value, name="b")


@registry.workflow(name="hooked")
async def hooked(ctx: tether.WorkflowContext) -> object:
    await ctx.step(effect, "a", 0, name="a")
    decision = await ctx.create_hook(token=f"ok-{ctx.run_id}")
    await ctx.step(effect, "b", 0, name="b")
    return decision


@registry.workflow(name="backoff")
async def backoff(ctx: tether.WorkflowContext) -> str:
    await ctx.step(effect, "a", 0, name="a")
    return await ctx.step(flaky, "f", name="f")


@registry.workflow(name="many")
async def many(ctx: tether.WorkflowContext, n: int) -> int:
    total = 0
    for i in range(n):
        total = await ctx.step(effect, f"s{i}", total, name=f"s{i}")
    return total


async def _hang_once(run_id: str, where: str, hang: str) -> None:
    # Once per run: the attempt after the kill may well be attempt 1 again.
    marker = EFFECTS / f"ready-{run_id}-{where}"
    if hang == where and not marker.exists():
        marker.touch()
        await asyncio.sleep(3600)


async def reader(hang: str) -> int:
    """A read-ahead step: it reads (perhaps hanging there, before asking for its start),
    then asks for its start and makes its effect (perhaps hanging after)."""
    info = tether.step_info()
    _log(f"read {info.run_id} r {info.attempt}")
    await _hang_once(info.run_id, "reading", hang)
    await durable.step_started()
    _log(f"start {info.run_id} r {info.attempt} {info.idempotency_key}")
    await _hang_once(info.run_id, "started", hang)
    _log(f"end {info.run_id} r {info.attempt}")
    return 1


@registry.workflow(name="ahead")
async def ahead(ctx: tether.WorkflowContext, hang: str) -> int:
    return await ctx.step(reader, hang, name="r", read_ahead=True)


async def main() -> None:
    async with tether.open_backend(f"sqlite:///{sys.argv[1]}") as backend:
        worker = tether.Worker(
            backend, registry, concurrency=8, poll_interval=0.05, lease_seconds=30
        )
        eager = os.environ.get("EAGER_RUN")
        if not eager:
            await worker.run_forever()
            return
        async with worker:
            # Started on this worker at once, not through the queue (an eager start).
            await worker.client.start("chain", "b", run_id=eager)
            await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
