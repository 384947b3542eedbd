"""A worker's parked runs kept warm: activations suspended where their bodies wait.

A run parks (it waits on a hook, a timer, a child) with its body suspended mid-await.
The worker that parked it keeps the activation here, least recently parked first out,
and when it claims the run again it takes the activation up (`ActivationCore.
resume_parked`) instead of replaying the run's log from the top. It also tells the
store which logs it holds, so a claim reads only what was appended since.
"""

from __future__ import annotations

import time
from collections import OrderedDict

from ..stores import Claim, Message
from ._activation import ActivationCore
from ._executor import Activation
from ._registry import WorkflowDef

__all__ = ["PARKED_TTL", "ParkedRuns"]

#: Seconds a parked run stays warm. Past that its next wake-up replays: a run parked
#: this long is rarely woken on this worker, and what the activation holds (decoded
#: payloads among them) should not outstay it in memory.
PARKED_TTL = 600.0


class ParkedRuns:
    """At most `size` parked activations, by run id, each for at most `ttl` seconds.

    Args:
        size: How many to keep (0: none; an activation offered then is unwound).
        ttl: Seconds an activation is kept after its park.
    """

    def __init__(self, size: int, ttl: float = PARKED_TTL) -> None:
        self.size = size
        self.ttl = ttl
        # Least recently parked first, with when each parked (monotonic).
        self._kept: OrderedDict[str, tuple[Activation, float]] = OrderedDict()
        # The head each kept run parked at (fixed while it is kept): `known` is asked
        # at every claim, and copying this is cheaper than building it from `_kept`.
        self._heads: dict[str, int] = {}
        self._closed = False

    def keep(self, activation: ActivationCore) -> None:
        """Keep a run that just parked (its `on_parked`); the oldest goes beyond `size`."""
        assert isinstance(activation, Activation)
        if self._closed:
            activation.discard()
            return
        self._kept.pop(activation.run_id, None)
        self._kept[activation.run_id] = (activation, time.monotonic())
        self._heads[activation.run_id] = activation.head
        while len(self._kept) > self.size:
            run_id, (evicted, _) = self._kept.popitem(last=False)
            del self._heads[run_id]
            evicted.discard()

    def expire(self) -> None:
        """Unwind the activations kept longer than `ttl` (the worker's heartbeat asks)."""
        oldest = time.monotonic() - self.ttl
        while self._kept:
            run_id, (activation, parked_at) = next(iter(self._kept.items()))
            if parked_at > oldest:
                return
            del self._kept[run_id]
            del self._heads[run_id]
            activation.discard()

    def known(self) -> dict[str, int] | None:
        """The logs held, by run: up to each park's head (`claim_next(known=...)`)."""
        self.expire()
        return self._heads.copy() if self._heads else None

    def take_up(
        self, workflow: WorkflowDef, claim: Claim, message: Message, sent: float
    ) -> Activation | None:
        """The claimed run's parked activation, going on under `claim`; None: replay."""
        run = claim.run
        assert run is not None
        self.expire()
        kept = self._kept.pop(run.run_id, None)
        if kept is None:
            return None
        del self._heads[run.run_id]
        parked = kept[0]
        if parked.workflow is workflow and parked.resume_parked(
            run=run,
            epoch=claim.epoch,
            events=claim.events,
            message_id=message.message_id,
            lease_sent=sent,
            after=claim.after,
        ):
            return parked
        parked.discard()
        return None

    def close(self) -> None:
        """Unwind every kept activation; later parks are unwound at once."""
        self._closed = True
        for parked, _ in self._kept.values():
            parked.discard()
        self._kept.clear()
        self._heads.clear()
