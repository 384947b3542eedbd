"""Spans and metrics of turns, model calls and tool calls (OpenTelemetry GenAI conventions).

A turn's span (``invoke_agent <agent>``) has its id derived from the turn's id and
its parent in the trace of the request that admitted the turn's message (the
``traceparent`` the message carries in its ledger payload), else under the session
run's span. The turn's steps hang under it (`adopt_turn`), and each model call
(``chat <model>``) and tool call (``execute_tool <tool>``) under the step attempt that
made it. Model and tool spans are emitted live as the calls end; the turn's once the
commit that ends it lands. Nothing is emitted by a step replayed from the journal: it
calls no model and runs no tool.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Protocol

from ... import _otel, durable
from ..._otel import current_attempt, run_span_id
from .._records._cursor import Cursor, TurnState
from .._stored._mail import Mail

if TYPE_CHECKING:
    from ..models import ModelResponse


class _Named(Protocol):
    @property
    def name(self) -> str: ...


class StepWork(Protocol):
    """What the spans of a turn read of a turn step's work (`_work.StepWork`)."""

    @property
    def turn(self) -> TurnState | None: ...

    @property
    def mail(self) -> Mail: ...

    @property
    def agent(self) -> _Named: ...

    @property
    def cursor(self) -> Cursor: ...


__all__ = [
    "TRACEPARENT_KEY",
    "adopt_turn",
    "message_traceparent",
    "model_span",
    "timer_wait_ended",
    "tool_outage",
    "tool_span",
    "traced",
    "turn_ended",
    "turn_start",
    "wait_ended",
]

#: The key of a message's ledger payload that carries the admitting caller's
#: ``traceparent`` (idempotent admission compares payloads without it).
TRACEPARENT_KEY = "traceparent"


def message_traceparent() -> str | None:
    """The ``traceparent`` a message admitted now carries (the caller's current span)."""
    return _otel.current_traceparent()


def turn_span_id(turn_id: str) -> int:
    """The span id of turn `turn_id`'s span."""
    return _otel.span_id_of("turn", turn_id)


def _turn_parent(work: StepWork, run_trace_id: int, run_id: str) -> tuple[int, int, float | None]:
    """(trace id, parent span id, start) of the turn in progress."""
    turn = work.turn
    assert turn is not None
    for message in work.mail.messages:
        if message.submission_id == turn.submission_id:
            found = _otel.parse_traceparent(message.traceparent)
            if found is not None:
                return found[0], found[1], message.started_at
            return run_trace_id, run_span_id(run_id), message.started_at
    return run_trace_id, run_span_id(run_id), None


def adopt_turn(work: StepWork) -> None:
    """Hang the running step attempt under the span of its turn (when traced)."""
    attempt = current_attempt()
    if attempt is None or work.turn is None:
        return
    trace_id, _, _ = _turn_parent(work, attempt.run_trace_id, attempt.run_id)
    turn = work.turn
    attempt.reparent(
        trace_id,
        turn_span_id(turn.turn_id),
        **{
            "gen_ai.agent.name": work.agent.name,
            "tether.session.id": work.cursor.session_id,
            "tether.turn.id": turn.turn_id,
            "tether.turn.step_index": turn.step_index,
        },
    )


def traced() -> bool:
    """Whether the running step attempt is traced (its spans are made)."""
    attempt = current_attempt()
    return attempt is not None and attempt.traced


def turn_start() -> float:
    """When a turn begun now starts: its step attempt's start (traced), else now.

    The message's own start is the commit that claimed it, after that step's first
    model call: a turn's span starting there would begin after its first children.
    """
    attempt = current_attempt()
    return attempt.start if attempt is not None else time.time()


def turn_ended(work: StepWork, outcome: str, error: str | None) -> None:
    """Emit the turn's span and metrics once the step that ends it has committed."""
    attempt = current_attempt()
    turn = work.turn
    if attempt is None or turn is None:
        return
    trace_id, parent_id, started = _turn_parent(work, attempt.run_trace_id, attempt.run_id)
    start = turn.started_at or (started if started is not None else attempt.start)
    agent = work.agent.name
    session_id = work.cursor.session_id
    steps = turn.steps + 1
    traced = attempt.traced

    def landed() -> None:
        end = time.time()
        metric = {"gen_ai.agent.name": agent, "tether.turn.outcome": outcome}
        for instruments in _otel.instruments():
            instruments.turns.add(1, metric)
            instruments.turn_duration.record(max(end - start, 0.0), metric)
        if not traced:
            return
        _otel.emit_span(
            f"invoke_agent {agent}",
            trace_id=trace_id,
            span_id=turn_span_id(turn.turn_id),
            parent_id=parent_id,
            start=start,
            end=end,
            attributes={
                "gen_ai.operation.name": "invoke_agent",
                "gen_ai.agent.name": agent,
                "tether.session.id": session_id,
                "tether.turn.id": turn.turn_id,
                "tether.turn.outcome": outcome,
                "tether.turn.steps": steps,
            },
            error=None if outcome in ("completed", "cancelled") else (error or outcome),
        )

    durable.after_commit(landed)


def wait_span_id(turn_id: str, parked_at: float, *key: str) -> int:
    """The span id of turn `turn_id`'s wait that began at `parked_at` (`key`: which one)."""
    return _otel.span_id_of("wait", turn_id, repr(parked_at), *key)


def _emit_wait(
    work: StepWork,
    turn_id: str,
    on: str,
    span_id: int,
    span: tuple[float, float],
    attributes: dict[str, Any],
) -> None:
    """Emit the span ``wait <on>``, under turn `turn_id`'s, once this step commits."""
    attempt = current_attempt()
    if attempt is None or not attempt.traced:
        return
    trace_id, _, _ = _turn_parent(work, attempt.run_trace_id, attempt.run_id)
    start, end = span
    attributes = {
        "tether.session.id": work.cursor.session_id,
        "tether.turn.id": turn_id,
        "tether.wait.on": on,
        "gen_ai.agent.name": work.agent.name,
        **attributes,
    }

    def landed() -> None:
        _otel.emit_span(
            f"wait {on}",
            trace_id=trace_id,
            span_id=span_id,
            parent_id=turn_span_id(turn_id),
            start=start,
            end=max(end, start),
            attributes=attributes,
        )

    durable.after_commit(lambda: _otel.defer(landed))


def wait_ended(
    work: StepWork,
    parked: TurnState,
    on: str,
    parked_at: float,
    resumed_at: float,
    outcome: str,
    request_ids: tuple[str, ...] | None = None,
) -> None:
    """Emit the span of a parked turn's wait (``wait <on>``) once this step commits.

    Its start is the park's (journaled: `TurnState.parked_at`, the ``turn.waiting``
    event's time), its end the resumption's: any worker that resumes the turn emits
    the same span, and a step replayed from the journal emits nothing (it runs no
    code, so registers no callback).
    """
    ids = parked.requests if request_ids is None else request_ids
    attributes = {"tether.wait.outcome": outcome, "tether.wait.request_ids": list(ids)}
    span_id = wait_span_id(parked.turn_id, parked_at)
    _emit_wait(work, parked.turn_id, on, span_id, (parked_at, resumed_at), attributes)


def timer_wait_ended(
    work: StepWork,
    on: str,
    call_id: str,
    span: tuple[float, float],
    outcome: str,
    attributes: dict[str, Any],
) -> None:
    """Emit the span of a workflow tool's durable sleep or sub-agent task (``wait <on>``).

    `span` is (start, end): the start is durable (a sleep's is the workflow's clock
    when it began, `WorkflowContext.now`, the same on every replay; a task's its run's
    creation), the end the time the step that found the wait over ran. Only that
    step's live run emits it, once it commits: a worker killed during the wait leaves
    it to the worker that finds the wait over, and a replay runs no step code.
    """
    turn = work.turn
    assert turn is not None
    span_id = wait_span_id(turn.turn_id, span[0], on, call_id)
    extra = {"tether.wait.outcome": outcome, "gen_ai.tool.call.id": call_id, **attributes}
    _emit_wait(work, turn.turn_id, on, span_id, span, extra)


def _provider_and_model(name: str) -> tuple[str, str]:
    provider, _, model = name.partition(":")
    return (provider, model) if model else ("unknown", name)


class _ModelSpan:
    """The span of one live model call, and its token metrics."""

    __slots__ = ("attributes", "span")

    def __init__(self, span: Any, attributes: dict[str, Any]) -> None:
        self.span = span
        self.attributes = attributes

    def finished(self, response: ModelResponse | None) -> None:
        span = self.span
        if response is not None:
            usage = response.usage
            reason = response.provider_stop_reason or response.stop_reason
            found = {
                "gen_ai.response.model": response.model or self.attributes["gen_ai.request.model"],
                "gen_ai.usage.input_tokens": usage.input_tokens,
                "gen_ai.usage.output_tokens": usage.output_tokens,
                "gen_ai.usage.cache_read.input_tokens": usage.cached_tokens,
                "gen_ai.response.finish_reasons": [str(reason)],
            }
            if response.response_id:
                found["gen_ai.response.id"] = response.response_id
            metric = {**self.attributes, "gen_ai.response.model": found["gen_ai.response.model"]}
            for instruments in _otel.instruments():
                instruments.tokens.record(
                    usage.input_tokens, {**metric, "gen_ai.token.type": "input"}
                )
                instruments.tokens.record(
                    usage.output_tokens, {**metric, "gen_ai.token.type": "output"}
                )
            if span is not None:
                span.set_attributes(found)
        if span is not None:
            span.end()

    def failed(self, error: BaseException) -> None:
        span = self.span
        if span is None:
            return
        if isinstance(error, Exception):
            span.set_attribute("error.type", type(error).__qualname__)
            span.set_status(
                _otel._trace.Status(_otel._trace.StatusCode.ERROR, _otel.summary(error))
            )
        else:  # cancelled: the turn was cancelled or steered mid-generation
            span.set_attribute("tether.model.interrupted", True)
        span.end()


def model_span(model_name: str) -> _ModelSpan | None:
    """Begin the span of a model call now (None when tracing and metrics are off)."""
    attempt = current_attempt()
    if attempt is None:
        return None
    provider, model = _provider_and_model(model_name)
    attributes: dict[str, Any] = {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": provider,
        "gen_ai.system": provider,
        "gen_ai.request.model": model,
    }
    span = None
    tracer = _otel.tracer() if attempt.traced else None
    if tracer is not None:
        span = tracer.start_span(
            f"chat {model}",
            context=attempt.context(),
            kind=_otel._trace.SpanKind.CLIENT,
            attributes=attributes,
        )
    return _ModelSpan(span, attributes)


@contextlib.contextmanager
def tool_span(name: str, call_id: str) -> Iterator[None]:
    """The span of a tool call, current while the tool runs (nothing when untraced)."""
    attempt = current_attempt()
    tracer = _otel.tracer() if attempt is not None and attempt.traced else None
    if tracer is None or attempt is None:
        yield
        return
    with tracer.start_as_current_span(
        f"execute_tool {name}",
        context=attempt.context(),
        attributes={
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": name,
            "gen_ai.tool.call.id": call_id,
            "gen_ai.tool.type": "function",
        },
    ):
        yield


def tool_outage(count: int) -> None:
    """Count a turn step's attempt that fails for tools' outages (and is retried)."""
    for instruments in _otel.instruments():
        instruments.outage_retries.add(count, {"tether.outage": "tool"})
