"""The commit lane: one async connection kept out of the pool for one-round-trip writes.

It must be reused with no pool call while it is free, step aside to the pool while it
is lent, and never hand out a connection the server has ended or a write has left in
a bad state.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import psycopg
import psycopg_pool
import pytest

from tether.stores.postgres._pool import CommitLane, _dead, check_idle_async

pytestmark = pytest.mark.postgres


@pytest.fixture
async def lane(pg_url: str) -> AsyncIterator[CommitLane]:
    pool: psycopg_pool.AsyncConnectionPool[Any] = psycopg_pool.AsyncConnectionPool(
        pg_url,
        min_size=1,
        max_size=2,
        kwargs={"autocommit": True},
        open=False,
        check=check_idle_async,
    )
    await pool.open(wait=True, timeout=10)
    lane = CommitLane(pool)
    try:
        yield lane
    finally:
        await lane.close()


async def backend_pid(conn: psycopg.AsyncConnection[Any]) -> int:
    row = await (await conn.execute("SELECT pg_backend_pid()")).fetchone()
    assert row is not None
    return int(row[0])


def checkouts(lane: CommitLane) -> int:
    return int(lane.pool.get_stats().get("requests_num", 0))


async def test_a_free_lane_lends_the_same_connection_without_the_pool(lane: CommitLane) -> None:
    async with lane.connection() as first:
        pid = await backend_pid(first)
    before = checkouts(lane)
    for _ in range(5):
        async with lane.connection() as conn:
            assert conn is first
            assert await backend_pid(conn) == pid
    assert checkouts(lane) == before


async def test_a_lent_lane_sends_the_next_write_to_the_pool(lane: CommitLane) -> None:
    release = asyncio.Event()
    seen: list[int] = []

    async def hold() -> None:
        async with lane.connection() as conn:
            seen.append(await backend_pid(conn))
            await release.wait()

    holder = asyncio.create_task(hold())
    while not seen:
        await asyncio.sleep(0.01)
    before = checkouts(lane)
    async with lane.connection() as other:
        assert await backend_pid(other) != seen[0]
    assert checkouts(lane) == before + 1
    release.set()
    await holder
    # The kept connection is free again and still the one lent first.
    async with lane.connection() as conn:
        assert await backend_pid(conn) == seen[0]


async def test_a_kept_connection_the_server_ended_is_replaced(
    lane: CommitLane, pg_url: str
) -> None:
    async with lane.connection() as conn:
        pid = await backend_pid(conn)
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    for _ in range(200):  # the server's goodbye reaches the idle socket shortly
        if _dead(conn):
            break
        await asyncio.sleep(0.01)
    assert _dead(conn)
    async with lane.connection() as fresh:
        assert await backend_pid(fresh) != pid
        row = await (await fresh.execute("SELECT 1")).fetchone()
        assert row == (1,)


async def test_a_failed_write_gives_the_connection_back_to_the_pool(lane: CommitLane) -> None:
    async with lane.connection() as conn:
        kept = conn
    with pytest.raises(psycopg.errors.DivisionByZero):
        async with lane.connection() as conn:
            assert conn is kept
            await conn.execute("SELECT 1 / 0")
    # Not stuck lent: the next write checks a connection out of the pool (which
    # vets what it was given back), and that one is kept.
    before = checkouts(lane)
    async with lane.connection() as conn:
        row = await (await conn.execute("SELECT 2")).fetchone()
        assert row == (2,)
        again = conn
    assert checkouts(lane) == before + 1
    before = checkouts(lane)
    async with lane.connection() as conn:
        assert conn is again
    assert checkouts(lane) == before


async def test_a_write_cancelled_mid_query_does_not_leave_a_busy_connection(
    lane: CommitLane,
) -> None:
    async def slow() -> None:
        async with lane.connection() as conn:
            await conn.execute("SELECT pg_sleep(5)")

    task = asyncio.create_task(slow())
    await asyncio.sleep(0.2)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    async with lane.connection() as conn:
        row = await (await conn.execute("SELECT 3")).fetchone()
        assert row == (3,)


async def test_closing_the_lane_closes_its_kept_connection(lane: CommitLane) -> None:
    async with lane.connection() as conn:
        kept = conn
    await lane.close()
    assert kept.closed
    assert lane.pool.closed


async def test_expected_writes_open_their_connections_at_once_within_the_maximum(
    pg_url: str,
) -> None:
    """A claim of many runs has the lane's pool open what they will need, in parallel."""
    pool: psycopg_pool.AsyncConnectionPool[Any] = psycopg_pool.AsyncConnectionPool(
        pg_url, min_size=1, max_size=4, kwargs={"autocommit": True}, open=False
    )
    await pool.open(wait=True, timeout=10)
    lane = CommitLane(pool)
    try:
        await lane.expect(10)
        stats = pool.get_stats()
        # Counted at once (being opened), the minimum back where it was.
        assert stats["pool_size"] == 4 and stats["pool_min"] == 1
        for _ in range(500):
            if pool.get_stats()["pool_available"] == 4:
                break
            await asyncio.sleep(0.01)
        assert pool.get_stats()["pool_available"] == 4
        await lane.expect(3)  # already there: nothing more
        assert pool.get_stats()["pool_size"] == 4
    finally:
        await lane.close()


async def test_two_reads_at_once_both_run_on_the_event_loop(
    pg_backend: Any, record_calls: Any
) -> None:
    """A turn's step reads its transcript and its lanes at once: each gets a read lane
    of its own, neither goes through a thread; a third at once does."""
    store = pg_backend.stores.workflow
    threaded = record_calls(store, "_sql")
    slow = "SELECT pg_sleep(0.05), 1"
    assert await asyncio.gather(store._query(slow, ()), store._query(slow, ())) == [
        [("", 1)],
        [("", 1)],
    ]
    assert threaded == []
    await asyncio.gather(*(store._query(slow, ()) for _ in range(3)))
    assert len(threaded) == 1


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
async def test_a_loan_cancelled_as_the_pool_hands_it_a_connection_is_cancelled(
    lane: CommitLane, turns: int
) -> None:
    """A cancel that lands in the loop turns a freed connection reaches a waiting loan
    must end the loan's task, and the connection must go back to the pool.

    psycopg_pool's own wait (``asyncio.wait_for`` on Python 3.11) returns the connection
    to such a task and drops the cancel: a session's lane watch, stopped as its tool
    call ended, then polled on forever and its turn never completed.
    """
    await lane.pool.resize(1, 1)
    held = [await lane.pool.getconn(5) for _ in range(lane.pool.get_stats()["pool_size"])]
    went_on = asyncio.Event()

    async def borrow() -> None:
        async with lane.connection(timeout=5):
            await asyncio.sleep(0)
            went_on.set()

    for trial in range(10):
        went_on.clear()
        task = asyncio.ensure_future(borrow())
        for _ in range(3):
            await asyncio.sleep(0)  # the loan waits in the pool for a connection
        await lane.pool.putconn(held.pop())
        for _ in range(turns):
            await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert not went_on.is_set(), f"trial {trial}: the cancelled loan went on"
        # The connection the cancelled loan was handed is back in the pool.
        held.append(await asyncio.wait_for(lane.pool.getconn(), 5))
    for conn in held:
        await lane.pool.putconn(conn)
