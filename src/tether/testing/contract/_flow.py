"""Flow-control cases of the workflow-store contract (`WorkflowStore.claim_flow`)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ...stores import PRIORITY_LABEL, FlowLimit, FlowPolicy, NewRun, WorkflowStore

__all__ = ["FlowContract"]


def _run(run_id: str, workflow: str = "wf", **labels: str) -> NewRun:
    return NewRun(
        run_id=run_id,
        workflow_name=workflow,
        input=b"in",
        deployment="d",
        engine_version="e",
        queue="fq",
        labels=labels,
    )


def _policy(*limits: FlowLimit, aging: float = 10.0, **workflows: Any) -> FlowPolicy:
    return FlowPolicy(
        limits={lim.name: lim for lim in limits},
        workflows={"wf": tuple(lim.name for lim in limits)},
        aging=aging,
        **workflows,
    )


async def _claim(
    store: WorkflowStore,
    policy: FlowPolicy,
    *,
    owner: str = "w1",
    limit: int = 10,
    lease: float = 30,
) -> list[str]:
    got = await store.claim_flow("fq", owner=owner, lease_seconds=lease, limit=limit, policy=policy)
    return [c.run.run_id for _, c in got.claimed if c.run is not None]


class FlowContract:
    """Mixed into `WorkflowStoreContract`; uses its `store` fixture."""

    async def test_flow_claims_hold_a_concurrency_limit_until_an_activation_ends(
        self, store: WorkflowStore
    ) -> None:
        policy = _policy(FlowLimit(name="gate", concurrency=2))
        for n in range(4):
            await store.create_run(_run(f"c{n}"))
        got = await store.claim_flow("fq", owner="w1", lease_seconds=30, limit=10, policy=policy)
        assert [c.run.run_id for _, c in got.claimed if c.run] == ["c0", "c1"]
        assert got.blocked == 2 and got.retry_after is None
        # Another worker finds the key full: the places are counted in the store.
        assert await _claim(store, policy, owner="w2") == []
        # An activation that ends (its message acknowledged) frees its place.
        message, claim = got.claimed[0]
        assert await store.ack(message.message_id, owner="w1")
        assert await _claim(store, policy, owner="w2") == ["c2"]
        assert claim.epoch == 1

    async def test_a_dead_holders_place_comes_back_when_its_lease_ends(
        self, store: WorkflowStore
    ) -> None:
        policy = _policy(FlowLimit(name="gate", concurrency=1))
        await store.create_run(_run("d0"))
        await store.create_run(_run("d1"))
        assert await _claim(store, policy, owner="dead", lease=0.2) == ["d0"]
        assert await _claim(store, policy, owner="live") == []
        await asyncio.sleep(0.3)  # the holder never renews: it died
        # The place is free again; the dead holder's run comes back first (oldest).
        assert await _claim(store, policy, owner="live", limit=1) == ["d0"]

    async def test_a_keyed_limit_counts_each_label_value_apart(self, store: WorkflowStore) -> None:
        policy = _policy(FlowLimit(name="tenant", concurrency=1, key="tenant"))
        await store.create_run(_run("a1", tenant="acme"))
        await store.create_run(_run("a2", tenant="acme"))
        await store.create_run(_run("b1", tenant="bolt"))
        await store.create_run(_run("n1"))  # no label: the key of the empty value
        assert await _claim(store, policy) == ["a1", "b1", "n1"]
        assert await _claim(store, policy) == []

    async def test_a_probe_finds_what_waits_behind_a_backlog_a_full_key_holds_back(
        self, store: WorkflowStore
    ) -> None:
        # One tenant has 20 runs queued under a limit of one; another's run is behind
        # them, past the 4 oldest that a claim's head window reads.
        policy = FlowPolicy(
            limits={"t": FlowLimit(name="t", concurrency=1, key="tenant")},
            workflows={"wf": ("t",)},
            window=4,
        )
        for n in range(20):
            await store.create_run(_run(f"noisy{n:02}", tenant="noisy"))
        await store.create_run(_run("quiet", tenant="quiet"))
        got = await store.claim_flow("fq", owner="w1", lease_seconds=30, limit=5, policy=policy)
        assert [c.run.run_id for _, c in got.claimed if c.run] == ["noisy00"]
        cursor = got.scanned_to
        assert cursor is not None  # a full window: there may be more past it
        found: list[str] = []
        for _ in range(8):  # 20 messages, 4 a probe: the probe reaches the end in 5
            got = await store.claim_flow(
                "fq", owner="w1", lease_seconds=30, limit=5, policy=policy, scan_from=cursor
            )
            found += [c.run.run_id for _, c in got.claimed if c.run]
            cursor = got.scanned_to
            if found:
                break
        assert found == ["quiet"]

    async def test_runs_of_unlimited_workflows_are_claimed_beside_limited_ones(
        self, store: WorkflowStore
    ) -> None:
        policy = _policy(FlowLimit(name="gate", concurrency=1))
        await store.create_run(_run("l1"))
        await store.create_run(_run("l2"))
        await store.create_run(_run("free", workflow="other"))
        assert sorted(await _claim(store, policy)) == ["free", "l1"]

    async def test_a_rate_limit_spends_a_token_bucket_kept_in_the_store(
        self, store: WorkflowStore
    ) -> None:
        policy = _policy(FlowLimit(name="rate", per_second=20.0, burst=1))
        for n in range(6):
            await store.create_run(_run(f"r{n}"))
        first = await store.claim_flow("fq", owner="w1", lease_seconds=30, limit=10, policy=policy)
        assert len(first.claimed) == 1 and first.blocked == 5
        assert first.retry_after is not None and 0 < first.retry_after <= 0.05 + 1e-6
        started = time.monotonic()
        claimed = 1
        owners = ["w2", "w3"]  # other workers spend the same bucket
        while claimed < 6:
            got = await _claim(store, policy, owner=owners[claimed % 2])
            assert len(got) <= 1  # never more than the one token due
            claimed += len(got)
            await asyncio.sleep(0.005)
        elapsed = time.monotonic() - started
        # Five more tokens at 20 a second: at least ~0.25 s (generous bounds only).
        assert elapsed >= 0.2
        assert elapsed < 5.0

    async def test_higher_priority_first_and_a_long_wait_ages_past_it(
        self, store: WorkflowStore
    ) -> None:
        await store.create_run(_run("low"))
        await asyncio.sleep(0.2)
        await store.create_run(_run("high", **{PRIORITY_LABEL: "1"}))
        await store.create_run(_run("mid"))
        # One level is worth 1 s of waiting: "high" (0.2 s younger) goes first.
        slow_aging = FlowPolicy(aging=1.0, workflows={}, priorities={"wf": 0})
        got = await store.claim_flow(
            "fq", owner="w1", lease_seconds=0.1, limit=3, policy=slow_aging
        )
        assert [c.run.run_id for _, c in got.claimed if c.run] == ["high", "low", "mid"]
        await asyncio.sleep(0.2)  # the leases end: all three are ready again
        # One level is worth 0.1 s: "low" has waited 0.2 s longer, so it goes first.
        fast_aging = FlowPolicy(aging=0.1)
        got = await store.claim_flow("fq", owner="w2", lease_seconds=30, limit=3, policy=fast_aging)
        assert [c.run.run_id for _, c in got.claimed if c.run] == ["low", "high", "mid"]

    async def test_a_workflows_default_priority_orders_its_runs(self, store: WorkflowStore) -> None:
        await store.create_run(_run("plain"))
        await store.create_run(_run("urgent", workflow="urgent_wf"))
        await store.create_run(_run("demoted", workflow="urgent_wf", **{PRIORITY_LABEL: "-5"}))
        policy = FlowPolicy(priorities={"urgent_wf": 3})
        assert await _claim(store, policy) == ["urgent", "plain", "demoted"]
