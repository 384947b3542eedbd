"""The retention sweep of plain runs: what ended long enough ago loses its content, once."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

import tether
from tether import ConfigurationError
from tether.durable import prune
from tether.stores import Backend

registry = tether.Registry(deployment="prune")


@registry.workflow()
async def note(ctx: tether.WorkflowContext, text: str) -> str:
    return await ctx.step(lambda: text.upper(), name="shout")


@registry.workflow()
async def waits(ctx: tether.WorkflowContext) -> str:
    return str(await ctx.create_hook(token="prune-waits"))


async def _ended(client: tether.Client, run_id: str, text: str = "secret") -> None:
    handle = await client.start(note, text, run_id=run_id)
    assert await handle.result(timeout=10) == text.upper()


async def test_ended_runs_past_the_period_lose_their_content(backend: Backend) -> None:
    client = tether.Client(backend, registry=registry)
    async with tether.Worker(backend, registry, poll_interval=0.02):
        await _ended(client, "old-1")
        await _ended(client, "old-2")
        await _ended(client, "old-3")
        await asyncio.sleep(0.15)
        split = time.time()  # the old ones ended before it, "recent" after it
        await asyncio.sleep(0.15)
        await _ended(client, "recent")

        def cut() -> float:
            # A period that reaches back to `split` now, however long the machine took.
            return time.time() - split

        waiting = await client.start(waits, run_id="waiting")
        for _ in range(250):
            if (await waiting.info()).status == "running":
                break
            await asyncio.sleep(0.02)
        # Dry run: what would go, nothing gone.
        dry = await prune(backend, older_than=cut(), batch_size=2, dry_run=True)
        assert (dry.runs, dry.sessions, dry.dry_run, dry.complete) == (
            ("old-1", "old-2", "old-3"), (), True, True,
        )  # fmt: skip
        assert await (await client.get("old-1")).result(timeout=1) == "SECRET"
        # Bounded batches: two reads of 2 runs, then one that finds 1 and ends.
        first = await prune(backend, older_than=cut(), batch_size=2, max_batches=1)
        assert first.runs == ("old-1", "old-2") and not first.complete and first.batches == 1
        rest = await prune(backend, older_than=cut(), batch_size=2)
        assert rest.runs == ("old-3",) and rest.complete
        assert (await prune(backend, older_than=cut())).runs == ()
        for run_id in ("old-1", "old-2", "old-3"):
            handle = await client.get(run_id)
            info = await handle.info()
            # Ids, statuses and timestamps stay; the content goes.
            assert info.status == "completed" and info.completed_at is not None
            assert await handle.result(timeout=1) is None
            assert (await handle.input()).args == ()
            assert all(s.output is None and s.input is None for s in await handle.steps())
        assert await (await client.get("recent")).result(timeout=1) == "SECRET"
        # A run still waiting is never touched, however old.
        assert "waiting" not in (await prune(backend, older_than=1e-6)).runs
        assert (await waiting.info()).status == "running"


async def test_two_sweeps_at_once_delete_each_run_once(backend: Backend) -> None:
    client = tether.Client(backend, registry=registry)
    async with tether.Worker(backend, registry, poll_interval=0.02):
        for n in range(6):
            await _ended(client, f"twice-{n}")
    reports = await asyncio.gather(
        prune(backend, older_than=1e-6, batch_size=2), prune(backend, older_than=1e-6, batch_size=2)
    )
    deleted = [run for report in reports for run in report.runs]
    assert sorted(deleted) == [f"twice-{n}" for n in range(6)]
    for n in range(6):
        assert await (await client.get(f"twice-{n}")).result(timeout=1) is None


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({}, "has no retention period"),
        ({"older_than": 0}, "longer than 0"),
        ({"older_than": "yesterday"}, "not a duration"),
        ({"older_than": 1, "batch_size": 0}, "batch_size must be an integer"),
        ({"older_than": 1, "max_batches": True}, "max_batches must be an integer"),
    ],
)
async def test_bad_sweeps_are_refused(options: dict[str, Any], message: str) -> None:
    async with tether.open_backend("memory://") as backend:
        with pytest.raises(ConfigurationError, match=message):
            await prune(backend, **options)


async def test_a_worker_sweeps_when_its_backend_has_a_retention_period(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path}/kept.db"
    async with tether.open_backend(url) as backend:
        client = tether.Client(backend, registry=registry)
        async with tether.Worker(backend, registry, poll_interval=0.02):
            await _ended(client, "kept")
    await asyncio.sleep(0.05)
    # Without a period a worker sweeps nothing; with one its first sweep is at start.
    async with tether.open_backend(url, retention=0.01) as backend:
        client = tether.Client(backend, registry=registry)
        async with tether.Worker(backend, registry, poll_interval=0.02):
            for _ in range(200):
                if await (await client.get("kept")).result(timeout=1) is None:
                    break
                await asyncio.sleep(0.02)
            else:
                raise AssertionError("the worker's sweep did not delete the run's content")
