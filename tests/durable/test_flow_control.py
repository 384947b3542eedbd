"""Flow control through workers: limits declared on a registry, held by the store."""

from __future__ import annotations

import asyncio
import collections
import time

import pytest

import tether
from tether.durable import MAX_PRIORITY, FlowLimit
from tether.errors import FlowLimitError
from tether.stores import Backend

registry = tether.Registry(deployment="flow-engine")
registry.limit("pool", concurrency=2)
registry.limit("tenants", concurrency=1, key="tenant")
registry.limit("pace", per_second=40, burst=1)

running: collections.Counter[str] = collections.Counter()
peaks: collections.Counter[str] = collections.Counter()
started: list[float] = []


async def hold(group: str, seconds: float) -> None:
    running[group] += 1
    running["all"] += 1
    peaks[group] = max(peaks[group], running[group])
    peaks["all"] = max(peaks["all"], running["all"])
    await asyncio.sleep(seconds)
    running[group] -= 1
    running["all"] -= 1


@registry.workflow(name="pooled", limits=["pool"])
async def pooled(ctx: tether.WorkflowContext) -> None:
    await ctx.step(hold, "pool", 0.04)


@registry.workflow(name="per_tenant", limits=["tenants"])
async def per_tenant(ctx: tether.WorkflowContext, tenant: str) -> None:
    await ctx.step(hold, tenant, 0.04)


async def stamp() -> None:
    started.append(time.monotonic())


@registry.workflow(name="paced", limits=["pace"])
async def paced(ctx: tether.WorkflowContext) -> None:
    await ctx.step(stamp)


def _reset() -> None:
    running.clear()
    peaks.clear()
    started.clear()


async def test_a_concurrency_limit_holds_across_two_workers(backend: Backend) -> None:
    _reset()
    options = {"concurrency": 4, "poll_interval": 0.02}
    async with (
        tether.Worker(backend, registry, **options) as one,
        tether.Worker(backend, registry, **options),
    ):
        # Through a worker's client: a limited run is never started eagerly past the limit.
        handles = [await one.client.start(pooled) for _ in range(8)]
        for handle in handles:
            await handle.result(timeout=20)
    assert peaks["pool"] == 2  # both places used, never a third


async def test_a_keyed_limit_holds_per_label_value() -> None:
    # The store's keyed counting is in the contract on every backend; this is the engine's.
    _reset()
    async with (
        tether.open_backend("memory://") as backend,
        tether.Worker(backend, registry, concurrency=8, poll_interval=0.02),
    ):
        client = tether.Client(backend, registry=registry)
        handles = [
            await client.start(per_tenant, t, labels={"tenant": t}) for t in ("acme", "bolt") * 3
        ]
        for handle in handles:
            await handle.result(timeout=20)
    assert peaks["acme"] == peaks["bolt"] == 1
    assert peaks["all"] == 2  # the tenants ran side by side


async def test_a_rate_limit_holds_approximately(backend: Backend) -> None:
    _reset()
    client = tether.Client(backend, registry=registry)
    async with (
        tether.Worker(backend, registry, concurrency=8, poll_interval=0.02),
        tether.Worker(backend, registry, concurrency=8, poll_interval=0.02),
    ):
        handles = [await client.start(paced) for _ in range(16)]
        for handle in handles:
            await handle.result(timeout=20)
    span = max(started) - min(started)
    # 15 tokens after the first at 40 a second: 0.375 s. Generous bounds, never tight.
    assert span >= 0.375 * 0.8
    assert span < 5.0


async def test_priorities_order_a_queue_under_flow_control() -> None:
    order: list[str] = []
    prio = tether.Registry(deployment="flow-priority")

    async def note(name: str) -> None:
        order.append(name)

    @prio.workflow(name="job", priority=0)
    async def job(ctx: tether.WorkflowContext, name: str) -> None:
        await ctx.step(note, name)

    @prio.workflow(name="urgent", priority=5)
    async def urgent(ctx: tether.WorkflowContext, name: str) -> None:
        await ctx.step(note, name)

    async with tether.open_backend("memory://") as backend:
        client = tether.Client(backend, registry=prio)
        handles = [
            await client.start(job, "low"),
            await client.start(job, "boosted", labels=tether.priority_labels(9)),
            await client.start(urgent, "urgent"),
        ]
        async with tether.Worker(backend, prio, concurrency=1, poll_interval=0.02):
            for handle in handles:
                await handle.result(timeout=10)
    assert order == ["boosted", "urgent", "low"]


def test_bad_declarations_are_refused_with_a_typed_error() -> None:
    reg = tether.Registry(deployment="flow-bad")
    with pytest.raises(FlowLimitError, match="bounds nothing"):
        reg.limit("none")
    with pytest.raises(FlowLimitError, match="concurrency must be an integer"):
        reg.limit("zero", concurrency=0)
    with pytest.raises(FlowLimitError, match="per_second must be a positive number"):
        reg.limit("neg", per_second=-1)
    with pytest.raises(FlowLimitError, match="burst sizes a rate"):
        reg.limit("b", concurrency=1, burst=3)
    with pytest.raises(FlowLimitError, match="must be 1-64 letters"):
        reg.limit("a=b", concurrency=1)
    with pytest.raises(FlowLimitError, match="key is the label key"):
        reg.limit("k", concurrency=1, key="")
    assert reg.limit("ok", per_second=2.5) == FlowLimit(name="ok", per_second=2.5, burst=3)
    with pytest.raises(FlowLimitError, match="declared already"):
        reg.limit("ok", concurrency=1)
    with pytest.raises(FlowLimitError, match="list of limit names"):
        reg.workflow(name="w", limits="ok")  # type: ignore[arg-type]
    with pytest.raises(FlowLimitError, match="priority must be an integer"):
        reg.workflow(name="w", priority=MAX_PRIORITY + 1)
    with pytest.raises(FlowLimitError, match="priority_aging"):
        tether.Registry(priority_aging=0)
    with pytest.raises(FlowLimitError, match="priority must be an integer"):
        tether.priority_labels(1.5)  # type: ignore[arg-type]


async def test_a_worker_refuses_a_workflow_naming_an_undeclared_limit() -> None:
    reg = tether.Registry(deployment="flow-undeclared")

    @reg.workflow(name="w", limits=["missing"])
    async def w(ctx: tether.WorkflowContext) -> None:
        return None

    async with tether.open_backend("memory://") as backend:
        with pytest.raises(FlowLimitError, match="does not declare") as caught:
            tether.Worker(backend, reg)
    assert caught.value.limit == "missing"
