"""Contract of `WorkflowStore.list_prunable_runs`: what the retention sweep may purge.

Part of `WorkflowStoreContract`. Ended runs are listed oldest end first, in bounded
batches, once their whole chain and their parent ended before the time asked; a run
whose content was purged leaves the list.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ...stores import Commit, Continuation, NewEvent, NewRun, WorkflowStore, successor_run_id

__all__ = ["PrunableContract"]


def _new(run_id: str, **kw: Any) -> NewRun:
    base: dict[str, Any] = dict(
        run_id=run_id, workflow_name="wf", input=b"in", deployment="d", engine_version="e",
        queue="q",
    )  # fmt: skip
    base.update(kw)
    return NewRun(**base)


async def _claim(store: WorkflowStore, run_id: str) -> tuple[int, int]:
    claim = await store.claim_run(run_id, owner="w1", lease_seconds=30)
    assert claim.outcome == "claimed" and claim.run is not None, claim.outcome
    return claim.epoch, claim.run.head


async def _end(store: WorkflowStore, run_id: str, **kw: Any) -> None:
    await store.create_run(_new(run_id, **kw))
    epoch, head = await _claim(store, run_id)
    done = NewEvent(event_type="run_completed", payload=b"out")
    commit = Commit(
        run_id=run_id, owner="w1", epoch=epoch, expected_head=head, events=(done,), release=True
    )
    await store.commit(commit)


async def _moment() -> float:
    # A time strictly between two ends (the store's clock may be a server's on this host).
    await asyncio.sleep(0.02)
    at = time.time()
    await asyncio.sleep(0.02)
    return at


def _ids(runs: list[Any]) -> list[str]:
    return [r.run_id for r in runs]


class PrunableContract:
    """`list_prunable_runs`: ended runs past a time, not yet purged, in batches."""

    async def test_ended_runs_are_listed_oldest_first_in_batches(
        self, store: WorkflowStore
    ) -> None:
        await _end(store, "p1")
        await _end(store, "p2")
        between = await _moment()
        await _end(store, "p3")
        await store.create_run(_new("p4"))  # pending: never listed
        await _claim(store, "p4")  # running: never listed
        later = time.time() + 5
        assert _ids(await store.list_prunable_runs(between, limit=10)) == ["p1", "p2"]
        assert _ids(await store.list_prunable_runs(later, limit=10)) == ["p1", "p2", "p3"]
        assert _ids(await store.list_prunable_runs(later, limit=2)) == ["p1", "p2"]
        # A cursor starts past a batch (one the sweep leaves as it is).
        first = await store.list_prunable_runs(later, limit=1)
        assert _ids(first) == ["p1"] and first[0].completed_at is not None
        past = (first[0].completed_at, "p1")
        assert _ids(await store.list_prunable_runs(later, limit=5, after=past)) == ["p2", "p3"]
        listed = first[0]
        assert listed.status == "completed" and listed.completed_at is not None
        assert listed.completed_at < between
        # A purge (of either kind) takes a run off the list: the next batch goes on.
        # Of two purges at once exactly one is the run's first.
        firsts = await asyncio.gather(*(store.purge_run_content("p1") for _ in range(2)))
        assert sorted(firsts) == [False, True]
        assert await store.purge_run_content("p2", keep_input=True) is True
        assert await store.purge_run_content("p2") is False
        assert await store.purge_run_content("never-stored") is False
        assert _ids(await store.list_prunable_runs(later, limit=2)) == ["p3"]
        await store.purge_run_content("p3")
        assert await store.list_prunable_runs(later, limit=2) == []
        assert await store.list_prunable_runs(later, limit=2) == []

    async def test_a_chain_is_listed_only_once_all_of_it_ended(self, store: WorkflowStore) -> None:
        await store.create_run(_new("c1"))
        epoch, head = await _claim(store, "c1")
        successor = successor_run_id("c1", 1)
        new = _new(successor, input=b"next", chain_id="c1", generation=1)
        ending = NewEvent(event_type="run_continued", correlation_id=successor)
        await store.commit(
            Commit(
                run_id="c1", owner="w1", epoch=epoch, expected_head=head, events=(ending,),
                release=True, continuation=Continuation(run=new),
            )
        )  # fmt: skip
        later = time.time() + 5
        # The chain's first run ended; its successor did not: neither is listed.
        assert await store.list_prunable_runs(later, limit=10) == []
        before_end = await _moment()
        epoch, head = await _claim(store, successor)
        done = NewEvent(event_type="run_completed")
        await store.commit(
            Commit(
                run_id=successor, owner="w1", epoch=epoch, expected_head=head, events=(done,),
                release=True,
            )
        )  # fmt: skip
        between = await _moment()
        assert _ids(await store.list_prunable_runs(between, limit=10)) == ["c1", successor]
        # Its end before a time decides: the first run's earlier end does not.
        assert await store.list_prunable_runs(before_end, limit=10) == []

    async def test_a_child_waits_for_its_parent_to_end(self, store: WorkflowStore) -> None:
        await store.create_run(_new("parent"))
        await _claim(store, "parent")
        await _end(store, "child", parent_run_id="parent", parent_slot=1)
        later = time.time() + 5
        assert await store.list_prunable_runs(later, limit=10) == []
        await _end(store, "orphan", parent_run_id="gone", parent_slot=1)
        # A parent the store does not hold never ended: its child stays.
        assert await store.list_prunable_runs(later, limit=10) == []
