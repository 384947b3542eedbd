"""Raw access to a SQLite store's rows, to stage the damage a crash or a disk leaves.

The contract suites use it (`tether.testing.contract.StoredRowAccess`).
"""

from __future__ import annotations

from .._stored_rows_sql import (
    UNPARSEABLE_PAYLOAD,
    damage_submission_statement,
    tear_checkpoint_statement,
)
from ._db import SqliteDatabase

__all__ = ["SqliteStoredRows"]


class SqliteStoredRows:
    """Damages rows of a started database, each in a transaction of its own."""

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    async def damage_submission(self, submission_id: str) -> None:
        """Store a payload that does not parse in the submission `submission_id`."""
        statement = damage_submission_statement("?")
        await self._db.write(
            lambda conn: conn.execute(statement, (UNPARSEABLE_PAYLOAD, submission_id))
        )

    async def tear_fold_checkpoint(self, path: str) -> None:
        """Cut the last piece of the checkpoint of `path` to its first half."""
        statement = tear_checkpoint_statement("?")
        await self._db.write(lambda conn: conn.execute(statement, (path, path)))
