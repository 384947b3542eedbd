"""``tether.queue.depth``: a worker samples its store's queues while metrics are on."""

from __future__ import annotations

import asyncio
import time

import pytest
from _telemetry import Telemetry

import tether
from tether.durable import _queue_gauge
from tether.stores import NewMessage


def _depths(telemetry: Telemetry) -> dict[tuple[str, str], int]:
    return {
        (p.attributes["tether.queue"], p.attributes["tether.queue.state"]): p.value
        for p in telemetry.points("tether.queue.depth")
    }


async def test_a_worker_samples_every_queue_of_its_store(
    telemetry: Telemetry, db: tuple[str, str | None], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_queue_gauge, "QUEUE_SAMPLE_INTERVAL", 0.05)
    url, namespace = db
    options = {} if namespace is None else {"namespace": namespace}
    async with tether.open_backend(url, **options) as backend:
        store = backend.stores.workflow
        # A queue no worker of this test pulls: two messages due, one due in an hour.
        for payload, delay in ((b"a", 0.0), (b"b", 0.0), (b"c", 3600.0)):
            message = NewMessage(queue="reports", payload=payload, available_at=time.time() + delay)
            await store.enqueue(message)
        async with tether.Worker(backend, tether.Registry()):
            for _ in range(250):
                depths = _depths(telemetry)
                if depths.get(("reports", "ready")) == 2:
                    break
                await asyncio.sleep(0.02)
            assert depths[("reports", "ready")] == 2
            assert depths[("reports", "delayed")] == 1
            assert depths[("reports", "leased")] == 0
            # Handled elsewhere: the queue empties, and the gauge says so.
            for message in await store.dequeue("reports", owner="w", lease_seconds=30, limit=9):
                await store.ack(message.message_id, owner="w")
            for _ in range(250):
                if _depths(telemetry).get(("reports", "ready")) == 0:
                    break
                await asyncio.sleep(0.02)
            assert _depths(telemetry)[("reports", "ready")] == 0
            assert _depths(telemetry)[("reports", "delayed")] == 1
