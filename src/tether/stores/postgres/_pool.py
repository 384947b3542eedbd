"""Pool hygiene: find connections the server closed while they sat idle in the pool.

A server restart (or ``pg_terminate_backend``) ends every pooled connection, and the
pool learns it only when one is used: each would fail its next transaction. The check
runs at checkout and costs one ``poll`` with no round trip.
"""

from __future__ import annotations

import select
from typing import Any

import psycopg

__all__ = ["check_idle", "check_idle_async"]


def _dead(conn: psycopg.Connection[Any] | psycopg.AsyncConnection[Any]) -> bool:
    """Whether the server is ending this idle connection (its socket is readable).

    An idle connection receives nothing unless the server is ending it: its last
    message is the FATAL notice, then EOF.
    """
    fd = conn.pgconn.socket
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        return bool(poller.poll(0))
    return bool(select.select([fd], [], [], 0)[0])  # pragma: no cover - no poll()


def check_idle(conn: psycopg.Connection[Any]) -> None:
    """Raise for a pooled connection that is closed or that the server is closing.

    A dead one is closed, and the check raises: the pool replaces it and hands out
    another one (an open one would just be handed back).
    """
    if conn.closed:
        raise psycopg.OperationalError("the pooled connection is closed")
    if _dead(conn):
        conn.close()
        raise psycopg.OperationalError("the server closed this idle connection")


async def check_idle_async(conn: psycopg.AsyncConnection[Any]) -> None:
    """`check_idle` for the async pool of step commits."""
    if conn.closed:
        raise psycopg.OperationalError("the pooled connection is closed")
    if _dead(conn):
        await conn.close()
        raise psycopg.OperationalError("the server closed this idle connection")
