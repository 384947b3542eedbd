"""`LedgerStore`: the `SubmissionStore` of every backend, over the rules in `_ledger`.

Backends differ only in how they run a rule: memory calls it on its rows, SQLite in
one write transaction, Postgres in one transaction under session locks. Each passes
its runners; every method here maps one protocol call to one rule.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import _ledger
from ._agent_records import (
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
from ._ledger import LedgerTxn
from ._rule_txn import Runner

__all__ = ["LedgerStore"]

_RUNNING: frozenset[SubmissionStatus] = frozenset({"running"})


class LedgerStore:
    """A `SubmissionStore` running the shared ledger rules through a backend's runners.

    Args:
        write: Runs rules that may change rows.
        read: Runs queries (defaults to `write`; a row that fails to decode is settled
            with an error even by a query, so queries may write).
    """

    def __init__(self, write: Runner[LedgerTxn], read: Runner[LedgerTxn] | None = None) -> None:
        self._write_rule = write
        self._read_rule = read or write

    # -- queries ------------------------------------------------------------------------
    async def get_submission(self, submission_id: str) -> Submission | None:
        return await self._read_rule(lambda txn: txn.get(submission_id))

    async def has_unsettled_submissions(self) -> bool:
        return await self._read_rule(lambda txn: bool(txn.select(statuses=_ledger.UNSETTLED)))

    async def list_runnable_submissions(self) -> list[Submission]:
        return await self._read_rule(_ledger.list_runnable)

    async def list_unready_submissions(self) -> list[Submission]:
        return await self._read_rule(_ledger.list_unready)

    async def list_running_submissions(self) -> list[Submission]:
        return await self._read_rule(lambda txn: txn.select(statuses=_RUNNING))

    async def list_pending_settlements(self) -> list[SettlementObligation]:
        return await self._read_rule(_ledger.list_pending_settlements)

    async def list_joined_submissions(self, host_submission_id: str) -> list[Submission]:
        return await self._read_rule(lambda txn: _ledger.list_joined(txn, host_submission_id))

    async def list_expired_submissions(self) -> list[Submission]:
        return await self._read_rule(_ledger.list_expired)

    async def list_unsettled_submissions(self, session_keys: Sequence[str]) -> list[Submission]:
        keys = list(session_keys)
        return await self._read_rule(lambda txn: _ledger.list_unsettled(txn, keys))

    async def redact_submissions(self, session_keys: Sequence[str]) -> int:
        keys = list(session_keys)
        return await self._write_rule(lambda txn: _ledger.redact(txn, keys))

    # -- transitions --------------------------------------------------------------------
    async def replace_submission_attempt(
        self, attempt: AttemptRef, next_attempt_id: str, *, lease: Lease | None = None
    ) -> Submission | None:
        return await self._write_rule(
            lambda txn: _ledger.replace_attempt(txn, attempt, next_attempt_id, lease)
        )

    async def admit_dispatch(self, submission: SubmissionInput) -> DispatchAdmission:
        return await self._write_rule(lambda txn: _ledger.admit_dispatch(txn, submission))

    async def admit_direct(self, submission: SubmissionInput) -> Submission:
        return await self._write_rule(lambda txn: _ledger.admit_direct(txn, submission))

    async def mark_canonical_ready(self, submission_id: str) -> Submission | None:
        return await self._write_rule(lambda txn: _ledger.mark_canonical_ready(txn, submission_id))

    async def claim_submission(self, claim: SubmissionClaim) -> Submission | None:
        return await self._write_rule(lambda txn: _ledger.claim(txn, claim))

    async def mark_input_applied(
        self, attempt: AttemptRef, durability: Durability | None = None
    ) -> bool:
        return await self._write_rule(
            lambda txn: _ledger.mark_input_applied(txn, attempt, durability)
        )

    async def request_session_abort(self, session_key: str) -> list[str]:
        return await self._write_rule(lambda txn: _ledger.request_session_abort(txn, session_key))

    async def requeue_submission(self, attempt: AttemptRef) -> bool:
        return await self._write_rule(lambda txn: _ledger.requeue(txn, attempt))

    async def settle_queued_submission(
        self, submission_id: str, *, error: str | None = None
    ) -> bool:
        return await self._write_rule(lambda txn: _ledger.settle_queued(txn, submission_id, error))

    async def reserve_settlement(
        self, attempt: AttemptRef, *, record_id: str, record: SettledRecord
    ) -> SettlementObligation | None:
        return await self._write_rule(
            lambda txn: _ledger.reserve_settlement(txn, attempt, record_id, record)
        )

    async def finalize_settlement(
        self, attempt: AttemptRef, record_id: str, *, error_message: str | None = None
    ) -> bool:
        return await self._write_rule(
            lambda txn: _ledger.finalize_settlement(txn, attempt, record_id, error_message)
        )

    async def complete_submission(self, attempt: AttemptRef) -> bool:
        return await self._write_rule(lambda txn: _ledger.complete(txn, attempt))

    async def fail_submission(self, attempt: AttemptRef, error: str | BaseException) -> bool:
        return await self._write_rule(lambda txn: _ledger.fail(txn, attempt, error))

    async def claim_joinable_submissions(
        self, host: AttemptRef, agent_name: str
    ) -> list[Submission]:
        return await self._write_rule(lambda txn: _ledger.claim_joinable(txn, host, agent_name))

    async def finalize_joined_submission(self, host: AttemptRef, submission_id: str) -> bool:
        return await self._write_rule(lambda txn: _ledger.finalize_joined(txn, host, submission_id))

    async def revert_joining_submission(self, host: AttemptRef, submission_id: str) -> bool:
        return await self._write_rule(lambda txn: _ledger.revert_joining(txn, host, submission_id))

    async def renew_leases(self, owner_id: str, submission_ids: Sequence[str]) -> None:
        ids = list(submission_ids)
        await self._write_rule(lambda txn: _ledger.renew_leases(txn, owner_id, ids))
