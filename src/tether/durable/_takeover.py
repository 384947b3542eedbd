"""Taking a parked run over from outside: move it to a successor, or hand it back.

A run that waits (on a hook, a timer) holds no lease and no worker. A client that
wants it somewhere else (a session idle under an old deployment, say) takes its
lease with `Client.take_over` and, while holding it, decides: `continue_as_new`
ends the run ``continued`` and starts its successor in one commit, on the client's
deployment by default, its hooks moved and never free; `release` hands it back as it
was. No worker can run it in between (the lease fences them), so what the taker read
of the run's state while holding it stays true until it commits.

What a take-over carries: the hooks; the payloads that arrived *while* it was held
(the body never saw them); not the payloads the run had received before (the taker
reads the run's state and passes the successor what it needs as arguments).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from .._ids import new_ulid
from .._version import ENGINE_VERSION
from ..errors import (
    ConflictError,
    ContinueAsNewError,
    InvalidTransitionError,
    NotFoundError,
    StaleHeadError,
)
from ..stores import (
    TERMINAL_RUN_STATUSES,
    Backend,
    Commit,
    Continuation,
    NewMessage,
    RunRecord,
    chain_of,
)
from ._continue import plan_successor
from ._journal import Journal, StepOp
from ._registry import Registry, queue_name

__all__ = ["TAKEOVER_LEASE", "Takeover", "take_over"]

#: Seconds a take-over holds the run's lease (it commits or hands back well before; a
#: client that dies holding it frees the run when it lapses).
TAKEOVER_LEASE = 5.0


class Takeover:
    """A parked run held from outside (see the module docstring).

    Attributes:
        run_id: The run held (the chain's current run).
        chain_id: Its chain.
        deployment: The deployment that built it.
        engine_version: The tether version that built it.
    """

    def __init__(
        self,
        backend: Backend,
        registry: Registry,
        run: RunRecord,
        journal: Journal,
        owner: str,
        epoch: int,
    ) -> None:
        self._backend = backend
        self._registry = registry
        self._run = run
        self._journal = journal
        self._owner = owner
        self._epoch = epoch
        self._done = False
        self.run_id = run.run_id
        self.chain_id = chain_of(run)
        self.deployment = run.deployment
        self.engine_version = run.engine_version

    def __repr__(self) -> str:
        return f"<Takeover of {self.run_id!r}>"

    async def continue_as_new(
        self,
        *args: Any,
        workflow: Callable[..., Any] | str | None = None,
        **kwargs: Any,
    ) -> str:
        """End the held run ``continued`` and start its successor, in one commit.

        The successor runs under the client registry's deployment and this tether
        version (the run's own workflow name by default); the run's hooks move to it
        (it adopts one with ``ctx.create_hook(token=...)``), with the payloads that
        arrived while the run was held.

        Returns:
            The successor's run id.

        Raises:
            ContinueAsNewError: A child run of the run is unfinished; nothing was written
                (the run is handed back).
            ConflictError: The run changed hands or ended meanwhile (the lease ran out);
                nothing was written.
        """
        self._check_open()
        store = self._backend.stores.workflow
        deployment = self._registry.deployment
        try:
            successor = plan_successor(
                run=self._run,
                journal=self._journal,
                registry=self._registry,
                current_workflow=self._run.workflow_name,
                workflow=workflow,
                args=args,
                kwargs=kwargs,
                active_steps=0,
            )
        except ContinueAsNewError:
            await self.release()
            raise
        base = successor.build().run
        new = dataclasses.replace(
            base,
            deployment=deployment,
            engine_version=ENGINE_VERSION,
            queue=queue_name(ENGINE_VERSION, deployment),
        )
        carried: list[tuple[str, bytes]] = []
        head = self._journal.head
        while True:
            try:
                await store.commit(
                    Commit(
                        run_id=self.run_id,
                        owner=self._owner,
                        epoch=self._epoch,
                        expected_head=head,
                        events=(successor.event,),
                        release=True,
                        continuation=Continuation(run=new, carried=tuple(carried)),
                    )
                )
            except StaleHeadError:
                # Someone appended while it was held (a payload to a hook, a cancel):
                # carry the payloads; a cancel wins over the move.
                for event in await store.list_events(self.run_id, after=head):
                    head = max(head, event.slot)
                    if event.event_type == "cancel_requested":
                        await self.release()
                        raise ConflictError(
                            f"run {self.run_id!r} was cancelled while it was taken over"
                        ) from None
                    if event.event_type == "hook_received" and event.payload is not None:
                        carried.append((str(event.correlation_id), event.payload))
                continue
            except (InvalidTransitionError, NotFoundError) as exc:
                self._done = True
                raise ConflictError(f"run {self.run_id!r} changed meanwhile: {exc}") from None
            break
        self._done = True
        return new.run_id

    async def release(self) -> None:
        """Hand the run back as it was; it is woken to look at what arrived meanwhile."""
        if self._done:
            return
        self._done = True
        store = self._backend.stores.workflow
        wake = NewMessage(
            queue=self._run.queue,
            payload=self.run_id.encode(),
            available_at=await store.clock(),
            idempotency_key=self.run_id,
        )
        try:
            await store.commit(
                Commit(
                    run_id=self.run_id,
                    owner=self._owner,
                    epoch=self._epoch,
                    expected_head=None,
                    release=True,
                    enqueue=(wake,),
                )
            )
        except (InvalidTransitionError, NotFoundError, ConflictError):
            pass  # the lease ran out and someone else has it: nothing to hand back

    def _check_open(self) -> None:
        if self._done:
            raise ConflictError(f"the take-over of run {self.run_id!r} is over")

    async def __aenter__(self) -> Takeover:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.release()


async def take_over(backend: Backend, registry: Registry, run_id: str) -> Takeover | None:
    """Take the lease of the chain's current run if it is parked; None if it is not.

    Not parked: it ended, a live lease holds it (a worker runs it), or a step of it was
    left unfinished (its worker died mid-step: it must run that step again first).
    """
    store = backend.stores.workflow
    run = await store.get_run(run_id)
    if run is None:
        raise NotFoundError(f"run {run_id!r} does not exist")
    if run.status == "continued":
        latest = await store.latest_run(chain_of(run))
        run = latest if latest is not None else run
    if run.status in TERMINAL_RUN_STATUSES:
        return None
    owner = new_ulid("takeover_")
    claim = await store.claim_run(run.run_id, owner=owner, lease_seconds=TAKEOVER_LEASE)
    if claim.outcome != "claimed" or claim.run is None:
        return None
    journal = Journal.from_events(run.run_id, list(claim.events))
    held = Takeover(backend, registry, claim.run, journal, owner, claim.epoch)
    unfinished = [
        op
        for op in journal.ops.values()
        if isinstance(op, StepOp) and op.status not in ("completed", "failed")
    ]
    if unfinished or journal.cancel_requested is not None:
        await held.release()
        return None
    return held
