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

from ...errors import ConfigurationError
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
        )
        super().__init__(connect, dialect, description=f"Postgres keyring schema {schema!r}")
