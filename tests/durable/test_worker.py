"""Worker internals: abandoned and lapsed activations never run a step alongside a newer one."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import tether
from tether.stores import Backend, Commit

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


spans: list[tuple[str, float]] = []


def blocking_traced(i: int) -> int:
    spans.append(("start", time.monotonic()))
    entered.set()
    release.wait(10)
    spans.append(("end", time.monotonic()))
    return i


@registry.workflow(name="one_traced_step")
async def one_traced_step(ctx: tether.WorkflowContext) -> int:
    return await ctx.step(blocking_traced, 3)


async def test_a_run_back_under_a_new_epoch_waits_for_the_old_step_body(backend: Backend) -> None:
    """Its lease lapsed (a store outage) and the run came back to the same worker."""
    entered.clear()
    release.clear()
    spans.clear()
    store = backend.stores.workflow
    async with tether.Worker(backend, registry, poll_interval=0.02) as worker:
        handle = await tether.Client(backend, registry=registry).start(one_traced_step)
        await asyncio.to_thread(entered.wait, 10)
        old, _ = worker._activations[handle.run_id]
        # As if the lease and the message lease had lapsed: the worker takes the run again.
        await store.expire_worker(worker.worker_id)
        for _ in range(100):
            run = await store.get_run(handle.run_id)
            if run is not None and run.lease_epoch > old.epoch:
                break
            await asyncio.sleep(0.02)
        else:
            raise AssertionError("the run was not claimed again")
        await asyncio.sleep(0.3)
        assert [kind for kind, _ in spans] == ["start"]  # the new activation waits
        release.set()
        assert await handle.result(timeout=10) == 3
    kinds = [kind for kind, _ in spans]
    assert kinds == ["start", "end", "start", "end"], kinds  # one after the other


async def add_one(i: int) -> int:
    return i + 1


@registry.workflow(name="two_quick_steps")
async def two_quick_steps(ctx: tether.WorkflowContext) -> int:
    return await ctx.step(add_one, await ctx.step(add_one, 0))


async def test_every_commit_renews_the_lease(backend: Backend, record_calls: Any) -> None:
    """A commit that lands after an outage outlasted the lease must not leave it lapsed."""
    seen: list[Commit] = record_calls(backend.stores.workflow, "commit")
    async with tether.Worker(backend, registry, lease_seconds=12.0, poll_interval=0.02):
        handle = await tether.Client(backend, registry=registry).start(two_quick_steps)
        assert await handle.result(timeout=10) == 2
    ours = [c for c in seen if c.run_id == handle.run_id]
    # Every commit that keeps the run renews its lease; only hand-backs (a loaded machine
    # may make the worker give a run back rather than start a step on a short lease) and
    # the end release it.
    kept = [c.lease_seconds for c in ours if not c.release]
    assert len(kept) >= 2 and kept == [12.0] * len(kept)
    assert all(c.lease_seconds is None for c in ours if c.release)
    assert ours[-1].release and ours[-1].lease_seconds is None


async def test_a_worker_client_starts_runs_on_the_worker_at_once(backend: Backend) -> None:
    store = backend.stores.workflow
    taken = []
    claim_next = store.claim_next

    async def counting(*args: Any, **kwargs: Any) -> Any:
        found = await claim_next(*args, **kwargs)
        taken.extend(c.run.run_id for _, c in found if c.run is not None)
        return found

    async with tether.Worker(backend, registry, poll_interval=0.02, concurrency=2) as worker:
        worker_store = worker.backend.stores.workflow
        setattr(worker_store, "claim_next", counting)  # noqa: B010
        client = worker.client
        eager = await client.start(two_quick_steps)
        assert await eager.result(timeout=10) == 2
        # Never went through the queue: claimed once, at its creation.
        assert eager.run_id not in taken
        assert (await store.get_run(eager.run_id)).lease_epoch == 1  # type: ignore[union-attr]
        # A full worker starts through the queue instead.
        entered.clear()
        release.clear()
        bodies.clear()
        busy = [await client.start(one_blocking_step) for _ in range(2)]
        # Full only once both blocking steps run (the first one entering is not enough).
        for _ in range(500):
            if len(bodies) == 2:
                break
            await asyncio.sleep(0.02)
        else:
            raise AssertionError(f"the worker never ran both blocking steps: {bodies}")
        queued = await client.start(two_quick_steps)
        release.set()
        assert [await h.result(timeout=10) for h in busy] == [7, 7]
        assert await queued.result(timeout=10) == 2
        assert queued.run_id in taken


async def test_a_dead_worker_here_is_gone_before_a_new_worker_shows_as_registered(
    backend: Backend,
) -> None:
    """A worker visible in the store has already reaped the dead workers of its host.

    `tether dev` (and any supervisor) treats a registered worker as serving; clients then
    judge whether a run's code is still served from the worker records. A dead worker's
    record seen alongside the new one would make its runs look served, not stranded.
    """
    import subprocess
    import sys

    from tether.durable._hosts import host_identity
    from tether.stores import WorkerRecord

    store = backend.stores.workflow
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    now = await store.clock()
    await store.register_worker(
        WorkerRecord(
            worker_id="dead-here",
            host="h",
            pid=int(gone.stdout),
            deployment="old",
            engine_version="old",
            started_at=now,
            heartbeat_at=now,
            host_id=host_identity(),
        )
    )
    seen_at_registration: list[list[str]] = []
    register = store.register_worker

    async def registering(record: WorkerRecord) -> None:
        await register(record)
        # What a supervisor polling the worker records sees the moment this one shows.
        seen_at_registration.append([w.worker_id for w in await store.list_workers()])

    setattr(store, "register_worker", registering)  # noqa: B010
    try:
        async with tether.Worker(backend, registry, poll_interval=0.02):
            pass
    finally:
        setattr(store, "register_worker", register)  # noqa: B010
    assert seen_at_registration and "dead-here" not in seen_at_registration[0]
