"""Model providers: one streaming ``Model`` protocol, provider-neutral records.

Pick a model by name with :func:`resolve_model` (``"openai:gpt-4o-mini"``,
``"anthropic:claude-sonnet-4-5"``, ``"openai-compatible:llama3.1"``) or build one
directly (:class:`OpenAIChatModel`, :class:`AnthropicModel`). Every model streams
:data:`StreamEvent` values ending in :class:`ResponseComplete`; failures raise
:class:`~tether.errors.ModelError`, classified retryable or not.
"""

from __future__ import annotations

from ._accepts import accepts_attachment as accepts_attachment
from ._attachments import AttachmentData as AttachmentData
from ._attachments import AttachmentKind as AttachmentKind
from ._attachments import attachment_kind as attachment_kind
from ._guard import forbid_network_models as forbid_network_models
from ._model import DEFAULT_STALL_TIMEOUT as DEFAULT_STALL_TIMEOUT
from ._model import Model as Model
from ._model import collect_response as collect_response
from ._resolve import KNOWN_PROVIDERS as KNOWN_PROVIDERS
from ._resolve import resolve_model as resolve_model
from ._types import AssistantMessage as AssistantMessage
from ._types import ChatMessage as ChatMessage
from ._types import ModelRequest as ModelRequest
from ._types import ModelResponse as ModelResponse
from ._types import ModelSettings as ModelSettings
from ._types import ResponseComplete as ResponseComplete
from ._types import StopReason as StopReason
from ._types import StreamEvent as StreamEvent
from ._types import TextDelta as TextDelta
from ._types import ToolCall as ToolCall
from ._types import ToolCallArgsDelta as ToolCallArgsDelta
from ._types import ToolCallComplete as ToolCallComplete
from ._types import ToolCallStart as ToolCallStart
from ._types import ToolDefinition as ToolDefinition
from ._types import ToolResultMessage as ToolResultMessage
from ._types import Usage as Usage
from ._types import UsageUpdate as UsageUpdate
from ._types import UserMessage as UserMessage
from ._types import parse_tool_arguments as parse_tool_arguments
from .anthropic import AnthropicModel as AnthropicModel
from .openai import OpenAIChatModel as OpenAIChatModel

__all__ = [
    "DEFAULT_STALL_TIMEOUT",
    "KNOWN_PROVIDERS",
    "AnthropicModel",
    "AssistantMessage",
    "AttachmentData",
    "AttachmentKind",
    "ChatMessage",
    "Model",
    "ModelRequest",
    "ModelResponse",
    "ModelSettings",
    "OpenAIChatModel",
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
    "accepts_attachment",
    "attachment_kind",
    "collect_response",
    "forbid_network_models",
    "parse_tool_arguments",
]
