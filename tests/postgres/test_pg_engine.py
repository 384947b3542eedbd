"""The engine on Postgres: steps, sleeps, hooks, child runs, and cross-process wake-ups."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import tether
from tether.stores import NewMessage
from tether.stores.postgres import PostgresBackend

pytestmark = pytest.mark.postgres

APP = Path(__file__).with_name("wake_app.py")
registry = tether.Registry(deployment="pg-tests")
calls: list[tuple[int, int]] = []


def add(a: int, b: int) -> int:
    calls.append((a, b))
    return a + b


@registry.workflow(name="double")
async def double(ctx: tether.WorkflowContext, x: int) -> int:
    return x * 2


@registry.workflow(name="pipeline")
async def pipeline(ctx: tether.WorkflowContext, n: int, token: str) -> dict[str, Any]:
    total = 0
    for i in range(n):
        total = await ctx.step(add, total, i)
    await ctx.sleep(0.2)
    decision = await ctx.create_hook(token=token)
    child = await ctx.start_child(double, total)
    return {"total": total, "child": await child.result(), "decision": decision}


@registry.workflow(name="waits")
async def waits(ctx: tether.WorkflowContext, token: str) -> Any:
    return await ctx.create_hook(token=token)


async def resume_when_ready(client: tether.Client, token: str, payload: Any) -> None:
    for _ in range(200):
        try:
            await client.resume_hook(token, payload)
            return
        except tether.TetherError:
            await asyncio.sleep(0.02)
    raise AssertionError(f"hook {token!r} never appeared")


async def test_pipeline_end_to_end(pg_backend: PostgresBackend) -> None:
    calls.clear()
    async with tether.Worker(pg_backend, registry, concurrency=8, poll_interval=0.05):
        client = tether.Client(pg_backend)
        handle = await client.start(pipeline, 5, "approve-1", run_id="order-1")
        again = await client.start(pipeline, 5, "approve-1", run_id="order-1")
        assert again.run_id == handle.run_id
        await resume_when_ready(client, "approve-1", {"ok": True})
        result = await handle.result(timeout=20)
    assert result == {"total": 10, "child": 20, "decision": {"ok": True}}
    assert calls == [(0, 0), (0, 1), (1, 2), (3, 3), (6, 4)]
    steps = await handle.steps()
    assert [s.status for s in steps] == ["completed"] * 5
    assert all(s.attempt == 1 for s in steps)


def run_app(url: str, namespace: str, action: str, arg: str) -> None:
    subprocess.run([sys.executable, str(APP), url, namespace, action, arg], check=True, timeout=60)


async def test_hook_resumed_by_another_process_wakes_at_once(
    pg_backend: PostgresBackend, pg_url: str, pg_namespace: str
) -> None:
    # Poll interval 5 s: only a notification can finish this run within the bound.
    async with tether.Worker(pg_backend, registry, poll_interval=5.0):
        client = tether.Client(pg_backend)
        handle = await client.start(waits, "cross-1")
        for _ in range(200):
            if await pg_backend.stores.workflow.get_hook("cross-1") is not None:
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.2)  # the worker is now idle, waiting on its queue
        await asyncio.to_thread(run_app, pg_url, pg_namespace, "resume", "cross-1")
        resumed = time.monotonic()
        assert await handle.result(timeout=10) == {"from": "elsewhere"}
        latency = time.monotonic() - resumed
    assert latency < 1.5, f"woke after {latency:.2f}s; the 5 s poll was not bypassed"


async def test_stream_followers_see_chunks_of_another_process(
    pg_backend: PostgresBackend, pg_url: str, pg_namespace: str
) -> None:
    store = pg_backend.stores.workflow
    seen: list[bytes] = []

    async def follow() -> None:
        async for chunk in store.follow_stream("run-s", "out", poll_interval=5.0):
            seen.append(chunk.data)

    follower = asyncio.create_task(follow())
    await asyncio.sleep(0.2)
    await asyncio.to_thread(run_app, pg_url, pg_namespace, "stream", "run-s/out")
    written = time.monotonic()
    await asyncio.wait_for(follower, 10)
    assert seen == [b"one", b"two"]
    assert time.monotonic() - written < 1.5


async def test_dequeue_skips_locked_messages(pg_backend: PostgresBackend) -> None:
    store = pg_backend.stores.workflow
    now = time.time()
    ids = {
        await store.enqueue(NewMessage(queue="q", payload=b"%d" % i, available_at=now))
        for i in range(20)
    }
    batches = await asyncio.gather(
        *(store.dequeue("q", owner=f"w{i}", lease_seconds=30, limit=5) for i in range(4))
    )
    taken = [m.message_id for batch in batches for m in batch]
    assert len(taken) == len(set(taken)) == 20
    assert set(taken) == ids


async def test_idempotency_key_absorbs_pending_duplicates(pg_backend: PostgresBackend) -> None:
    store = pg_backend.stores.workflow
    now = time.time()
    message = NewMessage(queue="q", payload=b"x", available_at=now + 60, idempotency_key="k")
    ids = await asyncio.gather(*(store.enqueue(message) for _ in range(8)))
    assert len(set(ids)) == 1
    sooner = NewMessage(queue="q", payload=b"x", available_at=now, idempotency_key="k")
    assert await store.enqueue(sooner) == ids[0]
    [delivered] = await store.dequeue("q", owner="w", lease_seconds=30, limit=10)
    # Once delivery starts the key is free again: a new wake-up is not absorbed.
    assert await store.enqueue(sooner) != delivered.message_id


async def test_delayed_message_wakes_a_waiter_when_due(pg_backend: PostgresBackend) -> None:
    store = pg_backend.stores.workflow
    await store.enqueue(NewMessage(queue="later", payload=b"t", available_at=time.time() + 0.3))
    started = time.monotonic()
    got: list[Any] = []
    while not got and time.monotonic() - started < 5:
        # Notifications may wake it early (spuriously); the due time must wake it late.
        await store.wait_for_messages("later", 5.0)
        got = await store.dequeue("later", owner="w", lease_seconds=5, limit=1)
    assert len(got) == 1
    assert time.monotonic() - started < 1.0


async def test_an_idle_worker_waits_for_notifications_not_its_poll_interval(
    pg_backend: PostgresBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the listener up, a short poll interval costs no queue re-reads, yet new work
    still starts at once."""
    store = pg_backend.stores.workflow
    claims: list[float] = []
    claim_next = store.claim_next

    async def counting(*args: Any, **kwargs: Any) -> Any:
        claims.append(time.monotonic())
        return await claim_next(*args, **kwargs)

    monkeypatch.setattr(store, "claim_next", counting)
    async with tether.Worker(pg_backend, registry, poll_interval=0.01):
        await asyncio.sleep(0.6)
        idle = len(claims)
        started = time.monotonic()
        handle = await tether.Client(pg_backend).start(double, 21)
        assert await handle.result(timeout=10) == 42
        assert time.monotonic() - started < 0.5
    assert idle <= 3, f"an idle worker re-read the queue {idle} times in 0.6 s"
