"""The ``tether.queue.depth`` gauge: the store's queues, sampled while metrics are on."""

from __future__ import annotations

import asyncio
import logging

from .. import _otel
from ..errors import StoreError
from ..stores import WorkQueue

__all__ = ["QUEUE_SAMPLE_INTERVAL", "sample_queue_depths"]

log = logging.getLogger("tether.worker")

#: Seconds between two samples of the queues (one grouped count of their messages).
QUEUE_SAMPLE_INTERVAL = 15.0
_STATES = ("ready", "delayed", "leased")


async def sample_queue_depths(store: WorkQueue) -> None:
    """Set ``tether.queue.depth`` from `store.queue_depths()` now and then, forever.

    Nothing is read while no meter provider records tether's metrics. Every worker
    samples the same store: the gauge is the store's, not the worker's (take the
    maximum across workers, not the sum).
    """
    shown: set[str] = set()
    while True:
        gauges = list(_otel.each("queue_depth"))
        if gauges:
            try:
                depths = {d.queue: d for d in await store.queue_depths()}
            except StoreError as exc:
                log.debug("queue depths not sampled: %s", exc)
            else:
                for queue in sorted(shown | set(depths)):
                    depth = depths.get(queue)
                    for state in _STATES:
                        value = 0 if depth is None else getattr(depth, state)
                        attributes = {"tether.queue": queue, "tether.queue.state": state}
                        for gauge in gauges:
                            gauge.set(value, attributes)
                # A queue that emptied shows 0 (a gauge keeps its last value) once.
                shown = set(depths)
        await asyncio.sleep(QUEUE_SAMPLE_INTERVAL)
