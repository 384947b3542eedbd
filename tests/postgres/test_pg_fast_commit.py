"""The one-round-trip step commit on Postgres: used when it can be, never wrong.

A lease holder's store keeps a copy of the run it last wrote and commits the next
step from it in one pipeline, fenced by the row's xmin. These tests pin that the copy
is used, and that every way the run can change under it (another process's write, a
lease taken over, a lease renewal) falls back to the locked path with its answer.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import psycopg
import pytest

from tether.errors import (
    ConflictError,
    FencedError,
    FormatVersionError,
    InvalidTransitionError,
    StaleHeadError,
)
from tether.stores import AppendStream, Commit, NewEvent, NewMessage, NewRun
from tether.stores.postgres import PostgresBackend, PostgresWorkflowStore

pytestmark = pytest.mark.postgres


def pg_store(backend: PostgresBackend) -> PostgresWorkflowStore:
    store = backend.stores.workflow
    assert isinstance(store, PostgresWorkflowStore)
    return store


def locked_calls(store: PostgresWorkflowStore, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Record every call that takes the ordinary, locked path."""
    calls: list[Any] = []
    write = store._write

    async def spy(fn: Any, **kw: Any) -> Any:
        calls.append(fn)
        return await write(fn, **kw)

    monkeypatch.setattr(store, "_write", spy)
    return calls


def pipelines_used(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Record every pipeline a connection opens (a commit sent as several statements)."""
    used: list[object] = []
    pipeline = psycopg.AsyncConnection.pipeline

    def spy(conn: psycopg.AsyncConnection[Any]) -> Any:
        used.append(conn)
        return pipeline(conn)

    monkeypatch.setattr(psycopg.AsyncConnection, "pipeline", spy)
    return used


async def started(
    store: PostgresWorkflowStore, run_id: str, owner: str, lease_seconds: float = 30
) -> tuple[int, int]:
    await store.create_run(
        NewRun(
            run_id=run_id,
            workflow_name="wf",
            input=b"in",
            deployment="d",
            engine_version="v",
            queue="q",
        )
    )
    claim = await store.claim_run(run_id, owner=owner, lease_seconds=lease_seconds)
    assert claim.outcome == "claimed" and claim.run is not None
    return claim.epoch, claim.run.head


def step_events(n: int, previous: str | None) -> tuple[NewEvent, ...]:
    """Complete the previous step and create step `n`, as the engine commits them."""
    done = (
        ()
        if previous is None
        else (NewEvent(event_type="step_completed", correlation_id=previous, payload=b"out"),)
    )
    return (
        *done,
        NewEvent(
            event_type="step_created",
            correlation_id=f"step_{n}",
            attrs={"slot": n, "name": "noop", "attempt": 1, "format_version": 1},
            payload=b"arg",
        ),
    )


def row_stamp(url: str, namespace: str, run_id: str) -> str:
    with psycopg.connect(url, options=f"-c search_path={namespace}") as conn:
        row = conn.execute(
            "SELECT xmin::text FROM tether_runs WHERE run_id = %s", (run_id,)
        ).fetchone()
    assert row is not None
    return str(row[0])


async def test_step_commits_skip_the_locked_path(
    pg_backend: PostgresBackend, pg_url: str, pg_namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = pg_store(pg_backend)
    epoch, head = await started(store, "run_a", "w1")
    locked = locked_calls(store, monkeypatch)
    previous = None
    for n in range(1, 21):
        events = step_events(n, previous)
        result = await store.commit(
            Commit(run_id="run_a", owner="w1", epoch=epoch, expected_head=head, events=events)
        )
        assert result.head == head + len(events)
        head, previous = result.head, f"step_{n}"
    assert locked == []
    # What was written is exactly what the locked path would have written.
    log = await store.list_events("run_a")
    assert [e.slot for e in log] == list(range(1, head + 1))
    steps = await store.list_steps("run_a")
    assert [s.status for s in steps] == ["completed"] * 19 + ["running"]
    assert all(s.output == b"out" for s in steps[:-1])
    run = await store.get_run("run_a")
    assert run is not None and run.head == head and run.lease_epoch == epoch
    known = store._known.get("run_a")
    assert known is not None and known.stamp == row_stamp(pg_url, pg_namespace, "run_a")


async def test_another_process_write_sends_the_commit_down_the_locked_path(
    pg_backend: PostgresBackend, other: PostgresBackend
) -> None:
    store = pg_store(pg_backend)
    epoch, head = await started(store, "run_b", "w1")
    first = await store.commit(
        Commit(
            run_id="run_b", owner="w1", epoch=epoch, expected_head=head, events=step_events(1, None)
        )
    )
    # Another process appends to the log while w1 holds the lease.
    await other.stores.workflow.request_cancel("run_b", reason="stop")
    with pytest.raises(StaleHeadError):
        await store.commit(
            Commit(
                run_id="run_b",
                owner="w1",
                epoch=epoch,
                expected_head=first.head,
                events=step_events(2, "step_1"),
            )
        )
    log = await store.list_events("run_b")
    assert [e.event_type for e in log][-2:] == ["step_created", "cancel_requested"]
    assert [e.slot for e in log] == list(range(1, len(log) + 1))
    # From the true head the commit goes through, and the copy is current again.
    again = await store.commit(
        Commit(
            run_id="run_b",
            owner="w1",
            epoch=epoch,
            expected_head=len(log),
            events=step_events(2, "step_1"),
        )
    )
    assert again.head == len(log) + 2
    assert [s.status for s in await store.list_steps("run_b")] == ["completed", "running"]


async def test_a_lease_taken_over_elsewhere_is_fenced(
    pg_backend: PostgresBackend, other: PostgresBackend
) -> None:
    store = pg_store(pg_backend)
    epoch, head = await started(store, "run_c", "w1", lease_seconds=0.2)
    step1 = await store.commit(
        Commit(
            run_id="run_c",
            owner="w1",
            epoch=epoch,
            expected_head=head,
            events=step_events(1, None),
        )
    )
    assert store._known.get("run_c") is not None  # w1 holds a copy it could commit from
    # w1 stalls past its lease; another process takes the run over.
    await asyncio.sleep(0.3)
    theirs = await other.stores.workflow.claim_run("run_c", owner="w2", lease_seconds=30)
    assert theirs.outcome == "claimed" and theirs.epoch == epoch + 1
    with pytest.raises(FencedError):
        await store.commit(
            Commit(
                run_id="run_c",
                owner="w1",
                epoch=epoch,
                expected_head=step1.head,
                events=step_events(2, "step_1"),
            )
        )
    log = await store.list_events("run_c")
    assert len(log) == step1.head  # nothing of w1's stale commit was written
    run = await store.get_run("run_c")
    assert run is not None and run.lease_owner == "w2"


async def test_a_renewed_lease_is_kept(pg_backend: PostgresBackend) -> None:
    store = pg_store(pg_backend)
    epoch, head = await started(store, "run_d", "w1")
    first = await store.commit(
        Commit(
            run_id="run_d", owner="w1", epoch=epoch, expected_head=head, events=step_events(1, None)
        )
    )
    assert await store.renew_lease("run_d", owner="w1", epoch=epoch, lease_seconds=600)
    await store.commit(
        Commit(
            run_id="run_d",
            owner="w1",
            epoch=epoch,
            expected_head=first.head,
            events=step_events(2, "step_1"),
        )
    )
    run = await store.get_run("run_d")
    # The commit must not write back the lease expiry it had before the renewal.
    assert run is not None and run.lease_expires_at > run.updated_at + 500


async def test_a_namespace_before_the_fence_function_must_migrate(
    pg_url: str, pg_namespace: str
) -> None:
    backend = PostgresBackend(pg_url, namespace=pg_namespace, pool_size=2)
    await backend.migrate()
    with psycopg.connect(pg_url, autocommit=True, options=f"-c search_path={pg_namespace}") as c:
        c.execute("DROP FUNCTION tether_fast_commit")
        c.execute("UPDATE tether_meta SET value = '2' WHERE key = 'schema_version'")
    with pytest.raises(FormatVersionError, match="tether migrate"):
        await backend.connect()
    await backend.migrate()
    await backend.connect()
    try:
        store = pg_store(backend)
        epoch, head = await started(store, "run_e", "w1")
        result = await store.commit(
            Commit(
                run_id="run_e",
                owner="w1",
                epoch=epoch,
                expected_head=head,
                events=step_events(1, None),
            )
        )
        assert result.head == head + 1
    finally:
        await backend.close()


def created(step_id: str, slot: int) -> NewEvent:
    return NewEvent(
        event_type="step_created",
        correlation_id=step_id,
        attrs={"slot": slot, "name": "noop", "attempt": 1, "format_version": 1},
        payload=b"arg",
    )


async def test_a_commit_of_many_steps_is_one_transaction(
    pg_backend: PostgresBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Parallel steps start together: beyond two rows the commit is a pipeline."""
    store = pg_store(pg_backend)
    epoch, head = await started(store, "run_f", "w1")
    first = await store.commit(
        Commit(
            run_id="run_f", owner="w1", epoch=epoch, expected_head=head, events=step_events(1, None)
        )
    )
    locked = locked_calls(store, monkeypatch)
    fan_out = (
        NewEvent(event_type="step_completed", correlation_id="step_1", payload=b"out"),
        *(created(f"step_{n}", n) for n in range(2, 6)),
    )
    result = await store.commit(
        Commit(run_id="run_f", owner="w1", epoch=epoch, expected_head=first.head, events=fan_out)
    )
    assert locked == [] and result.head == first.head + 5
    steps = {s.step_id: s.status for s in await store.list_steps("run_f")}
    assert steps == {"step_1": "completed", **{f"step_{n}": "running" for n in range(2, 6)}}
    # A conflict in the pipeline's tail (a step created twice) undoes the whole commit,
    # the run row and the first events included.
    twice = (created("step_6", 6), created("step_7", 7), created("step_8", 8), created("step_6", 9))
    with pytest.raises(ConflictError):
        await store.commit(
            Commit(run_id="run_f", owner="w1", epoch=epoch, expected_head=result.head, events=twice)
        )
    assert len(await store.list_events("run_f")) == result.head
    run = await store.get_run("run_f")
    assert run is not None and run.head == result.head
    assert len(await store.list_steps("run_f")) == 5


async def test_a_run_ends_in_one_round_trip_and_wakes_its_waiters(
    pg_backend: PostgresBackend, other: PostgresBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = pg_store(pg_backend)
    await store.create_run(
        NewRun(
            run_id="run_g",
            workflow_name="wf",
            input=b"",
            deployment="d",
            engine_version="v",
            queue="q",
        )
    )
    [(message, claim)] = await store.claim_next("q", owner="w1", lease_seconds=30, limit=1)
    assert claim.run is not None
    first = await store.commit(
        Commit(
            run_id="run_g", owner="w1", epoch=claim.epoch, expected_head=claim.run.head,
            events=step_events(1, None),
        )
    )  # fmt: skip
    # Another process waits for the end; it hears it by NOTIFY, not by polling.
    waiter = asyncio.create_task(other.stores.workflow.wait_run_terminal("run_g", timeout=30))
    await asyncio.sleep(0.2)
    locked = locked_calls(store, monkeypatch)
    pipelines = pipelines_used(monkeypatch)
    end = (
        NewEvent(event_type="step_completed", correlation_id="step_1", payload=b"out"),
        NewEvent(event_type="run_completed", payload=b"result"),
    )
    started_at = time.monotonic()
    await store.commit(
        Commit(
            run_id="run_g", owner="w1", epoch=claim.epoch, expected_head=first.head,
            events=end, ack_message_id=message.message_id, release=True,
        )
    )  # fmt: skip
    done = await asyncio.wait_for(waiter, timeout=5)
    assert time.monotonic() - started_at < 0.9  # the fallback poll is 1 s
    assert locked == []
    assert pipelines == []  # the ack and the NOTIFY went in the commit's one statement
    assert done is not None and done.status == "completed" and done.output == b"result"
    assert done.lease_owner is None
    assert await store.dequeue("q", owner="w9", lease_seconds=30, limit=10) == []  # acked
    assert store._known.get("run_g") is None


async def test_a_park_acks_and_drops_spare_wake_ups_in_one_statement(
    pg_backend: PostgresBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = pg_store(pg_backend)
    await store.create_run(
        NewRun(
            run_id="run_s", workflow_name="wf", input=b"", deployment="d",
            engine_version="v", queue="q",
        )
    )  # fmt: skip
    [(message, claim)] = await store.claim_next("q", owner="w1", lease_seconds=30, limit=1)
    assert claim.run is not None
    first = await store.commit(
        Commit(
            run_id="run_s", owner="w1", epoch=claim.epoch, expected_head=claim.run.head,
            events=step_events(1, None),
        )
    )  # fmt: skip
    # A spare wake-up (a payload's, say, that the run has already seen) waits for it.
    await store.enqueue(
        NewMessage(queue="q", payload=b"run_s", available_at=0.0, idempotency_key="run_s")
    )
    locked = locked_calls(store, monkeypatch)
    pipelines = pipelines_used(monkeypatch)
    done = NewEvent(event_type="step_completed", correlation_id="step_1", payload=b"out")
    await store.commit(
        Commit(
            run_id="run_s", owner="w1", epoch=claim.epoch, expected_head=first.head,
            events=(done,), ack_message_id=message.message_id, release=True,
        )
    )  # fmt: skip
    assert locked == [] and pipelines == []
    run = await store.get_run("run_s")
    assert run is not None and run.status == "running" and run.lease_owner is None
    # Acked, and the spare wake-up dropped: the parked run has nothing to deliver.
    assert await store.dequeue("q", owner="w9", lease_seconds=30, limit=10) == []


async def test_a_run_with_hooks_ends_on_the_locked_path(pg_backend: PostgresBackend) -> None:
    store = pg_store(pg_backend)
    epoch, head = await started(store, "run_h", "w1")
    hooked = await store.commit(
        Commit(
            run_id="run_h", owner="w1", epoch=epoch, expected_head=head,
            events=(
                NewEvent(
                    event_type="hook_created", correlation_id="hook_1",
                    attrs={"token": "tok-h", "slot": 1},
                ),
            ),
        )
    )  # fmt: skip
    await store.commit(
        Commit(
            run_id="run_h", owner="w1", epoch=epoch, expected_head=hooked.head,
            events=(NewEvent(event_type="run_completed", payload=b"r"),), release=True,
        )
    )  # fmt: skip
    log = await store.list_events("run_h")
    assert [e.event_type for e in log][-2:] == ["run_completed", "hook_disposed"]
    assert await store.list_hooks("run_h") == []


async def three_steps_with_a_lost_answer(
    pg_backend: PostgresBackend,
    monkeypatch: pytest.MonkeyPatch,
    lose: Callable[[Any], bool],
    step: Callable[[int], Any],
) -> Any:
    """Run `step` for 0, 1 and 2; the first one-round-trip commit `lose` picks lands,
    then its answer is lost (the connection cut). Each step must have run once, at
    attempt 1; returns the run's handle."""
    import tether
    from tether.stores.postgres import _fast

    send = _fast.send
    cut: list[str] = []

    async def answer_lost(conn: Any, fast: Any, notes: Any) -> Any:
        sent = await send(conn, fast, notes)
        if not cut and lose(fast):
            cut.append(fast.run.run_id)
            raise psycopg.OperationalError("server closed the connection unexpectedly")
        return sent

    monkeypatch.setattr(_fast, "send", answer_lost)
    registry = tether.Registry(deployment="fast-lost")

    @registry.workflow(name="three")
    async def three(ctx: tether.WorkflowContext) -> int:
        return sum([await ctx.step(step, i, name="step") for i in range(3)])

    async with tether.Worker(pg_backend, registry, poll_interval=0.02):
        handle = await tether.Client(pg_backend, registry=registry).start(three)
        assert await handle.result(timeout=20) == 3
    assert cut
    assert [(s.status, s.attempt) for s in await handle.steps()] == [("completed", 1)] * 3
    return handle


async def test_a_written_fast_commit_whose_answer_was_lost_is_not_written_again(
    pg_backend: PostgresBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by the fault soak: the fast path's write landed, the connection was cut
    before its answer, the store fell back to the locked path (which says the head
    moved), and the engine committed the same step again: a duplicate step_created
    failed the run."""
    done: list[int] = []

    def step(i: int) -> int:
        done.append(i)
        return i

    def created(fast: Any) -> bool:
        return any(e.event_type == "step_created" for e in fast.events)

    await three_steps_with_a_lost_answer(pg_backend, monkeypatch, created, step)
    assert done == [0, 1, 2]


async def test_riding_appends_whose_answer_was_lost_are_written_once(
    pg_backend: PostgresBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A commit carrying a step's buffered chunks lands, then its answer is lost: the
    locked path finds the run moved on (rolling back its own try, appends included) and
    the engine catches up. Each chunk is in the stream once, each step ran once."""
    from tether import durable

    done: list[int] = []

    async def step(i: int) -> int:
        durable.step_stream("out").write(b"%d" % i)  # rides on the next commit
        done.append(i)
        return i

    handle = await three_steps_with_a_lost_answer(
        pg_backend, monkeypatch, lambda fast: bool(fast.extra), step
    )
    assert done == [0, 1, 2]
    chunks, _ = await pg_backend.stores.workflow.read_stream(handle.run_id, "out")
    assert [c.data for c in chunks] == [b"0", b"1", b"2"]


async def test_stream_appends_ride_in_the_one_round_trip_commit(
    pg_backend: PostgresBackend, other: PostgresBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A commit whose only writes are stream appends stays on the event loop: one
    statement batch with no BEGIN, no thread, no locked path; this process's follower is
    handed the chunks and another process's follower hears them."""
    store = pg_store(pg_backend)
    epoch, head = await started(store, "run_s", "w1")
    await store.commit(
        Commit(run_id="run_s", owner="w1", epoch=epoch, expected_head=head,
               events=step_events(1, None))
    )  # fmt: skip
    head += 1
    locked = locked_calls(store, monkeypatch)
    threaded: list[object] = []
    monkeypatch.setattr(store, "_in_txn_fast", lambda *a: threaded.append(a))
    here = store.follow_stream("run_s", "out")
    there = other.stores.workflow.follow_stream("run_s", "out")
    result = await store.commit(
        Commit(
            run_id="run_s", owner="w1", epoch=epoch, expected_head=head,
            events=step_events(2, "step_1"),
            writes=(AppendStream(run_id="run_s", name="out", chunks=(b"a", b"b")),
                    AppendStream(run_id="run_s", name="out", chunks=(b"c",))),
        )
    )  # fmt: skip
    assert result.head == head + 2
    assert locked == [] and threaded == []
    chunks, _ = await store.read_stream("run_s", "out")
    assert [(c.index, c.data) for c in chunks] == [(0, b"a"), (1, b"b"), (2, b"c")]
    for follower in (here, there):
        got = [await asyncio.wait_for(anext(follower), 10) for _ in range(3)]
        assert [c.data for c in got] == [b"a", b"b", b"c"]
        await follower.aclose()
    known = store._known.get("run_s")
    assert known is not None and known.run.head == result.head


async def test_an_append_to_a_closed_stream_refuses_the_whole_commit(
    pg_backend: PostgresBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found on the server, before the commit's Sync: nothing of it is written, and the
    locked path gives the refusal; the batch it shared with another run's commit is
    rolled back and that one, sent again alone, lands."""
    from tether.stores.postgres import _fast

    store = pg_store(pg_backend)
    runs = {}
    for run_id in ("run_first", "run_c", "run_d"):
        epoch, head = await started(store, run_id, "w1")
        await store.commit(
            Commit(run_id=run_id, owner="w1", epoch=epoch, expected_head=head,
                   events=step_events(1, None))
        )  # fmt: skip
        runs[run_id] = (epoch, head + 1)
    await store.write_stream("run_c", "out", [b"before"])
    await store.close_stream("run_c", "out")
    sizes: list[int] = []
    send_many = _fast.send_many

    async def spy(conn: Any, batch: Any) -> Any:
        sizes.append(len(batch))
        return await send_many(conn, batch)

    monkeypatch.setattr(_fast, "send_many", spy)

    def second_step(run_id: str) -> Commit:
        epoch, head = runs[run_id]
        return Commit(
            run_id=run_id, owner="w1", epoch=epoch, expected_head=head,
            events=step_events(2, "step_1"),
            writes=(AppendStream(run_id=run_id, name="out", chunks=(run_id.encode(),)),),
        )  # fmt: skip

    first, refused, landed = await asyncio.gather(
        *(store.commit(second_step(r)) for r in runs), return_exceptions=True
    )
    assert sizes[:2] == [1, 2]  # the first alone, then the other two in one transaction
    assert isinstance(refused, InvalidTransitionError), refused
    for result, run_id in ((first, "run_first"), (landed, "run_d")):
        assert not isinstance(result, BaseException), result
        assert result.head == runs[run_id][1] + 2
        chunks, _ = await store.read_stream(run_id, "out")
        assert [c.data for c in chunks] == [run_id.encode()]
    run_c = await store.get_run("run_c")
    assert run_c is not None and run_c.head == runs["run_c"][1]  # nothing of it written
    chunks, closed = await store.read_stream("run_c", "out")
    assert [c.data for c in chunks] == [b"before"] and closed
