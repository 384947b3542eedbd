"""The keyring of a Postgres store: tables in a schema of their own.

By default the schema is ``<namespace>_keyring`` beside the data namespace, so a dump
of the data namespace (``pg_dump -n <namespace>``) does not carry the keys; put it in
another database with ``keyring="postgresql://..."`` to keep the two further apart.
"""

from __future__ import annotations

import re
from typing import Any

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict

from ...errors import ConfigurationError, MigrationPrivilegeError
from .._keyring_sql import SqlDialect, SqlKeyring

__all__ = ["PostgresKeyring", "keyring_schema_for"]


def keyring_schema_for(namespace: str) -> str:
    """The default keyring schema of a data namespace."""
    return f"{namespace}_keyring"


class PostgresKeyring(SqlKeyring):
    """A `Keyring` in one schema of a Postgres database.

    Args:
        url: A libpq URL (TLS options such as ``sslmode=verify-full`` pass through).
        schema: The schema holding the keyring tables.
    """

    def __init__(self, url: str, *, schema: str) -> None:
        if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", schema):
            raise ConfigurationError(
                f"keyring schema {schema!r} is not a valid schema name: use lower-case "
                "letters, digits and underscores, at most 63 characters"
            )
        self.schema = schema
        quoted = sql.Identifier(self.schema).as_string(None)

        def connect() -> Any:
            try:
                return psycopg.connect(url, autocommit=True, connect_timeout=5)
            except psycopg.OperationalError as exc:
                raise ConfigurationError(f"cannot open the Postgres keyring: {exc}") from exc

        dialect = SqlDialect(
            prefix=f"{quoted}.",
            placeholder="%s",
            begin="BEGIN",
            blob="BYTEA",
            real="DOUBLE PRECISION",
            create_prelude=(f"CREATE SCHEMA IF NOT EXISTS {quoted}",),
            lock_for_insert="LOCK TABLE {p}data_keys IN ROW EXCLUSIVE MODE",
            lock_for_epoch="LOCK TABLE {p}data_keys IN SHARE MODE",
            # Read from the catalog: it needs no privilege on the keyring schema.
            complete=(
                "SELECT count(*) = 4 FROM pg_catalog.pg_class c "
                "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
                f"WHERE n.nspname = {sql.Literal(self.schema).as_string(None)} AND c.relname "
                "IN ('keyring_meta', 'data_keys', 'erasures', 'data_keys_by_key_id')"
            ),
        )
        super().__init__(connect, dialect, description=f"Postgres keyring schema {schema!r}")
        self._user = str(conninfo_to_dict(url).get("user") or "(default user)")

    async def open(self, *, create: bool) -> str:
        """Read the keyring id, first creating the tables when `create` and missing.

        Raises:
            MigrationPrivilegeError: The tables are missing and the user may not create
                them (the runtime role, say).
        """
        try:
            return await super().open(create=create)
        except psycopg.errors.InsufficientPrivilege as exc:
            where = f"Postgres keyring schema {self.schema!r}"
            raise MigrationPrivilegeError(
                f"user {self._user!r} may not create the {where}: {exc}. Run `tether "
                "migrate` as the schema owner; workers and servers run with migrate=False "
                "(`tether migrate URL --runtime-role ROLE` grants a role what they need)",
                user=self._user,
                where=where,
            ) from exc
