"""The in-memory submission ledger: the reference implementation, no I/O.

Each method runs one `_ledger` transition synchronously, without awaiting in between,
so on one event loop every transition is atomic.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence

from .. import _ledger
from .._agent_records import (
    AttemptRef,
    DispatchAdmission,
    Durability,
    Lease,
    SettledRecord,
    SettlementObligation,
    Submission,
    SubmissionClaim,
    SubmissionInput,
    SubmissionStatus,
)

__all__ = ["MemorySubmissionStore"]


class _Rows:
    """`LedgerTx` over a dict; rows are immutable records, replaced on update."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.by_id: dict[str, Submission] = {}
        self.next_sequence = 1
        self._clock = clock

    def now(self) -> float:
        return self._clock()

    def get(self, submission_id: str) -> Submission | None:
        return self.by_id.get(submission_id)

    def select(
        self,
        *,
        statuses: frozenset[SubmissionStatus],
        session_key: str | None = None,
        joined_into: str | None = None,
    ) -> list[Submission]:
        # Dicts keep insertion order, which is admission order.
        return [
            s
            for s in self.by_id.values()
            if s.status in statuses
            and (session_key is None or s.session_key == session_key)
            and (joined_into is None or s.joined_into == joined_into)
        ]

    def insert(self, submission: Submission) -> Submission:
        row = dataclasses.replace(submission, sequence=self.next_sequence)
        self.next_sequence += 1
        self.by_id[row.submission_id] = row
        return row

    def update(self, submission: Submission) -> None:
        self.by_id[submission.submission_id] = submission


class MemorySubmissionStore:
    """A `SubmissionStore` kept in this process's memory.

    Args:
        clock: Returns Unix seconds; tests may pass a fake one.
    """

    def __init__(self, *, clock: Callable[[], float] = time.time) -> None:
        self._rows = _Rows(clock)

    async def get_submission(self, submission_id: str) -> Submission | None:
        return self._rows.get(submission_id)

    async def has_unsettled_submissions(self) -> bool:
        return bool(self._rows.select(statuses=_ledger.UNSETTLED))

    async def list_runnable_submissions(self) -> list[Submission]:
        return _ledger.list_runnable(self._rows)

    async def list_unready_submissions(self) -> list[Submission]:
        return _ledger.list_unready(self._rows)

    async def list_running_submissions(self) -> list[Submission]:
        return self._rows.select(statuses=frozenset({"running"}))

    async def list_pending_settlements(self) -> list[SettlementObligation]:
        return _ledger.list_pending_settlements(self._rows)

    async def replace_submission_attempt(
        self, attempt: AttemptRef, next_attempt_id: str, *, lease: Lease | None = None
    ) -> Submission | None:
        return _ledger.replace_attempt(self._rows, attempt, next_attempt_id, lease)

    async def admit_dispatch(self, submission: SubmissionInput) -> DispatchAdmission:
        return _ledger.admit_dispatch(self._rows, submission)

    async def admit_direct(self, submission: SubmissionInput) -> Submission:
        return _ledger.admit_direct(self._rows, submission)

    async def mark_canonical_ready(self, submission_id: str) -> Submission | None:
        return _ledger.mark_canonical_ready(self._rows, submission_id)

    async def claim_submission(self, claim: SubmissionClaim) -> Submission | None:
        return _ledger.claim(self._rows, claim)

    async def mark_input_applied(
        self, attempt: AttemptRef, durability: Durability | None = None
    ) -> bool:
        return _ledger.mark_input_applied(self._rows, attempt, durability)

    async def request_session_abort(self, session_key: str) -> list[str]:
        return _ledger.request_session_abort(self._rows, session_key)

    async def requeue_submission(self, attempt: AttemptRef) -> bool:
        return _ledger.requeue(self._rows, attempt)

    async def settle_queued_submission(
        self, submission_id: str, *, error: str | None = None
    ) -> bool:
        return _ledger.settle_queued(self._rows, submission_id, error)

    async def reserve_settlement(
        self, attempt: AttemptRef, *, record_id: str, record: SettledRecord
    ) -> SettlementObligation | None:
        return _ledger.reserve_settlement(self._rows, attempt, record_id, record)

    async def finalize_settlement(
        self, attempt: AttemptRef, record_id: str, *, error_message: str | None = None
    ) -> bool:
        return _ledger.finalize_settlement(self._rows, attempt, record_id, error_message)

    async def complete_submission(self, attempt: AttemptRef) -> bool:
        return _ledger.complete(self._rows, attempt)

    async def fail_submission(self, attempt: AttemptRef, error: str | BaseException) -> bool:
        return _ledger.fail(self._rows, attempt, error)

    async def claim_joinable_submissions(
        self, host: AttemptRef, agent_name: str
    ) -> list[Submission]:
        return _ledger.claim_joinable(self._rows, host, agent_name)

    async def finalize_joined_submission(self, host: AttemptRef, submission_id: str) -> bool:
        return _ledger.finalize_joined(self._rows, host, submission_id)

    async def revert_joining_submission(self, host: AttemptRef, submission_id: str) -> bool:
        return _ledger.revert_joining(self._rows, host, submission_id)

    async def list_joined_submissions(self, host_submission_id: str) -> list[Submission]:
        return _ledger.list_joined(self._rows, host_submission_id)

    async def renew_leases(self, owner_id: str, submission_ids: Sequence[str]) -> None:
        _ledger.renew_leases(self._rows, owner_id, submission_ids)

    async def list_expired_submissions(self) -> list[Submission]:
        return _ledger.list_expired(self._rows)

    # -- used by the memory conversation store, in the same "transaction" -------------
    def _lookup(self, submission_id: str) -> Submission | None:
        return self._rows.get(submission_id)
