"""Raw access to a SQLite store's format stamp (capability FORMAT_STAMP).

The contract suites use it to stage legacy, foreign and unstamped stores before
`migrate()`, and to open a fresh, unmigrated one.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from .._protocols import Backend
from . import _schema
from ._db import SqliteDatabase

__all__ = ["SqliteFormatStamps"]


class SqliteFormatStamps:
    """Reads and writes the `tether_meta` stamp through a started database."""

    def __init__(self, db: SqliteDatabase, *, new: Callable[[Path], Backend]) -> None:
        self._db = db
        self._new = new

    async def read_stamp(self) -> str | None:
        return await self._db.read(_schema.read_stamp)

    async def write_stamp(self, value: str) -> None:
        await self._db.write(lambda conn: _schema.write_stamp(conn, value))

    async def delete_stamp(self) -> None:
        await self._db.write(_schema.delete_stamp)

    @contextlib.asynccontextmanager
    async def fresh(self) -> AsyncIterator[Backend]:
        """A backend on a new file beside this one (not created yet), removed after."""
        path = self._db.path.with_name(f"fresh-{secrets.token_hex(4)}.db")
        fresh = self._new(path)
        try:
            yield fresh
        finally:
            await fresh.close()
            for suffix in ("", "-wal", "-shm", "-journal"):
                path.with_name(path.name + suffix).unlink(missing_ok=True)
