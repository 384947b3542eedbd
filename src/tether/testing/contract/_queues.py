"""Queue-depth cases of the workflow-store contract."""

from __future__ import annotations

import asyncio
import time

from ...stores import NewMessage, QueueDepth, WorkflowStore

__all__ = ["QueueContract"]


def _message(queue: str, payload: bytes, *, delay: float = 0.0) -> NewMessage:
    return NewMessage(queue=queue, payload=payload, available_at=time.time() + delay)


class QueueContract:
    """Mixed into `WorkflowStoreContract`; uses its `store` fixture."""

    async def test_queue_depths_count_ready_delayed_and_leased_messages(
        self, store: WorkflowStore
    ) -> None:
        assert await store.queue_depths() == []
        for n in range(3):
            await store.enqueue(_message("q1", f"r{n}".encode()))
        await store.enqueue(_message("q1", b"later", delay=3600))
        await store.enqueue(_message("q2", b"x"))
        taken = await store.dequeue("q1", owner="w1", lease_seconds=30, limit=2)
        assert len(taken) == 2
        assert await store.queue_depths() == [
            QueueDepth(queue="q1", ready=1, delayed=1, leased=2),
            QueueDepth(queue="q2", ready=1, delayed=0, leased=0),
        ]
        # An acknowledged message is gone; one handed back is ready again.
        assert await store.ack(taken[0].message_id, owner="w1")
        assert await store.nack(taken[1].message_id, owner="w1", delay=0)
        assert await store.queue_depths() == [
            QueueDepth(queue="q1", ready=2, delayed=1, leased=0),
            QueueDepth(queue="q2", ready=1, delayed=0, leased=0),
        ]

    async def test_a_message_whose_lease_ended_counts_as_ready(self, store: WorkflowStore) -> None:
        await store.enqueue(_message("q", b"r"))
        [held] = await store.dequeue("q", owner="w1", lease_seconds=0.05, limit=1)
        assert await store.queue_depths() == [QueueDepth(queue="q", ready=0, delayed=0, leased=1)]
        await asyncio.sleep(0.3)  # the lease ends (a dead worker's, say)
        assert await store.queue_depths() == [QueueDepth(queue="q", ready=1, delayed=0, leased=0)]
        assert held.lease_owner == "w1"
