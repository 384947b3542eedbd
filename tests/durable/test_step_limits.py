"""Step-level limits through workers: a step under a limit waits for a permit in the store."""

from __future__ import annotations

import asyncio
import collections
from pathlib import Path

import pytest

import tether
from tether.cli import main
from tether.durable import step_limit

registry = tether.Registry(deployment="step-limits")
registry.limit("one", concurrency=1)
registry.limit("tenants", concurrency=1, key="tenant")

running: collections.Counter[str] = collections.Counter()
peaks: collections.Counter[str] = collections.Counter()


async def hold(group: str, seconds: float) -> int:
    running[group] += 1
    peaks[group] = max(peaks[group], running[group])
    await asyncio.sleep(seconds)
    running[group] -= 1
    return tether.step_info().attempt


@registry.workflow(name="limited")
async def limited(ctx: tether.WorkflowContext, group: str) -> int:
    return await ctx.step(hold, group, 0.05, limit="one")


@registry.workflow(name="per_tenant")
async def per_tenant(ctx: tether.WorkflowContext, tenant: str) -> int:
    return await ctx.step(hold, tenant, 0.05, limit="tenants")


async def inner(group: str) -> None:
    # Only the block inside the step is under the limit.
    async with step_limit("one") as held:
        assert held.key == "one"
        await hold(group, 0.05)


@registry.workflow(name="inside")
async def inside(ctx: tether.WorkflowContext, group: str) -> None:
    await ctx.step(inner, group)


@registry.workflow(name="undeclared")
async def undeclared(ctx: tether.WorkflowContext) -> None:
    await ctx.step(hold, "x", 0.0, limit="nope")


async def test_a_step_limit_holds_across_runs_and_waits_spend_no_attempt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    running.clear()
    peaks.clear()
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    async with (
        tether.open_backend(url) as backend,
        tether.Worker(backend, registry, concurrency=4, poll_interval=0.02) as worker,
    ):
        handles = [await worker.client.start(limited, "g") for _ in range(3)]
        handles += [await worker.client.start(inside, "g") for _ in range(2)]
        results = [await h.result(timeout=20) for h in handles]
        waits = []
        for handle in handles[:3]:
            events = await backend.stores.workflow.list_events(handle.run_id)
            created = next(e for e in events if e.event_type == "step_created")
            assert created.attrs["limit"] == "one"
            waits.append(float(created.attrs["limit_wait"]))
    assert peaks["g"] == 1  # five runs at once, their bodies one at a time
    assert results[:3] == [1, 1, 1]  # the waits were no attempts
    assert max(waits) > 0  # at least one of them waited, and its start says so
    # `tether runs show` shows the wait of the run that waited longest.
    longest = handles[waits.index(max(waits))].run_id
    assert await asyncio.to_thread(main, ["runs", "show", longest, "--db", url]) == 0
    shown = capsys.readouterr().out
    assert "limit wait" in shown and f"{max(waits):.3f} s" in shown


async def test_a_keyed_step_limit_counts_each_label_value_apart() -> None:
    running.clear()
    peaks.clear()
    async with (
        tether.open_backend("memory://") as backend,
        tether.Worker(backend, registry, concurrency=8, poll_interval=0.02) as worker,
    ):
        handles = [
            await worker.client.start(per_tenant, t, labels={"tenant": t})
            for t in ("acme", "bolt") * 2
        ]
        for handle in handles:
            await handle.result(timeout=20)
        events = await backend.stores.workflow.list_events(handles[0].run_id)
    assert peaks["acme"] == peaks["bolt"] == 1
    assert any(e.attrs.get("limit") == "tenants=acme" for e in events)


async def test_a_step_naming_an_undeclared_limit_fails_its_run() -> None:
    async with (
        tether.open_backend("memory://") as backend,
        tether.Worker(backend, registry, poll_interval=0.02) as worker,
    ):
        handle = await worker.client.start(undeclared)
        with pytest.raises(tether.RunFailedError, match=r"registry\.limit\('nope'"):
            await handle.result(timeout=20)


async def test_step_limit_outside_a_step_is_refused() -> None:
    with pytest.raises(tether.ConfigurationError, match="inside a running step"):
        async with step_limit("one"):
            pass


done_while_sleeping: list[str] = []


async def note(what: str) -> None:
    done_while_sleeping.append(what)


@registry.workflow(name="sleeps_beside")
async def sleeps_beside(ctx: tether.WorkflowContext) -> None:
    await asyncio.gather(ctx.sleep(3600), ctx.step(note, "ran", limit="one"))


async def test_a_run_does_not_park_while_a_step_waits_for_a_permit() -> None:
    done_while_sleeping.clear()
    async with (
        tether.open_backend("memory://") as backend,
        tether.Worker(backend, registry, poll_interval=0.02) as worker,
    ):
        # Another holder has the one place for a moment; the step waits for it while
        # the run's other branch sleeps for an hour: the run must stay active.
        one = registry.limits["one"]
        store = backend.stores.workflow
        assert (await store.acquire_permit("one", holder="x", limit=one, lease_seconds=0.3)).granted
        handle = await worker.client.start(sleeps_beside)
        deadline = asyncio.get_running_loop().time() + 10
        while not done_while_sleeping:
            assert asyncio.get_running_loop().time() < deadline, "the step never ran"
            await asyncio.sleep(0.02)
        await handle.cancel()
    assert done_while_sleeping == ["ran"]
