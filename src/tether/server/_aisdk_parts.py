"""The UI parts tether sends on the Vercel AI SDK's UI message stream (protocol v1).

The AI SDK calls each item of the stream a ``UIMessageChunk``; tether calls it a *UI
part* (a *chunk* is a piece of a run's stream). One frozen model per part type tether
emits, its fields in snake_case; its JSON form (`UiPart.to_json`) has the SDK's
camelCase members, an optional member that is None left out.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AliasGenerator, BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

__all__ = [
    "Abort",
    "DataPart",
    "ErrorPart",
    "Finish",
    "FinishStep",
    "Start",
    "StartStep",
    "StatePart",
    "TextDelta",
    "TextEnd",
    "TextStart",
    "ToolApprovalRequest",
    "ToolInputAvailable",
    "ToolOutputAvailable",
    "ToolOutputDenied",
    "ToolOutputError",
    "UiPart",
]

FinishReason = Literal["stop", "error", "other"]


class UiPart(BaseModel):
    """A part of the UI message stream; `type` names it (``"text-delta"``, ...)."""

    model_config = ConfigDict(
        frozen=True, extra="forbid", alias_generator=AliasGenerator(serialization_alias=to_camel)
    )

    type: str

    def to_json(self) -> dict[str, Any]:
        """The part as the SDK reads it: camelCase members, unset optional ones left out."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)


class Start(UiPart):
    """Opens the assistant message (its id is the turn id)."""

    type: Literal["start"] = "start"
    message_id: str | None = None


class StartStep(UiPart):
    """Opens a step of the message."""

    type: Literal["start-step"] = "start-step"


class FinishStep(UiPart):
    """Closes the open step."""

    type: Literal["finish-step"] = "finish-step"


class Finish(UiPart):
    """Closes the message (no reason: the turn waits, on input or on tasks).

    A completed turn's metadata carries its token usage (``{"usage": {...}}``), which
    the SDK keeps as the message's ``metadata``.
    """

    type: Literal["finish"] = "finish"
    finish_reason: FinishReason | None = None
    message_metadata: dict[str, Any] | None = None


class TextStart(UiPart):
    """Opens a text part of the reply."""

    type: Literal["text-start"] = "text-start"
    id: str


class TextDelta(UiPart):
    """A fragment of an open text part."""

    type: Literal["text-delta"] = "text-delta"
    id: str
    delta: str


class TextEnd(UiPart):
    """Closes a text part."""

    type: Literal["text-end"] = "text-end"
    id: str


class ToolInputAvailable(UiPart):
    """A tool call with its arguments (a dynamic tool: the app declares no tool types)."""

    type: Literal["tool-input-available"] = "tool-input-available"
    tool_call_id: str
    tool_name: str
    input: Any
    dynamic: bool = True


class ToolOutputAvailable(UiPart):
    """A tool call's result."""

    type: Literal["tool-output-available"] = "tool-output-available"
    tool_call_id: str
    output: Any
    dynamic: bool = True


class ToolOutputError(UiPart):
    """A tool call that failed (or was revoked, cancelled or interrupted)."""

    type: Literal["tool-output-error"] = "tool-output-error"
    tool_call_id: str
    error_text: str
    dynamic: bool = True


class ToolOutputDenied(UiPart):
    """A tool call whose approval was refused."""

    type: Literal["tool-output-denied"] = "tool-output-denied"
    tool_call_id: str


class ToolApprovalRequest(UiPart):
    """A tool call waiting for its approval (answered with ``addToolApprovalResponse``)."""

    type: Literal["tool-approval-request"] = "tool-approval-request"
    approval_id: str
    tool_call_id: str


class DataPart(UiPart):
    """A ``data-*`` part: tether's own data (``data-tether-input``: a pending request)."""

    type: Literal["data-tether-input"] = "data-tether-input"
    id: str
    data: dict[str, Any]


class StatePart(UiPart):
    """``data-tether-state``: the session's declared state (`State` values) as a turn ends."""

    type: Literal["data-tether-state"] = "data-tether-state"
    id: Literal["state"] = "state"
    data: dict[str, Any]


class Abort(UiPart):
    """The message was aborted (the turn was cancelled)."""

    type: Literal["abort"] = "abort"
    reason: str


class ErrorPart(UiPart):
    """The turn failed."""

    type: Literal["error"] = "error"
    error_text: str
