"""A run's journal: its event log folded into one record per slot.

A slot is the position of a durable operation (step, sleep, hook, child run) in the
order the workflow body asks for them. Replay walks the slots again; the journal says
what each already did. What each event type means to it is its entry in the stores'
event vocabulary (`tether.stores.EVENT_KINDS`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..stores import EventKind, EventRecord, event_kind

__all__ = ["ChildOp", "ContinueOp", "HookOp", "Journal", "OpKind", "StepOp", "WaitOp"]

OpKind = Literal["step", "sleep", "hook", "child", "continue"]


@dataclass(slots=True)
class StepOp:
    step_id: str
    name: str
    status: str
    attempt: int
    output: bytes | None = None
    error: bytes | None = None
    retry_after: float | None = None
    at: float = 0.0
    kind: OpKind = "step"
    #: When its last recorded attempt started (the start event's store time): the start
    #: of the span of an attempt cut short, emitted by the attempt after it.
    started: float = 0.0
    #: The result itself, kept by the attempt that produced it when decoding its output
    #: would give back an equal value anyway (see `Activation.run_step`).
    live: tuple[object] | None = None


@dataclass(slots=True)
class WaitOp:
    wait_id: str
    resume_at: float
    completed: bool = False
    kind: OpKind = "sleep"

    @property
    def name(self) -> str:
        return "sleep"


@dataclass(slots=True)
class HookOp:
    hook_id: str
    token: str
    payloads: list[bytes] = field(default_factory=list)
    disposed: bool = False
    #: The run whose active hook held the token when this one was created (a refusal
    #: the workflow saw, so replay raises it again), or None.
    conflict: str | None = None
    #: When the refusal was a retained token: until when it is retained.
    conflict_until: float | None = None
    #: How many payloads the body took; the rest go to a successor (continue-as-new).
    consumed: int = 0
    #: Moved here from the predecessor and not yet adopted by a slot of this run.
    moved: bool = False
    kind: OpKind = "hook"

    @property
    def name(self) -> str:
        return "hook"


@dataclass(slots=True)
class ChildOp:
    child_run_id: str
    workflow_name: str
    status: str | None = None
    result: bytes | None = None
    #: Why the store refused to start it (a run id in use), or None.
    refused: str | None = None
    kind: OpKind = "child"

    @property
    def name(self) -> str:
        return f"child:{self.workflow_name}"


@dataclass(slots=True)
class ContinueOp:
    """A `continue_as_new` the run was refused (a continued run is never replayed)."""

    refused: str
    kind: OpKind = "continue"

    @property
    def name(self) -> str:
        return "continue_as_new"


Op = StepOp | WaitOp | HookOp | ChildOp | ContinueOp


class Journal:
    """The folded log of one run, kept up to date as events are appended."""

    def __init__(self, run_id: str, created_at: float) -> None:
        self.run_id = run_id
        self.created_at = created_at
        self.head = 0
        self.ops: dict[int, Op] = {}
        self._by_correlation: dict[str, Op] = {}
        self.cancel_requested: str | None = None
        self.cancelled = False
        #: Hooks moved here by continue-as-new that no slot adopted yet, by token.
        self.moved: dict[str, HookOp] = {}

    @classmethod
    def from_events(
        cls, run_id: str, events: list[EventRecord] | tuple[EventRecord, ...]
    ) -> Journal:
        """Fold a whole log."""
        journal = cls(run_id, events[0].created_at if events else 0.0)
        for event in events:
            journal.apply(event)
        return journal

    def apply(self, event: EventRecord) -> None:
        """Fold one event (in slot order)."""
        self.head = event.slot
        attrs = event.attrs
        corr = event.correlation_id or ""
        kind = event_kind(event.event_type)
        slot = attrs.get("slot")
        if kind.places and isinstance(slot, int):
            self._place(kind, slot, corr, event)
        elif kind.subject == "hook" and kind.view == "continuation":
            moved = HookOp(hook_id=corr, token=str(attrs.get("token")), moved=True)
            self._by_correlation[corr] = moved
            self.moved[moved.token] = moved
        elif kind.subject == "run":
            if kind.run_status == "cancelled":
                self.cancelled = True
            elif kind.wakes:  # the run's one waking event: a cancel request
                self.cancel_requested = str(attrs.get("reason") or "cancel requested")
        else:
            self._update(kind, corr, event)

    def _place(self, kind: EventKind, slot: int, corr: str, event: EventRecord) -> None:
        """Fold an event that places an operation at `slot`."""
        attrs = event.attrs
        op: Op
        if kind.subject == "step":
            op = StepOp(
                step_id=corr,
                name=str(attrs.get("name")),
                status="running",
                attempt=int(attrs.get("attempt") or 1),
                started=event.created_at,
            )
        elif kind.subject == "wait":
            op = WaitOp(wait_id=corr, resume_at=float(attrs.get("resume_at") or 0))
        elif kind.subject == "hook":
            if not kind.refusal and self._is_moved(corr):
                self.adopt(slot, self._by_correlation[corr])  # type: ignore[arg-type]  # a HookOp
                return
            holder = attrs.get("holder") if kind.refusal else None
            op = HookOp(hook_id=corr, token=str(attrs.get("token")))
            op.conflict = None if holder is None else str(holder)
            until = attrs.get("retained_until")
            op.conflict_until = float(until) if isinstance(until, int | float) else None
        elif kind.subject == "child":
            op = ChildOp(child_run_id=corr, workflow_name=str(attrs.get("workflow_name")))
            if kind.refusal:
                op.refused = str(attrs.get("reason"))
        else:  # a continuation the run was refused
            op = ContinueOp(refused=str(attrs.get("reason")))
        self._add(slot, corr, op)

    def _is_moved(self, hook_id: str) -> bool:
        op = self._by_correlation.get(hook_id)
        return isinstance(op, HookOp) and op.moved

    def adopt(self, slot: int, op: HookOp) -> None:
        """Place a moved hook at `slot`: payloads it received since the move are its own."""
        self.moved.pop(op.token, None)
        op.moved = False
        self.ops[slot] = op

    def skip_to(self, slot: int) -> None:
        """Move the head past events this process wrote and already folded in."""
        self.head = max(self.head, slot)

    def _add(self, slot: int, corr: str, op: Op) -> None:
        self.ops[slot] = op
        self._by_correlation[corr] = op

    def _update(self, kind: EventKind, corr: str, event: EventRecord) -> None:
        if kind.places:  # an operation's placing without its slot: nothing to fold
            return
        op = self._by_correlation.get(corr)
        attrs = event.attrs
        if isinstance(op, StepOp) and kind.subject == "step":
            if kind.step_slot is None:  # a new attempt's start
                op.status = "running"
                op.attempt = int(attrs.get("attempt") or op.attempt + 1)
                op.started = event.created_at
            elif kind.step_status == "retrying":
                op.status = "retrying"
                op.error = event.payload
                retry_after = attrs.get("retry_after")
                op.retry_after = (
                    float(retry_after) if isinstance(retry_after, int | float) else None
                )
            elif kind.step_status is not None:  # its end
                op.status = kind.step_status
                if kind.step_slot == "output":
                    op.output = event.payload
                else:
                    op.error = event.payload
                at = attrs.get("at")
                op.at = float(at) if isinstance(at, int | float) else event.created_at
        elif isinstance(op, WaitOp) and kind.view == "wait_complete":
            op.completed = True
        elif isinstance(op, HookOp):
            if kind.payload == "hook.payload" and event.payload is not None:
                op.payloads.append(event.payload)
            elif kind.view == "hook_dispose":
                op.disposed = True
        elif isinstance(op, ChildOp) and kind.payload == "child.result":
            op.status = str(attrs.get("status"))
            op.result = event.payload
