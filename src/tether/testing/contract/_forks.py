"""Fork cases of the workflow-store contract: a new run from another's operations."""

from __future__ import annotations

import pytest

from ...errors import ConflictError, InvalidTransitionError, NotFoundError
from ...stores import (
    FORK_SLOT_LABEL,
    FORKED_FROM_LABEL,
    AppendStream,
    NewEvent,
    NewRun,
    RunFork,
    WorkflowStore,
)

__all__ = ["ForkContract"]


def _new(run_id: str, input: bytes = b"in") -> NewRun:
    return NewRun(
        run_id=run_id,
        workflow_name="wf",
        input=input,
        deployment="d",
        engine_version="e",
        queue="q",
        labels={"team": "a"},
    )


def _copied() -> tuple[NewEvent, ...]:
    """A completed step, a completed sleep and a hook with one payload, as a fork copies them."""
    return (
        NewEvent(
            event_type="step_created",
            correlation_id="step_f1",
            attrs={"slot": 1, "name": "s", "attempt": 2},
            payload=b"args",
        ),
        NewEvent(
            event_type="step_completed",
            correlation_id="step_f1",
            attrs={"at": 5.0},
            payload=b"out",
        ),
        NewEvent(
            event_type="wait_created", correlation_id="wait_f2", attrs={"slot": 2, "resume_at": 1.0}
        ),
        NewEvent(event_type="wait_completed", correlation_id="wait_f2"),
        NewEvent(
            event_type="hook_created",
            correlation_id="hook_f3",
            attrs={"slot": 3, "token": "fork-token"},
        ),
        NewEvent(event_type="hook_received", correlation_id="hook_f3", payload=b"p1"),
    )


class ForkContract:
    """Mixed into `WorkflowStoreContract`; uses its `store` fixture."""

    async def test_a_fork_is_created_whole_with_its_copied_operations(
        self, store: WorkflowStore
    ) -> None:
        await store.create_run(_new("src"))
        before = await store.list_events("src")
        fork = RunFork(run=_new("f1"), source_run_id="src", from_slot=4, events=_copied())
        run, created = await store.fork_run(fork)
        assert created and run.status == "pending" and run.run_id == "f1"
        assert run.chain_id == "f1" and run.parent_run_id is None and run.generation == 0
        assert run.labels == {"team": "a", FORKED_FROM_LABEL: "src", FORK_SLOT_LABEL: "4"}
        events = await store.list_events("f1")
        assert [e.event_type for e in events] == ["run_created"] + [e.event_type for e in _copied()]
        assert [e.slot for e in events] == list(range(1, 8)) and run.head == 7
        assert events[1].payload == b"args" and events[2].payload == b"out"
        assert events[2].attrs == {"at": 5.0} and events[6].payload == b"p1"
        (step,) = await store.list_steps("f1")
        assert (step.step_id, step.slot, step.status, step.attempt) == (
            "step_f1",
            1,
            "completed",
            2,
        )
        assert step.output == b"out"
        (wait,) = await store.list_waits("f1")
        assert wait.completed and wait.slot == 2
        hook = await store.get_hook("fork-token")
        assert hook is not None and hook.run_id == "f1" and hook.slot == 3
        # Created with its way in, like any new run; the source is only read.
        claim = await store.claim_run("f1", owner="w1", lease_seconds=30)
        assert claim.outcome == "claimed" and len(claim.events) == 8
        assert await store.list_events("src") == before
        labelled = await store.list_runs(labels={FORKED_FROM_LABEL: "src"})
        assert [r.run_id for r in labelled.items] == ["f1"]

    async def test_the_same_fork_again_is_the_same_run_and_another_is_a_conflict(
        self, store: WorkflowStore
    ) -> None:
        await store.create_run(_new("src"))
        fork = RunFork(run=_new("f1"), source_run_id="src", from_slot=4, events=_copied())
        await store.fork_run(fork)
        again, created = await store.fork_run(fork)
        assert not created and again.run_id == "f1" and again.head == 7
        with pytest.raises(ConflictError):
            await store.fork_run(RunFork(run=_new("f1"), source_run_id="src", from_slot=2))
        with pytest.raises(ConflictError):
            await store.fork_run(
                RunFork(run=_new("f1", b"other"), source_run_id="src", from_slot=4)
            )
        with pytest.raises(ConflictError):
            # An ordinary run's id is never taken over by a fork.
            await store.fork_run(RunFork(run=_new("src"), source_run_id="src", from_slot=1))
        assert len(await store.list_events("f1")) == 7

    async def test_a_refused_fork_writes_nothing(self, store: WorkflowStore) -> None:
        with pytest.raises(NotFoundError):
            await store.fork_run(RunFork(run=_new("f1"), source_run_id="nope", from_slot=1))
        assert await store.get_run("f1") is None
        await store.create_run(_new("src"))
        ended = NewEvent(event_type="run_completed", payload=b"x")
        with pytest.raises(InvalidTransitionError):
            await store.fork_run(
                RunFork(
                    run=_new("f2"), source_run_id="src", from_slot=4, events=(*_copied(), ended)
                )
            )
        assert await store.get_run("f2") is None and await store.list_events("f2") == []
        assert await store.get_hook("fork-token") is None
        # A hook token another run holds refuses the whole fork, the run with it.
        await store.fork_run(
            RunFork(run=_new("f3"), source_run_id="src", from_slot=4, events=_copied())
        )
        with pytest.raises(ConflictError):
            await store.fork_run(
                RunFork(run=_new("f4"), source_run_id="src", from_slot=4, events=_copied())
            )
        assert await store.get_run("f4") is None
        assert [m.message_id for m in await store.list_run_messages("f4")] == []

    async def test_writes_ride_on_a_fork_and_fall_with_a_refused_one(
        self, store: WorkflowStore
    ) -> None:
        await store.create_run(_new("src"))
        writes = (AppendStream(run_id="f1", name="events", chunks=(b"e1", b"e2")),)
        with pytest.raises(NotFoundError):
            await store.fork_run(
                RunFork(run=_new("f1"), source_run_id="gone", from_slot=1), writes=writes
            )
        assert (await store.read_stream("f1", "events"))[0] == []
        await store.fork_run(
            RunFork(run=_new("f1"), source_run_id="src", from_slot=1), writes=writes
        )
        chunks, _ = await store.read_stream("f1", "events")
        assert [(c.index, c.data) for c in chunks] == [(0, b"e1"), (1, b"e2")]
