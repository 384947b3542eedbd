"""Waiting for runs to end on SQLite: one watcher per store, not one poll per waiter.

Runs ended by this process hand their waiters the final row; runs ended by another
process (another store on the same file here) are found by one read for every watched
run. Many callers waiting at once used to cost a read per waiter per poll.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

import tether
from tether.errors import StoreUnavailableError

registry = tether.Registry(deployment="ends")


def slow(i: int) -> int:
    time.sleep(0.3)
    return i


@registry.workflow(name="slow_one")
async def slow_one(ctx: tether.WorkflowContext, i: int) -> int:
    return await ctx.step(slow, i)


def db_of(backend: tether.Backend) -> Any:
    """The SQLite database under a backend's workflow store (its `read` is counted)."""
    return backend.stores.workflow._db  # type: ignore[attr-defined]


async def test_waiters_on_runs_another_process_ends_share_one_watcher(
    tmp_path: Path, record_calls: Any
) -> None:
    url = f"sqlite:///{tmp_path}/ends.db"
    async with tether.open_backend(url) as waiting, tether.open_backend(url) as working:
        handles = [await tether.Client(waiting).start(slow_one, i) for i in range(20)]
        reads = record_calls(db_of(waiting), "read")
        async with tether.Worker(working, registry, concurrency=20, poll_interval=0.01):
            results = await asyncio.gather(*(h.result(timeout=30) for h in handles))
        assert results == list(range(20))
        # One read per waiter to start, then the watcher's reads for all of them
        # (each waiter polling alone read about six times in the step's 0.3 s).
        assert len(reads) < 2 * len(handles)


async def test_a_run_ended_here_hands_its_waiters_the_final_row(
    tmp_path: Path, record_calls: Any
) -> None:
    async with tether.open_backend(f"sqlite:///{tmp_path}/here.db") as backend:
        async with tether.Worker(backend, registry, poll_interval=0.01):
            handles = [await tether.Client(backend).start(slow_one, i) for i in range(5)]
            reads = record_calls(db_of(backend), "read")
            store = backend.stores.workflow
            ended = await asyncio.gather(
                *(store.wait_run_terminal(h.run_id, timeout=30) for h in handles)
            )
            assert [r.status for r in ended if r is not None] == ["completed"] * 5
            # Started here and not seen to end, no run is read when its waiter arrives;
            # the end came with the commit.
            run_reads = [fn for fn in reads if ".get_run." in fn.__qualname__]
            assert run_reads == []
            assert ended == [await store.get_run(h.run_id) for h in handles]


async def test_a_run_started_here_and_ended_elsewhere_before_the_wait_is_found(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path}/elsewhere.db"
    async with tether.open_backend(url) as waiting, tether.open_backend(url) as working:
        handle = await tether.Client(waiting).start(slow_one, 3)
        async with tether.Worker(working, registry, poll_interval=0.01):
            # Ended by the other store's worker before anyone here waits for it.
            assert await (await tether.Client(working).get(handle.run_id)).result(timeout=30) == 3
        started = time.monotonic()
        ended = await waiting.stores.workflow.wait_run_terminal(handle.run_id, timeout=30)
        assert ended is not None and ended.status == "completed"
        assert time.monotonic() - started < 5  # the watcher's first read, not the timeout


async def test_a_run_ended_here_before_the_wait_is_read_at_once(
    tmp_path: Path, record_calls: Any
) -> None:
    async with tether.open_backend(f"sqlite:///{tmp_path}/before.db") as backend:
        async with tether.Worker(backend, registry, poll_interval=0.01):
            handle = await tether.Client(backend).start(slow_one, 4)
            assert await handle.result(timeout=30) == 4
            reads = record_calls(db_of(backend), "read")
            ended = await backend.stores.workflow.wait_run_terminal(handle.run_id, timeout=30)
            assert ended is not None and ended.status == "completed"
            assert [fn for fn in reads if ".get_run." in fn.__qualname__] != []


async def test_a_watcher_read_that_fails_is_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path}/retry.db"
    async with tether.open_backend(url) as waiting, tether.open_backend(url) as working:
        handle = await tether.Client(waiting).start(slow_one, 7)
        ends = waiting.stores.workflow._ends  # type: ignore[attr-defined]
        read = ends._read
        failed_in: list[asyncio.Task[Any] | None] = []

        async def flaky(run_ids: list[str]) -> Any:
            if not failed_in:
                failed_in.append(asyncio.current_task())
                raise StoreUnavailableError("the file is busy")
            return await read(run_ids)

        monkeypatch.setattr(ends, "_read", flaky)
        async with tether.Worker(working, registry, poll_interval=0.01):
            assert await handle.result(timeout=30) == 7
        # The watcher lived on past its failed read, and ends once no one waits.
        [watcher] = failed_in
        assert watcher is not None
        await asyncio.wait_for(watcher, timeout=5)


async def test_the_watcher_reads_rows_only_of_runs_that_ended(tmp_path: Path) -> None:
    async with tether.open_backend(f"sqlite:///{tmp_path}/states.db") as backend:
        client = tether.Client(backend)
        done = await client.start(slow_one, 1, run_id="done")
        async with tether.Worker(backend, registry, poll_interval=0.01):
            assert await done.result(timeout=30) == 1
            going = await client.start(slow_one, 2, run_id="going")  # its step takes 0.3 s
            store = backend.stores.workflow
            ended = await store._ended_runs(["going", "done", "missing"])  # type: ignore[attr-defined]
            assert ended == {"done": await store.get_run("done"), "missing": None}
            assert await going.result(timeout=30) == 2


async def test_an_end_the_watcher_saw_before_the_commit_told_is_read_by_the_next_wait(
    tmp_path: Path,
) -> None:
    """Found in CI: the watcher's read can come between the commit that ends a run made
    here and that commit's own word of it (`finished`, once its answer is back on the
    loop). The run was then still "created here, not seen to end", and a later wait
    waited for the watcher instead of reading the run at once."""
    async with tether.open_backend(f"sqlite:///{tmp_path}/race.db") as backend:
        client = tether.Client(backend)
        handle = await client.start(slow_one, 5)
        store = backend.stores.workflow
        ends = store._ends  # type: ignore[attr-defined]
        # The commit's own word comes too late: only the watcher can see the end.
        late: list[Any] = []
        ends.finished = late.extend
        async with tether.Worker(backend, registry, poll_interval=0.01):
            assert await handle.result(timeout=30) == 5
        # The word is handed to the loop from the writer thread: under load it can come
        # after the worker stopped (seen in a full run with four test processes).
        for _ in range(500):
            if late:
                break
            await asyncio.sleep(0.01)
        assert [r.run_id for r in late] == [handle.run_id]
        reads: list[str] = []
        get = store.get_run

        async def counted(run_id: str) -> Any:
            reads.append(run_id)
            return await get(run_id)

        store.get_run = counted  # type: ignore[method-assign]
        ended = await store.wait_run_terminal(handle.run_id, timeout=30)
        assert ended is not None and ended.status == "completed"
        assert reads == [handle.run_id]  # read at once, not left to the watcher
