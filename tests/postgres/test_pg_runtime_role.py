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
from tether.stores import init_key_file, open_backend
from tether.stores.postgres import grant_runtime_role, runtime_role_sql

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
        with psycopg.connect(pg_url, autocommit=True) as conn:
            for schema in (namespace, f"{namespace}_keyring", f"{namespace}_new"):
                conn.execute(
                    sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema))
                )
            conn.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(role)))
            conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))
