"""The attachment contract: every backend's `AttachmentStore` must pass it."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest

from ...errors import ConflictError, IntegrityError
from ...stores import AttachmentStore, make_attachment_ref

__all__ = ["AttachmentContract"]

STREAM = "agents/helper/inst-1"
CONVERSATION = "conv-1"


class AttachmentContract:
    """Subclass with an async `backend` fixture yielding a migrated, connected backend."""

    @pytest.fixture
    def attachments(self, backend: Any) -> AttachmentStore:
        return backend.stores.attachments  # type: ignore[no-any-return]

    @staticmethod
    async def put(
        store: AttachmentStore,
        data: bytes,
        *,
        attachment_id: str = "att-1",
        conversation: str = CONVERSATION,
        mime_type: str = "image/png",
    ) -> None:
        ref = make_attachment_ref(attachment_id, data, mime_type=mime_type, filename="a.png")
        await store.put(stream_path=STREAM, conversation_id=conversation, ref=ref, data=data)

    @staticmethod
    async def get(
        store: AttachmentStore, attachment_id: str = "att-1", conversation: str = CONVERSATION
    ) -> Any:
        return await store.get(
            stream_path=STREAM, conversation_id=conversation, attachment_id=attachment_id
        )

    async def test_an_exact_put_round_trips(self, attachments: AttachmentStore) -> None:
        await self.put(attachments, b"picture bytes")
        stored = await self.get(attachments)
        assert stored is not None and stored.data == b"picture bytes"
        assert stored.ref == make_attachment_ref(
            "att-1", b"picture bytes", mime_type="image/png", filename="a.png"
        )
        assert stored.conversation_id == CONVERSATION
        assert await self.get(attachments, "unknown") is None

    async def test_a_payload_over_one_chunk_round_trips(self, attachments: AttachmentStore) -> None:
        data = bytes(range(256)) * 2048 + b"+"  # 512 KiB + 1
        await self.put(attachments, data)
        stored = await self.get(attachments)
        assert stored is not None and stored.data == data

    async def test_an_exact_retry_after_an_uncertain_acknowledgement(
        self, attachments: AttachmentStore
    ) -> None:
        await self.put(attachments, b"once")
        await self.put(attachments, b"once")  # the caller never saw the first answer
        ref = make_attachment_ref("att-1", b"once", mime_type="image/png", filename="other.png")
        await attachments.put(
            stream_path=STREAM, conversation_id=CONVERSATION, ref=ref, data=b"once"
        )  # the filename is presentation only
        stored = await self.get(attachments)
        assert stored is not None and stored.data == b"once"

    async def test_concurrent_exact_puts_all_succeed(self, attachments: AttachmentStore) -> None:
        data = b"same" * 100_000
        await asyncio.gather(*(self.put(attachments, data) for _ in range(6)))
        stored = await self.get(attachments)
        assert stored is not None and stored.data == data

    async def test_other_bytes_or_metadata_conflict(self, attachments: AttachmentStore) -> None:
        await self.put(attachments, b"first")
        with pytest.raises(ConflictError):
            await self.put(attachments, b"second")
        with pytest.raises(ConflictError):
            await self.put(attachments, b"first", mime_type="image/jpeg")
        stored = await self.get(attachments)
        assert stored is not None and stored.data == b"first"

    async def test_another_conversation_conflicts(self, attachments: AttachmentStore) -> None:
        await self.put(attachments, b"mine")
        with pytest.raises(ConflictError):
            await self.put(attachments, b"mine", conversation="conv-2")

    async def test_a_size_mismatch_is_an_integrity_error(
        self, attachments: AttachmentStore
    ) -> None:
        ref = make_attachment_ref("att-1", b"12345", mime_type="text/plain")
        with pytest.raises(IntegrityError, match="bytes"):
            await attachments.put(
                stream_path=STREAM,
                conversation_id=CONVERSATION,
                ref=dataclasses.replace(ref, size=4),
                data=b"12345",
            )
        assert await self.get(attachments) is None

    async def test_a_digest_mismatch_is_an_integrity_error(
        self, attachments: AttachmentStore
    ) -> None:
        ref = make_attachment_ref("att-1", b"12345", mime_type="text/plain")
        with pytest.raises(IntegrityError, match="SHA-256"):
            await attachments.put(
                stream_path=STREAM, conversation_id=CONVERSATION, ref=ref, data=b"54321"
            )
        assert await self.get(attachments) is None

    async def test_purge_deletes_the_streams_attachments_only(
        self, attachments: AttachmentStore
    ) -> None:
        big = bytes(range(256)) * 2048 + b"+"  # over one chunk
        await self.put(attachments, b"one")
        await self.put(attachments, big, attachment_id="att-2")
        kept = make_attachment_ref("att-1", b"kept", mime_type="text/plain")
        await attachments.put(
            stream_path=STREAM + "~1", conversation_id=CONVERSATION, ref=kept, data=b"kept"
        )
        await attachments.purge(STREAM)
        assert await self.get(attachments) is None
        assert await self.get(attachments, "att-2") is None
        other = await attachments.get(
            stream_path=STREAM + "~1", conversation_id=CONVERSATION, attachment_id="att-1"
        )
        assert other is not None and other.data == b"kept"
        await attachments.purge(STREAM)  # nothing left: no error
        await attachments.purge("agents/helper/never-written")
        # Nothing of the purged one remains to conflict with.
        await self.put(attachments, b"new bytes")
        stored = await self.get(attachments)
        assert stored is not None and stored.data == b"new bytes"

    async def test_another_conversation_reads_nothing(self, attachments: AttachmentStore) -> None:
        await self.put(attachments, b"private")
        assert await self.get(attachments, conversation="conv-2") is None

    async def test_returned_and_stored_bytes_are_independent(
        self, attachments: AttachmentStore
    ) -> None:
        buffer = bytearray(b"original")
        ref = make_attachment_ref("att-1", bytes(buffer), mime_type="text/plain")
        await attachments.put(
            stream_path=STREAM, conversation_id=CONVERSATION, ref=ref, data=buffer
        )
        buffer[:] = b"mutated!"
        first = await self.get(attachments)
        assert first is not None and first.data == b"original"
        assert isinstance(first.data, bytes)  # immutable: no caller can change stored bytes
