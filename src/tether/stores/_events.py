"""The event vocabulary: one typed entry per event type of a run's log.

Every reader of the log reads its types here: what an event does to the stores' views
(`_apply`), the place its payload is sealed under (`_encrypted_runs`), the slot of a
step's row it fills (`_rows.StepSlots`, journal format 2), what a claim's log leaves
out, what a fork copies, and how the engine folds it into its journal
(`tether.durable._journal`). A new event type is one entry of `EVENT_KINDS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "CREATION_EVENTS",
    "EVENT_KINDS",
    "EXTERNAL_EVENTS",
    "FORK_EVENTS",
    "STEP_ERROR_EVENTS",
    "EventKind",
    "EventType",
    "PayloadPlace",
    "StepSlot",
    "Subject",
    "ViewEffect",
    "event_kind",
]

EventType = Literal[
    "run_created",
    "run_started",
    "run_completed",
    "run_failed",
    "run_cancelled",
    "run_continued",
    "continue_refused",
    "cancel_requested",
    "step_created",
    "step_started",
    "step_retrying",
    "step_completed",
    "step_failed",
    "wait_created",
    "wait_completed",
    "hook_created",
    "hook_conflict",
    "hook_received",
    "hook_disposed",
    "hook_moved",
    "child_started",
    "child_completed",
    "child_refused",
]
#: What an event's correlation id names: its run (or none), a step, a timer, a hook, a
#: child run (by the id its parent started), or a `continue_as_new` the run was refused.
Subject = Literal["run", "step", "wait", "hook", "child", "continue"]
#: The place an event's payload is sealed under (`_encrypted_runs`): the run's or the
#: step's (by the event's correlation id), the hook's, or, for ``child.result``, the
#: output or error (by its status) of the run that ended the child's chain.
PayloadPlace = Literal[
    "run.input",
    "run.output",
    "run.error",
    "step.input",
    "step.output",
    "step.error",
    "hook.payload",
    "child.result",
]
#: The payload slot of a step's row an event fills (journal format 2: `_rows.STEP_COLS`).
StepSlot = Literal["input", "output", "error"]
#: What appending an event does to the stores' views beyond the log (`_apply`):
#: ``log`` changes nothing but the run's head; ``continuation`` is written by a
#: continuation's commit alone (`_logic.continue_run`), never appended on its own.
ViewEffect = Literal[
    "log",
    "run_end",
    "step_create",
    "step_change",
    "wait_create",
    "wait_complete",
    "hook_create",
    "hook_dispose",
    "continuation",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class EventKind:
    """One event type and what every reader of the log does with it.

    Attributes:
        name: The event type, as stored in ``event_type``.
        subject: What its correlation id names.
        view: What appending it does to the stores' views (`ViewEffect`).
        payload: The place its payload is sealed under; None when it carries none of
            its own (a payload given anyway is sealed under the generic ``event`` place).
        step_slot: The payload slot of its step's row it fills, if any.
        step_status: The status it gives its step, if any.
        run_status: The status it ends its run with, if any.
        places: Whether it places an operation at the slot its ``slot`` attribute
            names: the position replay finds it at.
        refusal: Whether it records a refusal the workflow body was told (a hook token
            in use, a child run id in use, a continuation refused), which replay tells
            the body again.
        creation: Whether a run holds at most one per (correlation id, type).
        external: Whether it is written into the log by someone other than the run's
            lease holder.
        wakes: Whether others append it to wake the run for its body to read (a hook's
            payload, a cancel request, a child's end).
        forked: Whether a fork may copy it into its new run (an operation of the
            journal, never a run's own transition).
        replayed_payload: Whether a claim's log carries its payload; False for the
            inputs replay never reads (the run's row carries the run's input).
    """

    name: EventType
    subject: Subject
    view: ViewEffect = "log"
    payload: PayloadPlace | None = None
    step_slot: StepSlot | None = None
    step_status: Literal["running", "retrying", "completed", "failed"] | None = None
    run_status: Literal["completed", "failed", "cancelled", "continued"] | None = None
    places: bool = False
    refusal: bool = False
    creation: bool = False
    external: bool = False
    wakes: bool = False
    forked: bool = False
    replayed_payload: bool = True


_KINDS = (
    EventKind(
        name="run_created",
        subject="run",
        payload="run.input",
        creation=True,
        replayed_payload=False,
    ),
    EventKind(name="run_started", subject="run"),
    EventKind(
        name="run_completed",
        subject="run",
        view="run_end",
        payload="run.output",
        run_status="completed",
    ),
    EventKind(
        name="run_failed", subject="run", view="run_end", payload="run.error", run_status="failed"
    ),
    EventKind(
        name="run_cancelled", subject="run", view="run_end", run_status="cancelled", external=True
    ),
    EventKind(name="run_continued", subject="run", view="continuation", run_status="continued"),
    EventKind(name="continue_refused", subject="continue", places=True, refusal=True, forked=True),
    EventKind(name="cancel_requested", subject="run", external=True, wakes=True),
    EventKind(
        name="step_created",
        subject="step",
        view="step_create",
        payload="step.input",
        step_slot="input",
        step_status="running",
        places=True,
        creation=True,
        forked=True,
        replayed_payload=False,
    ),
    EventKind(name="step_started", subject="step", view="step_change", step_status="running"),
    EventKind(
        name="step_retrying",
        subject="step",
        view="step_change",
        payload="step.error",
        step_slot="error",
        step_status="retrying",
    ),
    EventKind(
        name="step_completed",
        subject="step",
        view="step_change",
        payload="step.output",
        step_slot="output",
        step_status="completed",
        forked=True,
    ),
    EventKind(
        name="step_failed",
        subject="step",
        view="step_change",
        payload="step.error",
        step_slot="error",
        step_status="failed",
        forked=True,
    ),
    EventKind(
        name="wait_created",
        subject="wait",
        view="wait_create",
        places=True,
        creation=True,
        forked=True,
    ),
    EventKind(name="wait_completed", subject="wait", view="wait_complete", forked=True),
    EventKind(
        name="hook_created",
        subject="hook",
        view="hook_create",
        places=True,
        creation=True,
        forked=True,
    ),
    EventKind(name="hook_conflict", subject="hook", places=True, refusal=True, forked=True),
    EventKind(
        name="hook_received",
        subject="hook",
        payload="hook.payload",
        external=True,
        wakes=True,
        forked=True,
    ),
    EventKind(
        name="hook_disposed", subject="hook", view="hook_dispose", external=True, forked=True
    ),
    EventKind(name="hook_moved", subject="hook", view="continuation"),
    EventKind(name="child_started", subject="child", places=True, creation=True, forked=True),
    EventKind(
        name="child_completed",
        subject="child",
        payload="child.result",
        external=True,
        wakes=True,
        forked=True,
    ),
    EventKind(name="child_refused", subject="child", places=True, refusal=True, forked=True),
)

#: Every event type's entry, by name, in `EventType` order.
EVENT_KINDS: Mapping[str, EventKind] = {kind.name: kind for kind in _KINDS}


def _names(**fields: object) -> frozenset[str]:
    return frozenset(
        kind.name
        for kind in _KINDS
        if all(getattr(kind, field) == value for field, value in fields.items())
    )


#: At most one of these per (run, correlation id, type).
CREATION_EVENTS: frozenset[str] = _names(creation=True)
#: Events written into a run's log by someone other than its lease holder.
EXTERNAL_EVENTS: frozenset[str] = _names(external=True)
#: The events a fork may copy into its new run: the operations of a journal, never a
#: run's own transitions (`WorkflowStore.fork_run`).
FORK_EVENTS: frozenset[str] = _names(forked=True)
#: The step events whose payload is the step's error (its row's ``error_slot``).
STEP_ERROR_EVENTS: frozenset[str] = _names(step_slot="error")


def event_kind(event_type: str) -> EventKind:
    """The entry of an event type.

    A type outside `EventType` (a store's caller may append one of its own) is a log
    entry: it changes no view beyond the run's head, its payload is sealed under the
    generic ``event`` place, and replay passes over it.
    """
    kind = EVENT_KINDS.get(event_type)
    if kind is None:
        return EventKind(name=event_type, subject="run")  # type: ignore[arg-type]
    return kind
