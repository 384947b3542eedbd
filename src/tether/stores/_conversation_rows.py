"""Rows of the conversation tables: the statements and values both SQL backends use.

The backends differ in placeholders, locking and how they send chunk rows, not in what
a stream or batch row holds.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import _conversation_rules as rules
from ._agent_records import FoldCheckpoint, StreamIdentity
from ._shared import split_chunks

__all__ = [
    "STREAM_COLUMNS",
    "Statements",
    "batch_rows",
    "checkpoint_from_rows",
    "checkpoint_rows",
    "statements",
    "stream_from_row",
    "stream_values",
]

STREAM_COLUMNS = (
    "path, agent_name, instance_id, incarnation, head, producer_id, producer_epoch, "
    "next_producer_sequence"
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Statements:
    """The stream and batch statements in one backend's placeholder style."""

    get_stream: str
    insert_stream: str
    update_stream: str
    find_batch: str
    insert_batch: str
    insert_batch_chunk: str
    delete_checkpoint_chunks: str
    batch_held: str
    put_checkpoint: str
    insert_checkpoint_chunk: str
    #: Header and chunks in one statement, so in one snapshot (`checkpoint_from_rows`).
    get_checkpoint: str


def statements(m: str) -> Statements:
    """The `Statements` for a placeholder mark `m` (``?`` or ``%s``)."""
    return Statements(
        get_stream=(f"SELECT {STREAM_COLUMNS} FROM tether_conversation_streams WHERE path = {m}"),
        insert_stream=(
            "INSERT INTO tether_conversation_streams (agent_name, instance_id, incarnation, "
            "head, producer_id, producer_epoch, next_producer_sequence, path) "
            f"VALUES ({', '.join([m] * 8)})"
        ),
        update_stream=(
            f"UPDATE tether_conversation_streams SET agent_name = {m}, instance_id = {m}, "
            f"incarnation = {m}, head = {m}, producer_id = {m}, producer_epoch = {m}, "
            f"next_producer_sequence = {m} WHERE path = {m}"
        ),
        find_batch=(
            "SELECT seq, digest, submission_id, attempt_id FROM tether_conversation_batches "
            f"WHERE path = {m} AND producer_id = {m} AND producer_epoch = {m} "
            f"AND producer_sequence = {m}"
        ),
        insert_batch=(
            "INSERT INTO tether_conversation_batches (path, seq, producer_id, producer_epoch, "
            "producer_sequence, submission_id, attempt_id, record_count, byte_size, digest, "
            f"chunk_count, data) VALUES ({', '.join([m] * 12)})"
        ),
        insert_batch_chunk=(
            "INSERT INTO tether_conversation_batch_chunks (path, seq, chunk_index, data) "
            f"VALUES ({m}, {m}, {m}, {m})"
        ),
        delete_checkpoint_chunks=(
            f"DELETE FROM tether_conversation_checkpoint_chunks WHERE path = {m}"
        ),
        batch_held=f"SELECT 1 FROM tether_conversation_batches WHERE path = {m} AND seq = {m}",
        put_checkpoint=(
            "INSERT INTO tether_conversation_checkpoints (path, head_offset, incarnation, "
            f"format_version, byte_size, digest, chunk_count) VALUES ({', '.join([m] * 7)}) "
            "ON CONFLICT (path) DO UPDATE SET head_offset = excluded.head_offset, "
            "incarnation = excluded.incarnation, format_version = excluded.format_version, "
            "byte_size = excluded.byte_size, digest = excluded.digest, "
            "chunk_count = excluded.chunk_count"
        ),
        insert_checkpoint_chunk=(
            "INSERT INTO tether_conversation_checkpoint_chunks (path, chunk_index, data) "
            f"VALUES ({m}, {m}, {m})"
        ),
        get_checkpoint=(
            "SELECT h.head_offset, h.incarnation, h.format_version, h.byte_size, h.digest, "
            "c.data FROM tether_conversation_checkpoints h LEFT JOIN "
            "tether_conversation_checkpoint_chunks c ON c.path = h.path "
            f"WHERE h.path = {m} ORDER BY c.chunk_index"
        ),
    )


def stream_from_row(row: Any) -> rules.StreamRow:
    """A `StreamRow` from a row selected with `STREAM_COLUMNS`."""
    return rules.StreamRow(
        path=row[0],
        identity=StreamIdentity(agent_name=row[1], instance_id=row[2]),
        incarnation=row[3],
        head=int(row[4]),
        producer_id=row[5],
        producer_epoch=int(row[6]),
        next_producer_sequence=int(row[7]),
    )


def stream_values(row: rules.StreamRow) -> tuple[Any, ...]:
    """The values of the stream insert and update (path last)."""
    return (
        row.identity.agent_name, row.identity.instance_id, row.incarnation, row.head,
        row.producer_id, row.producer_epoch, row.next_producer_sequence, row.path,
    )  # fmt: skip


def batch_rows(
    batch: rules.NewBatch,
) -> tuple[tuple[Any, ...], Sequence[tuple[str, int, int, bytes]]]:
    """The batch row's values and its chunk rows.

    A batch over `BATCH_CHUNK_BYTES` keeps its data in chunk rows, not in its own.
    """
    chunked = len(batch.data) > rules.BATCH_CHUNK_BYTES
    pieces = list(split_chunks(batch.data, rules.BATCH_CHUNK_BYTES)) if chunked else []
    values = (
        batch.path, batch.seq, batch.producer_id, batch.producer_epoch,
        batch.producer_sequence, batch.submission_id, batch.attempt_id, batch.record_count,
        len(batch.data), batch.digest, len(pieces), None if chunked else batch.data,
    )  # fmt: skip
    return values, [(batch.path, batch.seq, index, piece) for index, piece in pieces]


def checkpoint_rows(
    path: str, checkpoint: FoldCheckpoint
) -> tuple[tuple[Any, ...], Sequence[tuple[str, int, bytes]]]:
    """The checkpoint header's values and its chunk rows."""
    data = bytes(checkpoint.data)
    pieces = list(split_chunks(data, rules.BATCH_CHUNK_BYTES))
    values = (
        path, checkpoint.head_offset, checkpoint.incarnation, checkpoint.format_version,
        len(data), hashlib.sha256(data).hexdigest(), len(pieces),
    )  # fmt: skip
    return values, [(path, index, piece) for index, piece in pieces]


def checkpoint_from_rows(rows: Sequence[Any]) -> FoldCheckpoint | None:
    """The checkpoint the `get_checkpoint` rows hold, or None.

    A checkpoint is a cache: one that does not verify reads as absent.
    """
    if not rows:
        return None
    head_offset, incarnation, format_version, size, digest, _ = rows[0]
    data = b"".join(bytes(r[5]) for r in rows if r[5] is not None)
    if len(data) != size or hashlib.sha256(data).hexdigest() != digest:
        return None
    return FoldCheckpoint(
        head_offset=head_offset,
        incarnation=incarnation,
        format_version=int(format_version),
        data=data,
    )
