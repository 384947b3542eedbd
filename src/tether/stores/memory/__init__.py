"""In-memory backend: the reference implementation; nothing survives the process."""

from __future__ import annotations

from datetime import timedelta

from ...errors import ConfigurationError, FormatVersionError
from ..kit import (
    DEFAULT_HOOK_RETENTION,
    FORMAT_VERSION,
    LEGACY_FORMAT_STAMPS,
    Capability,
    Stores,
    hook_retention_seconds,
    retention_seconds,
)
from ._attachments import MemoryAttachmentStore
from ._budgets import MemoryBudgetStore
from ._conversations import MemoryConversationStore
from ._credentials import MemoryCredentialStore
from ._format_stamps import MemoryFormatStamps
from ._gate import Gate
from ._stored_rows import MemoryStoredRows
from ._submissions import MemorySubmissionStore
from ._workflow import MemoryWorkflowStore

__all__ = ["MemoryBackend", "MemoryWorkflowStore"]


class MemoryBackend:
    """Every store in this process's memory.

    `format_stamp` plays the part of a durable store's stamp so the format-version rules
    can be exercised: None means fresh.

    Args:
        hook_retention: How long a hook token released by its run's end stays reserved
            for the run's chain (seconds or a timedelta; default 30 days; 0 frees it at
            once).
        retention: The retention period of ended runs (seconds, a timedelta or a
            string such as ``"30d"``): workers' retention sweep deletes the content of
            runs and sessions that ended longer ago (`tether prune` does it at once).
            None (default) keeps them forever.

    Raises:
        ConfigurationError: `hook_retention` or `retention` is invalid.
    """

    def __init__(
        self,
        *,
        hook_retention: float | timedelta = DEFAULT_HOOK_RETENTION,
        retention: float | timedelta | str | None = None,
    ) -> None:
        self.hook_retention = hook_retention_seconds(hook_retention)
        self.retention = retention_seconds(retention)
        self.format_stamp: str | None = None
        self._stores: Stores | None = None
        self._gate = Gate()

    @property
    def url(self) -> str:
        """Always ``memory://``."""
        return "memory://"

    @property
    def capabilities(self) -> frozenset[Capability]:
        """Fold checkpoints, stamp access, continue-as-new, hook retention; not durability."""
        return frozenset(
            {
                Capability.FOLD_CHECKPOINTS,
                Capability.FORMAT_STAMP,
                Capability.CONTINUE_AS_NEW,
                Capability.HOOK_RETENTION,
            }
        )

    @property
    def format_stamps(self) -> MemoryFormatStamps:
        """Access to the stamp (capability FORMAT_STAMP)."""
        return MemoryFormatStamps(self, new=MemoryBackend)

    @property
    def stored_rows(self) -> MemoryStoredRows:
        """Raw access to the stores' rows (`tether.testing.contract.StoredRowAccess`)."""
        return MemoryStoredRows(self.stores)

    @property
    def stores(self) -> Stores:
        """The stores; `connect()` first."""
        if self._stores is None:
            raise ConfigurationError("the memory backend is not connected; call connect()")
        return self._stores

    def _check_stamp(self) -> None:
        stamp = self.format_stamp
        if stamp is None and self._stores is not None:
            # The stores hold data: a store without its stamp was not made by this
            # code's migrate, and adopting it would stamp data of an unknown format.
            raise FormatVersionError(
                "the memory store holds tether data but no format stamp; it cannot be "
                "used safely: open a new memory backend"
            )
        if stamp is not None and stamp != str(FORMAT_VERSION) and stamp not in LEGACY_FORMAT_STAMPS:
            raise FormatVersionError(
                f"the memory store is stamped with format {stamp!r}; this tether reads and "
                f"writes format {FORMAT_VERSION!r} only"
            )

    async def migrate(self) -> None:
        """Stamp a fresh store; adopt a legacy stamp; refuse an unknown one."""
        self._check_stamp()
        self.format_stamp = str(FORMAT_VERSION)

    async def connect(self) -> Stores:
        """Create the stores (once) and return them."""
        self._check_stamp()
        if self.format_stamp is None:
            raise FormatVersionError("the memory store is not migrated; call migrate() first")
        gate = self._gate
        gate.closed = False  # open again after a close: the data stayed
        if self._stores is None:
            submissions = MemorySubmissionStore(gate=gate)
            conversations = MemoryConversationStore(submissions=submissions, gate=gate)
            workflow = MemoryWorkflowStore(hook_retention=self.hook_retention, gate=gate)
            workflow.attach_agent_stores(submissions, conversations)
            self._stores = Stores(
                workflow=workflow,
                submissions=submissions,
                conversations=conversations,
                attachments=MemoryAttachmentStore(gate=gate),
                credentials=MemoryCredentialStore(gate=gate),
                budgets=MemoryBudgetStore(gate=gate),
            )
        return self._stores

    async def close(self) -> None:
        """Refuse calls until `connect` again; the data stays, in this process.

        As on a durable backend, a call on a closed one raises `StoreError`: a stream's
        follower, or a wait for a run's end or for messages, still running is woken and
        ends with it (it would wait for no one).
        """
        self._gate.closed = True
        if self._stores is not None:
            workflow = self._stores.workflow
            assert isinstance(workflow, MemoryWorkflowStore)
            await workflow._wake_closed()
