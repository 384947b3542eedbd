"""In-memory conversation streams: the reference implementation, no I/O."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import orjson

from ..kit import (
    OFFSET_START,
    ConversationBatch,
    ConversationWrites,
    FoldCheckpoint,
    ReadResult,
    StreamMeta,
    StreamTxn,
    Submission,
    clamp_read_limit,
    format_offset,
    parse_offset,
)
from ..kit import conversation_rules as rules
from ._gate import Gate, gated
from ._submissions import MemorySubmissionStore

__all__ = ["MemoryConversationStore"]

T = TypeVar("T")


@dataclass(slots=True)
class _Stream:
    row: rules.StreamRow
    batches: list[rules.NewBatch] = field(default_factory=list)
    by_producer: dict[tuple[str, int, int], int] = field(default_factory=dict)


class _Tx:
    """`StreamTxn` over the store's dicts."""

    def __init__(self, store: MemoryConversationStore) -> None:
        self._store = store

    def get_stream(self, path: str) -> rules.StreamRow | None:
        stream = self._store._streams.get(path)
        return None if stream is None else stream.row

    def put_stream(self, row: rules.StreamRow, *, new: bool) -> None:
        if new:
            self._store._streams[row.path] = _Stream(row=row)
        else:
            self._store._streams[row.path].row = row

    def find_batch(
        self, path: str, producer_id: str, producer_epoch: int, producer_sequence: int
    ) -> tuple[int, str, str | None, str | None] | None:
        stream = self._store._streams[path]
        seq = stream.by_producer.get((producer_id, producer_epoch, producer_sequence))
        if seq is None:
            return None
        batch = stream.batches[seq - 1]
        return seq, batch.digest, batch.submission_id, batch.attempt_id

    def insert_batch(self, batch: rules.NewBatch) -> None:
        stream = self._store._streams[batch.path]
        stream.batches.append(batch)
        key = (batch.producer_id, batch.producer_epoch, batch.producer_sequence)
        stream.by_producer[key] = batch.seq

    def get_submission(self, submission_id: str) -> Submission | None:
        if self._store._submissions is None:
            return None
        return self._store._submissions._lookup(submission_id)


def _to_batch(batch: rules.NewBatch) -> ConversationBatch:
    return ConversationBatch(
        offset=format_offset(batch.seq),
        records=tuple(orjson.loads(batch.data)),
        producer_id=batch.producer_id,
        producer_epoch=batch.producer_epoch,
        producer_sequence=batch.producer_sequence,
        submission_id=batch.submission_id,
        attempt_id=batch.attempt_id,
    )


@gated
class MemoryConversationStore(ConversationWrites):
    """A `ConversationStore` kept in this process's memory.

    Args:
        submissions: The ledger that authorizes submission-owned appends; without
            one, every submission-owned append is refused.
        gate: Its backend's open state (`MemoryBackend.close`); default always open.
    """

    def __init__(
        self, *, submissions: MemorySubmissionStore | None = None, gate: Gate | None = None
    ) -> None:
        self._gate = gate or Gate()
        self._streams: dict[str, _Stream] = {}
        # Each checkpoint with the size and digest of its data as written: a checkpoint
        # whose data no longer matches them (a torn write) reads as absent.
        self._checkpoints: dict[str, tuple[FoldCheckpoint, int, bytes]] = {}
        self._submissions = submissions
        self._tx = _Tx(self)
        super().__init__(write=self._run)

    async def _run(self, rule: Callable[[StreamTxn], T]) -> T:
        # Every write of a stream runs here, after the gate's check (the writes are
        # the base class's, which `gated` does not wrap).
        self._gate.check()
        # Nothing else runs between the rule's reads and writes: it is atomic here.
        return rule(self._tx)

    def attach_submissions(self, submissions: MemorySubmissionStore) -> None:
        """Authorize submission-owned appends against `submissions`."""
        self._submissions = submissions

    async def read(
        self, path: str, *, offset: str = OFFSET_START, limit: int | None = None
    ) -> ReadResult:
        stream = self._streams.get(path)
        if stream is None:
            return rules.empty_read(path, offset)
        head = stream.row.head
        start = rules.resolve_read_start(path, offset, head)
        if start is None:
            return ReadResult(batches=(), next_offset=format_offset(head), up_to_date=True)
        chosen = stream.batches[start : start + clamp_read_limit(limit)]
        last = chosen[-1].seq if chosen else start
        return ReadResult(
            batches=tuple(_to_batch(b) for b in chosen),
            next_offset=format_offset(last),
            up_to_date=last >= head,
        )

    async def get_meta(self, path: str) -> StreamMeta | None:
        stream = self._streams.get(path)
        return None if stream is None else stream.row.meta()

    async def purge(self, path: str) -> None:
        stream = self._streams.get(path)
        if stream is not None:
            stream.batches.clear()
            stream.by_producer.clear()
        self._checkpoints.pop(path, None)

    async def put_fold_checkpoint(self, path: str, checkpoint: FoldCheckpoint) -> None:
        stream = self._streams.get(path)
        seq = parse_offset(checkpoint.head_offset)
        if stream is None or seq is None or not 0 < seq <= len(stream.batches):
            return  # purged (or never held): the fold of records gone is not kept
        data = bytes(checkpoint.data)
        self._checkpoints[path] = (checkpoint, len(data), hashlib.sha256(data).digest())

    async def get_fold_checkpoint(
        self, path: str, *, at_or_before: str | None = None
    ) -> FoldCheckpoint | None:
        stored = self._checkpoints.get(path)
        if stored is None:
            return None
        checkpoint, size, digest = stored
        data = bytes(checkpoint.data)
        if len(data) != size or hashlib.sha256(data).digest() != digest:
            return None  # a cache that does not verify is absent, never a plausible blob
        if not rules.within_bound(checkpoint, at_or_before):
            return None
        return checkpoint

    def _tear_checkpoint(self, path: str) -> None:
        """Keep the first half of a checkpoint's data under its header (`MemoryStoredRows`)."""
        stored = self._checkpoints.get(path)
        if stored is not None:
            checkpoint, size, digest = stored
            torn = dataclasses.replace(checkpoint, data=bytes(checkpoint.data)[: size // 2])
            self._checkpoints[path] = (torn, size, digest)
