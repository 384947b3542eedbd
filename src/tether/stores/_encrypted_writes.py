"""Sealing what rides on a commit: the `StoreWrite`s of `Commit.writes` and of a hook resume.

The same places as the stores they stand for (see `_encrypted_agent`): a conversation
batch is one ciphertext bound to its stream, producer, epoch and sequence, and to its
offset (the append's `at`, which the encrypted workflow store states); a run's
stream chunk to its run, stream name and index (the append's `at`, which the encrypted
workflow store states); a submission's payload and attachments to the
submission; settlement errors to the scope only. Everything is sealed under the scope
of the run the commit (or the resumed hook) belongs to, so a write replayed by another
attempt seals to the same bytes (the nonce is synthetic) and the stores' idempotent
replays still match; and erasing the run's scope erases it all.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import InvalidOffsetError, PayloadTooLargeError
from ._agent_records import (
    JsonValue,
    SubmissionAttachment,
    SubmissionInput,
    canonical_json,
    parse_offset,
)
from ._conversation_rules import MAX_BATCH_BYTES
from ._records import evolve
from ._sealer import Sealer
from ._sealing import envelope_to_text
from ._writes import (
    AdmitSubmission,
    AppendRecords,
    AppendStream,
    ResolveSubmissions,
    SettleSubmission,
    StoreWrite,
)

__all__ = ["SEALED_KEY", "seal_batch", "seal_submission_input", "seal_writes"]

#: The one key of the record a sealed conversation batch is stored as.
SEALED_KEY = "$tether_sealed"


async def seal_batch(
    sealer: Sealer,
    scope: str,
    *,
    path: str,
    producer_id: str,
    producer_epoch: int,
    producer_sequence: int,
    records: Sequence[JsonValue],
    at: str | None,
) -> list[JsonValue]:
    """A conversation batch as the one sealed record the inner store keeps.

    With `at` (its offset) it is sealed positioned: it opens only read at that offset.

    Raises:
        PayloadTooLargeError: The plain batch is over the store's cap.
    """
    data = canonical_json(list(records))
    if len(data) > MAX_BATCH_BYTES:
        raise PayloadTooLargeError(
            f"a batch of {len(records)} record(s) for stream {path!r} encodes to "
            f"{len(data)} bytes, over the cap of {MAX_BATCH_BYTES} bytes; split it into "
            "several appends or move large content into attachments"
        )
    place = ("conversation.batch", path, producer_id, str(producer_epoch), str(producer_sequence))
    envelope = await sealer.seal(scope, place, data, at=None if at is None else _seq(path, at))
    return [{SEALED_KEY: envelope_to_text(envelope)}]


def _seq(path: str, offset: str) -> int:
    seq = parse_offset(offset)
    if seq is None:
        raise InvalidOffsetError(path, offset, "not an offset this store issued")
    return seq


async def seal_submission_input(
    sealer: Sealer, scope: str, sub: SubmissionInput
) -> SubmissionInput:
    """A submission to admit with its payload and attachments sealed."""
    sid = sub.submission_id
    items = tuple(
        [
            SubmissionAttachment(
                item_id=a.item_id,
                mime_type=a.mime_type,
                data=await sealer.seal(scope, ("submission.attachment", sid, a.item_id), a.data),
            )
            for a in sub.attachments
        ]
    )
    payload = await sealer.seal_json(scope, ("submission.payload", sid), sub.payload)
    return evolve(sub, payload=payload, attachments=items)


async def seal_writes(
    sealer: Sealer, scope: str, writes: Sequence[StoreWrite]
) -> tuple[StoreWrite, ...]:
    """`writes` with their content sealed under `scope` (the rest passes unchanged)."""
    out: list[StoreWrite] = []
    for write in writes:
        if isinstance(write, AppendRecords):
            records = await seal_batch(
                sealer,
                scope,
                path=write.path,
                producer_id=write.producer_id,
                producer_epoch=write.producer_epoch,
                producer_sequence=write.producer_sequence,
                records=write.records,
                at=write.at,
            )
            out.append(evolve(write, records=tuple(records)))
        elif isinstance(write, AppendStream):
            place = ("stream", write.run_id, write.name)
            at = write.at
            chunks = tuple(
                [
                    await sealer.seal(scope, place, c, at=None if at is None else at + i)
                    for i, c in enumerate(write.chunks)
                ]
            )
            out.append(evolve(write, chunks=chunks))
        elif isinstance(write, AdmitSubmission):
            sealed = await seal_submission_input(sealer, scope, write.submission)
            out.append(evolve(write, submission=sealed))
        elif isinstance(write, SettleSubmission | ResolveSubmissions):
            error = await sealer.seal_text(scope, ("submission.error",), write.error)
            out.append(evolve(write, error=error))
        else:
            out.append(write)
    return tuple(out)
