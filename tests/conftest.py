from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

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
            import psycopg
            from psycopg import sql

            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(
                    sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(namespace))
                )
        return
    url = "memory://" if request.param == "memory" else f"sqlite:///{tmp_path}/tether.db"
    async with tether.open_backend(url) as opened:
        yield opened
