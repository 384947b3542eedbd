"""Typed records of the agent persistence stores: submissions, conversations, attachments.

Payloads and conversation records are JSON values (whatever `orjson` encodes: dicts,
lists, strings, numbers, booleans, None). Stores compare them by their canonical
encoding (sorted keys), so an exact replay is recognised however a dict was built.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

import orjson

from ..errors import ConflictError, IntegrityError

__all__ = [
    "DEFAULT_READ_LIMIT",
    "DURABILITY_DEFAULT_MAX_ATTEMPTS",
    "DURABILITY_DEFAULT_TIMEOUT",
    "LEASE_DURATION",
    "MAX_READ_LIMIT",
    "OFFSET_NOW",
    "OFFSET_START",
    "AttachmentRef",
    "AttemptRef",
    "ConversationBatch",
    "DispatchAdmission",
    "Durability",
    "FoldCheckpoint",
    "JsonValue",
    "Lease",
    "ProducerClaim",
    "ReadResult",
    "SettledRecord",
    "SettlementObligation",
    "StoredAttachment",
    "StreamIdentity",
    "StreamMeta",
    "Submission",
    "SubmissionAttachment",
    "SubmissionClaim",
    "SubmissionInput",
    "SubmissionKind",
    "SubmissionOutcome",
    "SubmissionStatus",
    "canonical_json",
    "clamp_read_limit",
    "format_offset",
    "make_attachment_ref",
    "make_session_key",
    "parse_offset",
    "parse_session_key",
    "same_attachment_ref",
    "verify_attachment_bytes",
]

JsonValue: TypeAlias = Any
"""A value `orjson` can encode; stores treat it as opaque data."""

# The ledger's leases and retry budget are recorded, not enforced: tether's runtime
# carries a running submission in its turn's durable run, whose run lease fences its
# writes (every ledger write is gated on the attempt) and whose steps' retry policies
# bound it. No part of the runtime renews a submission's lease or reads the budget; a
# recovery process of the deployment's own may (`list_expired_submissions`).
#: Attempts a submission may use before a recovery process fails it (recorded only).
DURABILITY_DEFAULT_MAX_ATTEMPTS = 10
#: Seconds a submission may run, from its first claim, before a recovery process fails
#: it (recorded only).
DURABILITY_DEFAULT_TIMEOUT = 3600.0
#: Seconds a claim or a renewal keeps a submission leased to its owner (recorded only:
#: the runtime does not renew it, so a submission running longer reads as expired).
LEASE_DURATION = 30.0
#: Batches a conversation read returns when the caller gives no limit.
DEFAULT_READ_LIMIT = 100
#: The most batches one conversation read returns.
MAX_READ_LIMIT = 1000
#: The offset before the first batch of every stream.
OFFSET_START = "-1"
#: Read sentinel: return no batches, only the current head as `next_offset`.
OFFSET_NOW = "now"

SubmissionKind = Literal["direct", "dispatch"]
SubmissionStatus = Literal["queued", "running", "terminalizing", "joining", "joined", "settled"]
SubmissionOutcome = Literal["completed", "failed", "aborted"]

_OFFSET_DIGITS = 20


def canonical_json(value: JsonValue) -> bytes:
    """Encode a JSON value canonically (sorted keys), the form stores compare."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def format_offset(sequence: int) -> str:
    """The opaque offset string of batch `sequence` (1-based; 0 is `OFFSET_START`)."""
    if sequence <= 0:
        return OFFSET_START
    return f"{sequence:0{_OFFSET_DIGITS}d}"


def parse_offset(offset: str) -> int | None:
    """The batch sequence an offset names (0 for `OFFSET_START`), or None if malformed."""
    if offset == OFFSET_START:
        return 0
    if len(offset) != _OFFSET_DIGITS or not offset.isdigit():
        return None
    return int(offset)


def clamp_read_limit(limit: int | None) -> int:
    """The default for a missing or non-positive limit, capped at `MAX_READ_LIMIT`."""
    if limit is None or limit <= 0:
        return DEFAULT_READ_LIMIT
    return min(limit, MAX_READ_LIMIT)


def make_session_key(
    agent_name: str, instance_id: str, harness: str = "default", session: str = "default"
) -> str:
    """Serialize a session lane's identity: queue order, aborts and ownership are per lane."""
    return orjson.dumps([agent_name, instance_id, harness, session]).decode()


def parse_session_key(session_key: str) -> tuple[str, str, str, str]:
    """Split a key made by `make_session_key` into agent, instance, harness, session.

    Raises:
        ValueError: The key was not made by `make_session_key`.
    """
    try:
        parts = orjson.loads(session_key)
    except orjson.JSONDecodeError as exc:
        raise ValueError(f"not a session key: {session_key!r}") from exc
    if not (isinstance(parts, list) and len(parts) == 4 and all(isinstance(p, str) for p in parts)):
        raise ValueError(f"not a session key: {session_key!r}")
    return parts[0], parts[1], parts[2], parts[3]


# -- submissions ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class SubmissionAttachment:
    """Bytes that arrived with a submission (an image, a file), kept with its row."""

    item_id: str
    mime_type: str
    data: bytes


@dataclass(frozen=True, slots=True, kw_only=True)
class SubmissionInput:
    """What admission needs: identity, lane, payload and attachments.

    `canonical_ready` admits the submission as already materialized in the canonical
    conversation; otherwise it waits for `mark_canonical_ready` before it can run.
    """

    submission_id: str
    agent_name: str
    instance_id: str
    harness: str = "default"
    session: str = "default"
    payload: JsonValue = None
    attachments: tuple[SubmissionAttachment, ...] = ()
    canonical_ready: bool = False

    @property
    def session_key(self) -> str:
        """The lane this submission queues in."""
        return make_session_key(self.agent_name, self.instance_id, self.harness, self.session)


@dataclass(frozen=True, slots=True, kw_only=True)
class SettledRecord:
    """The canonical record a settlement writes: its outcome and optional data."""

    outcome: SubmissionOutcome
    error: str | None = None
    data: JsonValue = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Submission:
    """One row of the ledger.

    Times are Unix seconds; 0 means "not set" for the lease and the timeout. A row
    whose content retention deleted (`SubmissionStore.redact_submissions`) is a
    retained receipt: `redacted_at` is set, and its identity, order, status, outcome,
    error and times stay.
    """

    submission_id: str
    sequence: int
    kind: SubmissionKind
    agent_name: str
    instance_id: str
    session_key: str
    payload: JsonValue
    attachments: tuple[SubmissionAttachment, ...]
    status: SubmissionStatus
    accepted_at: float
    canonical_ready_at: float | None = None
    attempt_id: str | None = None
    owner_id: str | None = None
    lease_expires_at: float = 0.0
    started_at: float | None = None
    attempt_count: int = 0
    max_attempts: int = DURABILITY_DEFAULT_MAX_ATTEMPTS
    timeout_at: float = 0.0
    input_applied_at: float | None = None
    abort_requested_at: float | None = None
    joined_into: str | None = None
    settled_at: float | None = None
    outcome: SubmissionOutcome | None = None
    error: str | None = None
    settlement_record_id: str | None = None
    settlement_record: SettledRecord | None = None
    redacted_at: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class AttemptRef:
    """Names one attempt of a submission; lifecycle writes are gated on it."""

    submission_id: str
    attempt_id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Lease:
    """Who holds a running submission and until when (Unix seconds)."""

    owner_id: str
    expires_at: float


@dataclass(frozen=True, slots=True, kw_only=True)
class SubmissionClaim:
    """A request to start a submission under a new attempt and lease."""

    submission_id: str
    attempt_id: str
    owner_id: str
    lease_expires_at: float


@dataclass(frozen=True, slots=True, kw_only=True)
class Durability:
    """The retry budget installed when a submission's input is first applied."""

    max_attempts: int = DURABILITY_DEFAULT_MAX_ATTEMPTS
    timeout: float = DURABILITY_DEFAULT_TIMEOUT


@dataclass(frozen=True, slots=True, kw_only=True)
class SettlementObligation:
    """A reserved settlement not yet finalized: the record must reach the stream."""

    submission_id: str
    attempt_id: str
    record_id: str
    record: SettledRecord


@dataclass(frozen=True, slots=True, kw_only=True)
class DispatchAdmission:
    """The answer to `admit_dispatch`.

    `kind` is "admitted" (new row), "replayed" (exact replay of an admitted one),
    "conflict" (the id is taken by other content; `submission` is None) or
    "retained_receipt" (the id names a submission whose content retention deleted:
    `submission` is its receipt, and nothing is admitted again).
    """

    kind: Literal["admitted", "replayed", "conflict", "retained_receipt"]
    submission: Submission | None


# -- conversations ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class StreamIdentity:
    """Whose conversation a stream holds; fixed when the stream is created."""

    agent_name: str
    instance_id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ProducerClaim:
    """Exclusive right to append, until someone acquires the stream again."""

    path: str
    producer_id: str
    producer_epoch: int
    incarnation: str
    head_offset: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ConversationBatch:
    """Records appended together under one offset."""

    offset: str
    records: tuple[JsonValue, ...]
    producer_id: str
    producer_epoch: int
    producer_sequence: int
    submission_id: str | None = None
    attempt_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ReadResult:
    """Batches strictly after the requested offset; read on from `next_offset`."""

    batches: tuple[ConversationBatch, ...]
    next_offset: str
    up_to_date: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class StreamMeta:
    """A stream's identity, incarnation, head and current producer."""

    path: str
    identity: StreamIdentity
    incarnation: str
    head_offset: str
    producer_id: str | None
    producer_epoch: int
    next_producer_sequence: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FoldCheckpoint:
    """A serialized fold of a stream up to `head_offset`: a cache, never authoritative."""

    head_offset: str
    incarnation: str
    format_version: int
    data: bytes


# -- attachments ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class AttachmentRef:
    """Identity and integrity of attachment bytes; `filename` is presentation only."""

    attachment_id: str
    mime_type: str
    size: int
    digest: str
    filename: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredAttachment:
    """An attachment as stored: its ref, owning conversation and bytes."""

    ref: AttachmentRef
    conversation_id: str
    data: bytes


def make_attachment_ref(
    attachment_id: str, data: bytes, *, mime_type: str, filename: str | None = None
) -> AttachmentRef:
    """Build the ref of `data` (size and lowercase hex SHA-256)."""
    return AttachmentRef(
        attachment_id=attachment_id,
        mime_type=mime_type,
        size=len(data),
        digest=hashlib.sha256(data).hexdigest(),
        filename=filename,
    )


def verify_attachment_bytes(ref: AttachmentRef, data: bytes) -> None:
    """Check `data` against the ref's size, then digest.

    Raises:
        IntegrityError: The size or the digest differs.
    """
    if len(data) != ref.size:
        raise IntegrityError(
            f"attachment {ref.attachment_id!r} declares {ref.size} bytes but has {len(data)}"
        )
    digest = hashlib.sha256(data).hexdigest()
    if digest != ref.digest.lower():
        raise IntegrityError(
            f"attachment {ref.attachment_id!r} declares SHA-256 {ref.digest!r} but its "
            f"bytes hash to {digest!r}"
        )


def same_attachment_ref(a: AttachmentRef, b: AttachmentRef) -> bool:
    """Whether two refs name the same bytes (the filename is ignored)."""
    return (a.attachment_id, a.mime_type, a.size, a.digest.lower()) == (
        b.attachment_id,
        b.mime_type,
        b.size,
        b.digest.lower(),
    )


def check_same_attachment(
    existing: StoredAttachment, *, ref: AttachmentRef, conversation_id: str, data: bytes
) -> None:
    """Accept an exact re-put; anything else reusing the id is a conflict.

    Raises:
        ConflictError: The id is stored with other bytes, metadata or conversation.
    """
    if existing.conversation_id != conversation_id:
        raise ConflictError(
            f"attachment {ref.attachment_id!r} belongs to conversation "
            f"{existing.conversation_id!r}, not {conversation_id!r}"
        )
    if not same_attachment_ref(existing.ref, ref) or existing.data != data:
        raise ConflictError(
            f"attachment {ref.attachment_id!r} is stored with other bytes or metadata; "
            "attachments are immutable, use a new id"
        )
