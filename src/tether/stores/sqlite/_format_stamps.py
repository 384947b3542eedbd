"""Raw access to a SQLite store's format stamp (capability FORMAT_STAMP).

The contract suites use it to stage legacy and foreign stamps before `migrate()`.
"""

from __future__ import annotations

from . import _schema
from ._db import SqliteDatabase

__all__ = ["SqliteFormatStamps"]


class SqliteFormatStamps:
    """Reads and writes the `tether_meta` stamp through a started database."""

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    async def read_stamp(self) -> str | None:
        return await self._db.read(_schema.read_stamp)

    async def write_stamp(self, value: str) -> None:
        await self._db.write(lambda conn: _schema.write_stamp(conn, value))
