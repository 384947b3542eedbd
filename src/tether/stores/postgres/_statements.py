"""The workflow store's statements beyond `_Txn`'s: a stream's write and read, the queue take.

Each is one statement, so one round trip; the take runs at a given time or on the
transaction's clock.
"""

from __future__ import annotations

from typing import Any

from .._records import Message
from ._txn import Conn
from ._writes import _APPEND_STREAM

# `write_stream`: the append a commit makes (`_writes._APPEND_STREAM`), with its notification.
# Parameters: run id, name, chunk count, the chunks (bytea[]), channel, notification.
_WRITE_STREAM = _APPEND_STREAM.replace(
    "SELECT first FROM s",
    "SELECT first, CASE WHEN %(k)s > 0 THEN pg_notify(%(ch)s, %(key)s) END FROM s",
)

# The same append riding in a one-round-trip commit (`_fast.FastCommit.extra`): a closed
# stream fails it on the server (a division by the zero rows appended, as
# `_writes._APPEND_STREAM_HELD` does), so the whole commit is rolled back. Otherwise it
# returns the first chunk's index and sends the stream's notification with the commit.
_COMMIT_STREAM = _APPEND_STREAM.replace(
    "SELECT first FROM s",
    "SELECT (SELECT first FROM s) + 0 * (1 / (SELECT count(*)::int FROM s)), "
    "pg_notify(%(ch)s, %(key)s)",
)


# Parameters: run id, name, start (negative: from the tail), limit.
_READ_STREAM = """
SELECT s.next_index, s.closed, c.idx, c.data
FROM tether_streams AS s
LEFT JOIN LATERAL (
    SELECT idx, data FROM tether_stream_chunks
    WHERE run_id = s.run_id AND name = s.name AND idx < s.next_index
    AND idx >= CASE WHEN %(s)s < 0 THEN GREATEST(0, s.next_index + %(s)s)
                    ELSE LEAST(%(s)s, s.next_index) END
    ORDER BY idx LIMIT %(limit)s
) AS c ON true
WHERE s.run_id = %(r)s AND s.name = %(n)s
ORDER BY c.idx
"""


# The transaction's clock (its start, so the same in each of its statements): a take
# sent with the BEGIN measures its deliveries and leases on it, as the rules then do.
_TXN_NOW = "extract(epoch FROM transaction_timestamp())::float8"
_TAKE = (
    "WITH picked AS (SELECT message_id FROM tether_queue WHERE queue = %(queue)s AND "
    "available_at <= {now} AND (lease_owner IS NULL OR lease_expires_at <= {now}) "
    "ORDER BY available_at, message_id LIMIT %(limit)s FOR UPDATE SKIP LOCKED) "
    "UPDATE tether_queue q SET lease_owner = %(owner)s, lease_expires_at = {now} + %(lease)s, "
    "deliveries = q.deliveries + 1 FROM picked WHERE q.message_id = picked.message_id "
    "RETURNING q.message_id, q.payload, q.deliveries, q.available_at"
)


def _take_statement(
    queue: str, owner: str, lease_seconds: float, limit: int, now: float | None = None
) -> tuple[str, dict[str, Any]]:
    """The take of up to `limit` messages; at `now`, or at the transaction's clock."""
    params: dict[str, Any] = {"queue": queue, "owner": owner, "lease": lease_seconds}
    params["limit"] = limit
    if now is None:
        return _TAKE.format(now=_TXN_NOW), params
    params["now"] = now
    return _TAKE.format(now="%(now)s"), params


def _taken(found: list[Any], queue: str, owner: str, until: float) -> list[Message]:
    found.sort(key=lambda r: (r[3], r[0]))
    return [
        Message(
            message_id=r[0],
            queue=queue,
            payload=bytes(r[1]),
            deliveries=r[2],
            lease_owner=owner,
            lease_expires_at=until,
        )
        for r in found
    ]


def _take(
    c: Conn, queue: str, owner: str, lease_seconds: float, limit: int, now: float
) -> list[Message]:
    sql, params = _take_statement(queue, owner, lease_seconds, limit, now)
    return _taken(c.execute(sql, params).fetchall(), queue, owner, now + lease_seconds)
