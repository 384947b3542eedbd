"""The check before a step's body starts: enough of the run's lease is surely left."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol

from ..errors import StoreUnavailableError
from ..stores import RunLog
from ._lease import Lease
from ._parking import _Suspend

__all__ = ["ensure_lease"]


class _Holder(Protocol):
    """An activation, as far as its lease goes."""

    run_id: str
    owner: str
    epoch: int
    lease: Lease

    @property
    def store(self) -> RunLog: ...

    @property
    def ended(self) -> bool: ...

    def _settle(self, outcome: str) -> None: ...


async def ensure_lease(a: _Holder) -> None:
    """Return once at least half a lease is surely left; never start a body sooner.

    The commit that starts a step renews the lease, but if its answer took long to
    come back (a stall) the lease may be nearly or wholly gone by now: another
    worker could take the run and run the step alongside this one. A quick renewal
    settles it; a fenced one gives the run up.
    """
    while not a.lease.fresh_enough():
        if a.ended:
            raise _Suspend
        sent = time.monotonic()
        try:
            held = await a.store.renew_lease(
                a.run_id, owner=a.owner, epoch=a.epoch, lease_seconds=a.lease.seconds or 0.0
            )
        except StoreUnavailableError:
            if a.lease.expired():
                a._settle("abandoned")
                raise _Suspend from None
            await asyncio.sleep(0.05)
            continue
        if not held:
            a._settle("abandoned")
            raise _Suspend
        a.lease.renewed(sent)
