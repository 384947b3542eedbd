"""Chains from outside: streams that go on across moves, and taking a parked run over.

`Client.take_over` holds a parked run so that no worker runs it, and moves it to a
successor under the client's deployment (new code) or hands it back; payloads sent
while it is held reach the successor once. On every backend.
"""

from __future__ import annotations

import asyncio
from typing import Any

import tether
from tether.durable import step_stream
from tether.stores import Backend

v1 = tether.Registry(deployment="v1")
v2 = tether.Registry(deployment="v2")
gates: dict[str, asyncio.Event] = {}


async def publish(values: list[Any]) -> int:
    stream = step_stream("out")
    for value in values:
        stream.write(str(value).encode())
    return len(values)


async def wait_gate(name: str) -> str:
    await gates[name].wait()
    return name


def define(registry: tether.Registry, tag: str) -> None:
    @registry.workflow(name="mailbox")
    async def mailbox(ctx: tether.WorkflowContext, got: list[Any], every: int) -> Any:
        hook = ctx.create_hook(token=f"box-{ctx.chain_id}")
        while True:
            value = await hook
            if value == "gate":
                await ctx.step(wait_gate, ctx.chain_id, name="gate")
                continue
            await ctx.step(publish, [f"{tag}:{value}"], name="publish")
            got = [*got, f"{tag}:{value}"]
            if value == "stop":
                return {"got": got, "generation": ctx.generation}
            if every and len(got) % every == 0:
                await ctx.continue_as_new(got, every)


define(v1, "v1")
define(v2, "v2")


async def out(client: tether.Client, chain: str) -> list[tuple[int, str]]:
    return [(c.index, c.data.decode()) for c in await client.stream(chain, "out").read_all()]


async def test_a_stream_goes_on_across_continue_as_new(backend: Backend) -> None:
    client = tether.Client(backend, registry=v1)
    async with tether.Worker(backend, v1, poll_interval=0.02):
        handle = await client.start("mailbox", [], 2, run_id="s1")
        follower = asyncio.ensure_future(
            _collect(client.stream("s1", "out").follow(0, poll_interval=0.01))
        )
        for value in ["a", "b", "c", "d", "stop"]:
            await _send(client, "box-s1", value)
        result = await handle.result(timeout=20)
        assert result["generation"] == 2
        expected = [(i, f"v1:{v}") for i, v in enumerate(["a", "b", "c", "d", "stop"])]
        assert await out(client, "s1") == expected
        # Read through any run of the chain: the same stream.
        assert await out(client, "s1~2") == expected
        # A follower from the first run's start saw every chunk and ended with the chain.
        assert await asyncio.wait_for(follower, 10) == [v for _, v in expected]


async def test_take_over_moves_a_parked_run_to_the_new_deployment(backend: Backend) -> None:
    old, new = tether.Client(backend, registry=v1), tether.Client(backend, registry=v2)
    async with tether.Worker(backend, v1, poll_interval=0.02):
        handle = await old.start("mailbox", [], 0, run_id="t1")
        await _send(old, "box-t1", "a")
        await _wait_published(old, "t1", 1)
    # The v1 workers are gone; the run waits on its hook.
    held = await new.take_over("t1")
    assert held is not None and (held.run_id, held.deployment) == ("t1", "v1")
    # Sent while it is held: carried to the successor, once.
    await new.resume_hook("box-t1", "b")
    successor = await held.continue_as_new(["moved"], 0)
    assert successor == "t1~1"
    info = await new.latest("t1")
    assert (info.run_id, info.deployment, info.status) == ("t1~1", "v2", "pending")
    assert (await (await new.get("t1", follow=False)).info()).status == "continued"
    async with tether.Worker(backend, v2, poll_interval=0.02):
        await _send(new, "box-t1", "stop")
        result = await handle.result(timeout=20)
    assert result == {"got": ["moved", "v2:b", "v2:stop"], "generation": 1}
    assert [v for _, v in await out(new, "t1")] == ["v1:a", "v2:b", "v2:stop"]


async def test_take_over_is_refused_while_a_worker_runs_the_run(backend: Backend) -> None:
    client = tether.Client(backend, registry=v1)
    gates["t2"] = asyncio.Event()
    async with tether.Worker(backend, v1, poll_interval=0.02):
        handle = await client.start("mailbox", [], 0, run_id="t2")
        await _send(client, "box-t2", "gate")
        for _ in range(500):
            steps = await handle.steps()
            if any(s.name.endswith("//gate") for s in steps):
                break
            await asyncio.sleep(0.01)
        assert await client.take_over("t2") is None  # a step runs: not parked
        gates["t2"].set()
        await _send(client, "box-t2", "stop")
        assert (await handle.result(timeout=20))["got"] == ["v1:stop"]
        assert await client.take_over("t2") is None  # ended


async def test_a_released_take_over_leaves_the_run_as_it_was(backend: Backend) -> None:
    client = tether.Client(backend, registry=v1)
    async with tether.Worker(backend, v1, poll_interval=0.02):
        handle = await client.start("mailbox", [], 0, run_id="t3")
        await _send(client, "box-t3", "a")
        await _wait_published(client, "t3", 1)
        async with await _take(client, "t3"):
            # Held: a payload waits for the hand-back.
            await client.resume_hook("box-t3", "b")
        await _send(client, "box-t3", "stop")
        result = await handle.result(timeout=20)
    assert result == {"got": ["v1:a", "v1:b", "v1:stop"], "generation": 0}


async def _take(client: tether.Client, run_id: str) -> tether.durable.Takeover:
    for _ in range(500):
        held = await client.take_over(run_id)
        if held is not None:
            return held
        await asyncio.sleep(0.01)
    raise AssertionError(f"{run_id} never parked")


async def _send(client: tether.Client, token: str, value: Any) -> None:
    for _ in range(500):
        try:
            await client.resume_hook(token, value)
            return
        except tether.errors.NotFoundError:
            await asyncio.sleep(0.01)  # the run has not created its hook yet
    raise AssertionError(f"no hook {token}")


async def _wait_published(client: tether.Client, chain: str, n: int) -> None:
    for _ in range(1000):
        if len(await out(client, chain)) >= n:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("nothing published")


async def _collect(chunks: Any) -> list[str]:
    return [c.data.decode() async for c in chunks]
