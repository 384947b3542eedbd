"""A worker's parked runs kept warm: activations suspended where their bodies wait.

A run parks (it waits on a hook, a timer, a child) with its body suspended mid-await.
The worker that parked it keeps the activation here, least recently parked first out,
and when it claims the run again it takes the activation up (`ActivationCore.
resume_parked`) instead of replaying the run's log from the top. It also tells the
store which logs it holds, so a claim reads only what was appended since.
"""

from __future__ import annotations

from collections import OrderedDict

from ..stores import Claim, Message
from ._activation import ActivationCore
from ._executor import Activation
from ._registry import WorkflowDef

__all__ = ["ParkedRuns"]


class ParkedRuns:
    """At most `size` parked activations, by run id.

    Args:
        size: How many to keep (0: none; an activation offered then is unwound).
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[str, Activation] = OrderedDict()
        self._closed = False

    def keep(self, activation: ActivationCore) -> None:
        """Keep a run that just parked (its `on_parked`); the oldest goes beyond `size`."""
        assert isinstance(activation, Activation)
        if self._closed:
            activation.discard()
            return
        self._kept[activation.run_id] = activation
        while len(self._kept) > self.size:
            _, evicted = self._kept.popitem(last=False)
            evicted.discard()

    def known(self) -> dict[str, int] | None:
        """The logs held, by run: up to each park's head (`claim_next(known=...)`)."""
        return {r: a.head for r, a in self._kept.items()} if self._kept else None

    def take_up(
        self, workflow: WorkflowDef, claim: Claim, message: Message, sent: float
    ) -> Activation | None:
        """The claimed run's parked activation, going on under `claim`; None: replay."""
        run = claim.run
        assert run is not None
        parked = self._kept.pop(run.run_id, None)
        if parked is None:
            return None
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
        for parked in self._kept.values():
            parked.discard()
        self._kept.clear()
