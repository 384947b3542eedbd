"""Worker internals: an abandoned activation hands its run back, after its step threads."""

from __future__ import annotations

import asyncio
import threading

import tether
from tether.stores import Backend

registry = tether.Registry(deployment="test-worker")
entered = threading.Event()
release = threading.Event()
bodies: list[int] = []


def blocking(i: int) -> int:
    bodies.append(i)
    entered.set()
    release.wait(10)
    return i


@registry.workflow(name="one_blocking_step")
async def one_blocking_step(ctx: tether.WorkflowContext) -> int:
    return await ctx.step(blocking, 7)


async def test_abandoned_run_is_released_once_its_step_thread_returns(backend: Backend) -> None:
    entered.clear()
    release.clear()
    bodies.clear()
    store = backend.stores.workflow
    async with tether.Worker(backend, registry, poll_interval=0.05) as worker:
        handle = await tether.Client(backend, registry=registry).start(one_blocking_step)
        await asyncio.to_thread(entered.wait, 10)
        activation, _ = worker._activations[handle.run_id]
        # As on a lost lease or a store outage: the activation gives the run up.
        activation.abandon()
        await asyncio.sleep(0.2)
        run = await store.get_run(handle.run_id)
        # The body still runs in its thread: handing the run over now would let a
        # second worker execute the step at the same time.
        assert run is not None and run.lease_owner == worker.worker_id
        release.set()
        for _ in range(25):
            run = await store.get_run(handle.run_id)
            if run is not None and run.lease_owner is None:
                break
            await asyncio.sleep(0.02)
        else:
            # Left leased to a live worker, its message would look busy to other
            # workers, which drop it: nothing would activate the run again.
            raise AssertionError("the abandoned run was not released")
        # Released with its message: the run is activated again and finishes.
        assert await handle.result(timeout=10) == 7
    assert bodies == [7, 7]
