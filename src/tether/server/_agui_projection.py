"""The AG-UI projection of a session's events onto AG-UI events, one run at a time.

See `tether.server._agui` for the routes; this is the pure part, tested on its own.
Every session event type has its case in `AguiProjection.feed`: shown as AG-UI
events, folded into the projection's state, or listed in `NOT_SHOWN`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, assert_never

import orjson

from ..agent import (
    AuthorizationRequested,
    DynamicFailed,
    EventData,
    InputRequest,
    InputRequested,
    InputResolved,
    MessageCompleted,
    MessageDelta,
    SessionClosed,
    SessionEvent,
    SessionEventType,
    SessionFailed,
    SessionMoved,
    SessionStarted,
    SessionWaiting,
    StateChanged,
    ToolCalled,
    ToolReturned,
    TurnCancelled,
    TurnCompleted,
    TurnFailed,
    TurnStarted,
    TurnSteered,
    TurnWaiting,
)
from ._agui_events import (
    AguiEvent,
    Interrupt,
    RunError,
    RunFinished,
    RunOutcome,
    RunStarted,
    StateDelta,
    StepFinished,
    StepStarted,
    TextMessageContent,
    TextMessageEnd,
    TextMessageStart,
    ToolCallArgs,
    ToolCallEnd,
    ToolCallResult,
    ToolCallStart,
)
from ._wire_events import known_events

__all__ = ["NOT_SHOWN", "RUN_ENDS", "AguiProjection", "agui_events", "ends_run"]

#: Session events that end an AG-UI run (besides ``turn.waiting`` on input).
RUN_ENDS = (TurnCompleted, TurnFailed, TurnCancelled, SessionClosed, SessionFailed)

#: Session events AG-UI has nothing for: the session opening or moving to a new run,
#: going idle (always after a turn's end, so after its run's), a dynamic handler that
#: gave nothing (the operator's concern, in the log and the session's own feed; its
#: error may name internals the user must not see).
NOT_SHOWN: frozenset[SessionEventType] = frozenset(
    {"session.started", "session.moved", "session.waiting", "dynamic.failed"}
)

_APPROVAL_SCHEMA = {
    "type": "object",
    "properties": {"approved": {"type": "boolean"}, "reason": {"type": "string"}},
    "required": ["approved"],
}
_AUTHORIZATION_SCHEMA = {
    "type": "object",
    "properties": {"authorized": {"const": True}},
    "required": ["authorized"],
}


def ends_run(data: EventData) -> bool:
    """Whether a session event with this record ends an AG-UI run."""
    return isinstance(data, RUN_ENDS) or (isinstance(data, TurnWaiting) and data.on == "input")


def _interrupt(request: InputRequest, authorization: AuthorizationRequested | None) -> Interrupt:
    """The AG-UI interrupt of a pending tether request.

    Args:
        request: The request.
        authorization: The ``authorization.required`` event that asked it, if one did
            (its provider and URL are the ones shown).
    """
    if request.kind == "approval":
        return Interrupt(
            id=request.request_id,
            reason="tool_call" if request.call_id else "confirmation",
            tool_call_id=request.call_id or None,
            message=f"Approve {request.tool_name or 'this action'}?",
            response_schema=_APPROVAL_SCHEMA,
            metadata=_metadata(
                request,
                kind="approval",
                toolName=request.tool_name,
                arguments=request.data.get("arguments"),
            ),
        )
    if request.kind == "budget":
        # Raising the budget answers it (an operator's); resuming with a yes checks the
        # budget again, a no fails the turn.
        return Interrupt(
            id=request.request_id,
            reason="input_required",
            message=request.prompt or "The turn waits for more budget.",
            response_schema=_APPROVAL_SCHEMA,
            metadata=_metadata(request, kind="budget", **dict(request.data)),
        )
    if authorization is not None or request.kind == "authorization":
        provider: str | None = request.data.get("provider")
        url: str | None = request.data.get("url")
        if authorization is not None:
            provider, url = authorization.provider, authorization.url
        return Interrupt(
            id=request.request_id,
            reason="input_required",
            message=request.prompt or "Authorize the connection, then resume.",
            response_schema=_AUTHORIZATION_SCHEMA,
            metadata=_metadata(request, kind="authorization", provider=provider, url=url),
        )
    answer: dict[str, Any] = {"type": "string"}
    if request.options:
        # The ids are the answer; the labels are what to show (``oneOf`` keeps both).
        answer["enum"] = list(request.option_ids)
        answer["oneOf"] = [{"const": o.id, "title": o.label} for o in request.options]
    return Interrupt(
        id=request.request_id,
        reason="input_required",
        tool_call_id=request.call_id or None,
        message=request.prompt or None,
        response_schema={
            "type": "object",
            "properties": {"answer": answer},
            "required": ["answer"],
        },
        metadata=_metadata(
            request,
            kind=request.kind,
            display=request.display,
            options=request.to_json()["options"],
        ),
    )


def _metadata(request: InputRequest, **tether: Any) -> dict[str, Any]:
    """An interrupt's ``metadata``: the request as tether knows it, under ``tether``."""
    # tether's requests do not expire (no expiresAt): they wait for their answer.
    tether.update(principal=request.principal, approvers=list(request.approvers))
    return {"tether": {k: v for k, v in tether.items() if v is not None}}


class AguiProjection:
    """Session events (in index order) -> AG-UI events, for one run.

    Every event is folded into the projection's state; events are emitted only once
    the run is *armed*: every marker seen (``sub:<submission id>`` matches the
    ``turn.started``/``turn.steered`` of a message, ``req:<request id>`` the
    ``input.resolved`` of an answer) and the event's index past `after`. Feeding it
    from the turn's ``turn.started`` rebuilds what a dropped stream had already
    shown (open text, announced calls, pending requests), so a continuation from
    any index goes on exactly where the stream stopped.

    Args:
        thread_id: The AG-UI thread (the session id).
        run_id: The AG-UI run id, echoed in ``RUN_FINISHED``.
        markers: Keys that must all be seen before anything is emitted.
        after: Nothing at or before this index is emitted.
    """

    def __init__(
        self,
        thread_id: str,
        run_id: str,
        *,
        markers: frozenset[str] = frozenset(),
        after: int = -1,
    ) -> None:
        self.thread_id = thread_id
        self.run_id = run_id
        self.waiting = set(markers)
        self.after = after
        self.armed = False
        self.text: tuple[str, int | None, int] | None = None  # (message id, step, attempt)
        self.parent: str | None = None  # the reply's text message, for its tool calls
        self.step: str | None = None
        self.next_step: str | None = None
        self.announced: set[str] = set()
        self.requests: dict[str, tuple[InputRequest, AuthorizationRequested | None]] = {}

    def feed(self, event: SessionEvent) -> tuple[list[AguiEvent], bool]:
        """The AG-UI events of one session event, and whether the run ends with it."""
        data, meta, index = event.data, event.meta, event.index
        ends = ends_run(data)
        # The markers first: the event that arms the run is shown from the armed state.
        if isinstance(data, TurnStarted | TurnSteered) and data.submission_id:
            self.waiting.discard("sub:" + data.submission_id)
        elif isinstance(data, InputResolved):
            self.waiting.discard("req:" + data.request_id)
        elif isinstance(data, RUN_ENDS):
            # No request outlives its turn (a workflow tool's question may end with it
            # unresolved, when the turn is cancelled).
            self.waiting = {m for m in self.waiting if not m.startswith("req:")}
        if not self.armed and not self.waiting and index > self.after:
            self.armed = True
            if self.after < 0:
                # A new run: the client saw nothing of what came before.
                self.text = self.step = self.next_step = self.parent = None
        head: list[AguiEvent] = []
        if meta.step_index is not None and not ends and not isinstance(data, TurnWaiting):
            # A durable step of the turn is an AG-UI step, opened by its first event
            # that shows something.
            name = f"{meta.turn_id}/step-{meta.step_index}"
            if name not in (self.step, self.next_step):
                head.extend(self._close_step())
                self.parent = None
                self.next_step = name
        out: list[AguiEvent] = []
        match data:
            case SessionStarted() | SessionMoved() | SessionWaiting() | DynamicFailed():
                pass  # NOT_SHOWN
            case TurnStarted() | TurnSteered():
                pass  # folded: its marker (above)
            case MessageDelta():
                coords = (meta.step_index, meta.attempt)
                if self.text is not None and self.text[1:] != coords:
                    # Another attempt streams the reply again: a message of its own.
                    out.extend(self._close_text())
                if self.text is None:
                    self.text = (self._start_text(index, out), *coords)
                out.append(TextMessageContent(message_id=self.text[0], delta=data.text))
            case MessageCompleted():
                if self.text is None and data.text:
                    # No deltas streamed (an adopted reply): the whole text at once.
                    message_id = self._start_text(index, out)
                    out.append(TextMessageContent(message_id=message_id, delta=data.text))
                    out.append(TextMessageEnd(message_id=message_id))
                out.extend(self._close_text())
            case ToolCalled():
                out.extend(self._announce(data.call_id, data.name, data.arguments))
            case ToolReturned():
                out.extend(self._close_text())
                tether = {"outcome": data.outcome, "isError": data.is_error}
                out.append(
                    ToolCallResult(
                        message_id=f"{data.call_id}:result",
                        tool_call_id=data.call_id,
                        content=data.content,
                        metadata={"tether": tether},
                    )
                )
            case StateChanged():
                # RFC 6902 paths: "~" and "/" in a key are escaped ("add" replaces).
                ops = [
                    {"op": "add", "path": "/" + k.replace("~", "~0").replace("/", "~1"), "value": v}
                    for k, v in data.values.items()
                ]
                out.append(StateDelta(delta=ops))
            case InputRequested() | AuthorizationRequested():
                request = data.request
                asked = data if isinstance(data, AuthorizationRequested) else None
                self.requests[request.request_id] = (request, asked)
                if request.kind == "approval" and request.call_id:
                    # A call that needs approval is shown by its request: the UI shows
                    # the call, then the interrupt that asks about it.
                    arguments = request.data.get("arguments")
                    name = request.tool_name or "tool"
                    out.extend(self._announce(request.call_id, name, arguments))
            case InputResolved():
                self.requests.pop(data.request_id, None)
            case TurnWaiting(on="input"):
                interrupts = tuple(
                    _interrupt(*self.requests[r])
                    if r in self.requests
                    else Interrupt(id=r, reason="input_required")
                    for r in data.request_ids
                )
                out.extend(self._finished(RunOutcome(type="interrupt", interrupts=interrupts)))
            case TurnWaiting():
                pass  # on sub-agent tasks: the run goes on when they report
            case TurnCompleted():
                out.extend(self._finished(RunOutcome(type="success")))
            case TurnCancelled() | SessionClosed():
                out.extend(self._finished(RunOutcome(type="cancelled")))
            case TurnFailed():
                out.extend(self._close_step())
                out.append(
                    RunError(
                        message=data.error or "the turn failed", code=data.code or "turn_failed"
                    )
                )
            case SessionFailed():
                out.extend(self._close_step())
                message = data.error or "the session failed"
                out.append(RunError(message=message, code="session_failed"))
            case _:
                assert_never(data)
        if out and not ends and self.step is None and self.next_step is not None:
            self.step, self.next_step = self.next_step, None
            head.append(StepStarted(step_name=self.step))
        if not self.armed:
            if ends:
                self.requests.clear()
            return [], False
        return head + out, ends

    def ended(self) -> list[AguiEvent]:
        """What ends a stream whose session events stopped before the run's end."""
        return [
            *self._close_step(),
            RunError(
                message="the session's event stream ended before the run did",
                code="stream_ended",
            ),
        ]

    def _start_text(self, index: int, out: list[AguiEvent]) -> str:
        """Open the reply's text message (its start appended to `out`); its id."""
        message_id = self.parent = f"{self.thread_id}:{index}"
        out.append(TextMessageStart(message_id=message_id))
        return message_id

    def _close_text(self) -> list[AguiEvent]:
        if self.text is None:
            return []
        message_id, self.text = self.text[0], None
        return [TextMessageEnd(message_id=message_id)]

    def _close_step(self) -> list[AguiEvent]:
        out = self._close_text()
        if self.step is not None:
            out.append(StepFinished(step_name=self.step))
        self.step = self.next_step = None
        return out

    def _announce(self, call_id: str, name: str, arguments: Any) -> list[AguiEvent]:
        if call_id in self.announced:
            return []
        self.announced.add(call_id)
        return [
            *self._close_text(),
            ToolCallStart(tool_call_id=call_id, tool_call_name=name, parent_message_id=self.parent),
            ToolCallArgs(tool_call_id=call_id, delta=orjson.dumps(arguments or {}).decode()),
            ToolCallEnd(tool_call_id=call_id),
        ]

    def _finished(self, outcome: RunOutcome) -> list[AguiEvent]:
        return [
            *self._close_step(),
            RunFinished(thread_id=self.thread_id, run_id=self.run_id, outcome=outcome),
        ]


def agui_events(
    events: Iterable[Mapping[str, Any]], thread_id: str = "t", run_id: str = "r"
) -> list[dict[str, Any]]:
    """The AG-UI events (their JSON) of session events in wire form, up to the run's end.

    An event of a type this version does not define is skipped with a warning.

    Raises:
        SerializationError: An event does not fit its record.
    """
    projection = AguiProjection(thread_id, run_id)
    out: list[AguiEvent] = [RunStarted(thread_id=thread_id, run_id=run_id)]
    for event in known_events(events, "AG-UI"):
        parts, end = projection.feed(event)
        out.extend(parts)
        if end:
            return [e.to_json() for e in out]
    return [e.to_json() for e in [*out, *projection.ended()]]
