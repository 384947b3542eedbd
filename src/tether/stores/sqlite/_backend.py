"""`SqliteBackend`: migrate, connect and close one SQLite file."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

from ..._validate import check_duration
from ...errors import ConfigurationError, FormatVersionError
from .._protocols import Capability, Stores
from .._records import DEFAULT_HOOK_RETENTION, hook_retention_seconds
from .._retention_period import retention_seconds
from . import _schema
from ._attachments import SqliteAttachmentStore
from ._budgets import SqliteBudgetStore
from ._conversations import SqliteConversationStore
from ._credentials import SqliteCredentialStore
from ._db import SqliteDatabase, Synchronous
from ._format_stamps import SqliteFormatStamps
from ._stored_rows import SqliteStoredRows
from ._submissions import SqliteSubmissionStore
from ._workflow import SqliteWorkflowStore


class SqliteBackend:
    """Every store in one SQLite file.

    Args:
        path: The database file (created with its directory when missing).
        synchronous: ``"FULL"`` (default) makes every commit durable against power
            loss; ``"NORMAL"`` is faster and may lose the last commits on power loss,
            never on a process crash.
        busy_timeout_ms: How long a write waits for another process's write lock.
        adopt: Let `migrate()` add tether's tables to a database that holds another
            application's tables (URL: ``?adopt=true``). Without it such a file is
            refused, so two applications do not share one file by mistake.
        hook_retention: How long a hook token released by its run's end stays reserved
            for the run's chain (seconds or a timedelta; default 30 days; 0 frees it at
            once).
        retention: The retention period of ended runs (seconds, a timedelta or a
            string such as ``"30d"``): workers' retention sweep deletes the content of
            runs and sessions that ended longer ago (`tether prune` does it at once).
            None (default) keeps them forever.

    Raises:
        ConfigurationError: An option is invalid, or the path is a directory.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        synchronous: Synchronous = "FULL",
        busy_timeout_ms: int = 30_000,
        adopt: bool = False,
        hook_retention: float | timedelta = DEFAULT_HOOK_RETENTION,
        retention: float | timedelta | str | None = None,
    ) -> None:
        check_duration(busy_timeout_ms, what="busy_timeout_ms")
        self.hook_retention = hook_retention_seconds(hook_retention)
        self.retention = retention_seconds(retention)
        self.path = Path(path)
        if self.path.exists() and self.path.is_dir():
            raise ConfigurationError(f"{str(self.path)!r} is a directory, not a SQLite file")
        self._db = SqliteDatabase(
            self.path, synchronous=synchronous, busy_timeout_ms=busy_timeout_ms
        )
        self.adopt = adopt
        self._stores: Stores | None = None

    @property
    def url(self) -> str:
        """``sqlite:///<path>``."""
        return f"sqlite:///{self.path}"

    @property
    def capabilities(self) -> frozenset[Capability]:
        """Durable, multi-process; checkpoints, stamps, continue-as-new, hook retention."""
        return frozenset(
            {
                Capability.DURABLE,
                Capability.CROSS_PROCESS,
                Capability.FOLD_CHECKPOINTS,
                Capability.FORMAT_STAMP,
                Capability.CONTINUE_AS_NEW,
                Capability.HOOK_RETENTION,
            }
        )

    @property
    def stores(self) -> Stores:
        """The stores; `connect()` first."""
        if self._stores is None:
            raise ConfigurationError(f"{self.url} is not connected; call connect()")
        return self._stores

    @property
    def format_stamps(self) -> SqliteFormatStamps:
        """Raw access to the file's format stamp (capability FORMAT_STAMP)."""
        return SqliteFormatStamps(self._db, new=SqliteBackend)

    @property
    def stored_rows(self) -> SqliteStoredRows:
        """Raw access to the file's rows (`tether.testing.contract.StoredRowAccess`)."""
        return SqliteStoredRows(self._db)

    @property
    def database(self) -> SqliteDatabase:
        """The underlying database (for tests and tools)."""
        return self._db

    def _where(self) -> str:
        return f"SQLite file {str(self.path)!r}"

    async def migrate(self) -> None:
        """Check the stamp, then create or upgrade the schema.

        Raises:
            FormatVersionError: The file is not a SQLite database, is stamped with a
                format this tether cannot use, or holds another application's tables
                (and `adopt` is off).
            ConfigurationError: The file or its directory is not writable.
        """

        def run() -> None:
            conn = self._db.open_connection()
            try:
                _schema.migrate(conn, where=self._where(), adopt=self.adopt)
            finally:
                conn.close()

        await asyncio.to_thread(run)

    async def connect(self) -> Stores:
        """Refuse a missing, foreign or unmigrated file, then start the database threads.

        Raises:
            FormatVersionError: The file does not exist (nothing is created) or is not
                a migrated tether store.
            ConfigurationError: The file is not writable.
        """
        if self._stores is not None:
            return self._stores
        if not self.path.exists():
            # Not created here: a reader (`tether runs list`) must not leave an empty
            # store behind, and an unmigrated one would be refused just below anyway.
            raise FormatVersionError(
                f"SQLite file {str(self.path)!r} does not exist; create it with "
                f"`tether migrate {self.url}` or open it with migrate=True"
            )

        def check() -> None:
            conn = self._db.open_connection()
            try:
                _schema.require_migrated(conn, where=self._where())
            finally:
                conn.close()

        await asyncio.to_thread(check)
        self._db.start()
        submissions = SqliteSubmissionStore(self._db)
        conversations = SqliteConversationStore(self._db)
        workflow = SqliteWorkflowStore(self._db, hook_retention=self.hook_retention)
        workflow.attach_conversations(conversations.notify_appended)
        self._stores = Stores(
            workflow=workflow,
            submissions=submissions,
            conversations=conversations,
            attachments=SqliteAttachmentStore(self._db),
            credentials=SqliteCredentialStore(self._db),
            budgets=SqliteBudgetStore(self._db),
        )
        return self._stores

    async def close(self) -> None:
        """Finish queued writes and stop the threads."""
        await self._db.close()
        self._stores = None
