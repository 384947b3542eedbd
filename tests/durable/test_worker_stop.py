"""Stopping a worker while a sync step still runs in a thread."""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from pathlib import Path

import tether

registry = tether.Registry(deployment="stop")
runs: list[tuple[str, float, float]] = []
release = threading.Event()


def slow(tag: str) -> str:
    start = time.monotonic()
    release.wait(5)
    runs.append((tag, start, time.monotonic()))
    return tag


@registry.workflow(name="slow")
async def slow_wf(ctx: tether.WorkflowContext) -> str:
    return await ctx.step(slow, "x")


async def test_stop_hands_back_a_run_only_after_its_step_thread_returns(tmp_path: Path) -> None:
    async with tether.open_backend(f"sqlite:///{tmp_path}/s.db") as backend:
        handle = await tether.Client(backend).start(slow_wf)
        first = tether.Worker(backend, registry, poll_interval=0.02, shutdown_grace=0.2)
        await first.start()
        for _ in range(200):
            if (await handle.steps()) and (await handle.steps())[0].status == "running":
                break
            await asyncio.sleep(0.01)
        await first.stop()  # the thread is still blocked: the run keeps its lease
        run = await backend.stores.workflow.get_run(handle.run_id)
        assert run is not None and run.lease_owner == first.worker_id
        release.set()
        async with tether.Worker(
            backend, registry, poll_interval=0.02, dead_after=3, heartbeat_interval=0.5
        ):
            assert await handle.result(timeout=20) == "x"
    # Never two executions of the step at once.
    spans = sorted((s, e) for _, s, e in runs)
    assert len(spans) == 2
    assert all(a_end <= b_start for (_, a_end), (b_start, _) in itertools.pairwise(spans))
