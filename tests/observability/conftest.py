"""Fixtures: the SDK's in-memory exporters as the global providers (`_telemetry`)."""

from __future__ import annotations

import secrets
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import psycopg
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from _telemetry import Telemetry, in_memory_telemetry


@pytest.fixture
def telemetry() -> Iterator[Telemetry]:
    with in_memory_telemetry() as found:
        yield found


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def db(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[tuple[str, str | None]]:
    """A store URL (and Postgres namespace) for one test, shared with other processes."""
    if request.param == "postgres":
        url = request.getfixturevalue("tether_postgres_url")
        namespace = f"t_{secrets.token_hex(6)}"
        try:
            yield url, namespace
        finally:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA IF EXISTS "{namespace}" CASCADE')
        return
    yield f"sqlite:///{tmp_path}/tether.db", None
