"""Attachment bytes on Postgres, stored as chunk rows (SQLite's size) under a header row.

A put is one transaction: header and chunks commit together. Two concurrent puts of
one attachment both try to insert the header; the second waits on the primary key,
fails when the first commits, and the runner re-runs it: it then finds the committed
attachment and compares instead of writing a second copy.
"""

from __future__ import annotations

from .._agent_records import (
    AttachmentRef,
    StoredAttachment,
    check_same_attachment,
    verify_attachment_bytes,
)
from .._shared import ATTACHMENT_CHUNK_BYTES, split_chunks
from ._submissions import Conn, TxRunner

__all__ = ["PostgresAttachmentStore"]


def _load(conn: Conn, stream_path: str, attachment_id: str) -> StoredAttachment | None:
    rows = conn.execute(
        "SELECT a.conversation_id, a.mime_type, a.byte_size, a.digest, a.filename, c.data "
        "FROM tether_attachments a LEFT JOIN tether_attachment_chunks c "
        "ON c.stream_path = a.stream_path AND c.attachment_id = a.attachment_id "
        "WHERE a.stream_path = %s AND a.attachment_id = %s ORDER BY c.chunk_index",
        (stream_path, attachment_id),
    ).fetchall()
    if not rows:
        return None
    conversation_id, mime_type, size, digest, filename, _ = rows[0]
    ref = AttachmentRef(
        attachment_id=attachment_id,
        mime_type=mime_type,
        size=int(size),
        digest=digest,
        filename=filename,
    )
    data = b"".join(bytes(r[5]) for r in rows if r[5] is not None)
    return StoredAttachment(ref=ref, conversation_id=conversation_id, data=data)


def _put(
    conn: Conn, stream_path: str, conversation_id: str, ref: AttachmentRef, data: bytes
) -> None:
    existing = _load(conn, stream_path, ref.attachment_id)
    if existing is not None:
        check_same_attachment(existing, ref=ref, conversation_id=conversation_id, data=data)
        return
    pieces = list(split_chunks(data, ATTACHMENT_CHUNK_BYTES))
    conn.execute(
        "INSERT INTO tether_attachments (stream_path, attachment_id, conversation_id, "
        "mime_type, byte_size, digest, filename, chunk_count) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
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
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO tether_attachment_chunks (stream_path, attachment_id, chunk_index, "
            "data) VALUES (%s, %s, %s, %s)",
            [(stream_path, ref.attachment_id, index, piece) for index, piece in pieces],
        )


def _purge(conn: Conn, stream_path: str) -> None:
    conn.execute("DELETE FROM tether_attachment_chunks WHERE stream_path = %s", (stream_path,))
    conn.execute("DELETE FROM tether_attachments WHERE stream_path = %s", (stream_path,))


class PostgresAttachmentStore:
    """An `AttachmentStore` in a Postgres namespace, shared by any number of processes.

    Args:
        run: The transaction runner of the backend (the workflow store's).
    """

    def __init__(self, run: TxRunner) -> None:
        self._run_tx = run

    async def put(
        self, *, stream_path: str, conversation_id: str, ref: AttachmentRef, data: bytes | bytearray
    ) -> None:
        # bytes() copies a caller's buffer: later mutation cannot reach stored bytes.
        stored = bytes(data)
        verify_attachment_bytes(ref, stored)
        await self._run_tx(lambda conn: _put(conn, stream_path, conversation_id, ref, stored))

    async def get(
        self, *, stream_path: str, conversation_id: str, attachment_id: str
    ) -> StoredAttachment | None:
        stored = await self._run_tx(lambda conn: _load(conn, stream_path, attachment_id))
        if stored is None or stored.conversation_id != conversation_id:
            return None
        verify_attachment_bytes(stored.ref, stored.data)
        return stored

    async def purge(self, stream_path: str) -> None:
        await self._run_tx(lambda conn: _purge(conn, stream_path))
