"""The agent stores with their payloads sealed: ledger, conversations, attachments.

Places:

- submission payload: ``submission.payload, <id>``; each attachment item:
  ``submission.attachment, <id>, <item id>``; error texts (of a settlement record, a
  failure, a finalization; the ledger copies them between the submissions of a lane):
  ``submission.error`` (bound to the scope only); a settlement's data:
  ``submission.settlement, <id>``;
- a conversation batch (all its records in one ciphertext, so the store sees one
  record): ``conversation.batch, <path>, <producer id>, <epoch>, <producer sequence>``
  and its offset, sealed positioned (`_sealing`): the store assigns offsets, and every
  append states the one it expects (`_encrypted_streams.BatchPositions`), so a batch
  copied to another offset of its stream fails to open there (batches written before
  offsets were bound open at the place alone); the one record that carries a reserved
  settlement keeps its shape, with its error and data sealed as in the ledger, because
  the store compares it with the reserved record;
- a fold checkpoint: ``conversation.checkpoint, <path>, <incarnation>, <head offset>``;
- an attachment (its bytes with its mime type, size, digest and filename):
  ``attachment, <stream path>, <conversation id>, <attachment id>``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import orjson

from ..errors import ContentDeletedError
from ._agent_protocols import AttachmentStore, ConversationStore, SubmissionStore
from ._agent_records import (
    AttachmentRef,
    AttemptRef,
    ConversationBatch,
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
    make_attachment_ref,
    parse_offset,
    verify_attachment_bytes,
)
from ._encrypted_streams import BatchPositions
from ._encrypted_writes import SEALED_KEY, seal_batch, seal_submission_input
from ._records import evolve
from ._sealer import Sealer, current_scope, lane_scope, stream_scope

__all__ = ["EncryptedAttachmentStore", "EncryptedConversationStore", "EncryptedSubmissionStore"]

_SEALED = SEALED_KEY
_SETTLED_KEYS = frozenset({"type", "submission_id", "record_id", "outcome", "error", "data"})
_SEALED_MIME = "application/vnd.tether.sealed"


class _SubmissionSeals:
    """How the ledger's fields are sealed, shared with the conversation store."""

    def __init__(self, inner: SubmissionStore, sealer: Sealer) -> None:
        self.inner = inner
        self.sealer = sealer

    async def scope_of(self, submission_id: str) -> str:
        sub = await self.inner.get_submission(submission_id)
        return current_scope(lane_scope(sub.session_key if sub else submission_id))

    async def seal_record(self, scope: str, sid: str, record: SettledRecord) -> SettledRecord:
        s = self.sealer
        data = record.data
        if data is not None:
            data = await s.seal_json(scope, ("submission.settlement", sid), data)
        error = await s.seal_text(scope, ("submission.error",), record.error)
        return evolve(record, error=error, data=data)

    async def open_record(self, sid: str, record: SettledRecord | None) -> SettledRecord | None:
        if record is None:
            return None
        s = self.sealer
        return evolve(
            record,
            error=await s.open_text(("submission.error",), record.error),
            data=await s.open_json(("submission.settlement", sid), record.data, erased="none"),
        )

    async def open(self, sub: Submission | None) -> Submission | None:
        if sub is None:
            return None
        s, sid = self.sealer, sub.submission_id
        items = []
        for item in sub.attachments:
            data = await s.open(
                ("submission.attachment", sid, item.item_id), item.data, erased="none"
            )
            items.append(evolve(item, data=data or b""))
        return evolve(
            sub,
            payload=await s.open_json(("submission.payload", sid), sub.payload, erased="none"),
            attachments=tuple(items),
            error=await s.open_text(("submission.error",), sub.error),
            settlement_record=await self.open_record(sid, sub.settlement_record),
        )

    async def open_all(self, subs: Sequence[Submission]) -> list[Submission]:
        return [s for s in [await self.open(x) for x in subs] if s is not None]


class EncryptedSubmissionStore:
    """A `SubmissionStore` whose payloads, attachments and texts are sealed."""

    #: The protocol methods that carry no payload, passed to the inner store as they
    #: are; every other one seals what it writes and opens what it reads.
    PAYLOAD_FREE: ClassVar[frozenset[str]] = frozenset(
        {
            "complete_submission",
            "finalize_joined_submission",
            "has_unsettled_submissions",
            "mark_input_applied",
            "redact_submissions",
            "renew_leases",
            "request_session_abort",
            "requeue_submission",
            "revert_joining_submission",
        }
    )

    def __init__(self, inner: SubmissionStore, sealer: Sealer) -> None:
        self.inner = inner
        self._s = _SubmissionSeals(inner, sealer)
        self._sealer = sealer

    async def _seal_input(self, sub: SubmissionInput) -> SubmissionInput:
        scope = current_scope(lane_scope(sub.session_key))
        return await seal_submission_input(self._sealer, scope, sub)

    async def _error(self, submission_id: str, error: str | BaseException | None) -> str | None:
        if error is None:
            return None
        text = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
        scope = await self._s.scope_of(submission_id)
        return await self._sealer.seal_text(scope, ("submission.error",), text)

    async def get_submission(self, submission_id: str) -> Submission | None:
        return await self._s.open(await self.inner.get_submission(submission_id))

    async def has_unsettled_submissions(self) -> bool:
        return await self.inner.has_unsettled_submissions()

    async def list_runnable_submissions(self) -> list[Submission]:
        return await self._s.open_all(await self.inner.list_runnable_submissions())

    async def list_unready_submissions(self) -> list[Submission]:
        return await self._s.open_all(await self.inner.list_unready_submissions())

    async def list_running_submissions(self) -> list[Submission]:
        return await self._s.open_all(await self.inner.list_running_submissions())

    async def _open_obligation(self, ob: SettlementObligation) -> SettlementObligation:
        record = await self._s.open_record(ob.submission_id, ob.record)
        assert record is not None
        return dataclasses.replace(ob, record=record)

    async def list_pending_settlements(self) -> list[SettlementObligation]:
        return [await self._open_obligation(o) for o in await self.inner.list_pending_settlements()]

    async def replace_submission_attempt(
        self, attempt: AttemptRef, next_attempt_id: str, *, lease: Lease | None = None
    ) -> Submission | None:
        return await self._s.open(
            await self.inner.replace_submission_attempt(attempt, next_attempt_id, lease=lease)
        )

    async def admit_dispatch(self, submission: SubmissionInput) -> DispatchAdmission:
        admission = await self.inner.admit_dispatch(await self._seal_input(submission))
        return evolve(admission, submission=await self._s.open(admission.submission))

    async def admit_direct(self, submission: SubmissionInput) -> Submission:
        admitted = await self._s.open(
            await self.inner.admit_direct(await self._seal_input(submission))
        )
        assert admitted is not None
        return admitted

    async def mark_canonical_ready(self, submission_id: str) -> Submission | None:
        return await self._s.open(await self.inner.mark_canonical_ready(submission_id))

    async def claim_submission(self, claim: SubmissionClaim) -> Submission | None:
        return await self._s.open(await self.inner.claim_submission(claim))

    async def mark_input_applied(
        self, attempt: AttemptRef, durability: Durability | None = None
    ) -> bool:
        return await self.inner.mark_input_applied(attempt, durability)

    async def request_session_abort(self, session_key: str) -> list[str]:
        return await self.inner.request_session_abort(session_key)

    async def requeue_submission(self, attempt: AttemptRef) -> bool:
        return await self.inner.requeue_submission(attempt)

    async def settle_queued_submission(
        self, submission_id: str, *, error: str | None = None
    ) -> bool:
        sealed = await self._error(submission_id, error)
        return await self.inner.settle_queued_submission(submission_id, error=sealed)

    async def reserve_settlement(
        self, attempt: AttemptRef, *, record_id: str, record: SettledRecord
    ) -> SettlementObligation | None:
        sid = attempt.submission_id
        sealed = await self._s.seal_record(await self._s.scope_of(sid), sid, record)
        ob = await self.inner.reserve_settlement(attempt, record_id=record_id, record=sealed)
        return None if ob is None else await self._open_obligation(ob)

    async def finalize_settlement(
        self, attempt: AttemptRef, record_id: str, *, error_message: str | None = None
    ) -> bool:
        sealed = await self._error(attempt.submission_id, error_message)
        return await self.inner.finalize_settlement(attempt, record_id, error_message=sealed)

    async def complete_submission(self, attempt: AttemptRef) -> bool:
        return await self.inner.complete_submission(attempt)

    async def fail_submission(self, attempt: AttemptRef, error: str | BaseException) -> bool:
        sealed = await self._error(attempt.submission_id, error)
        assert sealed is not None
        return await self.inner.fail_submission(attempt, sealed)

    async def claim_joinable_submissions(
        self, host: AttemptRef, agent_name: str
    ) -> list[Submission]:
        return await self._s.open_all(await self.inner.claim_joinable_submissions(host, agent_name))

    async def finalize_joined_submission(self, host: AttemptRef, submission_id: str) -> bool:
        return await self.inner.finalize_joined_submission(host, submission_id)

    async def revert_joining_submission(self, host: AttemptRef, submission_id: str) -> bool:
        return await self.inner.revert_joining_submission(host, submission_id)

    async def list_joined_submissions(self, host_submission_id: str) -> list[Submission]:
        return await self._s.open_all(await self.inner.list_joined_submissions(host_submission_id))

    async def renew_leases(self, owner_id: str, submission_ids: Sequence[str]) -> None:
        await self.inner.renew_leases(owner_id, submission_ids)

    async def list_expired_submissions(self) -> list[Submission]:
        return await self._s.open_all(await self.inner.list_expired_submissions())

    async def list_unsettled_submissions(self, session_keys: Sequence[str]) -> list[Submission]:
        return await self._s.open_all(await self.inner.list_unsettled_submissions(session_keys))

    async def redact_submissions(self, session_keys: Sequence[str]) -> int:
        return await self.inner.redact_submissions(session_keys)


def _is_settlement(records: Sequence[JsonValue]) -> bool:
    return (
        len(records) == 1
        and isinstance(records[0], dict)
        and records[0].get("type") == "submission_settled"
        and set(records[0]) == _SETTLED_KEYS
    )


class EncryptedConversationStore:
    """A `ConversationStore` whose batches and checkpoints are sealed."""

    #: The protocol methods that carry no payload, passed to the inner store as they
    #: are; every other one seals what it writes and opens what it reads.
    PAYLOAD_FREE: ClassVar[frozenset[str]] = frozenset(
        {
            "acquire_producer",
            "create_stream",
            "get_meta",
            "purge",
            "subscribe",
        }
    )

    def __init__(
        self,
        inner: ConversationStore,
        submissions: SubmissionStore,
        sealer: Sealer,
        positions: BatchPositions | None = None,
    ) -> None:
        self.inner = inner
        self._sealer = sealer
        self._ledger = _SubmissionSeals(submissions, sealer)
        # Shared with the workflow store's commits, which append to the same streams.
        self._positions = positions or BatchPositions(inner)

    async def create_stream(self, path: str, identity: StreamIdentity) -> None:
        await self.inner.create_stream(path, identity)

    async def acquire_producer(
        self, path: str, producer_id: str, *, create: StreamIdentity | None = None
    ) -> ProducerClaim:
        return await self.inner.acquire_producer(path, producer_id, create=create)

    async def _seal_settlement(self, record: dict[str, Any]) -> dict[str, Any]:
        sid = str(record["submission_id"])
        sealed = await self._ledger.seal_record(
            await self._ledger.scope_of(sid),
            sid,
            SettledRecord(outcome=record["outcome"], error=record["error"], data=record["data"]),
        )
        return {**record, "error": sealed.error, "data": sealed.data}

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
        if not records:
            raise ValueError(f"an append to stream {path!r} needs at least one record")
        settlement = _is_settlement(records)
        if settlement:
            # Kept in its shape (the store compares it with the reserved record), so
            # not positioned: its error and data are sealed as the ledger's.
            settled: list[JsonValue] = [await self._seal_settlement(records[0])]
        scope = current_scope(stream_scope(path))

        async def send(offset: str | None) -> str:
            if settlement:
                sealed = settled
            else:
                sealed = await seal_batch(
                    self._sealer,
                    scope,
                    path=path,
                    producer_id=producer_id,
                    producer_epoch=producer_epoch,
                    producer_sequence=producer_sequence,
                    records=records,
                    at=offset,
                )
            return await self.inner.append(
                path=path,
                producer_id=producer_id,
                producer_epoch=producer_epoch,
                incarnation=incarnation,
                producer_sequence=producer_sequence,
                records=sealed,
                submission=submission,
                at=offset,
            )

        if at is not None or settlement:
            return await send(at)  # a stated offset is never moved
        producer = (producer_id, producer_epoch, producer_sequence)
        return await self._positions.placed(path, producer, send)

    async def _open_batch(self, path: str, batch: ConversationBatch) -> ConversationBatch:
        records = batch.records
        if len(records) == 1 and isinstance(records[0], dict) and set(records[0]) == {_SEALED}:
            place = (
                "conversation.batch",
                path,
                batch.producer_id,
                str(batch.producer_epoch),
                str(batch.producer_sequence),
            )
            # Positioned batches open only at their offset; older ones at the place alone.
            at = parse_offset(batch.offset)
            plain = await self._sealer.open_json(place, records[0][_SEALED], at=at)
            return evolve(batch, records=tuple(plain))
        if _is_settlement(records):
            record = dict(records[0])
            sid = str(record["submission_id"])
            opened = await self._ledger.open_record(
                sid,
                SettledRecord(
                    outcome=record["outcome"], error=record["error"], data=record["data"]
                ),
            )
            assert opened is not None
            return evolve(batch, records=({**record, "error": opened.error, "data": opened.data},))
        await self._sealer.open_json(("conversation.batch", path), records)  # refuses plaintext
        return batch

    async def read(self, path: str, *, offset: str = "-1", limit: int | None = None) -> ReadResult:
        result = await self.inner.read(path, offset=offset, limit=limit)
        batches = tuple([await self._open_batch(path, b) for b in result.batches])
        return evolve(result, batches=batches)

    async def get_meta(self, path: str) -> StreamMeta | None:
        return await self.inner.get_meta(path)

    def subscribe(self, path: str, listener: Callable[[], None]) -> Callable[[], None]:
        return self.inner.subscribe(path, listener)

    async def purge(self, path: str) -> None:
        await self.inner.purge(path)

    @staticmethod
    def _checkpoint_place(path: str, cp: FoldCheckpoint) -> tuple[str, ...]:
        return ("conversation.checkpoint", path, cp.incarnation, cp.head_offset)

    async def put_fold_checkpoint(self, path: str, checkpoint: FoldCheckpoint) -> None:
        place = self._checkpoint_place(path, checkpoint)
        data = await self._sealer.seal(current_scope(stream_scope(path)), place, checkpoint.data)
        await self.inner.put_fold_checkpoint(path, evolve(checkpoint, data=data))

    async def get_fold_checkpoint(
        self, path: str, *, at_or_before: str | None = None
    ) -> FoldCheckpoint | None:
        cp = await self.inner.get_fold_checkpoint(path, at_or_before=at_or_before)
        if cp is None:
            return None
        data = await self._sealer.open(self._checkpoint_place(path, cp), cp.data)
        assert data is not None
        return evolve(cp, data=data)


class EncryptedAttachmentStore:
    """An `AttachmentStore` whose bytes and metadata are sealed together.

    The inner store sees an opaque blob (its own size and digest, a fixed mime type, no
    filename); the caller's ref is rebuilt from the sealed metadata on read.
    """

    #: The protocol methods that carry no payload, passed to the inner store as they
    #: are; every other one seals what it writes and opens what it reads.
    PAYLOAD_FREE: ClassVar[frozenset[str]] = frozenset(
        {
            "purge",
        }
    )

    def __init__(self, inner: AttachmentStore, sealer: Sealer) -> None:
        self.inner = inner
        self._sealer = sealer

    async def put(
        self, *, stream_path: str, conversation_id: str, ref: AttachmentRef, data: bytes | bytearray
    ) -> None:
        plain = bytes(data)
        verify_attachment_bytes(ref, plain)
        meta = orjson.dumps([ref.mime_type, ref.size, ref.digest.lower()])
        body = len(meta).to_bytes(4, "big") + meta + plain
        place = ("attachment", stream_path, conversation_id, ref.attachment_id)
        scope = current_scope(stream_scope(stream_path))
        sealed = await self._sealer.seal(scope, place, body, offload=False)
        # The filename is presentation only (a re-put may rename): sealed on its own, in
        # the inner ref's filename, which the inner store does not compare.
        filename = await self._sealer.seal_text(
            scope, ("attachment.filename", *place[1:]), ref.filename
        )
        inner_ref = make_attachment_ref(
            ref.attachment_id, sealed, mime_type=_SEALED_MIME, filename=filename
        )
        await self.inner.put(
            stream_path=stream_path, conversation_id=conversation_id, ref=inner_ref, data=sealed
        )

    async def get(
        self, *, stream_path: str, conversation_id: str, attachment_id: str
    ) -> StoredAttachment | None:
        stored = await self.inner.get(
            stream_path=stream_path, conversation_id=conversation_id, attachment_id=attachment_id
        )
        if stored is None:
            return None
        place = ("attachment", stream_path, conversation_id, attachment_id)
        body = await self._sealer.open(place, stored.data)
        if body is None:  # pragma: no cover - open raises for erased content
            raise ContentDeletedError(f"attachment {attachment_id!r} was erased")
        size = int.from_bytes(body[:4], "big")
        mime, byte_size, digest = orjson.loads(body[4 : 4 + size])
        filename = await self._sealer.open_text(
            ("attachment.filename", *place[1:]), stored.ref.filename
        )
        ref = AttachmentRef(
            attachment_id=attachment_id,
            mime_type=mime,
            size=byte_size,
            digest=digest,
            filename=filename,
        )
        data = body[4 + size :]
        verify_attachment_bytes(ref, data)
        return StoredAttachment(ref=ref, conversation_id=stored.conversation_id, data=data)

    async def purge(self, stream_path: str) -> None:
        await self.inner.purge(stream_path)
