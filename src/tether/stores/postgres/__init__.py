"""Postgres backend: many workers on many hosts against one database.

Needs the postgres extra: ``pip install 'tether[postgres]'``.
"""

from __future__ import annotations

from ._backend import (
    COMMIT_POOL_SIZE,
    DEFAULT_NAMESPACE,
    DEFAULT_POOL_SIZE,
    DEFAULT_URL,
    READ_POOL_SIZE,
    PostgresBackend,
    PostgresFormatStamps,
)
from ._keyring import PostgresKeyring, keyring_schema_for
from ._roles import grant_runtime_role, runtime_role_sql
from ._workflow import PostgresWorkflowStore

__all__ = [
    "COMMIT_POOL_SIZE",
    "DEFAULT_NAMESPACE",
    "DEFAULT_POOL_SIZE",
    "DEFAULT_URL",
    "READ_POOL_SIZE",
    "PostgresBackend",
    "PostgresFormatStamps",
    "PostgresKeyring",
    "PostgresWorkflowStore",
    "grant_runtime_role",
    "keyring_schema_for",
    "runtime_role_sql",
]
