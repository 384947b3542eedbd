"""Group commit on Postgres: one-round-trip commits made at once go as one transaction.

The first commit of a turn of the event loop goes at once, alone; the others of that
turn go together. A batch is all or nothing; a refusal inside it (a copy out of date)
sends each of its commits alone, to meet exactly the outcome it would have met without
batching.
"""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
import pytest

import tether
from tether.errors import StaleHeadError
from tether.stores import Commit
from tether.stores.postgres import PostgresBackend, PostgresWorkflowStore, _fast

from .test_pg_fast_commit import locked_calls, pg_store, row_stamp, started, step_events

pytestmark = pytest.mark.postgres


def batches_sent(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record how many commits each transaction of one-round-trip commits carried."""
    sizes: list[int] = []
    send_many = _fast.send_many

    async def spy(conn: Any, batch: Any) -> list[str]:
        sizes.append(len(batch))
        return await send_many(conn, batch)

    monkeypatch.setattr(_fast, "send_many", spy)
    return sizes


async def first_steps_at_once(
    store: PostgresWorkflowStore, held: dict[str, tuple[int, int]]
) -> list[Any]:
    """Each run's first step committed, all in the same turn of the event loop."""
    return await asyncio.gather(
        *(
            store.commit(
                Commit(
                    run_id=r,
                    owner="w1",
                    epoch=epoch,
                    expected_head=head,
                    events=step_events(1, None),
                )
            )
            for r, (epoch, head) in held.items()
        ),
        return_exceptions=True,
    )


async def test_commits_made_at_once_go_as_one_transaction(
    pg_backend: PostgresBackend, pg_url: str, pg_namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = pg_store(pg_backend)
    runs = [f"run_{i}" for i in range(6)]
    held = {r: await started(store, r, "w1") for r in runs}
    locked = locked_calls(store, monkeypatch)
    sizes = batches_sent(monkeypatch)
    results = await first_steps_at_once(store, held)
    assert [res.head for res in results] == [held[r][1] + 1 for r in runs]
    assert locked == [] and sizes == [1, 5]  # the first at once, the rest together
    # One transaction wrote the other five rows: they carry its id.
    stamps = [row_stamp(pg_url, pg_namespace, r) for r in runs]
    assert len(set(stamps[1:])) == 1 and stamps[0] != stamps[1]
    for r, stamp in zip(runs, stamps, strict=True):
        known = store._known.get(r)
        assert known is not None and known.stamp == stamp
        assert [s.status for s in await store.list_steps(r)] == ["running"]
    # And each run's next commit goes on from that copy, alone.
    nxt = await store.commit(
        Commit(
            run_id="run_0",
            owner="w1",
            epoch=held["run_0"][0],
            expected_head=results[0].head,
            events=step_events(2, "step_1"),
        )
    )
    assert nxt.head == results[0].head + 2 and locked == [] and sizes == [1, 5, 1]


async def test_a_refused_commit_in_a_batch_leaves_the_others_written(
    pg_backend: PostgresBackend, other: PostgresBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = pg_store(pg_backend)
    runs = [f"run_{i}" for i in range(4)]
    held = {r: await started(store, r, "w1") for r in runs}
    # Another process writes run_2 behind this store's copy of it.
    await other.stores.workflow.request_cancel("run_2", reason="stop")
    sizes = batches_sent(monkeypatch)
    results = await first_steps_at_once(store, held)
    # The first alone; the other three together, refused whole, then each alone.
    assert sizes == [1, 3, 1, 1, 1]
    assert isinstance(results[2], StaleHeadError)
    for i, r in enumerate(runs):
        log = await store.list_events(r)
        if i == 2:
            assert [e.event_type for e in log][-1] == "cancel_requested"
            assert await store.list_steps(r) == []
        else:
            assert not isinstance(results[i], BaseException)
            assert [e.event_type for e in log][-1] == "step_created"
            assert [e.slot for e in log] == list(range(1, len(log) + 1))


async def test_a_written_batch_whose_answer_was_lost_runs_no_step_twice(
    pg_backend: PostgresBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch that committed but whose answer never came back: each commit then goes
    alone, finds its copy out of date, and the locked path sees the write landed."""
    send_many = _fast.send_many
    cut: list[int] = []

    async def answer_lost(conn: Any, batch: Any) -> list[str]:
        stamps = await send_many(conn, batch)
        if not cut and len(batch) > 1:
            cut.append(len(batch))
            raise psycopg.OperationalError("server closed the connection unexpectedly")
        return stamps

    monkeypatch.setattr(_fast, "send_many", answer_lost)
    registry = tether.Registry(deployment="group-lost")
    done: list[tuple[int, int]] = []

    def step(run: int, i: int) -> int:
        done.append((run, i))
        return i

    @registry.workflow(name="three")
    async def three(ctx: tether.WorkflowContext, run: int) -> int:
        return sum([await ctx.step(step, run, i) for i in range(3)])

    client = tether.Client(pg_backend, registry=registry)
    handles = [await client.start(three, run) for run in range(8)]
    async with tether.Worker(pg_backend, registry, concurrency=8, poll_interval=0.02):
        assert [await h.result(timeout=30) for h in handles] == [3] * 8
    assert cut, "no batch was sent: nothing was tested"
    assert sorted(done) == [(run, i) for run in range(8) for i in range(3)]
    for h in handles:
        assert [(s.status, s.attempt) for s in await h.steps()] == [("completed", 1)] * 3
