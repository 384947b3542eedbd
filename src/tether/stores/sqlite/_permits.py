"""The SQLite store's step permits (`stores._permits`), in the writer's transaction.

SQLite has one writer at a time: an acquisition counts, spends and inserts with no
other writer in between, so the limit holds across every process sharing the file.
"""

from __future__ import annotations

from .. import _permits as permits
from .._flow import Bucket, FlowLimit
from ._txn import _Txn

__all__ = ["permit_release", "permit_take"]


def permit_take(
    t: _Txn, key: str, holder: str, limit: FlowLimit, lease_seconds: float, now: float
) -> permits.Permit:
    """Grant, renew or refuse `holder`'s permit of `key` (`stores._permits`)."""
    c = t.c
    # Expired permits are gone for good: their holders stopped renewing.
    c.execute("DELETE FROM tether_flow_permits WHERE key = ? AND expires_at <= ?", (key, now))
    rows = c.execute("SELECT holder FROM tether_flow_permits WHERE key = ?", (key,)).fetchall()
    renewing = any(r[0] == holder for r in rows)
    found = c.execute(
        "SELECT tokens, stamp FROM tether_flow_buckets WHERE key = ?",
        (permits.permit_bucket(key),),
    ).fetchone()
    choice = permits.decide_permit(
        limit,
        live=len(rows) - renewing,
        renewing=renewing,
        bucket=None if found is None else Bucket(tokens=found[0], stamp=found[1]),
        now=now,
        lease_seconds=lease_seconds,
    )
    if choice.bucket is not None:
        c.execute(
            "INSERT INTO tether_flow_buckets (key, tokens, stamp) VALUES (?, ?, ?) "
            "ON CONFLICT (key) DO UPDATE SET tokens = excluded.tokens, stamp = excluded.stamp",
            (permits.permit_bucket(key), choice.bucket.tokens, choice.bucket.stamp),
        )
    granted = choice.permit
    if granted.granted and granted.expires_at is not None:
        c.execute(
            "INSERT INTO tether_flow_permits (key, holder, expires_at) VALUES (?, ?, ?) "
            "ON CONFLICT (key, holder) DO UPDATE SET expires_at = excluded.expires_at",
            (key, holder, granted.expires_at),
        )
    return granted


def permit_release(t: _Txn, key: str, holder: str) -> None:
    """Delete `holder`'s permit of `key`."""
    t.c.execute("DELETE FROM tether_flow_permits WHERE key = ? AND holder = ?", (key, holder))
