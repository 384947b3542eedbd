"""`Forwarder`: a deployment served by moving its new runs to another (`tether dev`)."""

from __future__ import annotations

import logging
import os
import socket
import time
from types import TracebackType

from .._version import ENGINE_VERSION
from ..errors import StoreError
from ..stores import Backend, WorkerRecord
from ._generations import forward_new_runs
from ._hosts import host_identity

__all__ = ["Forwarder"]

log = logging.getLogger("tether.dev")


class Forwarder:
    """Serves deployment `source` by moving its new runs to deployment `target`.

    Registered in the store as a worker of `source` (so its runs are not stranded, and
    a client may send to a session started a moment ago): `tether dev` runs one for
    the app's deployment, and points `target` at each new generation.

    Use as ``async with Forwarder(...) as f:`` and call `forward` regularly.

    Args:
        backend: The store.
        source: The deployment clients start runs under.
        target: Where new runs go; may be changed at any time.
        heartbeat_interval: How often `forward` stamps the worker record alive.
    """

    def __init__(
        self, backend: Backend, *, source: str, target: str, heartbeat_interval: float = 1.0
    ) -> None:
        self.backend = backend
        self.source = source
        self.target = target
        self.heartbeat_interval = heartbeat_interval
        self.worker_id = f"{socket.gethostname()}:{os.getpid()}:forward:{source}"
        self._beat = 0.0

    async def __aenter__(self) -> Forwarder:
        now = time.time()
        await self.backend.stores.workflow.register_worker(
            WorkerRecord(
                worker_id=self.worker_id,
                host=socket.gethostname(),
                pid=os.getpid(),
                deployment=self.source,
                engine_version=ENGINE_VERSION,
                started_at=now,
                heartbeat_at=now,
                host_id=host_identity(),
            )
        )
        self._beat = time.monotonic()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            await self.backend.stores.workflow.expire_worker(self.worker_id)
        except StoreError as error:
            log.warning("unregistering %s failed: %s", self.worker_id, error)

    async def forward(self) -> int:
        """Move every new run waiting now; return how many moved."""
        if time.monotonic() - self._beat >= self.heartbeat_interval:
            await self.backend.stores.workflow.heartbeat_worker(self.worker_id)
            self._beat = time.monotonic()
        moved = 0
        while True:
            batch = await forward_new_runs(
                self.backend, source=self.source, target=self.target, owner=self.worker_id
            )
            moved += batch
            if not batch:
                return moved
