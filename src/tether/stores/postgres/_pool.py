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


def check_idle(conn: psycopg.Connection[Any] | psycopg.AsyncConnection[Any]) -> None:
    """Raise for a pooled connection that is closed or that the server is closing.

    An idle connection receives nothing unless the server is ending it (its last
    message is the FATAL notice, then EOF): a readable socket means it is dead. It is
    closed, and the check raises: the pool replaces it and hands out another one.
    """
    if conn.closed:
        raise psycopg.OperationalError("the pooled connection is closed")
    fd = conn.pgconn.socket
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        readable = bool(poller.poll(0))
    else:  # pragma: no cover - platforms without poll()
        readable = bool(select.select([fd], [], [], 0)[0])
    if readable:
        # Closed, so the pool replaces it (an open one would just be handed back).
        conn.close()
        raise psycopg.OperationalError("the server closed this idle connection")


async def check_idle_async(conn: psycopg.AsyncConnection[Any]) -> None:
    """`check_idle` for the async pool (it takes a coroutine; the check needs no I/O)."""
    check_idle(conn)
