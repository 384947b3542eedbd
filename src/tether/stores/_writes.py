"""Store writes that ride on a run's commit: one transaction for the engine and the agent.

A step of an agent turn changes three stores at once: the run's journal (the step's
completion), the conversation (the transcript) and the ledger (the turn's submission),
and it publishes session events on a stream of the run. `Commit.writes` (and the
`writes` of `WorkflowStore.resume_hook`) carry those other writes, and the backend
applies them in the commit's transaction: all of them land, or none.

The writes are records, so every backend applies the same rules (`_conversation_rules`,
`_ledger`): a backend decodes each one into its own rows. Ledger writes never raise
for a state they do not apply to (a claim of a submission that is no longer queued, a
settlement of one not owned by the attempt): they change nothing, as the rules do.
A conversation append from a fenced producer raises `FencedError`, and the whole
commit is refused.

Order inside the transaction is part of the contract: the writes are applied in the
order given, before the commit's own events, so every transaction takes its locks in
one order (ledger session, conversation stream, run stream, then the run).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from ._agent_records import AttemptRef, JsonValue, SubmissionInput, SubmissionOutcome

__all__ = [
    "AdmitSubmission",
    "AppendRecords",
    "AppendStream",
    "JoinSubmissions",
    "RedactSubmissions",
    "ResolveSubmissions",
    "SettleSubmission",
    "StartSubmission",
    "StoreWrite",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class AppendRecords:
    """Append one batch to a conversation stream as its fenced producer.

    Raises (in the commit) `FencedError` when the producer is no longer current. With
    `at`, the commit is refused with `BatchPositionError` (nothing written) unless the
    batch lands at that offset (see `ConversationStore.append`).
    """

    path: str
    producer_id: str
    producer_epoch: int
    incarnation: str
    producer_sequence: int
    records: tuple[JsonValue, ...]
    at: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class AppendStream:
    """Append chunks to a named stream of a run (see `WorkflowStore.write_stream`).

    With `at`, the commit is refused with `StreamPositionError` (nothing written) unless
    the first chunk lands at that index.
    """

    run_id: str
    name: str
    chunks: tuple[bytes, ...]
    at: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class AdmitSubmission:
    """Admit a direct submission (see `SubmissionStore.admit_direct`).

    Raises (in the commit) `ConflictError` when the id is taken by other content; an
    exact replay changes nothing. With `unless`, a new submission is refused with
    `InvalidTransitionError` while the ledger holds the submission of that id (a
    session's close, say): the check and the admission are one transaction.
    """

    submission: SubmissionInput
    unless: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class StartSubmission:
    """Claim a queued submission for `attempt` and mark its input applied.

    Unlike `SubmissionStore.claim_submission` the submission need not be its lane's
    head: the one consumer of a lane (a session's run) picks what it starts. A
    submission already running under the same attempt is left as it is; one in any
    other state is not touched.
    """

    attempt: AttemptRef
    owner_id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class JoinSubmissions:
    """Join queued submissions into the running `host` (``queued -> joined``).

    The joins settle with the host. Submissions not queued, or of another lane, are
    skipped; nothing happens unless the host runs under `host`'s attempt.
    """

    host: AttemptRef
    submission_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SettleSubmission:
    """Settle a running submission owned by `attempt`, with what joined it.

    Reservation and finalization in one step (the record is written in the same
    transaction): the submission ends `outcome`, its joins with it.
    """

    attempt: AttemptRef
    outcome: SubmissionOutcome
    error: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ResolveSubmissions:
    """Settle queued submissions that were consumed without running (commands).

    Those not queued are left as they are.
    """

    submission_ids: tuple[str, ...]
    outcome: SubmissionOutcome
    error: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RedactSubmissions:
    """Delete the content (payloads, attachments) of every submission of these lanes.

    Identity, order, statuses, outcomes and times stay (retention).
    """

    session_keys: tuple[str, ...]


StoreWrite: TypeAlias = (
    AppendRecords
    | AppendStream
    | AdmitSubmission
    | StartSubmission
    | JoinSubmissions
    | SettleSubmission
    | ResolveSubmissions
    | RedactSubmissions
)
"""A write that rides on a commit (see the module docstring)."""
