"""Credentials on SQLite: one row per owner and name.

Each write is one `BEGIN IMMEDIATE` transaction that reads the row's version and
writes the next, so the version check holds across processes on one file.
"""

from __future__ import annotations

import sqlite3
import time

from .._credentials import Credential, check_credential_version
from ._db import SqliteDatabase

__all__ = ["SqliteCredentialStore"]


def _load(conn: sqlite3.Connection, owner: str, name: str) -> Credential | None:
    row = conn.execute(
        "SELECT data, version, expires_at, updated_at FROM tether_credentials "
        "WHERE owner = ? AND name = ?",
        (owner, name),
    ).fetchone()
    if row is None:
        return None
    return Credential(
        owner=owner,
        name=name,
        data=bytes(row[0]),
        version=int(row[1]),
        expires_at=row[2],
        updated_at=float(row[3]),
    )


def _put(
    conn: sqlite3.Connection,
    owner: str,
    name: str,
    data: bytes,
    expected: int | None,
    expires_at: float | None,
) -> Credential:
    version = check_credential_version(owner, name, _load(conn, owner, name), expected)
    stored = Credential(
        owner=owner,
        name=name,
        data=data,
        version=version,
        expires_at=expires_at,
        updated_at=time.time(),
    )
    conn.execute(
        "INSERT INTO tether_credentials (owner, name, data, version, expires_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (owner, name) DO UPDATE SET "
        "data = excluded.data, version = excluded.version, "
        "expires_at = excluded.expires_at, updated_at = excluded.updated_at",
        (owner, name, data, version, expires_at, stored.updated_at),
    )
    return stored


def _take(
    conn: sqlite3.Connection, owner: str, name: str, expected: int | None
) -> Credential | None:
    found = _load(conn, owner, name)
    if found is None:
        return None
    check_credential_version(owner, name, found, expected)
    conn.execute("DELETE FROM tether_credentials WHERE owner = ? AND name = ?", (owner, name))
    return found


def _purge(conn: sqlite3.Connection, owner: str) -> int:
    return conn.execute("DELETE FROM tether_credentials WHERE owner = ?", (owner,)).rowcount


def _purge_expired(conn: sqlite3.Connection, owner: str, before: float) -> int:
    return conn.execute(
        "DELETE FROM tether_credentials WHERE owner = ? AND expires_at < ?", (owner, before)
    ).rowcount


class SqliteCredentialStore:
    """A `CredentialStore` in a SQLite file, safe for many processes on one file.

    Args:
        db: A started `SqliteDatabase` whose schema is migrated.
    """

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    async def get_credential(self, owner: str, name: str) -> Credential | None:
        return await self._db.read(lambda conn: _load(conn, owner, name))

    async def put_credential(
        self,
        owner: str,
        name: str,
        data: bytes,
        *,
        expected_version: int | None = None,
        expires_at: float | None = None,
    ) -> Credential:
        stored = bytes(data)
        return await self._db.write(
            lambda conn: _put(conn, owner, name, stored, expected_version, expires_at)
        )

    async def take_credential(
        self, owner: str, name: str, *, expected_version: int | None = None
    ) -> Credential | None:
        return await self._db.write(lambda conn: _take(conn, owner, name, expected_version))

    async def purge_credentials(self, owner: str) -> int:
        return await self._db.write(lambda conn: _purge(conn, owner))

    async def purge_expired_credentials(self, owner: str, before: float) -> int:
        return await self._db.write(lambda conn: _purge_expired(conn, owner, before))
