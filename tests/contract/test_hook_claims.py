"""A hook's payload that claims its parked run for the waker: the same on every backend.

`resume_hook_and_claim` with an admission, told the head of the run's log the claimer
holds (a worker whose session parked): the payload lands at the next slot with the
submission, the run is leased to the claimer under a new epoch, its wake-up written
delivered to it, and the claim carries what the claimer lacks of the log. A case the
rules refuse writes nothing; a run another lease holds is not claimed. (On Postgres the
plain case is one statement and the others take the ordinary path:
`tests/postgres/test_pg_ring.py` counts which.) Each test runs on every backend, as
is and through the encrypting layer (`any_backend`).
"""

from __future__ import annotations

import asyncio

import pytest

from tether.errors import ConflictError, InvalidTransitionError, NotFoundError
from tether.stores import (
    AdmitSubmission,
    Backend,
    Claim,
    Commit,
    Message,
    NewEvent,
    NewRun,
    SubmissionInput,
    make_session_key,
)

QUEUE = "q"
TOKEN = "tok-ring"
LANE = make_session_key("a", "s1")


def _message(sid: str, text: str) -> SubmissionInput:
    return SubmissionInput(
        submission_id=sid, agent_name="a", instance_id="s1", payload={"text": text}
    )


async def _parked(backend: Backend, run_id: str = "r1") -> tuple[int, int]:
    """A run holding the hook `TOKEN`, parked with its lease given back: (epoch, head)."""
    store = backend.stores.workflow
    await store.create_run(
        NewRun(
            run_id=run_id, workflow_name="wf", input=b"", deployment="d", engine_version="e",
            queue=QUEUE,
        )
    )  # fmt: skip
    claim = await store.claim_run(run_id, owner="w1", lease_seconds=30)
    assert claim.run is not None
    hook = NewEvent(
        event_type="hook_created", correlation_id="hook_1", attrs={"slot": 1, "token": TOKEN}
    )
    result = await store.commit(
        Commit(
            run_id=run_id, owner="w1", epoch=claim.epoch, expected_head=claim.run.head,
            events=(hook,), release=True,
        )
    )  # fmt: skip
    return claim.epoch, result.head


async def _ring(
    backend: Backend,
    sid: str,
    text: str,
    *,
    held: int,
    unless: str | None = None,
    run_id: str | None = "r1",
    owner: str = "w2",
) -> tuple[Message, Claim] | None:
    _, claimed = await backend.stores.workflow.resume_hook_and_claim(
        TOKEN,
        b"ring",
        owner=owner,
        lease_seconds=30,
        queue=QUEUE,
        writes=(AdmitSubmission(submission=_message(sid, text), unless=unless),),
        run_id=run_id,
        known={"r1": held},
    )
    return claimed


async def _park_again(backend: Backend, claim: Claim, owner: str = "w2") -> int:
    assert claim.run is not None
    result = await backend.stores.workflow.commit(
        Commit(
            run_id="r1", owner=owner, epoch=claim.epoch, expected_head=claim.run.head,
            release=True,
        )
    )  # fmt: skip
    return result.head


@pytest.mark.parametrize("fenced", [True, False])
async def test_a_parked_run_is_claimed_with_its_payload_and_message(
    any_backend: Backend, fenced: bool
) -> None:
    store = any_backend.stores.workflow
    epoch, head = await _parked(any_backend)
    claimed = await _ring(any_backend, "m1", "hello", held=head, run_id="r1" if fenced else None)
    assert claimed is not None
    message, claim = claimed
    assert claim.outcome == "claimed" and claim.epoch == epoch + 1
    assert claim.run is not None
    assert (claim.run.head, claim.run.lease_owner, claim.run.status) == (head + 1, "w2", "running")
    # The claimer holds the log up to `head`: it is given the payload alone.
    assert claim.after == head
    assert [(e.slot, e.event_type, e.correlation_id, e.payload) for e in claim.events] == [
        (head + 1, "hook_received", "hook_1", b"ring")
    ]
    assert (message.lease_owner, message.deliveries, message.payload) == ("w2", 1, b"r1")
    assert (await store.list_events("r1"))[-1] == claim.events[0]
    sub = await any_backend.stores.submissions.get_submission("m1")
    assert sub is not None and (sub.status, sub.payload) == ("queued", {"text": "hello"})
    # The run goes on under the claim: its next commit lands at the head it was given.
    step = NewEvent(event_type="step_created", correlation_id="s1", attrs={"slot": 2, "name": "s"})
    result = await store.commit(
        Commit(run_id="r1", owner="w2", epoch=claim.epoch, expected_head=head + 1, events=(step,))
    )
    assert result.head == head + 2


async def test_a_payload_alone_claims_the_run(any_backend: Backend) -> None:
    # A workflow's hook resumed by its worker's client (`POST /v1/hooks/{token}` on a
    # server that runs the worker): no admission rides along.
    store = any_backend.stores.workflow
    epoch, head = await _parked(any_backend)
    hook, claimed = await store.resume_hook_and_claim(
        TOKEN, b"data", owner="w2", lease_seconds=30, queue=QUEUE, run_id=None,
        known={"r1": head},
    )  # fmt: skip
    assert hook.token == TOKEN and claimed is not None
    message, claim = claimed
    assert (claim.epoch, message.lease_owner) == (epoch + 1, "w2")
    assert [(e.slot, e.payload) for e in claim.events] == [(head + 1, b"data")]


async def test_an_admission_replayed_wakes_the_run_with_one_row(any_backend: Backend) -> None:
    _, head = await _parked(any_backend)
    first = await _ring(any_backend, "m1", "hello", held=head)
    assert first is not None
    head = await _park_again(any_backend, first[1])
    again = await _ring(any_backend, "m1", "hello", held=head)
    assert again is not None and again[1].epoch == first[1].epoch + 1
    rows = await any_backend.stores.submissions.list_unsettled_submissions([LANE])
    assert [s.submission_id for s in rows] == ["m1"]


async def test_a_refused_admission_writes_nothing(any_backend: Backend) -> None:
    store = any_backend.stores.workflow
    _, head = await _parked(any_backend)
    first = await _ring(any_backend, "m1", "hello", held=head)
    assert first is not None
    head = await _park_again(any_backend, first[1])
    await any_backend.stores.submissions.admit_direct(_message("close", "x"))
    before = await store.list_events("r1")
    with pytest.raises(ConflictError):
        await _ring(any_backend, "m1", "other", held=head)
    with pytest.raises(InvalidTransitionError, match="'close' is in the ledger"):
        await _ring(any_backend, "m2", "x", held=head, unless="close")
    with pytest.raises(NotFoundError):
        await _ring(any_backend, "m3", "x", held=head, run_id="another-run")
    assert await store.list_events("r1") == before
    run = await store.get_run("r1")
    assert run is not None and run.lease_owner is None
    for sid in ("m2", "m3"):
        assert await any_backend.stores.submissions.get_submission(sid) is None


async def test_a_run_under_a_live_lease_is_not_claimed(any_backend: Backend) -> None:
    store = any_backend.stores.workflow
    _, head = await _parked(any_backend)
    first = await _ring(any_backend, "m1", "hello", held=head)
    assert first is not None
    # Leased to w2 now: another waker admits and appends, and leaves the run to it.
    assert await _ring(any_backend, "m2", "again", held=head + 1, owner="w3") is None
    assert await any_backend.stores.submissions.get_submission("m2") is not None
    events = await store.list_events("r1")
    assert [e.event_type for e in events[-2:]] == ["hook_received", "hook_received"]
    run = await store.get_run("r1")
    assert run is not None and (run.lease_owner, run.lease_epoch) == ("w2", first[1].epoch)


async def test_a_claimer_behind_the_log_is_given_what_it_lacks(any_backend: Backend) -> None:
    _, head = await _parked(any_backend)
    claimed = await _ring(any_backend, "m1", "hello", held=head - 1)
    assert claimed is not None
    events = claimed[1].events
    assert [e.slot for e in events][-2:] == [head, head + 1]
    assert events[-1].event_type == "hook_received"


async def test_concurrent_wake_ups_claim_the_run_once(any_backend: Backend) -> None:
    _, head = await _parked(any_backend)
    results = await asyncio.gather(
        *(_ring(any_backend, f"m{i}", "x", held=head, owner=f"w{i}") for i in range(4))
    )
    assert sum(r is not None for r in results) == 1
    events = await any_backend.stores.workflow.list_events("r1")
    assert [e.event_type for e in events].count("hook_received") == 4
    rows = await any_backend.stores.submissions.list_unsettled_submissions([LANE])
    assert sorted(s.submission_id for s in rows) == ["m0", "m1", "m2", "m3"]
