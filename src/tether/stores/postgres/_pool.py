"""Pool hygiene, and the commit lane that keeps one async connection at hand.

A server restart (or ``pg_terminate_backend``) ends every pooled connection, and the
pool learns it only when one is used: each would fail its next transaction. The check
runs at checkout and costs one ``poll`` with no round trip.

Store connections prepare their frequent statements on the server (psycopg's
``prepare_threshold``), with one repair: psycopg records a statement as prepared when
it queues the statement's Parse in a pipeline, and if an earlier statement of that
pipeline fails, the server skips the Parse while psycopg keeps believing it ("prepared
statement _pg3_0 does not exist" on every later use). `StoreConnection` and
`AsyncStoreConnection` forget what they prepared whenever a pipeline fails, as psycopg
itself does after a rolled-back transaction.

Every async checkout goes through `checkout`, which never loses its caller's
cancellation (see there).
"""

from __future__ import annotations

import asyncio
import contextlib
import select
from collections.abc import AsyncIterator, Iterator
from types import TracebackType
from typing import Any

import psycopg
import psycopg_pool
from psycopg import pq

__all__ = [
    "AsyncStoreConnection",
    "CommitLane",
    "StoreConnection",
    "check_idle",
    "check_idle_async",
    "checkout",
]

#: Connections `checkout` gives back for a caller that was cancelled (kept referenced
#: until they are back in their pool).
_RETURNS: set[asyncio.Task[None]] = set()


async def checkout(
    pool: psycopg_pool.AsyncConnectionPool[Any], timeout: float | None
) -> psycopg.AsyncConnection[Any]:
    """`pool.getconn(timeout)`, never losing the caller's cancellation.

    On Python 3.11 psycopg_pool waits for a free connection with `asyncio.wait_for`,
    which hands the connection to a task cancelled in the loop turn it arrived and
    drops the cancellation: the task runs on as if it had not been cancelled. A
    session's watch over its lanes, stopped at the end of a tool call while its read
    waited for a connection, then polled forever, and its turn never ended. Here the
    checkout runs in a task of its own that nobody cancels, awaited through a shield:
    a cancellation always reaches the caller, and a connection the checkout still
    obtains goes back to the pool.
    """
    getting = asyncio.ensure_future(pool.getconn(timeout))
    try:
        return await asyncio.shield(getting)
    except asyncio.CancelledError:
        getting.add_done_callback(lambda done: _give_back_unused(pool, done))
        raise


def _give_back_unused(
    pool: psycopg_pool.AsyncConnectionPool[Any],
    getting: asyncio.Future[psycopg.AsyncConnection[Any]],
) -> None:
    if getting.cancelled() or getting.exception() is not None:
        return
    returning = asyncio.ensure_future(pool.putconn(getting.result()))
    _RETURNS.add(returning)
    returning.add_done_callback(_RETURNS.discard)


def _forget_prepared(conn: psycopg.Connection[Any] | psycopg.AsyncConnection[Any]) -> bool:
    """Drop psycopg's record of prepared statements (the server's go at the next query).

    False when this psycopg keeps no such record where we look: close the connection
    then, and the pool replaces it.
    """
    prepared = getattr(conn, "_prepared", None)
    clear = getattr(prepared, "clear", None)
    if clear is None:
        return False
    clear()
    return True


class StoreConnection(psycopg.Connection[Any]):
    """A pooled store connection whose failed pipelines end quietly and forget.

    A statement that fails inside a pipeline (a guarded commit refusing a stale copy is
    ordinary) surfaces in the block; psycopg, ending a pipeline under an exception,
    logs "error ignored terminating" as a warning for what is only the same failure.
    The block's exception is held while the pipeline ends, then raised.
    """

    @contextlib.contextmanager
    def pipeline(self) -> Iterator[psycopg.Pipeline]:
        failure: Exception | None = None
        try:
            with super().pipeline() as pipe:
                try:
                    yield pipe
                except Exception as exc:
                    failure = exc
        except psycopg.Error as exc:
            failure = failure or exc
        if failure is not None:
            if not _forget_prepared(self):  # pragma: no cover - another psycopg
                self.close()
            raise failure


class AsyncStoreConnection(psycopg.AsyncConnection[Any]):
    """`StoreConnection` for the async pool of one-round-trip commits."""

    @contextlib.asynccontextmanager
    async def pipeline(self) -> AsyncIterator[psycopg.AsyncPipeline]:
        failure: Exception | None = None
        try:
            async with super().pipeline() as pipe:
                try:
                    yield pipe
                except Exception as exc:
                    failure = exc
        except psycopg.Error as exc:
            failure = failure or exc
        if failure is not None:
            if not _forget_prepared(self):  # pragma: no cover - another psycopg
                await self.close()
            raise failure


def _dead(conn: psycopg.Connection[Any] | psycopg.AsyncConnection[Any]) -> bool:
    """Whether the server is ending this idle connection (its socket is readable).

    An idle connection receives nothing unless the server is ending it: its last
    message is the FATAL notice, then EOF.
    """
    fd = conn.pgconn.socket
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        return bool(poller.poll(0))
    return bool(select.select([fd], [], [], 0)[0])  # pragma: no cover - no poll()


def check_idle(conn: psycopg.Connection[Any]) -> None:
    """Raise for a pooled connection that is closed or that the server is closing.

    A dead one is closed, and the check raises: the pool replaces it and hands out
    another one (an open one would just be handed back).
    """
    if conn.closed:
        raise psycopg.OperationalError("the pooled connection is closed")
    if _dead(conn):
        conn.close()
        raise psycopg.OperationalError("the server closed this idle connection")


async def check_idle_async(conn: psycopg.AsyncConnection[Any]) -> None:
    """`check_idle` for the async pool of step commits."""
    if conn.closed:
        raise psycopg.OperationalError("the pooled connection is closed")
    if _dead(conn):
        await conn.close()
        raise psycopg.OperationalError("the server closed this idle connection")


class CommitLane:
    """The async pool of one-round-trip writes, with one connection kept out of it.

    Checking a connection out of psycopg_pool and back in (its lock, its bookkeeping,
    its logging) costs about a fifth of a whole step commit on a small machine. A
    worker's step commits mostly come one at a time, so the lane keeps one connection
    and lends it to whichever write finds it free, with no pool call; a write that finds
    it lent out checks one out of the pool as before. Before each loan the kept
    connection gets the idle check a pooled one gets at checkout, and after any failure
    it goes back to the pool, which discards it if it is broken: a kept connection is
    never trusted more than a pooled one.

    Only the event loop's thread uses a lane, so its flag needs no lock.
    """

    def __init__(self, pool: psycopg_pool.AsyncConnectionPool[Any]) -> None:
        self.pool = pool
        self._kept: psycopg.AsyncConnection[Any] | None = None
        self._lent = False
        self._closed = False

    @property
    def busy(self) -> bool:
        """Whether its kept connection is lent out (a loan now would go to the pool)."""
        return self._lent or self._closed

    async def expect(self, writes: int) -> None:
        """Open connections now, several at once, for `writes` writes about to come at once.

        psycopg_pool grows a pool one connection at a time, each opened after the
        last, as writes find it short: a worker that just claimed two hundred runs (a
        recovery) waited through its lane's growth, a connection's setup after another.
        Raising the pool's minimum for a moment has its background workers open the
        missing connections in parallel; put back at once, the minimum lets the pool
        shrink again as it would after growing by itself (idle connections closed
        after ``max_idle``). It grows to its maximum at most (one more only if it was
        adding one by itself at that very moment, which `resize` does not count).
        """
        pool = self.pool
        if self._closed:
            return
        grow = min(writes, pool.max_size) - pool.get_stats().get("pool_size", pool.max_size)
        if grow <= 0:
            return
        low = pool.min_size
        await pool.resize(low + grow, pool.max_size)
        await pool.resize(low, pool.max_size)

    def connection(self, timeout: float | None = None) -> _Loan:
        """An async context manager lending a connection for one write."""
        return _Loan(self, timeout)

    async def close(self) -> None:
        """Give the kept connection back and close the pool."""
        await self.release()
        await self.pool.close()

    async def release(self) -> None:
        """Give the kept connection back, for good (another lane closes the pool)."""
        self._closed = True
        kept, self._kept = self._kept, None
        if kept is not None and not self._lent:
            await self.pool.putconn(kept)

    async def _take(self, timeout: float | None) -> psycopg.AsyncConnection[Any]:
        kept = self._kept
        if kept is not None:
            try:
                await check_idle_async(kept)
                return kept
            except psycopg.OperationalError:
                self._kept = None
                await self.pool.putconn(kept)  # closed: the pool replaces it
        taken = await checkout(self.pool, timeout)
        self._kept = taken
        return taken

    async def _give_back(self, conn: psycopg.AsyncConnection[Any], failed: bool) -> None:
        # A failed write may leave the connection mid-query or broken; one whose last
        # statement ended cleanly is idle outside any transaction (autocommit).
        if failed or self._closed or conn.pgconn.transaction_status != pq.TransactionStatus.IDLE:
            self._kept = None
            await self.pool.putconn(conn)


class _Loan:
    __slots__ = ("_conn", "_kept", "_lane", "_timeout")

    def __init__(self, lane: CommitLane, timeout: float | None) -> None:
        self._lane = lane
        self._timeout = timeout
        self._kept = False
        self._conn: psycopg.AsyncConnection[Any] | None = None

    async def __aenter__(self) -> psycopg.AsyncConnection[Any]:
        lane = self._lane
        if lane._lent or lane._closed:
            self._conn = await checkout(lane.pool, self._timeout)
            return self._conn
        lane._lent = self._kept = True
        try:
            self._conn = await lane._take(self._timeout)
        except BaseException:
            lane._lent = False
            raise
        return self._conn

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        conn, lane = self._conn, self._lane
        assert conn is not None
        if not self._kept:
            await lane.pool.putconn(conn)
            return
        lane._lent = False
        await lane._give_back(conn, failed=exc_type is not None)
