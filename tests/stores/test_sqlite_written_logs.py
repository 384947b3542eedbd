"""SQLite claims hand over the log their own transaction wrote, without reading it back.

A warm run woken by a hook payload is claimed in the payload's own write, and what its
claimer lacks of the log is exactly what that write appended; a run started eagerly
has no log but what its start wrote. Both were read back after the commit (a read on
the path from a message to its reply's first event). The log handed over must be the
one a read returns.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import tether
from tether.stores import EventRecord, NewRun
from tether.stores.sqlite._txn import _replay_log

registry = tether.Registry(deployment="written-logs")


async def note(what: str) -> str:
    return what


@registry.workflow(name="written.park")
async def park(ctx: tether.WorkflowContext, key: str) -> list[object]:
    first = await ctx.step(note, f"{key}-first")
    seen = await ctx.create_hook(token=f"hook-{key}")
    return [first, seen, await ctx.step(note, f"{key}-after")]


def log_reads(backend: tether.Backend, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The reads of claimed runs' logs (`_with_logs`) made from now on."""
    db = backend.stores.workflow._db  # type: ignore[attr-defined]
    reads: list[Any] = []
    read = db.read

    async def spy(fn: Any) -> Any:
        if "_with_logs" in fn.__qualname__:
            reads.append(fn)
        return await read(fn)

    monkeypatch.setattr(db, "read", spy)
    return reads


async def read_log(backend: tether.Backend, run_id: str, after: int) -> list[EventRecord]:
    db = backend.stores.workflow._db  # type: ignore[attr-defined]
    found: list[EventRecord] = await db.read(lambda c: _replay_log(c, run_id, after))
    return found


async def test_a_warm_run_woken_by_a_hook_is_claimed_with_no_read_of_its_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with tether.open_backend(f"sqlite:///{tmp_path}/warm.db") as backend:
        store = backend.stores.workflow
        async with tether.Worker(backend, registry, poll_interval=0.02) as worker:
            handle = await worker.client.start(park, "k", run_id="warm")
            for _ in range(1000):
                run = await store.get_run("warm")
                if run is not None and run.status == "running" and run.lease_owner is None:
                    break
                await asyncio.sleep(0.01)
            else:
                raise AssertionError("the run never parked")
            head = run.head
            reads = log_reads(backend, monkeypatch)
            claims: list[Any] = []
            claim_of = store.resume_hook_and_claim

            async def keep(*args: Any, **kwargs: Any) -> Any:
                result = await claim_of(*args, **kwargs)
                claims.append(result)
                return result

            monkeypatch.setattr(store, "resume_hook_and_claim", keep)
            await worker.client.resume_hook("hook-k", "hello")
            assert await handle.result(timeout=20) == ["k-first", "hello", "k-after"]
        [(_, claimed)] = claims
        assert claimed is not None
        _, claim = claimed
        assert claim.after == head
        assert [e.event_type for e in claim.events] == ["hook_received"]
        # What a read returns now starts with it (the run went on since).
        assert list(claim.events) == (await read_log(backend, "warm", head))[:1]
        assert reads == []


async def test_a_run_started_eagerly_is_claimed_with_the_log_a_read_returns(
    tmp_path: Path,
) -> None:
    async with tether.open_backend(f"sqlite:///{tmp_path}/eager.db") as backend:
        store = backend.stores.workflow
        new = NewRun(
            run_id="eager", workflow_name="wf", input=b"in", deployment="d",
            engine_version="e", queue="q",
        )  # fmt: skip
        _, created, claimed = await store.start_run(new, owner="w1", lease_seconds=30)
        assert created and claimed is not None
        _, claim = claimed
        events = list(claim.events)
        assert [e.event_type for e in events] == ["run_created", "run_started"]
        assert events == await read_log(backend, "eager", 0)
        assert events[0].payload is None  # as a claim reads it: the run's row has the input
