"""Outages longer than the lease, network stalls, then crashes: no run lost, no step twice.

The faults are real: a TCP proxy in front of Postgres cuts or stalls the workers'
connections, a tmpfs fills up under SQLite, and worker processes are SIGKILLed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

import tether
from tether.agent import Agent, AgentHost, tool
from tether.testing import FaultProxy, Reply, ScriptedModel, SmallDisk, tool_call

sys.path.insert(0, str(Path(__file__).parent))
import fault_app
from fleet import Fleet, until

pytestmark = pytest.mark.crash


async def _epoch(backend: tether.Backend, run_id: str) -> int:
    run = await backend.stores.workflow.get_run(run_id)
    return 0 if run is None else run.lease_epoch


@pytest.fixture
def proxy(tether_postgres_url: str) -> AsyncIterator[FaultProxy]:
    with FaultProxy.for_url(tether_postgres_url) as p:
        yield p


@pytest.mark.slow
@pytest.mark.postgres
async def test_a_postgres_cut_longer_than_the_lease_then_a_sigkill_loses_no_run(
    pg_url: str, pg_namespace: str, proxy: FaultProxy, tmp_path: Path
) -> None:
    env = {"NAMESPACE": pg_namespace, "LEASE": "2", "STEP_SECONDS": "3"}
    fleet = Fleet(proxy.url(pg_url), tmp_path, env=env)
    async with tether.open_backend(pg_url, namespace=pg_namespace, pool_size=2) as backend:
        client = tether.Client(backend, registry=fault_app.registry)
        handle = await client.start("chain", 7, 2, run_id="outage-pg")
        try:
            worker = fleet.start()
            await until(lambda: fleet.started(handle.run_id) >= 1, what="step 1 started")
            proxy.cut()
            await asyncio.sleep(2.6)  # longer than the 2 s lease
            proxy.restore()
            # The worker takes its own run back under a new epoch ...
            for _ in range(200):
                if await _epoch(backend, handle.run_id) >= 2:
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("the worker never took its run back")
            # ... the abandoned activation hands back, and a poll finds the run busy.
            await asyncio.sleep(2.0)
            fleet.kill(worker)
            fleet.start()
            assert await handle.result(timeout=40) == fault_app.expected(7, 2)
        finally:
            fleet.stop()
    fleet.check_no_overlap()


@pytest.mark.slow
async def test_a_full_disk_longer_than_the_lease_then_a_sigkill_loses_no_run(
    tmp_path: Path,
) -> None:
    if not SmallDisk.available():
        pytest.skip("needs root to mount a small tmpfs")
    with SmallDisk(8192) as disk:
        url = f"sqlite:///{disk.path}/tether.db"
        fleet = Fleet(url, tmp_path, env={"LEASE": "2", "STEP_SECONDS": "3"})
        async with tether.open_backend(url) as backend:
            client = tether.Client(backend, registry=fault_app.registry)
            handle = await client.start("chain", 7, 2, run_id="outage-sqlite")
            try:
                worker = fleet.start()
                await until(lambda: fleet.started(handle.run_id) >= 1, what="step 1 started")
                with disk.full():
                    await asyncio.sleep(3.0)  # longer than the 2 s lease
                for _ in range(200):
                    if await _epoch(backend, handle.run_id) >= 2:
                        break
                    await asyncio.sleep(0.05)
                else:
                    raise AssertionError("the worker never took its run back")
                await asyncio.sleep(2.0)
                fleet.kill(worker)
                fleet.start()
                assert await handle.result(timeout=40) == fault_app.expected(7, 2)
            finally:
                fleet.stop()
        fleet.check_no_overlap()


@pytest.mark.slow
@pytest.mark.postgres
async def test_a_commit_stalled_past_the_lease_does_not_run_a_step_twice(
    pg_url: str, pg_namespace: str, proxy: FaultProxy, tmp_path: Path
) -> None:
    """The commit that starts step 2 is held 5 s in the network (lease 2 s)."""
    marker = tmp_path / "step-1-ending"
    fleet = Fleet(proxy.url(pg_url), tmp_path, env={"NAMESPACE": pg_namespace, "LEASE": "2"})
    async with tether.open_backend(pg_url, namespace=pg_namespace, pool_size=2) as backend:
        client = tether.Client(backend, registry=fault_app.registry)
        handle = await client.start("marked_then_logged", str(marker), run_id="stalled")
        try:
            fleet.start()
            await until(marker.exists, what="step 1 about to finish")
            proxy.pause()  # step 1 returns and its commit (with step 2's start) is held
            await asyncio.sleep(5.0)
            proxy.resume()
            assert await handle.result(timeout=40) == 4
        finally:
            fleet.stop()
    runs = fleet.executions()[("stalled", 2)]
    assert len(runs) == 1, f"step 2 ran {len(runs)} times: {runs}"
    fleet.check_no_overlap()


waiting = tether.Registry(deployment="outage-wait")


@waiting.workflow(name="double")
async def double(ctx: tether.WorkflowContext, x: int) -> int:
    return x * 2


@contextlib.asynccontextmanager
async def _doubling_behind(url: str, namespace: str) -> AsyncIterator[tether.RunHandle]:
    """A `double(21)` run started through a backend on `url` (the proxy), kept open."""
    async with tether.open_backend(url, namespace=namespace) as behind:
        yield await tether.Client(behind, registry=waiting).start(double, 21)


@pytest.mark.postgres
async def test_a_caller_waiting_for_a_result_waits_through_an_outage(
    pg_url: str, pg_namespace: str, proxy: FaultProxy
) -> None:
    # The caller reaches Postgres through the proxy; the worker that runs the run only
    # after the outage connects directly. The wait outlives the outage, as the run does.
    async with _doubling_behind(proxy.url(pg_url), pg_namespace) as handle:
        result = asyncio.create_task(handle.result(timeout=60))
        await asyncio.sleep(0.3)
        proxy.cut()
        await asyncio.sleep(2.5)
        assert not result.done(), result
        proxy.restore()
        async with (
            tether.open_backend(pg_url, namespace=pg_namespace) as direct,
            tether.Worker(direct, waiting),
        ):
            assert await result == 42


@pytest.mark.postgres
async def test_a_wait_whose_timeout_passes_in_an_outage_says_the_store_is_unavailable(
    pg_url: str, pg_namespace: str, proxy: FaultProxy
) -> None:
    async with _doubling_behind(proxy.url(pg_url), pg_namespace) as handle:
        proxy.cut()
        try:
            with pytest.raises(tether.errors.StoreUnavailableError):
                await handle.result(timeout=1.5)
        finally:
            proxy.restore()
        # Reachable again (once the pools have reconnected): the wait times out as usual,
        # there being no worker.
        deadline = asyncio.get_running_loop().time() + 30
        while True:
            try:
                await handle.result(timeout=1.0)
            except tether.errors.RunTimeoutError:
                break
            except tether.errors.StoreUnavailableError:
                assert asyncio.get_running_loop().time() < deadline, "never reachable again"


async def _write(chunk: bytes) -> None:
    tether.durable.step_stream("out").write(chunk)


@waiting.workflow(name="written_around_a_hook")
async def written_around_a_hook(ctx: tether.WorkflowContext, token: str) -> int:
    await ctx.step(_write, b"before", name="before")
    await ctx.create_hook(token=token)
    await ctx.step(_write, b"after", name="after")
    return 2


async def _once_accepted(call: Callable[[], Awaitable[Any]]) -> None:
    """`await call()`, again while the store is unavailable (as a client retries a 503)."""
    for _ in range(300):
        try:
            await call()
            return
        except tether.errors.StoreUnavailableError:
            await asyncio.sleep(0.1)
    raise AssertionError("the store never took the call again")


async def until_reachable(backend: tether.Backend, run_id: str) -> None:
    """Wait until `backend` answers again after an outage (its pools reconnected)."""
    for _ in range(300):
        try:
            await backend.stores.workflow.get_run(run_id)
            return
        except tether.errors.StoreUnavailableError:
            await asyncio.sleep(0.1)
    raise AssertionError("the store never became reachable again")


@pytest.mark.postgres
async def test_a_stream_follower_follows_through_an_outage(
    pg_url: str, pg_namespace: str, proxy: FaultProxy
) -> None:
    # The follower reads through the proxy, the worker directly: the run goes on while
    # the follower's store is cut off, and the follower must neither fail nor end early
    # (it raised the outage, or ended silently when a look at its run's status failed).
    # Its store calls give up after 0.5 s (`checkout_timeout`), as they would after the
    # default 30 s in a longer outage.
    token = f"outage-follow-{pg_namespace}"
    async with (
        tether.open_backend(pg_url, namespace=pg_namespace) as direct,
        tether.Worker(direct, waiting, poll_interval=0.05),
        tether.open_backend(
            proxy.url(pg_url), namespace=pg_namespace, checkout_timeout=0.5
        ) as behind,
    ):
        handle = await tether.Client(behind, registry=waiting).start(written_around_a_hook, token)
        seen: list[bytes] = []

        async def follow() -> None:
            async for chunk in handle.stream("out").follow(status_interval=0.2):
                seen.append(chunk.data)

        follower = asyncio.create_task(follow())
        for _ in range(200):
            if seen:
                break
            await asyncio.sleep(0.05)
        assert seen == [b"before"]
        proxy.cut()
        await asyncio.sleep(2.5)  # several status looks and reads fail meanwhile
        assert not follower.done(), follower
        proxy.restore()
        # Reachable again, the run still parked: the follower goes on waiting.
        await until_reachable(behind, handle.run_id)
        await asyncio.sleep(0.5)
        assert not follower.done(), follower
        await tether.Client(direct, registry=waiting).resume_hook(token, None)
        await asyncio.wait_for(follower, 30)
        assert seen == [b"before", b"after"]


@pytest.mark.postgres
async def test_an_outage_is_logged_once_by_the_listener_not_once_per_try(
    pg_url: str, pg_namespace: str, proxy: FaultProxy, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="tether.stores.postgres")
    async with tether.open_backend(proxy.url(pg_url), namespace=pg_namespace) as behind:
        proxy.cut()
        await asyncio.sleep(2.0)  # the listener tries again and again meanwhile
        proxy.restore()
        for _ in range(100):
            if any("reconnected after" in r.getMessage() for r in caplog.records):
                break
            await asyncio.sleep(0.1)
        await until_reachable(behind, "any")
    said = [r.getMessage() for r in caplog.records if r.name == "tether.stores.postgres"]
    assert sum("cannot reconnect" in m for m in said) == 1, said
    assert sum("reconnected after" in m for m in said) == 1, said


_tool_ends: list[str] = []


@tool
async def long_check(service: str) -> str:
    """Check a service for a long time."""
    try:
        await asyncio.sleep(8)
    except asyncio.CancelledError:
        _tool_ends.append("cancelled")
        raise
    _tool_ends.append("finished")
    return f"{service}: ok"


@pytest.mark.postgres
async def test_a_cancel_after_an_outage_still_stops_a_running_tool(
    pg_url: str, pg_namespace: str, proxy: FaultProxy
) -> None:
    # The worker reaches Postgres through the proxy: while its tool runs, the watch over
    # the session's lanes fails to read them for the outage. It must go on watching
    # (it died, and a cancel sent after the outage waited for the tool's end).
    _tool_ends.clear()
    agent = Agent(
        name="ops",
        model=ScriptedModel([Reply(tool_calls=(tool_call("long_check", {"service": "db"}),)), "x"]),
        tools=[long_check],
    )
    async with tether.open_backend(
        proxy.url(pg_url), namespace=pg_namespace, checkout_timeout=0.5
    ) as behind:
        host = AgentHost(behind, [agent])
        async with host.worker(poll_interval=0.05):
            session = await host.open_session("ops", session_id="o1")
            await session.send("check the db", principal="ada")
            await session.wait_for("tool.call", timeout=10)
            proxy.cut()
            await asyncio.sleep(3.0)  # the watch's reads fail meanwhile
            proxy.restore()
            # Sent once the store takes writes again (the pools reconnect in their
            # own time; until then the cancel is refused as unavailable, and retried).
            await _once_accepted(lambda: session.cancel_turn(principal="ada"))
            await session.wait_for("turn.cancelled", timeout=4)
    assert _tool_ends == ["cancelled"]


@pytest.mark.postgres
async def test_a_session_follower_seeing_the_end_in_an_outage_ends_with_the_run(
    pg_url: str, pg_namespace: str, proxy: FaultProxy
) -> None:
    # After a terminal event the follower looks whether the session was opened again
    # (a reset follows on the same stream). That look, made in an outage, raised the
    # outage to the follower of a session that was over; it must end as the run ends.
    agent = Agent(name="brief", model=ScriptedModel(["hi"]))
    async with (
        tether.open_backend(pg_url, namespace=pg_namespace) as direct,
        tether.open_backend(
            proxy.url(pg_url), namespace=pg_namespace, checkout_timeout=0.5
        ) as behind,
    ):
        served = AgentHost(direct, [agent])
        async with served.worker(poll_interval=0.05):
            session = await served.open_session("brief", session_id="b1")
            await session.send("hello")
            await session.wait_for("turn.completed", timeout=10)
            await session.close()
            await session.wait_for("session.closed", timeout=10)
            following = AgentHost(behind, [agent]).session("brief", "b1")
            events = following.events()
            seen = [(await anext(events)).type]
            while seen[-1] != "session.closed":
                seen.append((await anext(events)).type)
            proxy.cut()  # the follower holds the terminal event; its next look fails
            rest = asyncio.ensure_future(anext(events))
            await asyncio.sleep(1.5)
            assert not rest.done() or isinstance(rest.exception(), StopAsyncIteration), rest
            proxy.restore()
            with pytest.raises(StopAsyncIteration):
                await asyncio.wait_for(rest, 30)
    assert seen[0] == "session.started" and "turn.completed" in seen


_flush_gate: dict[str, asyncio.Event] = {}


async def _flushed_in_an_outage() -> int:
    stream = tether.durable.step_stream("out")
    attempt = tether.durable.step_info().attempt
    stream.write(b"live %d" % attempt)
    if attempt == 1:
        _flush_gate["flushing"].set()
        await _flush_gate["cut"].wait()
    # The store is cut off: the live write cannot land now. Neither its chunks nor the
    # attempt are lost with it: they ride on the step's completion.
    await stream.flush()
    stream.write(b"end")
    return attempt


@waiting.workflow(name="flushed_in_an_outage")
async def flushed_in_an_outage(ctx: tether.WorkflowContext) -> int:
    return await ctx.step(_flushed_in_an_outage, name="flush")


@pytest.mark.postgres
async def test_a_live_stream_write_refused_by_an_outage_lands_with_the_step(
    pg_url: str, pg_namespace: str, proxy: FaultProxy
) -> None:
    # The worker reaches the store through the proxy; its calls give up after 0.5 s.
    _flush_gate.update(cut=asyncio.Event(), flushing=asyncio.Event())
    async with (
        tether.open_backend(pg_url, namespace=pg_namespace) as direct,
        tether.open_backend(
            proxy.url(pg_url), namespace=pg_namespace, checkout_timeout=0.5
        ) as behind,
        tether.Worker(behind, waiting, poll_interval=0.05),
    ):
        handle = await tether.Client(direct, registry=waiting).start(flushed_in_an_outage)
        await asyncio.wait_for(_flush_gate["flushing"].wait(), 30)
        proxy.cut()
        _flush_gate["cut"].set()
        await asyncio.sleep(1.0)  # the flush fails meanwhile (well within the lease)
        proxy.restore()
        assert await handle.result(timeout=60) == 1  # the first attempt completed
        chunks, _ = await direct.stores.workflow.read_stream(handle.run_id, "out")
        assert [c.data for c in chunks] == [b"live 1", b"end"]
