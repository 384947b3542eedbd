"""Attachment bytes on SQLite, stored as 512 KiB chunk rows under a header row.

A put is one `BEGIN IMMEDIATE` transaction: header and chunks commit together, and a
concurrent exact put (in this or another process) finds the committed header and
compares instead of writing a second copy.
"""

from __future__ import annotations

import sqlite3

from .._agent_records import (
    AttachmentRef,
    StoredAttachment,
    check_same_attachment,
    verify_attachment_bytes,
)
from .._shared import ATTACHMENT_CHUNK_BYTES, split_chunks
from ._conversations import insert_chunks
from ._db import SqliteDatabase

__all__ = ["SqliteAttachmentStore"]


def _load(
    conn: sqlite3.Connection, stream_path: str, attachment_id: str
) -> StoredAttachment | None:
    row = conn.execute(
        "SELECT conversation_id, mime_type, byte_size, digest, filename "
        "FROM tether_attachments WHERE stream_path = ? AND attachment_id = ?",
        (stream_path, attachment_id),
    ).fetchone()
    if row is None:
        return None
    data = b"".join(
        bytes(piece)
        for (piece,) in conn.execute(
            "SELECT data FROM tether_attachment_chunks WHERE stream_path = ? "
            "AND attachment_id = ? ORDER BY chunk_index",
            (stream_path, attachment_id),
        )
    )
    ref = AttachmentRef(
        attachment_id=attachment_id, mime_type=row[1], size=row[2], digest=row[3], filename=row[4]
    )
    return StoredAttachment(ref=ref, conversation_id=row[0], data=data)


def _put(
    conn: sqlite3.Connection,
    stream_path: str,
    conversation_id: str,
    ref: AttachmentRef,
    data: bytes,
) -> None:
    existing = _load(conn, stream_path, ref.attachment_id)
    if existing is not None:
        check_same_attachment(existing, ref=ref, conversation_id=conversation_id, data=data)
        return
    pieces = list(split_chunks(data, ATTACHMENT_CHUNK_BYTES))
    conn.execute(
        "INSERT INTO tether_attachments (stream_path, attachment_id, conversation_id, "
        "mime_type, byte_size, digest, filename, chunk_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            stream_path,
            ref.attachment_id,
            conversation_id,
            ref.mime_type,
            ref.size,
            ref.digest.lower(),
            ref.filename,
            len(pieces),
        ),
    )
    insert_chunks(
        conn,
        "INSERT INTO tether_attachment_chunks (stream_path, attachment_id, chunk_index, data) "
        "VALUES (?, ?, ?, ?)",
        ((stream_path, ref.attachment_id, index, piece) for index, piece in pieces),
    )


def _purge(conn: sqlite3.Connection, stream_path: str) -> None:
    conn.execute("DELETE FROM tether_attachment_chunks WHERE stream_path = ?", (stream_path,))
    conn.execute("DELETE FROM tether_attachments WHERE stream_path = ?", (stream_path,))


class SqliteAttachmentStore:
    """An `AttachmentStore` in a SQLite file, safe for many processes on one file.

    Args:
        db: A started `SqliteDatabase` whose schema is migrated.
    """

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    async def put(
        self, *, stream_path: str, conversation_id: str, ref: AttachmentRef, data: bytes | bytearray
    ) -> None:
        # bytes() copies a caller's buffer: later mutation cannot reach stored bytes.
        stored = bytes(data)
        verify_attachment_bytes(ref, stored)
        await self._db.write(lambda conn: _put(conn, stream_path, conversation_id, ref, stored))

    async def get(
        self, *, stream_path: str, conversation_id: str, attachment_id: str
    ) -> StoredAttachment | None:
        stored = await self._db.read(lambda conn: _load(conn, stream_path, attachment_id))
        if stored is None or stored.conversation_id != conversation_id:
            return None
        verify_attachment_bytes(stored.ref, stored.data)
        return stored

    async def purge(self, stream_path: str) -> None:
        await self._db.write(lambda conn: _purge(conn, stream_path))
