"""A worker's takes from the queue on Postgres: no empty transaction after a draining take.

Also: this process's own queue notifications, heard back, wake nobody a second time.

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

import psycopg
import psycopg_pool
import pytest

from tether.stores import NewMessage, NewRun
from tether.stores.postgres import PostgresBackend
from tether.stores.postgres._notify import QueueEchoes
from tether.stores.postgres._txn import _Txn
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


async def _started_elsewhere(
    backend: PostgresBackend, other: PostgresBackend, *run_ids: str
) -> None:
    """Another process starts the runs; this one hears it and wakes (consuming the event)."""
    for run_id in run_ids:
        await other.stores.workflow.create_run(_new(run_id))
    await _announced(backend)
    await backend.stores.workflow.wait_for_messages("q", 5.0)  # as the worker does


async def _drained_by_r1(
    backend: PostgresBackend, other: PostgresBackend, trips: PostgresRoundTrips
) -> None:
    """Another process starts r1; this one wakes and takes it, draining the queue."""
    await _started_elsewhere(backend, other, "r1")
    assert await _take(backend, trips, limit=4) == ["r1"]


async def test_a_draining_take_is_not_followed_by_an_empty_transaction(
    pg_backend: PostgresBackend, other: PostgresBackend
) -> None:
    store = pg_backend.stores.workflow
    trips = PostgresRoundTrips()
    trips.watch(store, "claim_next")
    await _drained_by_r1(pg_backend, other, trips)
    assert await _take(pg_backend, trips, limit=4) == []
    first, second = trips.calls_of("claim_next")
    assert first.count >= 1 and second.count == 0, trips.describe()
    # Once only: the ask after that goes to the database (a delayed message may be due).
    assert await _take(pg_backend, trips, limit=4) == []
    assert trips.calls_of("claim_next")[2].count >= 1, trips.describe()


async def test_work_announced_after_a_draining_take_is_taken_at_once(
    pg_backend: PostgresBackend, other: PostgresBackend
) -> None:
    trips = PostgresRoundTrips()
    await _drained_by_r1(pg_backend, other, trips)
    await other.stores.workflow.create_run(_new("r2"))
    await _announced(pg_backend)
    assert await _take(pg_backend, trips, limit=4) == ["r2"]


async def test_a_take_that_filled_its_limit_is_followed_by_another(
    pg_backend: PostgresBackend, other: PostgresBackend
) -> None:
    trips = PostgresRoundTrips()
    await _started_elsewhere(pg_backend, other, "r1", "r2")
    first = await _take(pg_backend, trips, limit=1)
    second = await _take(pg_backend, trips, limit=1)
    assert sorted(first + second) == ["r1", "r2"]


async def test_another_workers_ask_is_not_answered_by_this_ones_draining_take(
    pg_backend: PostgresBackend, other: PostgresBackend
) -> None:
    # Two workers of one process share the queue's event: the second may consume the
    # announcement of work the first's draining take preceded, and must then take it.
    store = pg_backend.stores.workflow
    await _drained_by_r1(pg_backend, other, PostgresRoundTrips())  # owner w1
    await other.stores.workflow.create_run(_new("r2"))
    await _announced(pg_backend)
    await store.wait_for_messages("q", 5.0)  # worker w2 wakes and consumes the event
    claimed = await store.claim_next("q", owner="w2", lease_seconds=30, limit=4)
    assert [c.run.run_id for _, c in claimed if c.run is not None] == ["r2"]


class _CountingEvent(asyncio.Event):
    def __init__(self) -> None:
        super().__init__()
        self.sets = 0

    def set(self) -> None:
        self.sets += 1
        super().set()


async def test_this_process_hears_its_own_queue_notifications_once(
    pg_backend: PostgresBackend, other: PostgresBackend, pg_url: str, pg_namespace: str
) -> None:
    # A run started here wakes this process's worker at once (the commit tells it); the
    # NOTIFY heard back after the worker took it must not wake it again for nothing.
    store = pg_backend.stores.workflow
    event = store._notifier._queues["q"] = _CountingEvent()
    await store.create_run(_new("r1"))
    await asyncio.sleep(0)
    assert event.sets == 1  # by the commit itself, at once
    # Notifications reach a listener in commit order: once one sent after r1's is
    # heard, so was r1's.
    async with await psycopg.AsyncConnection.connect(pg_url, autocommit=True) as conn:
        await conn.execute("SELECT pg_notify(%s, 'marker')", (f"{pg_namespace}_queue",))
    marker = store._notifier.queue_event("marker")
    deadline = time.monotonic() + 5
    while not marker.is_set():
        assert time.monotonic() < deadline, "the listener never heard the marker"
        await asyncio.sleep(0.005)
    assert event.sets == 1, "the echo of r1's NOTIFY woke q again"
    # Another process's notification still wakes it.
    event.clear()  # as the waiter it woke does
    await other.stores.workflow.create_run(_new("r2"))
    await _announced(pg_backend)
    assert event.sets == 2


async def test_a_failed_transaction_gives_back_the_echo_it_counted() -> None:
    # Counted before the COMMIT, a failed transaction's notification never comes: the
    # count goes back, and the queue's waiters are woken (a notification of another
    # process may have been taken for its echo meanwhile). One that commits wakes them
    # too, from its own thread.
    woken: list[str] = []
    echoes = QueueEchoes(woken.append)
    echoes.bind(asyncio.get_running_loop())
    echoes.sending(["q"])
    assert echoes.heard("q")  # another process's, taken for the echo
    echoes.sending(["q"])
    echoes.failed(["q"])
    assert not echoes.heard("q")
    echoes.sending(["q"])
    await asyncio.to_thread(echoes.sent, ["q"])
    await asyncio.sleep(0)
    assert woken == ["q", "q"]
    assert echoes.heard("q")  # its echo
    echoes.sending(["q"])
    echoes.clear()  # the listener reconnected: every waiter re-reads anyway
    assert not echoes.heard("q")


async def test_a_transaction_failing_at_its_commit_gives_its_echo_back(
    pg_backend: PostgresBackend, pg_url: str, pg_namespace: str
) -> None:
    # The enqueue is counted when the COMMIT goes; a statement held with it fails on
    # the server, so nothing is announced: the count goes back, the waiters are woken.
    woken: list[str] = []
    echoes = QueueEchoes(woken.append)
    echoes.bind(asyncio.get_running_loop())
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f'SET search_path TO "{pg_namespace}"')
        conn.execute("BEGIN")
        txn = _Txn(conn, time.time(), 60.0)
        txn.enqueue(NewMessage(queue="q", payload=b"r1", available_at=0.0), time.time())
        txn.hold("SELECT 1 / 0", None)
        with pytest.raises(psycopg.errors.DivisionByZero):
            txn.finish(pg_namespace, echoes)
        conn.execute("ROLLBACK")
    assert not echoes.heard("q")
    await asyncio.sleep(0)
    assert woken == ["q"]
    assert await pg_backend.stores.workflow.dequeue("q", owner="w", lease_seconds=5, limit=1) == []


async def test_reads_and_wake_ups_go_on_when_every_lane_connection_is_busy(
    pg_backend: PostgresBackend,
) -> None:
    # A burst (a hundred messages sent at once) can hold every connection of the event
    # loop's lanes: waiting past their short checkout is no outage. What would have
    # taken a lane takes a thread's connection instead, and answers.
    store = pg_backend.stores.workflow
    await store.create_run(_new("r1"))
    pool = pg_backend._commits.pool
    held = []
    try:
        while True:
            try:
                held.append(await pool.getconn(timeout=0.5))
            except psycopg_pool.PoolTimeout:
                break
        run = await store.get_run("r1")  # a lane's read: its checkout times out
        assert run is not None and run.run_id == "r1"
    finally:
        for conn in held:
            await pool.putconn(conn)
