"""The submission ledger contract: every backend's `SubmissionStore` must pass it."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from ...errors import ConflictError
from ...stores import (
    SubmissionAttachment,
    SubmissionStore,
    make_session_key,
)
from ._markers import FormatStampAccess
from ._submission_joins import SubmissionJoinCases
from ._submission_kit import (
    COMPLETED,
    FAILED,
    claim,
    ids,
    must,
    ref,
    sub_input,
)
from ._submission_leases import SubmissionLeaseCases
from ._submission_stamps import FormatStampCases

__all__ = ["SubmissionContract"]


class SubmissionContract(SubmissionJoinCases, SubmissionLeaseCases, FormatStampCases):
    """Subclass with an async `backend` fixture yielding a migrated, connected backend.

    Format-stamp tests additionally use `format_stamps` (default: the backend's
    `format_stamps` attribute); they run only when the backend declares
    `Capability.FORMAT_STAMP`.
    """

    @pytest.fixture
    def submissions(self, backend: Any) -> SubmissionStore:
        return backend.stores.submissions  # type: ignore[no-any-return]

    @pytest.fixture
    def format_stamps(self, backend: Any) -> FormatStampAccess:
        return backend.format_stamps  # type: ignore[no-any-return]

    # -- dispatch admission -----------------------------------------------------------
    async def test_dispatch_exact_replay_returns_the_admitted_submission(
        self, submissions: SubmissionStore
    ) -> None:
        first = await submissions.admit_dispatch(sub_input("s1"))
        again = await submissions.admit_dispatch(sub_input("s1"))
        assert first.kind == "admitted" and again.kind == "replayed"
        assert again.submission == first.submission
        assert first.submission is not None and first.submission.kind == "dispatch"

    async def test_dispatch_with_other_payload_is_a_conflict(
        self, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_dispatch(sub_input("s1", payload={"text": "a"}))
        answer = await submissions.admit_dispatch(sub_input("s1", payload={"text": "b"}))
        assert answer.kind == "conflict" and answer.submission is None
        stored = await must(await submissions.get_submission("s1"))
        assert stored.payload == {"text": "a"}

    async def test_redaction_keeps_a_receipt_that_answers_admissions_of_its_id(
        self, submissions: SubmissionStore
    ) -> None:
        item = SubmissionAttachment(item_id="a1", mime_type="text/plain", data=b"private")
        first = sub_input("s1", payload={"text": "private"}, attachments=(item,))
        await submissions.admit_dispatch(first)
        await submissions.admit_direct(sub_input("s2"))
        await claim(submissions, "s1")
        assert await submissions.complete_submission(ref("s1"))
        lane = first.session_key
        assert await submissions.redact_submissions([lane]) == 2
        receipt = await must(await submissions.get_submission("s1"))
        assert (receipt.payload, receipt.attachments) == (None, ())
        assert receipt.redacted_at is not None and receipt.outcome == "completed"
        assert receipt.status == "settled" and receipt.accepted_at > 0
        # A retried admission of the id, with its old content or any other (which can
        # no longer be compared), is answered from the receipt and admits nothing.
        for again in (first, sub_input("s1", payload={"text": "other"})):
            answer = await submissions.admit_dispatch(again)
            assert answer.kind == "retained_receipt" and answer.submission == receipt
        assert await submissions.admit_direct(first) == receipt
        queued = await must(await submissions.get_submission("s2"))
        assert queued.status == "queued" and queued.redacted_at is not None
        assert ids(await submissions.list_runnable_submissions()) == ["s2"]
        assert await submissions.redact_submissions([lane]) == 2  # again: nothing changes
        assert await submissions.get_submission("s1") == receipt

    async def test_dispatch_attachments_round_trip_and_conflict_on_other_bytes(
        self, submissions: SubmissionStore
    ) -> None:
        photo = SubmissionAttachment(item_id="img", mime_type="image/png", data=b"\x89PNG" * 10)
        first = await submissions.admit_dispatch(sub_input("s1", attachments=(photo,)))
        assert first.submission is not None and first.submission.attachments == (photo,)
        stored = await must(await submissions.get_submission("s1"))
        assert stored.attachments == (photo,)
        assert (await submissions.admit_dispatch(sub_input("s1", attachments=(photo,)))).kind == (
            "replayed"
        )
        other = SubmissionAttachment(item_id="img", mime_type="image/png", data=b"\x89PNG" * 11)
        conflict = await submissions.admit_dispatch(sub_input("s1", attachments=(other,)))
        assert conflict.kind == "conflict"

    async def test_dispatch_attachment_over_one_chunk_round_trips(
        self, submissions: SubmissionStore
    ) -> None:
        big = bytes(range(256)) * 1024 + b"!"  # 256 KiB + 1
        item = SubmissionAttachment(item_id="big", mime_type="application/octet-stream", data=big)
        await submissions.admit_dispatch(sub_input("s1", attachments=(item,)))
        stored = await must(await submissions.get_submission("s1"))
        assert stored.attachments[0].data == big

    # -- direct admission -------------------------------------------------------------
    async def test_direct_images_round_trip_and_replay(self, submissions: SubmissionStore) -> None:
        images = (
            SubmissionAttachment(item_id="a", mime_type="image/jpeg", data=b"\xff\xd8one"),
            SubmissionAttachment(item_id="b", mime_type="image/png", data=b"\x89PNGtwo"),
        )
        first = await submissions.admit_direct(sub_input("d1", attachments=images))
        assert first.kind == "direct" and first.status == "queued"
        assert await submissions.admit_direct(sub_input("d1", attachments=images)) == first
        assert (await must(await submissions.get_submission("d1"))).attachments == images

    async def test_direct_replay_with_other_bytes_is_rejected(
        self, submissions: SubmissionStore
    ) -> None:
        image = SubmissionAttachment(item_id="a", mime_type="image/jpeg", data=b"one")
        await submissions.admit_direct(sub_input("d1", attachments=(image,)))
        changed = SubmissionAttachment(item_id="a", mime_type="image/jpeg", data=b"two")
        with pytest.raises(ConflictError):
            await submissions.admit_direct(sub_input("d1", attachments=(changed,)))
        with pytest.raises(ConflictError):
            await submissions.admit_direct(sub_input("d1", attachments=(image,), payload=[1]))

    # -- canonical readiness ----------------------------------------------------------
    async def test_unready_submission_is_neither_runnable_nor_claimable(
        self, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_dispatch(sub_input("s1", ready=False))
        assert await submissions.list_runnable_submissions() == []
        assert await claim(submissions, "s1") is None

    async def test_unready_submissions_are_listed_in_admission_order(
        self, submissions: SubmissionStore
    ) -> None:
        for name in ("u3", "u1", "u2"):
            await submissions.admit_dispatch(sub_input(name, ready=False, instance=name))
        await submissions.admit_dispatch(sub_input("ready", instance="r"))
        assert ids(await submissions.list_unready_submissions()) == ["u3", "u1", "u2"]

    async def test_ready_submission_becomes_claimable(self, submissions: SubmissionStore) -> None:
        await submissions.admit_dispatch(sub_input("s1", ready=False))
        marked = await must(await submissions.mark_canonical_ready("s1"))
        assert marked.canonical_ready_at is not None
        again = await must(await submissions.mark_canonical_ready("s1"))
        assert again.canonical_ready_at == marked.canonical_ready_at
        assert ids(await submissions.list_runnable_submissions()) == ["s1"]
        assert await claim(submissions, "s1") is not None
        assert await submissions.mark_canonical_ready("s1") is None
        assert await submissions.mark_canonical_ready("unknown") is None

    # -- ordering ---------------------------------------------------------------------
    async def test_direct_and_dispatched_share_one_session_order(
        self, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_direct(sub_input("first"))
        await submissions.admit_dispatch(sub_input("second"))
        assert ids(await submissions.list_runnable_submissions()) == ["first"]
        assert await claim(submissions, "second") is None
        assert await submissions.complete_submission(
            ref((await must(await claim(submissions, "first"))).submission_id)
        )
        assert ids(await submissions.list_runnable_submissions()) == ["second"]

    async def test_one_runnable_head_per_session(self, submissions: SubmissionStore) -> None:
        for n in range(3):
            await submissions.admit_direct(sub_input(f"a{n}", instance="a"))
            await submissions.admit_direct(sub_input(f"b{n}", instance="b"))
        assert ids(await submissions.list_runnable_submissions()) == ["a0", "b0"]
        await submissions.admit_direct(sub_input("c0", instance="a", session="other"))
        assert ids(await submissions.list_runnable_submissions()) == ["a0", "b0", "c0"]

    async def test_agents_sharing_an_instance_id_are_independent_sessions(
        self, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_direct(sub_input("x", agent="writer", instance="shared"))
        await submissions.admit_direct(sub_input("y", agent="reviewer", instance="shared"))
        assert ids(await submissions.list_runnable_submissions()) == ["x", "y"]
        assert await claim(submissions, "x") is not None
        assert await claim(submissions, "y", attempt="att-2") is not None

    # -- claim ------------------------------------------------------------------------
    async def test_only_runnable_heads_are_claimed_and_only_once(
        self, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_direct(sub_input("h"))
        await submissions.admit_direct(sub_input("t"))
        assert await claim(submissions, "t") is None
        results = await asyncio.gather(
            *(claim(submissions, "h", attempt=f"att-{n}", owner=f"w{n}") for n in range(5))
        )
        winners = [r for r in results if r is not None]
        assert len(winners) == 1
        running = await must(await submissions.get_submission("h"))
        assert running.status == "running" and running.attempt_id == winners[0].attempt_id
        assert running.owner_id == winners[0].owner_id and running.started_at is not None
        assert await claim(submissions, "h", attempt="late") is None
        assert await claim(submissions, "missing") is None

    async def test_separate_sessions_claim_independently(
        self, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_direct(sub_input("one", session="s-one"))
        await submissions.admit_direct(sub_input("two", session="s-two"))
        assert await claim(submissions, "one") is not None
        assert await claim(submissions, "two", attempt="att-2") is not None
        assert ids(await submissions.list_running_submissions()) == ["one", "two"]

    # -- lifecycle --------------------------------------------------------------------
    async def test_input_applied_only_for_the_owning_attempt(
        self, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_direct(sub_input("s"))
        assert not await submissions.mark_input_applied(ref("s"))  # queued
        await claim(submissions, "s")
        assert not await submissions.mark_input_applied(ref("s", "stale"))
        assert (await must(await submissions.get_submission("s"))).input_applied_at is None
        assert await submissions.mark_input_applied(ref("s"))
        assert (await must(await submissions.get_submission("s"))).input_applied_at is not None

    async def test_recovery_only_for_the_owning_attempt(self, submissions: SubmissionStore) -> None:
        await submissions.admit_direct(sub_input("s"))
        await claim(submissions, "s")
        assert await submissions.replace_submission_attempt(ref("s", "stale"), "att-2") is None
        assert not await submissions.requeue_submission(ref("s", "stale"))
        assert (await must(await submissions.get_submission("s"))).attempt_id == "att-1"

    async def test_requeue_is_gated_on_ownership_alone(self, submissions: SubmissionStore) -> None:
        await submissions.admit_direct(sub_input("s"))
        await claim(submissions, "s", lease=time.time() - 60)  # lease long expired
        await submissions.mark_input_applied(ref("s"))
        assert await submissions.requeue_submission(ref("s"))
        row = await must(await submissions.get_submission("s"))
        assert row.status == "queued" and row.attempt_id is None and row.owner_id is None
        assert row.lease_expires_at == 0 and row.input_applied_at is None
        assert not await submissions.requeue_submission(ref("s"))
        assert ids(await submissions.list_runnable_submissions()) == ["s"]

    async def test_unsettled_until_completion(self, submissions: SubmissionStore) -> None:
        assert not await submissions.has_unsettled_submissions()
        await submissions.admit_direct(sub_input("s"))
        assert await submissions.has_unsettled_submissions()
        await claim(submissions, "s")
        assert await submissions.has_unsettled_submissions()
        assert await submissions.complete_submission(ref("s"))
        assert not await submissions.has_unsettled_submissions()

    async def test_settled_at_only_after_settlement(self, submissions: SubmissionStore) -> None:
        await submissions.admit_direct(sub_input("s"))
        assert (await must(await submissions.get_submission("s"))).settled_at is None
        await claim(submissions, "s")
        assert (await must(await submissions.get_submission("s"))).settled_at is None
        await submissions.fail_submission(ref("s"), RuntimeError("boom"))
        row = await must(await submissions.get_submission("s"))
        assert row.status == "settled" and row.settled_at is not None
        assert row.outcome == "failed" and row.error is not None and "boom" in row.error

    async def test_stale_settlement_is_ignored_and_the_first_terminal_state_kept(
        self, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_direct(sub_input("s"))
        await claim(submissions, "s")
        assert not await submissions.complete_submission(ref("s", "stale"))
        assert not await submissions.fail_submission(ref("s", "stale"), "nope")
        assert await submissions.complete_submission(ref("s"))
        assert not await submissions.fail_submission(ref("s"), "too late")
        assert not await submissions.complete_submission(ref("s"))
        row = await must(await submissions.get_submission("s"))
        assert row.outcome == "completed" and row.error is None

    # -- session abort ----------------------------------------------------------------
    async def test_abort_stamps_queued_and_running(self, submissions: SubmissionStore) -> None:
        await submissions.admit_direct(sub_input("run"))
        await submissions.admit_direct(sub_input("wait"))
        await claim(submissions, "run")
        key = make_session_key("helper", "inst-1")
        assert await submissions.request_session_abort(key) == ["run", "wait"]
        for name, status in (("run", "running"), ("wait", "queued")):
            row = await must(await submissions.get_submission(name))
            assert row.abort_requested_at is not None and row.status == status

    async def test_abort_stamps_every_queued_submission_at_once(
        self, submissions: SubmissionStore
    ) -> None:
        for n in range(4):
            await submissions.admit_direct(sub_input(f"q{n}", ready=n % 2 == 0))
        key = make_session_key("helper", "inst-1")
        assert await submissions.request_session_abort(key) == ["q0", "q1", "q2", "q3"]
        stamps = {
            (await must(await submissions.get_submission(f"q{n}"))).abort_requested_at
            for n in range(4)
        }
        assert len(stamps) == 1 and None not in stamps

    async def test_abort_is_scoped_by_agent(self, submissions: SubmissionStore) -> None:
        await submissions.admit_direct(sub_input("mine", agent="writer", instance="x"))
        await submissions.admit_direct(sub_input("theirs", agent="reviewer", instance="x"))
        assert await submissions.request_session_abort(make_session_key("writer", "x")) == ["mine"]
        assert (await must(await submissions.get_submission("theirs"))).abort_requested_at is None

    async def test_abort_keeps_the_first_timestamp(self, submissions: SubmissionStore) -> None:
        await submissions.admit_direct(sub_input("s"))
        key = make_session_key("helper", "inst-1")
        await submissions.request_session_abort(key)
        first = (await must(await submissions.get_submission("s"))).abort_requested_at
        await asyncio.sleep(0.01)
        assert await submissions.request_session_abort(key) == ["s"]
        assert (await must(await submissions.get_submission("s"))).abort_requested_at == first

    async def test_abort_leaves_settled_untouched(self, submissions: SubmissionStore) -> None:
        await submissions.admit_direct(sub_input("done"))
        await claim(submissions, "done")
        await submissions.complete_submission(ref("done"))
        assert await submissions.request_session_abort(make_session_key("helper", "inst-1")) == []
        row = await must(await submissions.get_submission("done"))
        assert row.abort_requested_at is None and row.outcome == "completed"

    async def test_abort_of_an_empty_session_returns_nothing(
        self, submissions: SubmissionStore
    ) -> None:
        assert await submissions.request_session_abort(make_session_key("nobody", "none")) == []

    # -- settling queued submissions --------------------------------------------------
    async def test_settle_queued_unready_fails_it(self, submissions: SubmissionStore) -> None:
        await submissions.admit_dispatch(sub_input("s", ready=False))
        assert await submissions.settle_queued_submission("s", error="input never arrived")
        row = await must(await submissions.get_submission("s"))
        assert (row.status, row.outcome, row.error) == ("settled", "failed", "input never arrived")

    async def test_settle_queued_abort_flagged_aborts_it(
        self, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_direct(sub_input("s"))
        await submissions.request_session_abort(make_session_key("helper", "inst-1"))
        assert await submissions.settle_queued_submission("s")
        assert (await must(await submissions.get_submission("s"))).outcome == "aborted"

    async def test_settle_queued_ready_also_settles(self, submissions: SubmissionStore) -> None:
        await submissions.admit_direct(sub_input("s"))
        assert await submissions.settle_queued_submission("s")
        assert (await must(await submissions.get_submission("s"))).status == "settled"
        assert await submissions.list_runnable_submissions() == []

    async def test_settle_queued_loses_to_a_racing_claim(
        self, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_direct(sub_input("s"))
        claimed, settled = await asyncio.gather(
            claim(submissions, "s"), submissions.settle_queued_submission("s")
        )
        assert (claimed is not None) != settled  # exactly one wins
        if claimed is not None:
            assert not await submissions.settle_queued_submission("s")
            assert (await must(await submissions.get_submission("s"))).status == "running"

    async def test_settle_queued_is_false_on_settled_joining_joined_and_unknown(
        self, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_direct(sub_input("host"))
        await submissions.admit_direct(sub_input("j1"))
        await submissions.admit_direct(sub_input("j2"))
        await claim(submissions, "host")
        assert ids(await submissions.claim_joinable_submissions(ref("host"), "helper")) == [
            "j1",
            "j2",
        ]
        assert await submissions.finalize_joined_submission(ref("host"), "j1")
        assert not await submissions.settle_queued_submission("j1")  # joined
        assert not await submissions.settle_queued_submission("j2")  # joining
        assert not await submissions.settle_queued_submission("host")  # running
        assert not await submissions.settle_queued_submission("unknown")
        await submissions.admit_direct(sub_input("other", instance="o"))
        assert await submissions.settle_queued_submission("other")
        assert not await submissions.settle_queued_submission("other")  # settled

    # -- settlement obligations -------------------------------------------------------
    async def test_reserve_settlement_only_for_the_owning_attempt(
        self, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_direct(sub_input("s"))
        assert (
            await submissions.reserve_settlement(ref("s"), record_id="r", record=COMPLETED) is None
        )
        await claim(submissions, "s")
        stale = await submissions.reserve_settlement(
            ref("s", "stale"), record_id="r", record=COMPLETED
        )
        assert stale is None
        assert (await must(await submissions.get_submission("s"))).status == "running"

    async def test_reserve_settlement_exact_replay_and_conflict(
        self, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_direct(sub_input("s"))
        await claim(submissions, "s")
        first = await submissions.reserve_settlement(ref("s"), record_id="r", record=COMPLETED)
        assert first is not None and first.record == COMPLETED
        again = await submissions.reserve_settlement(ref("s"), record_id="r", record=COMPLETED)
        assert again == first
        assert (
            await submissions.reserve_settlement(ref("s"), record_id="r2", record=COMPLETED) is None
        )
        assert await submissions.reserve_settlement(ref("s"), record_id="r", record=FAILED) is None
        assert await submissions.list_pending_settlements() == [first]

    async def test_terminalizing_is_unsettled_ordered_but_not_runnable_or_reclaimable(
        self, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_direct(sub_input("s"))
        await submissions.admit_direct(sub_input("next"))
        await claim(submissions, "s")
        await submissions.reserve_settlement(ref("s"), record_id="r", record=COMPLETED)
        row = await must(await submissions.get_submission("s"))
        assert row.status == "terminalizing" and row.settled_at is None
        assert await submissions.has_unsettled_submissions()
        assert await submissions.list_runnable_submissions() == []
        assert await claim(submissions, "s", attempt="att-2") is None
        assert await claim(submissions, "next", attempt="att-3") is None
        assert not await submissions.requeue_submission(ref("s"))
        assert not await submissions.complete_submission(ref("s"))
        assert await submissions.list_expired_submissions() == []

    async def test_pending_settlements_are_listed_and_finalized(
        self, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_direct(sub_input("s"))
        await submissions.admit_direct(sub_input("next"))
        await claim(submissions, "s")
        obligation = await submissions.reserve_settlement(ref("s"), record_id="r", record=COMPLETED)
        assert obligation is not None
        assert not await submissions.finalize_settlement(ref("s"), "other-record")
        assert not await submissions.finalize_settlement(ref("s", "stale"), "r")
        assert await submissions.finalize_settlement(ref("s"), "r")
        assert not await submissions.finalize_settlement(ref("s"), "r")
        assert await submissions.list_pending_settlements() == []
        row = await must(await submissions.get_submission("s"))
        assert (row.status, row.outcome, row.error) == ("settled", "completed", None)
        assert ids(await submissions.list_runnable_submissions()) == ["next"]

    async def test_dispatch_settles_through_the_same_outbox(
        self, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_dispatch(sub_input("d"))
        await claim(submissions, "d")
        obligation = await submissions.reserve_settlement(ref("d"), record_id="r", record=COMPLETED)
        assert obligation is not None and obligation.submission_id == "d"
        assert [o.submission_id for o in await submissions.list_pending_settlements()] == ["d"]
        assert await submissions.finalize_settlement(ref("d"), "r")
        assert (await must(await submissions.get_submission("d"))).outcome == "completed"

    async def test_failed_settlement_error_is_mirrored(self, submissions: SubmissionStore) -> None:
        await submissions.admit_direct(sub_input("a"))
        await submissions.admit_direct(sub_input("b", instance="other"))
        await claim(submissions, "a")
        await claim(submissions, "b", attempt="att-b")
        await submissions.reserve_settlement(ref("a"), record_id="r", record=FAILED)
        await submissions.reserve_settlement(ref("b", "att-b"), record_id="r", record=FAILED)
        assert await submissions.finalize_settlement(ref("a"), "r")
        assert await submissions.finalize_settlement(ref("b", "att-b"), "r", error_message="x!")
        a = await must(await submissions.get_submission("a"))
        b = await must(await submissions.get_submission("b"))
        assert (a.outcome, a.error) == ("failed", "model refused")
        assert (b.outcome, b.error) == ("failed", "x!")

    # -- edge cases -------------------------------------------------------------------
    async def test_unknown_ids_are_answered_without_writing(
        self, submissions: SubmissionStore
    ) -> None:
        missing = ref("missing")
        assert await submissions.get_submission("missing") is None
        assert not await submissions.mark_input_applied(missing)
        assert not await submissions.requeue_submission(missing)
        assert not await submissions.complete_submission(missing)
        assert not await submissions.fail_submission(missing, "x")
        assert not await submissions.finalize_settlement(missing, "r")
        assert await submissions.reserve_settlement(missing, record_id="r", record=FAILED) is None
        assert not await submissions.finalize_joined_submission(missing, "x")
        assert not await submissions.revert_joining_submission(missing, "x")
        await submissions.renew_leases("nobody", ["missing"])
        assert not await submissions.has_unsettled_submissions()
        assert await submissions.list_running_submissions() == []
