"""Agent persistence protocols: submissions, conversations, attachments.

Every method's invariants are stated as observable behaviour; the contract suites in
`tether.testing.contract` are their executable form. Methods described as atomic are
atomic across processes: concurrent callers never both observe success.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from ._agent_records import (
    AttachmentRef,
    AttemptRef,
    DispatchAdmission,
    Durability,
    FoldCheckpoint,
    JsonValue,
    Lease,
    ProducerClaim,
    ReadResult,
    SettledRecord,
    SettlementObligation,
    StoredAttachment,
    StreamIdentity,
    StreamMeta,
    Submission,
    SubmissionClaim,
    SubmissionInput,
)

__all__ = ["AttachmentStore", "ConversationStore", "SubmissionStore"]


@runtime_checkable
class SubmissionStore(Protocol):
    """The ledger of submitted messages and their execution.

    A submission moves `queued -> running -> (terminalizing ->) settled`; at a turn
    boundary a queued submission may instead be absorbed into a running host
    (`queued -> joining -> joined`, settled with the host). Writes of an attempt are
    gated on that attempt still owning the submission, so a replaced attempt observes
    False or None and changes nothing. The first terminal state wins.
    """

    # -- queries ------------------------------------------------------------------------
    async def get_submission(self, submission_id: str) -> Submission | None:
        """The submission, or None for an unknown id."""
        ...

    async def has_unsettled_submissions(self) -> bool:
        """Whether any submission is not yet settled."""
        ...

    async def list_runnable_submissions(self) -> list[Submission]:
        """Queued, canonical-ready session heads, in admission order.

        A head is the oldest unsettled submission of its session (at most one each).
        """
        ...

    async def list_unready_submissions(self) -> list[Submission]:
        """Queued submissions not yet canonical-ready, in admission order."""
        ...

    async def list_running_submissions(self) -> list[Submission]:
        """Running submissions, in admission order."""
        ...

    async def list_pending_settlements(self) -> list[SettlementObligation]:
        """Reserved settlements not yet finalized, in admission order."""
        ...

    async def replace_submission_attempt(
        self, attempt: AttemptRef, next_attempt_id: str, *, lease: Lease | None = None
    ) -> Submission | None:
        """Atomically move a running submission to a new attempt (recovery hand-off).

        Increments `attempt_count` and installs `lease` when given. Returns None without
        writing when the submission is not running under `attempt`.
        """
        ...

    # -- admission ----------------------------------------------------------------------
    async def admit_dispatch(self, submission: SubmissionInput) -> DispatchAdmission:
        """Admit a dispatched submission, idempotent by submission id.

        An exact replay returns the admitted submission ("replayed"); the same id with
        other content returns "conflict" and changes nothing; an id whose content was
        redacted returns its receipt ("retained_receipt") and admits nothing.
        """
        ...

    async def admit_direct(self, submission: SubmissionInput) -> Submission:
        """Admit a direct prompt as a queued submission; an exact replay returns it.

        An id whose content was redacted returns its receipt and admits nothing.

        Raises:
            ConflictError: The id is taken by other content.
        """
        ...

    async def mark_canonical_ready(self, submission_id: str) -> Submission | None:
        """Mark a queued submission's canonical input as materialized (idempotent).

        Returns None when the submission is unknown or no longer queued.
        """
        ...

    # -- lifecycle ----------------------------------------------------------------------
    async def claim_submission(self, claim: SubmissionClaim) -> Submission | None:
        """Atomically start a submission that is its session's runnable head.

        Records attempt, owner, lease and start time, increments `attempt_count` and
        installs the default budget. Two concurrent claims never both succeed.
        """
        ...

    async def mark_input_applied(
        self, attempt: AttemptRef, durability: Durability | None = None
    ) -> bool:
        """Stamp the first application of the input and install its durability budget.

        Only the first call installs the budget; False unless `attempt` owns the
        running submission. The budget (`max_attempts`, `timeout_at`) is recorded for
        a recovery process; the runtime bounds a turn by its steps' retry policies.
        """
        ...

    async def request_session_abort(self, session_key: str) -> list[str]:
        """Stamp an abort request on every unsettled submission of a session.

        The first stamp is kept; returns the ids. Never settles, never changes a status.
        """
        ...

    async def requeue_submission(self, attempt: AttemptRef) -> bool:
        """Return a running submission to the queue for a clean first attempt.

        Clears attempt, owner, lease and the input-applied marker; keeps
        `attempt_count` and the timeout. Gated on ownership alone.
        """
        ...

    async def settle_queued_submission(
        self, submission_id: str, *, error: str | None = None
    ) -> bool:
        """Settle a queued submission without running it.

        "aborted" when an abort was requested, else "failed". False for any other
        status or an unknown id.
        """
        ...

    async def reserve_settlement(
        self, attempt: AttemptRef, *, record_id: str, record: SettledRecord
    ) -> SettlementObligation | None:
        """Atomically reserve the canonical settlement record (status `terminalizing`).

        Allowed for the owning attempt of a running submission, or for the host's
        attempt of a joined one. An exact replay returns the existing obligation; another
        record id or record returns None.
        """
        ...

    async def finalize_settlement(
        self, attempt: AttemptRef, record_id: str, *, error_message: str | None = None
    ) -> bool:
        """Settle an owned terminalizing submission once its record is in the stream.

        The outcome and error mirror the reserved record (or `error_message`); joined
        submissions settle with it and joining ones go back to the queue.
        """
        ...

    async def complete_submission(self, attempt: AttemptRef) -> bool:
        """Settle an owned running submission as completed; False if stale or settled."""
        ...

    async def fail_submission(self, attempt: AttemptRef, error: str | BaseException) -> bool:
        """Settle an owned running submission as failed; False if stale or settled."""
        ...

    # -- turn-boundary joins ------------------------------------------------------------
    async def claim_joinable_submissions(
        self, host: AttemptRef, agent_name: str
    ) -> list[Submission]:
        """Atomically absorb the joinable prefix of the host's session queue.

        The prefix is marked joining the host. It stops at the first row that is not
        ready, has an abort request, or belongs to another agent. Nothing unless the
        host runs under `host`'s attempt.
        """
        ...

    async def finalize_joined_submission(self, host: AttemptRef, submission_id: str) -> bool:
        """Confirm a join once its input record is durable (`joining -> joined`)."""
        ...

    async def revert_joining_submission(self, host: AttemptRef, submission_id: str) -> bool:
        """Give a claimed, unconfirmed join back to the queue (`joining -> queued`).

        Only legal when the join's input record was not written to the stream.
        """
        ...

    async def list_joined_submissions(self, host_submission_id: str) -> list[Submission]:
        """Unsettled joins (joining or joined) attached to a host, in admission order."""
        ...

    # -- leases -------------------------------------------------------------------------
    # Recorded for a recovery process of the deployment's own: tether's runtime neither
    # renews them nor lists expired ones (a turn's durable run carries its submission;
    # see `LEASE_DURATION`).
    async def renew_leases(self, owner_id: str, submission_ids: Sequence[str]) -> None:
        """Extend the leases `owner_id` holds on listed running submissions.

        Each becomes now + `LEASE_DURATION`; others are skipped silently. The runtime
        does not call it: a turn's run lease is what fences a running submission.
        """
        ...

    async def list_expired_submissions(self) -> list[Submission]:
        """Running submissions whose lease has expired, in admission order.

        Leases are recorded, not renewed by the runtime: a submission whose turn runs
        longer than `LEASE_DURATION` is listed while its run still holds it.
        """
        ...

    async def list_unsettled_submissions(self, session_keys: Sequence[str]) -> list[Submission]:
        """The unsettled submissions of these lanes, in admission order across them."""
        ...

    async def redact_submissions(self, session_keys: Sequence[str]) -> int:
        """Delete the content of every submission of these lanes (retention).

        Payloads and attachments go; identity, order, statuses, outcomes, errors and
        times stay, and `redacted_at` is set (once): each row is a retained receipt that
        answers a later admission of its id. Returns how many submissions were redacted.
        """
        ...


@runtime_checkable
class ConversationStore(Protocol):
    """Append-only canonical conversation streams, one per agent instance.

    Batches of JSON records are written by a single fenced producer, each under one
    opaque ordered offset. A rejected operation raises and leaves the stream as it was.
    """

    async def create_stream(self, path: str, identity: StreamIdentity) -> None:
        """Create the stream if missing, minting its incarnation.

        Racing creates with the same identity all succeed.

        Raises:
            ConflictError: The path exists with another identity.
        """
        ...

    async def acquire_producer(
        self, path: str, producer_id: str, *, create: StreamIdentity | None = None
    ) -> ProducerClaim:
        """Take exclusive production: epoch + 1, producer sequence reset to 0.

        Fences every earlier producer of the stream. With `create`, a missing stream is
        first created with that identity (as `create_stream`), in the same write.

        Raises:
            NotFoundError: The stream does not exist (and `create` is None).
            ConflictError: `create` names another identity than the stream's.
        """
        ...

    async def append(
        self,
        *,
        path: str,
        producer_id: str,
        producer_epoch: int,
        incarnation: str,
        producer_sequence: int,
        records: Sequence[JsonValue],
        submission: AttemptRef | None = None,
        at: str | None = None,
    ) -> str:
        """Append `records` all-or-nothing under one new offset and return it.

        `producer_sequence` must be the next expected one (0 after acquiring). An exact
        replay of an appended sequence returns its original offset. With `at`, the
        append is refused unless the batch lands at that offset (a replay: was appended
        at it); the encrypting layer binds each batch to its offset this way.

        Raises:
            FencedError: Producer, epoch or incarnation is not current.
            NotOwnerError: `submission`'s attempt does not own the submission.
            ConflictError: The sequence was appended with other records.
            InvalidTransitionError: The sequence skips ahead.
            PayloadTooLargeError: The encoded batch is over `MAX_BATCH_BYTES`.
            BatchPositionError: `at` is not where the batch lands (nothing written).
            ValueError: `records` is empty.
        """
        ...

    async def read(self, path: str, *, offset: str = "-1", limit: int | None = None) -> ReadResult:
        """Batches strictly after `offset`, at most `limit` (default 100, max 1000).

        `"now"` returns no batches and the head as `next_offset`; an unknown path reads
        as empty and up to date.

        Raises:
            InvalidOffsetError: The offset is malformed or past the head.
        """
        ...

    async def get_meta(self, path: str) -> StreamMeta | None:
        """Identity, incarnation, head and producer state, or None for an unknown path."""
        ...

    def subscribe(self, path: str, listener: Callable[[], None]) -> Callable[[], None]:
        """Call `listener` after each commit to `path` in this process.

        Returns the function that unsubscribes. Best effort, neither durable nor
        cross-process.
        """
        ...

    async def purge(self, path: str) -> None:
        """Delete the stream's records and checkpoint (retention).

        Identity, head and producer state stay. Idempotent; an unknown path is a no-op.
        """
        ...

    async def put_fold_checkpoint(self, path: str, checkpoint: FoldCheckpoint) -> None:
        """Replace the stream's fold checkpoint (optional capability FOLD_CHECKPOINTS).

        A torn write reads back as absent, never as a plausible blob. A checkpoint is
        written only while the stream holds the batch at its `head_offset`, in the same
        transaction: one put after a `purge` (a worker that lost its run, say) writes
        nothing, so a checkpoint never outlives the records it was folded from.
        """
        ...

    async def get_fold_checkpoint(
        self, path: str, *, at_or_before: str | None = None
    ) -> FoldCheckpoint | None:
        """The stream's checkpoint, or None (also when it lies after `at_or_before`)."""
        ...


@runtime_checkable
class AttachmentStore(Protocol):
    """Immutable attachment bytes referenced by canonical conversation records."""

    async def put(
        self, *, stream_path: str, conversation_id: str, ref: AttachmentRef, data: bytes | bytearray
    ) -> None:
        """Store the bytes of `ref` in a stream, idempotently.

        Raises:
            IntegrityError: `data` does not match the ref's size or digest.
            ConflictError: The id is stored with other bytes, metadata or conversation.
        """
        ...

    async def get(
        self, *, stream_path: str, conversation_id: str, attachment_id: str
    ) -> StoredAttachment | None:
        """The attachment, verified on read.

        None when unknown or owned by another conversation.

        Raises:
            IntegrityError: The stored bytes no longer match their ref.
        """
        ...

    async def purge(self, stream_path: str) -> None:
        """Delete every attachment stored under `stream_path` (retention, erasure).

        Idempotent: purging a stream with nothing stored does nothing. An id purged
        may be stored again afterwards.
        """
        ...
