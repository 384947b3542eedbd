"""SQLite backend: one file, WAL, durable commits; safe for several processes."""

from __future__ import annotations

from ._backend import SqliteBackend
from ._keyring import SqliteKeyring, keyring_path_for
from ._workflow import SqliteWorkflowStore

__all__ = ["SqliteBackend", "SqliteKeyring", "SqliteWorkflowStore", "keyring_path_for"]
