"""What one event does to a run: its log, its steps, waits and hooks, its end.

Part of the shared rules (`_logic`): every change of run state is an event appended
here, at the run's next slot, and applied to the views the backend gives (`ViewTxn`).
Which change an event makes is its entry's `EventKind.view` (`_events`).
"""

from __future__ import annotations

from collections.abc import Mapping

from .._validate import check_attrs, check_identifier
from ..errors import (
    ConflictError,
    HookTokenInUseError,
    InvalidTransitionError,
)
from ._events import EventKind, event_kind
from ._records import (
    TERMINAL_RUN_STATUSES,
    TERMINAL_STEP_STATUSES,
    Attr,
    EventRecord,
    HookRecord,
    NewEvent,
    RunRecord,
    StepRecord,
    WaitRecord,
    chain_of,
    evolve,
)
from ._view import ViewTxn, wake_message

__all__ = ["append_events", "insert_event"]


def append_events(txn: ViewTxn, run: RunRecord, events: list[NewEvent], now: float) -> RunRecord:
    """Append `events` to the run's log and apply each; the run's row after them."""
    for event in events:
        run = _apply(txn, run, event, now)
    return run


# Records are copied with `evolve`, not `dataclasses.replace`, which costs twice as
# much on this hot path; the values are plainly of their fields' types, which mypy then
# cannot check.


def insert_event(txn: ViewTxn, run: RunRecord, event: NewEvent, now: float) -> RunRecord:
    """Insert `event` at the run's next slot (no effect applied); the run's row after it."""
    # Text every backend stores alike (step names, hook tokens, cancel reasons): a value
    # one database refuses must be a refusal everywhere, before anything is written.
    check_attrs(event.attrs, what=f"{event.event_type} event of run {run.run_id!r}")
    # A run's own creation is only ever appended to a run that did not exist a moment ago.
    kind = event_kind(event.event_type)
    if (
        kind.creation
        and kind.subject != "run"
        and txn.has_creation(run.run_id, event.correlation_id, event.event_type)
    ):
        raise ConflictError(
            f"run {run.run_id!r} already has a {event.event_type!r} event for "
            f"{event.correlation_id!r}"
        )
    slot = run.head + 1
    txn.insert_event(
        EventRecord(
            run_id=run.run_id,
            slot=slot,
            event_type=event.event_type,
            correlation_id=event.correlation_id,
            attrs=dict(event.attrs),
            payload=event.payload,
            created_at=now,
        )
    )
    return evolve(run, head=slot)


def _step(txn: ViewTxn, run: RunRecord, event: NewEvent) -> StepRecord:
    step = txn.get_step(run.run_id, str(event.correlation_id))
    if step is None:
        raise InvalidTransitionError(
            f"run {run.run_id!r} has no step {event.correlation_id!r} for {event.event_type!r}"
        )
    if step.status in TERMINAL_STEP_STATUSES:
        raise InvalidTransitionError(
            f"step {step.step_id!r} of run {run.run_id!r} is already {step.status!r}; "
            f"{event.event_type!r} cannot change it"
        )
    return step


def _int(attrs: Mapping[str, Attr], key: str, default: int = 0) -> int:
    value = attrs.get(key, default)
    return int(value) if isinstance(value, int | float) else default


def _apply(txn: ViewTxn, run: RunRecord, event: NewEvent, now: float) -> RunRecord:
    kind = event_kind(event.event_type)
    view = kind.view
    attrs = event.attrs
    if view == "continuation":
        raise InvalidTransitionError(
            f"run {run.run_id!r}: {kind.name!r} is written by a continuation only"
        )
    if view == "run_end":
        if run.status in TERMINAL_RUN_STATUSES:
            raise InvalidTransitionError(f"run {run.run_id!r} is already {run.status!r}")
        run = insert_event(txn, run, event, now)
        return _finish_run(txn, run, kind, event, now)
    if run.status in TERMINAL_RUN_STATUSES:
        raise InvalidTransitionError(
            f"run {run.run_id!r} is {run.status!r}; {kind.name!r} cannot be appended"
        )
    if view == "step_create":
        run = insert_event(txn, run, event, now)
        txn.insert_step(
            StepRecord(
                run_id=run.run_id,
                step_id=str(event.correlation_id),
                slot=_int(attrs, "slot"),
                name=str(attrs.get("name")),
                status="running",
                attempt=_int(attrs, "attempt", 1),
                format_version=_int(attrs, "format_version", 1),
                input=event.payload,
                output=None,
                error=None,
                started_at=now,
                completed_at=None,
                retry_after=None,
            )
        )
        return run
    if view == "step_change":
        step = _step(txn, run, event)
        run = insert_event(txn, run, event, now)
        txn.update_step(_changed_step(step, kind, event, now))
        return run
    if view == "wait_create":
        run = insert_event(txn, run, event, now)
        resume_at = attrs.get("resume_at")
        txn.put_wait(
            WaitRecord(
                run_id=run.run_id,
                wait_id=str(event.correlation_id),
                slot=_int(attrs, "slot"),
                resume_at=float(resume_at) if isinstance(resume_at, int | float) else now,
                completed=False,
            )
        )
        return run
    if view == "wait_complete":
        wait = txn.get_wait(run.run_id, str(event.correlation_id))
        if wait is None or wait.completed:
            raise InvalidTransitionError(
                f"wait {event.correlation_id!r} of run {run.run_id!r} is missing or completed"
            )
        run = insert_event(txn, run, event, now)
        txn.put_wait(evolve(wait, completed=True))
        return run
    if view == "hook_create":
        return _create_hook(txn, run, event, now)
    if view == "hook_dispose":
        run = insert_event(txn, run, event, now)
        txn.delete_hook(str(event.correlation_id))
        return run
    # "log": entries whose meaning the engine reads (a run's start, a cancel request,
    # a hook's payload, a child's start or end, a refusal); no view beyond the run's
    # head changes.
    return insert_event(txn, run, event, now)


def _changed_step(step: StepRecord, kind: EventKind, event: NewEvent, now: float) -> StepRecord:
    """The step after one of its later events: a start, a retry, its end."""
    attrs = event.attrs
    if kind.step_slot is None:  # a new attempt's start
        return evolve(
            step,
            status="running",
            attempt=_int(attrs, "attempt", step.attempt + 1),
            started_at=now,
            retry_after=None,
        )
    if kind.step_status == "retrying":
        retry_after = attrs.get("retry_after")
        return evolve(
            step,
            status="retrying",
            error=event.payload,
            retry_after=float(retry_after) if isinstance(retry_after, int | float) else None,
        )
    if kind.step_slot == "output":
        return evolve(step, status="completed", output=event.payload, completed_at=now)
    return evolve(step, status="failed", error=event.payload, completed_at=now)


def _create_hook(txn: ViewTxn, run: RunRecord, event: NewEvent, now: float) -> RunRecord:
    attrs = event.attrs
    token = check_identifier(attrs.get("token"), what="hook token")
    hook_id = str(event.correlation_id)
    holder = txn.get_hook_by_token(token)
    if holder is not None and holder.run_id == run.run_id and holder.hook_id == hook_id:
        # A hook moved here from the predecessor, adopted by the slot that asks for
        # its token: the same hook, now placed (its payloads keep their hook id).
        run = insert_event(txn, run, event, now)
        txn.update_hook(evolve(holder, slot=_int(attrs, "slot")))
        return run
    if holder is not None:
        if holder.retained_until is None:
            raise HookTokenInUseError(token, holder.run_id)
        if holder.retained_until > now and holder.chain_id != chain_of(run):
            raise HookTokenInUseError(token, holder.run_id, retained_until=holder.retained_until)
        # Its window is over, or this run is of the chain that released it.
        txn.delete_hook(holder.hook_id)
    run = insert_event(txn, run, event, now)
    txn.insert_hook(
        HookRecord(
            hook_id=hook_id,
            run_id=run.run_id,
            token=token,
            slot=_int(attrs, "slot"),
            created_at=now,
            chain_id=chain_of(run),
        )
    )
    return run


def _finish_run(
    txn: ViewTxn, run: RunRecord, kind: EventKind, event: NewEvent, now: float
) -> RunRecord:
    status = kind.run_status or "cancelled"
    run = evolve(
        run,
        status=status,
        output=event.payload if status == "completed" else None,
        error=event.payload if status == "failed" else None,
        completed_at=now,
    )
    retained_until = now + txn.hook_retention
    for hook in txn.hooks_of_run(run.run_id):
        # Appended after the terminal event: disposal is the one change a terminal run
        # still takes. The token is released but stays reserved for the run's chain for
        # the retention window: nobody else takes an address the moment its run ends.
        attrs: dict[str, Attr] = {}
        if txn.hook_retention > 0:
            attrs["retained_until"] = retained_until
            txn.update_hook(evolve(hook, chain_id=chain_of(run), retained_until=retained_until))
        else:
            txn.delete_hook(hook.hook_id)
        disposed = NewEvent(event_type="hook_disposed", correlation_id=hook.hook_id, attrs=attrs)
        run = insert_event(txn, run, disposed, now)
    if run.parent_run_id is not None:
        parent = txn.get_run(run.parent_run_id)
        if parent is not None and parent.status not in TERMINAL_RUN_STATUSES:
            # Under the id the parent started: a child that continued as new ends as
            # its chain's last run.
            done = NewEvent(
                event_type="child_completed",
                correlation_id=chain_of(run),
                # The run that ended the chain: its output is copied here as it was.
                attrs={"status": status, "slot": run.parent_slot, "run_id": run.run_id},
                payload=event.payload,
            )
            parent = insert_event(txn, parent, done, now)
            txn.update_run(evolve(parent, updated_at=now))
            txn.enqueue_quiet(wake_message(parent, now), now)
    return run
