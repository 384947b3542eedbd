"""The engine's seams for layers above it, on every backend.

A step's stream writer (live flushes, the rest with the step's commit), store writes
that ride on the step's completion (dropped with a failed attempt), checkpoints fenced
by the lease, tracked step threads, `Client.stream(...).follow()` ending with its run,
`RunHandle.input()` / `output()`.
"""

from __future__ import annotations

import asyncio
import threading

import pytest

import tether
from tether import durable
from tether.errors import ConfigurationError
from tether.stores import (
    AdmitSubmission,
    Backend,
    StreamIdentity,
    SubmissionInput,
)
from tether.stores.memory import MemoryBackend

registry = tether.Registry(deployment="scope")
seen: list[object] = []
landed: list[int] = []


def _admit(sid: str) -> AdmitSubmission:
    return AdmitSubmission(
        submission=SubmissionInput(submission_id=sid, agent_name="a", instance_id="i")
    )


async def publish(n: int, fail_first: bool) -> int:
    stream = durable.step_stream("out")
    stream.write(b"live")
    await stream.flush()
    stream.write(b"with-commit")
    attempt = durable.step_info().attempt
    durable.commit_with_step(_admit(f"sub-{attempt}"))
    durable.after_commit(lambda: landed.append(attempt))
    if fail_first and durable.step_info().attempt == 1:
        raise tether.RetryableError("again", retry_after=0.01)
    return n


@registry.workflow(name="scope.publish")
async def publishing(ctx: tether.WorkflowContext, fail_first: bool) -> int:
    return await ctx.step(publish, 7, fail_first)


async def checkpointed() -> str:
    durable.step_stream("out").write(b"before")
    await durable.checkpoint(_admit("checkpointed"))
    seen.append("checkpoint returned")
    await asyncio.sleep(0.2)
    return "done"


@registry.workflow(name="scope.checkpoint")
async def checkpointing(ctx: tether.WorkflowContext) -> str:
    return await ctx.step(checkpointed)


def where() -> str:
    return threading.current_thread().name


async def threaded() -> str:
    return await durable.to_thread(where)


@registry.workflow(name="scope.thread")
async def threading_wf(ctx: tether.WorkflowContext) -> str:
    return await ctx.step(threaded)


async def test_step_stream_and_writes_ride_on_the_completion(backend: Backend) -> None:
    landed.clear()
    async with tether.Worker(backend, registry, poll_interval=0.02):
        client = tether.Client(backend)
        handle = await client.start(publishing, True, run_id="p1")
        assert await handle.result(timeout=20) == 7
        chunks = await client.stream("p1", "out").read_all()
        # The callback runs on the worker once its commit returns, which a client
        # may see land a moment before (a busy machine).
        for _ in range(500):
            if landed:
                break
            await asyncio.sleep(0.01)
    # Attempt 1 flushed "live" and failed: its buffered chunk and its write are dropped.
    assert [c.data for c in chunks] == [b"live", b"live", b"with-commit"]
    subs = backend.stores.submissions
    assert await subs.get_submission("sub-1") is None
    assert await subs.get_submission("sub-2") is not None
    # Told once the completion landed: the failed attempt's never.
    assert landed == [2]
    assert await handle.output() == 7
    assert (await handle.input()).args == (True,)


async def test_checkpoint_is_durable_before_the_step_goes_on(backend: Backend) -> None:
    seen.clear()
    async with tether.Worker(backend, registry, poll_interval=0.02):
        client = tether.Client(backend)
        handle = await client.start(checkpointing, run_id="c1")
        for _ in range(200):
            if seen:
                break
            await asyncio.sleep(0.01)
        assert await backend.stores.submissions.get_submission("checkpointed") is not None
        chunks, _ = await backend.stores.workflow.read_stream("c1", "out")
        assert [c.data for c in chunks] == [b"before"]
        assert await handle.result(timeout=20) == "done"


async def test_to_thread_runs_on_the_step_threads(backend: Backend) -> None:
    async with tether.Worker(backend, registry, poll_interval=0.02):
        handle = await tether.Client(backend).start(threading_wf, run_id="t1")
        assert (await handle.result(timeout=20)).startswith("tether-step")


async def test_seams_outside_a_step_are_refused(backend: Backend) -> None:
    with pytest.raises(ConfigurationError, match="inside a running step"):
        durable.step_stream("x")
    with pytest.raises(ConfigurationError, match="inside a running step"):
        durable.commit_with_step(_admit("x"))
    with pytest.raises(ConfigurationError, match="inside a running step"):
        await durable.checkpoint()
    with pytest.raises(ConfigurationError, match="inside a running step"):
        durable.after_commit(lambda: None)
    with pytest.raises(ConfigurationError, match="Worker"):
        durable.current_backend()
    await backend.stores.conversations.create_stream(
        "x", StreamIdentity(agent_name="a", instance_id="i")
    )


async def test_follow_ends_when_the_run_ends(backend: Backend) -> None:
    async with tether.Worker(backend, registry, poll_interval=0.02):
        client = tether.Client(backend)
        handle = await client.start(publishing, False, run_id="f1")
        await handle.result(timeout=20)
        got = [c.data async for c in client.stream("f1", "out").follow()]
        # A follower from the tail of an ended run reads what is left, then stops.
        tail = [c.data async for c in client.stream("f1", "out").follow(-1)]
    assert got == [b"live", b"with-commit"] and tail == [b"with-commit"]


@registry.workflow(name="scope.hooked")
async def hooked(ctx: tether.WorkflowContext) -> str:
    durable_first = ctx.create_hook(token="scope-first")
    second = ctx.create_hook(token="scope-second")
    await ctx.step(publish, 1, False)
    return f"{await durable_first}-{await second}"


async def test_a_follower_that_knows_its_run_is_running_still_ends_with_it(
    backend: Backend,
) -> None:
    # `known_running`: the caller has just seen the run live, so the first look at its
    # status waits `status_interval`; the follower still ends once the run has ended,
    # with every chunk. `chain_id`: a chain's first run is the chain.
    async with tether.Worker(backend, registry, poll_interval=0.02):
        client = tether.Client(backend)
        handle = await client.start(hooked, run_id="k1")
        for _ in range(500):
            if len(await client.hooks("k1")) == 2:
                break
            await asyncio.sleep(0.01)
        hooks = await client.hooks("k1")
        assert [h.token for h in hooks] == ["scope-first", "scope-second"]
        assert [h.slot for h in hooks] == sorted(h.slot for h in hooks)
        stream = client.stream("k1", "out", chain_id="k1")
        got: list[bytes] = []

        async def follow() -> None:
            async for chunk in stream.follow(status_interval=0.1, known_running=True):
                got.append(chunk.data)

        follower = asyncio.ensure_future(follow())
        await client.resume_hook("scope-first", "a")
        await client.resume_hook("scope-second", "b")
        assert await handle.result(timeout=20) == "a-b"
        await asyncio.wait_for(follower, 10)
    assert got == [b"live", b"with-commit"]
    assert await client.hooks("k1") == []
    with pytest.raises(tether.NotFoundError):
        await client.hooks("no-such-run")


async def told_when_landed() -> str:
    store = durable.current_backend().stores.submissions

    async def check() -> None:
        told.append(await store.get_submission("told") is not None)

    durable.commit_with_step(_admit("told"))
    durable.after_commit(lambda: checks.append(asyncio.ensure_future(check())))
    return "ok"


told: list[bool] = []
checks: list[asyncio.Future[None]] = []


@registry.workflow(name="scope.told")
async def telling(ctx: tether.WorkflowContext) -> str:
    first = await ctx.step(told_when_landed)
    await ctx.sleep(0.05)
    return first


async def test_after_commit_is_told_once_the_writes_are_durable(backend: Backend) -> None:
    told.clear()
    checks.clear()
    async with tether.Worker(backend, registry, poll_interval=0.02):
        handle = await tether.Client(backend).start(telling, run_id="told-1")
        assert await handle.result(timeout=20) == "ok"
        await asyncio.gather(*checks)
    assert told == [True]


async def test_a_follower_ends_when_its_backend_is_closed(backend: Backend) -> None:
    # A closed backend is not an outage to wait through: the follower fails with a
    # StoreError at once, never retrying (as it does while the store is unavailable).
    # (Postgres raised the executor's RuntimeError; a memory follower waited forever.)
    client = tether.Client(backend)
    await client.start(hooked, run_id="c1")
    follower = asyncio.ensure_future(
        client.stream("c1", "out").follow(status_interval=0.05).__anext__()
    )
    await asyncio.sleep(0.2)
    assert not follower.done()
    await backend.close()
    with pytest.raises(tether.errors.StoreError) as raised:
        await asyncio.wait_for(follower, 5)
    assert not isinstance(raised.value, tether.errors.StoreUnavailableError)


async def test_a_closed_memory_backend_refuses_calls_and_keeps_its_data() -> None:
    # It lives in the process: connecting again finds everything. While closed it
    # behaves as a durable backend does: every store refuses, and a wait ends.
    backend = MemoryBackend()
    await backend.migrate()
    stores = await backend.connect()
    client = tether.Client(backend)
    await client.start(hooked, run_id="m1")
    waiting = asyncio.ensure_future(stores.workflow.wait_run_terminal("m1", 30))
    await asyncio.sleep(0.05)
    await backend.close()
    with pytest.raises(tether.errors.StoreError) as raised:
        await asyncio.wait_for(waiting, 5)
    assert "closed" in str(raised.value)
    refused = (
        stores.workflow.get_run("m1"),
        stores.submissions.list_running_submissions(),
        stores.conversations.get_meta("any"),
        stores.conversations.create_stream("any", StreamIdentity(agent_name="a", instance_id="i")),
        stores.attachments.purge("any"),
    )
    for call in refused:
        with pytest.raises(tether.errors.StoreError):
            await call
    assert await backend.connect() is stores
    assert await stores.conversations.get_meta("any") is None  # refused before it wrote
    run = await stores.workflow.get_run("m1")
    assert run is not None and run.status in ("pending", "running")
