"""Step-permit cases of the workflow-store contract (`WorkflowStore.acquire_permit`)."""

from __future__ import annotations

import asyncio

from ...stores import FlowLimit, Permit, WorkflowStore

__all__ = ["PermitContract"]


async def _take(
    store: WorkflowStore, key: str, holder: str, limit: FlowLimit, lease: float = 30
) -> Permit:
    return await store.acquire_permit(key, holder=holder, limit=limit, lease_seconds=lease)


class PermitContract:
    """Mixed into `WorkflowStoreContract`; uses its `store` fixture."""

    async def test_permits_hold_a_concurrency_limit_until_released(
        self, store: WorkflowStore
    ) -> None:
        gate = FlowLimit(name="tool", concurrency=2)
        a = await _take(store, "tool", "a", gate)
        b = await _take(store, "tool", "b", gate)
        assert a.granted and b.granted and a.expires_at is not None
        refused = await _take(store, "tool", "c", gate)
        assert not refused.granted and refused.retry_after is None
        # A holder's second acquisition renews its own permit: it holds, takes no place.
        assert (await _take(store, "tool", "a", gate)).granted
        assert not (await _take(store, "tool", "c", gate)).granted
        await store.release_permit("tool", holder="a")
        await store.release_permit("tool", holder="a")  # twice is harmless
        assert (await _take(store, "tool", "c", gate)).granted
        # Keys are apart: another key of the same limit has its own places.
        assert (await _take(store, "tool=acme", "d", gate)).granted

    async def test_a_dead_holders_permit_lapses_with_its_lease(self, store: WorkflowStore) -> None:
        gate = FlowLimit(name="tool", concurrency=1)
        assert (await _take(store, "tool", "dead", gate, lease=0.2)).granted
        assert not (await _take(store, "tool", "live", gate)).granted
        await asyncio.sleep(0.3)  # the holder never renews: it died
        assert (await _take(store, "tool", "live", gate)).granted
        # The lapsed holder's renewal is a fresh acquisition, refused while full.
        assert not (await _take(store, "tool", "dead", gate)).granted

    async def test_permits_spend_a_token_bucket_and_a_refusal_spends_nothing(
        self, store: WorkflowStore
    ) -> None:
        rate = FlowLimit(name="model", per_second=1.0, burst=1)
        first = await _take(store, "model", "a", rate)
        assert first.granted and first.expires_at is None  # a rate holds no place
        second = await _take(store, "model", "b", rate)
        assert not second.granted
        assert second.retry_after is not None and 0 < second.retry_after <= 1.0
        # A rate-only permit is nothing to give back; release is harmless.
        await store.release_permit("model", holder="a")
        assert not (await _take(store, "model", "c", rate)).granted

    async def test_a_permit_needs_a_place_and_a_token(self, store: WorkflowStore) -> None:
        both = FlowLimit(name="api", concurrency=1, per_second=1.0, burst=1)
        assert (await _take(store, "api", "a", both)).granted
        # Full: refused for a place (no token time to wait for).
        full = await _take(store, "api", "b", both)
        assert not full.granted and full.retry_after is None
        await store.release_permit("api", holder="a")
        # A free place, but the bucket's one token is spent: refused by the rate.
        dry = await _take(store, "api", "b", both)
        assert not dry.granted and dry.retry_after is not None and dry.retry_after > 0
