"""A worker's poll of an empty queue on SQLite is a read, not a write transaction.

Each write transaction is a hand-off to the writer thread and back, and takes the
file's write lock that every other writer (other processes' workers included) waits
for; a worker polls every `poll_interval`. `claim_next` reads first, and writes only
when a message is there to take.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tether.stores import NewRun
from tether.stores.sqlite import SqliteBackend


@pytest.fixture
async def backend(tmp_path: Path) -> AsyncIterator[SqliteBackend]:
    opened = SqliteBackend(tmp_path / "t.db")
    await opened.migrate()
    await opened.connect()
    try:
        yield opened
    finally:
        await opened.close()


async def test_an_idle_poll_writes_nothing_and_a_ready_message_is_taken(
    backend: SqliteBackend, record_calls: Any
) -> None:
    store = backend.stores.workflow
    writes = record_calls(store._db, "write")
    for _ in range(3):
        assert await store.claim_next("q", owner="w1", lease_seconds=30, limit=4) == []
    assert writes == []
    await store.create_run(
        NewRun(
            run_id="r1", workflow_name="wf", input=b"", deployment="d", engine_version="e",
            queue="q",
        )
    )  # fmt: skip
    writes.clear()
    claimed = await store.claim_next("q", owner="w1", lease_seconds=30, limit=4)
    assert [c.run.run_id for _, c in claimed if c.run is not None] == ["r1"]
    assert len(writes) == 1
    # Taken, its message is leased: the next poll finds nothing and writes nothing.
    writes.clear()
    assert await store.claim_next("q", owner="w2", lease_seconds=30, limit=4) == []
    assert writes == []
