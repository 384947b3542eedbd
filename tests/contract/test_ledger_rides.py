"""A lone start or settle riding on a run's commit: what the ledger's rules make of it.

An agent's turn step starts its message with the step's checkpoint and settles it with
the turn's end, each the commit's only ledger write. Every backend gives the rules'
outcome: a queued message starts (once: a replay changes nothing), a row it does not
apply to is left as it is, a settle takes the joins along (confirmed ones settle,
unconfirmed ones go back to the queue). On Postgres these are statements that check
their own rows, in the commit's one round trip (`tests/postgres/test_pg_round_trips.py`
pins the trips); here the outcome is pinned, the same on every backend, as is and
encrypted.
"""

from __future__ import annotations

from tether.stores import (
    AttemptRef,
    Backend,
    Commit,
    JoinSubmissions,
    NewEvent,
    NewRun,
    SettleSubmission,
    StartSubmission,
    StoreWrite,
    Submission,
    SubmissionInput,
)

QUEUE = "q"


class _Run:
    """A claimed run whose commits each carry one ledger write (and start a step)."""

    def __init__(self, backend: Backend, epoch: int, head: int) -> None:
        self.backend = backend
        self.epoch = epoch
        self.head = head
        self.steps = 0

    @classmethod
    async def claimed(cls, backend: Backend) -> _Run:
        store = backend.stores.workflow
        await store.create_run(
            NewRun(
                run_id="r1", workflow_name="wf", input=b"", deployment="d",
                engine_version="e", queue=QUEUE,
            )
        )  # fmt: skip
        claim = await store.claim_run("r1", owner="w1", lease_seconds=30)
        assert claim.run is not None
        return cls(backend, claim.epoch, claim.run.head)

    async def commit(self, *writes: StoreWrite) -> None:
        self.steps += 1
        step = NewEvent(
            event_type="step_created",
            correlation_id=f"s{self.steps}",
            attrs={"slot": self.steps, "name": "turn"},
        )
        result = await self.backend.stores.workflow.commit(
            Commit(
                run_id="r1", owner="w1", epoch=self.epoch, expected_head=self.head,
                events=(step,), writes=writes,
            )
        )  # fmt: skip
        self.head = result.head

    async def row(self, submission_id: str) -> Submission:
        found = await self.backend.stores.submissions.get_submission(submission_id)
        assert found is not None
        return found


async def _admit(backend: Backend, *ids: str) -> None:
    for sid in ids:
        await backend.stores.submissions.admit_direct(
            SubmissionInput(
                submission_id=sid, agent_name="a", instance_id="s1", payload={"text": sid},
                canonical_ready=True,
            )
        )  # fmt: skip


async def test_a_queued_message_starts_once(any_backend: Backend) -> None:
    run = await _Run.claimed(any_backend)
    await _admit(any_backend, "m1")
    queued = await run.row("m1")
    turn = AttemptRef(submission_id="m1", attempt_id="turn-1")
    await run.commit(StartSubmission(attempt=turn, owner_id="run:r1"))
    started = await run.row("m1")
    assert (started.status, started.attempt_id, started.owner_id) == (
        "running",
        "turn-1",
        "run:r1",
    )
    assert started.attempt_count == queued.attempt_count + 1
    assert started.started_at is not None and started.input_applied_at == started.started_at
    assert started.canonical_ready_at is not None and started.timeout_at > started.started_at
    assert started.lease_expires_at == 0
    # The same start again (a step's attempt run again): nothing changes.
    await run.commit(StartSubmission(attempt=turn, owner_id="run:r1"))
    assert await run.row("m1") == started
    # Another attempt's start of a running message: nothing changes either.
    other = AttemptRef(submission_id="m1", attempt_id="turn-2")
    await run.commit(StartSubmission(attempt=other, owner_id="run:r1"))
    assert await run.row("m1") == started


async def test_a_start_of_what_is_not_there_changes_nothing(any_backend: Backend) -> None:
    run = await _Run.claimed(any_backend)
    await run.commit(
        StartSubmission(attempt=AttemptRef(submission_id="nope", attempt_id="t"), owner_id="o")
    )
    assert await any_backend.stores.submissions.get_submission("nope") is None


async def test_a_settle_takes_its_joins_along(any_backend: Backend) -> None:
    run = await _Run.claimed(any_backend)
    await _admit(any_backend, "host", "j1", "j2")
    turn = AttemptRef(submission_id="host", attempt_id="turn-1")
    await run.commit(StartSubmission(attempt=turn, owner_id="run:r1"))
    # j1 joined (confirmed by the commit that carries the join), j2 only offered.
    await run.commit(JoinSubmissions(host=turn, submission_ids=("j1",)))
    offered = await any_backend.stores.submissions.claim_joinable_submissions(turn, "a")
    assert [s.submission_id for s in offered] == ["j2"]
    assert (await run.row("j2")).status == "joining"
    await run.commit(SettleSubmission(attempt=turn, outcome="failed"))
    host, joined, unconfirmed = [await run.row(s) for s in ("host", "j1", "j2")]
    assert (host.status, host.outcome, host.error) == ("settled", "failed", "submission failed")
    assert (joined.status, joined.outcome, joined.error) == (
        "settled",
        "failed",
        "submission failed",
    )
    assert joined.settled_at == host.settled_at is not None
    assert (unconfirmed.status, unconfirmed.joined_into, unconfirmed.outcome) == (
        "queued",
        None,
        None,
    )


async def test_a_settle_by_another_attempt_changes_nothing(any_backend: Backend) -> None:
    run = await _Run.claimed(any_backend)
    await _admit(any_backend, "m1")
    turn = AttemptRef(submission_id="m1", attempt_id="turn-1")
    await run.commit(StartSubmission(attempt=turn, owner_id="run:r1"))
    started = await run.row("m1")
    stale = AttemptRef(submission_id="m1", attempt_id="turn-0")
    await run.commit(SettleSubmission(attempt=stale, outcome="completed"))
    assert await run.row("m1") == started
    await run.commit(SettleSubmission(attempt=turn, outcome="completed"))
    done = await run.row("m1")
    assert (done.status, done.outcome, done.error) == ("settled", "completed", None)
