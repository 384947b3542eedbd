"""Two servers on one store: a follower of one sees what is sent through the other.

The second server has no worker and its own backend connection: on Postgres its
listener is woken by NOTIFY, on SQLite by its watcher of the database files.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from _served import Served, start_served


@pytest.fixture
async def pair(db: tuple[str, str | None]) -> AsyncIterator[tuple[Served, Served]]:
    async for first in start_served(*db):
        async for second in start_served(*db, worker=False):
            yield first, second


async def test_follow_on_one_server_send_through_another(pair: tuple[Served, Served]) -> None:
    a, b = pair
    await a.session("s1")
    follower = asyncio.create_task(b.events("s1", until="turn.completed"))
    await asyncio.sleep(0.2)
    await a.send("s1", "hello from a")
    events = await asyncio.wait_for(follower, 20)
    assert [e["index"] for e in events] == list(range(len(events)))
    assert any(e["type"] == "message.completed" for e in events)
    # And the other way round: sent through b, followed on a.
    tail = events[-1]["index"]
    follower = asyncio.create_task(a.events("s1", start=tail + 1, until="turn.completed"))
    await b.send("s1", "hello from b")
    more = await asyncio.wait_for(follower, 20)
    assert more[0]["index"] == tail + 1 and more[-1]["type"] == "turn.completed"
