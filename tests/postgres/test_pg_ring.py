"""A message to an idle session on Postgres: one statement when plain, else the rules.

The session parks with its lease given back; a message admitted in the worker's process
is the inbox hook's payload with the admission, claiming the run for that worker
(`stores.postgres._ring`). The plain case is one round trip: `tether_ring_claim` with
the run read behind it, or, for a sender that names the run the worker holds a copy
of, `tether_ring_wake` alone, which claims only the row version of that copy. A replay,
a message another lease's holder must see, one the ledger refuses, or a copy the row
moved away from is decided by the ordinary path after the function raised, with
nothing of its try written.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import psycopg
import pytest
from psycopg import sql

import tether
from tether.agent import Agent, AgentHost, Session
from tether.errors import InvalidInputError, SessionClosedError
from tether.stores import AdmitSubmission, SubmissionInput, make_session_key
from tether.stores.postgres import PostgresBackend, _ring
from tether.testing import PostgresRoundTrips, ScriptedModel, WatchedCall

pytestmark = pytest.mark.postgres

RING = "SELECT * FROM tether_ring_claim"
#: A parked session, the counter of its admissions' trips, and the worker serving it.
Parked = tuple[Session, PostgresRoundTrips, tether.Worker]
WAKE = "SELECT * FROM tether_ring_wake"


async def _parked(pg_backend: PostgresBackend, session: Session, worker: tether.Worker) -> None:
    """Wait until the session's run has parked on its inbox with its lease given back,
    and its worker holds the parked run (what the one statement claims from).

    The park is visible to other connections a moment before the worker's activation
    goes on from its commit and keeps the run: a send in between is (rightly) left to
    the rules, which a loaded machine made happen in a test that expects the ring.
    """
    store = pg_backend.stores.workflow
    for _ in range(1000):
        run = await store.get_run(session.run_id)
        if (
            run is not None
            and run.lease_owner is None
            and await store.list_hooks(run.run_id)
            and session.run_id in (worker._parked.known() or {})
        ):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the session never parked")


def _paths(calls: list[WatchedCall]) -> list[str]:
    """Each admission's path: "ring" (the one statement), or "rules" after it raised."""
    out = []
    for call in calls:
        first = call.trips[0].statements[0]
        assert first.startswith((RING, WAKE)), call.describe()
        out.append("ring" if call.count == 1 else "rules")
    return out


@pytest.fixture
async def parked(pg_backend: PostgresBackend) -> AsyncIterator[Parked]:
    """A parked session on a running worker, and a counter of its admissions' trips."""
    agent = Agent(name="a", model=ScriptedModel(lambda request: "ok"))
    host = AgentHost(pg_backend, [agent], deployment="d")
    trips = PostgresRoundTrips()
    trips.watch(pg_backend.stores.workflow, "resume_hook_and_claim")
    async with host.worker(poll_interval=0.01) as worker:
        session = await host.open_session("a", session_id="s1")
        await _parked(pg_backend, session, worker)
        yield session, trips, worker


async def test_messages_to_a_parked_session_are_one_statement_each(
    pg_backend: PostgresBackend, parked: Parked
) -> None:
    session, trips, worker = parked
    with trips.counting():
        # The first send reads the session (not fenced); the next one is fenced by the
        # run it read.
        for text in ("one", "two"):
            await session.send(text)
            await session.wait_for("turn.completed", timeout=30)
            await _parked(pg_backend, session, worker)
    turns = [e for e in await session.read_events() if e.type == "turn.completed"]
    assert len(turns) == 2
    calls = trips.calls_of("resume_hook_and_claim")
    assert _paths(calls) == ["ring", "ring"]
    # Not fenced: the run is read behind the function. Fenced by the run the worker
    # holds a copy of: the function alone, claiming that very row version.
    first, second = (call.trips[0].statements for call in calls)
    assert first[0].startswith(RING) and len(first) == 2, calls[0].describe()
    assert second[0].startswith(WAKE) and len(second) == 1, calls[1].describe()


async def test_a_copy_the_row_moved_away_from_is_left_to_the_rules(
    pg_backend: PostgresBackend, pg_url: str, parked: Parked
) -> None:
    """Another writer changed the parked run's row (here: its lease epoch, as a claim
    given back would): the worker's copy is out of date, and claiming from it would
    write its stale epoch back. The function refuses it; the rules claim the row."""
    session, trips, worker = parked
    await session.send("one")
    await session.wait_for("turn.completed", timeout=30)
    await _parked(pg_backend, session, worker)
    store = pg_backend.stores.workflow
    before = await store.get_run(session.run_id)
    assert before is not None
    async with await psycopg.AsyncConnection.connect(pg_url, autocommit=True) as conn:
        await conn.execute(
            sql.SQL(
                "UPDATE {}.tether_runs SET lease_epoch = lease_epoch + 5 WHERE run_id = %s"
            ).format(sql.Identifier(pg_backend.namespace)),
            (session.run_id,),
        )
    with trips.counting():
        await session.send("two")
        done = await session.wait_for("turn.completed", timeout=30)
    (call,) = trips.calls_of("resume_hook_and_claim")
    assert call.trips[0].statements[0].startswith(WAKE) and _paths([call]) == ["rules"]
    assert done.data is not None
    after = await store.get_run(session.run_id)
    assert after is not None and after.lease_epoch > before.lease_epoch + 5


async def test_a_replay_and_a_refusal_are_decided_by_the_rules(
    pg_backend: PostgresBackend, parked: Parked
) -> None:
    session, trips, worker = parked
    with trips.counting():
        await session.send("hello", client_message_id="m1")
        await session.wait_for("turn.completed", timeout=30)
        await _parked(pg_backend, session, worker)
        # The same message again (a retry after a timeout, say): admitted once.
        await session.send("hello", client_message_id="m1")
    lane = make_session_key("a", "s1")
    rows = await pg_backend.stores.submissions.list_unsettled_submissions([lane])
    assert rows == []  # the one message ran; its replay added none
    turns = [e for e in await session.read_events() if e.type == "turn.completed"]
    assert len(turns) == 1
    await session.close()
    with pytest.raises(SessionClosedError):
        await session.send("too late")
    assert _paths(trips.calls_of("resume_hook_and_claim"))[:2] == ["ring", "rules"]


def test_text_the_database_refuses_is_left_to_the_rules() -> None:
    # A NUL character: the ordinary path gives its refusal, as it did before.
    def ring(token: str, sid: str) -> object:
        message = SubmissionInput(submission_id=sid, agent_name="a", instance_id="s1")
        return _ring.plan(
            "ns", token, b"x", owner="w1", lease_seconds=30, queue="q",
            writes=(AdmitSubmission(submission=message),), run_id="r1", known={"r1": 3},
        )  # fmt: skip

    assert ring("tok", "m1") is not None
    assert ring("tok\x00", "m1") is None
    # An id the rules refuse is refused here alike, with their error.
    with pytest.raises(InvalidInputError, match="submission_id"):
        ring("tok", "m\x001")
    with pytest.raises(InvalidInputError, match="submission_id"):
        ring("tok", "m" * 1100)


async def test_a_workflow_hook_resumed_through_its_worker_is_one_statement(
    pg_backend: PostgresBackend,
) -> None:
    registry = tether.Registry(deployment="d")

    @registry.workflow(name="waits")
    async def waits(ctx: tether.WorkflowContext) -> str:
        return str(await ctx.create_hook(token="tok-wf"))

    trips = PostgresRoundTrips()
    trips.watch(pg_backend.stores.workflow, "resume_hook_and_claim")
    async with tether.Worker(pg_backend, registry, poll_interval=0.01) as worker:
        handle = await worker.client.start("waits", run_id="w1")
        store = pg_backend.stores.workflow
        for _ in range(1000):
            run = await store.get_run("w1")
            if run is not None and run.lease_owner is None and await store.list_hooks("w1"):
                break
            await asyncio.sleep(0.01)
        with trips.counting():
            await worker.client.resume_hook("tok-wf", "go")
        assert await handle.result(timeout=30) == "go"
    assert _paths(trips.calls_of("resume_hook_and_claim")) == ["ring"]
