"""Postgres stream followers: this process's appends on the taps, others' by NOTIFY.

An append this process makes (`write_stream`, or riding on a commit) reaches its
followers without a read; its NOTIFY, heard back, is dropped as an echo. Another
process's appends (here: another backend on the namespace, with its own pool and
listener) are heard at once, and a follower gets every chunk in order however the two
interleave. A listener that loses its connection makes every follower read (echoes it
may have lost included).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from tether.stores import AppendStream, Commit, NewEvent, NewRun, StreamChunk
from tether.stores.postgres import PostgresBackend

pytestmark = pytest.mark.postgres


@pytest.fixture
async def other(pg_url: str, pg_namespace: str, pg_backend: PostgresBackend) -> AsyncIterator[Any]:
    backend = PostgresBackend(pg_url, namespace=pg_namespace, pool_size=2)
    await backend.connect()
    try:
        yield backend.stores.workflow
    finally:
        await backend.close()


@contextlib.asynccontextmanager
async def _following(store: Any) -> AsyncIterator[AsyncIterator[StreamChunk]]:
    """A follower of stream "out" of run "r1", past the chunk written before it began.

    Its poll interval is longer than any test waits: only a tap or a notification
    delivers in time.
    """
    await store.write_stream("r1", "out", [b"first"])
    source = store.follow_stream("r1", "out", poll_interval=3600)
    try:
        assert (await anext(source)).data == b"first"
        yield source
    finally:
        await source.aclose()


async def test_another_process_appends_are_heard_and_interleave_in_order(
    pg_backend: PostgresBackend, other: Any, count_reads: Callable[[Any], list[int]]
) -> None:
    mine = pg_backend.stores.workflow
    reads = count_reads(mine)
    async with _following(mine) as source:
        got = []
        for i in range(1, 13):
            writer = other if i % 3 == 0 else mine
            await writer.write_stream("r1", "out", [b"%d" % i])
            # Within FALLBACK_POLL (1 s): handed over or heard, not polled for.
            chunk = await asyncio.wait_for(anext(source), 0.9)
            got.append((chunk.index, chunk.data))
        assert got == [(i, b"%d" % i) for i in range(1, 13)]
        await asyncio.sleep(0.05)  # the echoes are heard, and dropped
        # The other backend's 4 appends were read; this one's 8 came on the tap.
        assert len(reads) - 1 == 4, reads


async def test_a_lost_listener_connection_makes_followers_read(
    pg_backend: PostgresBackend, count_reads: Callable[[Any], list[int]]
) -> None:
    store: Any = pg_backend.stores.workflow
    reads = count_reads(store)
    async with _following(store) as source:
        await asyncio.sleep(0.05)
        before = len(reads)
        # What the listener announces when it reconnects: anything may have been lost.
        store._notifier.wake_all()
        pending = asyncio.ensure_future(anext(source))
        for _ in range(200):
            if len(reads) > before:
                break
            await asyncio.sleep(0.005)
        assert len(reads) == before + 1
        await store.write_stream("r1", "out", [b"b"])
        assert (await asyncio.wait_for(pending, 5)).data == b"b"


async def test_appends_riding_on_commits_are_handed_over_and_closes_are_read(
    pg_backend: PostgresBackend, count_reads: Callable[[Any], list[int]]
) -> None:
    # A step's events ride on its commit (`AppendStream` among `Commit.writes`): on the
    # one-round-trip path with writes (the first commit here, the run's copy fresh from
    # the claim) and on the ordinary one (after a lease renewal drops the copy) alike,
    # the chunks reach the follower with no read, and the echo is dropped. A close is
    # not on the tap: it is heard, read, and ends the follower.
    store = pg_backend.stores.workflow
    await store.create_run(
        NewRun(
            run_id="r1", workflow_name="wf", input=b"", deployment="d", engine_version="e",
            queue="q",
        )
    )  # fmt: skip
    claim = await store.claim_run("r1", owner="w1", lease_seconds=30)
    assert claim.run is not None
    head = claim.run.head
    reads = count_reads(store)
    async with _following(store) as source:
        await asyncio.sleep(0.05)
        before = len(reads)
        for n in range(1, 4):
            if n == 3:
                await store.renew_lease("r1", owner="w1", epoch=claim.epoch, lease_seconds=30)
            created = NewEvent(
                event_type="step_created",
                correlation_id=f"step_{n}",
                attrs={"slot": n, "name": "noop", "attempt": 1, "format_version": 1},
            )
            result = await store.commit(
                Commit(
                    run_id="r1", owner="w1", epoch=claim.epoch, expected_head=head,
                    events=(created,),
                    writes=(AppendStream(run_id="r1", name="out", chunks=(b"%d" % n, b"+")),),
                )
            )  # fmt: skip
            head = result.head
            got = [await asyncio.wait_for(anext(source), 0.9) for _ in range(2)]
            assert [(c.index, c.data) for c in got] == [(2 * n - 1, b"%d" % n), (2 * n, b"+")]
        await asyncio.sleep(0.05)  # the echoes are heard, and dropped
        assert reads[before:] == []
        await store.close_stream("r1", "out")
        with pytest.raises(StopAsyncIteration):
            await asyncio.wait_for(anext(source), 5)
        assert len(reads) > before
