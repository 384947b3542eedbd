"""Spans and metrics of runs and step attempts (OpenTelemetry, see `tether._otel`).

Only live work is traced: a step replayed from the journal runs nothing and emits
nothing. An attempt's span is emitted once its outcome is committed (completed,
retrying, failed); an attempt cut short (a SIGKILL, a lost lease) leaves no outcome,
and the attempt after it emits its span (from its recorded start to the moment it was
found cut short), so every attempt has one span, linked from the next.

Ids (see `tether._otel`): a run's trace is its starter's (the ``tether.traceparent``
label) or derived from its chain's id; its span id is derived from the run's id, and
a step attempt's from (run, slot, attempt). A body may give its attempt another parent
(`reparent`): the agent layer hangs a turn's steps under the turn.
"""

from __future__ import annotations

import functools
import time
from typing import Any

from .. import _otel
from .._otel import _ATTEMPT, AttemptTrace, attempt_span_id, current_attempt, run_span_id
from .._validate import MAX_LABELS
from ..stores import RunRecord

__all__ = [
    "AttemptTrace",
    "begin_attempt",
    "child_labels",
    "count_outage",
    "count_takeovers",
    "current_attempt",
    "end_attempt",
    "leave_attempt",
    "run_ended",
    "run_span_id",
    "run_trace",
    "start_labels",
]


def run_trace(run: RunRecord) -> tuple[int, int | None]:
    """(trace id, parent span id) of `run`'s span: its starter's, or a root of its own."""
    # A run's trace never changes (its label is set as it is created): derived once
    # per run, not once per step.
    key = (run.run_id, run.labels.get(_otel.TRACEPARENT_LABEL), run.chain_id)
    found = _traces.get(key)
    if found is None:
        if len(_traces) >= 4096:
            _traces.clear()
        found = _traces[key] = _derive_trace(run)
    return found


_traces: dict[tuple[str, str | None, str | None], tuple[int, int | None]] = {}


def _derive_trace(run: RunRecord) -> tuple[int, int | None]:
    found = _otel.parse_traceparent(run.labels.get(_otel.TRACEPARENT_LABEL))
    if found is not None:
        return found
    return _otel.trace_id_of("run", run.chain_id or run.run_id), None


def start_labels(labels: dict[str, str]) -> dict[str, str]:
    """`labels` with the caller's ``traceparent``, when tracing is on and a span current."""
    found = _otel.current_traceparent()
    if found is None or _otel.TRACEPARENT_LABEL in labels or len(labels) >= MAX_LABELS:
        return labels
    return {**labels, _otel.TRACEPARENT_LABEL: found}


def child_labels(run: RunRecord) -> dict[str, str]:
    """The labels that put a child run of `run` in `run`'s trace, under its span."""
    if _otel.tracer() is None:
        return {}
    trace_id, _ = run_trace(run)
    return {_otel.TRACEPARENT_LABEL: _otel.traceparent(trace_id, run_span_id(run.run_id))}


def begin_attempt(
    run: RunRecord, workflow: str, slot: int, attempt: int, label: str, interrupted: float | None
) -> AttemptTrace | None:
    """Begin tracing a live attempt; None (and nothing done) when tracing and metrics are off.

    Args:
        run: The run.
        workflow: Its workflow's name.
        slot: The step's slot.
        attempt: This attempt's number.
        label: The step's name.
        interrupted: The recorded start of the attempt before this one, if it was cut
            short (a crash, a lost lease): its span is emitted with this one's.
    """
    traced = _otel.tracer() is not None
    if not traced and not _otel.instruments():
        return None
    trace_id, _ = run_trace(run)
    found = AttemptTrace(
        run_id=run.run_id,
        workflow=workflow,
        slot=slot,
        attempt=attempt,
        label=label,
        trace_id=trace_id,
        parent_id=run_span_id(run.run_id),
        start=time.time(),
        traced=traced,
        run_trace_id=trace_id,
        interrupted=interrupted,
    )
    if traced:
        found.token = _otel._context.attach(found.context())
    found.here = _ATTEMPT.set(found)
    return found


def leave_attempt(found: AttemptTrace) -> None:
    """The attempt's code is done here (its outcome may commit later)."""
    if found.here is not None:
        _ATTEMPT.reset(found.here)
        found.here = None
    if found.token is not None:
        _otel._context.detach(found.token)
        found.token = None


def end_attempt(
    found: AttemptTrace, outcome: str, *, ended: float, error: str | None = None
) -> None:
    """Emit the attempt's span and metrics once its outcome is committed.

    They are made at the event loop's next turn (`_otel.defer`), while the store
    writes what the run does next.

    Args:
        found: The attempt.
        outcome: ``completed``, ``retrying`` or ``failed``.
        ended: When its body ended.
        error: What failed it (the error's summary), if it failed.
    """
    _otel.defer(functools.partial(_emit_attempt, found, outcome, ended, error))


def _emit_attempt(found: AttemptTrace, outcome: str, ended: float, error: str | None) -> None:
    for instruments in _otel.instruments():
        instruments.steps.add(found.workflow, outcome)
        if found.interrupted is not None:
            instruments.steps.add(found.workflow, "interrupted")
        # In a context of no span: the SDK then offers no exemplar, whose sampling
        # would cost as much again as the measurement.
        instruments.step_duration.record(
            max(ended - found.start, 0.0),
            _otel.step_attributes(found.workflow, outcome),
            context=_empty_context(),
        )
    if not found.traced:
        return
    # One dict per span, built once (the SDK copies what it is given).
    attributes = {
        "tether.run.id": found.run_id,
        "tether.workflow": found.workflow,
        "tether.step.name": found.label,
        "tether.step.slot": found.slot,
        "tether.step.attempt": found.attempt,
        "tether.step.outcome": outcome,
    }
    if found.attributes:
        attributes.update(found.attributes)
    if found.interrupted is not None:
        before = found.attempt - 1
        _otel.emit_span(
            f"step {found.label}",
            trace_id=found.trace_id,
            span_id=attempt_span_id(found.run_id, found.slot, before),
            parent_id=found.parent_id,
            start=found.interrupted,
            end=found.start,
            attributes={
                **attributes,
                "tether.step.attempt": before,
                "tether.step.outcome": "interrupted",
            },
            links=_previous(found, before),
            error="the attempt was cut short (a crash or a lost lease)",
        )
    _otel.emit_span(
        f"step {found.label}",
        trace_id=found.trace_id,
        span_id=found.span_id,
        parent_id=found.parent_id,
        start=found.start,
        end=ended,
        attributes=attributes,
        links=_previous(found, found.attempt),
        error=error,
    )


@functools.cache
def _empty_context() -> Any:
    """A context with no span (made once): a measurement in it offers the SDK no exemplar."""
    return _otel._context.Context()


def _previous(found: AttemptTrace, attempt: int) -> list[tuple[int, int, dict[str, Any]]]:
    """The link from attempt `attempt` to the one before it (none for a first)."""
    if attempt <= 1:
        return []
    span_id = attempt_span_id(found.run_id, found.slot, attempt - 1)
    return [(found.trace_id, span_id, {"tether.link": "previous_attempt"})]


def run_ended(
    run: RunRecord, workflow: str, outcome: str, failure: BaseException | None = None
) -> None:
    """Emit a run's span once its end is committed (completed, failed, cancelled, continued)."""
    if _otel.tracer() is None:
        return
    error = None if failure is None else _otel.summary(failure)
    trace_id, parent_id = run_trace(run)
    _otel.emit_span(
        f"run {workflow}",
        trace_id=trace_id,
        span_id=run_span_id(run.run_id),
        parent_id=parent_id,
        start=run.created_at,
        attributes={
            "tether.run.id": run.run_id,
            "tether.workflow": workflow,
            "tether.run.outcome": outcome,
        },
        error=error,
    )


def count_takeovers(freed: int) -> None:
    """Count leases of a dead worker's runs taken over (by `Worker`'s reaper)."""
    if freed:
        for instruments in _otel.instruments():
            instruments.takeovers.add(freed)


def count_outage(what: str) -> None:
    """Count one try again through an outage of `what` (``store``)."""
    for instruments in _otel.instruments():
        instruments.outage_retries.add(1, {"tether.outage": what})
