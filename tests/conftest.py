from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

import tether
from tether.stores import Backend


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    """Every engine and workflow-store test runs on each backend tether ships."""
    if request.param == "postgres":
        url = request.getfixturevalue("tether_postgres_url")
        namespace = f"t_{secrets.token_hex(6)}"
        try:
            async with tether.open_backend(url, namespace=namespace, pool_size=4) as opened:
                yield opened
        finally:
            drop_namespace(url, namespace)
        return
    url = "memory://" if request.param == "memory" else f"sqlite:///{tmp_path}/tether.db"
    async with tether.open_backend(url) as opened:
        yield opened


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
