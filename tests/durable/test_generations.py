"""Dev generations: new runs moved to a generation, dormant runs refused, on every backend."""

from __future__ import annotations

import asyncio

import pytest

import tether
from tether.durable import Forwarder, dev_generation, forward_new_runs, is_dev_generation
from tether.errors import RunDormantError, StrandedRunError
from tether.stores import Backend


def make(deployment: str) -> tether.Registry:
    registry = tether.Registry(deployment=deployment)

    def where() -> str:
        return deployment

    @registry.workflow(name="job")
    async def job(ctx: tether.WorkflowContext, n: int) -> str:
        got = await ctx.create_hook(token=f"go-{ctx.chain_id}")
        return f"{await ctx.step(where, name='where')} {n} {got}"

    return registry


async def parked(backend: Backend, token: str) -> None:
    for _ in range(1000):
        if await backend.stores.workflow.get_hook(token) is not None:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{token} never parked")


def test_generation_names() -> None:
    name = dev_generation("shop", "0123abcd")
    assert name == "shop+dev.0123abcd" and is_dev_generation(name)
    assert not is_dev_generation("shop") and tether.Registry(deployment=name).deployment == name


async def test_new_runs_move_to_the_generation_before_their_first_step(backend: Backend) -> None:
    app, generation = make("shop"), make(dev_generation("shop", "aaaa"))
    client = tether.Client(backend, registry=app)
    handle = await client.start("job", 7, run_id="r1")
    moved = await forward_new_runs(
        backend, source="shop", target=generation.deployment, owner="test"
    )
    assert moved == 1
    store = backend.stores.workflow
    first, successor = await store.get_run("r1"), await store.get_run("r1~1")
    assert first is not None and first.status == "continued"
    assert successor is not None and successor.deployment == "shop+dev.aaaa"
    assert successor.queue == generation.queue and successor.chain_id == "r1"
    async with tether.Worker(backend, generation, poll_interval=0.02):
        await parked(backend, "go-r1")
        await client.resume_hook("go-r1", "yes")
        assert await handle.result(timeout=15) == "shop+dev.aaaa 7 yes"
    assert (await handle.info()).deployment == "shop+dev.aaaa"


async def test_a_run_that_already_ran_is_not_moved(backend: Backend) -> None:
    app = make("shop")
    client = tether.Client(backend, registry=app)
    async with tether.Worker(backend, app, poll_interval=0.02):
        await client.start("job", 1, run_id="old")
        await parked(backend, "go-old")
        await backend.stores.workflow.resume_hook("go-old", b"")  # a wake-up on shop's queue
    assert await forward_new_runs(backend, source="shop", target="shop+dev.b", owner="t") == 0
    run = await backend.stores.workflow.get_run("old")
    assert run is not None and run.deployment == "shop" and run.status == "running"
    assert await backend.stores.workflow.get_run("old~1") is None


async def test_sends_to_a_dormant_generation_are_refused(backend: Backend) -> None:
    app = make("shop")
    old, current = make(dev_generation("shop", "old")), make(dev_generation("shop", "new"))
    client = tether.Client(backend, registry=app)
    async with Forwarder(backend, source="shop", target=old.deployment) as forwarder:
        await client.start("job", 1, run_id="d1")
        assert await forwarder.forward() == 1
        async with tether.Worker(backend, old, poll_interval=0.02):
            await parked(backend, "go-d1")
        # Generation "old" is served no more; "new" is (and the forwarder serves "shop").
        async with tether.Worker(backend, current, poll_interval=0.02):
            with pytest.raises(RunDormantError, match="--resume") as refused:
                await client.resume_hook("go-d1", "lost")
            assert isinstance(refused.value, StrandedRunError)
            assert refused.value.deployment == "shop+dev.old"
            events = await backend.stores.workflow.list_events("d1~1")
            assert "hook_received" not in [e.event_type for e in events]
            # A run of an ordinary deployment nobody serves still takes payloads: they
            # wait for its workers, as in any rolling deploy.
            other = make("other")
            async with tether.Worker(backend, other, poll_interval=0.02):
                await tether.Client(backend, registry=other).start("job", 2, run_id="p1")
                await parked(backend, "go-p1")
            await client.resume_hook("go-p1", "kept")
            await client.resume_hook("go-p1", "kept again")  # the token is known now
            events = await backend.stores.workflow.list_events("p1")
            assert [e.event_type for e in events].count("hook_received") == 2
