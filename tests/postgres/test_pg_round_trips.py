"""Round trips of the hot agent paths on Postgres, pinned so they cannot creep back up.

A round trip (see `tether.testing.PostgresRoundTrips`) costs far more than the CPU of
the statements it carries once the machine is busy, so the counts here are the
figures that matter: an agent turn (a message sent to an idle session, one tool call,
then the answer) through the real worker, each store operation's trips counted apart.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from tether.agent import Agent, AgentHost, tool
from tether.agent.models import ModelRequest, ToolResultMessage
from tether.errors import ConflictError, FencedError
from tether.stores import (
    AppendRecords,
    AppendStream,
    AttemptRef,
    Commit,
    JoinSubmissions,
    NewEvent,
    NewRun,
    ProducerClaim,
    SettleSubmission,
    StartSubmission,
    StoreWrite,
    StreamIdentity,
    SubmissionInput,
)
from tether.stores.postgres import PostgresBackend
from tether.stores.postgres import _txn as _txn_module
from tether.testing import (
    PostgresRoundTrips,
    Reply,
    RoundTrip,
    ScriptedModel,
    WatchedCall,
    tool_call,
)

pytestmark = pytest.mark.postgres


@tool
def noop(i: int) -> int:
    """Return i."""
    return i


def one_tool_call(request: ModelRequest) -> Reply | str:
    if isinstance(request.messages[-1], ToolResultMessage):
        return "done"
    return Reply(tool_calls=(tool_call("noop", {"i": 1}, call_id=f"c{len(request.messages)}"),))


def _writes(call: WatchedCall) -> bool:
    """Whether the commit carries writes other than stream appends (those ride along)."""
    commit = call.args[0]
    assert isinstance(commit, Commit)
    return any(not isinstance(w, AppendStream) for w in commit.writes)


def _report(calls: list[WatchedCall]) -> str:
    return "\n".join(call.describe() for call in calls)


@pytest.fixture
async def turn(pg_backend: PostgresBackend) -> AsyncIterator[PostgresRoundTrips]:
    """One whole turn in a fresh idle session, every trip of it counted."""
    stores = pg_backend.stores
    trips = PostgresRoundTrips()
    trips.watch(stores.workflow, "resume_hook_and_claim", "commit")
    trips.watch(stores.conversations, "read")
    trips.watch(stores.submissions, "list_unsettled_submissions")
    agent = Agent(name="rt", model=ScriptedModel(one_tool_call), tools=[noop])
    host = AgentHost(pg_backend, [agent], deployment="rt")
    async with host.worker(poll_interval=0.01):
        session = await host.open_session("rt", session_id="warm")
        await session.send("warm up")  # statements prepared, caches filled
        await session.wait_for("turn.completed", timeout=60)
        session = await host.open_session("rt", session_id="measured")
        # Parked on its inbox, its lease given back: the message claims it at once.
        for _ in range(1000):
            run = await stores.workflow.get_run(session.run_id)
            hooks = await stores.workflow.list_hooks(session.run_id)
            if run is not None and run.lease_owner is None and hooks:
                break
            await asyncio.sleep(0.01)
        with trips.counting():
            await session.send("go")
            await session.wait_for("turn.completed", timeout=60)
        yield trips


async def test_a_message_is_admitted_and_its_run_claimed_in_few_trips(
    turn: PostgresRoundTrips,
) -> None:
    # The submission, the inbox hook's payload, the session run's claim and the wake-up,
    # in one statement.
    (admission,) = turn.calls_of("resume_hook_and_claim")
    assert admission.count == 1, admission.describe()
    (trip,) = admission.trips
    # One statement on the event loop (`tether_ring_claim`), the run read behind it.
    assert trip.statements[0].startswith("SELECT * FROM tether_ring_claim"), admission.describe()
    assert "BEGIN" not in trip.statements, admission.describe()


async def test_a_step_start_is_one_trip(turn: PostgresRoundTrips) -> None:
    starts = [c for c in turn.calls_of("commit") if not _writes(c)]
    assert starts, "the turn's step commits nothing without writes"
    assert max(c.count for c in starts) <= 1, _report(starts)
    # The turn step's start carries `turn.started`: in the same round trip, on the
    # event loop (no hop to a thread).
    (first, *_) = starts
    assert [w.name for w in first.args[0].writes if isinstance(w, AppendStream)], _report(starts)
    (trip,) = first.trips
    assert "BEGIN" not in trip.statements, first.describe()


async def test_a_step_end_with_writes_takes_few_trips(turn: PostgresRoundTrips) -> None:
    # The transcript append, the ledger's start or settle, the session events and the
    # step's commit, in one transaction, in one round trip: the ledger's start and
    # settle check their own rows (under the session's lock), nothing is read ahead.
    ends = [c for c in turn.calls_of("commit") if _writes(c)]
    assert len(ends) == 3, _report(ends)
    # The step that starts the turn's submission, the tool result's, the settling one.
    assert [c.count for c in ends] == [1, 1, 1], _report(ends)


async def test_the_turn_step_reads_are_one_trip_each(turn: PostgresRoundTrips) -> None:
    reads = turn.calls_of("read") + turn.calls_of("list_unsettled_submissions")
    assert reads
    assert max(c.count for c in reads) <= 1, _report(reads)
    # The transcript was read by the session's first (idle) step, before the message:
    # the turn's two steps, in the same lineage, hold it whole and read it not once.
    assert turn.calls_of("read") == [], _report(turn.calls_of("read"))
    assert len(turn.calls_of("list_unsettled_submissions")) == 2


async def _claimed(pg_backend: PostgresBackend, run_id: str) -> tuple[int, int]:
    store = pg_backend.stores.workflow
    await store.create_run(
        NewRun(
            run_id=run_id, workflow_name="wf", input=b"", deployment="d", engine_version="e",
            queue="q",
        )
    )  # fmt: skip
    claim = await store.claim_run(run_id, owner="w1", lease_seconds=30)
    assert claim.run is not None
    return claim.epoch, claim.run.head


def _append(producer: ProducerClaim, sequence: int, text: str) -> AppendRecords:
    return AppendRecords(
        path="c/1",
        producer_id=producer.producer_id,
        producer_epoch=producer.producer_epoch,
        incarnation=producer.incarnation,
        producer_sequence=sequence,
        records=({"text": text},),
    )


async def _step(
    pg_backend: PostgresBackend, epoch: int, head: int, n: int, *writes: StoreWrite
) -> int:
    created = NewEvent(
        event_type="step_created",
        correlation_id=f"step_{n}",
        attrs={"slot": n, "name": "noop", "attempt": 1, "format_version": 1},
    )
    result = await pg_backend.stores.workflow.commit(
        Commit(
            run_id="r1", owner="w1", epoch=epoch, expected_head=head, events=(created,),
            writes=writes,
        )
    )  # fmt: skip
    return result.head


async def test_an_append_the_stream_does_not_expect_is_decided_by_the_rules(
    pg_backend: PostgresBackend,
) -> None:
    # On the one-round-trip path an append checks the stream in its own statement; one
    # that does not apply (a replay, a fenced producer) fails that transaction on the
    # server, before its COMMIT, and the ordinary path gives the rules' answer.
    stores = pg_backend.stores
    epoch, head = await _claimed(pg_backend, "r1")
    await stores.conversations.create_stream("c/1", StreamIdentity(agent_name="a", instance_id="s"))
    producer = await stores.conversations.acquire_producer("c/1", "p")
    trips = PostgresRoundTrips()
    trips.watch(stores.workflow, "commit")
    with trips.counting():
        head = await _step(pg_backend, epoch, head, 1, _append(producer, 0, "one"))
        (first,) = trips.calls_of("commit")
        assert first.count == 1, first.describe()
        # The same batch again (an answer lost, say): a replay, nothing appended twice.
        head = await _step(pg_backend, epoch, head, 2, _append(producer, 0, "one"))
    read = await stores.conversations.read("c/1")
    assert [b.records for b in read.batches] == [({"text": "one"},)]
    await stores.conversations.acquire_producer("c/1", "intruder")
    with pytest.raises(FencedError):
        await _step(pg_backend, epoch, head, 3, _append(producer, 1, "two"))
    read = await stores.conversations.read("c/1")
    assert [b.records for b in read.batches] == [({"text": "one"},)]
    run = await stores.workflow.get_run("r1")
    assert run is not None and run.head == head  # nothing of the refused commit landed


async def test_a_start_is_two_round_trips_whether_new_or_again(
    pg_backend: PostgresBackend,
) -> None:
    # The rules' read of the run id goes with the BEGIN; the writes with the COMMIT.
    store = pg_backend.stores.workflow
    new = NewRun(
        run_id="r1", workflow_name="wf", input=b"x", deployment="d", engine_version="e",
        queue="q",
    )  # fmt: skip
    for label, start in (
        ("new", lambda: store.create_run(new)),
        ("again", lambda: store.create_run(new)),
        ("eager", lambda: store.start_run(replace(new, run_id="r2"), owner="w", lease_seconds=30)),
    ):
        trips = PostgresRoundTrips()
        with trips.counting():
            outcome = await start()
        assert outcome[0].run_id in ("r1", "r2")
        assert trips.count == 2, f"{label}: {trips.describe()}"
    with pytest.raises(ConflictError):
        await store.create_run(replace(new, input=b"other"))
    run = await store.get_run("r2")
    assert run is not None and run.lease_owner == "w"


async def test_a_worker_claims_queued_runs_in_few_trips(pg_backend: PostgresBackend) -> None:
    # A wake-up taken from the queue (no eager claim: another process's message): the
    # messages with the BEGIN, the runs locked with the logs of those it takes, the
    # claim's writes with the COMMIT.
    store = pg_backend.stores.workflow
    for run_id in ("r1", "r2"):
        await store.create_run(
            NewRun(
                run_id=run_id, workflow_name="wf", input=b"", deployment="d",
                engine_version="e", queue="q",
            )
        )  # fmt: skip
    trips = PostgresRoundTrips()
    with trips.counting():
        claimed = await store.claim_next("q", owner="w1", lease_seconds=30, limit=4)
    assert sorted(c.run.run_id for _, c in claimed if c.run is not None) == ["r1", "r2"]
    assert all(c.events and c.events[0].event_type == "run_created" for _, c in claimed)
    assert trips.count <= 3, trips.describe()


async def test_runs_taken_over_together_each_commit_next_in_one_trip(
    pg_backend: PostgresBackend,
) -> None:
    # Runs taken over from a worker whose leases lapsed (a recovery): the claim's
    # updates of their rows follow one another and go as one statement (`_run_updates`),
    # which returns each row's version stamp, so every run's next commit is decided on
    # its copy and sent in one round trip, as after a claim of one run.
    store = pg_backend.stores.workflow
    ids = [f"r{i}" for i in range(6)]
    for run_id in ids:
        await store.create_run(
            NewRun(
                run_id=run_id, workflow_name="wf", input=b"", deployment="d",
                engine_version="e", queue="q",
            )
        )  # fmt: skip
    first = await store.claim_next("q", owner="w0", lease_seconds=0.05, limit=10)
    assert len(first) == len(ids)
    await asyncio.sleep(0.2)  # w0's leases (runs and messages) lapse
    trips = PostgresRoundTrips()
    with trips.counting():
        claimed = await store.claim_next("q", owner="w1", lease_seconds=30, limit=10)
    claims = {c.run.run_id: c for _, c in claimed if c.run is not None}
    assert sorted(claims) == ids
    updates = [s for t in trips.trips for s in t.statements if s.startswith("UPDATE tether_runs")]
    assert len(updates) == 1, trips.describe()
    trips = PostgresRoundTrips()
    trips.watch(store, "commit")
    with trips.counting():
        for run_id, claim in sorted(claims.items()):
            assert claim.run is not None
            created = NewEvent(
                event_type="step_created",
                correlation_id="step_1",
                attrs={"slot": 1, "name": "noop", "attempt": 1, "format_version": 1},
            )
            await store.commit(
                Commit(
                    run_id=run_id, owner="w1", epoch=claim.epoch,
                    expected_head=claim.run.head, events=(created,),
                )
            )  # fmt: skip
    commits = trips.calls_of("commit")
    assert all(c.count == 1 and "tether_step_write" in c.trips[0].statements[0] for c in commits), (
        trips.describe()
    )
    for run_id, claim in claims.items():
        run = await store.get_run(run_id)
        assert run is not None and claim.run is not None
        assert (run.lease_owner, run.lease_epoch) == ("w1", claim.epoch)
        assert run.head == claim.run.head + 1


async def test_joins_of_earlier_commits_settle_with_their_host(pg_backend: PostgresBackend) -> None:
    # The ledger rows a commit changes are read ahead (the joins of a settling host
    # among them, joined by an earlier commit): confirmed joins settle with the host,
    # unconfirmed ones go back to the queue, on the one-round-trip path as elsewhere.
    stores = pg_backend.stores
    epoch, head = await _claimed(pg_backend, "r1")
    for sid in ("m1", "m2", "m3"):
        await stores.submissions.admit_direct(
            SubmissionInput(
                submission_id=sid, agent_name="a", instance_id="s", payload={}, canonical_ready=True
            )
        )
    host = AttemptRef(submission_id="m1", attempt_id="t1")
    head = await _step(
        pg_backend, epoch, head, 1,
        StartSubmission(attempt=host, owner_id="run:r1"),
        JoinSubmissions(host=host, submission_ids=("m2",)),
    )  # fmt: skip
    joining = await stores.submissions.claim_joinable_submissions(host, agent_name="a")
    assert [s.submission_id for s in joining] == ["m3"]
    trips = PostgresRoundTrips()
    trips.watch(stores.workflow, "commit")
    with trips.counting():
        await _step(pg_backend, epoch, head, 2, SettleSubmission(attempt=host, outcome="completed"))
    (settle,) = trips.calls_of("commit")
    assert settle.count <= 2, settle.describe()
    got = {s: await stores.submissions.get_submission(s) for s in ("m1", "m2", "m3")}
    assert [(g.status, g.outcome) for g in got.values() if g is not None] == [
        ("settled", "completed"),
        ("settled", "completed"),
        ("queued", None),
    ]


async def test_a_client_sends_and_follows_with_one_read_of_the_run_each(
    pg_backend: PostgresBackend,
) -> None:
    # The send reads the chain's current run once and finds the inbox on it without
    # reading the run again; the follower reads the run once and looks at its status
    # only later (the session's id is its chain's: no read finds the chain).
    agent = Agent(name="rt", model=ScriptedModel(one_tool_call), tools=[noop])
    host = AgentHost(pg_backend, [agent], deployment="rt")
    async with host.worker(poll_interval=0.01):
        await (await host.open_session("rt", session_id="warm")).send("warm up")
        session = await host.open_session("rt", session_id="fresh")
        store = pg_backend.stores.workflow
        for _ in range(1000):  # parked on its inbox, its lease given back
            run = await store.get_run(session.run_id)
            if run is not None and run.lease_owner is None and await store.list_hooks(run.run_id):
                break
            await asyncio.sleep(0.01)
        trips = PostgresRoundTrips()
        trips.watch(session, "send", "wait_for")
        with trips.counting():
            await session.send("go")
            await session.wait_for("turn.completed", timeout=60)
    (send,) = trips.calls_of("send")
    # The current run, its hooks, the admission (two syncs at most); and perhaps a
    # look at the workers (is `tether dev` running?), at most every 2 s per client.
    looks = [t for t in send.trips if t.statements[0].startswith("SELECT worker_id")]
    assert send.count - len(looks) <= 4 and len(looks) <= 1, send.describe()
    assert len(_run_reads(send)) == 1, send.describe()
    (follow,) = trips.calls_of("wait_for")
    assert len(_run_reads(follow)) == 1, follow.describe()


def _run_reads(call: WatchedCall) -> list[RoundTrip]:
    # Reads of a run's row alone (a transaction's reads ride on its own trips).
    return [
        t
        for t in call.trips
        if t.kind == "statement" and t.statements[0].startswith("SELECT run_id, workflow_name")
    ]


async def _updates_of_two_writes(pg_backend: PostgresBackend, between: str) -> list[str]:
    """Run one transaction writing a run's row twice; the run-row updates it sent.

    `between`: what is held between the two writes, an event insert ("insert") or a
    write refused on the server when it cannot be done ("guarded").
    """
    from tether.stores._records import EventRecord, evolve
    from tether.stores.postgres._txn import _Txn

    store = pg_backend.stores.workflow
    created, _ = await store.create_run(
        NewRun(
            run_id="twice", workflow_name="wf", input=b"", deployment="d", engine_version="e",
            queue="q",
        )
    )  # fmt: skip

    def write(t: _Txn) -> None:
        run = t.get_run("twice")
        assert run is not None
        run = evolve(run, head=run.head + 1)
        t.update_run(run)
        if between == "insert":
            t.insert_event(
                EventRecord(
                    run_id="twice",
                    slot=run.head,
                    event_type="hook_received",
                    correlation_id="h",
                    attrs={},
                    payload=b"{}",
                    created_at=t.now,
                )
            )
        else:
            t.hold("SELECT 1 / 1", None, FencedError("never"))
        t.update_run(evolve(run, lease_owner="w1", lease_epoch=7, lease_expires_at=t.now + 60))

    trips = PostgresRoundTrips()
    trips.watch(store, "_write")
    with trips.counting():
        await store._write(write)
    after = await store.get_run("twice")
    assert after is not None
    # Both writes are in the row, whatever was sent.
    assert (after.head, after.lease_owner, after.lease_epoch) == (created.head + 1, "w1", 7)
    statements = [s for call in trips.calls_of("_write") for t in call.trips for s in t.statements]
    return [s for s in statements if s.startswith("UPDATE tether_runs")]


async def test_a_run_row_written_twice_past_an_insert_is_sent_once(
    pg_backend: PostgresBackend,
) -> None:
    assert len(await _updates_of_two_writes(pg_backend, "insert")) == 1


async def test_a_run_row_written_twice_past_a_guarded_write_is_sent_twice(
    pg_backend: PostgresBackend,
) -> None:
    # The guarded write may depend on the row as the first update leaves it.
    assert len(await _updates_of_two_writes(pg_backend, "guarded")) == 2


async def test_a_message_to_a_running_session_reads_no_log_and_takes_two_trips(
    pg_backend: PostgresBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A running turn holds the lease: the message is admitted and rings the inbox in two
    round trips (the reads with the BEGIN; the writes, the held wake-up and the NOTIFY
    with the COMMIT), and the run's log, which only a claim replays, is not sent back
    (it is the whole history of a long session)."""
    release = asyncio.Event()

    @tool
    async def wait_here() -> str:
        """Wait until released."""
        await release.wait()
        return "released"

    def model(request: ModelRequest) -> Reply | str:
        if isinstance(request.messages[-1], ToolResultMessage):
            return "done"
        return Reply(tool_calls=(tool_call("wait_here", {}, call_id=f"c{len(request.messages)}"),))

    agent = Agent(name="rt", model=ScriptedModel(model), tools=[wait_here])
    host = AgentHost(pg_backend, [agent], deployment="rt")
    trips = PostgresRoundTrips()
    trips.watch(pg_backend.stores.workflow, "resume_hook_and_claim")
    parsed: list[object] = []
    original = _txn_module.rows.event_from_row

    def counted(row: object) -> object:
        parsed.append(row)
        return original(row)  # type: ignore[arg-type]

    async with host.worker(poll_interval=0.01):
        session = await host.open_session("rt", session_id="running")
        await session.send("first")
        await session.wait_for("tool.call", timeout=30)
        monkeypatch.setattr(_txn_module.rows, "event_from_row", counted)
        with trips.counting():
            await session.send("second", turn_policy="queue")
        monkeypatch.undo()
        release.set()
        await session.wait_for("turn.completed", timeout=30)
    (call,) = trips.calls_of("resume_hook_and_claim")
    assert call.count == 2, call.describe()
    assert parsed == []
