"""Contract of the workflow store: event log rules, leases, queue, hooks, streams."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from ...errors import (
    ConflictError,
    FencedError,
    HookTokenInUseError,
    InvalidTransitionError,
    NotFoundError,
    StaleHeadError,
)
from ...stores import (
    Claim,
    Commit,
    NewEvent,
    NewMessage,
    NewRun,
    WorkerRecord,
    WorkflowStore,
    event_id,
    slot_of_event_id,
)
from ._chains import ChainContract
from ._flow import FlowContract
from ._forks import ForkContract
from ._inspection import InspectionContract
from ._labels import LabelContract
from ._listings import ListingContract
from ._permits import PermitContract
from ._prunable import PrunableContract
from ._queues import QueueContract
from ._stream_positions import StreamPositionContract

__all__ = ["WorkflowStoreContract"]


def _run(run_id: str = "r1", **kw: Any) -> NewRun:
    base: dict[str, Any] = dict(
        run_id=run_id,
        workflow_name="wf",
        input=b"in",
        deployment="d",
        engine_version="e",
        queue="q",
    )
    base.update(kw)
    return NewRun(**base)


async def _claimed(store: WorkflowStore, run_id: str = "r1") -> tuple[int, int]:
    await store.create_run(_run(run_id))
    claim = await store.claim_run(run_id, owner="w1", lease_seconds=30)
    assert claim.outcome == "claimed" and claim.run is not None
    return claim.epoch, claim.run.head


def _commit(run_id: str, epoch: int, head: int, *events: NewEvent, **kw: Any) -> Commit:
    return Commit(run_id=run_id, owner="w1", epoch=epoch, expected_head=head, events=events, **kw)


def _step(step_id: str, slot: int = 1) -> NewEvent:
    return NewEvent(
        event_type="step_created",
        correlation_id=step_id,
        attrs={"slot": slot, "name": "s", "attempt": 1},
        payload=b"x",
    )


class WorkflowStoreContract(
    ChainContract,
    FlowContract,
    PermitContract,
    ForkContract,
    InspectionContract,
    LabelContract,
    ListingContract,
    PrunableContract,
    QueueContract,
    StreamPositionContract,
):
    """Subclass in a ``Test*`` class and provide an async ``backend`` fixture.

    The chain tests (`ChainContract`) also want a ``retention_store`` fixture for the
    end of a retention window; without it that one test skips.
    """

    @pytest.fixture
    def store(self, backend: Any) -> WorkflowStore:
        workflow: WorkflowStore = backend.stores.workflow
        return workflow

    async def test_event_ids_encode_their_slot(self) -> None:
        assert slot_of_event_id(event_id(42)) == 42
        assert event_id(9) < event_id(10)
        with pytest.raises(ValueError):
            slot_of_event_id("evt_nope")

    async def test_create_is_idempotent_and_conflicts_on_other_input(
        self, store: WorkflowStore
    ) -> None:
        run, created = await store.create_run(_run())
        again, created_again = await store.create_run(_run())
        assert created and not created_again and again.run_id == run.run_id
        with pytest.raises(ConflictError):
            await store.create_run(_run(input=b"other"))
        events = await store.list_events("r1")
        assert [e.event_type for e in events] == ["run_created"] and events[0].slot == 1

    async def test_create_compares_input_digests_when_both_runs_have_one(
        self, store: WorkflowStore
    ) -> None:
        # Input bytes differ with dict key order or encryption; digests do not. (A store
        # may keep the digest keyed, as encryption does, so only its presence is seen.)
        run, _ = await store.create_run(_run(input=b"one", input_digest="sha256:a"))
        assert run.input_digest is not None
        stored = await store.get_run("r1")
        assert stored is not None and stored.input_digest == run.input_digest
        _, created = await store.create_run(_run(input=b"two", input_digest="sha256:a"))
        assert not created
        with pytest.raises(ConflictError):
            await store.create_run(_run(input=b"one", input_digest="sha256:b"))
        # Without a digest on either side, the bytes decide.
        await store.create_run(_run("r2", input=b"one"))
        _, created = await store.create_run(_run("r2", input=b"one", input_digest="sha256:a"))
        assert not created
        with pytest.raises(ConflictError):
            await store.create_run(_run("r2", input=b"two", input_digest="sha256:a"))
        # Deleting a run's content deletes its input's digest too.
        await store.purge_run_content("r1")
        purged = await store.get_run("r1")
        assert purged is not None and purged.input_digest is None

    async def test_an_eager_start_creates_the_run_claimed(self, store: WorkflowStore) -> None:
        run, created, claimed = await store.start_run(_run(), owner="w1", lease_seconds=0.3)
        assert created and claimed is not None
        message, claim = claimed
        assert claim.outcome == "claimed" and claim.epoch == 1 and run.lease_owner == "w1"
        assert [e.event_type for e in claim.events] == ["run_created", "run_started"]
        assert message.lease_owner == "w1" and message.payload == b"r1"
        # Its message is delivered already: nobody else takes the run meanwhile ...
        assert await store.claim_next("q", owner="w2", lease_seconds=30, limit=10) == []
        # ... and starting it again changes nothing and claims nothing.
        again, created_again, none = await store.start_run(_run(), owner="w2", lease_seconds=30)
        assert not created_again and none is None and again.lease_epoch == 1
        # Should its owner die, the message brings the run back once the lease ends.
        await asyncio.sleep(0.4)
        ((back, taken),) = await store.claim_next("q", owner="w2", lease_seconds=30, limit=10)
        assert back.message_id == message.message_id and taken.epoch == 2

    async def test_an_eager_wakeup_claims_a_parked_run_with_its_payload(
        self, store: WorkflowStore
    ) -> None:
        epoch, head = await _claimed(store)
        hook = NewEvent(
            event_type="hook_created", correlation_id="h1", attrs={"slot": 1, "token": "t1"}
        )
        head = (await store.commit(_commit("r1", epoch, head, hook, release=True))).head
        # Held by a live lease, or for another queue: woken through the queue, not claimed.
        held = await store.claim_run("r1", owner="w0", lease_seconds=30)
        assert held.outcome == "claimed"
        _, none = await store.resume_hook_and_claim(
            "t1", b"p1", owner="w1", lease_seconds=30, queue="q"
        )
        assert none is None
        await store.release_run("r1", owner="w0", epoch=held.epoch)
        _, none = await store.resume_hook_and_claim(
            "t1", b"p2", owner="w1", lease_seconds=30, queue="other"
        )
        assert none is None
        woken = await store.claim_next("q", owner="w2", lease_seconds=30, limit=10)
        assert [c.run.run_id if c.run else None for _, c in woken] == ["r1"]
        (message, claim) = woken[0]
        run = claim.run
        assert run is not None
        await store.commit(
            Commit(
                run_id="r1", owner="w2", epoch=claim.epoch, expected_head=run.head,
                ack_message_id=message.message_id, release=True,
            )
        )  # fmt: skip
        # Parked, nobody holding it: the payload, the claim and a message already
        # delivered to the owner land in one write, and nothing waits in the queue.
        hook_record, claimed = await store.resume_hook_and_claim(
            "t1", b"p3", owner="w1", lease_seconds=0.3, queue="q"
        )
        assert hook_record.token == "t1" and claimed is not None
        message, claim = claimed
        assert claim.outcome == "claimed" and claim.epoch == held.epoch + 2
        assert claim.run is not None and claim.run.lease_owner == "w1"
        assert [(e.event_type, e.payload) for e in claim.events][-1] == ("hook_received", b"p3")
        assert message.lease_owner == "w1" and message.payload == b"r1"
        assert await store.claim_next("q", owner="w2", lease_seconds=30, limit=10) == []
        # Should the owner die, its message brings the run back once the lease ends.
        await asyncio.sleep(0.4)
        ((back, taken),) = await store.claim_next("q", owner="w2", lease_seconds=30, limit=10)
        assert back.message_id == message.message_id and taken.epoch == claim.epoch + 1
        with pytest.raises(NotFoundError):
            await store.resume_hook_and_claim("nope", b"x", owner="w1", lease_seconds=30, queue="q")

    async def test_a_claim_may_leave_out_the_log_its_claimer_holds(
        self, store: WorkflowStore
    ) -> None:
        def check(claim: Claim, held: int) -> None:
            # Whole (after 0) or from just after what the claimer said it holds.
            assert claim.outcome == "claimed" and claim.run is not None
            assert claim.after in (0, held)
            slots = [e.slot for e in claim.events]
            assert slots == list(range(claim.after + 1, claim.run.head + 1))

        epoch, head = await _claimed(store)
        hook = NewEvent(
            event_type="hook_created", correlation_id="h1", attrs={"slot": 1, "token": "tk"}
        )
        held = (await store.commit(_commit("r1", epoch, head, hook, release=True))).head
        _, claimed = await store.resume_hook_and_claim(
            "tk", b"p1", owner="w1", lease_seconds=30, queue="q", known={"r1": held}
        )
        assert claimed is not None
        message, claim = claimed
        check(claim, held)
        assert claim.events[-1].event_type == "hook_received"
        assert claim.run is not None
        held = (
            await store.commit(
                Commit(
                    run_id="r1", owner="w1", epoch=claim.epoch, expected_head=claim.run.head,
                    ack_message_id=message.message_id, release=True,
                )
            )
        ).head  # fmt: skip
        await store.resume_hook("tk", b"p2")
        ((_, claim),) = await store.claim_next(
            "q", owner="w2", lease_seconds=30, limit=10, known={"r1": held, "other": 3}
        )
        check(claim, held)
        assert claim.run is not None
        await store.release_run("r1", owner="w2", epoch=claim.epoch)
        # A head the run never reached is no prefix of its log: the whole log comes back.
        await store.resume_hook("tk", b"p3")
        ((_, whole),) = await store.claim_next(
            "q", owner="w3", lease_seconds=30, limit=10, known={"r1": claim.run.head + 5}
        )
        assert whole.after == 0 and whole.events[0].slot == 1
        assert whole.run is not None
        held = (
            await store.commit(
                Commit(
                    run_id="r1", owner="w3", epoch=whole.epoch, expected_head=whole.run.head,
                    release=True,
                )
            )
        ).head  # fmt: skip
        _, eager = await store.resume_hook_and_claim(
            "tk", b"p4", owner="w4", lease_seconds=30, queue="q", known={"r1": held + 9}
        )
        assert eager is not None and eager[1].after == 0 and eager[1].events[0].slot == 1

    async def test_claim_fences_and_commit_appends_in_slot_order(
        self, store: WorkflowStore
    ) -> None:
        epoch, head = await _claimed(store)
        result = await store.commit(_commit("r1", epoch, head, _step("s1")))
        assert result.head == head + 1
        steps = await store.list_steps("r1")
        assert [(s.step_id, s.status, s.attempt) for s in steps] == [("s1", "running", 1)]
        slots = [e.slot for e in await store.list_events("r1")]
        assert slots == list(range(1, len(slots) + 1))

    async def test_claim_next_keeps_a_busy_runs_wakeup_until_its_lease_ends(
        self, store: WorkflowStore
    ) -> None:
        await store.create_run(_run("a"))
        await store.create_run(_run("b"))
        held = await store.claim_run("b", owner="w0", lease_seconds=0.3)
        assert held.outcome == "claimed"
        claimed = await store.claim_next("q", owner="w1", lease_seconds=30, limit=10)
        assert [(m.payload, c.run.run_id if c.run else None) for m, c in claimed] == [(b"a", "a")]
        # b's wake-up found a live holder: not handed out now ...
        assert await store.claim_next("q", owner="w1", lease_seconds=30, limit=10) == []
        # ... but kept: should the holder die, it brings the run back once its lease ends.
        await asyncio.sleep(0.4)
        again = await store.claim_next("q", owner="w1", lease_seconds=30, limit=10)
        assert [c.run.run_id if c.run else None for _, c in again] == ["b"]
        assert again[0][1].epoch == held.epoch + 1

    async def test_a_park_drops_the_runs_spare_wakeups(self, store: WorkflowStore) -> None:
        epoch, head = await _claimed(store)
        # A payload arrives for the holder: it is appended and a wake-up is enqueued.
        hook = NewEvent(
            event_type="hook_created", correlation_id="h1", attrs={"slot": 1, "token": "t1"}
        )
        head = (await store.commit(_commit("r1", epoch, head, hook))).head
        await store.resume_hook("t1", b"p")
        with pytest.raises(StaleHeadError):
            await store.commit(_commit("r1", epoch, head))
        # The holder saw it (the head moved past it) and parks: the wake-up is spare.
        await store.commit(_commit("r1", epoch, head + 1, release=True))
        assert await store.claim_next("q", owner="w2", lease_seconds=30, limit=10) == []
        # A timer the park asks for is kept.
        claim = await store.claim_run("r1", owner="w1", lease_seconds=30)
        assert claim.run is not None
        wake = NewMessage(queue="q", payload=b"r1", available_at=time.time(), idempotency_key="r1")
        await store.commit(
            _commit("r1", claim.epoch, claim.run.head, release=True, enqueue=(wake,))
        )
        (taken,) = await store.claim_next("q", owner="w2", lease_seconds=30, limit=10)
        assert taken[1].run is not None and taken[1].run.run_id == "r1"

    async def test_a_hand_back_is_fenced_by_the_epoch(self, store: WorkflowStore) -> None:
        """An old activation giving the run back must not touch a newer one's message."""
        await store.create_run(_run())
        ((message, first),) = await store.claim_next("q", owner="w1", lease_seconds=0.2, limit=1)
        await asyncio.sleep(0.3)
        # The same worker takes the same message and run back under a new epoch.
        ((again, second),) = await store.claim_next("q", owner="w1", lease_seconds=30, limit=1)
        assert again.message_id == message.message_id and second.epoch == first.epoch + 1
        wake = NewMessage(queue="q", payload=b"r1", available_at=time.time(), idempotency_key="r1")
        hand_back = Commit(
            run_id="r1", owner="w1", epoch=first.epoch, expected_head=None,
            ack_message_id=message.message_id, release=True, enqueue=(wake,),
        )  # fmt: skip
        with pytest.raises(FencedError):
            await store.commit(hand_back)
        run = await store.get_run("r1")
        assert run is not None and run.lease_epoch == second.epoch and run.lease_owner == "w1"
        # The newer activation still holds its message (renewable, not re-delivered).
        assert await store.renew_messages([again.message_id], owner="w1", lease_seconds=30) == 1
        assert await store.claim_next("q", owner="w2", lease_seconds=30, limit=10) == []
        # Its own hand-back (no head check) releases the run and leaves a wake-up.
        await store.commit(
            Commit(
                run_id="r1", owner="w1", epoch=second.epoch, expected_head=None,
                ack_message_id=again.message_id, release=True, enqueue=(wake,),
            )
        )  # fmt: skip
        ((_, third),) = await store.claim_next("q", owner="w2", lease_seconds=30, limit=1)
        assert third.epoch == second.epoch + 1

    async def test_a_runs_wake_ups_are_listed_waiting_then_delivered(
        self, store: WorkflowStore
    ) -> None:
        """An inspection sees a run's wake-ups: due when, delivered to whom; acked: gone."""
        await store.create_run(_run())  # its first wake-up is enqueued with it
        later = time.time() + 60
        await store.enqueue(NewMessage(queue="other", payload=b"r2", available_at=later))
        (waiting,) = await store.list_run_messages("r1")
        assert waiting.queue == "q" and waiting.lease_owner is None and waiting.deliveries == 0
        assert waiting.lease_expires_at == 0
        ((message, _),) = await store.claim_next("q", owner="w1", lease_seconds=30, limit=1)
        (delivered,) = await store.list_run_messages("r1")
        assert delivered.message_id == message.message_id == waiting.message_id
        assert delivered.lease_owner == "w1" and delivered.deliveries == 1
        assert delivered.lease_expires_at > time.time()
        assert await store.ack(message.message_id, owner="w1")
        assert await store.list_run_messages("r1") == []
        (other,) = await store.list_run_messages("r2")
        assert other.queue == "other" and other.available_at == pytest.approx(later)
        assert await store.list_run_messages("nothing") == []

    async def test_the_store_clock_stamps_heartbeats(self, store: WorkflowStore) -> None:
        before = await store.clock()
        worker = WorkerRecord(
            worker_id="w9", host="h", pid=1, deployment="d", engine_version="e",
            started_at=0.0, heartbeat_at=0.0, host_id="boot/pid:[1]",
        )  # fmt: skip
        await store.register_worker(worker)
        await store.heartbeat_worker("w9")
        (found,) = [w for w in await store.list_workers() if w.worker_id == "w9"]
        assert found.host_id == "boot/pid:[1]"
        assert before - 1 <= found.heartbeat_at <= await store.clock() + 1

    async def test_a_child_id_naming_another_run_is_refused(self, store: WorkflowStore) -> None:
        await store.create_run(_run("taken"))
        epoch, head = await _claimed(store)
        child = _run("taken", parent_run_id="r1", parent_slot=1)
        started = NewEvent(event_type="child_started", correlation_id="taken", attrs={"slot": 1})
        with pytest.raises(ConflictError):
            await store.commit(_commit("r1", epoch, head, started, start_runs=(child,)))
        assert [e.event_type for e in await store.list_events("r1")][-1] == "run_started"

    async def test_purge_deletes_content_and_keeps_records(self, store: WorkflowStore) -> None:
        epoch, head = await _claimed(store)
        done = NewEvent(event_type="step_completed", correlation_id="s1", payload=b"secret")
        await store.commit(_commit("r1", epoch, head, _step("s1"), done))
        await store.write_stream("r1", "out", [b"private"])
        await store.purge_run_content("r1")
        run = await store.get_run("r1")
        assert run is not None and run.input is None and run.status == "running"
        (step,) = await store.list_steps("r1")
        assert (step.step_id, step.status, step.input, step.output) == (
            "s1",
            "completed",
            None,
            None,
        )
        events = await store.list_events("r1")
        assert events and all(e.payload is None for e in events)
        assert [e.event_type for e in events][-1] == "step_completed"
        assert (await store.read_stream("r1", "out"))[0] == []

    async def test_stale_epoch_is_rejected_and_writes_nothing(self, store: WorkflowStore) -> None:
        epoch, head = await _claimed(store)
        await store.release_run("r1", owner="w1", epoch=epoch)
        claim = await store.claim_run("r1", owner="w2", lease_seconds=30)
        assert claim.epoch == epoch + 1
        with pytest.raises(FencedError):
            await store.commit(_commit("r1", epoch, head, _step("s1")))
        assert await store.list_steps("r1") == []

    async def test_stale_head_is_rejected(self, store: WorkflowStore) -> None:
        epoch, head = await _claimed(store)
        with pytest.raises(StaleHeadError):
            await store.commit(_commit("r1", epoch, head - 1, _step("s1")))

    async def test_live_lease_makes_claim_busy(self, store: WorkflowStore) -> None:
        await _claimed(store)
        claim = await store.claim_run("r1", owner="w2", lease_seconds=30)
        assert claim.outcome == "busy"

    async def test_expired_lease_is_taken_over(self, store: WorkflowStore) -> None:
        await store.create_run(_run())
        first = await store.claim_run("r1", owner="w1", lease_seconds=0.05)
        await asyncio.sleep(0.1)
        second = await store.claim_run("r1", owner="w2", lease_seconds=30)
        assert second.outcome == "claimed" and second.epoch == first.epoch + 1

    async def test_renewals_report_whether_the_lease_is_held(self, store: WorkflowStore) -> None:
        epoch, _ = await _claimed(store)
        assert await store.renew_lease("r1", owner="w1", epoch=epoch, lease_seconds=30)
        assert not await store.renew_lease("r1", owner="w1", epoch=epoch - 1, lease_seconds=30)
        assert not await store.renew_lease("r1", owner="w2", epoch=epoch, lease_seconds=30)
        await store.enqueue(NewMessage(queue="jobs", payload=b"a", available_at=time.time()))
        (msg,) = await store.dequeue("jobs", owner="w1", lease_seconds=30, limit=1)
        assert await store.renew_messages([msg.message_id], owner="w1", lease_seconds=30) == 1
        assert await store.renew_messages([msg.message_id], owner="w2", lease_seconds=30) == 0

    async def test_one_creation_event_per_correlation(self, store: WorkflowStore) -> None:
        epoch, head = await _claimed(store)
        head = (await store.commit(_commit("r1", epoch, head, _step("s1")))).head
        with pytest.raises(ConflictError):
            await store.commit(_commit("r1", epoch, head, _step("s1", slot=2)))
        assert len(await store.list_steps("r1")) == 1
        # Once the step has ended too (a lease holder's copy holds only unfinished steps).
        done = NewEvent(event_type="step_completed", correlation_id="s1", payload=b"o")
        head = (await store.commit(_commit("r1", epoch, head, done))).head
        with pytest.raises(ConflictError):
            await store.commit(_commit("r1", epoch, head, _step("s1", slot=2)))
        (step,) = await store.list_steps("r1")
        assert step.status == "completed" and step.output == b"o"

    async def test_no_event_leaves_a_terminal_state(self, store: WorkflowStore) -> None:
        epoch, head = await _claimed(store)
        done = NewEvent(event_type="step_completed", correlation_id="s1", payload=b"o")
        head = (await store.commit(_commit("r1", epoch, head, _step("s1"), done))).head
        again = NewEvent(event_type="step_started", correlation_id="s1", attrs={"attempt": 2})
        with pytest.raises(InvalidTransitionError):
            await store.commit(_commit("r1", epoch, head, again))
        end = NewEvent(event_type="run_completed", payload=b"r")
        await store.commit(_commit("r1", epoch, head, end))
        run = await store.get_run("r1")
        assert run is not None and run.status == "completed" and run.output == b"r"
        assert run.lease_owner is None
        claim = await store.claim_run("r1", owner="w1", lease_seconds=30)
        assert claim.outcome == "finished"

    async def test_a_failed_commit_writes_nothing(self, store: WorkflowStore) -> None:
        epoch, head = await _claimed(store)
        bad = NewEvent(event_type="step_completed", correlation_id="missing", payload=b"o")
        with pytest.raises(InvalidTransitionError):
            await store.commit(_commit("r1", epoch, head, _step("s1"), bad))
        assert await store.list_steps("r1") == []
        run = await store.get_run("r1")
        assert run is not None and run.head == head

    async def test_hooks_unique_tokens_resume_and_dispose(self, store: WorkflowStore) -> None:
        epoch, head = await _claimed(store)
        hook = NewEvent(
            event_type="hook_created", correlation_id="h1", attrs={"slot": 1, "token": "tok"}
        )
        head = (await store.commit(_commit("r1", epoch, head, hook))).head
        epoch2, head2 = await _claimed(store, "r2")
        clash = NewEvent(
            event_type="hook_created", correlation_id="h2", attrs={"slot": 1, "token": "tok"}
        )
        with pytest.raises(HookTokenInUseError):
            await store.commit(_commit("r2", epoch2, head2, clash))
        await store.resume_hook("tok", b"payload")
        events = await store.list_events("r1", after=head)
        assert [(e.event_type, e.payload) for e in events] == [("hook_received", b"payload")]
        with pytest.raises(NotFoundError):
            await store.resume_hook("nope", b"x")
        await store.commit(_commit("r1", epoch, head + 1, NewEvent(event_type="run_completed")))
        assert await store.get_hook("tok") is None
        with pytest.raises(NotFoundError):
            await store.resume_hook("tok", b"late")

    async def test_child_end_is_appended_to_its_parent(self, store: WorkflowStore) -> None:
        epoch, head = await _claimed(store)
        child = _run("c1", parent_run_id="r1", parent_slot=1)
        started = NewEvent(event_type="child_started", correlation_id="c1", attrs={"slot": 1})
        head = (await store.commit(_commit("r1", epoch, head, started, start_runs=(child,)))).head
        claim = await store.claim_run("c1", owner="w1", lease_seconds=30)
        assert claim.run is not None
        await store.commit(
            _commit(
                "c1",
                claim.epoch,
                claim.run.head,
                NewEvent(event_type="run_completed", payload=b"out"),
            )
        )
        tail = await store.list_events("r1", after=head)
        assert [(e.event_type, e.correlation_id, e.payload) for e in tail] == [
            ("child_completed", "c1", b"out")
        ]

    async def test_cancel_parked_run_at_once(self, store: WorkflowStore) -> None:
        epoch, head = await _claimed(store)
        await store.commit(_commit("r1", epoch, head, release=True))
        run = await store.request_cancel("r1", reason="stop")
        assert run.status == "cancelled"
        assert (await store.request_cancel("r1")).status == "cancelled"

    async def test_cancel_held_run_asks_its_holder(self, store: WorkflowStore) -> None:
        epoch, head = await _claimed(store)
        run = await store.request_cancel("r1")
        assert run.status == "running"
        with pytest.raises(StaleHeadError):
            await store.commit(_commit("r1", epoch, head))
        tail = await store.list_events("r1", after=head)
        assert [e.event_type for e in tail] == ["cancel_requested"]

    async def test_cancel_takes_unfinished_children_along(self, store: WorkflowStore) -> None:
        epoch, head = await _claimed(store)
        await store.commit(_commit("r1", epoch, head, release=True))
        # c1 waits unleased; c2 is held by a worker; c3 (c1's child) waits; c4 finished.
        await store.create_run(_run("c1", parent_run_id="r1", parent_slot=1))
        await store.create_run(_run("c2", parent_run_id="r1", parent_slot=2))
        await store.create_run(_run("c3", parent_run_id="c1", parent_slot=1))
        await store.create_run(_run("c4", parent_run_id="r1", parent_slot=3))
        held = await store.claim_run("c2", owner="w2", lease_seconds=30)
        assert held.run is not None
        done = await store.claim_run("c4", owner="w2", lease_seconds=30)
        assert done.run is not None
        finished = NewEvent(event_type="run_completed", payload=b"ok")
        await store.commit(
            Commit(
                run_id="c4", owner="w2", epoch=done.epoch, expected_head=done.run.head,
                events=(finished,), release=True,
            )
        )  # fmt: skip
        run = await store.request_cancel("r1", reason="stop")
        assert run.status == "cancelled"
        statuses = {r: (await store.get_run(r)).status for r in ("c1", "c2", "c3", "c4")}  # type: ignore[union-attr]
        assert statuses == {
            "c1": "cancelled", "c2": "running", "c3": "cancelled", "c4": "completed",
        }  # fmt: skip
        # The held child is asked to stop: its holder finds the request at its next commit.
        tail = await store.list_events("c2", after=held.run.head)
        assert [e.event_type for e in tail] == ["cancel_requested"]
        assert "r1" in str(tail[0].attrs.get("reason"))
        # Children ended by the cascade do not report to their already-ended parent.
        for parent in ("r1", "c1"):
            log = [e.event_type for e in await store.list_events(parent)]
            assert log[-1] == "run_cancelled" and log.count("run_cancelled") == 1

    async def test_queue_delay_key_lease_and_redelivery(self, store: WorkflowStore) -> None:
        now = time.time()
        first = await store.enqueue(
            NewMessage(queue="jobs", payload=b"a", available_at=now + 60, idempotency_key="k")
        )
        same = await store.enqueue(
            NewMessage(queue="jobs", payload=b"a", available_at=now, idempotency_key="k")
        )
        assert first == same
        got = await store.dequeue("jobs", owner="w1", lease_seconds=0.05, limit=10)
        assert [m.message_id for m in got] == [first] and got[0].deliveries == 1
        # Delivery started: the key is free again, so a new wake-up is not absorbed.
        other = await store.enqueue(
            NewMessage(queue="jobs", payload=b"b", available_at=now + 60, idempotency_key="k")
        )
        assert other != first
        await asyncio.sleep(0.1)
        again = await store.dequeue("jobs", owner="w2", lease_seconds=30, limit=10)
        assert [m.message_id for m in again] == [first] and again[0].deliveries == 2
        assert not await store.ack(first, owner="w1")
        assert await store.ack(first, owner="w2")
        assert await store.dequeue("jobs", owner="w2", lease_seconds=30, limit=10) == []

    async def test_nack_delays_redelivery(self, store: WorkflowStore) -> None:
        await store.enqueue(NewMessage(queue="jobs", payload=b"a", available_at=time.time()))
        (msg,) = await store.dequeue("jobs", owner="w1", lease_seconds=30, limit=1)
        assert await store.nack(msg.message_id, owner="w1", delay=60)
        assert await store.dequeue("jobs", owner="w1", lease_seconds=30, limit=1) == []

    async def test_expire_worker_frees_its_leases(self, store: WorkflowStore) -> None:
        await _claimed(store)
        assert await store.expire_worker("w1") >= 1
        claim = await store.claim_run("r1", owner="w2", lease_seconds=30)
        assert claim.outcome == "claimed"

    async def test_streams_tail_index_and_follow(self, store: WorkflowStore) -> None:
        await store.write_stream("r1", "out", [b"a", b"b", b"c"])
        chunks, closed = await store.read_stream("r1", "out", start=-2)
        assert [c.data for c in chunks] == [b"b", b"c"] and not closed
        seen: list[bytes] = []

        async def reader() -> None:
            async for chunk in store.follow_stream("r1", "out", start=1, poll_interval=0.01):
                seen.append(chunk.data)

        task = asyncio.create_task(reader())
        await asyncio.sleep(0.05)
        await store.write_stream("r1", "out", [b"d"])
        await store.close_stream("r1", "out")
        await asyncio.wait_for(task, 5)
        assert seen == [b"b", b"c", b"d"]
        with pytest.raises(InvalidTransitionError):
            await store.write_stream("r1", "out", [b"e"])

    async def test_follower_cancelled_as_a_chunk_arrives_stops(self, store: WorkflowStore) -> None:
        # A cancel that lands in the same loop turn as the chunk's wake-up must end the
        # follower (`asyncio.wait_for` on Python 3.11 returns the wake-up instead and
        # swallows the cancel: the follower read on, and a caller awaiting it hung).
        await store.write_stream("r1", "out", [b"a"])
        follower = store.follow_stream("r1", "out", start=1, poll_interval=30)
        task = asyncio.ensure_future(anext(follower))
        await asyncio.sleep(0.05)
        await store.write_stream("r1", "out", [b"b"])
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, 5)
        await follower.aclose()  # type: ignore[attr-defined]
