"""The keyring of a SQLite store: its own file beside the data file.

Kept apart on purpose: a copy of the data file taken before an erasure holds nothing
that opens the erased content once the erasure has destroyed its keys here. Deleted
rows are overwritten (``secure_delete``) and the WAL is truncated after an erasure,
so the destroyed keys do not linger in free pages of this file either.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .._keyring_sql import SqlDialect, SqlKeyring

__all__ = ["SqliteKeyring", "keyring_path_for"]

_DIALECT = SqlDialect(
    prefix="tether_",
    placeholder="?",
    begin="BEGIN IMMEDIATE",
    blob="BLOB",
    real="REAL",
    after_erase=("PRAGMA wal_checkpoint(TRUNCATE)",),
)


def keyring_path_for(data_path: str | Path) -> Path:
    """Where the keyring of a SQLite data file lives by default: ``<file>.keyring``."""
    path = Path(data_path)
    return path.with_name(path.name + ".keyring")


class SqliteKeyring(SqlKeyring):
    """A `Keyring` in a SQLite file (WAL, ``synchronous=FULL``, ``secure_delete``).

    Args:
        path: The keyring file (created with its directory when missing).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

        def connect() -> sqlite3.Connection:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA busy_timeout = 30000")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA secure_delete = ON")
            return conn

        super().__init__(connect, _DIALECT, description=f"keyring file {str(self.path)!r}")
