"""The AI SDK projection of a session's events onto UI parts, one response at a time.

See `tether.server._aisdk` for the routes; this is the pure part, tested on its own.
Every session event type has its case in `UiProjection.parts`: shown as UI parts, or
listed in `NOT_SHOWN`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, assert_never

from ..agent import (
    AuthorizationRequested,
    DynamicFailed,
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
from ._aisdk_parts import (
    Abort,
    DataPart,
    ErrorPart,
    Finish,
    FinishReason,
    FinishStep,
    Start,
    StartStep,
    TextDelta,
    TextEnd,
    TextStart,
    ToolApprovalRequest,
    ToolInputAvailable,
    ToolOutputAvailable,
    ToolOutputDenied,
    ToolOutputError,
    UiPart,
)
from ._wire_events import known_events

__all__ = ["NOT_SHOWN", "UiProjection", "ui_parts"]

#: Session events the AI SDK's UI message has no part for: the session opening or
#: moving to a new run, going idle, a message joining the turn (the client that sent it
#: shows it), an answer recorded (the answered call's result shows it), a state change
#: (the turn's end carries the whole state as ``data-tether-state``), a dynamic handler
#: that gave nothing (the operator's concern, in the log and the session's own feed;
#: its error may name internals the user must not see).
NOT_SHOWN: frozenset[SessionEventType] = frozenset(
    {
        "session.started",
        "session.moved",
        "session.waiting",
        "turn.steered",
        "input.resolved",
        "state.changed",
        "dynamic.failed",
    }
)


class UiProjection:
    """Session events (in index order) -> UI parts, for one response: a turn or its rest.

    Args:
        opened: The client's assistant message is open already (a response to answered
            approvals goes on with it): no ``start`` part.
        announced: Tool calls the client's message holds already, not announced again.
    """

    def __init__(self, *, opened: bool = False, announced: Iterable[str] = ()) -> None:
        self.started = opened
        self.step_open = False
        self.text_id: str | None = None
        self.texts = 0
        self.announced: set[str] = set(announced)

    def parts(self, event: SessionEvent) -> tuple[list[UiPart], bool]:
        """The UI parts of one event, and whether the response ends after them."""
        turn_id = event.meta.turn_id
        data = event.data
        match data:
            case (
                SessionStarted()
                | SessionMoved()
                | SessionWaiting()
                | TurnSteered()
                | InputResolved()
                | StateChanged()  # the turn's end carries the state (data-tether-state)
                | DynamicFailed()
            ):
                return [], False  # NOT_SHOWN
            case TurnStarted():
                return self._open(turn_id), False
            case MessageDelta():
                out = self._open(turn_id)
                text_id = self.text_id
                if text_id is None:
                    text_id = self._start_text(turn_id, out)
                out.append(TextDelta(id=text_id, delta=data.text))
                return out, False
            case MessageCompleted():
                out = self._open(turn_id)
                if self.text_id is None and data.text:
                    # No deltas streamed (an adopted reply): the whole text at once.
                    text_id = self._start_text(turn_id, out)
                    out.append(TextDelta(id=text_id, delta=data.text))
                out.extend(self._close_text())
                return out, False
            case ToolCalled():
                out = [*self._open(turn_id), *self._close_text()]
                out.extend(self._announce(data.call_id, data.name, data.arguments or {}))
                return out, False
            case ToolReturned():
                return [*self._open(turn_id), _result(data)], False
            case InputRequested() | AuthorizationRequested():
                out = [*self._open(turn_id), *self._close_text()]
                out.extend(self._ask(data.request, event))
                return out, False
            case TurnWaiting():
                return [*self._open(turn_id), *self._finish(None)], True
            case TurnCompleted():
                usage = event.to_json()["data"].get("usage")
                metadata = {"usage": usage} if usage is not None else None
                return [*self._open(turn_id), *self._finish("stop", metadata)], True
            case TurnCancelled():
                out = [*self._open(turn_id), *self._close_text()]
                out.append(Abort(reason=data.reason or "cancelled"))
                return out, True
            case TurnFailed():
                out = [*self._open(turn_id), *self._close_text()]
                out.append(ErrorPart(error_text=data.error or "the turn failed"))
                out.extend(self._finish("error"))
                return out, True
            case SessionClosed() | SessionFailed():
                return (self._finish("other") if self.started else []), True
            case _:
                assert_never(data)

    def _open(self, turn_id: str | None) -> list[UiPart]:
        out: list[UiPart] = []
        if not self.started:
            self.started = True
            out.append(Start(message_id=turn_id or None))
        if not self.step_open:
            self.step_open = True
            out.append(StartStep())
        return out

    def _start_text(self, turn_id: str | None, out: list[UiPart]) -> str:
        """Open a text part (its start appended to `out`); its id."""
        self.texts += 1
        text_id = self.text_id = f"{turn_id}-text-{self.texts}"
        out.append(TextStart(id=text_id))
        return text_id

    def _close_text(self) -> list[UiPart]:
        if self.text_id is None:
            return []
        text_id, self.text_id = self.text_id, None
        return [TextEnd(id=text_id)]

    def _announce(self, call_id: str, name: str, arguments: Any) -> list[UiPart]:
        """The call's input part, unless the client was shown the call already."""
        if call_id in self.announced:
            return []
        self.announced.add(call_id)
        return [ToolInputAvailable(tool_call_id=call_id, tool_name=name, input=arguments)]

    def _ask(self, request: InputRequest, event: SessionEvent) -> list[UiPart]:
        if request.kind == "approval" and request.call_id:
            # A call that needs approval is announced by its request: the UI shows the
            # call, then asks.
            arguments = request.data.get("arguments") or {}
            name = request.tool_name or "tool"
            return [
                *self._announce(request.call_id, name, arguments),
                ToolApprovalRequest(approval_id=request.request_id, tool_call_id=request.call_id),
            ]
        # Questions and authorizations have no UI part of their own: a data part carries
        # the request (answer it with POST .../requests/{id}/answer).
        return [DataPart(id=request.request_id, data=event.to_json()["data"])]

    def _finish(
        self, reason: FinishReason | None, metadata: dict[str, Any] | None = None
    ) -> list[UiPart]:
        out = self._close_text()
        if self.step_open:
            self.step_open = False
            out.append(FinishStep())
        out.append(Finish(finish_reason=reason, message_metadata=metadata))
        return out


def _result(data: ToolReturned) -> UiPart:
    if data.outcome == "denied":
        return ToolOutputDenied(tool_call_id=data.call_id)
    if data.is_error:
        return ToolOutputError(tool_call_id=data.call_id, error_text=data.content or data.outcome)
    return ToolOutputAvailable(tool_call_id=data.call_id, output=data.content)


def ui_parts(events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The UI parts (their JSON) of session events in wire form, up to a response's end.

    An event of a type this version does not define is skipped with a warning.

    Raises:
        SerializationError: An event does not fit its record.
    """
    projection = UiProjection()
    out: list[dict[str, Any]] = []
    for event in known_events(events, "AI SDK"):
        parts, end = projection.parts(event)
        out.extend(part.to_json() for part in parts)
        if end:
            break
    return out
