"""Steps that read ahead of their start (`ctx.step(..., read_ahead=True)`), on every backend.

Such a body begins before the commit that starts its attempt; it may read meanwhile.
`durable.step_started()` asks for that commit (with the chunks the body buffered so
far) and holds the body until it is durable. The tests hold that commit back in the
store to see both sides of it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import pytest

import tether
from tether import durable
from tether.errors import FencedError
from tether.stores import AppendStream, Backend, Commit

registry = tether.Registry(deployment="read-ahead")
log: list[str] = []
began = asyncio.Event()
reading = asyncio.Event()
stores: list[Any] = []
#: The commits that started the step named "held" (see `held_start`).
starts: list[Commit] = []


async def reader() -> str:
    log.append("began")
    began.set()
    try:
        await durable.step_started()
    except asyncio.CancelledError:
        log.append("cancelled")
        raise
    log.append("started")
    return "ok"


async def slow_reader() -> str:
    began.set()
    await reading.wait()  # a read that takes as long as the test wants
    log.append("read")
    durable.step_stream("out").write(b"buffered while reading")
    await durable.step_started()
    log.append("started")
    return "read"


async def no_ask() -> str:
    durable.step_stream("out").write(b"never asked")
    return "done"


async def early_flush() -> str:
    stream = durable.step_stream("out")
    stream.write(b"chunk")
    began.set()
    await stream.flush()  # waits for the start by itself
    return "flushed"


async def buffer_one() -> None:
    durable.step_stream("out").write(b"from the step before")


async def count_chunks() -> int:
    began.set()
    # The run's own streams are read once the start is durable (the start carries the
    # chunk the step before buffered).
    await durable.step_started()
    run_id = durable.step_info().run_id
    chunks, _ = await stores[0].read_stream(run_id, "out")
    return len(chunks)


async def append_to(run_id: str) -> None:
    durable.commit_with_step(AppendStream(run_id=run_id, name="out", chunks=(b"elsewhere",)))


async def count_chunks_of(run_id: str) -> int:
    chunks, _ = await stores[0].read_stream(run_id, "out")  # read ahead: before its start
    return len(chunks)


def held(name: str, body: Callable[[], Awaitable[Any]]) -> Any:
    """A workflow of one read-ahead step, `body`, named "held" (see `held_start`)."""

    async def workflow(ctx: tether.WorkflowContext) -> Any:
        return await ctx.step(body, name="held", read_ahead=True)

    return registry.workflow(name=name)(workflow)


read = held("ra.read", reader)
slow = held("ra.slow", slow_reader)
never_asks = held("ra.no_ask", no_ask)
flush = held("ra.flush", early_flush)


@registry.workflow(name="ra.after")
async def after(ctx: tether.WorkflowContext) -> int:
    await ctx.step(buffer_one)
    return await ctx.step(count_chunks, name="held", read_ahead=True)


@registry.workflow(name="ra.after_other")
async def after_other(ctx: tether.WorkflowContext, run_id: str) -> int:
    await ctx.step(append_to, run_id)
    return await ctx.step(count_chunks_of, run_id, name="held", read_ahead=True)


@registry.workflow(name="ra.idle")
async def idle(ctx: tether.WorkflowContext) -> None:
    await ctx.sleep(3600)


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    global began, reading
    log.clear()
    began, reading = asyncio.Event(), asyncio.Event()  # bound to this test's event loop
    stores.clear()
    starts.clear()
    yield


@contextmanager
def held_start(
    backend: Backend, monkeypatch: pytest.MonkeyPatch, refuse: bool = False
) -> Iterator[tuple[asyncio.Event, asyncio.Event]]:
    """Hold back the commit that starts the step named "held" until released."""
    store = backend.stores.workflow
    stores.append(store)
    commit = store.commit
    holding, release = asyncio.Event(), asyncio.Event()

    async def gated(c: Commit) -> Any:
        if any(
            e.event_type == "step_created" and "held" in str(e.attrs.get("name")) for e in c.events
        ):
            starts.append(c)
            holding.set()
            await release.wait()
            if refuse:
                raise FencedError(f"run {c.run_id} was taken over (test)")
        return await commit(c)

    monkeypatch.setattr(store, "commit", gated)
    yield holding, release


@asynccontextmanager
async def started_held(
    backend: Backend, monkeypatch: pytest.MonkeyPatch, workflow: Any, refuse: bool = False
) -> AsyncIterator[tuple[tether.RunHandle, asyncio.Event, asyncio.Event]]:
    """`workflow` started on a worker, its held step's start held back, its body begun."""
    with held_start(backend, monkeypatch, refuse) as (holding, release):
        async with tether.Worker(backend, registry, poll_interval=0.02):
            handle = await tether.Client(backend).start(workflow)
            await asyncio.wait_for(began.wait(), 10)
            yield handle, holding, release


async def test_a_body_reads_while_its_start_is_committed_and_goes_on_after(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with started_held(backend, monkeypatch, read) as (handle, holding, release):
        assert holding.is_set()
        await asyncio.sleep(0.05)
        assert log == ["began"]  # held at step_started()
        assert await handle.steps() == []  # its start is not durable
        release.set()
        assert await handle.result(timeout=10) == "ok"
    assert log == ["began", "started"]
    assert [(s.status, s.attempt) for s in await handle.steps()] == [("completed", 1)]


async def test_a_refused_start_cancels_the_body_waiting_for_it(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with started_held(backend, monkeypatch, read, refuse=True) as (_, holding, release):
        await asyncio.wait_for(holding.wait(), 10)
        release.set()
        for _ in range(200):
            if log[-1:] == ["cancelled"]:
                break
            await asyncio.sleep(0.01)
        assert log == ["began", "cancelled"]  # before the worker stops


async def test_the_start_waits_for_the_reads_and_carries_what_they_buffered(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with started_held(backend, monkeypatch, slow) as (handle, holding, release):
        await asyncio.sleep(0.05)
        assert not holding.is_set()  # no start sent while the body reads
        assert await handle.steps() == []
        reading.set()
        await asyncio.wait_for(holding.wait(), 10)
        assert log == ["read"]  # held at step_started()
        release.set()
        assert await handle.result(timeout=10) == "read"
    assert log == ["read", "started"]
    # The chunk buffered before the start was written by the start's own commit, once.
    (start,) = starts
    assert [(w.name, w.chunks) for w in start.writes if isinstance(w, AppendStream)] == [
        ("out", (b"buffered while reading",))
    ]
    chunks, _ = await backend.stores.workflow.read_stream(handle.run_id, "out")
    assert [c.data for c in chunks] == [b"buffered while reading"]
    assert [(s.status, s.attempt) for s in await handle.steps()] == [("completed", 1)]


async def test_a_body_that_never_asks_starts_when_it_ends(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    with held_start(backend, monkeypatch) as (holding, release):
        release.set()
        async with tether.Worker(backend, registry, poll_interval=0.02):
            handle = await tether.Client(backend).start(never_asks)
            assert await handle.result(timeout=10) == "done"
    assert holding.is_set()
    assert [(s.status, s.attempt) for s in await handle.steps()] == [("completed", 1)]
    chunks, _ = await backend.stores.workflow.read_stream(handle.run_id, "out")
    assert [c.data for c in chunks] == [b"never asked"]


async def test_a_stream_flush_before_the_start_waits_for_it(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with started_held(backend, monkeypatch, flush) as (handle, _, release):
        await asyncio.sleep(0.05)
        assert await backend.stores.workflow.read_stream(handle.run_id, "out") == ([], False)
        release.set()
        assert await handle.result(timeout=10) == "flushed"
    chunks, _ = await backend.stores.workflow.read_stream(handle.run_id, "out")
    assert [c.data for c in chunks] == [b"chunk"]


async def test_a_read_ahead_start_carries_the_stream_appends_of_the_step_before(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The step before's buffered chunk rides on this step's start, one commit for both:
    the body reads ahead meanwhile (never the run's own streams), and sees the chunk
    once its start is durable."""
    async with started_held(backend, monkeypatch, after) as (handle, holding, release):
        # The body began while its start, with the step before's end, was held.
        assert holding.is_set()
        assert [(s.name.rsplit("//", 1)[-1], s.status) for s in await handle.steps()] == [
            ("buffer_one", "running")
        ]
        release.set()
        assert await handle.result(timeout=10) == 1
    (start,) = starts
    types = [e.event_type for e in start.events]
    assert types == ["step_completed", "step_created"], types
    appends = [w for w in start.writes if isinstance(w, AppendStream)]
    assert [c for w in appends for c in w.chunks] == [b"from the step before"]


async def test_no_read_ahead_past_the_other_writes_of_the_step_before(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write of the step before that is no append to the run's own streams (here, to
    another run's) rides on this step's start: reading ahead of that commit would miss
    it, so this step starts after it, as any other."""
    with held_start(backend, monkeypatch) as (holding, release):
        async with tether.Worker(backend, registry, poll_interval=0.02):
            client = tether.Client(backend)
            other = await client.start(idle)
            handle = await client.start(after_other, other.run_id)
            await asyncio.wait_for(holding.wait(), 10)
            release.set()
            assert await handle.result(timeout=10) == 1
