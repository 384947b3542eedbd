"""Continue-as-new and hook retention through the public API, on every backend."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest

import tether
from tether.errors import (
    ContinueAsNewError,
    ContinueAsNewUnavailableError,
    HookTokenInUseError,
    NotFoundError,
    RunCancelledError,
    UnknownWorkflowError,
)
from tether.stores import Backend

registry = tether.Registry(deployment="chain")
gates: dict[str, asyncio.Event] = {}


async def add(a: Any, b: Any) -> Any:
    return a + b


async def gate(name: str) -> str:
    await gates[name].wait()
    return name


@registry.workflow(name="counter")
async def counter(ctx: tether.WorkflowContext, n: int, total: int, last: int) -> dict[str, Any]:
    total = await ctx.step(add, total, n, name="add")
    if n < last:
        await ctx.continue_as_new(n + 1, total, last)
    return {"total": total, "run": ctx.run_id, "chain": ctx.chain_id, "generation": ctx.generation}


@registry.workflow(name="collector")
async def collector(ctx: tether.WorkflowContext, got: list[int], n: int, every: int) -> list[int]:
    hook = ctx.create_hook(token=f"inbox-{ctx.chain_id}")
    while True:
        value = await hook
        got = await ctx.step(add, got, [value], name="keep")
        if len(got) == n:
            return got
        if len(got) % every == 0:
            await ctx.continue_as_new(got, n, every)


@registry.workflow(name="mover")
async def mover(ctx: tether.WorkflowContext, k: int, last: int) -> int:
    hook = ctx.create_hook(token="contested")
    if k < last:
        await ctx.continue_as_new(k + 1, last)
    await hook
    return ctx.generation


@registry.workflow(name="stranger")
async def stranger(ctx: tether.WorkflowContext, token: str, attempts: int) -> int:
    refused = 0
    for _ in range(attempts):
        try:
            await ctx.create_hook(token=token)
        except HookTokenInUseError:
            refused += 1
    return refused


@registry.workflow(name="claimer")
async def claimer(ctx: tether.WorkflowContext, token: str) -> Any:
    try:
        hook = ctx.create_hook(token=token)
        return {"got": await hook}
    except HookTokenInUseError as exc:
        return {"refused": exc.run_id, "retained": exc.retained_until is not None}


@registry.workflow(name="spinner")
async def spinner(ctx: tether.WorkflowContext, k: int) -> int:
    await ctx.step(add, k, 1, name="tick")
    if k < 10_000:
        await ctx.continue_as_new(k + 1)
    return k


@registry.workflow(name="gated")
async def gated(ctx: tether.WorkflowContext) -> str:
    await ctx.step(gate, ctx.run_id, name="gate")
    await ctx.continue_as_new()
    return "unreachable"


@registry.workflow(name="parent")
async def parent(ctx: tether.WorkflowContext, mode: str) -> Any:
    child = await ctx.start_child(counter, 0, 0, 3, run_id=f"{ctx.run_id}-child")
    refused = None
    if mode == "continue-early":
        try:
            await ctx.continue_as_new("after")
        except ContinueAsNewError as exc:
            refused = exc.reason
    return {"child": await child.result(), "refused": refused}


@registry.workflow(name="switcher")
async def switcher(ctx: tether.WorkflowContext, target: str) -> Any:
    try:
        await ctx.continue_as_new(3, 0, 3, workflow=target)
    except UnknownWorkflowError as exc:
        return {"unknown": exc.name}
    return "unreachable"


@registry.workflow(name="asks")
async def asks(ctx: tether.WorkflowContext) -> Any:
    if not ctx.can_continue_as_new:
        try:
            await ctx.continue_as_new()
        except ContinueAsNewUnavailableError as exc:
            return list(exc.missing)
    return "moved"


@pytest.fixture(autouse=True)
def _gates() -> None:
    gates.clear()


@pytest.fixture
async def client(backend: Backend) -> AsyncIterator[tether.Client]:
    async with tether.Worker(backend, registry, poll_interval=0.02):
        yield tether.Client(backend, registry=registry)


async def send_when_ready(client: tether.Client, token: str, payload: Any) -> None:
    for _ in range(1000):
        try:
            await client.resume_hook(token, payload)
            return
        except NotFoundError:
            await asyncio.sleep(0.01)
    raise AssertionError(f"hook {token!r} never appeared")


async def test_a_run_continues_as_new_and_handles_follow_the_chain(
    client: tether.Client,
) -> None:
    handle = await client.start(counter, 0, 0, 5, run_id="c")
    outcome = await handle.result(timeout=30)
    assert outcome == {"total": 15, "run": "c~5", "chain": "c", "generation": 5}
    # A handle to any run of the chain speaks of the chain's current run ...
    for run_id in ("c", "c~2", "c~5"):
        followed = await client.get(run_id)
        assert await followed.result(timeout=5) == outcome
        info = await followed.info()
        assert (info.run_id, info.status, info.chain_id, info.generation) == (
            "c~5", "completed", "c", 5,
        )  # fmt: skip
        assert [s.output for s in await followed.steps()] == [15]
    # ... unless it is pinned to its own run, which continued.
    pinned = await client.get("c~2", follow=False)
    info = await pinned.info()
    assert (info.status, info.continued_to, info.generation) == ("continued", "c~3", 2)
    assert [s.output for s in await pinned.steps()] == [3]
    continued = await client.list_runs(status="continued")
    assert sorted(r.run_id for r in continued) == ["c", "c~1", "c~2", "c~3", "c~4"]


@pytest.mark.slow
async def test_payloads_sent_across_moves_arrive_once_and_in_order(
    client: tether.Client,
) -> None:
    n, every = 30, 3
    handle = await client.start(collector, [], n, every, run_id="col")
    store = client.backend.stores.workflow
    token = "inbox-col"
    free_after_first: list[str] = []
    done = asyncio.Event()

    async def watch() -> None:
        # The token is never free while the chain goes on: some run holds it always.
        seen = False
        while not done.is_set():
            hook = await store.get_hook(token)
            if hook is None and seen:
                current = await store.latest_run("col")
                if current is not None and current.status != "completed":
                    free_after_first.append(current.run_id)
            seen = seen or hook is not None
            await asyncio.sleep(0)

    watcher = asyncio.create_task(watch())
    await send_when_ready(client, token, 0)
    for i in range(1, n):
        await client.resume_hook(token, i)  # never NotFoundError: the token always has a run
    assert await handle.result(timeout=60) == list(range(n))
    done.set()
    await watcher
    assert free_after_first == []
    info = await handle.info()
    assert (info.run_id, info.generation) == (f"col~{n // every - 1}", n // every - 1)


async def test_a_stranger_is_refused_a_moving_token_at_every_try(client: tether.Client) -> None:
    chain = await client.start(mover, 0, 40, run_id="mv")
    store = client.backend.stores.workflow
    for _ in range(500):
        if await store.get_hook("contested") is not None:
            break
        await asyncio.sleep(0.01)
    attempts = 25
    refusals = await (await client.start(stranger, "contested", attempts)).result(timeout=30)
    assert refusals == attempts
    await send_when_ready(client, "contested", "done")
    assert await chain.result(timeout=60) == 40
    # The stranger's refusals are journaled: its replay is refused the same way.
    holder = await store.get_hook("contested")
    assert holder is None  # the chain ended; the token is retained for it, not active


async def test_a_cancel_of_the_chain_by_any_run_id(client: tether.Client) -> None:
    handle = await client.start(collector, [], 100, 2, run_id="cc")
    for i in range(5):
        await send_when_ready(client, "inbox-cc", i)
    store = client.backend.stores.workflow
    for _ in range(500):
        run = await store.latest_run("cc")
        if run is not None and run.generation == 2 and run.lease_owner is None:
            break
        await asyncio.sleep(0.01)
    await client.cancel("cc", reason="enough")  # the first run's id: the chain is cancelled
    with pytest.raises(RunCancelledError):
        await handle.result(timeout=10)
    info = await handle.info()
    assert (info.run_id, info.status) == ("cc~2", "cancelled")
    with pytest.raises(NotFoundError):
        await client.resume_hook("inbox-cc", 99)


async def test_a_cancel_racing_the_chain_stops_it(client: tether.Client) -> None:
    handle = await client.start(spinner, 0, run_id="spin")
    store = client.backend.stores.workflow
    for _ in range(1000):
        run = await store.latest_run("spin")
        if run is not None and run.generation >= 3:
            break
        await asyncio.sleep(0.005)
    old = await client.get("spin~1", follow=False)
    await old.cancel()  # a continued run: its chain's current run is cancelled
    with pytest.raises(RunCancelledError):
        await handle.result(timeout=30)
    last = await store.latest_run("spin")
    assert last is not None and last.status == "cancelled"
    assert last.generation < 10_000
    await asyncio.sleep(0.2)
    again = await store.latest_run("spin")
    assert again is not None and again.run_id == last.run_id  # nothing started after it


async def test_a_cancel_requested_before_the_continue_commit_applies_to_the_chain(
    client: tether.Client,
) -> None:
    gates["g"] = asyncio.Event()
    handle = await client.start(gated, run_id="g")
    store = client.backend.stores.workflow
    for _ in range(500):
        steps = await store.list_steps("g")
        if steps and steps[0].status == "running":
            break
        await asyncio.sleep(0.01)
    await handle.cancel(reason="before the move")  # held: asked at the next commit
    gates["g"].set()
    with pytest.raises(RunCancelledError):
        await handle.result(timeout=10)
    assert (await handle.info()).run_id == "g"
    assert await store.get_run("g~1") is None


async def test_children_block_a_continuation_and_a_child_chain_answers_its_parent(
    client: tether.Client,
) -> None:
    early = await client.start(parent, "continue-early", run_id="p1")
    outcome = await early.result(timeout=30)
    assert outcome["child"]["run"] == "p1-child~3" and outcome["child"]["total"] == 6
    assert "p1-child" in outcome["refused"]
    assert (await early.info()).run_id == "p1"  # it did not continue


async def test_continue_as_another_workflow_of_the_deployment(client: tether.Client) -> None:
    handle = await client.start(switcher, "counter", run_id="sw")
    assert (await handle.result(timeout=30))["run"] == "sw~1"
    assert (await handle.info()).workflow_name == "counter"
    unknown = await client.start(switcher, "nope", run_id="sw2")
    assert await unknown.result(timeout=30) == {"unknown": "nope"}


async def test_a_backend_without_the_capabilities_never_moves_a_run(
    backend: Backend, backend_without_handoff: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    limited = backend_without_handoff
    caplog.set_level(logging.WARNING, logger="tether.worker")
    async with tether.Worker(limited, registry, poll_interval=0.02):
        client = tether.Client(limited, registry=registry)
        first = await (await client.start(asks, run_id="a1")).result(timeout=30)
        second = await (await client.start(asks, run_id="a2")).result(timeout=30)
    assert first == second == ["continue_as_new", "hook_retention"]
    warnings = [r for r in caplog.records if "session handoff unavailable" in r.getMessage()]
    assert len(warnings) == 1
    assert await backend.stores.workflow.get_run("a1~1") is None


@pytest.fixture
async def short_retention(
    backend: Backend, request: pytest.FixtureRequest
) -> AsyncIterator[tether.Client]:
    """A worker and client on `backend`'s store opened with a 0.5 s hook retention."""
    options: dict[str, Any] = {"hook_retention": 0.5}
    url = backend.url
    if url.startswith("postgres"):
        url = request.getfixturevalue("tether_postgres_url")
        options.update(namespace=getattr(backend, "namespace"), pool_size=4)  # noqa: B009
    if url.startswith("memory"):
        opened: Any = tether.open_backend(url, **options)
    else:
        opened = tether.open_backend(url, **options)
    async with opened as short:
        async with tether.Worker(short, registry, poll_interval=0.02):
            yield tether.Client(short, registry=registry)


async def test_a_released_token_is_kept_for_its_chain_then_freed(
    short_retention: tether.Client,
) -> None:
    client = short_retention
    owner = await client.start(claimer, "addr", run_id="own")
    await send_when_ready(client, "addr", "hello")
    assert await owner.result(timeout=30) == {"got": "hello"}
    # Released by the run's end, the token is reserved: a stranger is refused ...
    refused = await (await client.start(claimer, "addr", run_id="x1")).result(timeout=30)
    assert refused == {"refused": "own", "retained": True}
    # ... the same chain, started again, takes it at once ...
    again = await client.restart("own", claimer, "addr")
    assert again.run_id == "own~1"
    await send_when_ready(client, "addr", "back")
    assert await again.result(timeout=30) == {"got": "back"}
    # A handle to the ended run keeps its outcome; the chain's latest run is the new one.
    assert (await (await client.get("own")).info()).run_id == "own"
    latest = await client.backend.stores.workflow.latest_run("own")
    assert latest is not None and latest.run_id == "own~1"
    # ... and after the window anyone may.
    await asyncio.sleep(0.6)
    later = await client.start(claimer, "addr", run_id="x2")
    await send_when_ready(client, "addr", "mine now")
    assert await later.result(timeout=30) == {"got": "mine now"}


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
async def test_a_chain_on_an_encrypted_backend(kind: str, tmp_path: Any) -> None:
    """Payloads carried to a successor, or sent while a hook moves, are sealed for it."""
    import base64
    import os

    keys = tether.stores.EnvKeyProvider(base64.b64encode(os.urandom(32)).decode())
    url = "memory://" if kind == "memory" else f"sqlite:///{tmp_path}/sealed.db"
    async with tether.open_backend(url, keys=keys) as backend:
        async with tether.Worker(backend, registry, poll_interval=0.02):
            client = tether.Client(backend, registry=registry)
            handle = await client.start(collector, [], 12, 2, run_id="sealed")
            await send_when_ready(client, "inbox-sealed", 0)
            for i in range(1, 12):
                await client.resume_hook("inbox-sealed", i)
            assert await handle.result(timeout=60) == list(range(12))
            assert (await handle.info()).run_id == "sealed~5"


async def test_a_resume_fenced_by_a_run_is_refused_once_the_hook_moved_on(
    client: tether.Client,
) -> None:
    handle = await client.start(collector, [], 4, 2, run_id="fence")
    store = client.backend.stores.workflow
    token = "inbox-fence"
    await send_when_ready(client, token, 0)
    await client.resume_hook(token, 1, run_id="fence")  # still held by the first run
    for _ in range(500):  # two values: the chain moves on, the hook with it
        hook = await store.get_hook(token)
        if hook is not None and hook.run_id == "fence~1":
            break
        await asyncio.sleep(0.01)
    with pytest.raises(NotFoundError, match="no longer held by run 'fence'"):
        await client.resume_hook(token, 99, run_id="fence")
    await client.resume_hook(token, 2, run_id="fence~1")
    await client.resume_hook(token, 3)
    assert await handle.result(timeout=30) == [0, 1, 2, 3]  # nothing of the refused one
