"""A worker's takes from the queue on Postgres: no empty transaction after a draining take.

A worker asks for more work as soon as a take gave it some. When that take found fewer
messages than it asked for and nothing was announced since, the store answers the next
ask at once, with no round trip; anything announced meanwhile, or a take that filled
its limit, still goes to the database. The runs are started by another process's view
of the namespace (`other`), as a server beside a worker does: the worker's store hears
only their notifications.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from tether.stores import NewRun
from tether.stores.postgres import PostgresBackend
from tether.testing import PostgresRoundTrips

pytestmark = pytest.mark.postgres


def _new(run_id: str) -> NewRun:
    return NewRun(
        run_id=run_id, workflow_name="wf", input=b"", deployment="d", engine_version="e",
        queue="q",
    )  # fmt: skip


async def _announced(backend: PostgresBackend) -> None:
    """Wait until the store's listener has heard a notification on queue "q"."""
    event = backend.stores.workflow._notifier.queue_event("q")
    deadline = time.monotonic() + 5
    while not event.is_set():
        assert time.monotonic() < deadline, "the listener never heard the queue's notification"
        await asyncio.sleep(0.005)


async def _take(backend: PostgresBackend, trips: PostgresRoundTrips, limit: int) -> list[str]:
    with trips.counting():
        claimed = await backend.stores.workflow.claim_next(
            "q", owner="w1", lease_seconds=30, limit=limit
        )
    return sorted(c.run.run_id for _, c in claimed if c.run is not None)


async def test_a_draining_take_is_not_followed_by_an_empty_transaction(
    pg_backend: PostgresBackend, other: PostgresBackend
) -> None:
    store = pg_backend.stores.workflow
    trips = PostgresRoundTrips()
    trips.watch(store, "claim_next")
    await other.stores.workflow.create_run(_new("r1"))
    await _announced(pg_backend)
    await store.wait_for_messages("q", 5.0)  # as the worker does: it consumes the event
    assert await _take(pg_backend, trips, limit=4) == ["r1"]
    assert await _take(pg_backend, trips, limit=4) == []
    first, second = trips.calls_of("claim_next")
    assert first.count >= 1 and second.count == 0, trips.describe()
    # Once only: the ask after that goes to the database (a delayed message may be due).
    assert await _take(pg_backend, trips, limit=4) == []
    assert trips.calls_of("claim_next")[2].count >= 1, trips.describe()


async def test_work_announced_after_a_draining_take_is_taken_at_once(
    pg_backend: PostgresBackend, other: PostgresBackend
) -> None:
    store = pg_backend.stores.workflow
    trips = PostgresRoundTrips()
    await other.stores.workflow.create_run(_new("r1"))
    await _announced(pg_backend)
    await store.wait_for_messages("q", 5.0)
    assert await _take(pg_backend, trips, limit=4) == ["r1"]
    await other.stores.workflow.create_run(_new("r2"))
    await _announced(pg_backend)
    assert await _take(pg_backend, trips, limit=4) == ["r2"]


async def test_a_take_that_filled_its_limit_is_followed_by_another(
    pg_backend: PostgresBackend, other: PostgresBackend
) -> None:
    store = pg_backend.stores.workflow
    trips = PostgresRoundTrips()
    for run_id in ("r1", "r2"):
        await other.stores.workflow.create_run(_new(run_id))
    await _announced(pg_backend)
    await store.wait_for_messages("q", 5.0)
    first = await _take(pg_backend, trips, limit=1)
    second = await _take(pg_backend, trips, limit=1)
    assert sorted(first + second) == ["r1", "r2"]


async def test_another_workers_ask_is_not_answered_by_this_ones_draining_take(
    pg_backend: PostgresBackend, other: PostgresBackend
) -> None:
    # Two workers of one process share the queue's event: the second may consume the
    # announcement of work the first's draining take preceded, and must then take it.
    store = pg_backend.stores.workflow
    trips = PostgresRoundTrips()
    await other.stores.workflow.create_run(_new("r1"))
    await _announced(pg_backend)
    await store.wait_for_messages("q", 5.0)
    assert await _take(pg_backend, trips, limit=4) == ["r1"]  # owner w1
    await other.stores.workflow.create_run(_new("r2"))
    await _announced(pg_backend)
    await store.wait_for_messages("q", 5.0)  # worker w2 wakes and consumes the event
    claimed = await store.claim_next("q", owner="w2", lease_seconds=30, limit=4)
    assert [c.run.run_id for _, c in claimed if c.run is not None] == ["r2"]
