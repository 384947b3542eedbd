"""The AG-UI events tether sends (``@ag-ui/core`` 1.0): one frozen model per event type.

Fields are snake_case here; the JSON form (`AguiEvent.to_json`) has AG-UI's camelCase
members, an optional member that is None left out. An *AG-UI event* is what the
front end reads; a *session event* is what tether's session published.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AliasGenerator, BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

__all__ = [
    "AguiEvent",
    "Interrupt",
    "RunError",
    "RunFinished",
    "RunOutcome",
    "RunStarted",
    "StateDelta",
    "StateSnapshot",
    "StepFinished",
    "StepStarted",
    "TextMessageContent",
    "TextMessageEnd",
    "TextMessageStart",
    "ToolCallArgs",
    "ToolCallEnd",
    "ToolCallResult",
    "ToolCallStart",
]


class _Wire(BaseModel):
    model_config = ConfigDict(
        frozen=True, extra="forbid", alias_generator=AliasGenerator(serialization_alias=to_camel)
    )

    def to_json(self) -> dict[str, Any]:
        """The JSON form: camelCase members, the optional ones that are None left out."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)


class Interrupt(_Wire):
    """Something a parked run needs answered: a tether request (``id`` is its id)."""

    id: str
    reason: Literal["tool_call", "confirmation", "input_required"]
    tool_call_id: str | None = None
    message: str | None = None
    response_schema: dict[str, Any] | None = None
    metadata: dict[str, Any] | None = None


class RunOutcome(_Wire):
    """Why a run finished: ``success``, ``cancelled`` or ``interrupt`` (with its interrupts)."""

    type: Literal["success", "cancelled", "interrupt"]
    interrupts: tuple[Interrupt, ...] | None = None


class AguiEvent(_Wire):
    """An AG-UI event; `type` names it (``"RUN_STARTED"``, ...)."""

    type: str


class RunStarted(AguiEvent):
    """Opens a run."""

    type: Literal["RUN_STARTED"] = "RUN_STARTED"
    thread_id: str
    run_id: str


class RunFinished(AguiEvent):
    """Closes a run that did not fail."""

    type: Literal["RUN_FINISHED"] = "RUN_FINISHED"
    thread_id: str
    run_id: str
    outcome: RunOutcome


class RunError(AguiEvent):
    """Ends a run that failed (``code``: ``turn_failed``, ``session_failed``, ...)."""

    type: Literal["RUN_ERROR"] = "RUN_ERROR"
    message: str
    code: str


class StateDelta(AguiEvent):
    """What a tool call changed in the session's declared state, as JSON Patch ``add``s."""

    type: Literal["STATE_DELTA"] = "STATE_DELTA"
    delta: list[dict[str, Any]]


class StateSnapshot(AguiEvent):
    """The session's declared state (`tether.agent.State` values), as the run ends."""

    type: Literal["STATE_SNAPSHOT"] = "STATE_SNAPSHOT"
    snapshot: dict[str, Any]


class StepStarted(AguiEvent):
    """Opens a step: a durable step of the turn (``<turn id>/step-<n>``)."""

    type: Literal["STEP_STARTED"] = "STEP_STARTED"
    step_name: str


class StepFinished(AguiEvent):
    """Closes the open step."""

    type: Literal["STEP_FINISHED"] = "STEP_FINISHED"
    step_name: str


class TextMessageStart(AguiEvent):
    """Opens a text message of the reply."""

    type: Literal["TEXT_MESSAGE_START"] = "TEXT_MESSAGE_START"
    message_id: str
    role: Literal["assistant"] = "assistant"


class TextMessageContent(AguiEvent):
    """A fragment of an open text message."""

    type: Literal["TEXT_MESSAGE_CONTENT"] = "TEXT_MESSAGE_CONTENT"
    message_id: str
    delta: str


class TextMessageEnd(AguiEvent):
    """Closes a text message."""

    type: Literal["TEXT_MESSAGE_END"] = "TEXT_MESSAGE_END"
    message_id: str


class ToolCallStart(AguiEvent):
    """Opens a tool call (``parent_message_id``: the reply's text message, if any)."""

    type: Literal["TOOL_CALL_START"] = "TOOL_CALL_START"
    tool_call_id: str
    tool_call_name: str
    parent_message_id: str | None = None


class ToolCallArgs(AguiEvent):
    """A tool call's arguments (all of them: tether has them whole, as JSON text)."""

    type: Literal["TOOL_CALL_ARGS"] = "TOOL_CALL_ARGS"
    tool_call_id: str
    delta: str


class ToolCallEnd(AguiEvent):
    """Closes a tool call: its arguments are complete."""

    type: Literal["TOOL_CALL_END"] = "TOOL_CALL_END"
    tool_call_id: str


class ToolCallResult(AguiEvent):
    """What a tool returned (``metadata.tether``: its outcome and whether it failed)."""

    type: Literal["TOOL_CALL_RESULT"] = "TOOL_CALL_RESULT"
    message_id: str
    tool_call_id: str
    content: str
    role: Literal["tool"] = "tool"
    metadata: dict[str, Any]
