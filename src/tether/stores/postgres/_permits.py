"""The Postgres store's step permits (`stores._permits`), in one transaction per call.

Every acquisition of a key takes the key's transaction-scoped advisory lock first, so
acquisitions on any host count the live permits, spend the key's bucket and insert one
after another: the statements after the lock read, under READ COMMITTED, everything
the acquisitions before it committed. The clock is read after the lock, so the stamps
written never go backwards.
"""

from __future__ import annotations

from .. import _permits as permits
from .._flow import Bucket, FlowLimit
from ._txn import _Txn

__all__ = ["permit_release", "permit_take"]

_LOCK = "SELECT pg_advisory_xact_lock(hashtext(%s))"
_CLOCK = "SELECT extract(epoch FROM clock_timestamp())::float8"


def permit_take(
    t: _Txn, namespace: str, key: str, holder: str, limit: FlowLimit, lease_seconds: float
) -> permits.Permit:
    """Grant, renew or refuse `holder`'s permit of `key` (`stores._permits`)."""
    _, clock = t.read_many([(_LOCK, (f"tether_permit:{namespace}:{key}",)), (_CLOCK, ())])
    row = clock.fetchone()
    assert row is not None
    now = float(row[0])
    _, live, found = t.read_many(
        [
            # Expired permits are gone for good: their holders stopped renewing.
            ("DELETE FROM tether_flow_permits WHERE key = %s AND expires_at <= %s", (key, now)),
            ("SELECT holder FROM tether_flow_permits WHERE key = %s", (key,)),
            (
                "SELECT tokens, stamp FROM tether_flow_buckets WHERE key = %s",
                (permits.permit_bucket(key),),
            ),
        ]
    )
    holders = [r[0] for r in live.fetchall()]
    stored = found.fetchone()
    renewing = holder in holders
    choice = permits.decide_permit(
        limit,
        live=len(holders) - renewing,
        renewing=renewing,
        bucket=None if stored is None else Bucket(tokens=float(stored[0]), stamp=float(stored[1])),
        now=now,
        lease_seconds=lease_seconds,
    )
    writes: list[tuple[str, tuple[object, ...]]] = []
    if choice.bucket is not None:
        writes.append(
            (
                "INSERT INTO tether_flow_buckets (key, tokens, stamp) VALUES (%s, %s, %s) "
                "ON CONFLICT (key) DO UPDATE SET tokens = excluded.tokens, stamp = excluded.stamp",
                (permits.permit_bucket(key), choice.bucket.tokens, choice.bucket.stamp),
            )
        )
    granted = choice.permit
    if granted.granted and granted.expires_at is not None:
        writes.append(
            (
                "INSERT INTO tether_flow_permits (key, holder, expires_at) VALUES (%s, %s, %s) "
                "ON CONFLICT (key, holder) DO UPDATE SET expires_at = excluded.expires_at",
                (key, holder, granted.expires_at),
            )
        )
    if writes:
        t.read_many(writes)
    return granted


def permit_release(t: _Txn, key: str, holder: str) -> None:
    """Delete `holder`'s permit of `key`."""
    t.read_many([("DELETE FROM tether_flow_permits WHERE key = %s AND holder = %s", (key, holder))])
