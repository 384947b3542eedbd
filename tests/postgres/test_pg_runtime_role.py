"""A worker runs under the least-privilege runtime role (no DDL, no stamp writes)."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict

import tether
from tether.errors import MigrationPrivilegeError
from tether.stores import init_key_file, open_backend
from tether.stores.postgres import grant_runtime_role, runtime_role_sql
from tether.stores.postgres._schema import MIGRATIONS

pytestmark = pytest.mark.postgres

registry = tether.Registry(deployment="rt")


def _echo(x: str) -> str:
    return f"echo {x}"


@registry.workflow()
async def echo(ctx: tether.WorkflowContext, x: str) -> str:
    return str(await ctx.step(_echo, x))


async def test_a_worker_runs_under_the_runtime_role(pg_url: str, tmp_path: Path) -> None:
    role = f"tether_rt_{secrets.token_hex(4)}"
    namespace = f"t_{secrets.token_hex(6)}"
    key = init_key_file(tmp_path / "key")
    params = conninfo_to_dict(pg_url)
    as_role = f"postgresql://{role}@{params.get('host', '127.0.0.1')}:{params.get('port', 5432)}/"
    as_role += str(params.get("dbname", "test"))
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(role)))
    try:
        # The owner migrates (tables, commit function, keyring) and grants.
        async with open_backend(pg_url, namespace=namespace, keys=key) as owner:
            await grant_runtime_role(owner, role)
        assert "CREATE" not in runtime_role_sql(namespace, role)
        # The worker connects as the runtime role, without migrating.
        async with open_backend(
            as_role, namespace=namespace, keys=key, migrate=False, pool_size=2
        ) as backend:
            async with tether.Worker(backend, registry, poll_interval=0.02):
                client = tether.Client(backend, registry=registry)
                handle = await client.start(echo, "hi", run_id="rt-1")
                assert await handle.result(timeout=30) == "echo hi"
        # What the role may not do.
        with psycopg.connect(as_role, autocommit=True) as conn:
            for statement in (
                sql.SQL("CREATE TABLE {}.x (a int)").format(sql.Identifier(namespace)),
                sql.SQL("UPDATE {}.tether_meta SET value = 'x'").format(sql.Identifier(namespace)),
                sql.SQL("DROP TABLE {}.tether_runs").format(sql.Identifier(namespace)),
                sql.SQL("ALTER TABLE {}.data_keys ADD COLUMN y int").format(
                    sql.Identifier(f"{namespace}_keyring")
                ),
            ):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(statement)
        with pytest.raises(tether.ConfigurationError):
            # Migrating needs the owner.
            await asyncio.wait_for(
                open_backend(as_role, namespace=f"{namespace}_new", keys=key).__aenter__(), 30
            )
    finally:
        _drop(pg_url, namespace, role)


def _drop(pg_url: str, namespace: str, role: str) -> None:
    """Drop a test's schemas (its namespace, keyring and new one) and its role."""
    with psycopg.connect(pg_url, autocommit=True) as conn:
        for schema in (namespace, f"{namespace}_keyring", f"{namespace}_new"):
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
        conn.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(role)))
        conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))


def _role_url(pg_url: str, role: str) -> str:
    params = conninfo_to_dict(pg_url)
    host, port = params.get("host", "127.0.0.1"), params.get("port", 5432)
    return f"postgresql://{role}@{host}:{port}/{params.get('dbname', 'test')}"


@pytest.mark.parametrize("encrypted", [False, True], ids=["plain", "encrypted"])
async def test_the_runtime_role_opening_with_migrate_needs_only_a_current_schema(
    pg_url: str, tmp_path: Path, encrypted: bool
) -> None:
    role = f"tether_rt_{secrets.token_hex(4)}"
    namespace = f"t_{secrets.token_hex(6)}"
    key = init_key_file(tmp_path / "key") if encrypted else None
    as_role = _role_url(pg_url, role)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(role)))
    try:
        async with open_backend(pg_url, namespace=namespace, keys=key) as owner:
            await grant_runtime_role(owner, role)
        # The schema is current: migrate=True (the default) has nothing to do, so it
        # needs no privilege beyond the runtime role's.
        async with open_backend(as_role, namespace=namespace, keys=key, pool_size=2) as backend:
            async with tether.Worker(backend, registry, poll_interval=0.02):
                client = tether.Client(backend, registry=registry)
                handle = await client.start(echo, "hi", run_id="rt-current")
                assert await handle.result(timeout=30) == "echo hi"
        # An unmigrated namespace and an outdated one: a typed refusal naming the fix.
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute(
                sql.SQL(
                    "UPDATE {}.tether_meta SET value = '1' WHERE key = 'schema_version'"
                ).format(sql.Identifier(namespace))
            )
        for target in (namespace, f"{namespace}_new"):
            with pytest.raises(MigrationPrivilegeError) as refused:
                async with open_backend(as_role, namespace=target, keys=key, pool_size=2):
                    pass
            assert isinstance(refused.value, tether.ConfigurationError)
            assert refused.value.user == role
            assert target in refused.value.where
            assert "Run `tether migrate` as the schema owner" in str(refused.value)
        if encrypted:
            # The data namespace current and its keyring missing: the keyring's refusal.
            with psycopg.connect(pg_url, autocommit=True) as conn:
                conn.execute(
                    sql.SQL(
                        "UPDATE {}.tether_meta SET value = %s WHERE key = 'schema_version'"
                    ).format(sql.Identifier(namespace)),
                    (str(MIGRATIONS[-1].version),),
                )
                conn.execute(
                    sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(f"{namespace}_keyring"))
                )
            with pytest.raises(MigrationPrivilegeError, match="keyring") as refused:
                async with open_backend(as_role, namespace=namespace, keys=key, pool_size=2):
                    pass
            assert "Run `tether migrate` as the schema owner" in str(refused.value)
    finally:
        _drop(pg_url, namespace, role)
