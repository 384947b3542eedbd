"""Fixtures: a store per test (SQLite and Postgres) and a server on it (`_served`)."""

from __future__ import annotations

import secrets
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from _served import Served, drop_namespace, start_served


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def db(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[tuple[str, str | None]]:
    """A store URL (and Postgres namespace) for one test."""
    if request.param == "postgres":
        url = request.getfixturevalue("tether_postgres_url")
        namespace = f"t_{secrets.token_hex(6)}"
        try:
            yield url, namespace
        finally:
            drop_namespace(url, namespace)
        return
    yield f"sqlite:///{tmp_path}/tether.db", None


@pytest.fixture
async def served(db: tuple[str, str | None]) -> AsyncIterator[Served]:
    async for s in start_served(*db):
        yield s
