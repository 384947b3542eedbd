"""Credentials on Postgres: one row per owner and name.

A write locks the row it replaces (``SELECT ... FOR UPDATE``), so the version it
checks is the one it overwrites. Two first writes racing both insert; the second
waits on the primary key, fails when the first commits, and the runner runs it
again: it then finds the row and its version check refuses it.
"""

from __future__ import annotations

import time

from .._credentials import Credential, check_credential_version
from ._submissions import Conn, TxRunner

__all__ = ["PostgresCredentialStore"]


def _load(conn: Conn, owner: str, name: str, *, lock: bool = False) -> Credential | None:
    row = conn.execute(
        "SELECT data, version, expires_at, updated_at FROM tether_credentials "
        "WHERE owner = %s AND name = %s" + (" FOR UPDATE" if lock else ""),
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
    conn: Conn, owner: str, name: str, data: bytes, expected: int | None, expires_at: float | None
) -> Credential:
    found = _load(conn, owner, name, lock=True)
    version = check_credential_version(owner, name, found, expected)
    stored = Credential(
        owner=owner,
        name=name,
        data=data,
        version=version,
        expires_at=expires_at,
        updated_at=time.time(),
    )
    if found is None:
        conn.execute(
            "INSERT INTO tether_credentials (owner, name, data, version, expires_at, "
            "updated_at) VALUES (%s, %s, %s, %s, %s, %s)",
            (owner, name, data, version, expires_at, stored.updated_at),
        )
    else:
        conn.execute(
            "UPDATE tether_credentials SET data = %s, version = %s, expires_at = %s, "
            "updated_at = %s WHERE owner = %s AND name = %s",
            (data, version, expires_at, stored.updated_at, owner, name),
        )
    return stored


def _take(conn: Conn, owner: str, name: str, expected: int | None) -> Credential | None:
    found = _load(conn, owner, name, lock=True)
    if found is None:
        return None
    check_credential_version(owner, name, found, expected)
    conn.execute("DELETE FROM tether_credentials WHERE owner = %s AND name = %s", (owner, name))
    return found


def _purge(conn: Conn, owner: str) -> int:
    return conn.execute("DELETE FROM tether_credentials WHERE owner = %s", (owner,)).rowcount


def _purge_expired(conn: Conn, owner: str, before: float) -> int:
    return conn.execute(
        "DELETE FROM tether_credentials WHERE owner = %s AND expires_at < %s", (owner, before)
    ).rowcount


class PostgresCredentialStore:
    """A `CredentialStore` in a Postgres namespace, shared by any number of processes.

    Args:
        run: The transaction runner of the backend (the workflow store's).
    """

    def __init__(self, run: TxRunner) -> None:
        self._run_tx = run

    async def get_credential(self, owner: str, name: str) -> Credential | None:
        return await self._run_tx(lambda conn: _load(conn, owner, name))

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
        return await self._run_tx(
            lambda conn: _put(conn, owner, name, stored, expected_version, expires_at)
        )

    async def take_credential(
        self, owner: str, name: str, *, expected_version: int | None = None
    ) -> Credential | None:
        return await self._run_tx(lambda conn: _take(conn, owner, name, expected_version))

    async def purge_credentials(self, owner: str) -> int:
        return await self._run_tx(lambda conn: _purge(conn, owner))

    async def purge_expired_credentials(self, owner: str, before: float) -> int:
        return await self._run_tx(lambda conn: _purge_expired(conn, owner, before))
