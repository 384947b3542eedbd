"""The memory store's step permits (`kit.permit_rules`), on its state, with no await.

One call reads and writes with nothing else running in between (one event-loop turn),
so an acquisition is as serialized here as in a SQL backend's transaction.
"""

from __future__ import annotations

from ..kit import FlowLimit, Permit, permit_rules
from ._state import _State

__all__ = ["take_permit"]


def take_permit(
    s: _State, key: str, holder: str, limit: FlowLimit, lease_seconds: float, now: float
) -> Permit:
    """Grant, renew or refuse `holder`'s permit of `key`."""
    held = s.flow_permits.setdefault(key, {})
    for gone in [h for h, until in held.items() if until <= now]:
        del held[gone]  # expired: its holder stopped renewing
    bucket_key = permit_rules.permit_bucket(key)
    choice = permit_rules.decide_permit(
        limit,
        live=len(held) - (holder in held),
        renewing=holder in held,
        bucket=s.flow_buckets.get(bucket_key),
        now=now,
        lease_seconds=lease_seconds,
    )
    if choice.bucket is not None:
        s.flow_buckets[bucket_key] = choice.bucket
    if choice.permit.granted and choice.permit.expires_at is not None:
        held[holder] = choice.permit.expires_at
    return choice.permit
