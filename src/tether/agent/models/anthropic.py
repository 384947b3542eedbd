"""Anthropic's Messages API, streamed over server-sent events.

Needs ``httpx`` (``pip install 'tether[anthropic]'``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from ...errors import ModelError
from ._accepts import check_request_attachments, provider_kinds
from ._attachments import AttachmentData, AttachmentKind, attachment_kind
from ._guard import check_network_allowed
from ._http import DEFAULT_CONNECT_TIMEOUT, require_httpx, stream_sse
from ._model import DEFAULT_STALL_TIMEOUT
from ._types import (
    AssistantMessage,
    ModelRequest,
    ModelResponse,
    ResponseComplete,
    StopReason,
    StreamEvent,
    TextDelta,
    ToolCall,
    ToolCallArgsDelta,
    ToolCallComplete,
    ToolCallStart,
    ToolResultMessage,
    Usage,
    UsageUpdate,
    UserMessage,
    parse_tool_arguments,
    usage_details,
)

if TYPE_CHECKING:
    import httpx

__all__ = [
    "ANTHROPIC_BASE_URL",
    "ANTHROPIC_VERSION",
    "DEFAULT_ANTHROPIC_MAX_TOKENS",
    "AnthropicModel",
]

ANTHROPIC_BASE_URL = "https://api.anthropic.com"
"""The default base URL; requests go to ``<base>/v1/messages``."""

ANTHROPIC_VERSION = "2023-06-01"
"""The ``anthropic-version`` header sent with every request."""

DEFAULT_ANTHROPIC_MAX_TOKENS = 4096
"""``max_tokens`` is required by the API; this is used when the request sets none."""

_STOP_REASONS: dict[str, StopReason] = {
    "end_turn": "end_turn",
    "tool_use": "tool_calls",
    "max_tokens": "max_tokens",
    "stop_sequence": "stop_sequence",
    "refusal": "refusal",
}
_RETRYABLE_ERROR_TYPES = frozenset(
    {"overloaded_error", "api_error", "rate_limit_error", "timeout_error"}
)


class AnthropicModel:
    """A Claude model behind Anthropic's Messages API.

    Args:
        model: The model name, e.g. ``"claude-sonnet-4-5"``.
        api_key: Sent as ``x-api-key``.
        base_url: The API root; requests go to ``<base_url>/v1/messages``.
        max_tokens: Used when the request's settings give none (the API requires one).
        stall_timeout: Seconds without a byte after which the stream is abandoned.
        connect_timeout: Seconds to establish a connection.
        headers: Extra headers for every request (e.g. ``anthropic-beta``).
        http_client: An ``httpx.AsyncClient`` to reuse; by default each call opens its own.
        attachment_kinds: The kinds of files the model takes (default: images, PDFs and
            text); a message carrying another kind is refused when it is sent.
    """

    provider = "anthropic"

    def __init__(
        self,
        model: str,
        *,
        api_key: str,
        base_url: str = ANTHROPIC_BASE_URL,
        max_tokens: int = DEFAULT_ANTHROPIC_MAX_TOKENS,
        stall_timeout: float = DEFAULT_STALL_TIMEOUT,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        headers: dict[str, str] | None = None,
        http_client: httpx.AsyncClient | None = None,
        attachment_kinds: Iterable[AttachmentKind] | None = None,
    ) -> None:
        require_httpx("anthropic")
        self.model = model
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.max_tokens = max_tokens
        self.stall_timeout = stall_timeout
        self.connect_timeout = connect_timeout
        self.headers = dict(headers or {})
        self.http_client = http_client
        self.attachment_kinds = frozenset(
            provider_kinds("anthropic") if attachment_kinds is None else attachment_kinds
        )

    @property
    def name(self) -> str:
        """The model as ``"anthropic:model"``."""
        return f"anthropic:{self.model}"

    def accepts_attachment(self, mime_type: str) -> bool:
        """Whether a message may carry a file of `mime_type` to this model."""
        return attachment_kind(mime_type) in self.attachment_kinds

    def __repr__(self) -> str:
        return f"AnthropicModel({self.model!r}, base_url={self.base_url!r})"

    def build_body(self, request: ModelRequest) -> dict[str, Any]:
        """Return the JSON body sent for ``request``.

        Raises:
            ModelError: (not retryable) a message carries a file the model does not take.
        """
        check_request_attachments("anthropic", request, self.attachment_kinds)
        settings = request.settings
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": settings.max_tokens or self.max_tokens,
            "messages": _messages(request),
            "stream": True,
        }
        if request.instructions:
            body["system"] = request.instructions
        if request.tools:
            body["tools"] = [
                {
                    "name": tool.name,
                    "description": tool.description,
                    "input_schema": dict(tool.parameters),
                }
                for tool in request.tools
            ]
        # Only what the request asks for; and recent models take one of temperature and
        # top_p, so temperature wins when both are given.
        if settings.temperature is not None:
            body["temperature"] = settings.temperature
        elif settings.top_p is not None:
            body["top_p"] = settings.top_p
        if settings.stop:
            body["stop_sequences"] = list(settings.stop)
        return body

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """Send ``request`` and yield the answer as it streams.

        Raises:
            ModelError: The call failed; ``retryable`` says whether retrying may help.
            ConfigurationError: Network models are forbidden in this context.
        """
        check_network_allowed(self.name)
        headers = {
            **self.headers,
            "x-api-key": self.api_key,
            "anthropic-version": ANTHROPIC_VERSION,
        }
        state = _StreamState()
        events = stream_sse(
            provider="anthropic",
            url=f"{self.base_url}/v1/messages",
            headers=headers,
            body=self.build_body(request),
            stall_timeout=self.stall_timeout,
            connect_timeout=self.connect_timeout,
            http_client=self.http_client,
            hints={
                401: "the API key was rejected: check ANTHROPIC_API_KEY",
                403: f"the API key may not use model {self.model!r}: check its permissions",
                404: f"check the model name {self.model!r} and the base URL {self.base_url!r}",
                0: "the request was rejected: fix it before retrying",
            },
        )
        try:
            async for sse in events:
                for event in state.handle(sse.event, sse.data):
                    yield event
                if state.stopped:
                    break
        finally:
            await events.aclose()
        if not state.stopped:
            raise ModelError(
                "anthropic: the stream ended before message_stop",
                provider="anthropic",
                retryable=True,
            )
        yield ResponseComplete(response=state.response())


def _attachment_block(item: AttachmentData) -> dict[str, Any]:
    kind = item.kind
    if kind == "image":
        source = {"type": "base64", "media_type": item.mime_type, "data": item.base64()}
        return {"type": "image", "source": source}
    if kind == "pdf":
        source = {"type": "base64", "media_type": "application/pdf", "data": item.base64()}
        block: dict[str, Any] = {"type": "document", "source": source}
        if item.filename:
            block["title"] = item.filename
        return block
    return {"type": "text", "text": item.as_text()}


def _messages(request: ModelRequest) -> list[dict[str, Any]]:
    """Convert messages, merging neighbours of one role as the API requires."""
    messages: list[dict[str, Any]] = []

    def add(role: str, block: dict[str, Any]) -> None:
        if messages and messages[-1]["role"] == role:
            messages[-1]["content"].append(block)
        else:
            messages.append({"role": role, "content": [block]})

    for message in request.messages:
        if isinstance(message, UserMessage):
            # Files first, then the words about them (as Anthropic advises); a message
            # of files alone sends no empty text block, which the API refuses.
            for item in message.attachments:
                add("user", _attachment_block(item))
            if message.text or not message.attachments:
                add("user", {"type": "text", "text": message.text})
        elif isinstance(message, AssistantMessage):
            if message.text:
                add("assistant", {"type": "text", "text": message.text})
            for call in message.tool_calls:
                add(
                    "assistant",
                    {
                        "type": "tool_use",
                        "id": call.call_id,
                        "name": call.name,
                        "input": dict(call.arguments),
                    },
                )
        elif isinstance(message, ToolResultMessage):
            block: dict[str, Any] = {
                "type": "tool_result",
                "tool_use_id": message.call_id,
                "content": message.content,
            }
            if message.is_error:
                block["is_error"] = True
            add("user", block)
    return messages


@dataclass(slots=True)
class _Block:
    kind: str
    tool_index: int = -1
    call_id: str = ""
    name: str = ""
    initial_input: Any = None
    parts: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _StreamState:
    blocks: dict[int, _Block] = field(default_factory=dict)
    text: list[str] = field(default_factory=list)
    calls: list[ToolCall] = field(default_factory=list)
    tool_count: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    details: dict[str, int] = field(default_factory=dict)
    stop_reason: str | None = None
    model: str = ""
    response_id: str | None = None
    stopped: bool = False

    def handle(self, event_name: str, data: str) -> list[StreamEvent]:
        try:
            payload: Any = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            raise _malformed(f"{event_name!r} data is not JSON: {exc}", data) from None
        if not isinstance(payload, dict):
            raise _malformed(f"{event_name!r} data is not a JSON object", data)
        kind = payload.get("type", event_name)
        if kind == "error":
            raise _stream_error(payload.get("error"))
        try:
            return self._dispatch(kind, payload)
        except (KeyError, TypeError, ValueError) as exc:
            raise _malformed(f"unexpected {kind!r} event ({exc!r})", data) from None

    def _dispatch(self, kind: str, payload: dict[str, Any]) -> list[StreamEvent]:
        if kind == "message_start":
            message = payload["message"]
            self.model = str(message.get("model") or "")
            self.response_id = message.get("id")
            usage = message.get("usage") or {}
            self.input_tokens = _input_tokens(usage)
            self.output_tokens = int(usage.get("output_tokens") or 0)
            self.cached_tokens = int(usage.get("cache_read_input_tokens") or 0)
            self.details = {**self.details, **usage_details(usage)}
            return [UsageUpdate(usage=self._usage())]
        if kind == "content_block_start":
            return self._block_start(int(payload["index"]), payload["content_block"])
        if kind == "content_block_delta":
            return self._block_delta(int(payload["index"]), payload["delta"])
        if kind == "content_block_stop":
            return self._block_stop(int(payload["index"]))
        if kind == "message_delta":
            delta = payload.get("delta") or {}
            if delta.get("stop_reason"):
                self.stop_reason = str(delta["stop_reason"])
            usage = payload.get("usage") or {}
            if usage.get("output_tokens") is not None:
                self.output_tokens = int(usage["output_tokens"])
            if usage.get("input_tokens") is not None:
                # Newer API versions repeat the cumulative input counts here.
                self.input_tokens = _input_tokens(usage)
            if usage.get("cache_read_input_tokens") is not None:
                self.cached_tokens = int(usage["cache_read_input_tokens"])
            self.details = {**self.details, **usage_details(usage)}
            return [UsageUpdate(usage=self._usage())]
        if kind == "message_stop":
            self.stopped = True
        # ping and event types added after this code was written are ignored.
        return []

    def _block_start(self, index: int, block: dict[str, Any]) -> list[StreamEvent]:
        kind = str(block["type"])
        if kind == "tool_use":
            entry = _Block(
                kind=kind,
                tool_index=self.tool_count,
                call_id=str(block["id"]),
                name=str(block["name"]),
                initial_input=block.get("input"),
            )
            self.tool_count += 1
            self.blocks[index] = entry
            return [ToolCallStart(index=entry.tool_index, call_id=entry.call_id, name=entry.name)]
        entry = _Block(kind=kind)
        self.blocks[index] = entry
        initial = block.get("text")
        if kind == "text" and isinstance(initial, str) and initial:
            entry.parts.append(initial)
            self.text.append(initial)
            return [TextDelta(text=initial)]
        return []

    def _block_delta(self, index: int, delta: dict[str, Any]) -> list[StreamEvent]:
        block = self.blocks[index]
        kind = delta["type"]
        if kind == "text_delta" and block.kind == "text":
            text = str(delta["text"])
            if not text:
                return []
            block.parts.append(text)
            self.text.append(text)
            return [TextDelta(text=text)]
        if kind == "input_json_delta" and block.kind == "tool_use":
            fragment = str(delta["partial_json"])
            if not fragment:
                return []
            block.parts.append(fragment)
            return [
                ToolCallArgsDelta(index=block.tool_index, call_id=block.call_id, delta=fragment)
            ]
        # Thinking, signatures and other block kinds are not part of the answer.
        return []

    def _block_stop(self, index: int) -> list[StreamEvent]:
        block = self.blocks[index]
        if block.kind != "tool_use":
            return []
        arguments = "".join(block.parts)
        if not arguments and block.initial_input:
            arguments = orjson.dumps(block.initial_input).decode()
        call = parse_tool_arguments(block.call_id, block.name, arguments)
        self.calls.append(call)
        return [ToolCallComplete(index=block.tool_index, call=call)]

    def _usage(self) -> Usage:
        return Usage(
            input_tokens=self.input_tokens,
            output_tokens=self.output_tokens,
            cached_tokens=self.cached_tokens,
            details=dict(self.details),
        )

    def response(self) -> ModelResponse:
        if self.stop_reason is None:
            stop: StopReason = "tool_calls" if self.calls else "end_turn"
        else:
            stop = _STOP_REASONS.get(self.stop_reason, "other")
        return ModelResponse(
            text="".join(self.text),
            tool_calls=tuple(self.calls),
            stop_reason=stop,
            provider_stop_reason=self.stop_reason,
            usage=self._usage(),
            model=self.model,
            response_id=self.response_id,
        )


def _input_tokens(usage: dict[str, Any]) -> int:
    return (
        int(usage.get("input_tokens") or 0)
        + int(usage.get("cache_creation_input_tokens") or 0)
        + int(usage.get("cache_read_input_tokens") or 0)
    )


def _malformed(why: str, data: str) -> ModelError:
    # A corrupted event is a bad answer, not a bad request: another call may succeed.
    return ModelError(
        f"anthropic: malformed stream event ({why}): {data[:200]!r}",
        provider="anthropic",
        retryable=True,
    )


def _stream_error(error: Any) -> ModelError:
    """Classify an ``error`` event sent in the middle of a stream."""
    if not isinstance(error, dict):
        return ModelError(
            f"anthropic: error in stream: {error!r}", provider="anthropic", retryable=True
        )
    kind = str(error.get("type") or "")
    message = str(error.get("message") or "")
    return ModelError(
        f"anthropic: error in stream: {kind}: {message}",
        provider="anthropic",
        status_code=529 if kind == "overloaded_error" else None,
        retryable=kind in _RETRYABLE_ERROR_TYPES or not kind,
    )
