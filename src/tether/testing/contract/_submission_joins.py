"""Turn-boundary join cases of the submission ledger contract."""

from __future__ import annotations

from typing import Any

from ...stores import SubmissionStore, make_session_key
from ._markers import stored_rows_of
from ._submission_kit import COMPLETED, claim, ids, must, ref, sub_input

__all__ = ["SubmissionJoinCases"]


class SubmissionJoinCases:
    """Mixed into `SubmissionContract`; uses its `submissions` fixture."""

    # -- turn-boundary joins ----------------------------------------------------------
    async def _host_with_queue(self, submissions: SubmissionStore, *names: str) -> None:
        await submissions.admit_direct(sub_input("host"))
        for name in names:
            await submissions.admit_direct(sub_input(name))
        await claim(submissions, "host")

    async def test_join_claims_the_queued_prefix_in_order(
        self, submissions: SubmissionStore
    ) -> None:
        await self._host_with_queue(submissions, "m1", "m2", "m3")
        joined = await submissions.claim_joinable_submissions(ref("host"), "helper")
        assert ids(joined) == ["m1", "m2", "m3"]
        assert all(s.status == "joining" and s.joined_into == "host" for s in joined)
        assert await submissions.claim_joinable_submissions(ref("host"), "helper") == []

    async def test_join_claims_nothing_for_a_stale_or_idle_host(
        self, submissions: SubmissionStore
    ) -> None:
        await self._host_with_queue(submissions, "m1")
        assert await submissions.claim_joinable_submissions(ref("host", "stale"), "helper") == []
        await submissions.replace_submission_attempt(ref("host"), "att-2")
        assert await submissions.claim_joinable_submissions(ref("host"), "helper") == []
        await submissions.admit_direct(sub_input("idle", instance="idle"))
        assert await submissions.claim_joinable_submissions(ref("idle"), "helper") == []
        assert (await must(await submissions.get_submission("m1"))).status == "queued"

    async def test_direct_and_dispatched_join_alike(self, submissions: SubmissionStore) -> None:
        await self._host_with_queue(submissions, "direct")
        await submissions.admit_dispatch(sub_input("dispatched"))
        joined = await submissions.claim_joinable_submissions(ref("host"), "helper")
        assert [(s.submission_id, s.kind) for s in joined] == [
            ("direct", "direct"),
            ("dispatched", "dispatch"),
        ]

    async def test_join_stops_at_the_first_unready_row(self, submissions: SubmissionStore) -> None:
        await self._host_with_queue(submissions, "m1")
        await submissions.admit_dispatch(sub_input("unready", ready=False))
        await submissions.admit_direct(sub_input("m3"))
        assert ids(await submissions.claim_joinable_submissions(ref("host"), "helper")) == ["m1"]
        assert (await must(await submissions.get_submission("m3"))).status == "queued"

    async def test_join_stops_at_an_unparseable_row(
        self, backend: Any, submissions: SubmissionStore
    ) -> None:
        # A row whose payload no longer parses is settled as failed when read, never
        # joined nor run; the join stops there, as at any row it may not take, so
        # nothing after it jumps the lane. The next join goes on past the settled row.
        await self._host_with_queue(submissions, "m1", "bad", "m3")
        await stored_rows_of(backend).damage_submission("bad")
        assert ids(await submissions.claim_joinable_submissions(ref("host"), "helper")) == ["m1"]
        bad = await must(await submissions.get_submission("bad"))
        assert (bad.status, bad.outcome, bad.payload) == ("settled", "failed", None)
        assert bad.error is not None and "malformed" in bad.error
        assert bad.joined_into is None and bad.attempt_id is None
        assert (await must(await submissions.get_submission("m3"))).status == "queued"
        assert ids(await submissions.claim_joinable_submissions(ref("host"), "helper")) == ["m3"]
        assert ids(await submissions.list_joined_submissions("host")) == ["m1", "m3"]

    async def test_join_stops_at_abort_requested_and_other_agent(
        self, submissions: SubmissionStore
    ) -> None:
        await self._host_with_queue(submissions, "m1")
        assert await submissions.claim_joinable_submissions(ref("host"), "someone-else") == []
        await submissions.request_session_abort(make_session_key("helper", "inst-1"))
        await submissions.admit_direct(sub_input("after"))
        assert await submissions.claim_joinable_submissions(ref("host"), "helper") == []

    async def test_joined_submission_settles_under_the_host_attempt(
        self, submissions: SubmissionStore
    ) -> None:
        await self._host_with_queue(submissions, "m1")
        await submissions.claim_joinable_submissions(ref("host"), "helper")
        assert await submissions.finalize_joined_submission(ref("host"), "m1")
        assert (
            await submissions.reserve_settlement(
                ref("m1", "other"), record_id="r", record=COMPLETED
            )
            is None
        )
        obligation = await submissions.reserve_settlement(
            ref("m1"), record_id="r", record=COMPLETED
        )
        assert obligation is not None and obligation.attempt_id == "att-1"
        assert await submissions.finalize_settlement(ref("m1"), "r")
        assert (await must(await submissions.get_submission("m1"))).outcome == "completed"

    async def test_finalize_join_once_fenced_on_the_host_attempt(
        self, submissions: SubmissionStore
    ) -> None:
        await self._host_with_queue(submissions, "m1")
        await submissions.claim_joinable_submissions(ref("host"), "helper")
        assert not await submissions.finalize_joined_submission(ref("host", "stale"), "m1")
        assert await submissions.finalize_joined_submission(ref("host"), "m1")
        assert not await submissions.finalize_joined_submission(ref("host"), "m1")
        assert (await must(await submissions.get_submission("m1"))).status == "joined"

    async def test_revert_an_unapplied_join(self, submissions: SubmissionStore) -> None:
        await self._host_with_queue(submissions, "m1", "m2")
        await submissions.claim_joinable_submissions(ref("host"), "helper")
        assert not await submissions.revert_joining_submission(ref("host", "stale"), "m2")
        assert await submissions.revert_joining_submission(ref("host"), "m2")
        row = await must(await submissions.get_submission("m2"))
        assert row.status == "queued" and row.joined_into is None
        await submissions.finalize_joined_submission(ref("host"), "m1")
        assert not await submissions.revert_joining_submission(ref("host"), "m1")  # joined

    async def test_list_joins_in_admission_order(self, submissions: SubmissionStore) -> None:
        await self._host_with_queue(submissions, "m1", "m2", "m3")
        await submissions.claim_joinable_submissions(ref("host"), "helper")
        await submissions.finalize_joined_submission(ref("host"), "m2")
        assert ids(await submissions.list_joined_submissions("host")) == ["m1", "m2", "m3"]
        assert await submissions.list_joined_submissions("nobody") == []

    async def test_joins_settle_with_a_completing_host_and_stragglers_revert(
        self, submissions: SubmissionStore
    ) -> None:
        await self._host_with_queue(submissions, "m1", "m2")
        await submissions.claim_joinable_submissions(ref("host"), "helper")
        await submissions.finalize_joined_submission(ref("host"), "m1")
        assert await submissions.complete_submission(ref("host"))
        m1 = await must(await submissions.get_submission("m1"))
        m2 = await must(await submissions.get_submission("m2"))
        assert (m1.status, m1.outcome) == ("settled", "completed")
        assert (m2.status, m2.joined_into) == ("queued", None)
        assert ids(await submissions.list_runnable_submissions()) == ["m2"]

    async def test_joins_share_a_failing_outcome(self, submissions: SubmissionStore) -> None:
        await self._host_with_queue(submissions, "m1")
        await submissions.claim_joinable_submissions(ref("host"), "helper")
        await submissions.finalize_joined_submission(ref("host"), "m1")
        assert await submissions.fail_submission(ref("host"), "provider down")
        m1 = await must(await submissions.get_submission("m1"))
        assert (m1.outcome, m1.error) == ("failed", "provider down")

    async def test_joins_settle_when_a_direct_host_finalizes(
        self, submissions: SubmissionStore
    ) -> None:
        await self._host_with_queue(submissions, "m1")
        await submissions.claim_joinable_submissions(ref("host"), "helper")
        await submissions.finalize_joined_submission(ref("host"), "m1")
        await submissions.reserve_settlement(ref("host"), record_id="r", record=COMPLETED)
        assert (await must(await submissions.get_submission("m1"))).status == "joined"
        assert await submissions.finalize_settlement(ref("host"), "r")
        assert (await must(await submissions.get_submission("m1"))).outcome == "completed"

    async def test_unsettled_joins_block_later_work(self, submissions: SubmissionStore) -> None:
        await self._host_with_queue(submissions, "m1")
        await submissions.claim_joinable_submissions(ref("host"), "helper")
        await submissions.admit_direct(sub_input("later"))
        await submissions.finalize_joined_submission(ref("host"), "m1")
        # The host stops without settling its joins (e.g. it is requeued): they still
        # hold their place ahead of later work in the session.
        assert await submissions.requeue_submission(ref("host"))
        assert await submissions.has_unsettled_submissions()
        assert ids(await submissions.list_runnable_submissions()) == ["host"]
        assert await claim(submissions, "later", attempt="att-9") is None

    async def test_abort_stamps_joining_and_joined(self, submissions: SubmissionStore) -> None:
        await self._host_with_queue(submissions, "m1", "m2")
        await submissions.claim_joinable_submissions(ref("host"), "helper")
        await submissions.finalize_joined_submission(ref("host"), "m1")
        stamped = await submissions.request_session_abort(make_session_key("helper", "inst-1"))
        assert stamped == ["host", "m1", "m2"]
        for name in ("m1", "m2"):
            assert (await must(await submissions.get_submission(name))).abort_requested_at
