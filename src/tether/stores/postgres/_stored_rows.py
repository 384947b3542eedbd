"""Raw access to a Postgres namespace's rows, to stage the damage a crash or a disk leaves.

The contract suites use it (`tether.testing.contract.StoredRowAccess`).
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

import psycopg
from psycopg import sql

from .._stored_rows_sql import (
    UNPARSEABLE_PAYLOAD,
    damage_submission_statement,
    tear_checkpoint_statement,
)

__all__ = ["PostgresStoredRows"]


class _Opens(Protocol):
    namespace: str

    def open_connection(self) -> psycopg.Connection[Any]: ...


class PostgresStoredRows:
    """Damages rows of a backend's namespace, each on a connection of its own."""

    def __init__(self, backend: _Opens) -> None:
        self._backend = backend

    async def _run(self, statement: str, values: tuple[Any, ...]) -> None:
        b = self._backend

        def run() -> None:
            with b.open_connection() as conn:
                conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(b.namespace)))
                conn.execute(statement.encode(), values)  # a literal statement of this package

        await asyncio.to_thread(run)

    async def damage_submission(self, submission_id: str) -> None:
        """Store a payload that does not parse in the submission `submission_id`."""
        await self._run(damage_submission_statement("%s"), (UNPARSEABLE_PAYLOAD, submission_id))

    async def tear_fold_checkpoint(self, path: str) -> None:
        """Cut the last piece of the checkpoint of `path` to its first half."""
        await self._run(tear_checkpoint_statement("%s"), (path, path))
