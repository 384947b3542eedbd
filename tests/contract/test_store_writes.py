"""Writes of other stores that ride on a run's commit or a hook resume: all, or none.

On every backend: the ledger, conversation and stream writes of `Commit.writes` land
in the commit's transaction; a refused one (a fenced producer) leaves nothing of the
commit behind; `resume_hook(writes=...)` admits with the wake-up or not at all.
"""

from __future__ import annotations

import pytest

from tether.errors import (
    BatchPositionError,
    ConflictError,
    FencedError,
    InvalidInputError,
    InvalidTransitionError,
    NotFoundError,
)
from tether.stores import (
    AdmitSubmission,
    AppendRecords,
    AppendStream,
    AttemptRef,
    Backend,
    Commit,
    JoinSubmissions,
    NewEvent,
    NewRun,
    RedactSubmissions,
    ResolveSubmissions,
    SettleSubmission,
    StartSubmission,
    StreamIdentity,
    SubmissionInput,
    make_session_key,
)
from tether.stores._agent_records import format_offset

QUEUE = "q"


async def _claimed_run(backend: Backend, run_id: str) -> tuple[int, int]:
    store = backend.stores.workflow
    await store.create_run(
        NewRun(
            run_id=run_id,
            workflow_name="wf",
            input=b"",
            deployment="d",
            engine_version="e",
            queue=QUEUE,
        )
    )
    claim = await store.claim_run(run_id, owner="w1", lease_seconds=30)
    assert claim.run is not None
    return claim.epoch, claim.run.head


def _message(sid: str, text: str) -> SubmissionInput:
    return SubmissionInput(
        submission_id=sid, agent_name="a", instance_id="s1", payload={"text": text}
    )


async def test_commit_writes_land_with_the_commit(backend: Backend) -> None:
    stores = backend.stores
    epoch, head = await _claimed_run(backend, "r1")
    await stores.conversations.create_stream(
        "c/1", StreamIdentity(agent_name="a", instance_id="s1")
    )
    producer = await stores.conversations.acquire_producer("c/1", "p")
    for sid in ("m1", "m2", "m3", "cmd"):
        await stores.submissions.admit_direct(_message(sid, sid))
    host = AttemptRef(submission_id="m2", attempt_id="turn-m2")
    writes = (
        StartSubmission(attempt=host, owner_id="run:r1"),
        JoinSubmissions(host=host, submission_ids=("m3", "m1")),
        ResolveSubmissions(submission_ids=("cmd",), outcome="completed"),
        AppendRecords(
            path="c/1",
            producer_id=producer.producer_id,
            producer_epoch=producer.producer_epoch,
            incarnation=producer.incarnation,
            producer_sequence=0,
            records=({"kind": "user", "text": "m2"},),
        ),
        AppendStream(run_id="r1", name="events", chunks=(b"a", b"b")),
    )
    result = await stores.workflow.commit(
        Commit(
            run_id="r1",
            owner="w1",
            epoch=epoch,
            expected_head=head,
            events=(NewEvent(event_type="run_completed", payload=b"x"),),
            writes=writes,
            release=True,
        )
    )
    assert result.head == head + 1
    got = {s: await stores.submissions.get_submission(s) for s in ("m1", "m2", "m3", "cmd")}
    assert got["m2"] is not None and got["m2"].status == "running"
    assert got["m3"] is not None and got["m3"].status == "joined"
    # m1 is m2's elder: it is not in m2's lane order, but the lane's consumer chose it.
    assert got["m1"] is not None and got["m1"].status == "joined"
    assert got["cmd"] is not None and (got["cmd"].status, got["cmd"].outcome) == (
        "settled",
        "completed",
    )
    read = await stores.conversations.read("c/1")
    assert [b.records for b in read.batches] == [({"kind": "user", "text": "m2"},)]
    chunks, _ = await stores.workflow.read_stream("r1", "events")
    assert [c.data for c in chunks] == [b"a", b"b"]


async def test_a_refused_write_leaves_nothing_of_the_commit(backend: Backend) -> None:
    stores = backend.stores
    epoch, head = await _claimed_run(backend, "r2")
    await stores.conversations.create_stream(
        "c/2", StreamIdentity(agent_name="a", instance_id="s1")
    )
    stale = await stores.conversations.acquire_producer("c/2", "p")
    await stores.conversations.acquire_producer("c/2", "intruder")
    await stores.submissions.admit_direct(_message("m1", "m1"))
    attempt = AttemptRef(submission_id="m1", attempt_id="t")
    with pytest.raises(FencedError):
        await stores.workflow.commit(
            Commit(
                run_id="r2",
                owner="w1",
                epoch=epoch,
                expected_head=head,
                events=(NewEvent(event_type="run_completed", payload=b"x"),),
                writes=(
                    StartSubmission(attempt=attempt, owner_id="run:r2"),
                    AppendStream(run_id="r2", name="events", chunks=(b"a",)),
                    AppendRecords(
                        path="c/2",
                        producer_id=stale.producer_id,
                        producer_epoch=stale.producer_epoch,
                        incarnation=stale.incarnation,
                        producer_sequence=0,
                        records=({"x": 1},),
                    ),
                ),
            )
        )
    run = await stores.workflow.get_run("r2")
    assert run is not None and run.head == head and run.status == "running"
    sub = await stores.submissions.get_submission("m1")
    assert sub is not None and sub.status == "queued"
    assert (await stores.workflow.read_stream("r2", "events"))[0] == []


async def test_settle_and_redact(backend: Backend) -> None:
    stores = backend.stores
    epoch, head = await _claimed_run(backend, "r3")
    for sid in ("m1", "m2"):
        await stores.submissions.admit_direct(_message(sid, f"secret {sid}"))
    host = AttemptRef(submission_id="m1", attempt_id="t1")
    await stores.workflow.commit(
        Commit(
            run_id="r3",
            owner="w1",
            epoch=epoch,
            expected_head=head,
            writes=(
                StartSubmission(attempt=host, owner_id="run:r3"),
                JoinSubmissions(host=host, submission_ids=("m2",)),
                SettleSubmission(attempt=host, outcome="aborted", error="cancelled"),
                RedactSubmissions(session_keys=(make_session_key("a", "s1"),)),
            ),
        )
    )
    for sid in ("m1", "m2"):
        sub = await stores.submissions.get_submission(sid)
        assert sub is not None and (sub.status, sub.outcome) == ("settled", "aborted")
        assert sub.payload is None and sub.error == "cancelled"
    # A settlement by someone who does not own the submission changes nothing.
    await stores.submissions.admit_direct(_message("m3", "m3"))
    run = await stores.workflow.get_run("r3")
    assert run is not None
    await stores.workflow.commit(
        Commit(
            run_id="r3",
            owner="w1",
            epoch=epoch,
            expected_head=run.head,
            writes=(
                SettleSubmission(
                    attempt=AttemptRef(submission_id="m3", attempt_id="nope"), outcome="failed"
                ),
            ),
        )
    )
    sub = await stores.submissions.get_submission("m3")
    assert sub is not None and sub.status == "queued"


async def test_resume_hook_admits_with_the_wake_up_or_not_at_all(backend: Backend) -> None:
    stores = backend.stores
    epoch, head = await _claimed_run(backend, "r4")
    await stores.workflow.commit(
        Commit(
            run_id="r4",
            owner="w1",
            epoch=epoch,
            expected_head=head,
            events=(
                NewEvent(
                    event_type="hook_created",
                    correlation_id="hook_1",
                    attrs={"slot": 1, "token": "tok-4"},
                ),
            ),
            release=True,
        )
    )
    admit = AdmitSubmission(submission=_message("m1", "hello"))
    await stores.workflow.resume_hook("tok-4", b"ring", writes=(admit,))
    assert await stores.submissions.get_submission("m1") is not None
    # No such hook: nothing is admitted.
    with pytest.raises(NotFoundError):
        await stores.workflow.resume_hook(
            "no-such-token", b"ring", writes=(AdmitSubmission(submission=_message("m2", "x")),)
        )
    assert await stores.submissions.get_submission("m2") is None
    # A conflicting admission: no wake-up either.
    before = len(await stores.workflow.list_events("r4"))
    with pytest.raises(ConflictError):
        await stores.workflow.resume_hook(
            "tok-4", b"ring", writes=(AdmitSubmission(submission=_message("m1", "other")),)
        )
    assert len(await stores.workflow.list_events("r4")) == before
    # `unless`: refused while the ledger holds that submission (a close), with no
    # wake-up; an exact replay of what was admitted before still goes through.
    await stores.workflow.resume_hook(
        "tok-4", b"ring", writes=(AdmitSubmission(submission=_message("m3", "x"), unless="c1"),)
    )
    assert await stores.submissions.get_submission("m3") is not None
    await stores.submissions.admit_direct(_message("c1", "close"))
    before = len(await stores.workflow.list_events("r4"))
    with pytest.raises(InvalidTransitionError, match="'c1' is in the ledger"):
        await stores.workflow.resume_hook(
            "tok-4",
            b"ring",
            writes=(AdmitSubmission(submission=_message("m4", "x"), unless="c1"),),
        )
    assert await stores.submissions.get_submission("m4") is None
    assert len(await stores.workflow.list_events("r4")) == before
    await stores.workflow.resume_hook(
        "tok-4", b"ring", writes=(AdmitSubmission(submission=_message("m3", "x"), unless="c1"),)
    )


async def test_an_append_to_a_closed_stream_leaves_nothing_of_the_commit(
    backend: Backend,
) -> None:
    # On Postgres the append went out held, with the COMMIT, and its refusal was seen
    # only once that round trip returned: the error was raised, the commit was written.
    stores = backend.stores
    epoch, head = await _claimed_run(backend, "r3")
    step = NewEvent(
        event_type="step_created",
        correlation_id="s1",
        attrs={"slot": 1, "name": "s", "attempt": 1},
        payload=b"in",
    )
    # A first commit, so a backend that plans commits on its copy of the run has one.
    first = await stores.workflow.commit(
        Commit(run_id="r3", owner="w1", epoch=epoch, expected_head=head, events=(step,))
    )
    await stores.workflow.write_stream("r3", "events", [b"a"])
    await stores.workflow.close_stream("r3", "events")
    done = NewEvent(event_type="step_completed", correlation_id="s1", payload=b"out")
    with pytest.raises(InvalidTransitionError):
        await stores.workflow.commit(
            Commit(
                run_id="r3",
                owner="w1",
                epoch=epoch,
                expected_head=first.head,
                events=(done,),
                writes=(AppendStream(run_id="r3", name="events", chunks=(b"b",)),),
            )
        )
    run = await stores.workflow.get_run("r3")
    assert run is not None and run.head == first.head and run.status == "running"
    steps = await stores.workflow.list_steps("r3")
    assert [s.status for s in steps] == ["running"]
    assert [c.data for c in (await stores.workflow.read_stream("r3", "events"))[0]] == [b"a"]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("submission_id", "m\x001"),
        ("submission_id", ""),
        ("submission_id", "m" * 1100),
        ("agent_name", "a\x00"),
        ("instance_id", "s\x001"),
    ],
)
async def test_a_submission_no_backend_can_hold_is_refused_alike(
    backend: Backend, field: str, value: str
) -> None:
    """The ledger refuses the same ids on every backend, before anything is written
    (SQLite took a NUL that PostgreSQL refused with a driver error)."""
    fields = {"submission_id": "m1", "agent_name": "a", "instance_id": "s1", field: value}
    sub = SubmissionInput(**fields, payload={"text": "hi"})
    stores = backend.stores
    with pytest.raises(InvalidInputError, match=field):
        await stores.submissions.admit_direct(sub)
    with pytest.raises(InvalidInputError, match=field):
        await stores.submissions.admit_dispatch(sub)
    assert await stores.submissions.list_unsettled_submissions([make_session_key("a", "s1")]) == []


async def test_a_commit_whose_batch_is_stated_at_another_offset_writes_nothing(
    backend: Backend,
) -> None:
    stores = backend.stores
    epoch, head = await _claimed_run(backend, "r9")
    await stores.conversations.create_stream(
        "c/9", StreamIdentity(agent_name="a", instance_id="s9")
    )
    producer = await stores.conversations.acquire_producer("c/9", "p")

    def commit(sequence: int, at: str, expected_head: int) -> Commit:
        write = AppendRecords(
            path="c/9",
            producer_id=producer.producer_id,
            producer_epoch=producer.producer_epoch,
            incarnation=producer.incarnation,
            producer_sequence=sequence,
            records=({"n": sequence},),
            at=at,
        )
        return Commit(
            run_id="r9",
            owner="w1",
            epoch=epoch,
            expected_head=expected_head,
            events=(NewEvent(event_type="custom", correlation_id=f"c{sequence}"),),
            writes=(write,),
        )

    with pytest.raises(BatchPositionError, match="'00000000000000000001', its next") as refused:
        await stores.workflow.commit(commit(0, format_offset(2), head))
    assert (refused.value.offset, refused.value.replay) == (format_offset(1), False)
    assert (await stores.conversations.read("c/9")).batches == ()
    assert len(await stores.workflow.list_events("r9")) == head  # the commit wrote nothing
    first = await stores.workflow.commit(commit(0, format_offset(1), head))
    # Its replay stated at another offset: refused, naming where it was appended.
    with pytest.raises(BatchPositionError, match="replays") as replayed:
        await stores.workflow.commit(commit(0, format_offset(2), first.head))
    assert (replayed.value.offset, replayed.value.replay) == (format_offset(1), True)
    read = await stores.conversations.read("c/9")
    assert [(b.offset, b.records) for b in read.batches] == [(format_offset(1), ({"n": 0},))]
    # A direct append is held to its `at` the same way.
    with pytest.raises(BatchPositionError):
        await stores.conversations.append(
            path="c/9",
            producer_id=producer.producer_id,
            producer_epoch=producer.producer_epoch,
            incarnation=producer.incarnation,
            producer_sequence=1,
            records=[{"n": 1}],
            at=format_offset(3),
        )
    landed = await stores.conversations.append(
        path="c/9",
        producer_id=producer.producer_id,
        producer_epoch=producer.producer_epoch,
        incarnation=producer.incarnation,
        producer_sequence=1,
        records=[{"n": 1}],
        at=format_offset(2),
    )
    assert landed == format_offset(2)
