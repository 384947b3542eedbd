"""What every backend shares: the storage format's version and how blobs are split.

Backends import these from here, never from each other.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = [
    "ATTACHMENT_CHUNK_BYTES",
    "FORMAT_VERSION",
    "LEGACY_FORMAT_STAMPS",
    "SUBMISSION_CHUNK_BYTES",
    "purge_stream_rows",
    "split_chunks",
]

#: The on-disk format this code reads and writes, stamped into every store. Format 2
#: (migration 24) keeps a step's payloads in its events alone; a release that knows
#: format 1 only refuses a format 2 store (its stamp is newer) instead of misreading it.
FORMAT_VERSION = 2
#: Stamps of earlier formats that `migrate` upgrades in place: format 1, and pre-release
#: builds whose layout equals it. A store with one of them opens only to be migrated.
LEGACY_FORMAT_STAMPS: frozenset[str] = frozenset({"1", "tether-preview"})

#: Attachment bytes are stored in pieces of this size (512 KiB).
ATTACHMENT_CHUNK_BYTES = 512 * 1024
#: Submission attachments are stored in pieces of this size (256 KiB).
SUBMISSION_CHUNK_BYTES = 256 * 1024


def split_chunks(data: bytes, size: int) -> Iterator[tuple[int, bytes]]:
    """Number the `size`-byte pieces of `data` (one empty piece for empty data)."""
    for index, start in enumerate(range(0, max(len(data), 1), size)):
        yield index, data[start : start + size]


def purge_stream_rows(conn: Any, path: str, mark: str) -> None:
    """Delete a conversation stream's content rows (SQL backends; `mark`: placeholder)."""
    for table in (
        "tether_conversation_batch_chunks",
        "tether_conversation_batches",
        "tether_conversation_checkpoint_chunks",
        "tether_conversation_checkpoints",
    ):
        conn.execute(f"DELETE FROM {table} WHERE path = {mark}", (path,))
