"""Store connections prepare frequent statements, and a failed pipeline leaves none behind.

psycopg records a statement as prepared when it queues the statement's Parse in a
pipeline; if an earlier statement of that pipeline fails, the server skips the Parse
and every later use failed with "prepared statement _pg3_0 does not exist" (seen in
CI before store connections stopped preparing at all).
"""

from __future__ import annotations

import logging
import time
from typing import Any

import psycopg
import pytest

from tether.stores.postgres import PostgresBackend
from tether.stores.postgres._pool import AsyncStoreConnection, StoreConnection

_QUERY = "SELECT %s::int + 1"


def test_a_failed_pipeline_leaves_no_phantom_prepared_statement(pg_url: str) -> None:
    with StoreConnection.connect(pg_url, autocommit=True) as conn:
        assert conn.prepare_threshold is not None  # statements are prepared
        for i in range(conn.prepare_threshold):
            conn.execute(_QUERY, (i,))
        with pytest.raises(psycopg.errors.DivisionByZero):
            with conn.pipeline():
                conn.execute("SELECT 1/0")
                conn.execute(_QUERY, (1,))  # its Parse is skipped by the server
        assert conn.execute(_QUERY, (41,)).fetchone() == (42,)
        # And it is prepared again from then on, as before the failure.
        for i in range(conn.prepare_threshold + 1):
            assert conn.execute(_QUERY, (i,)).fetchone() == (i + 1,)


async def test_a_failed_async_pipeline_leaves_no_phantom_prepared_statement(pg_url: str) -> None:
    async with await AsyncStoreConnection.connect(pg_url, autocommit=True) as conn:
        assert conn.prepare_threshold is not None
        for i in range(conn.prepare_threshold):
            await conn.execute(_QUERY, (i,))
        with pytest.raises(psycopg.errors.DivisionByZero):
            async with conn.pipeline():
                await conn.execute("SELECT 1/0")
                await conn.execute(_QUERY, (1,))
        assert await (await conn.execute(_QUERY, (41,))).fetchone() == (42,)


def test_a_plain_psycopg_connection_shows_the_fault(pg_url: str) -> None:
    # The reproduction the repair answers: if psycopg ever fixes this, the repair can go.
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert conn.prepare_threshold is not None
        for i in range(conn.prepare_threshold):
            conn.execute(_QUERY, (i,))
        with pytest.raises(psycopg.errors.DivisionByZero), conn.pipeline():
            conn.execute("SELECT 1/0")
            conn.execute(_QUERY, (1,))
        with pytest.raises(psycopg.errors.InvalidSqlStatementName):
            conn.execute(_QUERY, (41,))


async def test_the_store_pools_use_the_repairing_connections(pg_backend: PostgresBackend) -> None:
    with pg_backend._pool.connection() as conn:  # type: ignore[union-attr]
        assert isinstance(conn, StoreConnection)
        assert conn.prepare_threshold is not None
    async with pg_backend._commits.connection() as conn:  # type: ignore[union-attr]
        assert isinstance(conn, AsyncStoreConnection)


def _fail_inside(conn: psycopg.Connection[Any]) -> None:
    # The error's result arrives while the block still sends: psycopg raises it from a
    # later execute, inside the block, as it does under a guarded commit's pipeline.
    with conn.pipeline():
        conn.execute("SELECT 1/0")
        time.sleep(0.05)
        for i in range(3):
            conn.execute(_QUERY, (i,))


def test_a_failed_pipeline_raises_its_own_error_without_a_psycopg_warning(
    pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    # A guarded commit refusing a stale copy fails its pipeline in ordinary operation:
    # psycopg, ending a pipeline under the block's exception, logged "error ignored
    # terminating ... pipeline aborted" as a warning each time.
    with caplog.at_level(logging.WARNING, logger="psycopg"):
        with StoreConnection.connect(pg_url, autocommit=True) as conn:
            with pytest.raises(psycopg.errors.DivisionByZero):
                _fail_inside(conn)
            assert conn.execute(_QUERY, (1,)).fetchone() == (2,)
        assert not [r for r in caplog.records if r.name.startswith("psycopg")]
        with psycopg.connect(pg_url, autocommit=True) as plain:
            with pytest.raises(psycopg.errors.DivisionByZero):
                _fail_inside(plain)
        assert any("error ignored terminating" in r.getMessage() for r in caplog.records)
