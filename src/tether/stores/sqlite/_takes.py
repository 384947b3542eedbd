"""The SQLite queue's flow-controlled take (`_flow`); the plain one is `_delivery.take`.

Both run inside a write transaction, which SQLite holds alone (BEGIN IMMEDIATE), so a
flow-controlled take counts, spends and leases with no other writer in between, in
this process or any other.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

import orjson

from .. import _flow as flow
from .. import _logic
from .._records import Claim, Message
from ._txn import _Txn

__all__ = ["flow_take"]


# A queue's payload is its run's id (as bytes): the run's row by its key.
_CANDIDATES = (
    "SELECT q.message_id, q.payload, q.available_at, q.deliveries, r.workflow_name, r.labels "
    "FROM tether_queue q LEFT JOIN tether_runs r ON r.run_id = CAST(q.payload AS TEXT) "
    "WHERE q.queue = ? AND q.available_at <= ? "
    "AND (q.lease_owner IS NULL OR q.lease_expires_at <= ?) "
    "{after}ORDER BY q.available_at, q.message_id LIMIT ?"
)
_HEAD = _CANDIDATES.format(after="")
# The probe past the previous claim's last read (`_flow.merged`).
_PROBE = _CANDIDATES.format(after="AND (q.available_at, q.message_id) > (?, ?) ")
_HELD = (
    "SELECT r.run_id, r.workflow_name, r.labels "
    "FROM tether_queue q JOIN tether_runs r ON r.run_id = CAST(q.payload AS TEXT) "
    "WHERE q.queue = ? AND q.lease_owner IS NOT NULL AND q.lease_expires_at > ?"
)
_PUT_BUCKET = (
    "INSERT INTO tether_flow_buckets (key, tokens, stamp) VALUES (?, ?, ?) "
    "ON CONFLICT (key) DO UPDATE SET tokens = excluded.tokens, stamp = excluded.stamp"
)


def _labels(text: str | None) -> dict[str, str]:
    return orjson.loads(text) if text else {}


def flow_take(
    t: _Txn,
    queue: str,
    owner: str,
    lease_seconds: float,
    limit: int,
    policy: flow.FlowPolicy,
    now: float,
    scan_from: tuple[float, str] | None = None,
) -> tuple[list[tuple[Message, Claim]], flow.FlowChoice, tuple[float, str] | None]:
    """Lease and claim what the limits admit of the queue's ready messages (`_flow`)."""
    c = t.c
    found = c.execute(_HEAD, (queue, now, now, policy.window)).fetchall()
    probed = []
    if scan_from is not None:
        probed = c.execute(_PROBE, (queue, now, now, *scan_from, policy.window)).fetchall()
    candidates, scanned_to = flow.merged(
        [_candidate(r) for r in found], [_candidate(r) for r in probed], policy.window
    )
    held = [
        flow.HeldRun(run_id=r[0], workflow_name=r[1], labels=_labels(r[2]))
        for r in c.execute(_HELD, (queue, now)).fetchall()
    ]
    keys = flow.rate_keys(policy, candidates)
    buckets = _buckets(c, keys)
    choice = flow.choose(policy, candidates, held, buckets, now=now, limit=limit)
    for key, bucket in choice.buckets.items():
        c.execute(_PUT_BUCKET, (key, bucket.tokens, bucket.stamp))
    rows = {r[0]: r for r in (*found, *probed)}
    until = now + lease_seconds
    taken = []
    for message_id in choice.message_ids:
        c.execute(
            "UPDATE tether_queue SET lease_owner = ?, lease_expires_at = ?, "
            "deliveries = deliveries + 1 WHERE message_id = ?",
            (owner, until, message_id),
        )
        row = rows[message_id]
        taken.append(
            Message(
                message_id=message_id,
                queue=queue,
                payload=bytes(row[1]),
                deliveries=row[3] + 1,
                lease_owner=owner,
                lease_expires_at=until,
            )
        )
    claimed = _logic.claim_messages(t, taken, owner, lease_seconds, now) if taken else []
    return claimed, choice, scanned_to


def _candidate(r: Sequence[Any]) -> flow.FlowCandidate:
    return flow.FlowCandidate(
        message_id=r[0],
        run_id=bytes(r[1]).decode(errors="replace"),
        available_at=r[2],
        workflow_name=r[4],
        labels=_labels(r[5]),
    )


def _buckets(c: sqlite3.Connection, keys: Sequence[str]) -> dict[str, flow.Bucket]:
    if not keys:
        return {}
    marks = ", ".join("?" for _ in keys)
    found = c.execute(
        f"SELECT key, tokens, stamp FROM tether_flow_buckets WHERE key IN ({marks})", tuple(keys)
    ).fetchall()
    return {r[0]: flow.Bucket(tokens=r[1], stamp=r[2]) for r in found}
