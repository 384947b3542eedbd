"""Continue-as-new: a run ends and its successor starts, in one commit.

A run that has done enough (a session after many turns, a poller after many rounds)
calls ``ctx.continue_as_new(*args)``. Its last commit writes, in one transaction, the
completions still pending, the successor run (the same chain, generation + 1, id
``<chain id>~<n>``, the new arguments as its input, pending with its wake-up message)
and the run's own end with status ``continued``. The run's hooks move to the successor
inside that transaction (never free), with the payloads it received and did not take.

What carries over, and what does not:

- hooks: all of them (force-claim); the successor adopts one by creating a hook with
  its token, and receives what was sent to it meanwhile, in order, exactly once;
- the parent link: the successor answers to the run's parent, which learns of the
  chain's end, not of this run's;
- a cancel requested of the run before the commit: the run ends cancelled instead of
  continuing; a cancel of a continued run applies to the chain's current run;
- child runs: none may be unfinished (await or cancel them first);
- durable timers, retry backoffs and the journal: nothing; the successor starts from
  its arguments.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._codec import encode
from ..errors import ContinueAsNewError, ContinueAsNewUnavailableError
from ..stores import (
    Backend,
    Capability,
    Continuation,
    NewEvent,
    NewRun,
    RunRecord,
    chain_of,
    successor_run_id,
)
from ._journal import ChildOp, HookOp, Journal
from ._registry import Registry, workflow_name_of

if TYPE_CHECKING:
    pass

__all__ = [
    "HANDOFF_CAPABILITIES",
    "Handoff",
    "Successor",
    "carried_payloads",
    "plan_successor",
]

log = logging.getLogger("tether.worker")

#: What a backend must declare for a run to move to a successor.
HANDOFF_CAPABILITIES = (Capability.CONTINUE_AS_NEW, Capability.HOOK_RETENTION)


class Handoff:
    """Whether runs of this worker's backend can move to a successor.

    A backend without `HANDOFF_CAPABILITIES` keeps every run where it is; the first
    time a run asks, the worker logs ``session handoff unavailable`` (once).
    """

    def __init__(self, backend: Backend | None) -> None:
        capabilities = frozenset() if backend is None else backend.capabilities
        self.backend = "(no backend)" if backend is None else backend.url
        self.missing = tuple(c.value for c in HANDOFF_CAPABILITIES if c not in capabilities)
        self._warned = False

    @property
    def available(self) -> bool:
        """Whether the backend moves hooks and retains released tokens."""
        if not self.missing:
            return True
        if not self._warned:
            self._warned = True
            log.warning(
                "session handoff unavailable: the backend %s does not declare %s; runs "
                "never continue as new here, and their history keeps growing",
                self.backend,
                ", ".join(self.missing),
            )
        return False

    def require(self, run_id: str) -> None:
        """Raise `ContinueAsNewUnavailableError` unless `available`."""
        if not self.available:
            raise ContinueAsNewUnavailableError(run_id, self.backend, self.missing)


@dataclass(frozen=True, slots=True, kw_only=True)
class Successor:
    """A planned continuation: the ending event and how to build the `Continuation`."""

    event: NewEvent
    build: Callable[[], Continuation]


def carried_payloads(journal: Journal) -> tuple[tuple[str, bytes], ...]:
    """Payloads the run received and its body did not take, per hook in arrival order.

    Computed from the journal as it stands when the commit is sent: a payload folded
    in by a catch-up is carried; one appended after the commit goes to the successor
    directly (its hook points there by then). Either way it arrives once.
    """
    hooks = [op for op in journal.ops.values() if isinstance(op, HookOp)]
    hooks += list(journal.moved.values())
    carried: list[tuple[str, bytes]] = []
    for op in hooks:
        if op.conflict is not None or op.disposed:
            continue
        carried += [(op.hook_id, payload) for payload in op.payloads[op.consumed :]]
    return tuple(carried)


def plan_successor(
    *,
    run: RunRecord,
    journal: Journal,
    registry: Registry,
    current_workflow: str,
    workflow: Callable[..., Any] | str | None,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    active_steps: int,
) -> Successor:
    """Check the run may continue now and plan its successor; nothing is written.

    Raises:
        ContinueAsNewError: A step still runs, or a child run is unfinished.
        UnknownWorkflowError: `workflow` is not registered in this deployment.
        SerializationError: The arguments cannot be recorded.
    """
    if active_steps:
        raise ContinueAsNewError(
            run.run_id,
            f"{active_steps} step(s) of the run are still running; await them first",
        )
    unfinished = sorted(
        op.child_run_id
        for op in journal.ops.values()
        if isinstance(op, ChildOp) and op.refused is None and op.status is None
    )
    if unfinished:
        raise ContinueAsNewError(
            run.run_id,
            f"its child runs {unfinished!r} are unfinished; await (or cancel) them first",
        )
    name = current_workflow if workflow is None else workflow_name_of(workflow)
    registry.get(name)
    payload = encode({"args": list(args), "kwargs": kwargs}, what=f"input of {name!r}")
    chain = chain_of(run)
    generation = run.generation + 1
    new = NewRun(
        run_id=successor_run_id(chain, generation),
        workflow_name=name,
        input=payload,
        deployment=run.deployment,
        engine_version=run.engine_version,
        queue=run.queue,
        parent_run_id=run.parent_run_id,
        parent_slot=run.parent_slot,
        chain_id=chain,
        generation=generation,
    )
    event = NewEvent(
        event_type="run_continued",
        correlation_id=new.run_id,
        attrs={"workflow_name": name, "generation": generation},
    )
    return Successor(
        event=event, build=lambda: Continuation(run=new, carried=carried_payloads(journal))
    )
