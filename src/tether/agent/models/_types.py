"""The provider-neutral records a model call takes and streams back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

import orjson

from ._attachments import AttachmentData

__all__ = [
    "AssistantMessage",
    "ChatMessage",
    "ModelRequest",
    "ModelResponse",
    "ModelSettings",
    "ResponseComplete",
    "StopReason",
    "StreamEvent",
    "TextDelta",
    "ToolCall",
    "ToolCallArgsDelta",
    "ToolCallComplete",
    "ToolCallStart",
    "ToolDefinition",
    "ToolResultMessage",
    "Usage",
    "UsageUpdate",
    "UserMessage",
    "parse_tool_arguments",
    "usage_details",
]

StopReason: TypeAlias = Literal[
    "end_turn", "tool_calls", "max_tokens", "stop_sequence", "content_filter", "refusal", "other"
]
"""Why the model stopped, mapped from each provider's own vocabulary."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolCall:
    """A complete tool call the model asked for.

    ``arguments`` is the parsed JSON object. When the model produced text that is not a
    JSON object, ``arguments`` is empty and ``parse_error`` says why, so the caller can
    send the error back to the model instead of failing the turn.
    """

    call_id: str
    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    arguments_json: str = ""
    parse_error: str | None = None

    def arguments_text(self) -> str:
        """Return the arguments as JSON text, as the model sent them when known."""
        if self.arguments_json:
            return self.arguments_json
        return orjson.dumps(dict(self.arguments)).decode()


def parse_tool_arguments(call_id: str, name: str, arguments_json: str) -> ToolCall:
    """Build a :class:`ToolCall` from the JSON text a model streamed.

    Args:
        call_id: The provider's id of the call.
        name: The tool name.
        arguments_json: The concatenated argument fragments; empty means no arguments.

    Returns:
        The call, with ``parse_error`` set when the text is not a JSON object.
    """
    if not arguments_json.strip():
        return ToolCall(call_id=call_id, name=name, arguments={}, arguments_json="{}")
    try:
        value = orjson.loads(arguments_json)
    except orjson.JSONDecodeError as exc:
        error = f"the arguments are not valid JSON ({exc}): {arguments_json[:200]!r}"
        return ToolCall(
            call_id=call_id, name=name, arguments_json=arguments_json, parse_error=error
        )
    if not isinstance(value, dict):
        error = f"the arguments must be a JSON object, got {type(value).__name__}"
        return ToolCall(
            call_id=call_id, name=name, arguments_json=arguments_json, parse_error=error
        )
    return ToolCall(call_id=call_id, name=name, arguments=value, arguments_json=arguments_json)


@dataclass(frozen=True, slots=True, kw_only=True)
class UserMessage:
    """Text from the user, with the files and images the message carries."""

    text: str
    attachments: tuple[AttachmentData, ...] = ()
    role: Literal["user"] = field(default="user", init=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class AssistantMessage:
    """What the model said earlier: text, tool calls, or both."""

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    role: Literal["assistant"] = field(default="assistant", init=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolResultMessage:
    """The result of one tool call, sent back to the model."""

    call_id: str
    name: str
    content: str
    is_error: bool = False
    role: Literal["tool"] = field(default="tool", init=False)


ChatMessage: TypeAlias = UserMessage | AssistantMessage | ToolResultMessage
"""One entry of the conversation sent to a model."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolDefinition:
    """A tool the model may call; ``parameters`` is a JSON schema of an object."""

    name: str
    description: str = ""
    parameters: Mapping[str, Any] = field(
        default_factory=lambda: {"type": "object", "properties": {}}
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class ModelSettings:
    """Sampling options; ``None`` leaves the provider's default."""

    max_tokens: int | None = None
    temperature: float | None = None
    top_p: float | None = None
    stop: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ModelRequest:
    """Everything one model call needs."""

    instructions: str | None = None
    messages: tuple[ChatMessage, ...] = ()
    tools: tuple[ToolDefinition, ...] = ()
    settings: ModelSettings = field(default_factory=ModelSettings)


@dataclass(frozen=True, slots=True, kw_only=True)
class Usage:
    """Token counts reported by the provider for one model call.

    Attributes:
        input_tokens: Input tokens in all, those read from the provider's prompt cache
            and those written to it included.
        output_tokens: Output tokens (reasoning tokens included, where the provider
            counts them there).
        cached_tokens: Of `input_tokens`, those read from the provider's prompt cache
            (billed at a lower price by most providers).
        details: The provider's own usage fields as it sent them, flattened to
            ``name`` or ``parent.name`` keys with integer values (reasoning tokens,
            cache writes, ...), for what the three counts above do not say.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    details: Mapping[str, int] = field(default_factory=dict)

    @property
    def total_tokens(self) -> int:
        """Input plus output tokens."""
        return self.input_tokens + self.output_tokens


def usage_details(raw: Mapping[str, Any], prefix: str = "") -> dict[str, int]:
    """A provider's usage object flattened to integer fields (see `Usage.details`)."""
    out: dict[str, int] = {}
    for key, value in raw.items():
        name = f"{prefix}{key}"
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            out[name] = value
        elif isinstance(value, Mapping):
            out.update(usage_details(value, f"{name}."))
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class ModelResponse:
    """The complete answer of one model call."""

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    stop_reason: StopReason = "end_turn"
    provider_stop_reason: str | None = None
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    response_id: str | None = None

    def to_message(self) -> AssistantMessage:
        """Return the answer as a message to append to the conversation."""
        return AssistantMessage(text=self.text, tool_calls=self.tool_calls)


@dataclass(frozen=True, slots=True, kw_only=True)
class TextDelta:
    """A fragment of the answer's text."""

    text: str
    kind: Literal["text_delta"] = field(default="text_delta", init=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolCallStart:
    """The model began a tool call; ``index`` orders calls within the answer."""

    index: int
    call_id: str
    name: str
    kind: Literal["tool_call_start"] = field(default="tool_call_start", init=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolCallArgsDelta:
    """A fragment of a tool call's JSON arguments."""

    index: int
    call_id: str
    delta: str
    kind: Literal["tool_call_args_delta"] = field(default="tool_call_args_delta", init=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolCallComplete:
    """A tool call is complete and its arguments parsed."""

    index: int
    call: ToolCall
    kind: Literal["tool_call_complete"] = field(default="tool_call_complete", init=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class UsageUpdate:
    """Token usage reported so far."""

    usage: Usage
    kind: Literal["usage"] = field(default="usage", init=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class ResponseComplete:
    """The last event of every successful stream."""

    response: ModelResponse
    kind: Literal["response_complete"] = field(default="response_complete", init=False)


StreamEvent: TypeAlias = (
    TextDelta
    | ToolCallStart
    | ToolCallArgsDelta
    | ToolCallComplete
    | UsageUpdate
    | ResponseComplete
)
"""One event of a model stream; the last one is always :class:`ResponseComplete`."""
