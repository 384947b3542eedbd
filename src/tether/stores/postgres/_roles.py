"""The least-privilege runtime role: what workers and servers need, and nothing more.

``tether migrate`` runs as the schema owner (it creates and alters tables and the
commit function). Workers and servers can run as a role that may only read and write
rows: no DDL, no ownership, no changing the format stamp or the schema version.
"""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
from psycopg import sql

from ...errors import ConfigurationError
from ._keyring import keyring_schema_for

__all__ = ["grant_runtime_role", "runtime_role_sql"]

#: Tables the runtime reads but never writes.
_READ_ONLY = ("tether_meta",)


def runtime_role_sql(namespace: str, role: str, *, keyring_schema: str | None = None) -> str:
    """The SQL that grants `role` the runtime's privileges on a namespace and its keyring.

    The schema owner runs it after ``tether migrate`` (``--runtime-role`` does).
    The role itself is created by the administrator, e.g.
    ``CREATE ROLE tether_worker LOGIN PASSWORD '...'``.
    """
    ns = sql.Identifier(namespace).as_string(None)
    kr = sql.Identifier(keyring_schema or keyring_schema_for(namespace)).as_string(None)
    r = sql.Identifier(role).as_string(None)
    read_only = ", ".join(f"{ns}.{t}" for t in _READ_ONLY)
    return "\n".join(
        [
            f"GRANT USAGE ON SCHEMA {ns} TO {r};",
            f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {ns} TO {r};",
            f"REVOKE INSERT, UPDATE, DELETE ON {read_only} FROM {r};",
            f"GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA {ns} TO {r};",
            f"GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA {ns} TO {r};",
            f"DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = "
            f"{sql.Literal(keyring_schema or keyring_schema_for(namespace)).as_string(None)}) "
            f"THEN EXECUTE 'GRANT USAGE ON SCHEMA {kr} TO {r}; "
            f"GRANT SELECT ON {kr}.keyring_meta TO {r}; "
            f"GRANT SELECT, INSERT, UPDATE, DELETE ON {kr}.data_keys, {kr}.erasures TO {r}'; "
            "END IF; END $$;",
        ]
    )


async def grant_runtime_role(backend: Any, role: str) -> None:
    """Apply `runtime_role_sql` to an open Postgres backend's namespace (as its owner).

    Raises:
        ConfigurationError: The backend is not on Postgres, or the grant fails.
    """
    inner = getattr(backend, "inner", backend)
    namespace = getattr(inner, "namespace", None)
    if namespace is None:
        raise ConfigurationError("--runtime-role applies to Postgres stores only")
    statements = runtime_role_sql(namespace, role)

    def run() -> None:
        with inner.open_connection() as conn, conn.transaction():
            conn.execute(statements.encode())

    try:
        await asyncio.to_thread(run)
    except psycopg.Error as exc:
        raise ConfigurationError(f"granting role {role!r} failed: {exc}") from exc
