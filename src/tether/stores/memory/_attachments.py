"""In-memory attachment bytes: the reference implementation, no I/O."""

from __future__ import annotations

from ..kit import (
    AttachmentRef,
    StoredAttachment,
    check_same_attachment,
    verify_attachment_bytes,
)
from ._gate import Gate, gated

__all__ = ["MemoryAttachmentStore"]


@gated
class MemoryAttachmentStore:
    """An `AttachmentStore` kept in this process's memory."""

    def __init__(self, *, gate: Gate | None = None) -> None:
        self._gate = gate or Gate()
        self._items: dict[tuple[str, str], StoredAttachment] = {}

    async def put(
        self, *, stream_path: str, conversation_id: str, ref: AttachmentRef, data: bytes | bytearray
    ) -> None:
        # bytes() copies a caller's buffer: later mutation cannot reach stored bytes.
        stored = bytes(data)
        verify_attachment_bytes(ref, stored)
        key = (stream_path, ref.attachment_id)
        existing = self._items.get(key)
        if existing is None:
            self._items[key] = StoredAttachment(
                ref=ref, conversation_id=conversation_id, data=stored
            )
            return
        check_same_attachment(existing, ref=ref, conversation_id=conversation_id, data=stored)

    async def get(
        self, *, stream_path: str, conversation_id: str, attachment_id: str
    ) -> StoredAttachment | None:
        stored = self._items.get((stream_path, attachment_id))
        if stored is None or stored.conversation_id != conversation_id:
            return None
        verify_attachment_bytes(stored.ref, stored.data)
        return stored

    async def purge(self, stream_path: str) -> None:
        for key in [k for k in self._items if k[0] == stream_path]:
            del self._items[key]
