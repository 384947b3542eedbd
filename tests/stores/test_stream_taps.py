"""Followers are handed this process's stream appends; other processes' are noticed.

Every backend puts this process's appends (Postgres: its `write_stream` appends, the
live ones) on its followers' taps once they are durable, so a follower goes on without
reading them back. SQLite's writer notices other connections' commits (`PRAGMA
data_version` on its own connection) while someone follows, and Postgres hears other
processes' appends by NOTIFY (dropping the echoes of its own), so another process's
appends arrive within milliseconds, not a poll interval.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

import tether
from tether.stores import Backend, StreamChunk
from tether.stores._streams import TAP_LIMIT, StreamTaps

# -- the taps themselves -----------------------------------------------------------------


def _indexes(chunks: list[StreamChunk] | None) -> list[int] | None:
    return None if chunks is None else [c.index for c in chunks]


def test_a_tap_hands_over_what_follows_on_and_skips_what_was_read() -> None:
    taps = StreamTaps()
    with taps.tap("r", "s") as tap:
        taps.appended("r", "s", 0, [b"a", b"b"])  # read already (the follower is at 2)
        taps.appended("r", "s", 2, [b"c"])
        taps.appended("r", "s", 3, [b"d", b"e"])
        taps.appended("r", "other", 0, [b"x"])  # another stream: not this tap's
        assert tap.event.is_set()
        assert _indexes(tap.take(2)) == [2, 3, 4]
        assert not tap.event.is_set()
        assert tap.take(5) is None  # nothing handed over: read (the poll fallback)


def test_a_tap_says_read_on_a_gap_a_change_a_negative_start_or_too_much() -> None:
    taps = StreamTaps()
    with taps.tap("r", "s") as tap:
        taps.appended("r", "s", 3, [b"d"])  # 2 came from elsewhere (another process)
        assert tap.take(2) is None
        taps.appended("r", "s", 2, [b"c"])
        taps.changed("r", "s")  # closed, say
        taps.appended("r", "s", 3, [b"d"])
        assert tap.take(2) is None
        taps.appended("r", "s", 0, [b"a"])
        assert tap.take(-1) is None  # a start from the tail not resolved yet
        for i in range(TAP_LIMIT + 1):  # a follower that does not keep up
            taps.appended("r", "s", i, [b"x"])
        assert tap.take(0) is None
        taps.appended("r", "s", 0, [b"a"])
        taps.changed_anywhere()
        assert tap.take(0) is None


def test_the_first_tap_starts_the_watch_and_the_last_stops_it() -> None:
    calls: list[bool] = []
    taps = StreamTaps(watching=calls.append)
    with taps.tap("r", "s"), taps.tap("r", "s"), taps.tap("q", "s"):
        assert calls == [True]
    assert calls == [True, False]
    taps.appended("r", "s", 0, [b"a"])  # nobody follows: nothing held


# -- through the stores ------------------------------------------------------------------


@pytest.fixture
def store(backend: Backend) -> Any:
    return backend.stores.workflow


async def _take(source: AsyncIterator[StreamChunk], n: int) -> list[StreamChunk]:
    return [await anext(source) for _ in range(n)]


async def test_a_follower_reads_nothing_this_process_appends(
    store: Any, count_reads: Callable[[Any], list[int]]
) -> None:
    await store.write_stream("r1", "out", [b"a", b"b"])
    reads = count_reads(store)
    source = store.follow_stream("r1", "out", poll_interval=3600)
    try:
        assert [c.data for c in await _take(source, 2)] == [b"a", b"b"]
        assert len(reads) == 1  # its first read
        # SQLite's watch starts with the first tap, and its first look makes the
        # follower read once (what was committed before it is not on the tap); the
        # echo of Postgres's first append may come back before the follower waits.
        await store.write_stream("r1", "out", [b"c"])
        assert (await asyncio.wait_for(anext(source), 5)).data == b"c"
        await asyncio.sleep(0.05)
        before = len(reads)
        for i in range(5):
            await store.write_stream("r1", "out", [b"%d" % i])
            await store.write_stream("r2", "out", [b"elsewhere"])
        got = await asyncio.wait_for(_take(source, 5), 5)
        assert [(c.index, c.data) for c in got] == [(3 + i, b"%d" % i) for i in range(5)]
        await asyncio.sleep(0.05)  # Postgres: the echoes are heard, and dropped
        assert reads[before:] == []
        # A close is not on the tap as chunks: the follower is told to read, and ends.
        await store.close_stream("r1", "out")
        with pytest.raises(StopAsyncIteration):
            await asyncio.wait_for(anext(source), 5)
    finally:
        await source.aclose()  # type: ignore[attr-defined]


async def test_a_follower_that_falls_behind_reads_the_rest_in_order(store: Any) -> None:
    await store.write_stream("r1", "out", [b"first"])
    source = store.follow_stream("r1", "out", poll_interval=3600)
    try:
        assert (await anext(source)).data == b"first"
        # The follower holds at its yield while more than a tap keeps is appended.
        total = TAP_LIMIT + 100
        for start in range(0, total, 500):
            await store.write_stream("r1", "out", [b"c"] * min(500, total - start))
        got = await asyncio.wait_for(_take(source, total), 10)
        assert [c.index for c in got] == list(range(1, total + 1))
    finally:
        await source.aclose()  # type: ignore[attr-defined]


_WRITER = """
import asyncio, sys, tether
async def main():
    async with tether.open_backend("sqlite:///" + sys.argv[1]) as backend:
        for i in range(3):
            await backend.stores.workflow.write_stream("r1", "out", [b"other %d" % i])
            await asyncio.sleep(0.05)
asyncio.run(main())
"""


async def test_sqlite_followers_see_another_process_append_at_once(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    async with tether.open_backend(f"sqlite:///{path}") as backend:
        store = backend.stores.workflow
        await store.write_stream("r1", "out", [b"mine"])
        source = store.follow_stream("r1", "out", poll_interval=3600)
        try:
            assert (await anext(source)).data == b"mine"
            proc = await asyncio.create_subprocess_exec(sys.executable, "-c", _WRITER, str(path))
            got = await asyncio.wait_for(_take(source, 3), 30)
            assert [(c.index, c.data) for c in got] == [(1 + i, b"other %d" % i) for i in range(3)]
            assert await proc.wait() == 0
        finally:
            await source.aclose()  # type: ignore[attr-defined]


@contextlib.asynccontextmanager
async def _watched(path: Path) -> AsyncIterator[tuple[Any, list[float]]]:
    """A SQLite backend on `path` whose writer's watch records each call."""
    async with tether.open_backend(f"sqlite:///{path}") as backend:
        db = backend.stores.workflow._db
        looks: list[float] = []
        db.watch(lambda: looks.append(asyncio.get_running_loop().time()))
        try:
            yield backend, looks
        finally:
            db.watch(None)


def _commit_elsewhere(path: Path) -> None:
    """One commit on another connection to the file."""
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("CREATE TABLE scratch (x)")
        other.execute("INSERT INTO scratch VALUES (1)")
        other.execute("COMMIT")
    finally:
        other.close()


async def _until_more_than(looks: list[float], n: int) -> None:
    for _ in range(200):
        if len(looks) > n:
            return
        await asyncio.sleep(0.005)


async def test_the_sqlite_watch_is_told_of_other_connections_commits_only(
    tmp_path: Path,
) -> None:
    async with _watched(tmp_path / "t.db") as (backend, looks):
        await asyncio.sleep(0.05)
        assert len(looks) == 1  # the first look says "maybe": followers read once
        for i in range(20):  # this database's own commits wake nobody
            await backend.stores.workflow.write_stream("r1", "out", [b"%d" % i])
        await asyncio.sleep(0.05)
        assert len(looks) == 1
        _commit_elsewhere(tmp_path / "t.db")
        await _until_more_than(looks, 1)
        await asyncio.sleep(0.05)
        assert len(looks) == 2


async def test_a_sqlite_write_looks_for_other_connections_commits_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A writer that is never idle looks in each write's BEGIN (the same
    # `data_version` read that checks its kept rows): with the idle look turned off,
    # another connection's commit is noticed at this process's next write.
    from tether.stores.sqlite import _db

    monkeypatch.setattr(_db, "WATCH_INTERVAL", 3600.0)
    async with _watched(tmp_path / "t.db") as (backend, looks):
        await backend.stores.workflow.write_stream("r1", "out", [b"first"])
        await asyncio.sleep(0.05)
        assert len(looks) == 1  # the watch's first look
        _commit_elsewhere(tmp_path / "t.db")
        await asyncio.sleep(0.05)
        assert len(looks) == 1  # no idle look
        await backend.stores.workflow.write_stream("r1", "out", [b"second"])
        await _until_more_than(looks, 1)
        assert len(looks) == 2


async def test_a_quiet_sqlite_watch_looks_less_often_and_fast_again_when_busy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Quiet for `WATCH_BUSY_FOR`, the writer looks every `WATCH_QUIET_INTERVAL` (it
    # looked every 2 ms as long as anyone followed: about 2% of a core); a write of
    # this process or another connection's commit makes it look fast again.
    from tether.stores.sqlite import _db

    monkeypatch.setattr(_db, "WATCH_BUSY_FOR", 0.3)
    idle_looks: list[float] = []
    look = _db.SqliteDatabase._look

    def counted(self: Any, version: int | None) -> None:
        idle_looks.append(time.monotonic())
        look(self, version)

    monkeypatch.setattr(_db.SqliteDatabase, "_look", counted)

    def looks_in(seconds: float) -> int:
        now = time.monotonic()
        return sum(1 for t in idle_looks if t > now - seconds)

    async with _watched(tmp_path / "t.db") as (backend, looks):
        await asyncio.sleep(0.6)  # quiet past WATCH_BUSY_FOR
        quiet = looks_in(0.25)
        assert quiet <= 0.25 / _db.WATCH_QUIET_INTERVAL + 3, quiet
        await backend.stores.workflow.write_stream("r1", "out", [b"mine"])
        await asyncio.sleep(0.25)
        busy = looks_in(0.25)
        assert busy >= 3 * quiet, (busy, quiet)
        await asyncio.sleep(0.6)  # quiet again
        _commit_elsewhere(tmp_path / "t.db")
        started = time.monotonic()
        await _until_more_than(looks, 1)
        assert len(looks) == 2
        assert time.monotonic() - started < 0.5  # noticed within a quiet interval or so


_others = tether.Registry(deployment="others")


@_others.workflow(name="others.one")
async def _one(ctx: tether.WorkflowContext) -> int:
    return 1


async def test_a_sqlite_worker_hears_another_processes_message_before_its_poll(
    tmp_path: Path,
) -> None:
    # A worker waiting for messages has the writer watch for other connections'
    # commits: a run another process (here another backend on the file) starts is
    # taken at once, not at the worker's next poll (it waited out its poll interval:
    # 100 ms by default, 30 s here).
    url = f"sqlite:///{tmp_path / 't.db'}"
    async with tether.open_backend(url) as mine, tether.open_backend(url) as theirs:
        async with tether.Worker(mine, _others, poll_interval=30):
            await asyncio.sleep(0.3)  # the worker waits in its poll
            handle = await tether.Client(theirs, registry=_others).start(_one)
            assert await handle.result(timeout=10) == 1
