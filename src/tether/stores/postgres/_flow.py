"""The Postgres queue's flow-controlled take (`stores._flow`), in the claim's transaction.

Every flow-controlled claim of a namespace takes one transaction-scoped advisory lock
first, so claims on any host count the executing activations, spend the token buckets
and lease messages one after another: the statements after the lock read, under READ
COMMITTED, everything the claims before it committed. The clock the buckets are filled
on is read after the lock, so the stamps claims write never go backwards.
"""

from __future__ import annotations

from typing import Any

import orjson

from .. import _flow as flow
from .. import _logic
from .._records import Claim, Message
from ._txn import _Txn

__all__ = ["flow_take"]

_LOCK = "SELECT pg_advisory_xact_lock(hashtext(%s))"
_CLOCK = "SELECT extract(epoch FROM clock_timestamp())::float8"
# A queue's payload is its run's id (as bytes): the run's row by its key. The time is
# read once per statement (a volatile CTE is evaluated once), after the lock.
_NOW = "WITH n AS (SELECT extract(epoch FROM clock_timestamp())::float8 AS now) "
_CANDIDATES = (
    _NOW + "SELECT q.message_id, q.payload, q.available_at, r.workflow_name, r.labels "
    "FROM n, tether_queue q LEFT JOIN tether_runs r ON r.run_id = convert_from(q.payload, 'UTF8') "
    "WHERE q.queue = %s AND q.available_at <= n.now "
    "AND (q.lease_owner IS NULL OR q.lease_expires_at <= n.now) "
    "{after}ORDER BY q.available_at, q.message_id LIMIT %s"
)
_HEAD = _CANDIDATES.format(after="")
# The probe past the previous claim's last read (`_flow.merged`).
_PROBE = _CANDIDATES.format(after="AND (q.available_at, q.message_id) > (%s, %s) ")
_HELD = (
    _NOW + "SELECT r.run_id, r.workflow_name, r.labels "
    "FROM n, tether_queue q JOIN tether_runs r ON r.run_id = convert_from(q.payload, 'UTF8') "
    "WHERE q.queue = %s AND q.lease_owner IS NOT NULL AND q.lease_expires_at > n.now"
)
_BUCKETS = "SELECT key, tokens, stamp FROM tether_flow_buckets WHERE key = ANY(%s)"
_PUT_BUCKETS = (
    "INSERT INTO tether_flow_buckets (key, tokens, stamp) "
    "SELECT * FROM unnest(%s::text[], %s::float8[], %s::float8[]) "
    "ON CONFLICT (key) DO UPDATE SET tokens = excluded.tokens, stamp = excluded.stamp"
)
# Still ready as the lock holder sees it: a hook's wake-up may have moved a row since.
_LEASE = (
    "UPDATE tether_queue SET lease_owner = %s, lease_expires_at = %s, "
    "deliveries = deliveries + 1 WHERE message_id = ANY(%s) "
    "AND (lease_owner IS NULL OR lease_expires_at <= %s) "
    "RETURNING message_id, payload, deliveries"
)


def _labels(value: Any) -> dict[str, str]:
    if not value:
        return {}
    return dict(value) if isinstance(value, dict) else orjson.loads(value)


def flow_take(
    t: _Txn,
    namespace: str,
    queue: str,
    owner: str,
    lease_seconds: float,
    limit: int,
    policy: flow.FlowPolicy,
    scan_from: tuple[float, str] | None = None,
) -> tuple[list[tuple[Message, Claim]], flow.FlowChoice, tuple[float, str] | None]:
    """Lease and claim what the limits admit of the queue's ready messages (`_flow`)."""
    statements: list[tuple[str, Any]] = [
        (_LOCK, (f"tether_flow:{namespace}",)),
        (_CLOCK, ()),
        (_HELD, (queue,)),
        (_HEAD, (queue, policy.window)),
    ]
    if scan_from is not None:
        statements.append((_PROBE, (queue, *scan_from, policy.window)))
    _, clock, held_rows, *reads = t.read_many(statements)
    row = clock.fetchone()
    assert row is not None
    now = float(row[0])
    windows = [[_candidate(r) for r in cursor.fetchall()] for cursor in reads]
    candidates, scanned_to = flow.merged(
        windows[0], windows[1] if len(windows) > 1 else [], policy.window
    )
    held = [
        flow.HeldRun(run_id=r[0], workflow_name=r[1], labels=_labels(r[2]))
        for r in held_rows.fetchall()
    ]
    keys = flow.rate_keys(policy, candidates)
    buckets: dict[str, flow.Bucket] = {}
    if keys:
        (read,) = t.read_many([(_BUCKETS, (keys,))])
        buckets = {
            r[0]: flow.Bucket(tokens=float(r[1]), stamp=float(r[2])) for r in read.fetchall()
        }
    choice = flow.choose(policy, candidates, held, buckets, now=now, limit=limit)
    until = now + lease_seconds
    statements = []
    if choice.buckets:
        put = list(choice.buckets.items())
        statements.append(
            (
                _PUT_BUCKETS,
                ([k for k, _ in put], [b.tokens for _, b in put], [b.stamp for _, b in put]),
            )
        )
    if not choice.message_ids:
        if statements:
            t.read_many(statements)
        return [], choice, scanned_to
    statements.append((_LEASE, (owner, until, list(choice.message_ids), now)))
    leased = {r[0]: r for r in t.read_many(statements)[-1].fetchall()}
    taken = [
        Message(
            message_id=m,
            queue=queue,
            payload=bytes(leased[m][1]),
            deliveries=int(leased[m][2]),
            lease_owner=owner,
            lease_expires_at=until,
        )
        for m in choice.message_ids
        if m in leased
    ]
    claimed = _logic.claim_messages(t, taken, owner, lease_seconds, t.now) if taken else []
    return claimed, choice, scanned_to


def _candidate(r: Any) -> flow.FlowCandidate:
    return flow.FlowCandidate(
        message_id=r[0],
        run_id=bytes(r[1]).decode(errors="replace"),
        available_at=float(r[2]),
        workflow_name=r[3],
        labels=_labels(r[4]),
    )
