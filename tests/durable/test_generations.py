"""Dev generations: new runs moved to a generation, dormant runs refused, on every backend."""

from __future__ import annotations

import asyncio

import pytest

import tether
from tether._codec import encode
from tether.durable import Forwarder, dev_generation, forward_new_runs, is_dev_generation
from tether.errors import RunDormantError, StrandedRunError
from tether.stores import Backend, Commit, Continuation, NewEvent, NewRun


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
    # A wake-up on shop's queue, once the worker stopped (a worker still running could
    # take it first: the test lost that race under load).
    await backend.stores.workflow.resume_hook("go-old", b"")
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
            # Held by someone (a take-over moving it elsewhere), it takes the payload:
            # the holder carries it to where the run goes.
            await backend.stores.workflow.claim_run("d1~1", owner="mover", lease_seconds=30)
            await client.resume_hook("go-d1", "carried")
            events = await backend.stores.workflow.list_events("d1~1")
            assert [e.event_type for e in events].count("hook_received") == 1
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


async def test_a_fresh_run_holding_moved_hooks_moves_with_its_payloads(backend: Backend) -> None:
    """A run started by a hand-off (continue-as-new) to the app's deployment holds its
    predecessor's hooks before its first step: moving it moves them, payloads and all."""
    shop = tether.Registry(deployment="shop")
    gen = tether.Registry(deployment=dev_generation("shop", "c"))
    for registry in (shop, gen):

        @registry.workflow(name="holder")
        async def holder(ctx: tether.WorkflowContext) -> list[str]:
            hook = ctx.create_hook(token=f"keep-{ctx.chain_id}")
            return [await hook, await hook]

    store = backend.stores.workflow
    handle = await tether.Client(backend, registry=shop).start("holder", run_id="h1")
    [(message, claim)] = await store.claim_next(shop.queue, owner="t", lease_seconds=30, limit=1)
    assert claim.run is not None
    hook = NewEvent(
        event_type="hook_created", correlation_id="hook_1", attrs={"slot": 1, "token": "keep-h1"}
    )
    result = await store.commit(
        Commit(
            run_id="h1", owner="t", epoch=claim.epoch, expected_head=claim.run.head, events=(hook,)
        )
    )
    successor = NewRun(
        run_id="h1~1",
        workflow_name="holder",
        input=encode({"args": [], "kwargs": {}}),
        deployment="shop",
        engine_version=claim.run.engine_version,
        queue=shop.queue,
        chain_id="h1",
        generation=1,
    )
    ended = NewEvent(
        event_type="run_continued",
        correlation_id="h1~1",
        attrs={"workflow_name": "holder", "generation": 1},
    )
    await store.commit(
        Commit(
            run_id="h1",
            owner="t",
            epoch=claim.epoch,
            expected_head=result.head,
            events=(ended,),
            ack_message_id=message.message_id,
            release=True,
            continuation=Continuation(run=successor),
        )
    )
    client = tether.Client(backend)
    await client.resume_hook("keep-h1", "early")  # to h1~1, which has not started
    assert await forward_new_runs(backend, source="shop", target=gen.deployment, owner="t") == 1
    moved = await store.get_run("h1~2")
    assert moved is not None and moved.deployment == gen.deployment
    async with tether.Worker(backend, gen, poll_interval=0.02):
        await parked(backend, "keep-h1")
        for _ in range(200):
            hooks = await store.list_hooks("h1~2")
            if hooks and hooks[0].slot == 1:  # adopted by the body
                break
            await asyncio.sleep(0.02)
        await client.resume_hook("keep-h1", "late")
        assert await handle.result(timeout=15) == ["early", "late"]
