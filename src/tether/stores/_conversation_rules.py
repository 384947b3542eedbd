"""Conversation stream rules, written once over a `StreamTxn`.

`append` and friends run inside one backend transaction, as the rules over every rule
transaction do (see `stores._rule_txn` for why that makes them atomic). Batches are
stored as the canonical JSON encoding of their record list; an exact replay is
recognised by the SHA-256 of that encoding.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from .._ids import new_ulid
from ..errors import (
    BatchPositionError,
    ConflictError,
    FencedError,
    InvalidOffsetError,
    InvalidTransitionError,
    NotFoundError,
    NotOwnerError,
    PayloadTooLargeError,
)
from ._agent_records import (
    OFFSET_NOW,
    OFFSET_START,
    AttemptRef,
    FoldCheckpoint,
    JsonValue,
    ProducerClaim,
    ReadResult,
    SettlementObligation,
    StreamIdentity,
    StreamMeta,
    Submission,
    canonical_json,
    format_offset,
    parse_offset,
)
from ._rule_txn import RuleTxn

__all__ = [
    "BATCH_CHUNK_BYTES",
    "MAX_BATCH_BYTES",
    "ListenerRegistry",
    "settlement_entry",
]

#: The largest encoded batch one append accepts (12 MiB); larger ones are refused.
MAX_BATCH_BYTES = 12 * 1024 * 1024
#: Backends that store rows split an encoded batch into pieces of this size (1 MiB).
BATCH_CHUNK_BYTES = 1024 * 1024

_log = logging.getLogger("tether.stores")


@dataclass(frozen=True, slots=True, kw_only=True)
class StreamRow:
    """A stream's header as a transaction sees it."""

    path: str
    identity: StreamIdentity
    incarnation: str
    head: int
    producer_id: str | None
    producer_epoch: int
    next_producer_sequence: int

    def meta(self) -> StreamMeta:
        return StreamMeta(
            path=self.path,
            identity=self.identity,
            incarnation=self.incarnation,
            head_offset=format_offset(self.head),
            producer_id=self.producer_id,
            producer_epoch=self.producer_epoch,
            next_producer_sequence=self.next_producer_sequence,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class NewBatch:
    """A batch about to be written at sequence `seq`."""

    path: str
    seq: int
    producer_id: str
    producer_epoch: int
    producer_sequence: int
    submission_id: str | None
    attempt_id: str | None
    record_count: int
    data: bytes
    digest: str


class StreamTxn(RuleTxn, Protocol):
    """The conversation streams' rows as one transaction sees them: the stream rules' `RuleTxn`."""

    def get_stream(self, path: str) -> StreamRow | None: ...

    def put_stream(self, row: StreamRow, *, new: bool) -> None: ...

    def find_batch(
        self, path: str, producer_id: str, producer_epoch: int, producer_sequence: int
    ) -> tuple[int, str, str | None, str | None] | None:
        """(seq, digest, submission_id, attempt_id) of an appended producer sequence."""
        ...

    def insert_batch(self, batch: NewBatch) -> None: ...

    def get_submission(self, submission_id: str) -> Submission | None: ...


def settlement_entry(obligation: SettlementObligation) -> JsonValue:
    """The canonical conversation record that carries a reserved settlement.

    While a submission is terminalizing, its attempt may append exactly this record.
    """
    record = obligation.record
    return {
        "type": "submission_settled",
        "submission_id": obligation.submission_id,
        "record_id": obligation.record_id,
        "outcome": record.outcome,
        "error": record.error,
        "data": record.data,
    }


def encode_batch(path: str, records: Sequence[JsonValue]) -> tuple[bytes, str]:
    if not records:
        raise ValueError(f"an append to stream {path!r} needs at least one record")
    data = canonical_json(list(records))
    if len(data) > MAX_BATCH_BYTES:
        raise PayloadTooLargeError(
            f"a batch of {len(records)} record(s) for stream {path!r} encodes to "
            f"{len(data)} bytes, over the cap of {MAX_BATCH_BYTES} bytes; split it into "
            "several appends or move large content into attachments"
        )
    return data, hashlib.sha256(data).hexdigest()


def create_stream(txn: StreamTxn, path: str, identity: StreamIdentity) -> None:
    row = txn.get_stream(path)
    if row is not None:
        if row.identity != identity:
            raise ConflictError(
                f"stream {path!r} exists with identity {row.identity!r}, not {identity!r}"
            )
        return
    txn.put_stream(
        StreamRow(
            path=path,
            identity=identity,
            incarnation=new_ulid("inc_"),
            head=0,
            producer_id=None,
            producer_epoch=0,
            next_producer_sequence=0,
        ),
        new=True,
    )


def acquire_producer(
    txn: StreamTxn, path: str, producer_id: str, create: StreamIdentity | None = None
) -> ProducerClaim:
    row = txn.get_stream(path)
    if row is None and create is not None:
        # Created already produced by `producer_id`: one row written, not two.
        row = StreamRow(
            path=path,
            identity=create,
            incarnation=new_ulid("inc_"),
            head=0,
            producer_id=producer_id,
            producer_epoch=1,
            next_producer_sequence=0,
        )
        txn.put_stream(row, new=True)
        return ProducerClaim(
            path=path,
            producer_id=producer_id,
            producer_epoch=1,
            incarnation=row.incarnation,
            head_offset=format_offset(0),
        )
    if row is None:
        raise NotFoundError(f"stream {path!r} does not exist; create it first")
    if create is not None and row.identity != create:
        raise ConflictError(
            f"stream {path!r} exists with identity {row.identity!r}, not {create!r}"
        )
    row = dataclasses.replace(
        row,
        producer_id=producer_id,
        producer_epoch=row.producer_epoch + 1,
        next_producer_sequence=0,
    )
    txn.put_stream(row, new=False)
    return ProducerClaim(
        path=path,
        producer_id=producer_id,
        producer_epoch=row.producer_epoch,
        incarnation=row.incarnation,
        head_offset=format_offset(row.head),
    )


def _authorize(
    txn: StreamTxn, row: StreamRow, ref: AttemptRef, records: Sequence[JsonValue]
) -> None:
    def refuse(reason: str) -> NotOwnerError:
        return NotOwnerError(ref.submission_id, ref.attempt_id, reason)

    sub = txn.get_submission(ref.submission_id)
    if sub is None:
        raise refuse("no such submission")
    if (sub.agent_name, sub.instance_id) != (row.identity.agent_name, row.identity.instance_id):
        raise refuse(f"it belongs to another conversation than stream {row.path!r}")
    if sub.status == "running" and sub.attempt_id == ref.attempt_id:
        return
    if sub.status == "terminalizing" and sub.attempt_id == ref.attempt_id:
        assert sub.settlement_record_id is not None and sub.settlement_record is not None
        expected = settlement_entry(
            SettlementObligation(
                submission_id=sub.submission_id,
                attempt_id=ref.attempt_id,
                record_id=sub.settlement_record_id,
                record=sub.settlement_record,
            )
        )
        if len(records) == 1 and canonical_json(records[0]) == canonical_json(expected):
            return
        raise refuse("it is terminalizing; only its reserved settlement record may be appended")
    if sub.status in ("joining", "joined") and sub.joined_into is not None:
        host = txn.get_submission(sub.joined_into)
        if host is not None and host.status == "running" and host.attempt_id == ref.attempt_id:
            return
        raise refuse(f"it joined {sub.joined_into!r}, which that attempt does not run")
    raise refuse(f"it is {sub.status} under attempt {sub.attempt_id!r}")


def append(
    txn: StreamTxn,
    *,
    path: str,
    producer_id: str,
    producer_epoch: int,
    incarnation: str,
    producer_sequence: int,
    records: Sequence[JsonValue],
    submission: AttemptRef | None,
    encoded: tuple[bytes, str],
    at: str | None = None,
) -> tuple[str, bool]:
    """Append a batch; returns its offset and whether this call wrote it.

    With `at`, the append is refused (`BatchPositionError`, nothing written) unless the
    batch lands at that offset, or, replayed, was appended at it.
    """
    row = txn.get_stream(path)
    if row is None:
        raise NotFoundError(f"stream {path!r} does not exist; create it first")
    if (row.producer_id, row.producer_epoch, row.incarnation) != (
        producer_id,
        producer_epoch,
        incarnation,
    ):
        raise FencedError(
            f"producer {producer_id!r} (epoch {producer_epoch}, incarnation {incarnation!r}) "
            f"is not the current producer of stream {path!r}: that is {row.producer_id!r} "
            f"(epoch {row.producer_epoch}, incarnation {row.incarnation!r})"
        )
    data, digest = encoded
    submission_id = submission.submission_id if submission else None
    attempt_id = submission.attempt_id if submission else None
    # This producer's batches hold sequences below the stream's next one: only a lower
    # sequence can be a replay worth looking up.
    found = (
        txn.find_batch(path, producer_id, producer_epoch, producer_sequence)
        if producer_sequence < row.next_producer_sequence
        else None
    )
    if found is not None:
        seq, old_digest, old_submission, old_attempt = found
        if at is not None and format_offset(seq) != at:
            # Compared before the digests: a batch sealed for its offset is another
            # ciphertext at another one, and its replay is sealed again for this one.
            raise BatchPositionError(path, at, format_offset(seq), replay=True)
        if (old_digest, old_submission, old_attempt) == (digest, submission_id, attempt_id):
            return format_offset(seq), False
        raise ConflictError(
            f"producer sequence {producer_sequence} of stream {path!r} was already appended "
            "with other records; an appended batch is never rewritten"
        )
    if producer_sequence != row.next_producer_sequence:
        raise InvalidTransitionError(
            f"stream {path!r} expects producer sequence {row.next_producer_sequence}, "
            f"got {producer_sequence}"
        )
    if submission is not None:
        _authorize(txn, row, submission, records)
    seq = row.head + 1
    if at is not None and format_offset(seq) != at:
        raise BatchPositionError(path, at, format_offset(seq), replay=False)
    txn.insert_batch(
        NewBatch(
            path=path,
            seq=seq,
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            producer_sequence=producer_sequence,
            submission_id=submission_id,
            attempt_id=attempt_id,
            record_count=len(records),
            data=data,
            digest=digest,
        )
    )
    txn.put_stream(
        dataclasses.replace(row, head=seq, next_producer_sequence=producer_sequence + 1),
        new=False,
    )
    return format_offset(seq), True


def resolve_read_start(path: str, offset: str, head: int) -> int | None:
    """The sequence a read starts after, or None for `"now"`.

    Raises:
        InvalidOffsetError: Malformed or past the head.
    """
    if offset == OFFSET_NOW:
        return None
    seq = parse_offset(offset)
    if seq is None:
        raise InvalidOffsetError(path, offset, "not an offset this store issued")
    if seq > head:
        raise InvalidOffsetError(
            path, offset, f"the stream's head is {format_offset(head)!r}; read from at most it"
        )
    return seq


def empty_read(path: str, offset: str) -> ReadResult:
    """The read of a stream that does not exist: empty and up to date.

    Raises:
        InvalidOffsetError: The offset is malformed.
    """
    if offset != OFFSET_NOW and parse_offset(offset) is None:
        raise InvalidOffsetError(path, offset, "not an offset this store issued")
    return ReadResult(batches=(), next_offset=OFFSET_START, up_to_date=True)


def within_bound(checkpoint: FoldCheckpoint, at_or_before: str | None) -> bool:
    """Whether a checkpoint lies at or before an offset bound (no bound: always)."""
    if at_or_before is None:
        return True
    bound = parse_offset(at_or_before)
    mine = parse_offset(checkpoint.head_offset)
    return bound is not None and mine is not None and mine <= bound


class ListenerRegistry:
    """Process-local listeners per stream path, called after each commit."""

    def __init__(self) -> None:
        self._listeners: dict[str, list[Callable[[], None]]] = {}

    def subscribe(self, path: str, listener: Callable[[], None]) -> Callable[[], None]:
        entries = self._listeners.setdefault(path, [])

        # A wrapper gives each subscription its own identity, so subscribing one
        # function twice and unsubscribing once leaves one subscription.
        def entry() -> None:
            listener()

        entries.append(entry)

        def unsubscribe() -> None:
            if entry in entries:
                entries.remove(entry)
            if not entries and self._listeners.get(path) is entries:
                del self._listeners[path]

        return unsubscribe

    def notify(self, path: str) -> None:
        for listener in list(self._listeners.get(path, ())):
            try:
                listener()
            except Exception:
                _log.exception("a conversation stream listener of %r raised", path)
