"""Raw access to a memory backend's rows, to stage the damage a crash or a disk leaves.

The contract suites use it (`tether.testing.contract.StoredRowAccess`) to check that
a damaged submission row is settled as failed, never run, and that a torn checkpoint
reads as absent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..kit import Stores

if TYPE_CHECKING:
    from ._conversations import MemoryConversationStore
    from ._submissions import MemorySubmissionStore

__all__ = ["MemoryStoredRows"]


class MemoryStoredRows:
    """Damages rows of a connected memory backend's stores."""

    def __init__(self, stores: Stores) -> None:
        self._stores = stores

    async def damage_submission(self, submission_id: str) -> None:
        """Make the stored submission `submission_id` undecodable."""
        submissions: MemorySubmissionStore = self._stores.submissions  # type: ignore[assignment]
        if submissions._lookup(submission_id) is not None:
            submissions._rows.damaged.add(submission_id)

    async def tear_fold_checkpoint(self, path: str) -> None:
        """Leave the checkpoint of `path` as a write cut off halfway."""
        conversations: MemoryConversationStore = self._stores.conversations  # type: ignore[assignment]
        conversations._tear_checkpoint(path)
