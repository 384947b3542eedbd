"""SQLite reads run at once on the event loop's thread, bounded; else on the reader thread.

A read in WAL mode never waits for writers, so `SqliteDatabase.read` runs it on the
calling thread instead of handing it to the reader thread and back. It must never
hold the event loop long: a read past `INLINE_READ_SECONDS` is interrupted and run on
the reader thread (as is one that finds the file busy: the same path, any
`OperationalError`); and a caller reading in a loop with no other wait still lets the
loop turn.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tether.errors import StoreUnavailableError
from tether.stores.sqlite._db import SqliteDatabase


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[SqliteDatabase]:
    database = SqliteDatabase(tmp_path / "t.db")
    database.start()
    await database.write(lambda c: c.execute("CREATE TABLE t (x INTEGER)"))
    await database.write(lambda c: c.executemany("INSERT INTO t VALUES (?)", [(1,), (2,)]))
    try:
        yield database
    finally:
        await database.close()


def _thread_of_read(c: sqlite3.Connection) -> str:
    return threading.current_thread().name


class _Ticker:
    """The longest the event loop went without running this task's 1 ms ticks."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._task = asyncio.create_task(self._tick())

    async def _tick(self) -> None:
        last = time.monotonic()
        while True:
            await asyncio.sleep(0.001)
            now = time.monotonic()
            self.longest = max(self.longest, now - last)
            last = now

    async def stop(self) -> float:
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)
        return self.longest


async def test_a_short_read_runs_on_the_calling_thread(db: SqliteDatabase) -> None:
    assert await db.read(_thread_of_read) == threading.current_thread().name
    assert await db.read(lambda c: c.execute("SELECT sum(x) FROM t").fetchone()[0]) == 3


async def test_a_long_read_goes_to_the_reader_thread_and_the_loop_runs_on(
    db: SqliteDatabase,
) -> None:
    long_count = (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) "
        "SELECT count(*), (SELECT name FROM pragma_database_list LIMIT 1) FROM c"
    )
    threads: list[str] = []

    def read(c: sqlite3.Connection) -> int:
        threads.append(threading.current_thread().name)
        return int(c.execute(long_count).fetchone()[0])

    ticker = _Ticker()
    assert await db.read(read) == 3_000_000
    longest = await ticker.stop()
    # Started inline, interrupted at its time, read again on the reader thread.
    assert threads[0] == threading.current_thread().name
    assert threads[-1].startswith("tether-sqlite-reader")
    assert longest < 0.5  # the whole read takes far longer on the reader thread


async def test_reading_in_a_loop_with_no_other_wait_lets_the_loop_turn(
    db: SqliteDatabase,
) -> None:
    stop = asyncio.Event()

    async def stopper() -> None:
        stop.set()

    asyncio.get_running_loop().call_soon(asyncio.ensure_future, stopper())
    reads = 0
    while not stop.is_set():
        await db.read(lambda c: c.execute("SELECT 1").fetchone())
        reads += 1
        assert reads < 10_000, "the loop never turned"


async def test_errors_are_the_reader_threads(db: SqliteDatabase) -> None:
    with pytest.raises(StoreUnavailableError, match="no such table"):
        await db.read(lambda c: c.execute("SELECT * FROM missing").fetchall())
    with pytest.raises(ZeroDivisionError):
        await db.read(lambda c: 1 // 0)
    assert await db.read(lambda c: c.execute("SELECT count(*) FROM t").fetchone()[0]) == 2


async def test_another_thread_reads_through_the_reader_thread(db: SqliteDatabase) -> None:
    await db.read(_thread_of_read)  # this thread reads inline from now on
    loop = asyncio.get_running_loop()

    def elsewhere() -> str:
        return asyncio.run_coroutine_threadsafe(db.read(_thread_of_read), loop).result(10)

    # A coroutine scheduled from another thread still runs on this loop's thread...
    assert await asyncio.to_thread(elsewhere) == threading.current_thread().name

    def own_loop() -> str:
        return asyncio.run(db.read(_thread_of_read))

    # ...while a read from another thread's own loop hands off.
    assert (await asyncio.to_thread(own_loop)).startswith("tether-sqlite-reader")
