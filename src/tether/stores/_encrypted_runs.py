"""How a workflow store's records are sealed and opened: their places and key scopes.

Places (the associated data every payload is bound to):

- run input / output / error: ``run.input|run.output|run.error, <run id>`` (a child's
  output copied into its parent's ``child_completed`` event keeps the place of the run
  that ended the child's chain);
- step input / output / error: ``step.input|step.output|step.error, <run id>, <step id>``
  (``step_retrying`` and ``step_failed`` both carry ``step.error``);
  which event carries which is its entry's `EventKind.payload` (`_events`);
- hook payloads: ``hook.payload, <run id>, <hook id>``;
- stream chunks: ``stream, <run id>, <stream name>`` and the chunk's index, sealed
  positioned (`_sealing`; every append states its index, see `_encrypted_streams`);
- any other event payload: ``event, <run id>, <event type>, <correlation id>``.

Event slots are not bound: the store assigns them, and a payload is copied, under
its place, into the records mirroring its event (a step's output into its step).

A run's key scope is recorded in its input's envelope header when it is created (see
`_sealer` for which scope a run gets); `RunSealing` keeps the scopes it has seen.
"""

from __future__ import annotations

import hmac
from collections import OrderedDict
from collections.abc import Mapping

from ._events import event_kind
from ._protocols import WorkflowStore
from ._records import (
    Attr,
    Claim,
    Continuation,
    EventRecord,
    NewEvent,
    NewRun,
    RunRecord,
    StepRecord,
    evolve,
)
from ._sealer import Sealer, run_scope
from ._sealing import parse

__all__ = ["RunSealing", "event_place"]

_SCOPE_CACHE = 8192


def event_place(
    run_id: str, event_type: str, correlation_id: str | None, attrs: Mapping[str, Attr]
) -> tuple[str, ...]:
    """The place an event's payload is bound to: its entry's `EventKind.payload`."""
    place = event_kind(event_type).payload
    if place is None:
        return ("event", run_id, event_type, str(correlation_id))
    if place == "child.result":
        # The output of the run that ended the child's chain (its last run's place).
        status = attrs.get("status")
        child = attrs.get("run_id") or correlation_id
        return ("run.output" if status == "completed" else "run.error", str(child))
    if place.startswith("run."):
        return (place, run_id)
    # A step's and a hook's places name them by the event's correlation id.
    return (place, run_id, str(correlation_id))


class RunSealing:
    """The sealing and opening of runs, steps, events and claims, and the runs' scopes.

    The base of `EncryptedWorkflowStore`, which uses these on every read and write.
    """

    def __init__(self, inner: WorkflowStore, sealer: Sealer) -> None:
        self.inner = inner
        self._sealer = sealer
        self._scopes: OrderedDict[str, str] = OrderedDict()

    # -- scopes ------------------------------------------------------------------------------
    def _remember(self, run_id: str, scope: str) -> str:
        self._scopes[run_id] = scope
        if len(self._scopes) > _SCOPE_CACHE:
            self._scopes.popitem(last=False)
        return scope

    async def scope_of(self, run_id: str) -> str:
        """The key scope of a run: recorded in its input's header when it was created."""
        scope = self._scopes.get(run_id)
        if scope is not None:
            return scope
        run = await self.inner.get_run(run_id)
        if run is None:
            return run_scope(run_id)
        return self._remember(run_id, await self._scope_of_record(run))

    async def _scope_of_record(self, run: RunRecord) -> str:
        if run.input is not None and run.input[:3] == b"TE1":
            return parse(run.input, f"input of run {run.run_id!r}").scope
        if run.parent_run_id is not None:
            return await self.scope_of(run.parent_run_id)
        return run_scope(run.run_id)

    async def _scope_of_new(self, new: NewRun) -> str:
        if new.parent_run_id is not None:
            return await self.scope_of(new.parent_run_id)
        if new.chain_id and new.chain_id != new.run_id:
            # A later run of a chain (a restart; a continuation is sealed by its commit
            # the same way) keeps the chain's scope: erasing the chain erases all of it.
            return await self.scope_of(new.chain_id)
        return run_scope(new.run_id)

    # -- sealing records ---------------------------------------------------------------------
    async def _seal_new_run(self, new: NewRun, scope: str | None = None) -> NewRun:
        scope = self._remember(new.run_id, scope or await self._scope_of_new(new))
        sealed = await self._sealer.seal(scope, ("run.input", new.run_id), new.input)
        digest = new.input_digest
        if digest is not None:
            # The digest still tells equal inputs apart (a run id started again), but
            # keyed: a plain hash of a guessable input would reveal it.
            key = await self._sealer.keys.for_write(scope)
            digest = hmac.new(
                key.mac, b"tether run input\0" + digest.encode(), "sha256"
            ).hexdigest()
        return evolve(new, input=sealed, input_digest=digest)

    async def _seal_event(self, scope: str, run_id: str, event: NewEvent) -> NewEvent:
        if event.payload is None:
            return event
        place = event_place(run_id, event.event_type, event.correlation_id, event.attrs)
        sealed = self._sealer.seal_now(scope, place, event.payload)
        if sealed is None:
            sealed = await self._sealer.seal(scope, place, event.payload)
        return evolve(event, payload=sealed)

    async def _open_run(self, run: RunRecord | None) -> RunRecord | None:
        if run is None:
            return None
        if run.input is not None and run.run_id not in self._scopes and run.input[:3] == b"TE1":
            self._remember(run.run_id, parse(run.input, "run input").scope)
        s = self._sealer
        return evolve(
            run,
            input=await s.open(("run.input", run.run_id), run.input, erased="none"),
            output=await s.open(("run.output", run.run_id), run.output, erased="none"),
            error=await s.open(("run.error", run.run_id), run.error, erased="none"),
        )

    async def _open_step(self, step: StepRecord) -> StepRecord:
        s, r, i = self._sealer, step.run_id, step.step_id
        return evolve(
            step,
            input=await s.open(("step.input", r, i), step.input, erased="none"),
            output=await s.open(("step.output", r, i), step.output, erased="none"),
            error=await s.open(("step.error", r, i), step.error, erased="none"),
        )

    async def _open_event(self, event: EventRecord) -> EventRecord:
        if event.payload is None:
            return event
        place = event_place(event.run_id, event.event_type, event.correlation_id, event.attrs)
        return evolve(event, payload=await self._sealer.open(place, event.payload, erased="none"))

    async def _open_claim(self, claim: Claim) -> Claim:
        if claim.run is None:
            return claim
        run = await self._open_run(claim.run)
        events = tuple([await self._open_event(e) for e in claim.events])
        return evolve(claim, run=run, events=events)

    async def _seal_continuation(self, scope: str, continuation: Continuation) -> Continuation:
        # A chain keeps its predecessor's key scope: erasing it erases every run of it.
        new = await self._seal_new_run(continuation.run, scope)
        carried = tuple(
            [
                (hook_id, await self._sealer.seal(scope, ("hook.payload", new.run_id, hook_id), p))
                for hook_id, p in continuation.carried
            ]
        )
        return evolve(continuation, run=new, carried=carried)
