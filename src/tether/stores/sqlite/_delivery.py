"""The SQLite queue's delivery: which messages are ready, and leasing them."""

from __future__ import annotations

import sqlite3

from .._records import Message

__all__ = ["DELIVERABLE", "take"]

READY = (
    "FROM tether_queue WHERE queue = ? AND available_at <= ? "
    "AND (lease_owner IS NULL OR lease_expires_at <= ?)"
)
#: Whether `take` would find a message.
DELIVERABLE = f"SELECT 1 {READY} LIMIT 1"


def take(
    c: sqlite3.Connection, queue: str, owner: str, lease_seconds: float, limit: int, now: float
) -> list[Message]:
    found = c.execute(
        f"SELECT message_id, payload, deliveries {READY} ORDER BY available_at, message_id LIMIT ?",
        (queue, now, now, limit),
    ).fetchall()
    out = []
    for message_id, payload, deliveries in found:
        c.execute(
            "UPDATE tether_queue SET lease_owner = ?, lease_expires_at = ?, "
            "deliveries = deliveries + 1 WHERE message_id = ?",
            (owner, now + lease_seconds, message_id),
        )
        out.append(
            Message(
                message_id=message_id,
                queue=queue,
                payload=payload,
                deliveries=deliveries + 1,
                lease_owner=owner,
                lease_expires_at=now + lease_seconds,
            )
        )
    return out
