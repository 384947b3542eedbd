"""Whether a hook send would reach a run no worker serves (a `tether dev` generation)."""

from __future__ import annotations

import time

from ..errors import RunDormantError
from ._generations import is_dev_generation
from ._handle import _is_stranded
from ._run_reads import RunsAndWorkers

__all__ = ["Dormancy"]

#: How many hook tokens a client remembers as not on a dev generation.
_NOT_DEV_TOKENS = 4096
#: How long a client trusts its last look at whether any dev generation has a worker.
_DEV_WORKERS_TTL = 2.0


class Dormancy:
    """A client's check before it sends to a hook (`Client.resume_hook`)."""

    def __init__(self, store: RunsAndWorkers) -> None:
        self._store = store
        # Hook tokens whose run was found on an ordinary deployment (not a dev
        # generation): sends to them skip the dormancy check's reads from then on.
        self._not_dev: dict[str, None] = {}
        # Whether any worker of a dev generation is registered, and when that was read.
        self._dev_workers = False
        self._dev_read_at = -_DEV_WORKERS_TTL

    async def refuse(self, token: str) -> None:
        """Raise `RunDormantError` if `token`'s run is on a dev generation nobody serves.

        A run is dormant only while `tether dev` runs (a worker of its current
        generation is registered, and none of the run's): without any dev generation's
        worker registered, which a client reads at most every `_DEV_WORKERS_TTL`
        seconds, a send costs nothing more. Otherwise two reads (the hook, its run) the
        first time a token is seen; a token found on an ordinary deployment is
        remembered (at most `_NOT_DEV_TOKENS` of them), since a run never moves from
        an ordinary deployment to a dev generation once it holds a hook (`tether dev`
        moves runs before their first step).
        """
        if token in self._not_dev or not await self._dev_mode_running():
            return
        hook = await self._store.get_hook(token)
        if hook is None:
            return  # the store refuses the send itself, with its own error
        run = await self._store.get_run(hook.run_id)
        if run is None:
            return
        if not is_dev_generation(run.deployment):
            if len(self._not_dev) >= _NOT_DEV_TOKENS:
                self._not_dev.pop(next(iter(self._not_dev)))
            self._not_dev[token] = None
            return
        if run.lease_owner is not None and run.lease_expires_at > await self._store.clock():
            # Held (a take-over moving it to other code): the holder carries what it
            # receives to where the run goes.
            return
        if await _is_stranded(self._store, run):
            raise RunDormantError(run.run_id, run.engine_version, run.deployment)

    async def _dev_mode_running(self) -> bool:
        now = time.monotonic()
        if now - self._dev_read_at >= _DEV_WORKERS_TTL:
            workers = await self._store.list_workers()
            self._dev_workers = any(is_dev_generation(w.deployment) for w in workers)
            self._dev_read_at = now
        return self._dev_workers
