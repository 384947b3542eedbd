"""The workflow store's rules, written once for every backend.

Backends provide a `ViewTxn`: row-level reads and writes inside one of their
transactions. The functions here decide what an event does to the views, so every
backend enforces the same world contract:

- the event log is append-only and the only way run state changes; slots are dense;
- at most one creation event per (run, correlation id, type);
- no event moves a run or step out of a terminal state;
- a terminal run disposes its hooks and tells its parent run;
- a write by a lease holder carries its fencing epoch and the log head it last saw.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Protocol

from .._validate import check_attrs, check_identifier
from ..errors import (
    ConflictError,
    FencedError,
    HookTokenInUseError,
    InvalidTransitionError,
    NotFoundError,
    StaleHeadError,
)
from ._records import (
    CREATION_EVENTS,
    TERMINAL_RUN_STATUSES,
    TERMINAL_STEP_STATUSES,
    Attr,
    Claim,
    Commit,
    CommitResult,
    EventRecord,
    EventType,
    HookRecord,
    Message,
    NewEvent,
    NewMessage,
    NewRun,
    RunRecord,
    StepRecord,
    WaitRecord,
    evolve,
)

__all__ = [
    "ViewTxn",
    "apply_commit",
    "cancel_run",
    "claim_messages",
    "claim_run",
    "create_run",
    "resume_hook",
    "wake_message",
]


class ViewTxn(Protocol):
    """Row access inside one backend transaction (sync: backends run it in place)."""

    def get_run(self, run_id: str) -> RunRecord | None: ...
    def insert_run(self, run: RunRecord) -> None: ...
    def update_run(self, run: RunRecord) -> None: ...
    def insert_event(self, event: EventRecord) -> None: ...
    def list_events(self, run_id: str) -> list[EventRecord]: ...
    def prefetch(self, run_ids: Sequence[str], *, events: bool) -> None: ...
    def has_creation(self, run_id: str, correlation_id: str | None, event_type: str) -> bool: ...
    def get_step(self, run_id: str, step_id: str) -> StepRecord | None: ...
    def insert_step(self, step: StepRecord) -> None: ...
    def update_step(self, step: StepRecord) -> None: ...
    def get_wait(self, run_id: str, wait_id: str) -> WaitRecord | None: ...
    def put_wait(self, wait: WaitRecord) -> None: ...
    def get_hook_by_token(self, token: str) -> HookRecord | None: ...
    def hooks_of_run(self, run_id: str) -> list[HookRecord]: ...
    def active_children(self, run_id: str) -> list[str]: ...
    def insert_hook(self, hook: HookRecord) -> None: ...
    def delete_hook(self, hook_id: str) -> None: ...
    def enqueue(self, message: NewMessage, now: float) -> str: ...
    def ack(self, message_id: str, owner: str) -> bool: ...
    def nack(self, message_id: str, owner: str, available_at: float) -> bool: ...
    def drop_pending(self, queue: str, idempotency_key: str) -> None: ...


def wake_message(run: RunRecord, at: float) -> NewMessage:
    """The message that activates a run; at most one is pending per run."""
    return NewMessage(
        queue=run.queue, payload=run.run_id.encode(), available_at=at, idempotency_key=run.run_id
    )


def _same_input(existing: RunRecord, new: NewRun) -> bool:
    # Digests compare values (sets in canonical order, dict keys sorted) and survive
    # encryption; runs written before digests existed fall back to the bytes.
    if existing.input_digest is not None and new.input_digest is not None:
        return existing.input_digest == new.input_digest
    return existing.input == new.input


def create_run(txn: ViewTxn, new: NewRun, now: float) -> tuple[RunRecord, bool]:
    """Create a run with its `run_created` event and activation message, idempotently."""
    # The same refusal on every backend (PostgreSQL would refuse a NUL, SQLite not).
    check_identifier(new.run_id, what="run_id")
    check_identifier(new.workflow_name, what="workflow_name")
    existing = txn.get_run(new.run_id)
    if existing is not None:
        if existing.workflow_name != new.workflow_name or not _same_input(existing, new):
            raise ConflictError(
                f"run {new.run_id!r} already exists as workflow {existing.workflow_name!r} "
                "with other input; a run id names one run: pick a new id to start another"
            )
        if new.parent_run_id is not None and (
            existing.parent_run_id != new.parent_run_id or existing.parent_slot != new.parent_slot
        ):
            # Adopting it would leave the parent waiting for an end reported elsewhere.
            raise ConflictError(
                f"run {new.run_id!r} already exists and is not the child started at slot "
                f"{new.parent_slot} of run {new.parent_run_id!r}: pick another child run id"
            )
        return existing, False
    run = RunRecord(
        run_id=new.run_id,
        workflow_name=new.workflow_name,
        status="pending",
        deployment=new.deployment,
        engine_version=new.engine_version,
        queue=new.queue,
        input=new.input,
        output=None,
        error=None,
        head=0,
        parent_run_id=new.parent_run_id,
        parent_slot=new.parent_slot,
        lease_owner=None,
        lease_epoch=0,
        lease_expires_at=0.0,
        created_at=now,
        updated_at=now,
        completed_at=None,
        input_digest=new.input_digest,
    )
    attrs: dict[str, Attr] = {
        "workflow_name": new.workflow_name,
        "deployment": new.deployment,
        "engine_version": new.engine_version,
        "parent_run_id": new.parent_run_id,
        "parent_slot": new.parent_slot,
    }
    created = NewEvent(
        event_type="run_created", correlation_id=new.run_id, attrs=attrs, payload=new.input
    )
    # The row is written once, as the event leaves it (the event goes first: no store
    # ties an event to its run's row before the transaction ends).
    run = _append(txn, run, [created], now)
    txn.insert_run(run)
    txn.enqueue(wake_message(run, now), now)
    return run, True


def claim_run(txn: ViewTxn, run_id: str, owner: str, lease_seconds: float, now: float) -> Claim:
    """Take a run's lease unless another owner's lease is live; load its log."""
    run = txn.get_run(run_id)
    if run is None:
        return Claim(outcome="missing")
    if run.status in TERMINAL_RUN_STATUSES:
        return Claim(outcome="finished", run=run)
    # A live lease is busy even when this owner holds it: a worker that is already
    # running the run sees new events at its next commit, and re-claiming would fence
    # its own activation.
    if run.lease_owner is not None and run.lease_expires_at > now:
        return Claim(outcome="busy", run=run)
    epoch = run.lease_epoch + 1
    run = dataclasses.replace(
        run, lease_owner=owner, lease_epoch=epoch, lease_expires_at=now + lease_seconds
    )
    if run.status == "pending":
        run = dataclasses.replace(run, status="running")
        run = _append(txn, run, [NewEvent(event_type="run_started")], now)
    txn.update_run(dataclasses.replace(run, updated_at=now))
    return Claim(outcome="claimed", run=run, epoch=epoch, events=tuple(txn.list_events(run_id)))


def claim_messages(
    txn: ViewTxn, messages: list[Message], owner: str, lease_seconds: float, now: float
) -> list[tuple[Message, Claim]]:
    """Claim the run of each activation message; settle the ones with nothing to do now.

    A missing or finished run needs no activation: its message is acknowledged. A run
    held by a live lease needs none yet (its holder sees every event appended meanwhile
    at its next commit, the head check), but its message is kept, due again when that
    lease runs out: the holder may die without a message of its own (lost in an outage,
    or taken by this very delivery), and an active run must never be left with no way
    back. The holder's park or end drops such spare wake-ups (`apply_commit`).
    """
    # Read every run first, then the logs of those that will be claimed: a backend on
    # the network loads a batch in two round trips instead of two per message.
    run_ids = [m.payload.decode() for m in messages]
    txn.prefetch(run_ids, events=False)
    claimable = [
        run_id
        for run_id in run_ids
        if (run := txn.get_run(run_id)) is not None
        and run.status not in TERMINAL_RUN_STATUSES
        and not (run.lease_owner is not None and run.lease_expires_at > now)
    ]
    txn.prefetch(claimable, events=True)
    claimed = []
    for message in messages:
        claim = claim_run(txn, message.payload.decode(), owner, lease_seconds, now)
        if claim.outcome == "claimed":
            claimed.append((message, claim))
        elif claim.outcome == "busy" and claim.run is not None:
            txn.nack(message.message_id, owner, claim.run.lease_expires_at)
        else:
            txn.ack(message.message_id, owner)
    return claimed


def apply_commit(txn: ViewTxn, commit: Commit, now: float) -> CommitResult:
    """Apply a lease holder's commit, or raise without writing anything."""
    run = txn.get_run(commit.run_id)
    if run is None:
        raise NotFoundError(f"run {commit.run_id!r} does not exist")
    if run.lease_owner != commit.owner or run.lease_epoch != commit.epoch:
        raise FencedError(
            f"run {commit.run_id!r}: lease epoch {commit.epoch} of {commit.owner!r} is stale "
            f"(current epoch {run.lease_epoch}, holder {run.lease_owner!r}); another worker "
            "took the run over"
        )
    if run.status in TERMINAL_RUN_STATUSES:
        raise InvalidTransitionError(f"run {run.run_id!r} is already {run.status!r}")
    if commit.expected_head is not None and run.head != commit.expected_head:
        raise StaleHeadError(run.run_id, commit.expected_head, run.head)
    for child in commit.start_runs:
        create_run(txn, child, now)
    run = _append(txn, run, list(commit.events), now)
    if commit.release and run.status not in TERMINAL_RUN_STATUSES:
        # The holder parks or hands the run back having seen every event before this
        # commit (the head check): wake-ups already waiting are spare. What it still
        # needs (a timer, a hand-back) it enqueues below; whatever is appended later
        # enqueues its own.
        txn.drop_pending(run.queue, run.run_id)
    for message in commit.enqueue:
        txn.enqueue(message, now)
    if commit.ack_message_id is not None:
        txn.ack(commit.ack_message_id, commit.owner)
    if commit.release or run.status in TERMINAL_RUN_STATUSES:
        run = evolve(run, lease_owner=None, lease_expires_at=0.0, updated_at=now)
    elif commit.lease_seconds is not None:
        run = evolve(run, lease_expires_at=now + commit.lease_seconds, updated_at=now)
    else:
        run = evolve(run, updated_at=now)
    txn.update_run(run)
    _cancel_children(txn, run, now)
    return CommitResult(head=run.head, at=now)


def resume_hook(txn: ViewTxn, token: str, payload: bytes, now: float) -> HookRecord:
    """Deliver a payload to the active hook owning `token` and wake its run."""
    check_identifier(token, what="hook token")
    hook = txn.get_hook_by_token(token)
    run = None if hook is None else txn.get_run(hook.run_id)
    if hook is None or run is None or run.status in TERMINAL_RUN_STATUSES:
        raise NotFoundError(
            f"no active hook has token {token!r}; it was never created, or its run ended"
        )
    received = NewEvent(event_type="hook_received", correlation_id=hook.hook_id, payload=payload)
    run = _append(txn, run, [received], now)
    txn.update_run(dataclasses.replace(run, updated_at=now))
    txn.enqueue(wake_message(run, now), now)
    return hook


def cancel_run(txn: ViewTxn, run_id: str, reason: str | None, now: float) -> RunRecord:
    """Cancel at once when no live lease holds the run, else ask its holder to."""
    run = txn.get_run(run_id)
    if run is None:
        raise NotFoundError(f"run {run_id!r} does not exist")
    if run.status in TERMINAL_RUN_STATUSES:
        return run
    attrs: dict[str, Attr] = {"reason": reason}
    if run.lease_owner is not None and run.lease_expires_at > now:
        event = NewEvent(event_type="cancel_requested", attrs=attrs)
        run = _append(txn, run, [event], now)
        txn.enqueue(wake_message(run, now), now)
    else:
        run = _append(txn, run, [NewEvent(event_type="run_cancelled", attrs=attrs)], now)
        run = dataclasses.replace(run, lease_owner=None, lease_expires_at=0.0)
    run = dataclasses.replace(run, updated_at=now)
    txn.update_run(run)
    _cancel_children(txn, run, now)
    return run


def _cancel_children(txn: ViewTxn, run: RunRecord, now: float) -> None:
    """A cancelled run takes its unfinished children (and theirs) with it.

    In the same transaction, and after the run's own row is written: a child that ends
    at once then finds its parent already terminal and does not report to it.
    """
    if run.status != "cancelled":
        return
    for child_id in txn.active_children(run.run_id):
        cancel_run(txn, child_id, f"its parent run {run.run_id!r} was cancelled", now)


# -- event application ---------------------------------------------------------------


def _append(txn: ViewTxn, run: RunRecord, events: list[NewEvent], now: float) -> RunRecord:
    for event in events:
        run = _apply(txn, run, event, now)
    return run


# The hot path of a step commit (`_insert`, the step's own change, the run's final row)
# copies records with `evolve`, not `dataclasses.replace`, which costs twice as much;
# the values there are plainly of their fields' types, which mypy then cannot check.


def _insert(txn: ViewTxn, run: RunRecord, event: NewEvent, now: float) -> RunRecord:
    # Text every backend stores alike (step names, hook tokens, cancel reasons): a value
    # one database refuses must be a refusal everywhere, before anything is written.
    check_attrs(event.attrs, what=f"{event.event_type} event of run {run.run_id!r}")
    # `run_created` is only ever appended to a run that did not exist a moment ago.
    if (
        event.event_type in CREATION_EVENTS
        and event.event_type != "run_created"
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
    kind: EventType = event.event_type
    attrs = event.attrs
    if kind in ("run_completed", "run_failed", "run_cancelled"):
        if run.status in TERMINAL_RUN_STATUSES:
            raise InvalidTransitionError(f"run {run.run_id!r} is already {run.status!r}")
        run = _insert(txn, run, event, now)
        return _finish_run(txn, run, event, now)
    if run.status in TERMINAL_RUN_STATUSES:
        raise InvalidTransitionError(
            f"run {run.run_id!r} is {run.status!r}; {kind!r} cannot be appended"
        )
    if kind == "step_created":
        run = _insert(txn, run, event, now)
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
    if kind in ("step_started", "step_retrying", "step_completed", "step_failed"):
        step = _step(txn, run, event)
        run = _insert(txn, run, event, now)
        if kind == "step_started":
            step = evolve(
                step,
                status="running",
                attempt=_int(attrs, "attempt", step.attempt + 1),
                started_at=now,
                retry_after=None,
            )
        elif kind == "step_retrying":
            retry_after = attrs.get("retry_after")
            step = dataclasses.replace(
                step,
                status="retrying",
                error=event.payload,
                retry_after=float(retry_after) if isinstance(retry_after, int | float) else None,
            )
        elif kind == "step_completed":
            step = evolve(step, status="completed", output=event.payload, completed_at=now)
        else:
            step = dataclasses.replace(step, status="failed", error=event.payload, completed_at=now)
        txn.update_step(step)
        return run
    if kind == "wait_created":
        run = _insert(txn, run, event, now)
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
    if kind == "wait_completed":
        wait = txn.get_wait(run.run_id, str(event.correlation_id))
        if wait is None or wait.completed:
            raise InvalidTransitionError(
                f"wait {event.correlation_id!r} of run {run.run_id!r} is missing or completed"
            )
        run = _insert(txn, run, event, now)
        txn.put_wait(dataclasses.replace(wait, completed=True))
        return run
    if kind == "hook_created":
        token = check_identifier(attrs.get("token"), what="hook token")
        holder = txn.get_hook_by_token(token)
        if holder is not None:
            raise HookTokenInUseError(token, holder.run_id)
        run = _insert(txn, run, event, now)
        txn.insert_hook(
            HookRecord(
                hook_id=str(event.correlation_id),
                run_id=run.run_id,
                token=token,
                slot=_int(attrs, "slot"),
                created_at=now,
            )
        )
        return run
    if kind == "hook_disposed":
        run = _insert(txn, run, event, now)
        txn.delete_hook(str(event.correlation_id))
        return run
    # run_started, cancel_requested, hook_received, child_started, child_completed:
    # log entries whose meaning the engine reads; no view beyond the run's head changes.
    return _insert(txn, run, event, now)


def _finish_run(txn: ViewTxn, run: RunRecord, event: NewEvent, now: float) -> RunRecord:
    status = {"run_completed": "completed", "run_failed": "failed"}.get(
        event.event_type, "cancelled"
    )
    run = dataclasses.replace(
        run,
        status=status,  # type: ignore[arg-type]  # one of the three terminal literals
        output=event.payload if status == "completed" else None,
        error=event.payload if status == "failed" else None,
        completed_at=now,
    )
    for hook in txn.hooks_of_run(run.run_id):
        # Appended after the terminal event: disposal is the one change a terminal run
        # still takes, and it frees the tokens for reuse.
        run = _insert(
            txn, run, NewEvent(event_type="hook_disposed", correlation_id=hook.hook_id), now
        )
        txn.delete_hook(hook.hook_id)
    if run.parent_run_id is not None:
        parent = txn.get_run(run.parent_run_id)
        if parent is not None and parent.status not in TERMINAL_RUN_STATUSES:
            done = NewEvent(
                event_type="child_completed",
                correlation_id=run.run_id,
                attrs={"status": status, "slot": run.parent_slot},
                payload=event.payload,
            )
            parent = _insert(txn, parent, done, now)
            txn.update_run(dataclasses.replace(parent, updated_at=now))
            txn.enqueue(wake_message(parent, now), now)
    return run
