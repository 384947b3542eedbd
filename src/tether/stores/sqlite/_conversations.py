"""Conversation streams on SQLite.

Appends run as one `SqliteDatabase.write` (a `BEGIN IMMEDIATE` transaction), so the
producer check, the replay check, the batch rows and the new head commit together or
not at all, across processes. A batch over `BATCH_CHUNK_BYTES` is split into chunk
rows and verified against its SHA-256 when read back.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import orjson

from ...errors import IntegrityError
from .. import _conversation_rows as conv_rows
from .. import _conversation_rules as rules
from .._agent_records import (
    OFFSET_START,
    ConversationBatch,
    FoldCheckpoint,
    ReadResult,
    StreamMeta,
    Submission,
    clamp_read_limit,
    format_offset,
    parse_offset,
)
from .._conversation_rules import StreamTxn
from .._conversation_writes import ConversationWrites
from .._shared import purge_stream_rows
from ._db import SqliteDatabase
from ._submissions import lookup_submission

__all__ = ["SqliteConversationStore"]

_SQL = conv_rows.statements("?")
T = TypeVar("T")


def insert_chunks(conn: sqlite3.Connection, sql: str, rows: Iterator[tuple[Any, ...]]) -> None:
    """Insert chunk rows one by one (a seam the crash tests wrap to stop mid-write)."""
    for row in rows:
        conn.execute(sql, row)


class _Tx:
    """`StreamTxn` over one SQLite write transaction."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def get_stream(self, path: str) -> rules.StreamRow | None:
        row = self.conn.execute(_SQL.get_stream, (path,)).fetchone()
        return None if row is None else conv_rows.stream_from_row(row)

    def put_stream(self, row: rules.StreamRow, *, new: bool) -> None:
        sql = _SQL.insert_stream if new else _SQL.update_stream
        self.conn.execute(sql, conv_rows.stream_values(row))

    def find_batch(
        self, path: str, producer_id: str, producer_epoch: int, producer_sequence: int
    ) -> tuple[int, str, str | None, str | None] | None:
        row = self.conn.execute(
            _SQL.find_batch, (path, producer_id, producer_epoch, producer_sequence)
        ).fetchone()
        return None if row is None else (row[0], row[1], row[2], row[3])

    def insert_batch(self, batch: rules.NewBatch) -> None:
        values, chunks = conv_rows.batch_rows(batch)
        self.conn.execute(_SQL.insert_batch, values)
        insert_chunks(self.conn, _SQL.insert_batch_chunk, iter(chunks))

    def get_submission(self, submission_id: str) -> Submission | None:
        return lookup_submission(self.conn, submission_id)


def _read_batches(
    conn: sqlite3.Connection, path: str, offset: str, limit: int | None
) -> ReadResult:
    row = conn.execute(_SQL.get_stream, (path,)).fetchone()
    if row is None:
        return rules.empty_read(path, offset)
    head = int(row[4])
    start = rules.resolve_read_start(path, offset, head)
    if start is None:
        return ReadResult(batches=(), next_offset=format_offset(head), up_to_date=True)
    rows = conn.execute(
        "SELECT seq, producer_id, producer_epoch, producer_sequence, submission_id, "
        "attempt_id, byte_size, digest, chunk_count, data FROM tether_conversation_batches "
        "WHERE path = ? AND seq > ? ORDER BY seq LIMIT ?",
        (path, start, clamp_read_limit(limit)),
    ).fetchall()
    batches = []
    for seq, producer_id, epoch, sequence, submission_id, attempt_id, size, digest, n, data in rows:
        if n:
            data = b"".join(
                bytes(piece)
                for (piece,) in conn.execute(
                    "SELECT data FROM tether_conversation_batch_chunks "
                    "WHERE path = ? AND seq = ? ORDER BY chunk_index",
                    (path, seq),
                )
            )
            if len(data) != size or hashlib.sha256(data).hexdigest() != digest:
                raise IntegrityError(
                    f"batch {format_offset(seq)!r} of stream {path!r} fails its digest"
                )
        batches.append(
            ConversationBatch(
                offset=format_offset(seq),
                records=tuple(orjson.loads(data)),
                producer_id=producer_id,
                producer_epoch=epoch,
                producer_sequence=sequence,
                submission_id=submission_id,
                attempt_id=attempt_id,
            )
        )
    last = rows[-1][0] if rows else start
    return ReadResult(
        batches=tuple(batches), next_offset=format_offset(last), up_to_date=last >= head
    )


def _put_checkpoint(conn: sqlite3.Connection, path: str, checkpoint: FoldCheckpoint) -> None:
    seq = parse_offset(checkpoint.head_offset)
    if seq is None or seq >= 2**63 or conn.execute(_SQL.batch_held, (path, seq)).fetchone() is None:
        return  # purged (or never held): the fold of records gone is not kept
    values, chunks = conv_rows.checkpoint_rows(path, checkpoint)
    conn.execute(_SQL.delete_checkpoint_chunks, (path,))
    conn.execute(_SQL.put_checkpoint, values)
    insert_chunks(conn, _SQL.insert_checkpoint_chunk, iter(chunks))


def _get_checkpoint(conn: sqlite3.Connection, path: str) -> FoldCheckpoint | None:
    return conv_rows.checkpoint_from_rows(conn.execute(_SQL.get_checkpoint, (path,)).fetchall())


class SqliteConversationStore(ConversationWrites):
    """A `ConversationStore` in a SQLite file, safe for many processes on one file.

    Args:
        db: A started `SqliteDatabase` whose schema is migrated.
    """

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db
        super().__init__(write=self._run)

    def _run(self, rule: Callable[[StreamTxn], T]) -> Awaitable[T]:
        # One `BEGIN IMMEDIATE` write: the rule's reads and writes commit together.
        return self._db.write(lambda conn: rule(_Tx(conn)))

    async def read(
        self, path: str, *, offset: str = OFFSET_START, limit: int | None = None
    ) -> ReadResult:
        return await self._db.read(lambda conn: _read_batches(conn, path, offset, limit))

    async def get_meta(self, path: str) -> StreamMeta | None:
        def fetch(conn: sqlite3.Connection) -> StreamMeta | None:
            row = _Tx(conn).get_stream(path)
            return None if row is None else row.meta()

        return await self._db.read(fetch)

    async def purge(self, path: str) -> None:
        await self._db.write(lambda conn: purge_stream_rows(conn, path, "?"))

    async def put_fold_checkpoint(self, path: str, checkpoint: FoldCheckpoint) -> None:
        await self._db.write(lambda conn: _put_checkpoint(conn, path, checkpoint))

    async def get_fold_checkpoint(
        self, path: str, *, at_or_before: str | None = None
    ) -> FoldCheckpoint | None:
        checkpoint = await self._db.read(lambda conn: _get_checkpoint(conn, path))
        if checkpoint is None or not rules.within_bound(checkpoint, at_or_before):
            return None
        return checkpoint
