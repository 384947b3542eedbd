"""Durability-budget and lease cases of the submission ledger contract."""

from __future__ import annotations

import time

import pytest

from ...stores import (
    DURABILITY_DEFAULT_MAX_ATTEMPTS,
    DURABILITY_DEFAULT_TIMEOUT,
    LEASE_DURATION,
    Durability,
    Lease,
    SubmissionStore,
)
from ._submission_kit import claim, ids, must, ref, sub_input

__all__ = ["SubmissionLeaseCases"]


class SubmissionLeaseCases:
    """Mixed into `SubmissionContract`; uses its `submissions` fixture."""

    # -- durability budget ------------------------------------------------------------
    async def test_budget_is_empty_at_admission_and_defaulted_at_claim(
        self, submissions: SubmissionStore
    ) -> None:
        admitted = await submissions.admit_direct(sub_input("s"))
        assert admitted.attempt_count == 0 and admitted.timeout_at == 0
        claimed = await must(await claim(submissions, "s"))
        assert claimed.attempt_count == 1
        assert claimed.max_attempts == DURABILITY_DEFAULT_MAX_ATTEMPTS
        assert claimed.started_at is not None
        assert claimed.timeout_at == pytest.approx(claimed.started_at + DURABILITY_DEFAULT_TIMEOUT)

    async def test_custom_durability_is_installed_once_at_input_applied(
        self, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_direct(sub_input("s"))
        claimed = await must(await claim(submissions, "s"))
        assert await submissions.mark_input_applied(
            ref("s"), Durability(max_attempts=3, timeout=60.0)
        )
        row = await must(await submissions.get_submission("s"))
        assert row.max_attempts == 3
        assert claimed.started_at is not None
        assert row.timeout_at == pytest.approx(claimed.started_at + 60.0)
        assert await submissions.mark_input_applied(ref("s"), Durability(max_attempts=99))
        again = await must(await submissions.get_submission("s"))
        assert again.max_attempts == 3 and again.input_applied_at == row.input_applied_at

    async def test_replace_attempt_counts_an_attempt(self, submissions: SubmissionStore) -> None:
        await submissions.admit_direct(sub_input("s"))
        await claim(submissions, "s")
        replaced = await must(await submissions.replace_submission_attempt(ref("s"), "att-2"))
        assert replaced.attempt_count == 2 and replaced.attempt_id == "att-2"

    async def test_requeue_keeps_the_count_and_the_timeout(
        self, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_direct(sub_input("s"))
        first = await must(await claim(submissions, "s"))
        assert await submissions.requeue_submission(ref("s"))
        queued = await must(await submissions.get_submission("s"))
        assert queued.attempt_count == 1 and queued.timeout_at == first.timeout_at
        second = await must(await claim(submissions, "s", attempt="att-2"))
        assert second.attempt_count == 2 and second.timeout_at == first.timeout_at

    # -- attempt replacement and leases ----------------------------------------------
    async def test_replace_attempt_installs_a_lease(self, submissions: SubmissionStore) -> None:
        await submissions.admit_direct(sub_input("s"))
        await claim(submissions, "s")
        expires = time.time() + 99
        replaced = await must(
            await submissions.replace_submission_attempt(
                ref("s"), "att-2", lease=Lease(owner_id="worker-2", expires_at=expires)
            )
        )
        assert (replaced.owner_id, replaced.lease_expires_at) == ("worker-2", expires)
        assert await submissions.get_submission("s") == replaced

    async def test_replace_attempt_by_a_non_owner_writes_nothing(
        self, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_direct(sub_input("s"))
        await claim(submissions, "s")
        before = await submissions.get_submission("s")
        lease = Lease(owner_id="thief", expires_at=time.time() + 99)
        assert await submissions.replace_submission_attempt(ref("s", "x"), "y", lease=lease) is None
        assert await submissions.replace_submission_attempt(ref("nope"), "y") is None
        assert await submissions.get_submission("s") == before

    async def test_renew_leases_only_extends_own_running(
        self, submissions: SubmissionStore
    ) -> None:
        await submissions.admit_direct(sub_input("mine", instance="a"))
        await submissions.admit_direct(sub_input("theirs", instance="b"))
        await submissions.admit_direct(sub_input("queued", instance="c"))
        soon = time.time() + 1
        await claim(submissions, "mine", owner="me", lease=soon)
        await claim(submissions, "theirs", attempt="att-2", owner="them", lease=soon)
        await submissions.renew_leases("me", ["mine", "theirs", "queued", "unknown"])
        mine = await must(await submissions.get_submission("mine"))
        theirs = await must(await submissions.get_submission("theirs"))
        queued = await must(await submissions.get_submission("queued"))
        assert mine.lease_expires_at >= time.time() + LEASE_DURATION - 5
        assert theirs.lease_expires_at == soon and queued.lease_expires_at == 0

    async def test_list_expired_returns_only_expired_running(
        self, submissions: SubmissionStore
    ) -> None:
        for name in ("expired", "live", "queued", "settled"):
            await submissions.admit_direct(sub_input(name, instance=name))
        await claim(submissions, "expired", lease=time.time() - 1)
        await claim(submissions, "live", attempt="att-2")
        await claim(submissions, "settled", attempt="att-3", lease=time.time() - 1)
        await submissions.complete_submission(ref("settled", "att-3"))
        assert ids(await submissions.list_expired_submissions()) == ["expired"]
