"""One listener per session per process, shared by every follower of the session."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from _served import Served

from tether.server import _feeds


async def _follow(
    served: Served, session_id: str, out: list[dict[str, Any]], **params: Any
) -> None:
    out.extend(await served.events(session_id, until="turn.completed", **params))


async def test_followers_share_one_listener(served: Served) -> None:
    await served.session("s1")
    await served.session("s2")
    hub = served.app.state.tether.feeds
    seen: list[list[dict[str, Any]]] = [[] for _ in range(6)]
    tasks = [
        asyncio.create_task(_follow(served, "s1" if i < 5 else "s2", seen[i])) for i in range(6)
    ]
    for _ in range(200):
        if len(hub) == 2:
            break
        await asyncio.sleep(0.01)
    # Six followers, two sessions: two listeners.
    assert len(hub) == 2
    await served.send("s1", "hello")
    await served.send("s2", "hello")
    await asyncio.wait_for(asyncio.gather(*tasks), 20)
    first = [e["meta"]["id"] for e in seen[0]]
    assert all([e["meta"]["id"] for e in seen[i]] == first for i in range(5))
    assert [e["index"] for e in seen[0]] == list(range(len(seen[0])))
    assert seen[5][-1]["type"] == "turn.completed"


async def test_a_follower_behind_the_buffer_reads_the_store(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_feeds, "BUFFER_EVENTS", 3)
    await served.session("s1")
    live: list[dict[str, Any]] = []
    task = asyncio.create_task(_follow(served, "s1", live))
    await served.send("s1", "one two three four five six seven eight nine ten")
    await asyncio.wait_for(task, 20)
    # The listener is still up (it lingers): a follower from 0 starts behind its buffer.
    hub = served.app.state.tether.feeds
    assert len(hub) == 1
    late = await served.events("s1", until="turn.completed")
    assert [e["meta"]["id"] for e in late] == [e["meta"]["id"] for e in live]
    assert [e["index"] for e in late] == list(range(len(late)))


def _count_event_reads(store: Any, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    reads: list[int] = []
    read_stream = store.read_stream

    async def counted(run_id: str, name: str, **kw: Any) -> Any:
        if name == "events":
            reads.append(kw.get("start", 0))
        return await read_stream(run_id, name, **kw)

    monkeypatch.setattr(store, "read_stream", counted)
    return reads


async def test_a_worker_in_the_server_process_hands_sqlite_feeds_its_events(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No look for other processes' commits after the first and no periodic read: only
    # the store's hand-over of this process's appends can bring the turn's events, and
    # the feed never reads them back.
    from _served import start_served

    from tether.stores.sqlite import _db

    monkeypatch.setattr(_feeds, "STATUS_INTERVAL", 3600.0)
    monkeypatch.setattr(_db, "WATCH_INTERVAL", 3600.0)
    async for served in start_served(f"sqlite:///{tmp_path}/tether.db", None):
        await served.session("s1")
        store = served.backend.stores.workflow
        reads = _count_event_reads(store, monkeypatch)
        seen: list[dict[str, Any]] = []
        task = asyncio.create_task(_follow(served, "s1", seen))
        hub = served.app.state.tether.feeds
        for _ in range(200):
            if len(hub) == 1 and reads:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)  # the watch's first look (it reads once) is over
        before = len(reads)
        await served.send("s1", "hello")
        await asyncio.wait_for(task, 20)
        assert [e["type"] for e in seen][-1] == "turn.completed"
        assert [e["index"] for e in seen] == list(range(len(seen)))
        assert len(seen) > 3
        assert reads[before:] == []
