"""A step's wait for a permit of a step-level limit is a span of its own."""

from __future__ import annotations

from _telemetry import Telemetry

import tether
from tether.durable import Registry

registry = Registry(deployment="otel-limits")
registry.limit("one", concurrency=1)


def work() -> str:
    return "done"


@registry.workflow(name="otel.limited")
async def limited(ctx: tether.WorkflowContext) -> str:
    return await ctx.step(work, name="work", limit="one")


async def test_a_wait_for_a_permit_is_a_span_under_the_run(telemetry: Telemetry) -> None:
    async with tether.open_backend("memory://") as backend:
        store = backend.stores.workflow
        one = registry.limits["one"]
        # Another holder has the place for a moment: the step waits for it.
        held = await store.acquire_permit("one", holder="x", limit=one, lease_seconds=0.2)
        assert held.granted
        async with tether.Worker(backend, registry, poll_interval=0.01) as worker:
            handle = await worker.client.start(limited)
            assert await handle.result(timeout=10) == "done"
        [wait] = await telemetry.wait_for("limit wait one")
        [step] = await telemetry.wait_for("step work")
    assert wait.attributes is not None
    assert wait.attributes["tether.limit.name"] == "one"
    assert wait.attributes["tether.run.id"] == handle.run_id
    assert wait.context is not None and step.context is not None
    assert wait.context.trace_id == step.context.trace_id  # the run's trace
    assert wait.end_time is not None and wait.start_time is not None
    assert wait.end_time - wait.start_time > 0
