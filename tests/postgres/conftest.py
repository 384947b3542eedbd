"""Fixtures for the Postgres tests: a fresh namespace (schema) per test, dropped after.

The server comes from the tether plugin's ``tether_postgres_url`` fixture: skipped
when unreachable, failed when ``CI`` is set.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Iterator

import psycopg
import pytest
from psycopg import sql

from tether.stores.postgres import PostgresBackend


def drop_namespace(url: str, namespace: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(namespace)))


@pytest.fixture
def pg_url(tether_postgres_url: str) -> str:
    return tether_postgres_url


@pytest.fixture
def pg_namespace(pg_url: str) -> Iterator[str]:
    namespace = f"t_{secrets.token_hex(6)}"
    yield namespace
    drop_namespace(pg_url, namespace)


@pytest.fixture
async def pg_backend(pg_url: str, pg_namespace: str) -> AsyncIterator[PostgresBackend]:
    backend = PostgresBackend(pg_url, namespace=pg_namespace, pool_size=4)
    await backend.migrate()
    await backend.connect()
    try:
        yield backend
    finally:
        await backend.close()
