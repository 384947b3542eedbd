"""Fixtures for the Postgres tests: a fresh namespace (schema) per test, dropped after.

The server comes from the tether plugin's ``tether_postgres_url`` fixture: skipped
when unreachable, failed when ``CI`` is set.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tether.stores.postgres import PostgresBackend


@pytest.fixture
async def pg_backend(pg_url: str, pg_namespace: str) -> AsyncIterator[PostgresBackend]:
    backend = PostgresBackend(pg_url, namespace=pg_namespace, pool_size=4)
    await backend.migrate()
    await backend.connect()
    try:
        yield backend
    finally:
        await backend.close()


@pytest.fixture
async def other(pg_url: str, pg_namespace: str) -> AsyncIterator[PostgresBackend]:
    """A second process's view of the same namespace (its own pools and copies)."""
    backend = PostgresBackend(pg_url, namespace=pg_namespace, pool_size=2)
    await backend.connect()
    try:
        yield backend
    finally:
        await backend.close()
