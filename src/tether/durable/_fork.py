"""Fork and resume: a new run from another run's journal, up to a slot.

A fork is a new run of the same workflow whose journal holds copies of the original's
operations before the fork point (`from_step`, a slot of the journal), so a worker
replays them — no step body runs again — and goes on from the fork point with
whatever code its registry now holds. The original run is only read.

What a fork copies, per operation before the fork point:

- a step that ended (completed, or failed and raised into the body): its input, its
  last attempt number and its outcome, under a new step id. A step that had not ended
  (still running, or waiting for a retry) is left out: it runs afresh, as attempt 1,
  when replay reaches its slot.
- a sleep: its deadline, and its end when it ended. A sleep not yet over ends in the
  fork when it would have ended in the original.
- a hook: under a new token (two runs never share one; `Client.hooks` lists the
  fork's), with the payloads it had received when the operation at the fork point was
  asked for — never what was sent to the original later — and its disposal if that
  came first. A hook the body could not create (its token was taken) is copied as the
  same refusal.
- a child run that ended: its outcome. The child run itself stays the original's;
  the fork does not run it again. A child run that had not ended is left out: the
  fork starts its own child when replay reaches the slot (a child run id the body
  names explicitly is then taken, and the fork's body is told so, as for any run).
- a refused ``continue_as_new``: the refusal.

Runs of tether's own workflows (names starting ``tether.``: agent sessions, sub-agent
tasks, the scheduler) are not forked: their steps' outputs hold the run's addresses (a
session's transcript producer and inbox, a schedule's ticks), which a replayed fork
would share with the original.

Never copied: the original's end, its cancel request, hooks moved to it that no slot
adopted, its streams (chunks are not journaled by slot: the fork's streams start
empty) and its labels ``tether.traceparent`` (the fork joins the caller's trace).

The fork and its copies are written in one store transaction (`WorkflowStore.fork_run`):
a crash leaves either no fork or the whole fork.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from .._codec import decode, digest, encode
from .._ids import new_token, new_ulid
from .._otel import TRACEPARENT_LABEL
from .._validate import check_identifier, check_labels
from .._version import ENGINE_VERSION
from ..errors import ForkError, NotFoundError
from ..stores import (
    FORK_SLOT_LABEL,
    FORKED_FROM_LABEL,
    EventKind,
    EventRecord,
    NewEvent,
    NewRun,
    RunFork,
    RunLog,
    RunRecord,
    event_kind,
)
from ._registry import Registry, queue_name
from ._tracing import start_labels

__all__ = ["RESUMABLE_RUN_STATUSES", "fork_point", "fork_run", "plan_fork", "resume_point"]

#: The statuses of runs `Client.resume` takes up again.
RESUMABLE_RUN_STATUSES: frozenset[str] = frozenset({"failed", "cancelled"})

_TAG_PREFIX = "step//tether@"
#: The prefix of tether's own workflows (sessions, sub-agent tasks, the scheduler).
_OWN_PREFIX = "tether."


def _untagged(name: str) -> str:
    """``charge`` for ``step//tether@0.1.0//charge``."""
    if name.startswith(_TAG_PREFIX):
        return name[len(_TAG_PREFIX) :].partition("//")[2]
    return name


@dataclasses.dataclass(slots=True)
class _Op:
    slot: int
    placed: EventRecord
    later: list[EventRecord] = dataclasses.field(default_factory=list)


def _operations(events: Sequence[EventRecord]) -> dict[int, _Op]:
    """The run's operations by slot: the event that placed each, and its later events."""
    ops: dict[int, _Op] = {}
    by_correlation: dict[str, _Op] = {}
    for event in events:
        slot = event.attrs.get("slot")
        corr = event.correlation_id or ""
        kind = event_kind(event.event_type)
        if kind.places and isinstance(slot, int):
            op = by_correlation.get(corr)
            if _placed(kind, "hook") and op is not None:
                # A hook moved here (continue-as-new) and adopted at this slot: what it
                # received before the adoption is this slot's too.
                ops[slot] = _Op(slot=slot, placed=event, later=op.later)
            else:
                ops[slot] = _Op(slot=slot, placed=event)
            by_correlation[corr] = ops[slot]
        elif kind.subject == "hook" and kind.view == "continuation":  # moved here
            by_correlation[corr] = _Op(slot=0, placed=event)
        elif corr in by_correlation and kind.run_status is None:
            by_correlation[corr].later.append(event)
    return ops


def _placed(kind: EventKind, subject: str) -> bool:
    """Whether `kind` places an operation of `subject` (not a refusal the body was told)."""
    return kind.places and not kind.refusal and kind.subject == subject


def _ends(event: EventRecord) -> bool:
    """Whether a later event of an operation is its end (a step's, a timer's, a child's)."""
    kind = event_kind(event.event_type)
    return (
        kind.step_status in ("completed", "failed")
        or kind.view == "wait_complete"
        or kind.payload == "child.result"
    )


def fork_point(run: RunRecord, events: Sequence[EventRecord], from_step: int | str) -> int:
    """The slot `from_step` names in the run's journal (a slot, or a step's name).

    Raises:
        ForkError: It is not a slot from 1 to one past the last operation, or no step
            of the run has that name.
    """
    ops = _operations(events)
    last = max(ops, default=0)
    if isinstance(from_step, str):
        for slot in sorted(ops):
            placed = ops[slot].placed
            if _placed(event_kind(placed.event_type), "step") and from_step in (
                _untagged(str(placed.attrs.get("name"))),
                placed.attrs.get("name"),
            ):
                return slot
        names = sorted(
            {
                _untagged(str(op.placed.attrs.get("name")))
                for op in ops.values()
                if _placed(event_kind(op.placed.event_type), "step")
            }
        )
        raise ForkError(
            run.run_id,
            f"it has no step named {from_step!r} (its steps: {', '.join(names) or 'none'}); "
            "pass a step name it has, or a slot",
        )
    if isinstance(from_step, bool) or not isinstance(from_step, int):
        raise ForkError(
            run.run_id, f"from_step must be a slot (an int) or a step name, not {from_step!r}"
        )
    if not 1 <= from_step <= last + 1:
        raise ForkError(
            run.run_id,
            f"from_step {from_step} is out of range: its journal holds {last} operation"
            f"{'' if last == 1 else 's'}, so a fork starts at slot 1 to {last + 1} "
            f"({last + 1} replays them all)",
        )
    return from_step


def resume_point(run: RunRecord, events: Sequence[EventRecord]) -> int:
    """Where a failed or cancelled run resumes: at the operations it ended on.

    The trailing operations that did not end well — the step whose failure failed the
    run, the steps, sleeps and child runs a cancel cut short — are where a resume
    starts (the first of them); when the last operation ended well (the body raised
    after it), one past it. Every operation before is copied, so nothing that completed
    runs again.
    """
    ops = _operations(events)
    point = max(ops, default=0) + 1
    for slot in sorted(ops, reverse=True):
        if _ended_well(ops[slot]):
            break
        point = slot
    return point


def _ended_well(op: _Op) -> bool:
    kind = event_kind(op.placed.event_type)
    if any(_placed(kind, subject) for subject in ("step", "wait", "child")):
        # Its end, and a good one: a step's completion, a timer's, a child's end.
        return any(_ends(e) and event_kind(e.event_type).step_status != "failed" for e in op.later)
    return True  # a hook (replayed, then waited on again) or a recorded refusal


def _cut(ops: Mapping[int, _Op], events: Sequence[EventRecord], from_slot: int) -> int:
    """The log position of the fork point: where the operation at `from_slot` was asked.

    Past the last operation, the run's end (or its head when it has not ended).
    """
    later = [op.placed.slot for s, op in ops.items() if s >= from_slot]
    if later:
        return min(later)
    ends = [e.slot for e in events if event_kind(e.event_type).run_status is not None]
    return min(ends) if ends else (events[-1].slot + 1 if events else 1)


def plan_fork(events: Sequence[EventRecord], from_slot: int) -> tuple[NewEvent, ...]:
    """The events that give a new run the operations before `from_slot` (see the module)."""
    ops = _operations(events)
    cut = _cut(ops, events, from_slot)
    out: list[NewEvent] = []
    for slot in sorted(s for s in ops if s < from_slot):
        out.extend(_copy(ops[slot], cut))
    return tuple(out)


def _copy(op: _Op, cut: int) -> list[NewEvent]:
    placed = op.placed
    kind = event_kind(placed.event_type)
    attrs = dict(placed.attrs)
    if _placed(kind, "step"):
        end = next((e for e in op.later if _ends(e)), None)
        if end is None:
            return []  # not ended: it runs afresh in the fork
        step_id = new_ulid("step_")
        tries = [e.attrs.get("attempt") for e in op.later if _starts_attempt(e)]
        attempts = [a for a in tries if isinstance(a, int)]
        attrs["attempt"] = max([int(attrs.get("attempt") or 1), *attempts])
        return [
            NewEvent(
                event_type=kind.name, correlation_id=step_id, attrs=attrs, payload=placed.payload
            ),
            _again(end, step_id),
        ]
    if _placed(kind, "wait"):
        wait_id = new_ulid("wait_")
        copied = [NewEvent(event_type=kind.name, correlation_id=wait_id, attrs=attrs)]
        end = next((e for e in op.later if _ends(e)), None)
        if end is not None:  # its completion, which carries nothing
            copied.append(NewEvent(event_type=end.event_type, correlation_id=wait_id))
        return copied
    if _placed(kind, "hook"):
        hook_id = new_ulid("hook_")
        attrs["token"] = new_token()
        copied = [NewEvent(event_type=kind.name, correlation_id=hook_id, attrs=attrs)]
        for event in op.later:
            # Its payloads and its disposal; the later events a fork copies.
            later = event_kind(event.event_type)
            if event.slot < cut and later.forked and not later.places:
                copied.append(_again(event, hook_id))
        return copied
    if kind.subject == "hook":  # a conflict the body was told
        return [NewEvent(event_type=kind.name, correlation_id=new_ulid("hook_"), attrs=attrs)]
    if _placed(kind, "child"):
        end = next((e for e in op.later if _ends(e)), None)
        if end is None:
            return []  # not ended: the fork starts its own child at this slot
        corr = placed.correlation_id
        return [
            NewEvent(event_type=kind.name, correlation_id=corr, attrs=attrs),
            _again(end, corr),
        ]
    # A child refused, a continuation refused: the refusal the body was told, told again.
    return [NewEvent(event_type=kind.name, correlation_id=placed.correlation_id, attrs=attrs)]


def _starts_attempt(event: EventRecord) -> bool:
    kind = event_kind(event.event_type)
    return kind.view == "step_change" and kind.step_slot is None


def _again(event: EventRecord, correlation_id: str | None) -> NewEvent:
    """A later event of an operation, copied for the fork's own copy of it."""
    return NewEvent(
        event_type=event.event_type,
        correlation_id=correlation_id,
        attrs=dict(event.attrs),
        payload=event.payload,
    )


async def fork_run(
    store: RunLog,
    registry: Registry | None,
    run_id: str,
    *,
    from_step: int | str | None,
    new_run_id: str | None,
    arguments: dict[str, Any] | None,
    labels: Mapping[str, str] | None,
    resume: bool = False,
) -> RunRecord:
    """Fork `run_id` (see the module); with `resume`, from its resume point.

    Raises:
        NotFoundError: No run has that id.
        ForkError: The fork point is not one of its journal, its input was deleted, or
            (`resume`) it did not fail and was not cancelled.
        UnknownWorkflowError: `registry` has no workflow of the run's name.
    """
    check_identifier(run_id, what="run_id")
    if new_run_id is not None:
        check_identifier(new_run_id, what="new run id")
    source = await store.get_run(run_id)
    if source is None:
        raise NotFoundError(f"run {run_id!r} does not exist")
    if source.workflow_name.startswith(_OWN_PREFIX):
        # Their steps' outputs hold addresses of the run's own (a session's transcript
        # producer and inbox, a schedule's ticks): a fork replaying them would write
        # through the original's.
        raise ForkError(
            run_id,
            f"it is a run of tether's own workflow {source.workflow_name!r} (an agent "
            "session, a sub-agent task or a scheduler), whose steps hold its transcript, "
            "inbox or schedule; only runs of your workflows fork",
        )
    if resume and source.status not in RESUMABLE_RUN_STATUSES:
        raise ForkError(
            run_id,
            f"it is {source.status!r}: only a failed or cancelled run resumes; "
            "fork it from a step instead (Client.fork)",
        )
    events = await store.list_events(run_id)
    if from_step is not None:
        slot = fork_point(source, events, from_step)
    elif resume:
        slot = resume_point(source, events)
    else:
        raise ForkError(run_id, "a fork needs from_step: a slot or a step name")
    new = _new_run(registry, source, slot, new_run_id, arguments, labels, resume)
    copied = plan_fork(events, slot)
    if any(event_kind(e.event_type).step_slot == "output" and e.payload is None for e in copied):
        # A step's output is always written (None is encoded too): this one was deleted.
        raise ForkError(
            run_id,
            "the outputs of its steps were deleted (retention), so they cannot be "
            "replayed; fork it from slot 1",
        )
    run, _ = await store.fork_run(
        RunFork(run=new, source_run_id=run_id, from_slot=slot, events=copied)
    )
    return run


def _new_run(
    registry: Registry | None,
    source: RunRecord,
    slot: int,
    new_run_id: str | None,
    arguments: dict[str, Any] | None,
    labels: Mapping[str, str] | None,
    resume: bool,
) -> NewRun:
    name = source.workflow_name
    if arguments is not None:
        payload = encode(arguments, what=f"input of {name!r}")
    elif source.input is None:
        raise ForkError(
            source.run_id, "its input was deleted (retention): pass the input for the fork"
        )
    else:
        payload = source.input
        arguments = decode(payload, what=f"input of run {source.run_id!r}")
    deployment, engine_version, queue = source.deployment, source.engine_version, source.queue
    if registry is not None:
        registry.get(name)  # the new code must hold the workflow
        deployment, engine_version = registry.deployment, ENGINE_VERSION
        queue = queue_name(ENGINE_VERSION, deployment)
    kept = {k: v for k, v in source.labels.items() if k != TRACEPARENT_LABEL}
    merged = {**kept, **check_labels(labels, what="labels of the fork")}
    merged.pop(FORKED_FROM_LABEL, None)
    merged.pop(FORK_SLOT_LABEL, None)
    if new_run_id is None:
        # A resume has one id per (run, fork point): asking again finds the same run
        # instead of starting the failed step a second time.
        new_run_id = f"{source.run_id}.resumed-{slot}" if resume else new_ulid("run_")
    return NewRun(
        run_id=new_run_id,
        workflow_name=name,
        input=payload,
        input_digest=digest(arguments),
        deployment=deployment,
        engine_version=engine_version,
        queue=queue,
        labels=start_labels(merged),
    )
