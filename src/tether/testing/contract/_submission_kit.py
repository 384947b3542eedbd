"""Helpers shared by the submission contract modules."""

from __future__ import annotations

import time
from typing import Any

from ...stores import (
    LEASE_DURATION,
    AttemptRef,
    SettledRecord,
    Submission,
    SubmissionAttachment,
    SubmissionClaim,
    SubmissionInput,
    SubmissionStore,
)


def sub_input(
    submission_id: str,
    *,
    agent: str = "helper",
    instance: str = "inst-1",
    session: str = "default",
    payload: Any = None,
    ready: bool = True,
    attachments: tuple[SubmissionAttachment, ...] = (),
) -> SubmissionInput:
    """A submission input with test defaults."""
    return SubmissionInput(
        submission_id=submission_id,
        agent_name=agent,
        instance_id=instance,
        session=session,
        payload={"text": f"hello from {submission_id}"} if payload is None else payload,
        attachments=attachments,
        canonical_ready=ready,
    )


def lease_until(seconds: float = LEASE_DURATION) -> float:
    return time.time() + seconds


async def claim(
    store: SubmissionStore,
    submission_id: str,
    attempt: str = "att-1",
    owner: str = "worker-1",
    *,
    lease: float | None = None,
) -> Submission | None:
    return await store.claim_submission(
        SubmissionClaim(
            submission_id=submission_id,
            attempt_id=attempt,
            owner_id=owner,
            lease_expires_at=lease_until() if lease is None else lease,
        )
    )


def ref(submission_id: str, attempt: str = "att-1") -> AttemptRef:
    return AttemptRef(submission_id=submission_id, attempt_id=attempt)


def ids(rows: list[Submission]) -> list[str]:
    return [r.submission_id for r in rows]


async def must(value: Submission | None) -> Submission:
    assert value is not None
    return value


COMPLETED = SettledRecord(outcome="completed", data={"reply": "done"})
FAILED = SettledRecord(outcome="failed", error="model refused")
