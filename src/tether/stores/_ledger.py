"""The submission state machine: the ledger rules, written once over a `LedgerTxn`.

A rule transaction (see `stores._rule_txn`): every backend runs these functions inside
one of its transactions (memory between two awaits, nothing else running meanwhile;
SQLite inside a `BEGIN IMMEDIATE` write), so each transition is atomic across
processes. The functions only read and write through `LedgerTxn`, which is what a
backend implements.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Protocol

from .._validate import check_identifier
from ..errors import ConflictError, InvalidTransitionError
from ._agent_records import (
    DURABILITY_DEFAULT_MAX_ATTEMPTS,
    DURABILITY_DEFAULT_TIMEOUT,
    LEASE_DURATION,
    AttemptRef,
    DispatchAdmission,
    Durability,
    Lease,
    SettledRecord,
    SettlementObligation,
    Submission,
    SubmissionClaim,
    SubmissionInput,
    SubmissionKind,
    SubmissionOutcome,
    SubmissionStatus,
    canonical_json,
)
from ._rule_txn import RuleTxn

__all__ = ["LedgerTxn"]

UNSETTLED: frozenset[SubmissionStatus] = frozenset(
    {"queued", "running", "terminalizing", "joining", "joined"}
)
ALL_STATUSES: frozenset[SubmissionStatus] = UNSETTLED | {"settled"}


class LedgerTxn(RuleTxn, Protocol):
    """The rows of the ledger as one transaction sees them: the ledger rules' `RuleTxn`.

    A row whose stored form does not decode is settled as failed by the read that
    meets it (tether's SQL backends do so as they decode rows) and leaves the
    selection. A transaction may list the sequences of the rows it settled
    so in a ``settled_on_read`` set: a turn-boundary join stops at them, as at any row
    it may not take (a transaction without the attribute joins past them).
    """

    def now(self) -> float:
        """The transaction's clock, Unix seconds."""
        ...

    def get(self, submission_id: str) -> Submission | None:
        """One row by id."""
        ...

    def select(
        self,
        *,
        statuses: frozenset[SubmissionStatus],
        session_key: str | None = None,
        joined_into: str | None = None,
    ) -> list[Submission]:
        """Rows with one of `statuses` (and the given session / host), by sequence."""
        ...

    def insert(self, submission: Submission) -> Submission:
        """Insert a new row; returns it with its admission `sequence` assigned."""
        ...

    def update(self, submission: Submission) -> None:
        """Overwrite the mutable columns of an existing row."""
        ...

    def redact(self, submission: Submission) -> None:
        """Delete a row's content: payload, attachments, settlement data (retention).

        `submission` comes with its `redacted_at` set, which the row keeps.
        """
        ...


def replace_row(sub: Submission, **changes: object) -> Submission:
    """A copy of `sub` with `changes` applied."""
    return dataclasses.replace(sub, **changes)  # type: ignore[arg-type]  # kwargs are fields


def _same_content(sub: Submission, kind: SubmissionKind, inp: SubmissionInput) -> bool:
    return (
        sub.kind == kind
        and sub.agent_name == inp.agent_name
        and sub.instance_id == inp.instance_id
        and sub.session_key == inp.session_key
        and canonical_json(sub.payload) == canonical_json(inp.payload)
        and sub.attachments == inp.attachments
    )


def _admit(
    txn: LedgerTxn, kind: SubmissionKind, inp: SubmissionInput, unless: str | None = None
) -> tuple[str, Submission]:
    check_submission(inp)
    if unless is not None:
        check_identifier(unless, what="unless")
    existing = txn.get(inp.submission_id)
    if existing is not None:
        if existing.redacted_at is not None:
            # Its content is gone, so a replay cannot be told from a conflict; the id
            # was taken and run once, which is what a retrying client needs to know.
            return "retained", existing
        return ("replayed" if _same_content(existing, kind, inp) else "conflict"), existing
    if unless is not None and txn.get(unless) is not None:
        raise InvalidTransitionError(
            f"submission {inp.submission_id!r} is refused: submission {unless!r} is in the "
            "ledger (its session is closing)"
        )
    return "admitted", txn.insert(new_submission(kind, inp, txn.now()))


def check_submission(inp: SubmissionInput) -> None:
    """Refuse, alike on every backend, a submission whose ids not every one can hold.

    Raises:
        InvalidInputError: An id is empty, holds a NUL character or a lone surrogate,
            or is longer than `MAX_IDENTIFIER_BYTES` (nothing is written).
    """
    for value, what in (
        (inp.submission_id, "submission_id"),
        (inp.agent_name, "agent_name"),
        (inp.instance_id, "instance_id"),
        (inp.harness, "harness"),
        (inp.session, "session"),
    ):
        check_identifier(value, what=what)


def new_submission(kind: SubmissionKind, inp: SubmissionInput, now: float) -> Submission:
    """The row an admission of `inp` inserts at `now` (its sequence is drawn then)."""
    return Submission(
        submission_id=inp.submission_id,
        sequence=0,
        kind=kind,
        agent_name=inp.agent_name,
        instance_id=inp.instance_id,
        session_key=inp.session_key,
        payload=inp.payload,
        attachments=tuple(inp.attachments),
        status="queued",
        accepted_at=now,
        canonical_ready_at=now if inp.canonical_ready else None,
    )


def admit_dispatch(txn: LedgerTxn, inp: SubmissionInput) -> DispatchAdmission:
    kind, sub = _admit(txn, "dispatch", inp)
    if kind == "conflict":
        return DispatchAdmission(kind="conflict", submission=None)
    if kind == "retained":
        return DispatchAdmission(kind="retained_receipt", submission=sub)
    return DispatchAdmission(kind="admitted" if kind == "admitted" else "replayed", submission=sub)


def admit_direct(txn: LedgerTxn, inp: SubmissionInput, *, unless: str | None = None) -> Submission:
    kind, sub = _admit(txn, "direct", inp, unless)
    if kind == "conflict":
        raise ConflictError(
            f"submission {inp.submission_id!r} was already admitted with other content; "
            "a submission id names one payload forever"
        )
    return sub


def mark_canonical_ready(txn: LedgerTxn, submission_id: str) -> Submission | None:
    sub = txn.get(submission_id)
    if sub is None or sub.status != "queued":
        return None
    if sub.canonical_ready_at is None:
        sub = replace_row(sub, canonical_ready_at=txn.now())
        txn.update(sub)
    return sub


def _session_head(txn: LedgerTxn, session_key: str) -> Submission | None:
    rows = txn.select(statuses=UNSETTLED, session_key=session_key)
    return rows[0] if rows else None


def _is_runnable(txn: LedgerTxn, sub: Submission) -> bool:
    if sub.status != "queued" or sub.canonical_ready_at is None:
        return False
    head = _session_head(txn, sub.session_key)
    return head is not None and head.submission_id == sub.submission_id


def list_runnable(txn: LedgerTxn) -> list[Submission]:
    heads: dict[str, Submission] = {}
    for sub in txn.select(statuses=UNSETTLED):
        heads.setdefault(sub.session_key, sub)
    return [
        sub
        for sub in sorted(heads.values(), key=lambda s: s.sequence)
        if sub.status == "queued" and sub.canonical_ready_at is not None
    ]


def list_unready(txn: LedgerTxn) -> list[Submission]:
    return [s for s in txn.select(statuses=frozenset({"queued"})) if s.canonical_ready_at is None]


def list_pending_settlements(txn: LedgerTxn) -> list[SettlementObligation]:
    return [_obligation(s) for s in txn.select(statuses=frozenset({"terminalizing"}))]


def _obligation(sub: Submission) -> SettlementObligation:
    assert sub.attempt_id is not None
    assert sub.settlement_record_id is not None and sub.settlement_record is not None
    return SettlementObligation(
        submission_id=sub.submission_id,
        attempt_id=sub.attempt_id,
        record_id=sub.settlement_record_id,
        record=sub.settlement_record,
    )


def _owned(txn: LedgerTxn, attempt: AttemptRef, *statuses: SubmissionStatus) -> Submission | None:
    sub = txn.get(attempt.submission_id)
    if sub is None or sub.status not in statuses or sub.attempt_id != attempt.attempt_id:
        return None
    return sub


def claim(txn: LedgerTxn, request: SubmissionClaim) -> Submission | None:
    sub = txn.get(request.submission_id)
    if sub is None or not _is_runnable(txn, sub):
        return None
    now = txn.now()
    sub = replace_row(
        sub,
        status="running",
        attempt_id=request.attempt_id,
        owner_id=request.owner_id,
        lease_expires_at=request.lease_expires_at,
        started_at=now,
        attempt_count=sub.attempt_count + 1,
        max_attempts=sub.max_attempts or DURABILITY_DEFAULT_MAX_ATTEMPTS,
        timeout_at=sub.timeout_at or now + DURABILITY_DEFAULT_TIMEOUT,
    )
    txn.update(sub)
    return sub


def mark_input_applied(txn: LedgerTxn, attempt: AttemptRef, durability: Durability | None) -> bool:
    sub = _owned(txn, attempt, "running")
    if sub is None:
        return False
    if sub.input_applied_at is None:
        budget = durability or Durability()
        start = sub.started_at if sub.started_at is not None else txn.now()
        txn.update(
            replace_row(
                sub,
                input_applied_at=txn.now(),
                max_attempts=budget.max_attempts,
                timeout_at=start + budget.timeout,
            )
        )
    return True


def request_session_abort(txn: LedgerTxn, session_key: str) -> list[str]:
    now = txn.now()
    ids: list[str] = []
    for sub in txn.select(statuses=UNSETTLED, session_key=session_key):
        if sub.abort_requested_at is None:
            txn.update(replace_row(sub, abort_requested_at=now))
        ids.append(sub.submission_id)
    return ids


def requeue(txn: LedgerTxn, attempt: AttemptRef) -> bool:
    sub = _owned(txn, attempt, "running")
    if sub is None:
        return False
    txn.update(
        replace_row(
            sub,
            status="queued",
            attempt_id=None,
            owner_id=None,
            lease_expires_at=0.0,
            started_at=None,
            input_applied_at=None,
        )
    )
    return True


def replace_attempt(
    txn: LedgerTxn, attempt: AttemptRef, next_attempt_id: str, lease: Lease | None
) -> Submission | None:
    sub = _owned(txn, attempt, "running")
    if sub is None:
        return None
    changes: dict[str, object] = {
        "attempt_id": next_attempt_id,
        "attempt_count": sub.attempt_count + 1,
    }
    if lease is not None:
        changes.update(owner_id=lease.owner_id, lease_expires_at=lease.expires_at)
    sub = replace_row(sub, **changes)
    txn.update(sub)
    return sub


def settle_queued(txn: LedgerTxn, submission_id: str, error: str | None) -> bool:
    sub = txn.get(submission_id)
    if sub is None or sub.status != "queued":
        return False
    outcome: SubmissionOutcome = "aborted" if sub.abort_requested_at is not None else "failed"
    txn.update(
        replace_row(
            sub,
            status="settled",
            settled_at=txn.now(),
            outcome=outcome,
            error=error if error is not None else f"submission was {outcome} before it ran",
        )
    )
    return True


def _host_running(txn: LedgerTxn, host: AttemptRef) -> Submission | None:
    return _owned(txn, host, "running")


def reserve_settlement(
    txn: LedgerTxn, attempt: AttemptRef, record_id: str, record: SettledRecord
) -> SettlementObligation | None:
    sub = txn.get(attempt.submission_id)
    if sub is None:
        return None
    if sub.status == "terminalizing":
        if (
            sub.attempt_id == attempt.attempt_id
            and sub.settlement_record_id == record_id
            and sub.settlement_record == record
        ):
            return _obligation(sub)
        return None
    owns = sub.status == "running" and sub.attempt_id == attempt.attempt_id
    if sub.status == "joined" and sub.joined_into is not None:
        host = txn.get(sub.joined_into)
        owns = (
            host is not None and host.status == "running" and host.attempt_id == attempt.attempt_id
        )
    if not owns:
        return None
    sub = replace_row(
        sub,
        status="terminalizing",
        attempt_id=attempt.attempt_id,
        settlement_record_id=record_id,
        settlement_record=record,
    )
    txn.update(sub)
    return _obligation(sub)


def _settle(txn: LedgerTxn, sub: Submission, outcome: SubmissionOutcome, error: str | None) -> None:
    now = txn.now()
    txn.update(replace_row(sub, status="settled", settled_at=now, outcome=outcome, error=error))
    # Joins share the host's fate: confirmed ones settle with it, unconfirmed ones were
    # never delivered and go back to the queue, in the same transaction.
    for joined in txn.select(
        statuses=frozenset({"joining", "joined"}), joined_into=sub.submission_id
    ):
        if joined.status == "joined":
            txn.update(
                replace_row(joined, status="settled", settled_at=now, outcome=outcome, error=error)
            )
        else:
            txn.update(replace_row(joined, status="queued", joined_into=None))


def finalize_settlement(
    txn: LedgerTxn, attempt: AttemptRef, record_id: str, error_message: str | None
) -> bool:
    sub = _owned(txn, attempt, "terminalizing")
    if sub is None or sub.settlement_record_id != record_id or sub.settlement_record is None:
        return False
    record = sub.settlement_record
    error = error_message if error_message is not None else record.error
    if record.outcome != "completed" and error is None:
        error = f"submission {record.outcome}"
    _settle(txn, sub, record.outcome, error)
    return True


def complete(txn: LedgerTxn, attempt: AttemptRef) -> bool:
    sub = _owned(txn, attempt, "running")
    if sub is None:
        return False
    _settle(txn, sub, "completed", None)
    return True


def fail(txn: LedgerTxn, attempt: AttemptRef, error: str | BaseException) -> bool:
    sub = _owned(txn, attempt, "running")
    if sub is None:
        return False
    message = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
    _settle(txn, sub, "failed", message)
    return True


def claim_joinable(txn: LedgerTxn, host: AttemptRef, agent_name: str) -> list[Submission]:
    owner = _host_running(txn, host)
    if owner is None:
        return []
    claimed: list[Submission] = []
    rows = txn.select(statuses=UNSETTLED, session_key=owner.session_key)
    # A damaged row of the lane was settled as failed by this very read: the prefix a
    # join takes is contiguous, so it ends before it (the next join goes past it).
    damaged = [n for n in getattr(txn, "settled_on_read", ()) if n > owner.sequence]
    for sub in rows:
        if sub.sequence <= owner.sequence:
            continue
        if any(n < sub.sequence for n in damaged):
            break
        if sub.status in ("joining", "joined") and sub.joined_into == owner.submission_id:
            continue
        if (
            sub.status != "queued"
            or sub.canonical_ready_at is None
            or sub.abort_requested_at is not None
            or sub.agent_name != agent_name
        ):
            break
        sub = replace_row(sub, status="joining", joined_into=owner.submission_id)
        txn.update(sub)
        claimed.append(sub)
    return claimed


def _join_of(txn: LedgerTxn, host: AttemptRef, submission_id: str) -> Submission | None:
    if _host_running(txn, host) is None:
        return None
    sub = txn.get(submission_id)
    if sub is None or sub.status != "joining" or sub.joined_into != host.submission_id:
        return None
    return sub


def finalize_joined(txn: LedgerTxn, host: AttemptRef, submission_id: str) -> bool:
    sub = _join_of(txn, host, submission_id)
    if sub is None:
        return False
    txn.update(replace_row(sub, status="joined"))
    return True


def revert_joining(txn: LedgerTxn, host: AttemptRef, submission_id: str) -> bool:
    sub = _join_of(txn, host, submission_id)
    if sub is None:
        return False
    txn.update(replace_row(sub, status="queued", joined_into=None))
    return True


def list_joined(txn: LedgerTxn, host_submission_id: str) -> list[Submission]:
    return txn.select(statuses=frozenset({"joining", "joined"}), joined_into=host_submission_id)


def renew_leases(txn: LedgerTxn, owner_id: str, submission_ids: Sequence[str]) -> None:
    expires = txn.now() + LEASE_DURATION
    for submission_id in dict.fromkeys(submission_ids):
        sub = txn.get(submission_id)
        if sub is not None and sub.status == "running" and sub.owner_id == owner_id:
            txn.update(replace_row(sub, lease_expires_at=expires))


def list_expired(txn: LedgerTxn) -> list[Submission]:
    now = txn.now()
    return [s for s in txn.select(statuses=frozenset({"running"})) if 0 < s.lease_expires_at < now]


# -- writes that ride on a run's commit (`stores._writes`) -------------------------------------
# One consumer (a session's run) owns its lanes, and these run inside its fenced commit,
# so they pick rows directly instead of through the claim and join protocols; each
# leaves a row it does not apply to untouched.


def start(txn: LedgerTxn, attempt: AttemptRef, owner_id: str) -> bool:
    """Run a queued submission under `attempt` with its input applied (see `StartSubmission`)."""
    sub = txn.get(attempt.submission_id)
    if sub is None:
        return False
    if sub.status == "running" and sub.attempt_id == attempt.attempt_id:
        return True
    if sub.status != "queued":
        return False
    now = txn.now()
    txn.update(
        replace_row(
            sub,
            status="running",
            attempt_id=attempt.attempt_id,
            owner_id=owner_id,
            lease_expires_at=0.0,  # the run's lease is the lease; recovery is the run's
            started_at=now,
            input_applied_at=now,
            attempt_count=sub.attempt_count + 1,
            canonical_ready_at=sub.canonical_ready_at or now,
            timeout_at=sub.timeout_at or now + DURABILITY_DEFAULT_TIMEOUT,
        )
    )
    return True


def join(txn: LedgerTxn, host: AttemptRef, submission_ids: Sequence[str]) -> list[str]:
    """Join queued submissions of the host's lane into it; returns those joined."""
    owner = _host_running(txn, host)
    if owner is None:
        return []
    joined: list[str] = []
    for submission_id in submission_ids:
        sub = txn.get(submission_id)
        if sub is None or sub.status != "queued" or sub.session_key != owner.session_key:
            continue
        txn.update(replace_row(sub, status="joined", joined_into=owner.submission_id))
        joined.append(submission_id)
    return joined


def settle(
    txn: LedgerTxn, attempt: AttemptRef, outcome: SubmissionOutcome, error: str | None
) -> bool:
    """Settle a running submission of `attempt` and its joins (see `SettleSubmission`)."""
    sub = _owned(txn, attempt, "running", "terminalizing")
    if sub is None:
        return False
    if outcome != "completed" and error is None:
        error = f"submission {outcome}"
    _settle(txn, sub, outcome, error)
    return True


def resolve_queued(
    txn: LedgerTxn, submission_ids: Sequence[str], outcome: SubmissionOutcome, error: str | None
) -> list[str]:
    """Settle queued submissions consumed without running; returns those settled."""
    done: list[str] = []
    now = txn.now()
    for submission_id in submission_ids:
        sub = txn.get(submission_id)
        if sub is None or sub.status != "queued":
            continue
        txn.update(replace_row(sub, status="settled", settled_at=now, outcome=outcome, error=error))
        done.append(submission_id)
    return done


def redact(txn: LedgerTxn, session_keys: Sequence[str]) -> int:
    """Delete the content of every submission of these lanes; returns how many."""
    count = 0
    for key in session_keys:
        for sub in txn.select(statuses=ALL_STATUSES, session_key=key):
            txn.redact(replace_row(sub, redacted_at=sub.redacted_at or txn.now()))
            count += 1
    return count


def list_unsettled(txn: LedgerTxn, session_keys: Sequence[str]) -> list[Submission]:
    """The unsettled submissions of these lanes, in admission order."""
    rows = [s for key in session_keys for s in txn.select(statuses=UNSETTLED, session_key=key)]
    return sorted(rows, key=lambda s: s.sequence)
