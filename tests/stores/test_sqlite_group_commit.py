"""The SQLite writer group-commits: concurrent writes share a transaction, each its result.

A caller hears of its write only once the COMMIT that made it durable returned, one
failing write fails alone, and a batch wakes each waiting event loop once, not once per
write.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tether.stores.sqlite._db import SqliteDatabase, _resolve_all


@pytest.fixture
async def db(tmp_path: Path) -> Any:
    database = SqliteDatabase(tmp_path / "g.db")
    conn = database.open_connection()
    conn.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)")
    conn.close()
    database.start()
    try:
        yield database
    finally:
        await database.close()


def _insert(k: int) -> Any:
    def write(conn: sqlite3.Connection) -> int:
        conn.execute("INSERT INTO t (k) VALUES (?)", (k,))
        return k * 10

    return write


async def test_concurrent_writes_each_get_their_durable_result(
    db: SqliteDatabase, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    loop = asyncio.get_running_loop()
    wakeups: list[int] = []
    call = loop.call_soon_threadsafe

    def counting(callback: Any, *args: Any, **kwargs: Any) -> Any:
        if callback is _resolve_all:
            wakeups.append(len(args[0]))
        return call(callback, *args, **kwargs)

    monkeypatch.setattr(loop, "call_soon_threadsafe", counting)
    other = sqlite3.connect(tmp_path / "g.db")

    async def one(k: int) -> None:
        assert await db.write(_insert(k)) == k * 10
        # Durable by the time its caller hears: another connection reads it.
        assert other.execute("SELECT k FROM t WHERE k = ?", (k,)).fetchone() == (k,)

    await asyncio.gather(*(one(k) for k in range(200)))
    other.close()
    assert sum(wakeups) == 200
    # Writes queued together were answered together: fewer wake-ups than writes.
    assert len(wakeups) < 200


async def test_a_failing_write_fails_alone_in_its_batch(db: SqliteDatabase) -> None:
    await db.write(_insert(1))

    results = await asyncio.gather(
        *(db.write(_insert(k)) for k in (2, 1, 3)),  # 1 again: refused by the key
        return_exceptions=True,
    )
    assert results[0] == 20 and results[2] == 30
    assert isinstance(results[1], sqlite3.IntegrityError)
    rows = await db.read(lambda c: c.execute("SELECT k FROM t ORDER BY k").fetchall())
    assert rows == [(1,), (2,), (3,)]
