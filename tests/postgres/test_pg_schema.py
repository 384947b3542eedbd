"""Migrations and the format stamp on Postgres: the same rules as SQLite."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from tether.errors import FormatVersionError
from tether.stores.kit import FORMAT_VERSION
from tether.stores.postgres import PostgresBackend

pytestmark = pytest.mark.postgres


def tables(url: str, namespace: str) -> set[str]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
            (namespace,),
        ).fetchall()
    return {str(r[0]) for r in rows}


async def test_migrate_stamps_and_is_idempotent(pg_url: str, pg_namespace: str) -> None:
    backend = PostgresBackend(pg_url, namespace=pg_namespace)
    await backend.migrate()
    await backend.migrate()
    assert await backend.format_stamps.read_stamp() == str(FORMAT_VERSION)
    assert {"tether_meta", "tether_runs", "tether_queue"} <= tables(pg_url, pg_namespace)


async def test_concurrent_migrators_are_safe(pg_url: str, pg_namespace: str) -> None:
    backends = [PostgresBackend(pg_url, namespace=pg_namespace) for _ in range(4)]
    await asyncio.gather(*(b.migrate() for b in backends))
    assert await backends[0].format_stamps.read_stamp() == str(FORMAT_VERSION)


@pytest.mark.parametrize("stamp", ["99", "someone-else"])
async def test_foreign_stamp_is_refused_before_any_write(
    pg_url: str, pg_namespace: str, stamp: str
) -> None:
    backend = PostgresBackend(pg_url, namespace=pg_namespace)
    await backend.format_stamps.write_stamp(stamp)
    with pytest.raises(FormatVersionError, match=repr(stamp)):
        await backend.migrate()
    with pytest.raises(FormatVersionError, match=repr(stamp)):
        await backend.connect()
    assert tables(pg_url, pg_namespace) == {"tether_meta"}
    assert await backend.format_stamps.read_stamp() == stamp


async def test_legacy_stamp_is_adopted(pg_url: str, pg_namespace: str) -> None:
    backend = PostgresBackend(pg_url, namespace=pg_namespace)
    await backend.format_stamps.write_stamp("tether-preview")
    await backend.migrate()
    assert await backend.format_stamps.read_stamp() == str(FORMAT_VERSION)


async def test_tables_without_stamp_are_refused(pg_url: str, pg_namespace: str) -> None:
    with psycopg.connect(pg_url) as conn:
        conn.execute(f"CREATE SCHEMA {pg_namespace}")
        conn.execute(f"CREATE TABLE {pg_namespace}.tether_runs (x int)")
    with pytest.raises(FormatVersionError, match="no format stamp"):
        await PostgresBackend(pg_url, namespace=pg_namespace).migrate()


async def test_unmigrated_namespace_is_refused(pg_url: str, pg_namespace: str) -> None:
    with pytest.raises(FormatVersionError, match="tether migrate"):
        await PostgresBackend(pg_url, namespace=pg_namespace).connect()
    assert tables(pg_url, pg_namespace) == set()


async def test_namespaces_are_isolated(pg_url: str, pg_namespace: str) -> None:
    other = pg_namespace + "_b"
    try:
        first = PostgresBackend(pg_url, namespace=pg_namespace)
        second = PostgresBackend(pg_url, namespace=other)
        await first.format_stamps.write_stamp("99")
        await second.migrate()
        assert await second.format_stamps.read_stamp() == str(FORMAT_VERSION)
    finally:
        with psycopg.connect(pg_url) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {other} CASCADE")
